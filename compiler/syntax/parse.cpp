// parse_file(): text -> tokens -> checks -> parse tree -> owned AST.
//
// The steps, for the whole file and again for the inside of every `${...}`:
//   1. the file must be UTF-8 without NUL bytes (else one error, no AST);
//   2. lex everything; a string whose interpolation swallowed a '"' is repaired
//      into one token so that one mistake gives one error;
//   3. scan the tokens: comments, lexical errors (stray characters, bad numbers,
//      unterminated strings and comments) and the nesting limit, which must be
//      checked before ANTLR runs because ANTLR recurses once per level;
//   4. decode every string (escapes, interpolations parsed as expressions);
//   5. parse: SLL prediction with BailErrorStrategy first (fast, enough for
//      valid input), then, only if that fails, full LL with error recovery and
//      human error messages;
//   6. transform the parse tree into the AST; the ANTLR tree is dropped.
//
// Fast path (fast_path.h): steps 2-3 are first tried with the hand-written
// lexer, and steps 5-6 with the hand-written parser, which builds the AST
// directly. Each gives up on anything unusual (every lexical or syntax error
// among it) before it has reported anything; the generated lexer, or ANTLR's
// parser on the same tokens, then does the step as described above. A valid
// file never reaches ANTLR, nor a file over the token limit (E1016) or with a
// token over 1 MiB (E1019): the fast path reports these as step 2-3 would.
#include <algorithm>
#include <exception>
#include <string_view>

#include <fmt/format.h>

#include "MkqLexer.h"
#include "compiler/syntax/codes.h"
#include "compiler/syntax/literals.h"
#include "compiler/syntax/parse.h"
#include "compiler/syntax/parse_route.h"
#include "compiler/syntax/parser_internal.h"

namespace mkq::syntax {

namespace detail {

bool is_real(const antlr4::Token* token) {
  return token != nullptr && token->getStartIndex() != INVALID_INDEX &&
         token->getTokenIndex() != INVALID_INDEX;
}

bool is_real(antlr4::tree::TerminalNode* node) { return node != nullptr && is_real(node->getSymbol()); }

// ------------------------------------------------------------------ TextPiece

TextPiece::TextPiece(const diag::SourceManager& sources, FileId file, std::uint32_t begin, std::uint32_t end,
                     std::optional<SourceRange> eof)
    : source_(sources.file(file)), file_(file), begin_(begin) {
  text_ = std::string_view(source_.text).substr(begin, end - begin);
  ascii_ = std::all_of(text_.begin(), text_.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (eof) {
    eof_ = *eof;
  } else {
    std::uint32_t last = static_cast<std::uint32_t>(text_.size());
    while (last > 0 && std::string_view(" \t\r\n\f").find(text_[last - 1]) != std::string_view::npos) --last;
    eof_ = range(begin_ + last, begin_ + last);
  }
}

std::string_view TextPiece::file_text() const { return source_.text; }

const std::vector<std::uint32_t>& TextPiece::code_point_bytes() const {
  if (!ascii_ && code_point_bytes_.empty()) {
    code_point_bytes_.reserve(text_.size() + 1);
    for (std::uint32_t i = 0; i < text_.size(); ++i) {
      if ((static_cast<unsigned char>(text_[i]) & 0xC0u) != 0x80u) code_point_bytes_.push_back(i);
    }
    code_point_bytes_.push_back(static_cast<std::uint32_t>(text_.size()));
  }
  return code_point_bytes_;
}

std::uint32_t TextPiece::byte_of(std::size_t code_point) const {
  if (ascii_) return begin_ + static_cast<std::uint32_t>(std::min(code_point, text_.size()));
  const std::vector<std::uint32_t>& bytes = code_point_bytes();
  return begin_ + bytes[std::min(code_point, bytes.size() - 1)];
}

std::size_t TextPiece::code_point_of(std::uint32_t byte) const {
  const std::uint32_t relative = byte < begin_ ? 0 : std::min<std::uint32_t>(byte - begin_, text_.size());
  if (ascii_) return relative;
  const std::vector<std::uint32_t>& bytes = code_point_bytes();
  const auto it = std::lower_bound(bytes.begin(), bytes.end(), relative);
  return static_cast<std::size_t>(it - bytes.begin());
}

SourceRange TextPiece::range(std::uint32_t begin_byte, std::uint32_t end_byte) const {
  return SourceRange{file_, {source_.clamp(begin_byte)}, {source_.clamp(std::max(begin_byte, end_byte))}};
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> TextPiece::token_bytes(const antlr4::Token* token) const {
  if (token == nullptr || token->getStartIndex() == INVALID_INDEX) return std::nullopt;
  const std::size_t start = token->getStartIndex();
  const std::size_t stop = token->getStopIndex();
  const std::uint32_t b = byte_of(start);
  const std::uint32_t e = (stop == INVALID_INDEX || stop + 1 < start + 1) ? b : byte_of(stop + 1);
  return std::make_pair(b, std::max(b, e));
}

SourceRange TextPiece::token_range(const antlr4::Token* token, const SourceRange& fallback) const {
  if (token != nullptr && token->getType() == antlr4::Token::EOF) return eof_;
  const auto bytes = token_bytes(token);
  if (!bytes) return fallback;
  return range(bytes->first, bytes->second);
}

SourceRange TextPiece::context_range(const antlr4::ParserRuleContext* context) const {
  if (context == nullptr) return eof_;
  const antlr4::Token* start = context->start;
  const antlr4::Token* stop = context->stop;
  if (start == nullptr) return eof_;
  if (start->getType() == antlr4::Token::EOF) return eof_;
  const auto first = token_bytes(start);
  if (!first) return eof_;
  std::uint32_t end = first->first;
  if (stop != nullptr && stop->getType() != antlr4::Token::EOF) {
    const auto last = token_bytes(stop);
    if (last && stop->getTokenIndex() >= start->getTokenIndex()) end = last->second;
  }
  return range(first->first, end);
}

std::string_view TextPiece::token_text(const antlr4::Token* token) const {
  if (token != nullptr && token->getType() == antlr4::Token::EOF) return {};
  const auto bytes = token_bytes(token);
  if (!bytes) return {};
  return file_text().substr(bytes->first, bytes->second - bytes->first);
}

namespace {

using grammar::MkqLexer;

// The channel of tokens the parser must not see (the lexer's own STRAY and
// UNTERMINATED_COMMENT use it too).
constexpr std::size_t kHiddenFromParser = 2;

// What a token over kMaxTokenBytes is called in E1019; null for the tokens
// that are not limited (comments: nothing is decoded from them).
const char* limited_token_kind(std::size_t type) {
  switch (type) {
    case MkqLexer::IDENT: return "identifier";
    case MkqLexer::STRING:
    case MkqLexer::UNTERMINATED_STRING: return "string";
    case MkqLexer::NUMBER:
    case MkqLexer::DURATION:
    case MkqLexer::BAD_NUMBER: return "number";
    default: return nullptr;
  }
}

// The bytes of a token that count against kMaxTokenBytes: all of it but a
// string's quotes (a string literal as long as the evaluator's string limit
// is allowed); 0 for a token that is not limited.
std::uint32_t limited_length(std::size_t type, std::uint32_t begin, std::uint32_t end) {
  if (limited_token_kind(type) == nullptr) return 0;
  const std::uint32_t quotes = type == MkqLexer::STRING ? 2 : type == MkqLexer::UNTERMINATED_STRING ? 1 : 0;
  return end - begin > quotes ? end - begin - quotes : 0;
}

bool too_long(std::size_t type, std::uint32_t begin, std::uint32_t end) {
  return limited_length(type, begin, end) > kMaxTokenBytes;
}

// ------------------------------------------------------------------ input

// ANTLR's input stream of a piece's text, decoded here: ANTLR 4.9 decodes
// UTF-8 with std::wstring_convert, which sizes its output for the worst case,
// 20 bytes per input byte, and keeps that capacity (160 MB for a file of
// 8 MiB). This holds exactly one char32_t per code point. The text is valid
// UTF-8 (parse() checks it first); a leading byte-order mark is skipped, as
// ANTLR's own load() does.
class Utf32InputStream final : public antlr4::ANTLRInputStream {
 public:
  explicit Utf32InputStream(std::string_view utf8) {
    if (utf8.substr(0, 3) == "\xEF\xBB\xBF") utf8.remove_prefix(3);
    const auto byte = [&utf8](std::size_t i) { return static_cast<unsigned char>(utf8[i]); };
    _data.reserve(static_cast<std::size_t>(std::count_if(
        utf8.begin(), utf8.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0u) != 0x80u; })));
    for (std::size_t i = 0; i < utf8.size();) {
      const unsigned lead = byte(i);
      const std::size_t length = lead < 0x80u ? 1 : lead < 0xE0u ? 2 : lead < 0xF0u ? 3 : 4;
      char32_t code_point = length == 1 ? lead : lead & (0x7Fu >> length);
      for (std::size_t k = 1; k < length && i + k < utf8.size(); ++k) {
        code_point = (code_point << 6) | (byte(i + k) & 0x3Fu);
      }
      _data.push_back(code_point);
      i += length;
    }
  }
};

// ------------------------------------------------------------------ nesting

// Counts how deep ANTLR (and every later recursive pass) would have to recurse
// at each token: one level per open bracket, per consecutive unary operator,
// per `?` of a conditional chain and per `else if`. Over-counts a little (a
// binary '-' before a unary one), never under-counts.
class NestingCounter {
 public:
  explicit NestingCounter(int base) { levels_.push_back({base, 0, 0}); }

  // The depth after `type`; call for every default-channel token in order.
  int advance(std::size_t type) {
    Level& top = levels_.back();
    if (after_close_ && type != MkqLexer::ELSE) top.else_chain = 0;
    after_close_ = false;
    int depth = current();
    switch (type) {
      case MkqLexer::LBRACE:
      case MkqLexer::LBRACK:
      case MkqLexer::LPAREN:
        depth = current() + 1;
        levels_.push_back({depth, 0, 0});
        unary_run_ = 0;
        break;
      case MkqLexer::RBRACE:
      case MkqLexer::RBRACK:
      case MkqLexer::RPAREN:
        if (levels_.size() > 1) levels_.pop_back();
        unary_run_ = 0;
        after_close_ = type == MkqLexer::RBRACE;
        depth = current();
        break;
      case MkqLexer::MINUS:
      case MkqLexer::NOT:
        ++unary_run_;
        depth = current();
        break;
      case MkqLexer::QUESTION:
        ++top.ternaries;
        unary_run_ = 0;
        depth = current();
        break;
      case MkqLexer::IF:
        if (previous_ == MkqLexer::ELSE) {
          ++top.else_chain;
        } else {
          top.else_chain = 0;
          top.ternaries = 0;
        }
        unary_run_ = 0;
        depth = current();
        break;
      case MkqLexer::COMMA:
      case MkqLexer::SEP:
      case MkqLexer::ASSIGN:
      case MkqLexer::LET:
      case MkqLexer::IMPORT:
      case MkqLexer::USE:
      case MkqLexer::ASSERT:
      case MkqLexer::FOR:
      case MkqLexer::TEMPLATE:
      case MkqLexer::ELSE:
        top.ternaries = 0;  // a new expression starts: earlier `?`s do not enclose it
        unary_run_ = 0;
        depth = current();
        break;
      default:
        unary_run_ = 0;
        depth = current();
        break;
    }
    previous_ = type;
    return depth;
  }

  int current() const {
    const Level& top = levels_.back();
    return top.base + top.ternaries + top.else_chain + unary_run_;
  }

 private:
  struct Level {
    int base;        // depth of the bracket that opened this level
    int ternaries;   // `?` seen in the current expression at this level
    int else_chain;  // `else if` seen in the current if-chain at this level
  };
  std::vector<Level> levels_;
  int unary_run_ = 0;
  std::size_t previous_ = 0;
  bool after_close_ = false;
};

// ------------------------------------------------------------------ PieceParser

// Lexes, checks, parses and transforms one TextPiece.
class PieceParser {
 public:
  PieceParser(const TextPiece& piece, const diag::SourceManager& sources, diag::Diagnostics& diagnostics,
              ErrorBudget& budget, std::vector<Comment>& comments, int base_depth, ParseRoute& route)
      : piece_(piece),
        sources_(sources),
        diagnostics_(diagnostics),
        budget_(budget),
        comments_(comments),
        base_depth_(base_depth),
        route_(route),
        reporter_(piece, diagnostics, budget) {}

  // The statements of a file; nullopt when the file is over a limit (or,
  // on the route FastPathOnly, when the fast path gives up). With `deferred`,
  // the fast path leaves top-level blocks unparsed (FastParser::file()).
  std::optional<std::vector<StmtPtr>> statements(DeferredBlocks* deferred = nullptr) {
    const std::size_t reported = diagnostics_.size();
    if (!prepare()) return std::nullopt;
    // Blocks are deferred only in text that prepare() found nothing to report
    // in (a bad escape, say): parsing one alone then reports nothing either.
    if (diagnostics_.size() != reported) deferred = nullptr;
    if (fast_lexed_) {
      FastParser fast(piece_, fast_tokens_, strings_, base_depth_);
      if (auto stmts = deferred != nullptr ? fast.file(*deferred) : fast.file()) {
        fast.commit(strings_);
        return stmts;
      }
      if (route_.engine == Engine::FastPathOnly) return std::nullopt;
      route_.used_antlr = true;
      decode_plain_strings();
      materialize_tokens();
    }
    auto tokens = take_tokens();
    antlr4::ListTokenSource source(std::move(tokens));
    antlr4::CommonTokenStream stream(&source);
    MkqParser parser(&stream);
    auto* tree = dynamic_cast<MkqParser::FileContext*>(run(parser, stream, false));
    if (over_limit_) return std::nullopt;
    Transformer transformer(piece_, strings_, diagnostics_, base_depth_);
    auto stmts = transformer.file(tree);
    if (transformer.too_deep()) return std::nullopt;
    return stmts;
  }

  // The expression inside `${...}`; null when the file is over a limit.
  ExprPtr interpolation() {
    if (!prepare()) return nullptr;
    if (fast_lexed_) {
      FastParser fast(piece_, fast_tokens_, strings_, base_depth_);
      if (auto expr = fast.expression()) {
        fast.commit(strings_);
        return expr;
      }
      route_.used_antlr = true;
      decode_plain_strings();
      materialize_tokens();
    }
    auto tokens = take_tokens();
    antlr4::ListTokenSource source(std::move(tokens));
    antlr4::CommonTokenStream stream(&source);
    MkqParser parser(&stream);
    auto* tree = dynamic_cast<MkqParser::ExprContext*>(run(parser, stream, true));
    if (over_limit_) return nullptr;
    Transformer transformer(piece_, strings_, diagnostics_, base_depth_);
    auto expr = transformer.expression(tree);
    if (transformer.too_deep()) over_limit_ = true;
    return expr;
  }

  bool over_limit() const { return over_limit_; }

 private:
  struct StringToken {
    std::size_t index;
    int depth;
    std::optional<std::pair<std::uint32_t, std::uint32_t>> bytes;
  };

  // Steps 2-4; false when the file is over a limit (no parse then).
  bool prepare() {
    const FastLex lexed = route_.engine == Engine::AntlrOnly ? FastLex::GaveUp : fast_lex(piece_, fast_tokens_);
    if (lexed == FastLex::TooManyTokens) {
      const LexToken& over = fast_tokens_.back();
      report_too_many_tokens(piece_.range(over.begin(), over.end()));
      std::vector<LexToken>().swap(fast_tokens_);
      return false;
    }
    if (lexed == FastLex::Lexed && fast_scan()) {
      fast_lexed_ = true;
    } else if (over_limit_) {  // fast_scan() reported a token over kMaxTokenBytes
      std::vector<LexToken>().swap(fast_tokens_);
      return false;
    } else if (route_.engine == Engine::FastPathOnly) {
      return false;
    } else {
      route_.used_antlr = true;
      std::vector<LexToken>().swap(fast_tokens_);  // freed, not just emptied: the ANTLR tokens come next
      string_tokens_.clear();
      make_lexer();
      if (!lex() || !scan()) return false;
    }
    // The fast parser decodes plain strings itself, each into its node: the
    // table would hold all of them a second time until the parse ends.
    decode_strings(/*plain_too=*/!fast_lexed_);
    return !over_limit_;
  }

  // The generated lexer and its input, which the ANTLR tokens refer to.
  void make_lexer() {
    if (lexer_) return;
    input_ = std::make_unique<Utf32InputStream>(piece_.text());
    lexer_ = std::make_unique<MkqLexer>(input_.get());
    lexer_->removeErrorListeners();
    lexer_->addErrorListener(&reporter_);
  }

  // Step 3 for the tokens of fast_lex(), which have no lexical errors. False,
  // with nothing reported or kept, when the scan would report something: the
  // ANTLR path then starts over. Except a token over kMaxTokenBytes before any
  // nesting too deep: scan() would report it alone (E1019) and stop, and so
  // does this, without the ANTLR path's input and tokens (false, over_limit_).
  bool fast_scan() {
    if (budget_.used_up()) return false;
    NestingCounter nesting(base_depth_);
    std::vector<Comment> comments;
    const std::string_view text = piece_.file_text();
    for (std::size_t i = 0; i < fast_tokens_.size(); ++i) {
      const LexToken& token = fast_tokens_[i];
      if (too_long(token.type(), token.begin(), token.end())) {
        report_too_long(token.type(), {token.begin(), token.end()});
        return false;
      }
      switch (token.type()) {
        case MkqLexer::LINE_COMMENT:
        case MkqLexer::BLOCK_COMMENT:
          comments.push_back({std::string(text.substr(token.begin(), token.end() - token.begin())),
                              piece_.range(token.begin(), token.end()), token.type() == MkqLexer::BLOCK_COMMENT});
          continue;
        case MkqLexer::STRING:
          string_tokens_.push_back({i, nesting.current() + 1, std::make_pair(token.begin(), token.end())});
          break;
        default:
          break;
      }
      if (token.hidden() || token.type() == kEof) continue;
      if (nesting.advance(token.type()) > kMaxNestingDepth) return false;
    }
    comments_.insert(comments_.end(), std::make_move_iterator(comments.begin()),
                     std::make_move_iterator(comments.end()));
    return true;
  }

  // The ANTLR tokens of fast_lex()'s tokens, exactly as the generated lexer
  // makes them, for when the fast parser gave up.
  void materialize_tokens() {
    make_lexer();
    owned_ = antlr_tokens(piece_, fast_tokens_, {lexer_.get(), input_.get()});
    tokens_.reserve(owned_.size());
    for (const auto& token : owned_) tokens_.push_back(token.get());
  }

  // False when the piece has more than kMaxTokens tokens.
  bool lex() {
    while (true) {
      std::unique_ptr<antlr4::Token> token = lexer_->nextToken();
      const std::size_t type = token->getType();
      if (owned_.size() >= static_cast<std::size_t>(kMaxTokens) && type != antlr4::Token::EOF) {
        report_too_many_tokens(piece_.token_range(token.get()));
        return false;
      }
      if (type == MkqLexer::UNTERMINATED_STRING) repair_interpolation(token.get(), owned_.size());
      tokens_.push_back(token.get());
      owned_.push_back(std::move(token));
      if (type == antlr4::Token::EOF) return true;
    }
  }

  // E1016 at the first token over kMaxTokens: no AST then.
  void report_too_many_tokens(const SourceRange& at) {
    auto& d = diagnostics_.error(codes::kTooManyTokens, at,
                                 fmt::format("file is too large: more than {} tokens", kMaxTokens));
    d.notes.push_back({"split the policy into several files in one directory", std::nullopt});
    over_limit_ = true;
  }

  std::vector<std::unique_ptr<antlr4::Token>> take_tokens() { return std::move(owned_); }

  // `"${m["k"]}"`: the lexer ends the string at the inner quote, and the rest
  // of the line becomes more strings. Merge it back into one (bad) string
  // token and say what is wrong, once.
  void repair_interpolation(antlr4::Token* token, std::size_t index) {
    const auto bytes = piece_.token_bytes(token);
    if (!bytes) return;
    const std::string_view text = piece_.file_text();
    const auto [begin, end] = *bytes;
    std::uint32_t open = 0;
    bool unclosed = false;
    for (std::uint32_t i = begin + 1; i < end;) {
      if (text[i] == '\\') {
        i += 2;
        continue;
      }
      if (text[i] == '$' && i + 1 < end && text[i + 1] == '{') {
        const std::size_t close = text.substr(0, end).find('}', i + 2);
        if (close == std::string_view::npos) {
          open = i;
          unclosed = true;
          break;
        }
        i = static_cast<std::uint32_t>(close) + 1;
        continue;
      }
      ++i;
    }
    if (!unclosed || end >= piece_.end() || text[end] != '"') return;

    std::uint32_t line_end = end;
    while (line_end < piece_.end() && text[line_end] != '\n' && text[line_end] != '\r') ++line_end;
    const std::size_t close = text.substr(0, line_end).find('}', end);
    std::uint32_t merged_end = end + 1;
    if (close != std::string_view::npos) {
      std::uint32_t j = static_cast<std::uint32_t>(close) + 1;
      while (j < line_end && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      merged_end = j < line_end ? j + 1 : line_end;
      auto& d = diagnostics_.error(codes::kBadInterpolation, piece_.range(end, end + 1),
                                   "a string interpolation cannot contain '\"'");
      d.notes.push_back({"compute the value with 'let' and interpolate its name, e.g. ${name}", std::nullopt});
    } else {
      diagnostics_.error(codes::kBadInterpolation, piece_.range(open, open + 2), "'${' has no closing '}'");
    }
    auto* writable = dynamic_cast<antlr4::CommonToken*>(token);
    if (writable == nullptr) return;
    writable->setStopIndex(piece_.code_point_of(merged_end) - 1);
    input_->seek(piece_.code_point_of(merged_end));
    repaired_.insert(index);
  }

  // Step 3: comments, lexical errors, the nesting limit. False when too deep.
  bool scan() {
    NestingCounter nesting(base_depth_);
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (skip_until_ && i <= *skip_until_) continue;  // the rest of a '#' line
      antlr4::Token* token = tokens_[i];
      if (budget_.used_up() && budget_.exhausted(piece_.token_range(token))) {
        over_limit_ = true;
        return false;
      }
      const std::size_t type = token->getType();
      if (const auto bytes = piece_.token_bytes(token);
          bytes && too_long(type, bytes->first, bytes->second)) {
        report_too_long(type, *bytes);
        return false;
      }
      switch (type) {
        case MkqLexer::LINE_COMMENT:
        case MkqLexer::BLOCK_COMMENT:
          comments_.push_back({std::string(piece_.token_text(token)), piece_.token_range(token),
                               type == MkqLexer::BLOCK_COMMENT});
          continue;
        case MkqLexer::UNTERMINATED_COMMENT: {
          const auto bytes = piece_.token_bytes(token);
          auto& d = diagnostics_.error(codes::kUnterminatedComment, piece_.range(bytes->first, bytes->first + 2),
                                       "unterminated block comment");
          d.notes.push_back({"a block comment ends with '*/'; block comments do not nest", std::nullopt});
          reporter_.suppress_errors_at_eof();
          continue;
        }
        case MkqLexer::STRAY:
          report_stray(i);
          continue;
        case MkqLexer::UNTERMINATED_STRING:
          reporter_.lexical_error_at(i);
          if (!repaired_.count(i)) {
            auto& d = diagnostics_.error(codes::kUnterminatedString, piece_.token_range(token), "unterminated string");
            d.notes.push_back({"a string ends with '\"' on the same line", std::nullopt});
          }
          break;
        case MkqLexer::BAD_NUMBER:
          reporter_.lexical_error_at(i);
          report_bad_number(token);
          break;
        case MkqLexer::DURATION:
          if (auto problem = check_duration(piece_.token_text(token))) {
            auto& d = diagnostics_.error(codes::kInvalidDuration, piece_.token_range(token), problem->message);
            d.notes.push_back({"a duration lists each unit at most once, largest first: d, h, min, s, ms", std::nullopt});
            if (!problem->replacement.empty()) {
              d.suggestions.push_back({"write '" + problem->replacement + "'", piece_.token_range(token),
                                       problem->replacement});
            }
          }
          break;
        case MkqLexer::STRING:
          string_tokens_.push_back({i, nesting.current() + 1, piece_.token_bytes(token)});
          break;
        default:
          break;
      }
      if (token->getChannel() != antlr4::Token::DEFAULT_CHANNEL || type == antlr4::Token::EOF) continue;
      if (over_limit_) continue;
      const int depth = nesting.advance(type);
      if (depth > kMaxNestingDepth) {
        over_limit_ = true;
        auto& d = diagnostics_.error(codes::kNestingTooDeep, piece_.token_range(token),
                                     fmt::format("nesting is deeper than {} levels", kMaxNestingDepth));
        d.notes.push_back({"brackets, braces, parentheses, unary operators, '?:' and 'else if' count one level each",
                           std::nullopt});
      }
    }
    return !over_limit_;
  }

  // E1019: no AST then, so that the token is never decoded or copied.
  void report_too_long(std::size_t type, std::pair<std::uint32_t, std::uint32_t> bytes) {
    over_limit_ = true;
    diagnostics_.error(codes::kTokenTooLong, piece_.range(bytes.first, bytes.second),
                       fmt::format("{} is {} bytes long; the limit is {} bytes", limited_token_kind(type),
                                   limited_length(type, bytes.first, bytes.second), kMaxTokenBytes));
  }

  // Hides the rest of the line from the parser (after a '#' comment).
  void hide_rest_of_line(std::size_t from) {
    const auto bytes = piece_.token_bytes(tokens_[from]);
    const std::string_view text = piece_.file_text();
    for (std::size_t j = from + 1; j < tokens_.size(); ++j) {
      auto* token = dynamic_cast<antlr4::CommonToken*>(tokens_[j]);
      const auto at = piece_.token_bytes(tokens_[j]);
      if (token == nullptr || !at || token->getType() == antlr4::Token::EOF) return;
      if (text.substr(bytes->second, at->first - bytes->second).find('\n') != std::string_view::npos) return;
      token->setChannel(kHiddenFromParser);
      skip_until_ = j;
    }
  }

  // A stray character: reported here; the parser never sees it (channel 2),
  // except '&' and '|', which are taken as '&&' and '||' so that the rest of
  // the expression still parses.
  void report_stray(std::size_t index) {
    antlr4::Token* token = tokens_[index];
    const std::string_view text = piece_.token_text(token);
    reporter_.lexical_error_at(index);
    auto& d = diagnostics_.error(codes::kUnexpectedCharacter, piece_.token_range(token),
                                 "unexpected character '" + std::string(text) + "'");
    if (auto* writable = dynamic_cast<antlr4::CommonToken*>(token); writable != nullptr && (text == "&" || text == "|")) {
      writable->setType(text == "&" ? MkqLexer::AND : MkqLexer::OR);
      writable->setChannel(antlr4::Token::DEFAULT_CHANNEL);
    }
    if (text == "#") hide_rest_of_line(index);
    if (text == "\xE2\x80\x9C" || text == "\xE2\x80\x9D" || text == "\xE2\x80\x9E") {
      d.notes.push_back({"strings are written with straight double quotes: \"...\"", std::nullopt});
    } else if (text == "'" || text == "\xE2\x80\x98" || text == "\xE2\x80\x99" || text == "`") {
      d.notes.push_back({"strings are written with double quotes: \"...\"", std::nullopt});
    } else if (text == "#") {
      d.notes.push_back({"comments start with '//' or are written /* ... */", std::nullopt});
    } else if (text == "\xC2\xA0" || text == "\xEF\xBB\xBF" || text == "\xE2\x80\x8B") {
      d.notes.push_back({"an invisible character (a non-breaking space, a zero-width space or a byte-order mark)",
                         std::nullopt});
    } else if (text == "$") {
      d.notes.push_back({"'${...}' interpolates inside a string only", std::nullopt});
    } else if (text == "&" || text == "|") {
      d.notes.push_back({std::string("the logical operators are '&&' and '||'"), std::nullopt});
    }
  }

  void report_bad_number(antlr4::Token* token) {
    const std::string_view text = piece_.token_text(token);
    const NumberAdvice advice = explain_bad_number(text);
    auto& d = diagnostics_.error(codes::kInvalidNumber, piece_.token_range(token), advice.message);
    if (!advice.note.empty()) d.notes.push_back({advice.note, std::nullopt});
    if (!advice.replacement.empty()) {
      d.suggestions.push_back({"did you mean '" + advice.replacement + "'?", piece_.token_range(token),
                               advice.replacement});
    } else if (!advice.help.empty()) {
      d.suggestions.push_back({advice.help, std::nullopt, ""});
    }
  }

  // Step 4: escapes and interpolations of every STRING token, or of those
  // that are not plain (literals.h) unless `plain_too`: decoding a plain
  // string reports nothing, and the fast parser decodes those itself.
  void decode_strings(bool plain_too) {
    const std::string_view text = piece_.file_text();
    for (const auto& [index, depth, bytes] : string_tokens_) {
      if (over_limit_ ||
          (budget_.used_up() &&
           budget_.exhausted(bytes ? piece_.range(bytes->first, bytes->second) : piece_.eof_range()))) {
        over_limit_ = true;
        return;
      }
      if (!bytes || bytes->second < bytes->first + 2) continue;
      const auto [begin, end] = *bytes;
      if (!plain_too && is_plain_string(text.substr(begin + 1, end - begin - 2))) continue;
      auto string = std::make_unique<StringExpr>(piece_.range(begin, end));
      const std::uint32_t stop = end - 1;  // the closing quote
      std::string literal;
      std::uint32_t literal_begin = begin + 1;
      bool interpolated = false;
      // The text up to `at`: all of a string without interpolation goes to
      // StringExpr::literal, else each piece is a part.
      const auto flush = [&](std::uint32_t at) {
        if (at > literal_begin && !interpolated && at == stop) {
          string->literal = std::move(literal);
        } else if (at > literal_begin) {
          string->parts.push_back({std::move(literal), nullptr, piece_.range(literal_begin, at)});
        }
        literal.clear();
      };
      std::uint32_t i = begin + 1;
      while (i < stop) {
        const char c = text[i];
        if (c == '\\' && i + 1 < stop) {
          const std::uint32_t length = utf8_length(text, i + 1);
          switch (text[i + 1]) {
            case '"': literal += '"'; break;
            case '\\': literal += '\\'; break;
            case 'n': literal += '\n'; break;
            case 't': literal += '\t'; break;
            case '$': literal += '$'; break;
            default: {
              const std::string escape(text.substr(i, 1 + length));
              auto& d = diagnostics_.error(codes::kInvalidEscape, piece_.range(i, i + 1 + length),
                                           "unknown escape '" + escape + "' in string");
              d.notes.push_back({"the escapes are \\\" \\\\ \\n \\t and \\$; write a backslash as \\\\", std::nullopt});
              literal += escape;
              break;
            }
          }
          i += 1 + length;
          continue;
        }
        if (c == '$' && i + 1 < stop && text[i + 1] == '{') {
          flush(i);
          interpolated = true;
          const std::size_t found = text.substr(0, stop).find('}', i + 2);
          const std::uint32_t close = found == std::string_view::npos ? stop : static_cast<std::uint32_t>(found);
          ExprPtr expr = interpolate(i + 2, close, depth);
          const SourceRange part_range = piece_.range(i, std::min(close + 1, stop));
          if (!expr) expr = std::make_unique<ErrorExpr>(part_range);
          string->parts.push_back({"", std::move(expr), part_range});
          i = close + 1;
          literal_begin = i;
          continue;
        }
        literal += c;
        ++i;
      }
      flush(stop);
      strings_.add(index, std::move(string));
    }
    strings_.finish();
    std::vector<StringToken>().swap(string_tokens_);  // read by nothing after this step
  }

  // The plain strings decode_strings() left to the fast parser, when it gave
  // up: the ANTLR path takes every string from the table.
  void decode_plain_strings() {
    const std::string_view text = piece_.file_text();
    for (std::size_t i = 0; i < fast_tokens_.size(); ++i) {
      const LexToken& token = fast_tokens_[i];
      if (token.type() != MkqLexer::STRING) continue;
      const std::string_view inner = text.substr(token.begin() + 1, token.end() - token.begin() - 2);
      if (!is_plain_string(inner)) continue;
      auto string = std::make_unique<StringExpr>(piece_.range(token.begin(), token.end()));
      string->literal = decode_plain_string(inner);
      strings_.add(i, std::move(string));
    }
    strings_.finish();
  }

  ExprPtr interpolate(std::uint32_t begin, std::uint32_t end, int depth) {
    const TextPiece inner(sources_, piece_.file(), begin, end, piece_.range(end, end + 1));
    PieceParser parser(inner, sources_, diagnostics_, budget_, comments_, depth, route_);
    ExprPtr expr = parser.interpolation();
    if (parser.over_limit()) over_limit_ = true;
    return expr;
  }

  // Step 5: the two-stage parse. Returns the tree (owned by `parser`).
  antlr4::ParserRuleContext* run(MkqParser& parser, antlr4::CommonTokenStream& stream, bool expression) {
    const auto rule = [&]() -> antlr4::ParserRuleContext* {
      if (expression) return parser.expr();
      return parser.file();
    };
    stream.fill();  // every token is in memory already; error messages look ahead freely
    parser.removeErrorListeners();
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
    try {
      antlr4::ParserRuleContext* tree = rule();
      if (!expression || stream.LA(1) == antlr4::Token::EOF) return tree;
    } catch (const antlr4::ParseCancellationException&) {
      // Not valid SLL: parse again with full LL and error recovery.
    }
    stream.seek(0);
    parser.reset();
    // reset() keeps the ATN state of the failed attempt; the start rule would
    // take it as its invoking state, and error recovery would then walk past
    // the root context.
    parser.setState(antlr4::atn::ATNState::INVALID_STATE_NUMBER);
    parser.setErrorHandler(std::make_shared<FriendlyErrorStrategy>(reporter_));
    parser.addErrorListener(&reporter_);
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
    antlr4::ParserRuleContext* tree = nullptr;
    try {
      tree = rule();
    } catch (const antlr4::ParseCancellationException&) {
      over_limit_ = true;  // ErrorReporter gave up: too many errors
      return nullptr;
    }
    if (expression && stream.LA(1) != antlr4::Token::EOF) {
      antlr4::Token* extra = stream.LT(1);
      diag::Diagnostic d;
      d.code = codes::kUnexpectedToken;
      d.range = piece_.token_range(extra);
      d.message = "unexpected '" + shorten(piece_.token_text(extra)) + "' in an interpolation";
      d.notes.push_back({"'${...}' holds one expression", std::nullopt});
      reporter_.report(extra, std::move(d));
    }
    return tree;
  }

  const TextPiece& piece_;
  const diag::SourceManager& sources_;
  diag::Diagnostics& diagnostics_;
  ErrorBudget& budget_;
  std::vector<Comment>& comments_;
  int base_depth_;
  ParseRoute& route_;  // FastPathFirst: fast_lex() and FastParser first
  ErrorReporter reporter_;
  std::unique_ptr<antlr4::ANTLRInputStream> input_;  // made by make_lexer() when ANTLR tokens are needed
  std::unique_ptr<MkqLexer> lexer_;
  std::vector<LexToken> fast_tokens_;  // from fast_lex(), when fast_lexed_
  bool fast_lexed_ = false;
  std::vector<std::unique_ptr<antlr4::Token>> owned_;  // handed to the token stream by take_tokens()
  std::vector<antlr4::Token*> tokens_;                 // every token, all channels, by token index
  std::set<std::size_t> repaired_;                      // merged bad strings, already reported
  std::vector<StringToken> string_tokens_;
  StringTable strings_;
  std::optional<std::size_t> skip_until_;  // tokens up to here are hidden (a '#' comment)
  bool over_limit_ = false;                // nesting, tokens or errors: no AST
};

}  // namespace
}  // namespace detail

namespace {

// The first position of a file, built without the SourceManager (which may be
// what failed).
SourceRange start_of(FileId file) {
  SourceRange range;
  range.file = file;
  return range;
}

// parse_file() along a route (parse_route.h).
std::unique_ptr<File> parse(const diag::SourceManager& sources, FileId file, diag::Diagnostics& diagnostics,
                            detail::ParseRoute& route, DeferredBlocks* deferred = nullptr) {
  try {
    const diag::SourceFile& source = sources.file(file);
    const std::string& text = source.text;
    if (text.size() > diag::kMaxSourceBytes) {  // read from elsewhere than a reader that checks it
      report_file_too_large(diagnostics, sources.range(file, 0, 0), source.path, text.size());
      return nullptr;
    }
    if (const auto bad = detail::find_bad_byte(text)) {
      const auto range = sources.range(file, bad->offset, bad->offset + 1);
      if (bad->is_nul) {
        auto& d = diagnostics.error(codes::kBinaryFile, range, "file contains a NUL byte; it looks like a binary file");
        d.notes.push_back({"a policy is UTF-8 text", std::nullopt});
      } else {
        auto& d = diagnostics.error(codes::kInvalidUtf8, range, "file is not valid UTF-8");
        d.notes.push_back({"the first invalid byte is here; save the file as UTF-8", std::nullopt});
      }
      return nullptr;
    }

    // A UTF-8 byte-order mark is allowed at the very start and ignored.
    const std::uint32_t begin = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    auto result = std::make_unique<File>();
    result->file = file;
    const detail::TextPiece piece(sources, file, begin, static_cast<std::uint32_t>(text.size()));
    detail::ErrorBudget budget(diagnostics);
    detail::PieceParser parser(piece, sources, diagnostics, budget, result->comments, 0, route);
    auto stmts = parser.statements(deferred);
    if (!stmts) return nullptr;
    result->stmts = std::move(*stmts);
    std::stable_sort(result->comments.begin(), result->comments.end(),
                     [](const Comment& a, const Comment& b) { return a.range.begin.offset < b.range.begin.offset; });
    return result;
  } catch (const std::exception& e) {
    diagnostics.error(codes::kInternalError, start_of(file), std::string("internal error in the parser: ") + e.what());
  } catch (...) {
    diagnostics.error(codes::kInternalError, start_of(file), "internal error in the parser");
  }
  return nullptr;
}

}  // namespace

void report_file_too_large(diag::Diagnostics& diagnostics, const diag::SourceRange& at,
                           const std::string& path, std::uint64_t size) {
  auto& d = diagnostics.error(codes::kFileTooLarge, at,
                              fmt::format("{} is {} bytes; the limit is {} bytes", path, size,
                                          diag::kMaxSourceBytes));
  d.notes.push_back({"split the policy into several files in one directory", std::nullopt});
}

std::unique_ptr<File> parse_file(const diag::SourceManager& sources, FileId file, diag::Diagnostics& diagnostics) {
  detail::ParseRoute route;
  return parse(sources, file, diagnostics, route);
}

std::unique_ptr<File> parse_file_deferred(const diag::SourceManager& sources, FileId file,
                                          diag::Diagnostics& diagnostics, DeferredBlocks& deferred) {
  detail::ParseRoute route;
  auto result = parse(sources, file, diagnostics, route, &deferred);
  deferred.sources_ = &sources;
  if (!result) deferred.indices_.clear();
  return result;
}

bool DeferredBlocks::deferred(std::size_t index) const {
  return std::binary_search(indices_.begin(), indices_.end(), index);
}

std::size_t DeferredBlocks::nested(std::string_view kind) const {
  const auto found = nested_.find(kind);
  return found == nested_.end() ? 0 : found->second;
}

std::unique_ptr<BlockStmt> DeferredBlocks::parse(const BlockStmt& shell) const {
  if (sources_ == nullptr) return nullptr;
  try {
    // The block's own text, lexed and parsed as a file of one statement: the
    // same tokens, nodes and ranges as in the whole file (a top-level block
    // starts at nesting depth 0). Its comments are the file's already.
    const detail::TextPiece piece(*sources_, shell.range.file, shell.range.begin.offset, shell.range.end.offset);
    diag::Diagnostics unreported;
    detail::ErrorBudget budget(unreported);
    std::vector<Comment> comments;
    detail::ParseRoute route{detail::Engine::FastPathOnly};
    detail::PieceParser parser(piece, *sources_, unreported, budget, comments, 0, route);
    auto stmts = parser.statements();
    if (!stmts || !unreported.items().empty() || stmts->size() != 1) return nullptr;
    StmtPtr& stmt = stmts->front();
    if (stmt->kind != StmtKind::Block || stmt->range != shell.range) return nullptr;
    return std::unique_ptr<BlockStmt>(static_cast<BlockStmt*>(stmt.release()));
  } catch (const std::exception&) {
    return nullptr;  // parse_file() then reports it
  }
}

std::unique_ptr<File> detail::parse_file_via(const diag::SourceManager& sources, FileId file,
                                             diag::Diagnostics& diagnostics, ParseRoute& route) {
  return parse(sources, file, diagnostics, route);
}

}  // namespace mkq::syntax
