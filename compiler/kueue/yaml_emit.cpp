// The YAML writer of yaml_emit.h.
#include "compiler/kueue/yaml_emit.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>

#include <fmt/format.h>

namespace mkq::kueue {

namespace {

// Plain scalars a YAML 1.1 or 1.2 reader resolves to null, a boolean or a merge/value key.
constexpr std::array<std::string_view, 29> kReservedWords = {
    "~",    "null", "Null", "NULL", "y",    "Y",    "yes",  "Yes",   "YES",   "n",
    "N",    "no",   "No",   "NO",   "true", "True", "TRUE", "false", "False", "FALSE",
    "on",   "On",   "ON",   "off",  "Off",  "OFF",  "<<",   "=",     ""};

constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";
// Every character a YAML number (decimal, hex, octal, binary, float with
// exponent, 1.1's underscores and sexagesimal) is made of.
constexpr std::string_view kNumberChars = "0123456789abcdefABCDEFxXoO_.:+-eE";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The characters of is_plain_safe()'s fast path, by table: every key and
// string value of every rendered object is checked.
enum class NameChar : std::uint8_t { Other, Letter, Rest };  // Rest: a digit or one of "-./_"
constexpr std::array<NameChar, 256> kNameChars = [] {
  std::array<NameChar, 256> table{};
  for (int c = 0; c < 256; ++c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      table[c] = NameChar::Letter;
    } else if ((c >= '0' && c <= '9') || c == '-' || c == '.' || c == '/' || c == '_') {
      table[c] = NameChar::Rest;
    }
  }
  return table;
}();

// The first characters of kReservedWords.
constexpr std::array<bool, 256> kReservedFirst = [] {
  std::array<bool, 256> table{};
  for (std::string_view word : kReservedWords) {
    if (!word.empty()) table[static_cast<unsigned char>(word.front())] = true;
  }
  return table;
}();

// One of kReservedWords. Compares only words of the same length and first
// character: every key and short value of every object comes through here.
bool is_reserved_word(std::string_view text) {
  if (text.empty()) return true;
  if (!kReservedFirst[static_cast<unsigned char>(text.front())]) return false;
  return std::any_of(kReservedWords.begin(), kReservedWords.end(), [&](std::string_view word) {
    return word.size() == text.size() && word.front() == text.front() && word == text;
  });
}

// U+0085, U+2028, U+2029 (YAML 1.1 line breaks) and U+FEFF (byte order mark), as UTF-8.
bool has_special_unicode(std::string_view text) {
  return text.find("\xC2\x85") != std::string_view::npos || text.find("\xE2\x80\xA8") != std::string_view::npos ||
         text.find("\xE2\x80\xA9") != std::string_view::npos || text.find("\xEF\xBB\xBF") != std::string_view::npos;
}

bool has_control(std::string_view text, bool allow_newline) {
  return std::any_of(text.begin(), text.end(), [&](char c) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') return !allow_newline;
    return u < 0x20 || u == 0x7F;
  });
}

bool looks_like_number(std::string_view text) {
  std::string_view body = text;
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) body.remove_prefix(1);
  if (body.empty()) return false;
  std::string lower(body);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; });
  if (lower == ".inf" || lower == ".nan") return true;
  if (!is_digit(body.front()) && body.front() != '.') return false;
  // A timestamp or a sexagesimal number: a digit first and a colon somewhere.
  if (is_digit(body.front()) && body.find(':') != std::string_view::npos) return true;
  return std::all_of(body.begin(), body.end(), [](char c) { return kNumberChars.find(c) != std::string_view::npos; });
}

// A multi-line string is written as a block literal when it reads back exactly:
// no control characters but newlines, no line with leading (first line) or
// trailing blanks, at least one character that is not a newline.
bool literal_safe(std::string_view text) {
  if (text.find('\n') == std::string_view::npos) return false;
  if (has_control(text, true) || has_special_unicode(text)) return false;
  if (text.find_first_not_of('\n') == std::string_view::npos) return false;
  if (text.front() == ' ' || text.front() == '\n') return false;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    if (!line.empty() && (line.back() == ' ' || line.back() == '\t')) return false;
    start = end + 1;
  }
  return true;
}

void append_spaces(int n, std::string& out) { out.append(static_cast<std::size_t>(n), ' '); }

void append_string(const std::string& text, std::string& out) {
  if (is_plain_safe(text)) {
    out += text;
  } else {
    out += double_quoted(text);
  }
}

void append_scalar(const Json& value, std::string& out) {
  if (value.is_string()) {
    append_string(value.get_ref<const std::string&>(), out);
  } else if (value.is_boolean()) {
    out += value.get<bool>() ? "true" : "false";
  } else if (value.is_null()) {
    out += "null";
  } else if (value.is_number_unsigned()) {
    fmt::format_to(std::back_inserter(out), "{}", value.get<std::uint64_t>());
  } else if (value.is_number_integer()) {
    fmt::format_to(std::back_inserter(out), "{}", value.get<std::int64_t>());
  } else {
    out += value.dump();  // other numbers
  }
}

void emit_block_literal(std::string_view text, int content_indent, std::string& out) {
  std::size_t trailing = 0;
  while (trailing < text.size() && text[text.size() - 1 - trailing] == '\n') ++trailing;
  out += trailing == 0 ? " |-\n" : trailing == 1 ? " |\n" : " |+\n";
  if (trailing > 0) text.remove_suffix(1);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    if (!line.empty()) {
      append_spaces(content_indent, out);
      out += line;
    }
    out += '\n';
    start = end + 1;
  }
}

void emit_list_items(const Json& list, int indent, std::string& out);
void emit_map_entries(const Json& map, int indent, bool first_inline, std::string& out);

// Writes what follows "key:" or "-": the value, on the same line when it is a
// scalar or an empty collection, else on the next lines. `indent` is the
// column of the key or dash.
void emit_after(const Json& value, int indent, bool in_list, std::string& out) {
  if (value.is_object()) {
    if (value.empty()) {
      out += " {}\n";
    } else if (in_list) {
      out += ' ';
      emit_map_entries(value, indent + 2, true, out);
    } else {
      out += '\n';
      emit_map_entries(value, indent + 2, false, out);
    }
    return;
  }
  if (value.is_array()) {
    if (value.empty()) {
      out += " []\n";
    } else {
      out += '\n';
      // A list under a key sits at the key's column; a list in a list is indented.
      emit_list_items(value, in_list ? indent + 2 : indent, out);
    }
    return;
  }
  if (value.is_string() && literal_safe(value.get_ref<const std::string&>())) {
    emit_block_literal(value.get_ref<const std::string&>(), indent + 2, out);
    return;
  }
  out += ' ';
  append_scalar(value, out);
  out += '\n';
}

void emit_map_entries(const Json& map, int indent, bool first_inline, std::string& out) {
  bool first = true;
  for (const auto& [key, value] : map.items()) {
    if (!(first && first_inline)) append_spaces(indent, out);
    first = false;
    append_string(key, out);
    out += ':';
    emit_after(value, indent, false, out);
  }
}

void emit_list_items(const Json& list, int indent, std::string& out) {
  for (const Json& item : list) {
    append_spaces(indent, out);
    out += '-';
    emit_after(item, indent, true, out);
  }
}

}  // namespace

bool is_plain_safe(std::string_view text) {
  // Fast path for the usual names ("default-flavor", "kueue.x-k8s.io/v1beta2",
  // "36Gi"): a letter first, then letters, digits and "-./_". Such a string is
  // plain unless it is a reserved word (those are at most 5 letters).
  if (!text.empty() && kNameChars[static_cast<unsigned char>(text.front())] == NameChar::Letter &&
      std::all_of(text.begin(), text.end(),
                  [](char c) { return kNameChars[static_cast<unsigned char>(c)] != NameChar::Other; })) {
    return text.size() > 5 || !is_reserved_word(text);
  }
  if (is_reserved_word(text)) return false;
  if (has_control(text, false) || has_special_unicode(text)) return false;
  if (kIndicators.find(text.front()) != std::string_view::npos) return false;
  if (text.front() == ' ' || text.back() == ' ') return false;
  if (text.back() == ':') return false;
  if (text.find(": ") != std::string_view::npos || text.find(" #") != std::string_view::npos) return false;
  if (text.find_first_of("{}[],") != std::string_view::npos) return false;
  return !looks_like_number(text);
}

std::string double_quoted(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    const std::string_view rest = text.substr(i);
    // \u escapes rather than YAML's \N \L \P, which some readers decode wrongly.
    if (rest.starts_with("\xC2\x85")) { out += "\\u0085"; ++i; continue; }
    if (rest.starts_with("\xE2\x80\xA8")) { out += "\\u2028"; i += 2; continue; }
    if (rest.starts_with("\xE2\x80\xA9")) { out += "\\u2029"; i += 2; continue; }
    if (rest.starts_with("\xEF\xBB\xBF")) { out += "\\uFEFF"; i += 2; continue; }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\0': out += "\\0"; break;
      default:
        if (u < 0x20 || u == 0x7F) {
          fmt::format_to(std::back_inserter(out), "\\x{:02X}", static_cast<unsigned>(u));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

void append_yaml(const Json& document, std::string& out) {
  if (document.is_object() && !document.empty()) {
    emit_map_entries(document, 0, false, out);
  } else if (document.is_array() && !document.empty()) {
    emit_list_items(document, 0, out);
  } else if (document.is_string() && literal_safe(document.get_ref<const std::string&>())) {
    const std::size_t start = out.size();
    emit_block_literal(document.get_ref<const std::string&>(), 2, out);
    out.erase(start, 1);  // no key before the indicator
  } else if (document.is_object() || document.is_array()) {
    out += document.is_object() ? "{}\n" : "[]\n";
  } else {
    append_scalar(document, out);
    out += '\n';
  }
}

std::string to_yaml(const Json& document) {
  std::string out;
  append_yaml(document, out);
  return out;
}

}  // namespace mkq::kueue
