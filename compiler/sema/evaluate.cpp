// The evaluator's entry, modules and names: root files, imports (once per
// module, cycles reported), a module's order-independent top level with lazy
// lets and cycle detection, and name lookup.
#include "compiler/sema/evaluate.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "compiler/sema/codes_eval.h"
#include "compiler/sema/evaluate_internal.h"
#include "compiler/sema/resolve_names.h"

namespace mkq::sema {

EvalPolicy evaluate(const std::vector<RootFile>& roots, ModuleLoader& loader, diag::Diagnostics& diagnostics,
                    const std::vector<ModuleSource>& prelude, BlockStream* stream) {
  detail::Evaluator evaluator(loader, diagnostics);
  evaluator.stream_ = stream;
  EvalPolicy policy;
  try {
    policy = evaluator.run(roots, prelude);
  } catch (const detail::UnparsedBlock&) {
    policy.unparsed_block = true;
    return policy;
  }
  const auto first = std::min_element(roots.begin(), roots.end(), [](const RootFile& a, const RootFile& b) {
    return a.key < b.key;
  });
  if (first != roots.end() && first->ast != nullptr) policy.first_file = first->ast->file;
  return policy;
}

std::vector<Value> values_of(const syntax::Expr& target, const std::vector<RootFile>& roots, ModuleLoader& loader,
                             const std::vector<ModuleSource>& prelude, std::size_t limit) {
  diag::Diagnostics ignored;
  detail::Evaluator evaluator(loader, ignored);
  detail::Evaluator::Watch watch{&target, {}, limit};
  evaluator.watch_ = &watch;
  evaluator.run(roots, prelude);
  return std::move(watch.values);
}

std::string default_import_alias(const std::string& spec) {
  std::string last = spec;
  while (!last.empty() && last.back() == '/') last.pop_back();
  const auto slash = last.rfind('/');
  if (slash != std::string::npos) last = last.substr(slash + 1);
  constexpr std::string_view ext = ".mkq";
  if (last.size() > ext.size() && last.compare(last.size() - ext.size(), ext.size(), ext) == 0) {
    last.resize(last.size() - ext.size());
  }
  return last;
}

}  // namespace mkq::sema

namespace mkq::sema::detail {

using diag::SourceRange;

bool Evaluator::charge(long steps, SourceRange at) {
  steps_ += steps;
  if (steps_ <= step_budget_) return true;
  // Past the budget everything fails at once, reported a single time.
  if (!steps_reported_) {
    steps_reported_ = true;
    diags_.error(eval_codes::kTooLong, at, "evaluation takes too many steps: loops or templates repeat too much work");
  }
  return false;
}

Evaluator::Depth::Depth(Evaluator& evaluator, SourceRange at) : evaluator_(evaluator) {
  ++evaluator_.depth_;
  if (!evaluator_.charge(1, at)) {
    ok_ = false;
    return;
  }
  if (evaluator_.depth_ <= kMaxEvalDepth) return;
  ok_ = false;
  // Once per descent: siblings at the limit fail silently.
  if (evaluator_.depth_reported_) return;
  evaluator_.depth_reported_ = true;
  evaluator_.diags_.error(
      eval_codes::kTooDeep, at,
      fmt::format("evaluation is nested too deeply (more than {} levels of expressions, lets "
                  "and imports)",
                  kMaxEvalDepth));
}

EvalPolicy Evaluator::run(const std::vector<RootFile>& roots, const std::vector<ModuleSource>& prelude) {
  failed_module_.state = Module::State::Done;
  errors_before_ = diags_.error_count();
  // The prelude is the same for every policy: its work counts neither for
  // nor against the policy's step budget.
  const long budget = step_budget_;
  for (const ModuleSource& source : prelude) {
    if (source.ast == nullptr) continue;  // not loaded: the loader reported why
    Module& module = module_for(source);
    if (module.state == Module::State::NotStarted) evaluate_module(module);
  }
  steps_ = 0;
  step_budget_ = budget;
  std::vector<const RootFile*> ordered;
  for (const auto& root : roots) ordered.push_back(&root);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const RootFile* a, const RootFile* b) { return a->key < b->key; });
  const auto last = std::find_if(ordered.rbegin(), ordered.rend(),
                                 [](const RootFile* root) { return root->ast != nullptr; });
  if (stream_ != nullptr && last != ordered.rend()) streamed_ = &module_for(**last);
  for (const RootFile* root : ordered) {
    if (root->ast == nullptr) continue;
    Module& module = module_for(*root);
    if (module.state == Module::State::NotStarted) evaluate_module(module);
  }
  // Names in code that evaluation did not reach (templates never used,
  // branches not taken, ...) are checked without running it; what evaluation
  // has reported already is not reported again.
  // A module's top-level blocks were checked as they ran (evaluate_module).
  for (const auto& [key, module] : modules_) {
    if (!module->resolver) {
      resolve_names(*module->ast, diags_, exports_of(*module));
      continue;
    }
    for (const auto& stmt : module->ast->stmts) {
      if (stmt && stmt->kind != syntax::StmtKind::Block) module->resolver->check(*stmt);
    }
    module->resolver.reset();
  }
  return std::move(policy_);
}

std::map<std::string, ModuleExports> Evaluator::exports_of(const Module& module) const {
  std::map<std::string, ModuleExports> imports;
  for (const auto& [alias, entry] : module.names) {
    if (entry.kind != TopLevelName::Kind::Import || !entry.value || !entry.value->is(ValueKind::Module)) continue;
    const auto* target = static_cast<const Module*>(std::get<ModuleRef>(entry.value->data).module);
    // Empty names: the module was cut short by a limit (or defines nothing), so nothing is known about it.
    if (target->ast == nullptr || target->state != Module::State::Done || target->names.empty()) continue;
    ModuleExports& exports = imports[alias];
    exports.display = target->display;
    for (const auto& [name, export_entry] : target->names) {
      if (export_entry.kind != TopLevelName::Kind::Import) exports.names.push_back(name);
    }
  }
  return imports;
}

Module& Evaluator::module_for(const ModuleSource& source) {
  if (source.ast == nullptr) return failed_module_;
  auto& slot = modules_[source.key];
  if (!slot) {
    slot = std::make_unique<Module>();
    slot->key = source.key;
    slot->display = source.display.empty() ? source.key : source.display;
    slot->ast = source.ast;
    slot->releasable = source.releasable == source.ast ? source.releasable : nullptr;
    slot->deferred = slot->releasable != nullptr && source.deferred != nullptr && !source.deferred->empty()
                         ? source.deferred
                         : nullptr;
  }
  return *slot;
}

void Evaluator::evaluate_module(Module& module) {
  module.state = Module::State::InProgress;
  if (!module.ast->stmts.empty()) step_budget_ += kStepsPerByte * module.ast->stmts.back()->range.end.offset;
  const SourceRange start{module.ast->file, {}, {}};
  Depth depth(*this, start);
  // The module's blocks go straight into the policy's array, after those of
  // the modules it imports (evaluated by collect_top_level, before any of its
  // own statements run): a large file's blocks are never held in two arrays.
  std::size_t first_block = policy_.blocks.size();
  if (depth.ok()) {
    collect_top_level(module);
    check_placement(module.ast->stmts, true, 0);
    // Every top-level let is evaluated, used or not; forward references
    // evaluate their target first.
    for (const auto& stmt : module.ast->stmts) {
      if (stmt->kind != syntax::StmtKind::Let) continue;
      const auto& let = static_cast<const syntax::LetStmt&>(*stmt);
      auto found = module.names.find(let.name.name);
      if (found == module.names.end() || found->second.let != &let) continue;  // a duplicate, reported
      top_level_let(module, let.name.name, found->second, let.name.range);
    }
    // The last root file's blocks stream (BlockStream) while no error is
    // reported: everything before them goes first, then each as it is made.
    const std::size_t errors = diags_.error_count();
    const bool streams = &module == streamed_ && errors == errors_before_;
    if (streams) {
      auto [cluster_queues, local_queues] = declared_queues(module.ast->stmts);
      // A deferred clusterqueue's local queues are counted from its tokens.
      if (module.deferred != nullptr) local_queues += module.deferred->nested("localqueue");
      stream_->first(std::move(policy_.blocks), cluster_queues, local_queues);
      policy_.blocks.clear();
    } else {
      policy_.blocks.reserve(policy_.blocks.size() + declared_blocks(module.ast->stmts));
    }
    first_block = policy_.blocks.size();
    // Names in code that evaluation does not reach are checked statically
    // (resolve_names.h): a top-level block right after it ran, so that a
    // releasable tree can let it go at once; the other statements in run().
    module.resolver = std::make_unique<NameResolver>(*module.ast, diags_, exports_of(module));
    Sink sink{nullptr, &policy_.blocks};
    const std::size_t count = module.ast->stmts.size();
    for (std::size_t i = 0; i < count; ++i) {
      if (module.deferred != nullptr && module.deferred->deferred(i)) {
        // Parsed now, whole: its body cannot be misplaced (no import or
        // template in it, FastParser::file()), so check_placement() above
        // had nothing to report in it.
        auto& shell = static_cast<syntax::BlockStmt&>(*module.releasable->stmts[i]);
        std::unique_ptr<syntax::BlockStmt> parsed = module.deferred->parse(shell);
        if (!parsed) throw UnparsedBlock{};
        module.releasable->stmts[i] = std::move(parsed);
      }
      const syntax::Stmt& stmt = *module.ast->stmts[i];
      exec(stmt, module, nullptr, sink);
      if (stmt.kind == syntax::StmtKind::Block) {
        module.resolver->check(stmt);
        if (module.releasable != nullptr) {
          const std::size_t bytes = stmt.range.end.offset - stmt.range.begin.offset;
          module.releasable->stmts[i].reset();
          releaser_.freed(bytes);
        }
      }
      if (!streams || diags_.error_count() != errors) continue;
      // A root file's blocks: none is from_stdlib.
      for (EvalBlock& block : policy_.blocks) stream_->next(std::move(block));
      policy_.blocks.clear();
    }
  }
  module.state = Module::State::Done;
  const bool from_stdlib = module.key.rfind("std/", 0) == 0;  // std modules' keys are "std/NAME"
  for (std::size_t i = first_block; i < policy_.blocks.size(); ++i) policy_.blocks[i].from_stdlib = from_stdlib;
}

bool Evaluator::declare_top_level(Module& module, const std::string& name, SourceRange range, TopLevelName entry) {
  auto [it, inserted] = module.names.emplace(name, std::move(entry));
  if (inserted) return true;
  auto& d = diags_.error(eval_codes::kDuplicateName, range, "'" + name + "' is already defined in this file");
  d.notes.push_back({"'" + name + "' is first defined here", it->second.name_range});
  return false;
}

void Evaluator::collect_top_level(Module& module) {
  for (const auto& stmt : module.ast->stmts) {
    switch (stmt->kind) {
      case syntax::StmtKind::Import:
        process_import(module, static_cast<const syntax::ImportStmt&>(*stmt));
        break;
      case syntax::StmtKind::Let: {
        const auto& let = static_cast<const syntax::LetStmt&>(*stmt);
        TopLevelName entry;
        entry.kind = TopLevelName::Kind::Let;
        entry.name_range = let.name.range;
        entry.let = &let;
        declare_top_level(module, let.name.name, let.name.range, std::move(entry));
        break;
      }
      case syntax::StmtKind::Template: {
        const auto& tmpl = static_cast<const syntax::TemplateStmt&>(*stmt);
        // Parameter names must be distinct.
        for (std::size_t i = 0; i < tmpl.params.size(); ++i) {
          for (std::size_t j = 0; j < i; ++j) {
            if (tmpl.params[j].name.name != tmpl.params[i].name.name) continue;
            auto& d = diags_.error(eval_codes::kDuplicateName, tmpl.params[i].name.range,
                                   "parameter '" + tmpl.params[i].name.name + "' is already defined");
            d.notes.push_back({"'" + tmpl.params[i].name.name + "' is first defined here", tmpl.params[j].name.range});
            break;
          }
        }
        auto info = std::make_unique<TemplateInfo>();
        info->stmt = &tmpl;
        info->module = &module;
        TopLevelName entry;
        entry.kind = TopLevelName::Kind::Template;
        entry.name_range = tmpl.name.range;
        entry.state = TopLevelName::State::Done;
        entry.value = template_value(*info, tmpl.name.name, tmpl.name.range);
        module.templates.push_back(std::move(info));
        declare_top_level(module, tmpl.name.name, tmpl.name.range, std::move(entry));
        break;
      }
      default:
        break;
    }
  }
}

namespace {

}  // namespace

void Evaluator::process_import(Module& module, const syntax::ImportStmt& stmt) {
  if (!stmt.path) return;  // a syntax error, already reported
  const SourceRange path_range = stmt.path->range;
  if (!stmt.path->is_literal()) {
    diags_.error(eval_codes::kBadImportPath, path_range, "an import path cannot contain interpolation");
    return;
  }
  const std::string spec = stmt.path->literal_value();

  std::string alias;
  SourceRange alias_range = path_range;
  bool alias_ok = true;
  if (stmt.alias) {
    alias = stmt.alias->name;
    alias_range = stmt.alias->range;
  } else {
    alias = default_import_alias(spec);
    if (!is_identifier(alias) || is_hard_keyword(alias)) {
      alias_ok = false;
      auto& d = diags_.error(eval_codes::kBadImportAlias, path_range,
                             "cannot name this module '" + alias + "': it is not an identifier");
      d.suggestions.push_back({"give it a name with 'as': import \"" + spec + "\" as NAME", std::nullopt, ""});
    }
  }

  const ModuleSource source = loader_.load(module.key, module.ast->file, spec, path_range, diags_);
  Module* target = &module_for(source);

  if (target->state == Module::State::InProgress) {
    // The chain from the first import of `target` to this one.
    std::size_t first = import_stack_.size();
    for (std::size_t i = 0; i < import_stack_.size(); ++i) {
      if (import_stack_[i].importer == target) {
        first = i;
        break;
      }
    }
    std::string chain;
    for (std::size_t i = first; i < import_stack_.size(); ++i) chain += import_stack_[i].importer->display + " -> ";
    chain += module.display + " -> " + target->display;
    auto& d = diags_.error(eval_codes::kImportCycle, path_range, "import cycle: " + chain);
    for (std::size_t i = first; i < import_stack_.size(); ++i) {
      const Module* next = i + 1 < import_stack_.size() ? import_stack_[i + 1].importer : &module;
      d.notes.push_back({"'" + import_stack_[i].importer->display + "' imports '" + next->display + "' here",
                         import_stack_[i].at});
    }
    target = &failed_module_;
  } else if (target->state == Module::State::NotStarted) {
    import_stack_.push_back({&module, path_range});
    evaluate_module(*target);
    import_stack_.pop_back();
  }

  if (!alias_ok) return;
  TopLevelName entry;
  entry.kind = TopLevelName::Kind::Import;
  entry.name_range = alias_range;
  entry.state = TopLevelName::State::Done;
  entry.value = module_value(*target, alias_range);
  declare_top_level(module, alias, alias_range, std::move(entry));
}

std::optional<Value> Evaluator::top_level_let(Module& module, const std::string& name, TopLevelName& entry,
                                              SourceRange reference) {
  if (entry.state == TopLevelName::State::Done) return entry.value;
  if (entry.state == TopLevelName::State::InProgress) {
    report_let_cycle(module, name, entry, reference);
    return std::nullopt;
  }
  if (!let_stack_.empty()) let_stack_.back().via = reference;
  let_stack_.push_back({&module, name, {}});
  entry.state = TopLevelName::State::InProgress;
  auto value = eval(*entry.let->value, Env{&module, nullptr});
  entry.state = TopLevelName::State::Done;
  entry.value = std::move(value);
  let_stack_.pop_back();
  return entry.value;
}

void Evaluator::report_let_cycle(const Module& module, const std::string& name, const TopLevelName& entry,
                                 SourceRange reference) {
  std::size_t first = 0;
  for (std::size_t i = 0; i < let_stack_.size(); ++i) {
    if (let_stack_[i].module == &module && let_stack_[i].name == name) {
      first = i;
      break;
    }
  }
  auto& d = diags_.error(eval_codes::kLetCycle, entry.name_range, "let '" + name + "' depends on itself");
  for (std::size_t i = first; i < let_stack_.size(); ++i) {
    const bool last = i + 1 == let_stack_.size();
    const std::string& next = last ? name : let_stack_[i + 1].name;
    d.notes.push_back({"'" + let_stack_[i].name + "' refers to '" + next + "' here",
                       last ? reference : let_stack_[i].via});
  }
}

std::optional<Value> Evaluator::lookup(const std::string& name, SourceRange at, const Env& env) {
  for (const Scope* scope = env.scope; scope != nullptr; scope = scope->parent) {
    auto found = scope->names.find(name);
    if (found != scope->names.end()) return found->second.value;
  }
  if (env.module != nullptr) {
    auto found = env.module->names.find(name);
    if (found != env.module->names.end()) {
      if (found->second.kind == TopLevelName::Kind::Let) {
        return top_level_let(*env.module, name, found->second, at);
      }
      return found->second.value;
    }
  }
  if (is_builtin(name)) return builtin_value(name, at);
  report_unknown(name, at, env);
  return std::nullopt;
}

void Evaluator::report_unknown(const std::string& name, SourceRange at, const Env& env) {
  for (const Scope* scope = env.scope; scope != nullptr; scope = scope->parent) {
    auto found = scope->later.find(name);
    if (found == scope->later.end()) continue;
    auto& d = diags_.error(eval_codes::kUsedBeforeDefinition, at, "'" + name + "' is used before its definition");
    d.notes.push_back({"'" + name + "' is defined here", found->second});
    return;
  }
  auto& d = diags_.error(eval_codes::kUnknownName, at, "unknown name '" + name + "'");
  diag::suggest_closest(d, name, visible_names(env));
}

std::vector<std::string> Evaluator::visible_names(const Env& env) const {
  std::vector<std::string> names;
  for (const Scope* scope = env.scope; scope != nullptr; scope = scope->parent) {
    for (const auto& [name, binding] : scope->names) names.push_back(name);
  }
  if (env.module != nullptr) {
    for (const auto& [name, entry] : env.module->names) names.push_back(name);
  }
  for (const auto& name : builtin_names()) names.push_back(name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::optional<Value> Evaluator::module_export(const Module& module, const std::string& name, SourceRange at) {
  if (module.ast == nullptr) return std::nullopt;  // a module that failed to load: already reported
  auto found = module.names.find(name);
  if (found != module.names.end() && found->second.kind != TopLevelName::Kind::Import) {
    // Modules are evaluated completely before their importers run.
    if (found->second.state != TopLevelName::State::Done) return std::nullopt;
    return found->second.value;
  }
  std::vector<std::string> exports;
  for (const auto& [export_name, entry] : module.names) {
    if (entry.kind != TopLevelName::Kind::Import) exports.push_back(export_name);
  }
  auto& d = diags_.error(eval_codes::kNoSuchField, at, "module '" + module.display + "' has no let or template '" + name + "'");
  diag::suggest_closest(d, name, exports);
  return std::nullopt;
}

std::vector<SourceRange> Evaluator::instantiation_notes() const {
  return {use_stack_.rbegin(), use_stack_.rend()};
}

void Evaluator::secret_error(SourceRange at, bool printed) {
  diags_.error(eval_codes::kSecretUse, at,
               printed ? "a secret cannot be used here: its value would be printed"
                       : "a secret cannot be used here: its value would be inspected");
}

bool Evaluator::reject_secret(const Value& value, SourceRange at, bool printed) {
  const Value* found = find_nested(value, [](const Value& v) { return v.is(ValueKind::Secret); });
  if (found == nullptr) return false;
  secret_error(at, printed);
  return true;
}

bool Evaluator::reject_non_value(const Value& value, SourceRange at, const char* what) {
  const Value* found = find_nested(value, [](const Value& v) {
    return v.is(ValueKind::Template) || v.is(ValueKind::Module) || v.is(ValueKind::Builtin);
  });
  if (found == nullptr) return false;
  diags_.error(eval_codes::kNotAValue, at, std::string(what) + " " + described(found->kind));
  return true;
}

}  // namespace mkq::sema::detail
