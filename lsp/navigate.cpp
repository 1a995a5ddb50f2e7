// Definition, references, rename, the outline, formatting and quick fixes.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/sema/names.h"
#include "compiler/sema/resolve_names.h"
#include "compiler/syntax/format.h"
#include "compiler/syntax/parse.h"
#include "lsp/features.h"
#include "lsp/walk.h"

namespace mkq::lsp {

namespace {

// LSP's SymbolKind numbers.
constexpr int kModule = 2;
constexpr int kNamespace = 3;
constexpr int kFunction = 12;
constexpr int kVariable = 13;
constexpr int kObject = 19;

std::string label_text(const syntax::BlockStmt& block, const diag::SourceManager& sources) {
  std::string text;
  for (const auto& label : block.labels) {
    const auto& source = sources.file(label->range.file).text;
    if (!text.empty()) text += ' ';
    text += source.substr(label->range.begin.offset, label->range.end.offset - label->range.begin.offset);
  }
  return text;
}

Json block_symbol(const syntax::BlockStmt& block, const View& view);

// The outline of a body: blocks (with their nested blocks), lets and templates; statements
// that only arrange others (for, if) show what they hold.
void outline(const std::vector<syntax::StmtPtr>& stmts, const View& view, Json& into) {
  for (const auto& stmt : stmts) {
    if (!stmt) continue;
    const auto symbol = [&](const std::string& name, const std::string& detail, int kind,
                            const diag::SourceRange& selection) {
      into.push_back({{"name", name.empty() ? "?" : name},
                      {"detail", detail},
                      {"kind", kind},
                      {"range", view.positions.range_json(stmt->range)},
                      {"selectionRange", view.positions.range_json(selection)}});
    };
    switch (stmt->kind) {
      case syntax::StmtKind::Block:
        into.push_back(block_symbol(static_cast<const syntax::BlockStmt&>(*stmt), view));
        break;
      case syntax::StmtKind::Let: {
        const auto& let = static_cast<const syntax::LetStmt&>(*stmt);
        symbol(let.name.name, "let", kVariable, let.name.range);
        break;
      }
      case syntax::StmtKind::Template: {
        const auto& tmpl = static_cast<const syntax::TemplateStmt&>(*stmt);
        symbol(tmpl.name.name, "template", kFunction, tmpl.name.range);
        break;
      }
      case syntax::StmtKind::Import: {
        const auto& import = static_cast<const syntax::ImportStmt&>(*stmt);
        if (!import.path) break;
        const std::string spec = import.path->is_literal() ? import.path->literal_value() : "";
        symbol(import.alias ? import.alias->name : spec, "import " + spec, kModule,
               import.alias ? import.alias->range : import.path->range);
        break;
      }
      case syntax::StmtKind::For:
      case syntax::StmtKind::If:
        for (const auto* body : bodies(*stmt)) outline(*body, view, into);
        break;
      default:
        break;
    }
  }
}

Json block_symbol(const syntax::BlockStmt& block, const View& view) {
  const std::string labels = label_text(block, view.analysis.sources);
  Json children = Json::array();
  outline(block.body.stmts, view, children);
  Json symbol = {
      {"name", labels.empty() ? block.kind.name : fmt::format("{} {}", block.kind.name, labels)},
      {"detail", block.kind.name},
      {"kind", block.kind.name == "namespace" ? kNamespace : kObject},
      {"range", view.positions.range_json(block.range)},
      {"selectionRange",
       view.positions.range_json(block.labels.empty() ? block.kind.range : block.labels.front()->range)}};
  if (!children.empty()) symbol["children"] = std::move(children);
  return symbol;
}

// Why `name` cannot be the new name of `symbol` ("" when it can).
std::string rename_refusal(const View& view, std::size_t id, const std::string& name) {
  const Symbol& symbol = view.index.symbol(id);
  if (symbol.kind == SymbolKind::Block) {
    if (const auto error = sema::dns1123_subdomain_error(name)) {
      return fmt::format("'{}' is not a valid name: {}", name, *error);
    }
    for (const std::size_t other : view.index.blocks_of_kind(symbol.block_kind)) {
      if (view.index.symbol(other).name == name) {
        return fmt::format("a {} '{}' exists already", symbol.block_kind, name);
      }
    }
    return "";
  }
  if (!sema::is_declarable_name(name)) return fmt::format("'{}' is not a name a declaration can take", name);
  // Taken: another declaration of that name in the same file (a conservative
  // rule: a shadowed or shadowing name would change what uses find).
  for (std::size_t other = 0; other < view.index.size(); ++other) {
    const Symbol& candidate = view.index.symbol(other);
    if (candidate.kind != SymbolKind::Block && candidate.name == name && candidate.range.file == symbol.range.file) {
      return fmt::format("'{}' is already declared in this file", name);
    }
  }
  return "";
}

}  // namespace

Json definition(const View& view, diag::FileId file, std::uint32_t offset) {
  const auto id = view.index.symbol_at(file, offset);
  if (!id) return nullptr;
  return view.positions.location(view.index.symbol(*id).range);
}

Json references(const View& view, diag::FileId file, std::uint32_t offset, bool include_declaration) {
  const auto id = view.index.symbol_at(file, offset);
  if (!id) return nullptr;
  Json locations = Json::array();
  const auto ranges = view.index.occurrences(*id);
  for (std::size_t i = include_declaration ? 0 : 1; i < ranges.size(); ++i) {
    Json location = view.positions.location(ranges[i]);
    if (!location.is_null()) locations.push_back(std::move(location));
  }
  return locations;
}

Json prepare_rename(const View& view, diag::FileId file, std::uint32_t offset) {
  const auto id = view.index.symbol_at(file, offset);
  if (!id) return nullptr;
  for (const auto& range : view.index.occurrences(*id)) {
    if (range.file == file && range.begin.offset <= offset && offset <= range.end.offset) {
      if (!view.positions.uri(view.index.symbol(*id).range.file)) return nullptr;  // declared in std/
      return {{"range", view.positions.range_json(range)}, {"placeholder", view.index.symbol(*id).name}};
    }
  }
  return nullptr;
}

Answer rename(const View& view, diag::FileId file, std::uint32_t offset, const std::string& new_name) {
  const auto id = view.index.symbol_at(file, offset);
  if (!id) return {nullptr, "there is no declared name here"};
  const Symbol& symbol = view.index.symbol(*id);
  if (!view.positions.uri(symbol.range.file)) {
    return {nullptr,
            fmt::format("'{}' is declared in the standard library, which cannot change", symbol.name)};
  }
  if (const std::string refusal = rename_refusal(view, *id, new_name); !refusal.empty()) return {nullptr, refusal};
  Json changes = Json::object();
  for (const auto& range : view.index.occurrences(*id)) {
    const auto uri = view.positions.uri(range.file);
    if (!uri) continue;
    changes[*uri].push_back({{"range", view.positions.range_json(range)}, {"newText", new_name}});
  }
  return {{{"changes", std::move(changes)}}, ""};
}

Json document_symbols(const View& view, diag::FileId file) {
  Json symbols = Json::array();
  if (const syntax::File* tree = view.analysis.tree(file)) outline(tree->stmts, view, symbols);
  return symbols;
}

Json formatting(const std::string& path, const std::string& text, Encoding encoding) {
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  const diag::FileId id = sources.add(path, text);
  const auto tree = syntax::parse_file(sources, id, diagnostics);
  if (!tree || diagnostics.has_errors()) return Json::array();
  const std::string formatted = syntax::format_file(*tree, sources.file(id));
  if (formatted == text) return Json::array();
  const LineIndex lines(text);
  const Range whole = lines.range(0, static_cast<std::uint32_t>(text.size()), encoding);
  return Json::array({{{"range", to_json(whole)}, {"newText", formatted}}});
}

Json code_actions(const View& view, diag::FileId file, std::uint32_t begin, std::uint32_t end) {
  Json actions = Json::array();
  const auto uri = view.positions.uri(file);
  if (!uri) return actions;
  const std::string& text = view.analysis.sources.file(file).text;
  for (const auto& diagnostic : view.analysis.diagnostics.sorted(view.analysis.sources)) {
    if (diagnostic.range.file != file || diagnostic.range.end.offset < begin || diagnostic.range.begin.offset > end) {
      continue;
    }
    for (const auto& suggestion : diagnostic.suggestions) {
      if (!suggestion.range || suggestion.range->file != file || suggestion.replacement.empty()) continue;
      std::string replacement = suggestion.replacement;
      // A suggestion for a string names its text: the quotes stay.
      const auto& at = *suggestion.range;
      if (at.end.offset > at.begin.offset + 1 && text[at.begin.offset] == '"' && text[at.end.offset - 1] == '"' &&
          replacement.front() != '"') {
        replacement = "\"" + replacement + "\"";
      }
      Json edit = {{"range", view.positions.range_json(at)}, {"newText", replacement}};
      actions.push_back({{"title", suggestion.message},
                         {"kind", "quickfix"},
                         {"isPreferred", true},
                         {"diagnostics", Json::array({diagnostic_json(diagnostic, view.positions)})},
                         {"edit", {{"changes", {{*uri, Json::array({edit})}}}}}});
    }
  }
  return actions;
}

}  // namespace mkq::lsp
