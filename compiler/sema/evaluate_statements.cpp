// Statements: where each may appear, lets in bodies, attributes, blocks, for,
// if, assert and the expansion of templates by `use`.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/sema/codes_eval.h"
#include "compiler/sema/evaluate_internal.h"

namespace mkq::sema::detail {

using diag::SourceRange;

namespace {

// Whether the statements being checked are inside a block (attributes allowed),
// outside any (a file's top level, or a top-level for/if body), or in a
// template body (decided where the template is used).
enum Placement { kOutsideBlock = 0, kInsideBlock = 1, kInTemplate = 2 };

}  // namespace

void Evaluator::check_placement(const std::vector<syntax::StmtPtr>& stmts, bool file_top, int in_block) {
  for (const auto& stmt : stmts) {
    switch (stmt->kind) {
      case syntax::StmtKind::Import:
        if (!file_top) {
          diags_.error(eval_codes::kMisplacedStatement, stmt->range, "an import must be at the top level of a file");
        }
        break;
      case syntax::StmtKind::Template: {
        const auto& tmpl = static_cast<const syntax::TemplateStmt&>(*stmt);
        if (!file_top) {
          diags_.error(eval_codes::kMisplacedStatement, tmpl.name.range,
                       "a template must be defined at the top level of a file");
        }
        check_placement(tmpl.body.stmts, false, kInTemplate);
        break;
      }
      case syntax::StmtKind::Attribute: {
        if (in_block != kOutsideBlock) break;
        const auto& attr = static_cast<const syntax::AttributeStmt&>(*stmt);
        auto& d = diags_.error(eval_codes::kMisplacedStatement, attr.name.range, "an attribute must be inside a block");
        d.suggestions.push_back({"to define a variable, write 'let " + attr.name.name + " = ...'", attr.name.range,
                                 "let " + attr.name.name});
        break;
      }
      case syntax::StmtKind::Block:
        check_placement(static_cast<const syntax::BlockStmt&>(*stmt).body.stmts, false, kInsideBlock);
        break;
      case syntax::StmtKind::For:
        check_placement(static_cast<const syntax::ForStmt&>(*stmt).body.stmts, false, in_block);
        break;
      case syntax::StmtKind::If:
        for (const auto* branch = static_cast<const syntax::IfStmt*>(stmt.get()); branch != nullptr;
             branch = branch->else_if.get()) {
          check_placement(branch->then_body.stmts, false, in_block);
          if (branch->else_body) check_placement(branch->else_body->stmts, false, in_block);
        }
        break;
      default:
        break;
    }
  }
}

namespace {

std::size_t count_kind(const std::vector<syntax::StmtPtr>& stmts, syntax::StmtKind kind) {
  std::size_t count = 0;
  for (const auto& stmt : stmts) count += stmt->kind == kind ? 1 : 0;
  return count;
}

}  // namespace

std::size_t declared_attributes(const std::vector<syntax::StmtPtr>& stmts) {
  return count_kind(stmts, syntax::StmtKind::Attribute);
}

std::size_t declared_blocks(const std::vector<syntax::StmtPtr>& stmts) {
  return count_kind(stmts, syntax::StmtKind::Block);
}

std::pair<std::size_t, std::size_t> declared_queues(const std::vector<syntax::StmtPtr>& stmts) {
  std::size_t cluster_queues = 0;
  std::size_t local_queues = 0;
  for (const auto& stmt : stmts) {
    if (!stmt || stmt->kind != syntax::StmtKind::Block) continue;
    const auto& block = static_cast<const syntax::BlockStmt&>(*stmt);
    if (block.kind.name == "localqueue") ++local_queues;
    if (block.kind.name != "clusterqueue") continue;
    ++cluster_queues;
    for (const auto& nested : block.body.stmts) {
      if (nested && nested->kind == syntax::StmtKind::Block &&
          static_cast<const syntax::BlockStmt&>(*nested).kind.name == "localqueue") {
        ++local_queues;
      }
    }
  }
  return {cluster_queues, local_queues};
}

void Evaluator::exec_body(const std::vector<syntax::StmtPtr>& stmts, Module& module, Scope& scope, Sink sink) {
  for (const auto& stmt : stmts) {
    if (stmt->kind != syntax::StmtKind::Let) continue;
    const auto& let = static_cast<const syntax::LetStmt&>(*stmt);
    scope.later.emplace(let.name.name, let.name.range);
  }
  for (const auto& stmt : stmts) exec(*stmt, module, &scope, sink);
}

void Evaluator::exec(const syntax::Stmt& stmt, Module& module, Scope* scope, Sink sink) {
  Depth depth(*this, stmt.range);
  if (!depth.ok()) return;
  switch (stmt.kind) {
    case syntax::StmtKind::Import:
    case syntax::StmtKind::Template:
      return;  // collected at the top level; reported by check_placement elsewhere
    case syntax::StmtKind::Let:
      if (scope != nullptr) exec_let(static_cast<const syntax::LetStmt&>(stmt), module, *scope);
      return;  // top-level lets are evaluated before the statements run
    case syntax::StmtKind::Attribute:
      return exec_attribute(static_cast<const syntax::AttributeStmt&>(stmt), module, scope, sink);
    case syntax::StmtKind::Block:
      return exec_block(static_cast<const syntax::BlockStmt&>(stmt), module, scope, sink);
    case syntax::StmtKind::For:
      return exec_for(static_cast<const syntax::ForStmt&>(stmt), module, scope, sink);
    case syntax::StmtKind::If:
      return exec_if(static_cast<const syntax::IfStmt&>(stmt), module, scope, sink);
    case syntax::StmtKind::Assert:
      return exec_assert(static_cast<const syntax::AssertStmt&>(stmt), module, scope);
    case syntax::StmtKind::Use:
      return exec_use(static_cast<const syntax::UseStmt&>(stmt), module, scope, sink);
  }
}

bool Evaluator::bind_variable(Scope& scope, const syntax::Identifier& name, std::optional<Value> value) {
  auto [it, inserted] = scope.names.emplace(name.name, Scope::Binding{std::move(value), name.range});
  if (inserted) return true;
  auto& d = diags_.error(eval_codes::kDuplicateName, name.range, "'" + name.name + "' is already defined in this scope");
  d.notes.push_back({"'" + name.name + "' is first defined here", it->second.defined_at});
  return false;
}

void Evaluator::exec_let(const syntax::LetStmt& stmt, Module& module, Scope& scope) {
  auto value = eval(*stmt.value, Env{&module, &scope});
  scope.later.erase(stmt.name.name);
  bind_variable(scope, stmt.name, std::move(value));
}

void Evaluator::exec_attribute(const syntax::AttributeStmt& stmt, Module& module, Scope* scope, Sink sink) {
  auto value = eval(*stmt.value, Env{&module, scope});
  if (sink.block == nullptr) {
    // Outside templates check_placement has reported it already.
    if (use_stack_.empty()) return;
    auto& d = diags_.error(eval_codes::kMisplacedStatement, stmt.name.range, "an attribute must be inside a block");
    for (const auto& site : instantiation_notes()) d.notes.push_back({"instantiated from here", site});
    return;
  }
  if (!value) return;
  if (reject_non_value(*value, stmt.value->range, "an attribute cannot be")) return;
  sink.block->attributes.push_back(EvalAttribute{stmt.name.name, stmt.name.range, std::move(*value), stmt.range});
}

std::optional<EvalLabel> Evaluator::eval_label(const syntax::StringExpr& expr, const Env& env) {
  auto value = eval_string(expr, env);
  if (!value) return std::nullopt;
  return EvalLabel{value->as_string(), expr.range};
}

void Evaluator::exec_block(const syntax::BlockStmt& stmt, Module& module, Scope* scope, Sink sink) {
  const Env env{&module, scope};
  EvalBlock block;
  block.kind = stmt.kind.name;
  block.kind_range = stmt.kind.range;
  block.range = stmt.range;
  block.instantiated_from = instantiation_notes();
  block.labels.reserve(stmt.labels.size());
  block.attributes.reserve(declared_attributes(stmt.body.stmts));
  block.blocks.reserve(declared_blocks(stmt.body.stmts));
  for (const auto& label : stmt.labels) {
    if (!label) continue;
    if (auto evaluated = eval_label(*label, env)) block.labels.push_back(std::move(*evaluated));
  }
  if (stmt.in_label) block.in_label = eval_label(*stmt.in_label, env);
  Scope body;
  body.parent = scope;
  exec_body(stmt.body.stmts, module, body, Sink{&block, &block.blocks});
  sink.blocks->push_back(std::move(block));
}

void Evaluator::exec_for(const syntax::ForStmt& stmt, Module& module, Scope* scope, Sink sink) {
  auto iterable = eval(*stmt.iterable, Env{&module, scope});
  if (!iterable) return;
  auto items = iteration(*iterable, stmt.iterable->range);
  if (!items) return;
  if (stmt.second_var && stmt.second_var->name == stmt.var.name) {
    auto& d = diags_.error(eval_codes::kDuplicateName, stmt.second_var->range,
                           "'" + stmt.var.name + "' is already defined in this scope");
    d.notes.push_back({"'" + stmt.var.name + "' is first defined here", stmt.var.range});
    return;
  }
  const bool over_list = iterable->is(ValueKind::List);
  for (auto& [first, second] : *items) {
    if (!charge(1, stmt.range)) return;
    Scope body;
    body.parent = scope;
    if (stmt.second_var) {
      bind_variable(body, stmt.var, first);
      bind_variable(body, *stmt.second_var, second);
    } else {
      bind_variable(body, stmt.var, over_list ? second : first);
    }
    exec_body(stmt.body.stmts, module, body, sink);
  }
}

void Evaluator::exec_if(const syntax::IfStmt& stmt, Module& module, Scope* scope, Sink sink) {
  const Env env{&module, scope};
  for (const syntax::IfStmt* branch = &stmt; branch != nullptr; branch = branch->else_if.get()) {
    const auto condition = eval_condition(*branch->condition, env);
    if (!condition) return;
    const syntax::Body* body = nullptr;
    if (*condition) {
      body = &branch->then_body;
    } else if (branch->else_body) {
      body = &*branch->else_body;
    }
    if (body != nullptr) {
      Scope inner;
      inner.parent = scope;
      exec_body(body->stmts, module, inner, sink);
      return;
    }
  }
}

void Evaluator::exec_assert(const syntax::AssertStmt& stmt, Module& module, Scope* scope) {
  const Env env{&module, scope};
  const auto condition = eval_condition(*stmt.condition, env);
  std::string message = "assertion failed";
  if (stmt.message) {
    // The message is evaluated whether or not the assertion holds: a wrong
    // message is a mistake either way.
    auto value = eval(*stmt.message, env);
    if (!value) return;
    if (value->is(ValueKind::Secret)) {
      secret_error(stmt.message->range, true);
      return;
    }
    if (!value->is(ValueKind::String)) {
      diags_.error(eval_codes::kTypeMismatch, stmt.message->range,
                   "the assert message must be a string, not " + described(value->kind));
      return;
    }
    message += ": " + value->as_string();
  }
  if (!condition || *condition) return;
  auto& d = diags_.error(eval_codes::kAssertionFailed, stmt.condition->range, message);
  for (const auto& site : instantiation_notes()) d.notes.push_back({"instantiated from here", site});
}

const TemplateInfo* Evaluator::prepare_use(const syntax::UseStmt& stmt, Module& module, Scope* scope, Scope& params_scope) {
  if (stmt.name.empty()) return nullptr;
  const Env env{&module, scope};

  // The template: a name in scope, then fields of modules (or maps).
  const auto& head = stmt.name.front();
  const auto candidates = visible_names(env);
  const bool known = std::find(candidates.begin(), candidates.end(), head.name) != candidates.end();
  bool later = false;
  for (const Scope* s = scope; s != nullptr && !later; s = s->parent) later = s->later.count(head.name) > 0;
  if (!known && !later) {
    // Suggest only what `use` can take: templates and modules.
    std::vector<std::string> usable;
    for (const Scope* s = scope; s != nullptr; s = s->parent) {
      for (const auto& [name, binding] : s->names) {
        if (binding.value && (binding.value->is(ValueKind::Template) || binding.value->is(ValueKind::Module))) {
          usable.push_back(name);
        }
      }
    }
    for (const auto& [name, entry] : module.names) {
      if (entry.kind != TopLevelName::Kind::Let) usable.push_back(name);
    }
    auto& d = diags_.error(eval_codes::kUnknownName, head.range, "unknown template '" + head.name + "'");
    diag::suggest_closest(d, head.name, usable);
    return nullptr;
  }
  auto callee = lookup(head.name, head.range, env);
  for (std::size_t i = 1; i < stmt.name.size() && callee; ++i) {
    callee = field_of(*callee, stmt.name[i], stmt.name[i].range);
  }
  if (!callee) return nullptr;
  std::string written;
  for (const auto& part : stmt.name) written += (written.empty() ? "" : ".") + part.name;
  if (!callee->is(ValueKind::Template)) {
    diags_.error(eval_codes::kNotATemplate, stmt.name_range,
                 "'" + written + "' is not a template: it is " + described(callee->kind));
    return nullptr;
  }
  const auto& info = *static_cast<const TemplateInfo*>(std::get<TemplateRef>(callee->data).decl);
  const auto& params = info.stmt->params;

  // Arguments are evaluated in the caller's scope, all of them.
  std::vector<std::optional<Value>> values;
  for (const auto& arg : stmt.args) values.push_back(eval(*arg.value, env));

  bool ok = true;
  std::vector<int> bound(params.size(), -1);  // the argument given for each parameter
  std::size_t positional = 0;
  bool seen_named = false;
  bool reported_surplus = false;
  auto arg_range = [&](std::size_t i) { return stmt.args[i].name ? stmt.args[i].name->range : stmt.args[i].value->range; };
  for (std::size_t i = 0; i < stmt.args.size(); ++i) {
    const auto& arg = stmt.args[i];
    if (!arg.name) {
      if (seen_named) {
        diags_.error(eval_codes::kTemplateArguments, arg.value->range,
                     "a positional argument cannot follow a named argument");
        ok = false;
        continue;
      }
      if (positional >= params.size()) {
        ok = false;
        if (reported_surplus) continue;
        reported_surplus = true;
        auto& d = diags_.error(eval_codes::kTemplateArguments, arg.value->range,
                               fmt::format("too many arguments: template '{}' takes {} argument{}", written,
                                           params.size(), params.size() == 1 ? "" : "s"));
        d.notes.push_back({"'" + info.stmt->name.name + "' is defined here", info.stmt->name.range});
        continue;
      }
      bound[positional++] = static_cast<int>(i);
      continue;
    }
    seen_named = true;
    std::size_t index = params.size();
    for (std::size_t p = 0; p < params.size(); ++p) {
      if (params[p].name.name == arg.name->name) {
        index = p;
        break;
      }
    }
    if (index == params.size()) {
      std::vector<std::string> names;
      for (const auto& param : params) names.push_back(param.name.name);
      auto& d = diags_.error(eval_codes::kTemplateArguments, arg.name->range,
                             "template '" + written + "' has no parameter '" + arg.name->name + "'");
      diag::suggest_closest(d, arg.name->name, names);
      ok = false;
      continue;
    }
    if (bound[index] != -1) {
      auto& d = diags_.error(eval_codes::kTemplateArguments, arg.name->range,
                             "argument '" + arg.name->name + "' is given twice");
      d.notes.push_back({"first given here", arg_range(static_cast<std::size_t>(bound[index]))});
      ok = false;
      continue;
    }
    bound[index] = static_cast<int>(i);
  }

  if (!ok) return nullptr;  // one problem at a time: a missing argument may be the misplaced one
  if (use_stack_.size() >= kMaxTemplateDepth) {
    diags_.error(eval_codes::kTemplateTooDeep, stmt.name_range,
                 fmt::format("templates are instantiated more than {} deep", kMaxTemplateDepth));
    return nullptr;
  }

  // Parameters in order; a default sees the module's top level and the parameters before it.
  const Env template_env{info.module, &params_scope};
  for (std::size_t p = 0; p < params.size(); ++p) {
    std::optional<Value> value;
    if (bound[p] != -1) {
      value = values[static_cast<std::size_t>(bound[p])];
    } else if (params[p].default_value) {
      value = eval(*params[p].default_value, template_env);
    } else {
      auto& d = diags_.error(eval_codes::kTemplateArguments, stmt.name_range,
                             "missing argument '" + params[p].name.name + "' for template '" + written + "'");
      d.notes.push_back({"parameter '" + params[p].name.name + "' is declared here", params[p].name.range});
      ok = false;
      continue;
    }
    params_scope.names.emplace(params[p].name.name, Scope::Binding{std::move(value), params[p].name.range});
  }
  if (!ok) return nullptr;
  return &info;
}

void Evaluator::exec_use(const syntax::UseStmt& stmt, Module& module, Scope* scope, Sink sink) {
  Scope params;
  const TemplateInfo* info = prepare_use(stmt, module, scope, params);
  if (info == nullptr) return;
  use_stack_.push_back(stmt.range);
  exec_body(info->stmt->body.stmts, *info->module, params, sink);
  use_stack_.pop_back();
}

}  // namespace mkq::sema::detail
