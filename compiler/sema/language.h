// The policy language's schema as data: every block kind by its position, its
// labels, its fields (type, enum values, default, a one-line doc) and nested
// blocks, and the Kueue field each renders to with Kueue's own description.
//
// This table is the one home of what a block may contain: the binder checks
// every block against it (bind_reader.h: check_labels, Members: a field the
// binder reads that the table lacks is a bug it throws for), and editors ask
// it for hover and completion. The binder owns what the values mean and
// checks them; the table owns the names, the enum spellings (from model.h's
// value arrays) and the docs. Usable on its own: this header needs nothing of
// the binder. Defaults are text for people (hover, docs): the binder's code
// applies them.
//
// Lookup by position, outermost kind first:
//
//   const std::string_view path[] = {"clusterqueue", "preemption"};
//   const language::Block* preemption = language::find(path);
//   const language::Field* within = preemption->field("within_cluster_queue");
//   // within->values: "Never", "LowerPriority", "LowerOrNewerEqualPriority"
//   // within->kueue: {"ClusterQueue", "spec.preemption.withinClusterQueue", "withinClusterQueue determines ..."}
//
// A kind means different blocks in different places (`fair_sharing` in a
// cluster queue takes `weight`, in the kueue block `enable` and
// `preemption_strategies`): look blocks up by path, never by kind alone.
// Every pointer and view points into static storage, valid for the program's
// life; the table is built once, on first use, and never changes (safe to read
// from any thread).
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

namespace mkq::sema::language {

// Whether a block takes the `in "NAMESPACE"` label.
enum class InLabel { Forbidden, Required, Optional };

// The labels of a block kind: one (`noun` says what it is: "a name", "a
// flavor") or none (`noun` empty).
struct Labels {
  std::string_view noun{};
  InLabel in = InLabel::Forbidden;
  std::string_view usage{};  // e.g. `clusterqueue "NAME" { ... }`, shown when a label is missing
};

// Where a field or block lands in Kueue: the object kind and the dotted path
// from the object's root (`[]` marks a list's items), e.g. {"ClusterQueue",
// "spec.preemption.withinClusterQueue"}. `description` is Kueue's own (the
// first paragraph of the CRD's, see kueue_description); empty when the kind
// is not a CRD (Kueue's Configuration, RBAC) or the CRD says nothing.
// kind empty: the field renders to no Kueue object (it steers mkq itself).
struct KueueField {
  std::string_view kind{};
  std::string_view path{};
  std::string_view description{};
};

struct Field {
  std::string_view name{};
  std::string_view type{};  // as messages say it: "a string", "a quantity", "a list of strings", ...
  std::vector<std::string_view> values{};  // the valid strings of an enum field (exact spelling); else empty
  std::string_view default_value{};      // mkq's default as written in a policy (`"all-at-once"`, `30d`); empty: none
  std::string_view doc{};                // one line: what the field does
  KueueField kueue{};
  std::vector<std::string_view> keys{};  // a map field's fixed keys (of each map, for a list of maps); else empty
};

struct Block {
  std::string_view kind{};
  Labels labels{};
  std::string_view doc{};  // one line: what the block declares
  KueueField kueue{};    // the object or field the block renders to
  std::vector<Field> fields{};
  // Nested block kinds, in order: the repeatable ones first, then those that
  // may appear once (`repeats` says which).
  std::vector<const Block*> children{};
  bool repeats = false;  // may appear more than once in the blocks that nest it
  // quota/capacity: every field names a resource and takes a quantity or
  // limits; `fields` is empty and `resource` describes them.
  bool any_field = false;
  Field resource{};  // when any_field: the shape of each `RESOURCE = ...` field (name empty)

  const Field* field(std::string_view name) const;   // nullptr when not a field here
  const Block* child(std::string_view kind) const;   // nullptr when not nested here
};

// The top-level declaration kinds, in the order docs/language.md lists them.
std::span<const Block* const> top_level();

// The block at `path` (kinds, outermost first), or nullptr when no such
// position exists. An empty path is nullptr.
const Block* find(std::span<const std::string_view> path);
const Block* find(std::initializer_list<std::string_view> path);

// The field `name` of the block at `path`, or nullptr.
const Field* find_field(std::span<const std::string_view> path, std::string_view name);

// Kueue's description of the field at `path` of kind `kind` (short form),
// from the committed table generated from Kueue's CRDs; empty when unknown.
std::string_view kueue_description(std::string_view kind, std::string_view path);

}  // namespace mkq::sema::language
