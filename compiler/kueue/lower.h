// compiler/kueue entry points: the checked policy model -> Kueue's rules
// checked at compile time -> the desired objects of every cluster.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

// Receives one cluster's objects as lowering makes them: not yet in apply
// order (ApplyPosition sorts them), depends_on not yet narrowed to the
// cluster's own objects.
class ObjectSink {
 public:
  virtual ~ObjectSink() = default;
  virtual void add(Object object) = 0;
};

// What decides where an object goes in its cluster's apply order
// (ClusterObjects::objects): its kind (schema::apply_rank), then namespace,
// then name.
struct ApplyPosition {
  int rank = 0;
  std::string namespace_name;
  std::string name;
};
ApplyPosition apply_position(const Object& object);
// The indexes of `positions` (a cluster's objects in the order lowering made
// them) in apply order; the order made decides between equals, so the order
// is total.
std::vector<std::size_t> apply_order(const std::vector<ApplyPosition>& positions);

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
  // cluster(index)'s objects handed to `sink` one at a time as they are made,
  // for a caller that writes each object and lets it go at once (`mkq
  // render`): no more than one object's document exists at a time.
  void each_object(std::size_t index, ObjectSink& sink) const;
  const std::string& name(std::size_t index) const;  // cluster(index).cluster
  ClusterRole role(std::size_t index) const;         // cluster(index).role

 private:
  LowerOptions options_;  // before context_, which refers to it
  std::unique_ptr<detail::LowerContext> context_;
};

}  // namespace mkq::kueue
