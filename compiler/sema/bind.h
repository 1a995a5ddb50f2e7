// Binding: the evaluated declaration tree -> the typed policy model.
//
// bind() checks every block against the language's schema (block kinds per
// position, fields, labels, field types, enum values, where secrets may go),
// Kubernetes name formats where names are written, duplicates, references
// between declarations (with "did you mean"), cohort cycles and the rules of
// the model itself (one manager, dispatch worker selection, resource groups,
// quota limits, topology levels, ...). Every problem is reported, not only the
// first. Kueue's own object-level validation rules are checked later, on the
// model (compiler/kueue).
//
// Cohorts: a queue or cohort may name a cohort the policy does not declare, as
// Kueue allows (an implicit cohort, no Cohort object); it is listed in
// Policy::implicit_cohorts, and a warning is given when the name is close to a
// declared cohort's. A `null` field value means "not set".
//
// Dispatcher settings: `mode`, `step` and `origin` are Kueue-wide. Only the
// values actually written (on dispatches and in `kueue { multikueue {...} }`)
// must agree; an unset one takes the agreed value, or Kueue's default when
// none is written. Credentials: `service_account`, `lifetime`,
// `rotate_before` and `token` belong to mode "serviceaccount", `kubeconfig` to
// mode "kubeconfig" (which requires it), `cluster_profile` to "clusterprofile".
// A worker's override is written `override "CLUSTERQUEUE" { ... }` (block
// labels are strings in the grammar).
//
// Integrations: the catalogue is the `integration` blocks of std/integrations
// (EvalBlock::from_stdlib, bound first) and of the policy; a policy block with
// the name of a std one is an error (no override). Once every block is bound,
// `kueue { integrations }` must name catalogue entries (E3015) and each
// external framework needs an `integration` (E3018); an integration of the
// policy's that nothing enables is a warning (W3003).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/eval_tree.h"
#include "compiler/sema/model.h"

namespace mkq::sema {

// Binding one top-level block at a time, as evaluation produces them
// (analyze()): each block is let go once bound, so that the evaluated tree and
// the model are never both held whole. bind_first() takes the blocks that come
// first, in evaluation order, and binds them in bind()'s order (the standard
// library's, then the policy's own); bind_next() each later block, which must
// be of the policy's own (evaluation produces every standard block before
// those of the last root file, which are the ones given one by one).
// finish() runs the checks that span declarations and returns what bind()
// returns for the same blocks, with the same diagnostics in the same order.
class BlockBinder {
 public:
  explicit BlockBinder(diag::Diagnostics& diagnostics);
  ~BlockBinder();
  BlockBinder(const BlockBinder&) = delete;
  BlockBinder& operator=(const BlockBinder&) = delete;

  // How many queues later blocks declare, when known: the queue tables are
  // then sized once for all of them.
  struct Queues {
    std::size_t cluster_queues = 0;
    std::size_t local_queues = 0;
  };
  void bind_first(const std::vector<EvalBlock>& blocks);
  void bind_first(std::vector<EvalBlock>&& blocks, Queues more);  // each queue let go once bound
  void bind_next(EvalBlock&& block);
  // `first_file`: where E3060 (no manager) points when the policy has no block of its own.
  std::optional<model::Policy> finish(diag::FileId first_file);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Returns the model when bind() added no error to `diagnostics` (warnings may
// have been added); errors reported before the call do not count.
std::optional<model::Policy> bind(const EvalPolicy& policy, diag::Diagnostics& diagnostics);

// The same, consuming the evaluated tree: the evaluated form of each queue
// (the bulk of a large policy) is let go once it is bound, so that the tree
// and the model are never both held whole. The same model and diagnostics.
std::optional<model::Policy> bind(EvalPolicy&& policy, diag::Diagnostics& diagnostics);

}  // namespace mkq::sema
