// Top-level members of JSON text, found without parsing (json_text.h).
#include "sandbox/json_text.h"

namespace mkq::sandbox {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void skip_space(std::string_view text, std::size_t& at) {
  while (at < text.size() && is_space(text[at])) ++at;
}

// At an opening quote: moves past the closing one. False when the text ends first.
bool skip_string(std::string_view text, std::size_t& at, bool* escaped) {
  for (++at; at < text.size(); ++at) {
    if (text[at] == '\\') {
      if (escaped != nullptr) *escaped = true;
      ++at;
    } else if (text[at] == '"') {
      ++at;
      return true;
    }
  }
  return false;
}

// Moves past one value: a string, an object or array (nesting counted, strings
// inside skipped whole), or a scalar up to the next delimiter.
bool skip_value(std::string_view text, std::size_t& at) {
  if (at >= text.size()) return false;
  if (text[at] == '"') return skip_string(text, at, nullptr);
  if (text[at] == '{' || text[at] == '[') {
    int depth = 0;
    while (at < text.size()) {
      const char c = text[at];
      if (c == '"') {
        if (!skip_string(text, at, nullptr)) return false;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      ++at;
      if (depth == 0) return true;
    }
    return false;
  }
  const std::size_t start = at;
  while (at < text.size() && text[at] != ',' && text[at] != '}' && text[at] != ']' && !is_space(text[at])) ++at;
  return at > start;
}

}  // namespace

std::optional<std::string_view> top_level_member(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  skip_space(text, at);
  if (at >= text.size() || text[at] != '{') return std::nullopt;
  ++at;
  skip_space(text, at);
  if (at < text.size() && text[at] == '}') return std::nullopt;
  while (at < text.size()) {
    if (text[at] != '"') return std::nullopt;
    const std::size_t key_start = at + 1;
    bool escaped = false;
    if (!skip_string(text, at, &escaped) || escaped) return std::nullopt;
    const std::string_view name = text.substr(key_start, at - 1 - key_start);
    skip_space(text, at);
    if (at >= text.size() || text[at] != ':') return std::nullopt;
    ++at;
    skip_space(text, at);
    const std::size_t value_start = at;
    if (!skip_value(text, at)) return std::nullopt;
    if (name == key) return text.substr(value_start, at - value_start);
    skip_space(text, at);
    if (at >= text.size()) return std::nullopt;
    if (text[at] == '}') return std::nullopt;
    if (text[at] != ',') return std::nullopt;
    ++at;
    skip_space(text, at);
  }
  return std::nullopt;
}

}  // namespace mkq::sandbox
