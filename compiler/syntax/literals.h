// Checks of raw text that need no parser: the file's encoding, and the advice
// given for number and duration literals the lexer could not accept.
//
// Private to compiler/syntax (parse.cpp, transform_expr.cpp); plain strings in, plain
// strings out, so that these rules are easy to test on their own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mkq::syntax::detail {

// The first byte that keeps `text` from being a policy file: a NUL byte
// (a binary file) or the start of an invalid UTF-8 sequence (overlong forms,
// surrogates and code points above U+10FFFF are invalid too).
struct BadByte {
  std::uint32_t offset = 0;
  bool is_nul = false;
};
std::optional<BadByte> find_bad_byte(std::string_view text);

// Length in bytes of the UTF-8 sequence starting at text[offset] (1 for ASCII
// and for anything malformed, never past the end of text).
std::uint32_t utf8_length(std::string_view text, std::uint32_t offset);

// A plain string literal: the text between its quotes has no `${` and only the
// escapes \" \\ \n \t \$, so that decoding it can report nothing and parse
// nothing. decode_plain_string() is its value (the text with the escapes
// decoded), the same that decoding it as any string gives.
bool is_plain_string(std::string_view inner);
std::string decode_plain_string(std::string_view inner);

// What to tell the user about a BAD_NUMBER token (something that starts with a
// digit but is neither a quantity nor a duration).
struct NumberAdvice {
  std::string message;      // "invalid number '36GB'" or "invalid duration '1m30s'"
  std::string note;         // why, and how such a literal is written
  std::string replacement;  // a corrected literal, empty when there is no single right one
  std::string help;         // advice without a replacement ("'36G' is 10^9, '36Gi' is 2^30")
};
NumberAdvice explain_bad_number(std::string_view text);

// A DURATION token whose units are repeated or not largest first ("30s1h").
// Returns nothing for a well-formed duration.
struct DurationProblem {
  std::string message;      // "invalid duration '30s1h': units must go from largest to smallest"
  std::string replacement;  // the same length of time written correctly, when it fits
};
std::optional<DurationProblem> check_duration(std::string_view text);

// Milliseconds in the language's notation, largest unit first: 5400000 -> "1h30min".
std::string format_duration(std::uint64_t millis);

}  // namespace mkq::syntax::detail
