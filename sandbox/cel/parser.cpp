// A recursive-descent parser for CEL (parser.h), one function per grammar rule.
#include "sandbox/cel/parser.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

namespace mkq::sandbox::cel {
namespace {

struct Token {
  enum class Kind { End, Int, Uint, Double, String, Ident, Punct };
  Kind kind = Kind::End;
  int offset = 0;
  std::string text;  // identifier, punctuation, decoded string
  Value value;       // numbers and strings
};

// Thrown inside the parser only and turned into an Error by parse().
struct SyntaxError {
  int offset;
  std::string message;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0; }

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Lexer {
 public:
  explicit Lexer(const std::string& text) : text_(text) {}

  Token next() {
    skip_space();
    Token t;
    t.offset = static_cast<int>(pos_);
    if (pos_ >= text_.size()) return t;
    const char c = text_[pos_];
    if ((c == 'r' || c == 'R' || c == 'b' || c == 'B') && pos_ + 1 < text_.size() &&
        (text_[pos_ + 1] == '\'' || text_[pos_ + 1] == '"')) {
      ++pos_;
      return string_token(t, c == 'r' || c == 'R');
    }
    if (ident_start(c)) {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
      t.kind = Token::Kind::Ident;
      t.text = text_.substr(start, pos_ - start);
      return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
        (c == '.' && pos_ + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) != 0)) {
      return number_token(t);
    }
    if (c == '\'' || c == '"') return string_token(t, false);
    static const char* const kTwo[] = {"==", "!=", "<=", ">=", "&&", "||"};
    for (const char* op : kTwo) {
      if (text_.compare(pos_, 2, op) == 0) {
        pos_ += 2;
        t.kind = Token::Kind::Punct;
        t.text = op;
        return t;
      }
    }
    if (std::string("()[]{}.,?:!-+*/%<>").find(c) != std::string::npos) {
      ++pos_;
      t.kind = Token::Kind::Punct;
      t.text = std::string(1, c);
      return t;
    }
    throw SyntaxError{t.offset, "Syntax error: token recognition error at: '" + std::string(1, c) + "'"};
  }

 private:
  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  Token number_token(Token t) {
    const std::size_t start = pos_;
    bool is_double = false;
    if (text_.compare(pos_, 2, "0x") == 0 || text_.compare(pos_, 2, "0X") == 0) {
      pos_ += 2;
      while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_])) != 0) ++pos_;
    } else {
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0) ++pos_;
      if (pos_ + 1 < text_.size() && text_[pos_] == '.' && std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) != 0) {
        is_double = true;
        ++pos_;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0) ++pos_;
      }
      if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
        std::size_t p = pos_ + 1;
        if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
        if (p < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p])) != 0) {
          is_double = true;
          pos_ = p;
          while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0) ++pos_;
        }
      }
    }
    const std::string digits = text_.substr(start, pos_ - start);
    errno = 0;
    if (is_double) {
      t.kind = Token::Kind::Double;
      t.value = Value::number(std::strtod(digits.c_str(), nullptr));
    } else if (pos_ < text_.size() && (text_[pos_] == 'u' || text_[pos_] == 'U')) {
      ++pos_;
      const unsigned long long u = std::strtoull(digits.c_str(), nullptr, 0);
      if (errno == ERANGE) throw SyntaxError{t.offset, "invalid uint literal"};
      t.kind = Token::Kind::Uint;
      t.value = Value::unsigned_integer(u);
    } else {
      // The magnitude, unsigned: unary() folds a minus so that -9223372036854775808 parses.
      const unsigned long long u = std::strtoull(digits.c_str(), nullptr, 0);
      if (errno == ERANGE || u > 9223372036854775808ULL) throw SyntaxError{t.offset, "invalid int literal"};
      t.kind = Token::Kind::Int;
      t.value = Value::unsigned_integer(u);  // the sign is applied by the parser
    }
    return t;
  }

  Token string_token(Token t, bool raw) {
    const char quote = text_[pos_];
    const bool triple = text_.compare(pos_, 3, std::string(3, quote)) == 0;
    pos_ += triple ? 3 : 1;
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) throw SyntaxError{t.offset, "Syntax error: token recognition error at: unterminated string"};
      const char c = text_[pos_];
      if (triple ? text_.compare(pos_, 3, std::string(3, quote)) == 0 : c == quote) {
        pos_ += triple ? 3 : 1;
        break;
      }
      if (!triple && (c == '\n' || c == '\r')) throw SyntaxError{t.offset, "Syntax error: token recognition error at: newline in string"};
      if (c == '\\' && !raw) {
        escape(out, t.offset);
        continue;
      }
      out += c;
      ++pos_;
    }
    t.kind = Token::Kind::String;
    t.value = Value::string(out);
    return t;
  }

  void escape(std::string& out, int offset) {
    ++pos_;
    if (pos_ >= text_.size()) throw SyntaxError{offset, "Syntax error: invalid escape sequence"};
    const char e = text_[pos_++];
    switch (e) {
      case 'a': out += '\a'; return;
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'n': out += '\n'; return;
      case 'r': out += '\r'; return;
      case 't': out += '\t'; return;
      case 'v': out += '\v'; return;
      case '\\': case '\'': case '"': case '`': case '?': out += e; return;
      default: break;
    }
    int digits = 0;
    int base = 16;
    if (e == 'x' || e == 'X') digits = 2;
    else if (e == 'u') digits = 4;
    else if (e == 'U') digits = 8;
    else if (e >= '0' && e <= '3') { digits = 2; base = 8; --pos_; ++digits; }
    else throw SyntaxError{offset, std::string("Syntax error: invalid escape sequence \\") + e};
    if (pos_ + digits > text_.size()) throw SyntaxError{offset, "Syntax error: invalid escape sequence"};
    const std::string code = text_.substr(pos_, digits);
    char* end = nullptr;
    const unsigned long cp = std::strtoul(code.c_str(), &end, base);
    if (end != code.c_str() + code.size()) throw SyntaxError{offset, "Syntax error: invalid escape sequence"};
    pos_ += digits;
    append_utf8(out, cp);
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

ExprPtr node(Expr::Kind kind, int offset) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->offset = offset;
  return e;
}

ExprPtr call(const std::string& name, int offset, std::vector<ExprPtr> args, bool member = false) {
  auto e = node(Expr::Kind::Call, offset);
  e->name = name;
  e->member = member;
  e->args = std::move(args);
  return e;
}

class Parser {
 public:
  explicit Parser(const std::string& text) : lexer_(text) { advance(); }

  ExprPtr parse_all() {
    ExprPtr e = expr();
    if (tok_.kind != Token::Kind::End) unexpected();
    return e;
  }

 private:
  void advance() { tok_ = lexer_.next(); }
  bool is(const char* punct) const { return tok_.kind == Token::Kind::Punct && tok_.text == punct; }
  bool accept(const char* punct) {
    if (!is(punct)) return false;
    advance();
    return true;
  }
  void expect(const char* punct) {
    if (!accept(punct)) {
      throw SyntaxError{tok_.offset, "Syntax error: missing '" + std::string(punct) + "' at " + describe(tok_)};
    }
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Token::Kind::End: return "'<EOF>'";
      case Token::Kind::String: return "a string";
      default: return "'" + (t.kind == Token::Kind::Ident || t.kind == Token::Kind::Punct ? t.text : std::string("number")) + "'";
    }
  }
  [[noreturn]] void unexpected() const {
    throw SyntaxError{tok_.offset, "Syntax error: mismatched input " + describe(tok_)};
  }

  // expr = conditionalOr ["?" conditionalOr ":" expr]
  ExprPtr expr() {
    if (++depth_ > 250) throw SyntaxError{tok_.offset, "Syntax error: expression nested too deeply"};
    ExprPtr e = binary_level(0);
    if (is("?")) {
      const int at = tok_.offset;
      advance();
      std::vector<ExprPtr> args;
      args.push_back(std::move(e));
      args.push_back(binary_level(0));
      expect(":");
      args.push_back(expr());
      e = call("_?_:_", at, std::move(args));
    }
    --depth_;
    return e;
  }

  // The binary operators by precedence, loosest first; each level is left-associative.
  ExprPtr binary_level(int level) {
    static const std::vector<std::vector<std::pair<const char*, const char*>>> kLevels = {
        {{"||", "_||_"}},
        {{"&&", "_&&_"}},
        {{"==", "_==_"}, {"!=", "_!=_"}, {"<", "_<_"}, {"<=", "_<=_"}, {">", "_>_"}, {">=", "_>=_"}, {"in", "@in"}},
        {{"+", "_+_"}, {"-", "_-_"}},
        {{"*", "_*_"}, {"/", "_/_"}, {"%", "_%_"}},
    };
    if (level == static_cast<int>(kLevels.size())) return unary();
    ExprPtr left = binary_level(level + 1);
    while (true) {
      const char* name = nullptr;
      for (const auto& [symbol, function] : kLevels[level]) {
        const bool keyword = std::string(symbol) == "in";
        if ((keyword && tok_.kind == Token::Kind::Ident && tok_.text == "in") || (!keyword && is(symbol))) {
          name = function;
          break;
        }
      }
      if (name == nullptr) return left;
      const int at = tok_.offset;
      advance();
      std::vector<ExprPtr> args;
      args.push_back(std::move(left));
      args.push_back(binary_level(level + 1));
      left = call(name, at, std::move(args));
    }
  }

  // unary = member | "!" {"!"} member | "-" {"-"} member
  ExprPtr unary() {
    if (is("!") || is("-")) {
      const std::string op = tok_.text;
      const int at = tok_.offset;
      advance();
      if (op == "-" && (tok_.kind == Token::Kind::Int || tok_.kind == Token::Kind::Double)) {
        // A negative literal, folded so that the smallest int parses.
        auto lit = node(Expr::Kind::Literal, at);
        if (tok_.kind == Token::Kind::Double) {
          lit->value = Value::number(-tok_.value.as_double());
        } else {
          const unsigned long long u = tok_.value.as_uint();
          lit->value = u == 9223372036854775808ULL ? Value::integer(std::numeric_limits<std::int64_t>::min())
                                                   : Value::integer(-static_cast<std::int64_t>(u));
        }
        advance();
        return lit;
      }
      std::vector<ExprPtr> args;
      args.push_back(unary());
      return call(op == "!" ? "!_" : "-_", at, std::move(args));
    }
    return member();
  }

  // member = primary {"." IDENT ["(" args ")"] | "[" expr "]"}
  ExprPtr member() {
    ExprPtr e = primary();
    while (true) {
      if (is(".")) {
        const int at = tok_.offset;
        advance();
        if (tok_.kind != Token::Kind::Ident) unexpected();
        const std::string name = tok_.text;
        advance();
        if (is("(")) {
          e = member_call(std::move(e), name, at);
        } else {
          auto s = node(Expr::Kind::Select, at);
          s->name = name;
          s->args.push_back(std::move(e));
          e = std::move(s);
        }
      } else if (is("[")) {
        const int at = tok_.offset;
        advance();
        std::vector<ExprPtr> args;
        args.push_back(std::move(e));
        args.push_back(expr());
        expect("]");
        e = call("_[_]", at, std::move(args));
      } else {
        return e;
      }
    }
  }

  std::vector<ExprPtr> arguments(const char* close) {
    std::vector<ExprPtr> args;
    if (accept(close)) return args;
    do {
      if (is(close)) break;  // a trailing comma
      args.push_back(expr());
    } while (accept(","));
    expect(close);
    return args;
  }

  ExprPtr member_call(ExprPtr target, const std::string& name, int at) {
    advance();  // (
    std::vector<ExprPtr> args = arguments(")");
    // Namespaced functions: format.dns1123Label(), optional.none().
    if (target->kind == Expr::Kind::Ident && (target->name == "format" || target->name == "optional")) {
      return call(target->name + "." + name, at, std::move(args));
    }
    static const char* const kMacros[] = {"all", "exists", "exists_one", "filter", "map"};
    for (const char* macro : kMacros) {
      if (name != macro) continue;
      const bool arity = args.size() == 2 || (name == "map" && args.size() == 3);
      if (!arity) break;
      if (args[0]->kind != Expr::Kind::Ident) throw SyntaxError{args[0]->offset, "argument must be a simple name"};
      auto m = node(Expr::Kind::Macro, at);
      m->name = name;
      m->var = args[0]->name;
      m->args.push_back(std::move(target));
      for (std::size_t i = 1; i < args.size(); ++i) m->args.push_back(std::move(args[i]));
      return m;
    }
    args.insert(args.begin(), std::move(target));
    return call(name, at, std::move(args), true);
  }

  // primary = ["."] IDENT ["(" args ")"] | "(" expr ")" | "[" list "]" | "{" map "}" | literal
  ExprPtr primary() {
    const Token t = tok_;
    switch (t.kind) {
      case Token::Kind::Int: {
        advance();
        auto e = node(Expr::Kind::Literal, t.offset);
        if (t.value.as_uint() > 9223372036854775807ULL) throw SyntaxError{t.offset, "invalid int literal"};
        e->value = Value::integer(static_cast<std::int64_t>(t.value.as_uint()));
        return e;
      }
      case Token::Kind::Uint:
      case Token::Kind::Double:
      case Token::Kind::String: {
        advance();
        auto e = node(Expr::Kind::Literal, t.offset);
        e->value = t.value;
        return e;
      }
      case Token::Kind::Ident:
        return identifier(t);
      case Token::Kind::Punct:
        break;
      case Token::Kind::End:
        unexpected();
    }
    if (accept("(")) {
      ExprPtr e = expr();
      expect(")");
      return e;
    }
    if (is("[")) {
      advance();
      auto e = node(Expr::Kind::List, t.offset);
      e->args = arguments("]");
      return e;
    }
    if (is("{")) {
      advance();
      auto e = node(Expr::Kind::Map, t.offset);
      if (!accept("}")) {
        do {
          if (is("}")) break;
          e->args.push_back(expr());
          expect(":");
          e->args.push_back(expr());
        } while (accept(","));
        expect("}");
      }
      return e;
    }
    unexpected();
  }

  ExprPtr identifier(const Token& t) {
    advance();
    if (t.text == "true" || t.text == "false") {
      auto e = node(Expr::Kind::Literal, t.offset);
      e->value = Value::boolean(t.text == "true");
      return e;
    }
    if (t.text == "null") return node(Expr::Kind::Literal, t.offset);
    if (is("(")) {
      advance();
      std::vector<ExprPtr> args = arguments(")");
      if (t.text == "has") {
        if (args.size() != 1 || args[0]->kind != Expr::Kind::Select) {
          throw SyntaxError{t.offset, "invalid argument to has() macro"};
        }
        auto h = node(Expr::Kind::Has, t.offset);
        h->name = args[0]->name;
        h->args.push_back(std::move(args[0]->args[0]));
        return h;
      }
      return call(t.text, t.offset, std::move(args));
    }
    auto e = node(Expr::Kind::Ident, t.offset);
    e->name = t.text;
    return e;
  }

  Lexer lexer_;
  Token tok_;
  int depth_ = 0;
};

}  // namespace

std::string located_error(const std::string& text, int offset, const std::string& message) {
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(offset) && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  const std::size_t line_end = text.find('\n', line_start);
  const std::string line_text = text.substr(line_start, line_end == std::string::npos ? std::string::npos : line_end - line_start);
  const int column = offset - static_cast<int>(line_start);
  // The caret under the column, after `column` dots (cel-go's pointer line).
  return fmt::format("ERROR: <input>:{}:{}: {}\n | {}\n | {:.>{}}", line, column + 1, message, line_text, '^',
                     column + 1);
}

base::Result<ExprPtr> parse(const std::string& text) {
  try {
    Parser parser(text);
    return parser.parse_all();
  } catch (const SyntaxError& e) {
    return base::Error(0, "SyntaxError", located_error(text, e.offset, e.message));
  }
}

}  // namespace mkq::sandbox::cel
