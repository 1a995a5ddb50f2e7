// Compiling and running one CEL expression of a CRD's x-kubernetes-validations
// against the structural schema it is attached to: `self` is the value at
// that node, `oldSelf` its value before an update (a rule that reads oldSelf
// is a transition rule). The subset is what Kueue's, ClusterProfile's and
// OpenShift's Kueue CRDs use (see README.md); anything outside it fails to
// compile -- never evaluates to a silent pass.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "base/result.h"
#include "sandbox/cel/ast.h"
#include "sandbox/cel/value.h"

namespace mkq::sandbox::cel {

// What the expression must produce: a rule a bool, a messageExpression a string.
enum class Produces { Bool, String };

class Program {
 public:
  // Parses and type-checks `text` with `self` (and `oldSelf`) typed by
  // `schema`; `root` when the schema is a resource's root (or an embedded
  // resource), where metadata exposes name and generateName. A failure is an
  // Error whose message is cel-go's: `ERROR: <input>:1:6: undefined field 'x'`
  // with the line and a caret.
  static base::Result<Program> compile(const std::string& text, const nlohmann::json& schema, bool root,
                                       Produces produces = Produces::Bool);

  // Runs the expression. old_self is null outside an update (a transition
  // rule is then not run by the caller). A runtime error is an Error value;
  // past cost.h's kPerCallLimit the run is cancelled ("operation cancelled:
  // actual cost limit exceeded"). *cost: what the run cost, as cel-go counts.
  Value evaluate(const Value& self, const Value* old_self, std::uint64_t* cost = nullptr) const;

  // The estimated worst-case cost of one run (cost.h), from the schema's bounds.
  std::uint64_t estimated_cost() const { return estimated_cost_; }

  // Parses `text` without type-checking it, as cel-go's Env.Parse does for
  // expressions over undeclared variables (Flux's healthCheckExprs): only a
  // syntax error fails here; an unknown name is an error when run.
  static base::Result<Program> parse_unchecked(const std::string& text);

  // Runs the expression with each member of `variables` (a JSON object) as a
  // variable of that name, typed by its JSON value; `self` is not one unless
  // `variables` has it. A name it lacks is the error "no such attribute:
  // NAME". The result may view into `variables`, which must outlive it.
  Value evaluate_with(const nlohmann::json& variables) const;

  // The expression reads oldSelf: it runs only on updates, where the old value exists.
  bool uses_old_self() const { return uses_old_self_; }

 private:
  std::shared_ptr<const Expr> expr_;
  bool uses_old_self_ = false;
  std::uint64_t estimated_cost_ = 0;
};

}  // namespace mkq::sandbox::cel
