// Encoding checks and literal advice (see literals.h).
#include "compiler/syntax/literals.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <vector>

#include <fmt/format.h>

namespace mkq::syntax::detail {

namespace {

unsigned char byte_at(std::string_view text, std::size_t i) { return static_cast<unsigned char>(text[i]); }

bool is_continuation(std::string_view text, std::size_t i) {
  return i < text.size() && (byte_at(text, i) & 0xC0u) == 0x80u;
}

// Length of the valid UTF-8 sequence at i, or 0 when it is malformed.
std::uint32_t valid_sequence_length(std::string_view text, std::size_t i) {
  const unsigned char b = byte_at(text, i);
  if (b < 0x80) return 1;
  if (b < 0xC2) return 0;  // a continuation byte, or an overlong 2-byte lead
  if (b < 0xE0) return is_continuation(text, i + 1) ? 2 : 0;
  if (b < 0xF0) {
    if (!is_continuation(text, i + 1) || !is_continuation(text, i + 2)) return 0;
    const unsigned char b1 = byte_at(text, i + 1);
    if (b == 0xE0 && b1 < 0xA0) return 0;   // overlong
    if (b == 0xED && b1 >= 0xA0) return 0;  // UTF-16 surrogates
    return 3;
  }
  if (b < 0xF5) {
    if (!is_continuation(text, i + 1) || !is_continuation(text, i + 2) || !is_continuation(text, i + 3)) return 0;
    const unsigned char b1 = byte_at(text, i + 1);
    if (b == 0xF0 && b1 < 0x90) return 0;   // overlong
    if (b == 0xF4 && b1 >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

constexpr std::array<std::string_view, 5> kDurationUnits = {"d", "h", "min", "s", "ms"};
constexpr std::array<std::uint64_t, 5> kUnitMillis = {86'400'000, 3'600'000, 60'000, 1'000, 1};

int duration_unit_rank(std::string_view unit) {
  for (std::size_t i = 0; i < kDurationUnits.size(); ++i) {
    if (kDurationUnits[i] == unit) return static_cast<int>(i);
  }
  return -1;
}

// A literal split into digit runs and letter runs: "1m30s" -> (1,m) (30,s).
struct Pair {
  std::string_view digits;
  std::string_view unit;
};

// Splits text into number/unit pairs; false when anything else (a '.', '_',
// a unit-less trailing number, letters first) appears.
bool split_pairs(std::string_view text, std::vector<Pair>& pairs) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t digits_begin = i;
    while (i < text.size() && std::isdigit(byte_at(text, i))) ++i;
    const std::size_t unit_begin = i;
    while (i < text.size() && std::isalpha(byte_at(text, i))) ++i;
    if (digits_begin == unit_begin || unit_begin == i) return false;
    if (i < text.size() && !std::isdigit(byte_at(text, i))) return false;
    pairs.push_back({text.substr(digits_begin, unit_begin - digits_begin), text.substr(unit_begin, i - unit_begin)});
  }
  return !pairs.empty();
}

// A decimal digit string as a number, or nothing when it does not fit in 2^53.
std::optional<std::uint64_t> small_number(std::string_view digits) {
  std::uint64_t value = 0;
  for (const char c : digits) {
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
    if (value > (std::uint64_t{1} << 53)) return std::nullopt;
  }
  return value;
}

constexpr std::string_view kQuantityNote =
    "quantity suffixes are n u m k M G T P E (powers of 10) and Ki Mi Gi Ti Pi Ei (powers of 2)";
constexpr std::string_view kNumberForms =
    "numbers are written like 9, 1.5, 500m, 36Gi or 2e3; durations like 30s, 5min or 1h30min";

// `1m30s`, `5m30s`: a duration that uses `m` for minutes.
std::optional<NumberAdvice> minutes_advice(std::string_view text) {
  std::vector<Pair> pairs;
  if (!split_pairs(text, pairs)) return std::nullopt;
  bool uses_m = false;
  std::string fixed;
  for (const auto& pair : pairs) {
    std::string_view unit = pair.unit;
    if (unit == "m") {
      uses_m = true;
      unit = "min";
    }
    if (duration_unit_rank(unit) < 0) return std::nullopt;
    fixed.append(pair.digits).append(unit);
  }
  if (!uses_m) return std::nullopt;
  NumberAdvice advice;
  advice.message = "invalid duration '" + std::string(text) + "'";
  advice.note = "minutes are written 'min': a bare 'm' is the quantity suffix milli";
  advice.replacement = fixed;
  return advice;
}

// `1.5h`: a duration with a fraction.
std::optional<NumberAdvice> fraction_advice(std::string_view text) {
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::size_t i = dot + 1;
  while (i < text.size() && std::isdigit(byte_at(text, i))) ++i;
  if (i == dot + 1) return std::nullopt;
  const std::string_view unit = text.substr(i);
  const int rank = duration_unit_rank(unit);
  if (rank < 0) return std::nullopt;
  for (std::size_t k = 0; k < dot; ++k) {
    if (!std::isdigit(byte_at(text, k))) return std::nullopt;
  }
  NumberAdvice advice;
  advice.message = "invalid duration '" + std::string(text) + "'";
  advice.note = "a duration is a whole number of units; combine units instead of a fraction";
  // Exact value in milliseconds, when it is whole: 1.5h -> 5400000 -> 1h30min.
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = text.substr(dot + 1, i - dot - 1);
  const auto whole_value = small_number(whole);
  const auto fraction_value = small_number(fraction);
  if (whole_value && fraction_value && fraction.size() <= 9) {
    std::uint64_t scale = 1;
    for (std::size_t k = 0; k < fraction.size(); ++k) scale *= 10;
    const std::uint64_t unit_ms = kUnitMillis[static_cast<std::size_t>(rank)];
    if (*whole_value <= (std::uint64_t{1} << 40) / unit_ms + 1 && (*fraction_value * unit_ms) % scale == 0) {
      const std::uint64_t millis = *whole_value * unit_ms + *fraction_value * unit_ms / scale;
      if (millis > 0) advice.replacement = format_duration(millis);
    }
  }
  return advice;
}

// `36GB`, `2KiB`, `8gi`: a quantity with a suffix Kubernetes does not know.
std::optional<NumberAdvice> suffix_advice(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(byte_at(text, i))) ++i;
  if (i < text.size() && text[i] == '.') {
    const std::size_t frac = ++i;
    while (i < text.size() && std::isdigit(byte_at(text, i))) ++i;
    if (i == frac) return std::nullopt;
  }
  const std::string_view number = text.substr(0, i);
  const std::string_view suffix = text.substr(i);
  if (suffix.empty()) return std::nullopt;
  for (const char c : suffix) {
    if (!std::isalpha(static_cast<unsigned char>(c))) return std::nullopt;
  }
  static constexpr std::string_view kLetters = "kMGTPE";
  static constexpr std::string_view kSuffixHeads = "kKMGTPEnum";
  if (kSuffixHeads.find(suffix[0]) == std::string_view::npos &&
      kLetters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0])))) == std::string_view::npos) {
    return std::nullopt;  // 3rd, 5x: not a quantity suffix at all
  }
  NumberAdvice advice;
  advice.message = "invalid number '" + std::string(text) + "'";
  advice.note = std::string(kQuantityNote);
  const std::string n(number);
  const auto upper = [](char c) { return c == 'k' || c == 'K' ? 'k' : static_cast<char>(std::toupper(static_cast<unsigned char>(c))); };
  const char head = upper(suffix[0]);
  const bool known_head = kLetters.find(head) != std::string_view::npos;
  const std::string_view rest = suffix.substr(1);
  if (known_head && (rest == "iB" || rest == "ib" || rest == "i" || rest == "I")) {
    // 2KiB, 8gi: a binary suffix with a byte unit or the wrong case.
    const char binary_head = head == 'k' ? 'K' : head;
    advice.replacement = n + binary_head + "i";
  } else if (known_head && (rest == "B" || rest == "b")) {
    // 36GB: bytes in powers of ten or two? Both are plausible.
    const std::string decimal = n + head;
    const std::string binary = n + (head == 'k' ? 'K' : head) + "i";
    advice.help = "write '" + decimal + "' for a power of 10 or '" + binary + "' for a power of 2";
  } else if (known_head && rest.empty()) {
    advice.replacement = n + head;  // 8g -> 8G, 4K -> 4k
  }
  return advice;
}

}  // namespace

std::optional<BadByte> find_bad_byte(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char b = byte_at(text, i);
    if (b == 0) return BadByte{static_cast<std::uint32_t>(i), true};
    if (b < 0x80) {
      ++i;
      continue;
    }
    const std::uint32_t length = valid_sequence_length(text, i);
    if (length == 0) return BadByte{static_cast<std::uint32_t>(i), false};
    i += length;
  }
  return std::nullopt;
}

std::uint32_t utf8_length(std::string_view text, std::uint32_t offset) {
  if (offset >= text.size()) return 0;
  const std::uint32_t length = valid_sequence_length(text, offset);
  return length == 0 ? 1 : length;
}

NumberAdvice explain_bad_number(std::string_view text) {
  if (text.back() == 'e' || text.back() == 'E' || text.back() == '+' || text.back() == '-') {
    // 2e, 1.5E: an exponent without digits (a lone 'E' suffix is exa, but 'e' is far likelier an exponent).
    const std::size_t e = text.find_first_of("eE");
    if (e == text.size() - 1 && text.back() == 'e') {
      NumberAdvice advice;
      advice.message = "invalid number '" + std::string(text) + "'";
      advice.note = "an exponent needs digits: 2e3";
      return advice;
    }
  }
  if (auto advice = minutes_advice(text)) return *advice;
  if (auto advice = fraction_advice(text)) return *advice;
  if (auto advice = suffix_advice(text)) return *advice;

  NumberAdvice advice;
  advice.message = "invalid number '" + std::string(text) + "'";
  if (text.find('_') != std::string_view::npos) {
    advice.note = "numbers have no digit separators";
    std::string fixed;
    for (const char c : text) {
      if (c != '_') fixed += c;
    }
    advice.replacement = fixed;
  } else if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X' || text[1] == 'b' || text[1] == 'o')) {
    advice.note = "numbers are decimal";
  } else if (std::count(text.begin(), text.end(), '.') > 1) {
    advice.note = "a number has at most one '.'; a version or an address is a string: \"" + std::string(text) + "\"";
  } else if (text.back() == '.') {
    advice.note = "a decimal point needs digits after it";
  } else if (text.find_first_of("eE") != std::string_view::npos &&
             (text.back() == 'e' || text.back() == 'E')) {
    advice.note = "an exponent needs digits: 2e3";
  } else {
    advice.note = std::string(kNumberForms) + "; names cannot start with a digit";
  }
  return advice;
}

std::optional<DurationProblem> check_duration(std::string_view text) {
  std::vector<Pair> pairs;
  if (!split_pairs(text, pairs)) return std::nullopt;  // the lexer only produces well-formed pairs
  int last_rank = -1;
  std::uint64_t millis = 0;
  bool fits = true;
  std::optional<std::string> problem;
  std::array<bool, kDurationUnits.size()> seen{};
  for (const auto& pair : pairs) {
    const int rank = duration_unit_rank(pair.unit);
    if (rank < 0) return std::nullopt;
    const auto r = static_cast<std::size_t>(rank);
    if (!problem) {
      if (seen[r]) {
        problem = "invalid duration '" + std::string(text) + "': '" + std::string(pair.unit) + "' appears twice";
      } else if (rank < last_rank) {
        problem = "invalid duration '" + std::string(text) + "': units must go from largest to smallest";
      }
    }
    seen[r] = true;
    last_rank = std::max(last_rank, rank);
    const auto value = small_number(pair.digits);
    if (!value || *value > (std::uint64_t{1} << 40)) {
      fits = false;
    } else {
      millis += *value * kUnitMillis[r];
    }
  }
  if (!problem) return std::nullopt;
  DurationProblem result;
  result.message = *problem;
  if (fits && millis > 0) result.replacement = format_duration(millis);
  return result;
}

namespace {

// The character an escape `\c` of a plain string stands for; 0 for the others.
char plain_escape(char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case 'n': return '\n';
    case 't': return '\t';
    case '$': return '$';
    default: return 0;
  }
}

}  // namespace

bool is_plain_string(std::string_view inner) {
  for (std::size_t i = 0; i + 1 < inner.size(); ++i) {
    if (inner[i] == '$' && inner[i + 1] == '{') return false;
    if (inner[i] != '\\') continue;
    if (plain_escape(inner[i + 1]) == 0) return false;
    ++i;  // the escaped character is not itself a `$` or a backslash
  }
  return true;
}

std::string decode_plain_string(std::string_view inner) {
  std::string text;
  text.reserve(inner.size());
  for (std::size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] == '\\' && i + 1 < inner.size()) {
      text += plain_escape(inner[++i]);
    } else {
      text += inner[i];
    }
  }
  return text;
}

std::string format_duration(std::uint64_t millis) {
  std::string text;
  for (std::size_t i = 0; i < kDurationUnits.size(); ++i) {
    const std::uint64_t count = millis / kUnitMillis[i];
    if (count == 0) continue;
    fmt::format_to(std::back_inserter(text), "{}{}", count, kDurationUnits[i]);
    millis -= count * kUnitMillis[i];
  }
  return text.empty() ? "0s" : text;
}

}  // namespace mkq::syntax::detail
