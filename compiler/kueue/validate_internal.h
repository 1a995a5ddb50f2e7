// Shared by the validate_*.cpp files: the diagnostics sink of one validate()
// run and the per-area checks it runs (see validate.h).
#pragma once

#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/model.h"

namespace mkq::kueue::validate_detail {

namespace model = sema::model;

// Adds diagnostics; those about a declaration produced by a template get
// "instantiated from here" notes for its `use` sites, as the binder's do.
class Reporter {
 public:
  explicit Reporter(diag::Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  diag::Diagnostic& error(const char* code, const diag::SourceRange& range, std::string message,
                          const model::Declaration* owner);
  diag::Diagnostic& warning(const char* code, const diag::SourceRange& range, std::string message,
                            const model::Declaration* owner);

 private:
  diag::Diagnostics& diagnostics_;
};

// "a, b, c" of the quoted items.
std::string quoted_list(const std::vector<std::string>& items);

// validate_queues.cpp: ClusterQueue, Cohort, worker overrides, Topology.
void check_queues(const model::Policy& policy, Reporter& reporter);

// validate_kueue.cpp: Kueue's configuration and the integrations it enables.
void check_kueue_settings(const model::Policy& policy, Reporter& reporter);

// validate_openshift.cpp: what the Red Hat build of Kueue's `Kueue` resource
// cannot carry, under `kueue { platform = "openshift" }`.
void check_openshift(const model::Policy& policy, Reporter& reporter);

// validate_clusters.cpp: the objects of the manager and of every worker taken
// together (VALIDATION.md §K), computed from the model as lowering renders them.
void check_clusters(const model::Policy& policy, Reporter& reporter);

}  // namespace mkq::kueue::validate_detail
