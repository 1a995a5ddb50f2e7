// The block and field table behind hover and completion, read from the
// language's schema (compiler/sema/language.h): the binder's own table.
#include "lsp/fields.h"

#include <algorithm>
#include <iterator>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/sema/language.h"

namespace mkq::lsp {

namespace {

namespace language = sema::language;

std::string kueue_line(const language::KueueField& kueue) {
  if (kueue.kind.empty()) return "";
  std::string line = fmt::format("renders to `{}`", kueue.kind);
  if (!kueue.path.empty()) fmt::format_to(std::back_inserter(line), " `{}`", kueue.path);
  if (!kueue.description.empty()) fmt::format_to(std::back_inserter(line), " — {}", kueue.description);
  return line;
}

FieldInfo field_info(const language::Field& field) {
  FieldInfo info;
  info.name = std::string(field.name);
  info.doc = std::string(field.doc);
  for (const std::string_view value : field.values) info.enum_values.emplace_back(value);
  std::vector<std::string> lines;
  if (!field.type.empty()) lines.push_back(fmt::format("type: {}", field.type));
  if (!field.default_value.empty()) lines.push_back(fmt::format("default: `{}`", field.default_value));
  if (std::string kueue = kueue_line(field.kueue); !kueue.empty()) lines.push_back(std::move(kueue));
  info.detail = fmt::format("{}", fmt::join(lines, "\n\n"));
  return info;
}

BlockInfo block_of(const language::Block& block) {
  BlockInfo info;
  info.kind = std::string(block.kind);
  info.doc = std::string(block.doc);
  info.detail = kueue_line(block.kueue);
  for (const language::Field& field : block.fields) info.fields.push_back(field_info(field));
  for (const language::Block* child : block.children) info.blocks.emplace_back(child->kind);
  info.any_field = block.any_field;
  return info;
}

// Keyed by "PARENT/KIND" ("/KIND" at the top level). A kind nested in several
// places with different fields (quota, group, fair_sharing) is told apart by
// its parent; the first place a parent kind appears (depth first) stands for it.
const std::map<std::string, BlockInfo, std::less<>>& table() {
  static const std::map<std::string, BlockInfo, std::less<>> blocks = [] {
    std::map<std::string, BlockInfo, std::less<>> out;
    std::vector<std::pair<std::string, const language::Block*>> pending;
    for (const language::Block* block : language::top_level()) pending.emplace_back("", block);
    std::vector<std::string> expanded;  // kinds whose children were added
    for (std::size_t i = 0; i < pending.size(); ++i) {
      const auto [parent, block] = pending[i];
      out.emplace(fmt::format("{}/{}", parent, block->kind), block_of(*block));
      const std::string kind(block->kind);
      if (std::find(expanded.begin(), expanded.end(), kind) != expanded.end()) continue;
      expanded.push_back(kind);
      for (const language::Block* child : block->children) pending.emplace_back(kind, child);
    }
    return out;
  }();
  return blocks;
}

}  // namespace

const BlockInfo* block_info(std::string_view parent, std::string_view kind) {
  const auto found = table().find(fmt::format("{}/{}", parent, kind));
  return found == table().end() ? nullptr : &found->second;
}

std::vector<std::string> block_kinds(std::string_view parent) {
  std::vector<std::string> kinds;
  for (const auto& [path, info] : table()) {
    const auto slash = path.find('/');
    if (std::string_view(path).substr(0, slash) == parent) kinds.push_back(info.kind);
  }
  std::sort(kinds.begin(), kinds.end());
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  return kinds;
}

}  // namespace mkq::lsp
