// compiler/kueue entry points: the checked policy model -> Kueue's rules
// checked at compile time -> the desired objects of every cluster.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/objects.h"
#include "compiler/sema/model.h"

namespace mkq::kueue {

struct LowerOptions {
  // The value of the mkq.dev/policy label: the policy's identity (policy_name.h),
  // a valid label value.
  std::string policy_name;
};

// Checks every rule of Kueue (../shared/kueue/VALIDATION.md) that can be
// decided before apply and that the binder did not already check, adding
// diagnostics at the policy source; then lowers the model. Returns the desired
// state only when no error was found.
std::optional<DesiredState> lower(const sema::model::Policy& policy, const LowerOptions& options,
                                  diag::Diagnostics& diagnostics);

namespace detail {
struct LowerContext;
}

// The desired state one cluster at a time, for a caller that writes a cluster
// and lets it go before the next (`mkq render`): memory grows with the largest
// cluster, not with the fleet. cluster(i) is exactly lower()'s clusters[i].
// The policy must have passed validate() without an error, and must outlive
// this object.
class ClusterLowering {
 public:
  ClusterLowering(const sema::model::Policy& policy, LowerOptions options);
  ~ClusterLowering();
  ClusterLowering(const ClusterLowering&) = delete;
  ClusterLowering& operator=(const ClusterLowering&) = delete;

  // The manager and every worker.
  std::size_t size() const;
  // 0: the manager; then the workers, sorted by name (as the policy holds them).
  ClusterObjects cluster(std::size_t index) const;

 private:
  LowerOptions options_;  // before context_, which refers to it
  std::unique_ptr<detail::LowerContext> context_;
};

}  // namespace mkq::kueue
