// Static name resolution (resolve_names.h). The scope rules mirror the
// evaluator's exactly (evaluate.cpp lookup/report_unknown, evaluate_statements.cpp
// exec_body/exec_let/prepare_use): a name is looked up in the enclosing
// bodies innermost first, then the file's top level, then the builtins; a
// template body starts afresh with its parameters; a body's lets that have not
// run yet explain "used before its definition". Whatever the evaluator
// resolves, this pass resolves too, so it never reports a name that works.
#include "compiler/sema/resolve_names.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <tuple>

#include "compiler/sema/codes_eval.h"
#include "compiler/sema/evaluate_internal.h"

namespace mkq::sema {

namespace resolve_detail {

using diag::SourceRange;

// Deeper than any AST the parser builds (its transformer stops at 800 levels
// of expressions and bodies together); past it the walk stops silently
// instead of exhausting the stack.
constexpr int kMaxWalkDepth = 1000;

class NameChecker {
 public:
  NameChecker(const syntax::File& file, diag::Diagnostics& diagnostics, std::map<std::string, ModuleExports> imports,
              FileNames* names = nullptr)
      : file_(file), diags_(diagnostics), imports_(std::move(imports)), names_(names) {
    collect_top_level();
  }

  void run() {
    for (const auto& stmt : file_.stmts) {
      if (stmt) check(*stmt);
    }
  }

  // Checks one top-level statement, after taking note of what has been
  // reported since the last check (by anyone), so as not to repeat it.
  void check(const syntax::Stmt& stmt) {
    const auto& items = diags_.items();
    for (; absorbed_ < items.size(); ++absorbed_) {
      const diag::Diagnostic& d = items[absorbed_];
      seen_.insert(key_of(d.range, d.code, d.message));
    }
    walk_stmt(stmt);
  }

 private:
  enum class TopKind { Let, Template, Import };

  // One body's scope: the names bound so far, and its lets not yet run.
  struct Frame {
    std::map<std::string_view, SourceRange> names;
    std::map<std::string_view, SourceRange> later;
  };

  struct TopName {
    TopKind kind = TopKind::Let;
    SourceRange defined_at;
  };

  struct Resolution {
    enum class Kind { Local, TopLevel, Builtin, Later, Unknown };
    Kind kind = Kind::Unknown;
    TopKind top = TopKind::Let;  // for TopLevel
    SourceRange defined_at;      // for Local, TopLevel and Later
  };

  using Key = std::tuple<diag::FileId, std::uint32_t, std::uint32_t, std::string, std::string>;
  static Key key_of(const SourceRange& range, const std::string& code, const std::string& message) {
    return {range.file, range.begin.offset, range.end.offset, code, message};
  }

  // Counts one level of recursion for as long as it lives.
  class Level {
   public:
    explicit Level(NameChecker& checker) : checker_(checker) { ++checker_.depth_; }
    ~Level() { --checker_.depth_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;
    bool ok() const { return checker_.depth_ <= kMaxWalkDepth; }

   private:
    NameChecker& checker_;
  };

  // A frame pushed for as long as it lives.
  class Scoped {
   public:
    explicit Scoped(NameChecker& checker) : checker_(checker) { checker_.frames_.emplace_back(); }
    ~Scoped() { checker_.frames_.pop_back(); }
    Scoped(const Scoped&) = delete;
    Scoped& operator=(const Scoped&) = delete;

   private:
    NameChecker& checker_;
  };

  // The top-level names, as the evaluator's collect_top_level declares them
  // (the first of duplicates wins).
  void collect_top_level() {
    for (const auto& stmt : file_.stmts) {
      if (!stmt) continue;
      switch (stmt->kind) {
        case syntax::StmtKind::Import: {
          const auto& import = static_cast<const syntax::ImportStmt&>(*stmt);
          if (!import.path || !import.path->is_literal()) break;  // no alias is declared
          if (import.alias) {
            declare_top(import.alias->name, TopKind::Import, import.alias->range);
            break;
          }
          // Without `as`, the alias is the path's last segment: its name is the path string.
          const std::string alias = default_import_alias(import.path->literal_value());
          if (detail::is_identifier(alias) && !detail::is_hard_keyword(alias)) {
            declare_top(alias, TopKind::Import, import.path->range);
          }
          break;
        }
        case syntax::StmtKind::Let: {
          const auto& let = static_cast<const syntax::LetStmt&>(*stmt);
          declare_top(let.name.name, TopKind::Let, let.name.range);
          break;
        }
        case syntax::StmtKind::Template: {
          const auto& tmpl = static_cast<const syntax::TemplateStmt&>(*stmt);
          declare_top(tmpl.name.name, TopKind::Template, tmpl.name.range);
          break;
        }
        default:
          break;
      }
    }
  }

  void declare_top(const std::string& name, TopKind kind, const SourceRange& at) {
    const bool first = top_.emplace(name, TopName{kind, at}).second;
    if (names_ == nullptr || !first || name.empty()) return;
    static constexpr NameKind kKinds[] = {NameKind::Let, NameKind::Template, NameKind::Import};
    names_->declarations.push_back({name, kKinds[static_cast<int>(kind)], at});
  }

  // Binds `name` in the innermost frame (and tells the observer, if any).
  void bind_local(const std::string& name, const SourceRange& at, NameKind kind) {
    frames_.back().names.emplace(name, at);
    if (names_ != nullptr && !name.empty()) names_->declarations.push_back({name, kind, at});
  }

  // Tells the observer, if any, where the name used at `at` was declared.
  void note_use(const Resolution& r, const SourceRange& at) {
    if (names_ == nullptr) return;
    if (r.kind == Resolution::Kind::Local || r.kind == Resolution::Kind::TopLevel) {
      names_->uses.push_back({at, r.defined_at});
    }
  }

  Resolution resolve(const std::string& name) const {
    Resolution r;
    for (std::size_t i = frames_.size(); i-- > base_;) {
      if (auto found = frames_[i].names.find(name); found != frames_[i].names.end()) {
        r.kind = Resolution::Kind::Local;
        r.defined_at = found->second;
        return r;
      }
    }
    if (auto found = top_.find(name); found != top_.end()) {
      r.kind = Resolution::Kind::TopLevel;
      r.top = found->second.kind;
      r.defined_at = found->second.defined_at;
      return r;
    }
    if (detail::is_builtin(name)) {
      r.kind = Resolution::Kind::Builtin;
      return r;
    }
    for (std::size_t i = frames_.size(); i-- > base_;) {
      auto found = frames_[i].later.find(name);
      if (found == frames_[i].later.end()) continue;
      r.kind = Resolution::Kind::Later;
      r.defined_at = found->second;
      return r;
    }
    return r;
  }

  // Every name a lookup here could find, for "did you mean" (as the evaluator's visible_names).
  std::vector<std::string> visible_names() const {
    std::vector<std::string> names;
    for (std::size_t i = base_; i < frames_.size(); ++i) {
      for (const auto& [name, range] : frames_[i].names) names.emplace_back(name);
    }
    for (const auto& [name, top] : top_) names.push_back(name);
    for (const auto& name : detail::builtin_names()) names.push_back(name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  }

  // Adds a finding unless the same one is already there; null when it was.
  diag::Diagnostic* report(const char* code, const SourceRange& at, const std::string& message) {
    if (!seen_.insert(key_of(at, code, message)).second) return nullptr;
    return &diags_.error(code, at, message);
  }

  void report_later(const std::string& name, const SourceRange& at, const SourceRange& defined_at) {
    if (auto* d = report(eval_codes::kUsedBeforeDefinition, at, "'" + name + "' is used before its definition")) {
      d->notes.push_back({"'" + name + "' is defined here", defined_at});
    }
  }

  void check_name(const std::string& name, const SourceRange& at) {
    if (name.empty()) return;  // a syntax error, already reported
    const Resolution r = resolve(name);
    note_use(r, at);
    if (r.kind == Resolution::Kind::Later) return report_later(name, at, r.defined_at);
    if (r.kind != Resolution::Kind::Unknown) return;
    if (auto* d = report(eval_codes::kUnknownName, at, "unknown name '" + name + "'")) {
      diag::suggest_closest(*d, name, visible_names());
    }
  }

  // `alias.member` where alias is a module this file imports.
  void check_member(const std::string& alias, const syntax::Identifier& member, const SourceRange& alias_at) {
    if (names_ != nullptr && !member.name.empty()) names_->members.push_back({alias_at, member.name, member.range});
    auto found = imports_.find(alias);
    if (found == imports_.end() || member.name.empty()) return;
    const ModuleExports& exports = found->second;
    if (std::find(exports.names.begin(), exports.names.end(), member.name) != exports.names.end()) return;
    if (auto* d = report(eval_codes::kNoSuchField, member.range,
                         "module '" + exports.display + "' has no let or template '" + member.name + "'")) {
      diag::suggest_closest(*d, member.name, exports.names);
    }
  }

  // ------------------------------------------------------------ statements

  // The statements of a body whose frame is the innermost one: its lets are
  // "later" until they run.
  void walk_body(const std::vector<syntax::StmtPtr>& stmts) {
    for (const auto& stmt : stmts) {
      if (!stmt || stmt->kind != syntax::StmtKind::Let) continue;
      const auto& let = static_cast<const syntax::LetStmt&>(*stmt);
      frames_.back().later.emplace(let.name.name, let.name.range);
    }
    for (const auto& stmt : stmts) {
      if (stmt) walk_stmt(*stmt);
    }
  }

  // A body in a frame of its own (block, if branch).
  void walk_nested_body(const syntax::Body& body) {
    const Scoped frame(*this);
    walk_body(body.stmts);
  }

  void walk_stmt(const syntax::Stmt& stmt) {
    const Level level(*this);
    if (!level.ok()) return;
    switch (stmt.kind) {
      case syntax::StmtKind::Import:
        return;  // its path is a literal (anything else is reported by the evaluator)
      case syntax::StmtKind::Template:
        return walk_template(static_cast<const syntax::TemplateStmt&>(stmt));
      case syntax::StmtKind::Let: {
        const auto& let = static_cast<const syntax::LetStmt&>(stmt);
        walk_expr(let.value.get());
        if (frames_.size() == base_) return;  // a top-level let: collected already
        frames_.back().later.erase(let.name.name);
        bind_local(let.name.name, let.name.range, NameKind::Let);
        return;
      }
      case syntax::StmtKind::Attribute:
        return walk_expr(static_cast<const syntax::AttributeStmt&>(stmt).value.get());
      case syntax::StmtKind::Block: {
        const auto& block = static_cast<const syntax::BlockStmt&>(stmt);
        for (const auto& label : block.labels) walk_expr(label.get());
        walk_expr(block.in_label.get());
        return walk_nested_body(block.body);
      }
      case syntax::StmtKind::For: {
        const auto& loop = static_cast<const syntax::ForStmt&>(stmt);
        walk_expr(loop.iterable.get());
        const Scoped frame(*this);
        bind_local(loop.var.name, loop.var.range, NameKind::LoopVariable);
        if (loop.second_var) bind_local(loop.second_var->name, loop.second_var->range, NameKind::LoopVariable);
        return walk_body(loop.body.stmts);
      }
      case syntax::StmtKind::If:
        // Iterative over `else if`: every condition and every branch is checked.
        for (const auto* branch = &static_cast<const syntax::IfStmt&>(stmt); branch != nullptr;
             branch = branch->else_if.get()) {
          walk_expr(branch->condition.get());
          walk_nested_body(branch->then_body);
          if (branch->else_body) walk_nested_body(*branch->else_body);
        }
        return;
      case syntax::StmtKind::Assert: {
        const auto& assertion = static_cast<const syntax::AssertStmt&>(stmt);
        walk_expr(assertion.condition.get());
        return walk_expr(assertion.message.get());
      }
      case syntax::StmtKind::Use:
        return walk_use(static_cast<const syntax::UseStmt&>(stmt));
    }
  }

  // A template body sees its parameters (a default those before it), the
  // file's top level and the builtins, never the place it is written in (a
  // template misplaced in a body is checked the same way).
  void walk_template(const syntax::TemplateStmt& tmpl) {
    const std::size_t saved_base = base_;
    base_ = frames_.size();
    {
      const Scoped frame(*this);
      for (const auto& param : tmpl.params) {
        walk_expr(param.default_value.get());
        bind_local(param.name.name, param.name.range, NameKind::Parameter);
      }
      walk_body(tmpl.body.stmts);  // the body's lets share the parameters' scope
    }
    base_ = saved_base;
  }

  void walk_use(const syntax::UseStmt& use) {
    if (use.name.empty()) return;
    const auto& head = use.name.front();
    if (head.name.empty()) return;  // a syntax error, already reported
    const Resolution r = resolve(head.name);
    note_use(r, head.range);
    if (r.kind == Resolution::Kind::Unknown) {
      // Suggest only what `use` can take: templates and modules.
      std::vector<std::string> usable;
      for (const auto& [name, top] : top_) {
        if (top.kind != TopKind::Let) usable.push_back(name);
      }
      if (auto* d = report(eval_codes::kUnknownName, head.range, "unknown template '" + head.name + "'")) {
        diag::suggest_closest(*d, head.name, usable);
      }
    } else if (r.kind == Resolution::Kind::Later) {
      report_later(head.name, head.range, r.defined_at);
    } else if (r.kind == Resolution::Kind::TopLevel && r.top == TopKind::Import && use.name.size() >= 2) {
      check_member(head.name, use.name[1], r.defined_at);
    }
    for (const auto& arg : use.args) walk_expr(arg.value.get());
  }

  // ------------------------------------------------------------ expressions

  void walk_expr(const syntax::Expr* expr) {
    if (expr == nullptr) return;
    const Level level(*this);
    if (!level.ok()) return;
    switch (expr->kind) {
      case syntax::ExprKind::Number:
      case syntax::ExprKind::Duration:
      case syntax::ExprKind::Bool:
      case syntax::ExprKind::Null:
      case syntax::ExprKind::All:
      case syntax::ExprKind::Error:
        return;
      case syntax::ExprKind::String:
        for (const auto& part : static_cast<const syntax::StringExpr&>(*expr).parts) walk_expr(part.expr.get());
        return;
      case syntax::ExprKind::Name:
        return check_name(static_cast<const syntax::NameExpr&>(*expr).name, expr->range);
      case syntax::ExprKind::List:
        for (const auto& item : static_cast<const syntax::ListExpr&>(*expr).items) walk_expr(item.get());
        return;
      case syntax::ExprKind::Map:
        for (const auto& entry : static_cast<const syntax::MapExpr&>(*expr).entries) walk_expr(entry.value.get());
        return;
      case syntax::ExprKind::Comprehension: {
        const auto& comp = static_cast<const syntax::ComprehensionExpr&>(*expr);
        walk_expr(comp.iterable.get());
        const Scoped frame(*this);
        bind_local(comp.var.name, comp.var.range, NameKind::LoopVariable);
        if (comp.second_var) bind_local(comp.second_var->name, comp.second_var->range, NameKind::LoopVariable);
        walk_expr(comp.condition.get());
        return walk_expr(comp.element.get());
      }
      case syntax::ExprKind::Field: {
        const auto& field = static_cast<const syntax::FieldExpr&>(*expr);
        walk_expr(field.object.get());
        if (!field.object || field.object->kind != syntax::ExprKind::Name) return;
        const auto& alias = static_cast<const syntax::NameExpr&>(*field.object).name;
        const Resolution r = resolve(alias);
        if (r.kind == Resolution::Kind::TopLevel && r.top == TopKind::Import) check_member(alias, field.field, r.defined_at);
        return;
      }
      case syntax::ExprKind::Index: {
        const auto& index = static_cast<const syntax::IndexExpr&>(*expr);
        walk_expr(index.object.get());
        return walk_expr(index.index.get());
      }
      case syntax::ExprKind::Call: {
        const auto& call = static_cast<const syntax::CallExpr&>(*expr);
        walk_expr(call.callee.get());
        for (const auto& arg : call.args) walk_expr(arg.value.get());
        return;
      }
      case syntax::ExprKind::Unary:
        return walk_expr(static_cast<const syntax::UnaryExpr&>(*expr).operand.get());
      case syntax::ExprKind::Binary: {
        const auto& binary = static_cast<const syntax::BinaryExpr&>(*expr);
        walk_expr(binary.left.get());
        return walk_expr(binary.right.get());
      }
      case syntax::ExprKind::Conditional: {
        const auto& conditional = static_cast<const syntax::ConditionalExpr&>(*expr);
        walk_expr(conditional.condition.get());
        walk_expr(conditional.then_value.get());
        return walk_expr(conditional.else_value.get());
      }
      case syntax::ExprKind::Paren:
        return walk_expr(static_cast<const syntax::ParenExpr&>(*expr).inner.get());
    }
  }

  const syntax::File& file_;
  diag::Diagnostics& diags_;
  const std::map<std::string, ModuleExports> imports_;
  FileNames* names_;  // the observer of every declaration and use, when asked (file_names())
  std::map<std::string, TopName> top_;
  std::vector<Frame> frames_;
  std::size_t base_ = 0;  // the first frame lookups see (a template body starts afresh)
  int depth_ = 0;
  std::set<Key> seen_;    // findings already reported, by anyone
  std::size_t absorbed_ = 0;  // diagnostics up to here are in seen_
};

}  // namespace resolve_detail

void resolve_names(const syntax::File& file, diag::Diagnostics& diagnostics,
                   const std::map<std::string, ModuleExports>& imports) {
  resolve_detail::NameChecker checker(file, diagnostics, imports);
  checker.run();
}

FileNames file_names(const syntax::File& file) {
  FileNames names;
  diag::Diagnostics ignored;
  resolve_detail::NameChecker checker(file, ignored, {}, &names);
  checker.run();
  return names;
}

bool is_declarable_name(const std::string& text) {
  return detail::is_identifier(text) && !detail::is_hard_keyword(text) && !detail::is_builtin(text);
}

NameResolver::NameResolver(const syntax::File& file, diag::Diagnostics& diagnostics,
                           std::map<std::string, ModuleExports> imports)
    : checker_(std::make_unique<resolve_detail::NameChecker>(file, diagnostics, std::move(imports))) {}

NameResolver::~NameResolver() = default;

void NameResolver::check(const syntax::Stmt& stmt) { checker_->check(stmt); }

}  // namespace mkq::sema
