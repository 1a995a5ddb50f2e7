// A CRD's x-kubernetes-validations, as kube-apiserver's apiextensions server
// runs them: every rule of a version's structural schema compiled once (a
// rule that does not compile refuses the CRD, with the rule's path and
// cel-go's message -- nothing is skipped), then run on each write of a custom
// resource at the node it is attached to, with `self` the value there.
// Transition rules (those reading oldSelf) run only on updates, where the old
// value correlates: through object properties, map values and the items of
// list-type map/set lists. On an update, a value equal to the old one only
// runs its transition rules (validation ratcheting). A failed rule is
// `<path>: Invalid value: "<schema type>": <message>` (`<nil>` at the root);
// a rule that errors says `<error> evaluating rule: <message or rule>`.
//
// Supported per rule: rule, message, messageExpression, reason, fieldPath
// (a dotted path). optionalOldSelf is refused at compile time. The CEL cost
// limits are kube-apiserver's (cel/cost.h): a CRD whose estimated costs are
// over them is refused; at runtime a rule over the per-call limit, or the
// rules of one object over its budget, are errors and stop the validation.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/schema.h"

namespace mkq::sandbox {

class CrdRules {
 public:
  // Compiles every rule under `schema` (an openAPIV3Schema). `path` names the
  // schema in messages, e.g. "spec.versions[0].schema.openAPIV3Schema"; each
  // rule that fails to compile is one FieldError at
  // `<path>.properties[spec].x-kubernetes-validations[0].rule`.
  // With `cost_errors`, a rule whose estimated cost (cel/cost.h) times how
  // many times it can run per object is over kube-apiserver's per-rule limit,
  // and rules together over the per-CRD limit, are Forbidden errors there.
  static std::shared_ptr<const CrdRules> compile(const nlohmann::json& schema, const std::string& path,
                                                 std::vector<FieldError>* errors,
                                                 std::vector<FieldError>* cost_errors = nullptr);

  // No rule anywhere in the schema.
  bool empty() const;
  // The rules on `object` (a custom resource, pruned and defaulted); `old` the
  // stored object of an update, null for a create.
  std::vector<FieldError> validate(const nlohmann::json& object, const nlohmann::json* old) const;

  struct Node;
  ~CrdRules();
  CrdRules(const CrdRules&) = delete;
  CrdRules& operator=(const CrdRules&) = delete;

 private:
  CrdRules() = default;
  nlohmann::json schema_;  // the nodes point into it
  std::unique_ptr<Node> root_;
};

// The compiled rules of version `index` of a stored CRD (schema at
// spec.versions[index].schema.openAPIV3Schema); null when it has none. Shared
// between the registry's refreshes: compiled once per CRD uid, resourceVersion
// and version, and kept for the CRD's current resourceVersion only. A rule that does not compile (a CRD
// stored by an older sandbox) leaves its messages in *error.
std::shared_ptr<const CrdRules> stored_crd_rules(const nlohmann::json& crd, std::size_t index, std::string* error);
// The bound of that cache: CRD versions held compiled (the most recently used).
inline constexpr std::size_t kCrdRulesCached = 256;
// How many it holds now.
std::size_t crd_rules_cached();

// Compiles the rules of every version of `crd` (a CustomResourceDefinition),
// for validate_crd: each rule that does not compile is an error.
void validate_crd_rules(const nlohmann::json& crd, std::vector<FieldError>* errors);

}  // namespace mkq::sandbox
