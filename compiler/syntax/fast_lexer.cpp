// The hand-written lexer of the fast path: the tokens of lang/grammar/Mkq.g4's
// lexer rules for text without lexical errors, much faster than the generated
// lexer. It gives up (returns false) on everything else.
//
// ANTLR's lexer takes the longest match of all rules, the earlier rule on a tie.
// For the inputs accepted here that is:
//   - a word [a-zA-Z_][a-zA-Z0-9_]*: a keyword when it is exactly one, else IDENT;
//   - a digit: the longest of DURATION, NUMBER and BAD_NUMBER (given up on);
//   - '"': STRING, which is then one character longer than any UNTERMINATED_STRING
//     reading of the same text (both read escapes alike as long as no backslash
//     stands inside `${...}`, which is given up on);
//   - '//' and '/*' comments (a '/*' without '*/' is given up on);
//   - operators, longest first ('==' before '=');
//   - anything else (a STRAY, '&', '|', non-ASCII outside strings) is given up on.
// antlr_tokens() adds ANTLR's positions: start/stop count code points of the
// piece; line and column advance per code point, a new line at each '\n'.
#include <algorithm>
#include <array>
#include <string_view>

#include "MkqLexer.h"
#include "compiler/syntax/fast_path.h"
#include "compiler/syntax/literals.h"
#include "compiler/syntax/parse.h"
#include "compiler/syntax/parser_internal.h"

namespace mkq::syntax::detail {

// What LexToken packs: every type in its byte, every length in its 24 bits.
static_assert(grammar::MkqLexer::STRAY < 0xff, "a token type must fit LexToken's byte");
static_assert(diag::kMaxSourceBytes < (std::uint64_t{1} << 24), "a token's length must fit LexToken's 24 bits");

bool LexToken::hidden() const {
  const std::uint32_t t = type();
  return t == grammar::MkqLexer::LINE_COMMENT || t == grammar::MkqLexer::BLOCK_COMMENT;
}

namespace {

using grammar::MkqLexer;

struct Keyword {
  std::string_view text;
  std::size_t type;
};

// Every literal lexer rule that looks like a word (Mkq.g4, in rule order).
constexpr std::array<Keyword, 27> kKeywords = {{
    {"import", MkqLexer::IMPORT},
    {"as", MkqLexer::AS},
    {"let", MkqLexer::LET},
    {"template", MkqLexer::TEMPLATE},
    {"use", MkqLexer::USE},
    {"for", MkqLexer::FOR},
    {"in", MkqLexer::IN},
    {"if", MkqLexer::IF},
    {"else", MkqLexer::ELSE},
    {"assert", MkqLexer::ASSERT},
    {"true", MkqLexer::TRUE},
    {"false", MkqLexer::FALSE},
    {"null", MkqLexer::NULL_LIT},
    {"all", MkqLexer::ALL},
    {"manager", MkqLexer::MANAGER},
    {"worker", MkqLexer::WORKER},
    {"flavor", MkqLexer::FLAVOR},
    {"topology", MkqLexer::TOPOLOGY},
    {"cohort", MkqLexer::COHORT},
    {"clusterqueue", MkqLexer::CLUSTERQUEUE},
    {"localqueue", MkqLexer::LOCALQUEUE},
    {"namespace", MkqLexer::NAMESPACE},
    {"priorityclass", MkqLexer::PRIORITYCLASS},
    {"dispatch", MkqLexer::DISPATCH},
    {"kueue", MkqLexer::KUEUE},
    {"access", MkqLexer::ACCESS},
    {"integration", MkqLexer::INTEGRATION},
}};
static_assert(MkqLexer::INTEGRATION - MkqLexer::IMPORT + 1 == kKeywords.size(),
              "Mkq.g4 changed its keywords: update kKeywords");

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word(char c) { return is_letter(c) || is_digit(c); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

std::size_t word_type(std::string_view word) {
  for (const Keyword& k : kKeywords) {
    if (k.text == word) return k.type;
  }
  return MkqLexer::IDENT;
}

// Length of the UTF-8 sequence that starts with `lead` (the text is valid UTF-8).
std::size_t sequence_length(char lead) {
  const auto b = static_cast<unsigned char>(lead);
  if (b < 0x80) return 1;
  if (b < 0xE0) return 2;
  if (b < 0xF0) return 3;
  return 4;
}

// The character at s[i], or '\0' past the end (the text has no NUL bytes).
char at(std::string_view s, std::size_t i) { return i < s.size() ? s[i] : '\0'; }

// Longest prefix of s[i..] that DURATION matches: ([0-9]+ ('d'|'h'|'min'|'s'|'ms'))+
std::size_t duration_length(std::string_view s, std::size_t i) {
  std::size_t k = i;
  std::size_t best = 0;
  while (true) {
    std::size_t d = k;
    while (is_digit(at(s, d))) ++d;
    if (d == k) break;
    std::size_t unit = 0;
    const char c = at(s, d);
    if (c == 'd' || c == 'h' || c == 's') {
      unit = 1;
    } else if (c == 'm' && at(s, d + 1) == 's') {
      unit = 2;
    } else if (c == 'm' && at(s, d + 1) == 'i' && at(s, d + 2) == 'n') {
      unit = 3;
    }
    if (unit == 0) break;
    k = d + unit;
    best = k - i;
  }
  return best;
}

// Length of the longest quantity suffix at s[p] (NUMBER's last part).
std::size_t suffix_length(std::string_view s, std::size_t p) {
  const char c = at(s, p);
  const bool binary_lead = c == 'K' || c == 'M' || c == 'G' || c == 'T' || c == 'P' || c == 'E';
  if (binary_lead && at(s, p + 1) == 'i') return 2;
  if (c == 'n' || c == 'u' || c == 'm' || c == 'k' || c == 'M' || c == 'G' || c == 'T' || c == 'P' ||
      c == 'E') {
    return 1;
  }
  return 0;
}

// Longest prefix of s[i..] that NUMBER matches:
// [0-9]+ ('.' [0-9]+)? ([eE] [+-]? [0-9]+)? suffix?
std::size_t number_length(std::string_view s, std::size_t i) {
  std::size_t k = i;
  while (is_digit(at(s, k))) ++k;
  if (at(s, k) == '.' && is_digit(at(s, k + 1))) {
    ++k;
    while (is_digit(at(s, k))) ++k;
  }
  std::size_t best = k + suffix_length(s, k);  // no exponent ('E' may be the suffix exa)
  if (at(s, k) == 'e' || at(s, k) == 'E') {
    std::size_t e = k + 1;
    if (at(s, e) == '+' || at(s, e) == '-') ++e;
    if (is_digit(at(s, e))) {
      while (is_digit(at(s, e))) ++e;
      best = std::max(best, e + suffix_length(s, e));
    }
  }
  return best - i;
}

// End (exclusive) of the STRING token that starts with the '"' at s[i]; 0 when
// the text is not a STRING this lexer is sure about.
std::size_t string_end(std::string_view s, std::size_t i) {
  std::size_t j = i + 1;
  while (j < s.size()) {
    const char c = s[j];
    if (c == '"') return j + 1;
    if (c == '\r' || c == '\n') return 0;  // unterminated
    if (c == '\\') {
      const char next = at(s, j + 1);
      if (next == '\0' || next == '\r' || next == '\n') return 0;
      j += 1 + sequence_length(next);
      continue;
    }
    if (c == '$') {
      const char next = at(s, j + 1);
      if (next == '{') {
        std::size_t k = j + 2;
        while (k < s.size() && s[k] != '}' && s[k] != '"' && s[k] != '\r' && s[k] != '\n' && s[k] != '\\')
          ++k;
        if (at(s, k) != '}') return 0;
        j = k + 1;
        continue;
      }
      if (next == '"') return j + 2;  // '$'? '"'
      if (next == '\0' || next == '\\' || next == '\r' || next == '\n') return 0;
      j += 1 + sequence_length(next);  // '$' ~[{"\\\r\n]
      continue;
    }
    ++j;  // any other byte, including the rest of a multi-byte character
  }
  return 0;
}

}  // namespace

FastLex fast_lex(const TextPiece& piece, std::vector<LexToken>& tokens) {
  const std::string_view s = piece.text();
  const std::uint32_t base = piece.begin();
  tokens.clear();
  // Real text has about five bytes per token (bench/generate's policies 5.3,
  // the examples more); a denser piece grows the vector. Sized for four, so
  // that a large policy's tokens take one allocation, not three times what
  // they need (two bytes per token sized the 2.5 MB policy's for the whole
  // token limit: 16 MB). Never more than the limit allows.
  tokens.reserve(std::min<std::size_t>(s.size() / 4, kMaxTokens) + 2);
  // An invalid duration is a token like any other to the generated lexer (the
  // token scan reports it): the lexer goes on, so that the token limit is
  // still found here, and gives up at the end.
  bool bad_duration = false;

  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (is_space(c)) {
      ++i;
      continue;
    }
    std::uint32_t type = 0;
    std::size_t end = i + 1;
    const char next = at(s, i + 1);
    if (is_letter(c)) {
      while (end < s.size() && is_word(s[end])) ++end;
      type = word_type(s.substr(i, end - i));
    } else if (is_digit(c)) {
      std::size_t word = i + 1;
      while (word < s.size() && (is_word(s[word]) || s[word] == '.')) ++word;
      const std::size_t bad = word - i;
      const std::size_t duration = duration_length(s, i);
      const std::size_t number = number_length(s, i);
      if (duration >= number && duration >= bad) {
        type = MkqLexer::DURATION;
        end = i + duration;
        if (check_duration(s.substr(i, duration))) bad_duration = true;
      } else if (number >= bad) {
        type = MkqLexer::NUMBER;
        end = i + number;
      } else {
        return FastLex::GaveUp;  // BAD_NUMBER
      }
    } else if (c == '"') {
      end = string_end(s, i);
      if (end == 0) return FastLex::GaveUp;
      type = MkqLexer::STRING;
    } else if (c == '/' && next == '/') {
      while (end < s.size() && s[end] != '\r' && s[end] != '\n') ++end;
      type = MkqLexer::LINE_COMMENT;
    } else if (c == '/' && next == '*') {
      const std::size_t close = s.find("*/", i + 2);
      if (close == std::string_view::npos) return FastLex::GaveUp;  // UNTERMINATED_COMMENT
      end = close + 2;
      type = MkqLexer::BLOCK_COMMENT;
    } else {
      switch (c) {
        case '{':
          type = MkqLexer::LBRACE;
          break;
        case '}':
          type = MkqLexer::RBRACE;
          break;
        case '[':
          type = MkqLexer::LBRACK;
          break;
        case ']':
          type = MkqLexer::RBRACK;
          break;
        case '(':
          type = MkqLexer::LPAREN;
          break;
        case ')':
          type = MkqLexer::RPAREN;
          break;
        case ',':
          type = MkqLexer::COMMA;
          break;
        case ';':
          type = MkqLexer::SEP;
          break;
        case '.':
          type = MkqLexer::DOT;
          break;
        case ':':
          type = MkqLexer::COLON;
          break;
        case '?':
          type = MkqLexer::QUESTION;
          break;
        case '+':
          type = MkqLexer::PLUS;
          break;
        case '-':
          type = MkqLexer::MINUS;
          break;
        case '*':
          type = MkqLexer::STAR;
          break;
        case '/':
          type = MkqLexer::SLASH;
          break;
        case '%':
          type = MkqLexer::PERCENT;
          break;
        case '=':
          type = next == '=' ? MkqLexer::EQ : MkqLexer::ASSIGN;
          break;
        case '!':
          type = next == '=' ? MkqLexer::NE : MkqLexer::NOT;
          break;
        case '<':
          type = next == '=' ? MkqLexer::LE : MkqLexer::LT;
          break;
        case '>':
          type = next == '=' ? MkqLexer::GE : MkqLexer::GT;
          break;
        case '&':
          if (next != '&') return FastLex::GaveUp;  // STRAY
          type = MkqLexer::AND;
          break;
        case '|':
          if (next != '|') return FastLex::GaveUp;  // STRAY
          type = MkqLexer::OR;
          break;
        default:
          return FastLex::GaveUp;  // STRAY
      }
      if (type == MkqLexer::EQ || type == MkqLexer::NE || type == MkqLexer::LE || type == MkqLexer::GE ||
          type == MkqLexer::AND || type == MkqLexer::OR) {
        end = i + 2;
      }
    }
    tokens.emplace_back(base + static_cast<std::uint32_t>(i), base + static_cast<std::uint32_t>(end), type);
    if (tokens.size() > static_cast<std::size_t>(kMaxTokens)) return FastLex::TooManyTokens;
    i = end;
  }
  const auto eof = base + static_cast<std::uint32_t>(s.size());
  tokens.emplace_back(eof, eof, kEof);
  return bad_duration ? FastLex::GaveUp : FastLex::Lexed;
}

std::vector<std::unique_ptr<antlr4::Token>> antlr_tokens(
    const TextPiece& piece, const std::vector<LexToken>& tokens,
    std::pair<antlr4::TokenSource*, antlr4::CharStream*> source) {
  const std::string_view s = piece.text();
  std::vector<std::unique_ptr<antlr4::Token>> result;
  result.reserve(tokens.size());
  // ANTLR's position: code points into the piece, line, code points into the line.
  std::size_t i = 0;
  std::size_t code_point = 0;
  std::size_t line = 1;
  std::size_t column = 0;
  const auto advance = [&](std::size_t to) {
    for (; i < to; ++i) {
      const char c = s[i];
      if ((static_cast<unsigned char>(c) & 0xC0u) == 0x80u) continue;  // inside a character
      ++code_point;
      if (c == '\n') {
        ++line;
        column = 0;
      } else {
        ++column;
      }
    }
  };
  for (const LexToken& t : tokens) {
    advance(t.begin() - piece.begin());
    const std::size_t start = code_point;
    const std::size_t token_line = line;
    const std::size_t token_column = column;
    advance(t.end() - piece.begin());
    const std::size_t type = t.type() == kEof ? antlr4::Token::EOF : t.type();
    const std::size_t channel = t.hidden() ? antlr4::Token::HIDDEN_CHANNEL : antlr4::Token::DEFAULT_CHANNEL;
    // The stop index is start - 1 for EOF (wrapping for an empty piece, like ANTLR's).
    auto token = std::make_unique<antlr4::CommonToken>(source, type, channel, start, code_point - 1);
    token->setLine(token_line);
    token->setCharPositionInLine(token_column);
    result.push_back(std::move(token));
  }
  return result;
}

}  // namespace mkq::syntax::detail
