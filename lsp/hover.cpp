// Hover: what a name is and where it is declared, what a block kind or a
// field means, and the value an expression evaluates to (each value it takes
// when evaluation reaches it more than once: a loop, a template used twice).
#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/sema/evaluate.h"
#include "compiler/sema/value.h"
#include "lsp/features.h"
#include "lsp/fields.h"
#include "lsp/walk.h"

namespace mkq::lsp {

namespace {

constexpr std::size_t kMaxValuesShown = 8;

bool contains(const diag::SourceRange& range, std::uint32_t offset) {
  return range.valid() && range.begin.offset <= offset && offset <= range.end.offset;
}

bool is_literal(const syntax::Expr& expr) {
  switch (expr.kind) {
    case syntax::ExprKind::Bool:
    case syntax::ExprKind::Null:
    case syntax::ExprKind::All:
    case syntax::ExprKind::Error:
      return true;
    case syntax::ExprKind::String:
      return static_cast<const syntax::StringExpr&>(expr).is_literal();
    default:
      return false;
  }
}

// What the cursor is on, found by one walk of the file's tree.
struct Spot {
  const syntax::Expr* expr = nullptr;                 // the innermost expression worth evaluating
  const syntax::AttributeStmt* attribute = nullptr;   // on a field's name
  const syntax::BlockStmt* block = nullptr;           // on a block's kind
  std::string parent;                                 // the kind of the block around the field or block
  std::string grandparent;                            // and of the block around that one
};

class Finder {
 public:
  explicit Finder(std::uint32_t offset) : offset_(offset) {}
  Spot spot;

  void statements(const std::vector<syntax::StmtPtr>& stmts, const std::string& parent, const std::string& grand) {
    for (const auto& stmt : stmts) {
      if (stmt && contains(stmt->range, offset_)) statement(*stmt, parent, grand);
    }
  }

 private:
  void statement(const syntax::Stmt& stmt, const std::string& parent, const std::string& grand) {
    switch (stmt.kind) {
      case syntax::StmtKind::Let:
        return expression(static_cast<const syntax::LetStmt&>(stmt).value.get());
      case syntax::StmtKind::Attribute: {
        const auto& attribute = static_cast<const syntax::AttributeStmt&>(stmt);
        if (contains(attribute.name.range, offset_)) {
          spot.attribute = &attribute;
          spot.parent = parent;
          spot.grandparent = grand;
          return;
        }
        return expression(attribute.value.get());
      }
      case syntax::StmtKind::Block: {
        const auto& block = static_cast<const syntax::BlockStmt&>(stmt);
        if (contains(block.kind.range, offset_)) {
          spot.block = &block;
          spot.parent = parent;
          spot.grandparent = grand;
          return;
        }
        for (const auto& label : block.labels) expression(label.get());
        return statements(block.body.stmts, block.kind.name, parent);
      }
      case syntax::StmtKind::Template: {
        const auto& tmpl = static_cast<const syntax::TemplateStmt&>(stmt);
        for (const auto& param : tmpl.params) expression(param.default_value.get());
        return statements(tmpl.body.stmts, parent, grand);
      }
      case syntax::StmtKind::For: {
        const auto& loop = static_cast<const syntax::ForStmt&>(stmt);
        expression(loop.iterable.get());
        return statements(loop.body.stmts, parent, grand);
      }
      case syntax::StmtKind::If:
        for (const auto* branch = &static_cast<const syntax::IfStmt&>(stmt); branch != nullptr;
             branch = branch->else_if.get()) {
          expression(branch->condition.get());
          statements(branch->then_body.stmts, parent, grand);
          if (branch->else_body) statements(branch->else_body->stmts, parent, grand);
        }
        return;
      case syntax::StmtKind::Assert: {
        const auto& assertion = static_cast<const syntax::AssertStmt&>(stmt);
        expression(assertion.condition.get());
        return expression(assertion.message.get());
      }
      case syntax::StmtKind::Use:
        for (const auto& arg : static_cast<const syntax::UseStmt&>(stmt).args) expression(arg.value.get());
        return;
      case syntax::StmtKind::Import:
        return;
    }
  }

  void expression(const syntax::Expr* expr) {
    if (expr == nullptr || !contains(expr->range, offset_)) return;
    if (!is_literal(*expr)) spot.expr = expr;  // inner ones found later replace it
    for (const syntax::Expr* child : children(*expr)) expression(child);
  }

  std::uint32_t offset_;
};

std::string where(const View& view, const diag::SourceRange& range) {
  const diag::SourceFile& file = view.analysis.sources.file(range.file);
  const Position at = view.positions.range(range).start;
  const std::string name = file.is_stdlib ? file.path : std::filesystem::path(file.path).filename().string();
  return fmt::format("{}:{}", name, at.line + 1);
}

std::string source_text(const View& view, const diag::SourceRange& range) {
  const std::string& text = view.analysis.sources.file(range.file).text;
  if (range.end.offset > text.size() || range.end.offset < range.begin.offset) return "";
  return text.substr(range.begin.offset, range.end.offset - range.begin.offset);
}

std::string describe(const View& view, std::size_t id) {
  const Symbol& symbol = view.index.symbol(id);
  const std::string at = where(view, symbol.range);
  switch (symbol.kind) {
    case SymbolKind::Let:
      return fmt::format("```mkq\nlet {}\n```\n{} — declared at {}", symbol.name,
                         symbol.top_level ? "top-level let" : "let", at);
    case SymbolKind::Template: {
      std::string params;
      if (symbol.stmt != nullptr) {
        const auto& tmpl = static_cast<const syntax::TemplateStmt&>(*symbol.stmt);
        for (std::size_t i = 0; i < tmpl.params.size(); ++i) {
          fmt::format_to(std::back_inserter(params), "{}{}", i > 0 ? ", " : "", tmpl.params[i].name.name);
          if (tmpl.params[i].default_value) {
            fmt::format_to(std::back_inserter(params), " = {}",
                           source_text(view, tmpl.params[i].default_value->range));
          }
        }
      }
      return fmt::format("```mkq\ntemplate {}({})\n```\ntemplate — declared at {}", symbol.name, params, at);
    }
    case SymbolKind::Parameter:
      return fmt::format("```mkq\n{}\n```\ntemplate parameter — declared at {}", symbol.name, at);
    case SymbolKind::LoopVariable:
      return fmt::format("```mkq\n{}\n```\nloop variable — declared at {}", symbol.name, at);
    case SymbolKind::Import: {
      const diag::FileId module = view.index.module_of(id);
      const std::string path = module == diag::kNoFile ? "?" : view.analysis.sources.file(module).path;
      return fmt::format("```mkq\nimport {}\n```\nmodule `{}` — declared at {}", symbol.name, path, at);
    }
    case SymbolKind::Block:
      return fmt::format("```mkq\n{} \"{}\"\n```\n{} — declared at {}", symbol.block_kind, symbol.name,
                         symbol.block_kind, at);
  }
  return "";
}

// The values `expr` took when the policy was evaluated, as one line.
std::string evaluated(const View& view, const syntax::Expr& expr) {
  const auto& parsed = view.analysis.parsed;
  if (!parsed.imports) return "";  // syntax errors: nothing was evaluated
  std::vector<sema::RootFile> roots;
  for (const auto& root : parsed.roots) {
    const std::string& path = view.analysis.sources.file(root->file).path;
    roots.push_back({path, path, root.get()});
  }
  std::vector<sema::ModuleSource> prelude;
  for (const auto& module : parsed.imports->loaded_modules()) {
    if (std::find(sema::kPreludeModules.begin(), sema::kPreludeModules.end(), module.key) !=
        sema::kPreludeModules.end()) {
      prelude.push_back(module);
    }
  }
  const auto values = sema::values_of(expr, roots, *parsed.imports, prelude, kMaxValuesShown + 1);
  if (values.empty()) return "";
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < std::min(values.size(), kMaxValuesShown); ++i) {
    shown.push_back(fmt::format("`{}`", sema::to_display(values[i])));
  }
  const bool all_same = std::all_of(shown.begin(), shown.end(), [&](const std::string& s) { return s == shown[0]; });
  if (all_same && values.size() <= kMaxValuesShown) return fmt::format("= {}", shown[0]);
  return fmt::format("= {}{} (one per evaluation)", fmt::join(shown, ", "),
                     values.size() > kMaxValuesShown ? ", …" : "");
}

// The doc of field `name` of a `kind` block nested in `parent` ("" at the top level).
std::string field_doc(const std::string& parent, const std::string& kind, const std::string& name) {
  const BlockInfo* info = block_info(parent, kind);
  if (info == nullptr) return "";
  for (const auto& field : info->fields) {
    if (field.name != name) continue;
    std::string doc = fmt::format("```mkq\n{}\n```\nfield of `{}`", name, kind);
    const auto out = std::back_inserter(doc);
    if (!field.doc.empty()) fmt::format_to(out, ": {}", field.doc);
    if (!field.enum_values.empty()) {
      fmt::format_to(out, "\n\none of `{}`", fmt::join(field.enum_values, "`, `"));
    }
    if (!field.detail.empty()) fmt::format_to(out, "\n\n{}", field.detail);
    return doc;
  }
  if (info->any_field) return fmt::format("```mkq\n{}\n```\na resource of `{}`", name, kind);
  return "";
}

}  // namespace

Json hover(const View& view, diag::FileId file, std::uint32_t offset) {
  const syntax::File* tree = view.analysis.tree(file);
  if (tree == nullptr) return nullptr;
  Finder finder(offset);
  finder.statements(tree->stmts, "", "");
  const Spot& spot = finder.spot;
  const syntax::Expr* spot_value = spot.expr;
  std::string text;
  diag::SourceRange range;
  if (spot.attribute != nullptr) {
    text = field_doc(spot.grandparent, spot.parent, spot.attribute->name.name);
    range = spot.attribute->name.range;
  } else if (spot.block != nullptr) {
    if (const BlockInfo* info = block_info(spot.parent, spot.block->kind.name)) {
      text = fmt::format("```mkq\n{}\n```\n{}{}{}", info->kind, info->doc, info->detail.empty() ? "" : "\n\n",
                         info->detail);
    }
    range = spot.block->kind.range;
  }
  if (text.empty()) {
    if (const auto id = view.index.symbol_at(file, offset)) {
      text = describe(view, *id);
      // On a let's own name: the value it is bound to.
      const Symbol& symbol = view.index.symbol(*id);
      if (symbol.kind == SymbolKind::Let && symbol.stmt != nullptr && contains(symbol.range, offset) &&
          spot.expr == nullptr) {
        spot_value = static_cast<const syntax::LetStmt&>(*symbol.stmt).value.get();
      }
      for (const auto& occurrence : view.index.occurrences(*id)) {
        if (occurrence.file == file && contains(occurrence, offset)) range = occurrence;
      }
    }
  }
  if (spot_value != nullptr) {
    const bool on_symbol = !text.empty();
    // A name shows its value; so does any other expression under the cursor.
    if (const std::string value = evaluated(view, *spot_value); !value.empty()) {
      if (!on_symbol) range = spot_value->range;
      fmt::format_to(std::back_inserter(text), "{}```mkq\n{}\n```\n{}", text.empty() ? "" : "\n\n",
                     source_text(view, spot_value->range), value);
    }
  }
  if (text.empty()) return nullptr;
  Json result = {{"contents", {{"kind", "markdown"}, {"value", text}}}};
  if (range.valid()) result["range"] = view.positions.range_json(range);
  return result;
}

}  // namespace mkq::lsp
