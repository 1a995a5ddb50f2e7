// Diagnostic codes of the syntax stage (E1xxx): everything found while reading
// the text of one file, before any name or value is looked at.
//
// Codes are stable: a code, once released, keeps its meaning. Add new ones at
// the end.
#pragma once

namespace mkq::syntax::codes {

inline constexpr const char* kUnexpectedToken = "E1001";      // a token the grammar does not allow where it stands
inline constexpr const char* kUnexpectedCharacter = "E1002";  // a character that starts no token ('@', '#', a curly quote)
inline constexpr const char* kUnterminatedString = "E1003";   // a string literal without its closing quote on the same line
inline constexpr const char* kUnterminatedComment = "E1004";  // a `/*` comment without `*/`
inline constexpr const char* kInvalidNumber = "E1005";        // something that starts with a digit but is no quantity or duration (36GB, 1m30s)
inline constexpr const char* kInvalidEscape = "E1006";        // a backslash escape other than \" \\ \n \t \$
inline constexpr const char* kInvalidDuration = "E1007";      // a duration whose units repeat or are not largest first (30s1h)
inline constexpr const char* kInvalidUtf8 = "E1008";          // the file is not valid UTF-8
inline constexpr const char* kBinaryFile = "E1009";           // the file contains a NUL byte
inline constexpr const char* kNestingTooDeep = "E1010";       // brackets, unary operators, `?:` or `else if` nest deeper than kMaxNestingDepth
inline constexpr const char* kUnclosedBracket = "E1011";      // a `{`, `(` or `[` whose closing counterpart never comes
inline constexpr const char* kExpectedExpression = "E1012";   // an expression is required but something else follows
inline constexpr const char* kMissingToken = "E1013";         // a required token is missing ('=' after a field, '{' before a body, a name after `let`)
inline constexpr const char* kBadInterpolation = "E1014";     // a `${` without `}`, or an interpolation containing '"'
inline constexpr const char* kInterpolatedKey = "E1015";      // a quoted attribute name or map key that contains `${...}`
inline constexpr const char* kTooManyTokens = "E1016";       // a file with more than kMaxTokens tokens
inline constexpr const char* kTooManyErrors = "E1017";       // more than kMaxSyntaxErrors errors in one file: parsing stops
inline constexpr const char* kFileTooLarge = "E1018";        // a file of more than diag::kMaxSourceBytes bytes, refused before it is read
inline constexpr const char* kTokenTooLong = "E1019";        // an identifier, string or number longer than kMaxTokenBytes
inline constexpr const char* kInternalError = "E1099";        // a bug in the parser; the message says what happened

}  // namespace mkq::syntax::codes
