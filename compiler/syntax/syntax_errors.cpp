// Syntax errors worded for people.
//
// ANTLR says "mismatched input 'x' expecting {'{', STRING, 'in'}". We look at
// where the parser is (the rule context and the brackets still open), what it
// expected and what it found, and say one short thing: "missing '=' after field
// 'cpu'", "expected '}' to close the block started here", "expected an
// expression", "unexpected ')'". The primary range is always the whole
// offending token (a point after the last token for the end of the file).
#include <algorithm>

#include <fmt/format.h>

#include "compiler/syntax/codes.h"
#include "compiler/syntax/parse.h"
#include "compiler/syntax/parser_internal.h"

namespace mkq::syntax::detail {

using P = MkqParser;

namespace {

bool has(const antlr4::misc::IntervalSet& set, std::size_t type) { return set.contains(type); }

bool is_closer(std::size_t type) { return type == P::RBRACE || type == P::RBRACK || type == P::RPAREN; }

const char* closer_text(std::size_t type) {
  switch (type) {
    case P::RBRACE: return "}";
    case P::RBRACK: return "]";
    default: return ")";
  }
}

// "'x'", "string \"abc\"" or "end of file".
std::string describe(const TextPiece& piece, const antlr4::Token* token) {
  if (token->getType() == antlr4::Token::EOF) return "end of file";
  const std::string text = shorten(piece.token_text(token));
  if (token->getType() == P::STRING || token->getType() == P::UNTERMINATED_STRING) return "string " + text;
  return "'" + text + "'";
}

// How an expected token is named in a message.
std::string token_name(antlr4::Parser* parser, std::size_t type) {
  switch (type) {
    case antlr4::Token::EOF: return "end of file";
    case P::IDENT: return "a name";
    case P::STRING:
    case P::UNTERMINATED_STRING: return "a string";
    case P::NUMBER:
    case P::BAD_NUMBER: return "a number";
    case P::DURATION: return "a duration";
    default: break;
  }
  const std::string literal = parser->getVocabulary().getLiteralName(type);
  return literal.empty() ? parser->getVocabulary().getDisplayName(type) : literal;
}

// The previous token the parser saw (default channel), or null.
antlr4::Token* previous_token(antlr4::Parser* parser, const antlr4::Token* token) {
  auto* stream = parser->getTokenStream();
  std::size_t index = token->getTokenIndex();
  if (index == INVALID_INDEX) return nullptr;
  while (index > 0) {
    --index;
    antlr4::Token* candidate = stream->get(index);
    if (candidate->getChannel() == antlr4::Token::DEFAULT_CHANNEL) return candidate;
  }
  return nullptr;
}

// The next token the parser will see after `token` (default channel), or null.
antlr4::Token* next_token(antlr4::Parser* parser, const antlr4::Token* token) {
  auto* stream = parser->getTokenStream();
  if (token->getType() == antlr4::Token::EOF || token->getTokenIndex() == INVALID_INDEX) return nullptr;
  for (std::size_t index = token->getTokenIndex() + 1; index < stream->size(); ++index) {
    antlr4::Token* candidate = stream->get(index);
    if (candidate->getChannel() == antlr4::Token::DEFAULT_CHANNEL) return candidate;
  }
  return nullptr;
}

// A bracket the parser is inside of and has not yet seen closed.
struct Opener {
  const antlr4::Token* token;
  std::size_t closer;
  const char* what;
  bool is_body;
};

std::optional<Opener> open_bracket(antlr4::tree::TerminalNode* open, antlr4::tree::TerminalNode* close,
                                   std::size_t closer, const char* what, bool is_body = false) {
  if (!is_real(open) || is_real(close)) return std::nullopt;
  return Opener{open->getSymbol(), closer, what, is_body};
}

std::optional<Opener> opener_of(antlr4::ParserRuleContext* c) {
  if (auto* x = dynamic_cast<P::BodyContext*>(c)) return open_bracket(x->LBRACE(), x->RBRACE(), P::RBRACE, "block", true);
  if (auto* x = dynamic_cast<P::MapLitContext*>(c)) return open_bracket(x->LBRACE(), x->RBRACE(), P::RBRACE, "map");
  if (auto* x = dynamic_cast<P::ListLitContext*>(c)) return open_bracket(x->LBRACK(), x->RBRACK(), P::RBRACK, "list");
  if (auto* x = dynamic_cast<P::ParenExprContext*>(c)) {
    return open_bracket(x->LPAREN(), x->RPAREN(), P::RPAREN, "parenthesis");
  }
  if (auto* x = dynamic_cast<P::CallExprContext*>(c)) {
    return open_bracket(x->LPAREN(), x->RPAREN(), P::RPAREN, "argument list");
  }
  if (auto* x = dynamic_cast<P::IndexExprContext*>(c)) return open_bracket(x->LBRACK(), x->RBRACK(), P::RBRACK, "index");
  if (auto* x = dynamic_cast<P::TemplateStmtContext*>(c)) {
    return open_bracket(x->LPAREN(), x->RPAREN(), P::RPAREN, "parameter list");
  }
  if (auto* x = dynamic_cast<P::UseStmtContext*>(c)) {
    return open_bracket(x->LPAREN(), x->RPAREN(), P::RPAREN, "argument list");
  }
  return std::nullopt;
}

std::optional<Opener> innermost_open(antlr4::ParserRuleContext* context) {
  for (auto* c = context; c != nullptr; c = dynamic_cast<antlr4::ParserRuleContext*>(c->parent)) {
    if (auto opener = opener_of(c)) return opener;
  }
  return std::nullopt;
}

// The statement or block a body belongs to, when the parser wants its '{'.
antlr4::ParserRuleContext* body_owner(antlr4::ParserRuleContext* context, const antlr4::misc::IntervalSet& expected) {
  if (!has(expected, P::LBRACE)) return nullptr;
  if (auto* body = dynamic_cast<P::BodyContext*>(context)) {
    if (is_real(body->LBRACE())) return nullptr;
    return dynamic_cast<antlr4::ParserRuleContext*>(body->parent);
  }
  if (auto* block = dynamic_cast<P::BlockContext*>(context)) return block->body() == nullptr ? block : nullptr;
  if (auto* loop = dynamic_cast<P::ForStmtContext*>(context)) return loop->body() == nullptr ? loop : nullptr;
  if (auto* tmpl = dynamic_cast<P::TemplateStmtContext*>(context)) return tmpl->body() == nullptr ? tmpl : nullptr;
  if (auto* branch = dynamic_cast<P::IfStmtContext*>(context)) return branch->body().empty() ? branch : nullptr;
  return nullptr;
}

// `assert ok, }`: `comma` is the ',' after an assert's condition, which starts its message.
bool starts_assert_message(antlr4::ParserRuleContext* context, const antlr4::Token* comma) {
  for (auto* c = context; c != nullptr; c = dynamic_cast<antlr4::ParserRuleContext*>(c->parent)) {
    if (auto* assert_stmt = dynamic_cast<P::AssertStmtContext*>(c)) {
      return !assert_stmt->COMMA().empty() && assert_stmt->COMMA(0)->getSymbol() == comma;
    }
  }
  return false;
}

// `assert ok, x = 1`: the statement just parsed is an assert whose message ends at `last`.
bool ends_assert_message(antlr4::ParserRuleContext* context, const antlr4::Token* last) {
  if (context == nullptr || last == nullptr) return false;
  for (auto it = context->children.rbegin(); it != context->children.rend(); ++it) {
    if (auto* stmt = dynamic_cast<P::StmtContext*>(*it)) {
      auto* assert_stmt = stmt->assertStmt();
      return assert_stmt != nullptr && assert_stmt->expr().size() > 1 && assert_stmt->expr(1)->stop == last;
    }
  }
  return false;
}

constexpr const char* kAssertCommaNote =
    "a ',' after the condition of 'assert' starts its message; end an assert without one with ';' or a new line";

const std::vector<std::string>& statement_keywords() {
  static const std::vector<std::string> keywords = {"import", "let", "template", "use", "for", "if", "else", "assert"};
  return keywords;
}

}  // namespace

// The declaration keywords are consecutive tokens of the grammar, MANAGER to
// INTEGRATION (the last one declared), right before the punctuation.
static_assert(P::INTEGRATION - P::MANAGER == 12 && P::INTEGRATION + 1 == P::LBRACE,
              "Mkq.g4 changed the declaration keywords: update is_ident_type");
bool is_ident_type(std::size_t type) { return type == P::IDENT || (type >= P::MANAGER && type <= P::INTEGRATION); }

std::string shorten(std::string_view text) {
  constexpr std::size_t kMax = 40;
  if (text.size() <= kMax) return std::string(text);
  std::size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) --cut;  // not inside a character
  return std::string(text.substr(0, cut)) + "...";
}

// ------------------------------------------------------------------ ErrorBudget

bool ErrorBudget::exhausted(const SourceRange& where) {
  if (!used_up()) return false;
  if (!reported_) {
    reported_ = true;
    diagnostics_.error(codes::kTooManyErrors, where,
                       fmt::format("too many errors in this file; stopped after {}", kMaxSyntaxErrors));
  }
  return true;
}

// ------------------------------------------------------------------ ErrorReporter

void ErrorReporter::syntaxError(antlr4::Recognizer* /*recognizer*/, antlr4::Token* offending, std::size_t /*line*/,
                                std::size_t /*column*/, const std::string& message, std::exception_ptr /*error*/) {
  diag::Diagnostic d;
  d.code = codes::kUnexpectedToken;
  d.range = offending != nullptr ? piece_.token_range(offending) : piece_.range(piece_.begin(), piece_.begin());
  d.message = message;
  report(offending, std::move(d));
}

void ErrorReporter::report(const antlr4::Token* token, diag::Diagnostic diagnostic) {
  constexpr std::size_t kCascadeTokens = 3;
  if (token != nullptr) {
    const std::size_t index = token->getTokenIndex();
    // At the end of the file after an earlier error, whatever is missing is
    // most likely a consequence of that error (a '{' taken into a string, a
    // '}' eaten by recovery).
    if (token->getType() == antlr4::Token::EOF && (suppress_at_eof_ || reported_ > 0 || !lexical_errors_.empty())) {
      return;
    }
    const auto lexical = lexical_errors_.lower_bound(index >= kCascadeTokens ? index - kCascadeTokens : 0);
    if (lexical != lexical_errors_.end() && *lexical < index) return;
    if (last_error_token_ && index <= *last_error_token_ + kCascadeTokens) return;
    last_error_token_ = index;
  }
  if (budget_.exhausted(diagnostic.range)) throw antlr4::ParseCancellationException("too many errors");
  ++reported_;
  diagnostics_.add(std::move(diagnostic));
}

// ------------------------------------------------------------------ FriendlyErrorStrategy

void FriendlyErrorStrategy::reportNoViableAlternative(antlr4::Parser* parser, const antlr4::NoViableAltException& e) {
  explain(parser, e.getOffendingToken(), parser->getExpectedTokens(), Failure::NoViable, e.getStartToken());
}

void FriendlyErrorStrategy::reportInputMismatch(antlr4::Parser* parser, const antlr4::InputMismatchException& e) {
  explain(parser, e.getOffendingToken(), e.getExpectedTokens(), Failure::Mismatch, nullptr);
}

void FriendlyErrorStrategy::reportFailedPredicate(antlr4::Parser* parser, const antlr4::FailedPredicateException& e) {
  explain(parser, e.getOffendingToken(), parser->getExpectedTokens(), Failure::Mismatch, nullptr);
}

void FriendlyErrorStrategy::reportUnwantedToken(antlr4::Parser* parser) {
  if (inErrorRecoveryMode(parser)) return;
  beginErrorCondition(parser);
  explain(parser, parser->getCurrentToken(), getExpectedTokens(parser), Failure::Unwanted, nullptr);
}

void FriendlyErrorStrategy::reportMissingToken(antlr4::Parser* parser) {
  if (inErrorRecoveryMode(parser)) return;
  beginErrorCondition(parser);
  explain(parser, parser->getCurrentToken(), getExpectedTokens(parser), Failure::Missing, nullptr);
}

void FriendlyErrorStrategy::explain(antlr4::Parser* parser, antlr4::Token* offending,
                                    const antlr4::misc::IntervalSet& expected, Failure failure,
                                    antlr4::Token* start) {
  if (offending == nullptr) offending = parser->getCurrentToken();
  const TextPiece& piece = reporter_.piece();
  antlr4::ParserRuleContext* context = parser->getContext();
  const std::size_t type = offending->getType();
  const bool at_eof = type == antlr4::Token::EOF;
  antlr4::Token* previous = previous_token(parser, offending);
  const std::string after = previous != nullptr ? " after '" + shorten(piece.token_text(previous)) + "'" : "";

  diag::Diagnostic d;
  d.code = codes::kUnexpectedToken;
  d.range = piece.token_range(offending);
  const auto note_at = [&](const antlr4::Token* token, std::string message) {
    d.notes.push_back({std::move(message), piece.token_range(token)});
  };

  // `cpu 9`, `cpu: 9`: a field without '='. (Any name may start a block, so the
  // parser only knows something is wrong at the second token.)
  if (failure == Failure::NoViable && dynamic_cast<P::StmtContext*>(context) != nullptr && start != nullptr &&
      is_ident_type(start->getType()) && previous == start) {
    const std::string field(piece.token_text(start));
    d.code = codes::kMissingToken;
    // `worker w {`: a label written without quotes.
    const antlr4::Token* next = next_token(parser, offending);
    if (is_ident_type(type) && next != nullptr &&
        (next->getType() == P::LBRACE || next->getType() == P::STRING || next->getType() == P::IN)) {
      const std::string label(piece.token_text(offending));
      d.message = "expected a quoted label after '" + field + "'";
      d.notes.push_back({"block labels are strings: " + field + " \"" + label + "\"", std::nullopt});
      d.suggestions.push_back({"quote the label", d.range, "\"" + label + "\""});
      reporter_.report(offending, std::move(d));
      return;
    }
    d.message = "missing '=' after field '" + field + "'";
    const SourceRange name_range = piece.token_range(start);
    if (type == P::COLON) {
      d.notes.push_back({"fields are set with '=': " + field + " = ...", std::nullopt});
      d.suggestions.push_back({"write '='", d.range, "="});
      // `node_labels { pool: "a" }`: perhaps a map written as a block.
      const antlr4::Token* brace = previous_token(parser, start);
      const antlr4::Token* outer = brace != nullptr && brace->getType() == P::LBRACE ? previous_token(parser, brace) : nullptr;
      if (outer != nullptr && outer->getType() == P::IDENT) {
        const std::string name(piece.token_text(outer));
        d.notes.push_back({"if '" + name + "' is a map, it is a value: " + name + " = { " + field + ": ... }", std::nullopt});
      }
    } else {
      const SourceRange gap = piece.range(name_range.end.offset, name_range.end.offset);
      d.suggestions.push_back({"insert '='", gap, " ="});
    }
    if (start->getType() == P::IDENT) {
      if (auto keyword = diag::closest_match(field, statement_keywords())) {
        d.suggestions.push_back({"did you mean '" + *keyword + "'?", name_range, *keyword});
      }
    }
    reporter_.report(offending, std::move(d));
    return;
  }

  // `"nvidia.com/gpu" 8`: the quoted form of the same mistake.
  if (auto* attribute = dynamic_cast<P::AttributeContext*>(context);
      attribute != nullptr && has(expected, P::ASSIGN) && !is_real(attribute->ASSIGN())) {
    d.code = codes::kMissingToken;
    d.message = "missing '=' after field " + shorten(piece.token_text(attribute->start));
    reporter_.report(offending, std::move(d));
    return;
  }

  // A block, `if`, `for` or template without the '{' of its body.
  if (antlr4::ParserRuleContext* owner = body_owner(context, expected)) {
    d.code = codes::kMissingToken;
    if (auto* block = dynamic_cast<P::BlockContext*>(owner)) {
      std::string header;
      const auto first = piece.token_bytes(block->start);
      const auto last = previous != nullptr ? piece.token_bytes(previous) : std::nullopt;
      if (first && last && last->second > first->first) {
        header = shorten(piece.file_text().substr(first->first, last->second - first->first));
      }
      d.message = header.empty() ? "expected '{'" : "expected '{' after '" + header + "'";
      const auto labels = block->stringLit();
      if (block->blockKind() != nullptr && block->blockKind()->IDENT() != nullptr && labels.size() == 1 &&
          block->IN() == nullptr) {
        const std::string kind(piece.token_text(block->blockKind()->start));
        const std::string value(piece.token_text(labels[0]->start));
        d.notes.push_back({"to set a field, write '" + kind + " = " + shorten(value) + "'", std::nullopt});
      }
    } else if (dynamic_cast<P::IfStmtContext*>(owner) != nullptr) {
      d.message = "expected '{' after the condition of 'if'";
      if (type == P::ASSIGN) d.notes.push_back({"to compare two values, write '=='", std::nullopt});
    } else if (dynamic_cast<P::ForStmtContext*>(owner) != nullptr) {
      d.message = "expected '{' to start the body of 'for'";
    } else if (auto* tmpl = dynamic_cast<P::TemplateStmtContext*>(owner)) {
      const std::string name = tmpl->ident() != nullptr ? std::string(piece.token_text(tmpl->ident()->start)) : "";
      d.message = "expected '{' to start the body of template '" + name + "'";
    } else {
      d.message = "expected '{'";
    }
    reporter_.report(offending, std::move(d));
    return;
  }

  const auto opener = innermost_open(context);
  const bool wants_expression =
      has(expected, P::NUMBER) && has(expected, P::LPAREN) && !has(expected, P::LET);

  // The end of the file, the wrong closing bracket, or a statement keyword
  // inside a list, map or call: the closing bracket is missing.
  const bool starts_statement = type == P::LET || type == P::IMPORT || type == P::TEMPLATE || type == P::USE ||
                                type == P::ASSERT || type == P::ELSE;
  if (opener && (at_eof || (is_closer(type) && type != opener->closer) || (starts_statement && !opener->is_body)) &&
      !(wants_expression && !has(expected, opener->closer))) {
    d.code = codes::kUnclosedBracket;
    d.message = std::string("expected '") + closer_text(opener->closer) + "' to close the " + opener->what +
                " started here";
    note_at(opener->token, std::string("the ") + opener->what + " starts here");
    reporter_.report(offending, std::move(d));
    return;
  }

  if (wants_expression) {
    d.code = codes::kExpectedExpression;
    d.message = "expected an expression";
    if (previous != nullptr && previous->getType() == P::ASSIGN && type == P::ASSIGN) {
      d.notes.push_back({"to compare two values, write '=='", std::nullopt});
    }
    if (previous != nullptr && previous->getType() == P::COMMA && starts_assert_message(context, previous)) {
      d.notes.push_back({kAssertCommaNote, std::nullopt});
    }
    reporter_.report(offending, std::move(d));
    return;
  }

  // Inside a list, map, call or parentheses: a missing ',' or closing bracket.
  if (opener && !opener->is_body && has(expected, opener->closer)) {
    const std::string closer = closer_text(opener->closer);
    const std::string_view what = opener->what;
    const bool comma = what != "parenthesis" && what != "index";  // lists of items
    d.message = comma ? "expected ',' or '" + closer + "'" : "expected '" + closer + "'";
    note_at(opener->token, std::string("the ") + opener->what + " starts here");
    reporter_.report(offending, std::move(d));
    return;
  }

  // A name, a string, or one or two particular tokens.
  std::vector<std::size_t> wanted;
  for (const auto t : expected.toList()) wanted.push_back(static_cast<std::size_t>(t));
  if (!wanted.empty() && std::all_of(wanted.begin(), wanted.end(), is_ident_type)) {
    d.code = codes::kMissingToken;
    d.message = "expected a name" + after;
    if (type == P::STRING) d.notes.push_back({"a name is written without quotes", std::nullopt});
  } else if (!wanted.empty() && std::all_of(wanted.begin(), wanted.end(), [](std::size_t t) {
               return t == P::STRING || t == P::UNTERMINATED_STRING;
             })) {
    d.code = codes::kMissingToken;
    d.message = "expected a string" + after;
  } else if (!wanted.empty() && wanted.size() <= 2 && !has(expected, antlr4::Token::EOF)) {
    d.code = codes::kMissingToken;
    d.message = "expected " + token_name(parser, wanted[0]);
    if (wanted.size() == 2) d.message += " or " + token_name(parser, wanted[1]);
    d.message += after;
    if (wanted.size() == 1 && wanted[0] == P::COLON && type == P::ASSIGN) {
      d.notes.push_back({"map entries are written 'key: value'", std::nullopt});
    }
  } else {
    d.message = "unexpected " + describe(piece, offending);
    if (type == P::SLASH) {
      d.notes.push_back({"comments start with '//'", std::nullopt});
    }
    if (type == P::ASSIGN && ends_assert_message(context, previous)) {
      d.notes.push_back({kAssertCommaNote, std::nullopt});
    }
  }
  reporter_.report(offending, std::move(d));
}

}  // namespace mkq::syntax::detail
