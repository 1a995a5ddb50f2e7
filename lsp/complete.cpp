// Completion from the text before the cursor (the document rarely parses
// while it is typed) and the names the last analysis of its policy knows:
// std/ modules after `import "`, a module's lets and templates after
// `alias.`, declared flavors, queues, workers, cohorts, topologies, ... in a
// string where one is expected, enum values, and at the start of a statement
// the keywords, the block kinds and the fields valid in the enclosing block.
#include <algorithm>
#include <regex>

#include "lsp/features.h"
#include "lsp/fields.h"
#include "stdlib/stdlib.h"

namespace mkq::lsp {

namespace {

// LSP's CompletionItemKind numbers.
constexpr int kFunction = 3;
constexpr int kField = 5;
constexpr int kVariable = 6;
constexpr int kModule = 9;
constexpr int kValue = 12;
constexpr int kKeyword = 14;
constexpr int kStruct = 22;
constexpr int kEnumMember = 20;

Json item(const std::string& label, int kind, const std::string& detail = {}) {
  Json result = {{"label", label}, {"kind", kind}};
  if (!detail.empty()) result["detail"] = detail;
  return result;
}

// The block kinds around the cursor, innermost last: a lexical scan of the
// text before it that skips strings and comments. A `{` opens a block when
// the words before it start with a block kind and hold no '=' or ':'; `for`,
// `if`, `else` and `template` bodies are transparent; any other `{` is a map.
std::vector<std::string> enclosing_blocks(std::string_view text) {
  constexpr std::string_view kTransparent = "";
  constexpr std::string_view kMap = "{";
  std::vector<std::string> stack;
  std::size_t segment = 0;  // where the words before the next '{' begin
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      segment = i + 1;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const auto end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 1;
      continue;
    }
    if (c == '}') {
      if (!stack.empty()) stack.pop_back();
      segment = i + 1;
    } else if (c == '{') {
      std::string_view words = text.substr(segment, i - segment);
      const auto first = words.find_first_not_of(" \t\r\n");
      words = first == std::string_view::npos ? std::string_view{} : words.substr(first);
      const auto word_end = words.find_first_of(" \t\r\n\"(");
      const std::string word(words.substr(0, word_end));
      if (word == "for" || word == "if" || word == "else" || word == "template" || word == "}") {
        stack.emplace_back(kTransparent);
      } else if (!word.empty() && words.find_first_of("=:[") == std::string_view::npos) {
        stack.push_back(word);
      } else {
        stack.emplace_back(kMap);
      }
      segment = i + 1;
    } else if (c == '\n' || c == ',' || c == ';') {
      segment = i + 1;
    }
  }
  std::vector<std::string> blocks;
  for (const auto& entry : stack) {
    if (entry == kMap) return {"{"};  // inside a map: no statement goes here
    if (!entry.empty()) blocks.push_back(entry);
  }
  return blocks;
}

void statement_items(const std::vector<std::string>& blocks, Json& items) {
  const std::string parent = blocks.empty() ? "" : blocks.back();
  const std::string grand = blocks.size() < 2 ? "" : blocks[blocks.size() - 2];
  for (const char* keyword : {"let", "for", "if", "use", "assert"}) items.push_back(item(keyword, kKeyword));
  if (blocks.empty()) {
    for (const char* keyword : {"import", "template"}) items.push_back(item(keyword, kKeyword));
  }
  for (const auto& kind : block_kinds(parent)) {
    const BlockInfo* info = block_info(parent, kind);
    items.push_back(item(kind, kStruct, info != nullptr ? info->doc : ""));
  }
  if (const BlockInfo* info = block_info(grand, parent)) {
    for (const auto& field : info->fields) {
      Json entry = item(field.name, kField, field.doc);
      entry["insertText"] = field.name + " = ";
      items.push_back(std::move(entry));
    }
  }
}

void string_items(const View& view, const std::string& place, const std::vector<std::string>& blocks, Json& items) {
  const std::string kind = referenced_kind(place);
  if (!kind.empty()) {
    for (const std::size_t id : view.index.blocks_of_kind(kind)) {
      items.push_back(item(view.index.symbol(id).name, kValue, kind));
    }
  }
  const std::string parent = blocks.empty() ? "" : blocks.back();
  const std::string grand = blocks.size() < 2 ? "" : blocks[blocks.size() - 2];
  if (const BlockInfo* info = block_info(grand, parent)) {
    for (const auto& field : info->fields) {
      if (field.name != place) continue;
      for (const auto& value : field.enum_values) items.push_back(item(value, kEnumMember, place));
    }
  }
}

void expression_items(const View& view, diag::FileId file, Json& items) {
  std::vector<std::string> seen;
  for (std::size_t id = 0; id < view.index.size(); ++id) {
    const Symbol& symbol = view.index.symbol(id);
    if (symbol.kind == SymbolKind::Block || symbol.range.file != file) continue;
    if (std::find(seen.begin(), seen.end(), symbol.name) != seen.end()) continue;
    seen.push_back(symbol.name);
    items.push_back(item(symbol.name, symbol.kind == SymbolKind::Template ? kFunction
                                      : symbol.kind == SymbolKind::Import ? kModule
                                                                          : kVariable));
  }
  for (const char* keyword : {"true", "false", "null", "all"}) items.push_back(item(keyword, kKeyword));
}

}  // namespace

Json completion(const View& view, diag::FileId file, std::string_view text, std::uint32_t offset) {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text.size()));
  const auto line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  const std::string prefix(text.substr(line_start == std::string_view::npos || offset == 0 ? 0 : line_start + 1,
                                       offset - (line_start == std::string_view::npos || offset == 0 ? 0 : line_start + 1)));
  Json items = Json::array();
  std::smatch match;
  static const std::regex kImport(R"(^\s*import\s+"([^"]*)$)");
  static const std::regex kMember(R"(([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z0-9_]*)$)");
  static const std::regex kValuePlace(R"(([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*(\[[^\]]*)?"[^"]*$)");
  static const std::regex kLabelPlace(R"(^\s*([A-Za-z_][A-Za-z0-9_]*)\s+"[^"]*$)");
  static const std::regex kStatementStart(R"(^\s*[A-Za-z_]*$)");
  if (std::regex_search(prefix, match, kImport)) {
    for (const auto& module : stdlib::modules()) items.push_back(item(module.path, kModule));
    return items;
  }
  const bool in_string = std::count(prefix.begin(), prefix.end(), '"') % 2 == 1;
  const std::vector<std::string> blocks = enclosing_blocks(text.substr(0, offset));
  if (in_string) {
    if (std::regex_search(prefix, match, kValuePlace) || std::regex_search(prefix, match, kLabelPlace)) {
      string_items(view, match[1].str(), blocks, items);
    }
    return items;
  }
  if (std::regex_search(prefix, match, kMember)) {
    const std::string alias = match[1].str();
    for (std::size_t id = 0; id < view.index.size(); ++id) {
      const Symbol& symbol = view.index.symbol(id);
      if (symbol.kind != SymbolKind::Import || symbol.name != alias || symbol.range.file != file) continue;
      for (const std::size_t member : view.index.exports_of(view.index.module_of(id))) {
        const Symbol& exported = view.index.symbol(member);
        items.push_back(item(exported.name, exported.kind == SymbolKind::Template ? kFunction : kVariable));
      }
    }
    return items;
  }
  if (std::regex_match(prefix, kStatementStart) && (blocks.empty() || blocks.back() != "{")) {
    statement_items(blocks, items);
    return items;
  }
  expression_items(view, file, items);
  return items;
}

}  // namespace mkq::lsp
