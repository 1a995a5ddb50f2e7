// `mkq fmt`: the one canonical layout of a .mkq file, every comment kept.
//
// The layout (documented in docs/language.md, "Formatting"): 2-space indents,
// one statement per line, single spaces around `=` and binary operators; a
// block whose body holds only attributes goes on one line (`kind "l" { a = 1,
// b = 2 }`) when that fits in 100 columns and no comment is inside; lists,
// maps, arguments and parameters go on one line when they fit and hold no
// comment, else one element per line with a trailing comma. The output depends
// only on the AST with one deliberate exception: a blank line between two
// statements (or comments) of the input is kept, at most one, never at the
// start or end of a body. At the top level a statement that takes several
// lines is always separated from its neighbours by one blank line.
//
// Comment placement. Comments are not in the AST: File::comments holds them in
// source order. The formatter walks the AST in source order and, at fixed
// points, takes every comment not taken yet that starts before the point:
//   - before a statement or an element of a list, map, argument or parameter
//     list: the comments before it, each on its own line (leading);
//   - after one: the comments that start inside it or on the line where it
//     ends, before the next one (trailing, kept on that line; a line comment
//     ends the run, since nothing can follow it on its line);
//   - after `{`, `[`, `(`: the comments on the line of the bracket (kept there);
//   - before the closing bracket: the rest, on their own lines inside it;
//   - at the end of the file: the rest.
// A comment where no point is (`a + /* x */ b`) moves to the next point. Every
// point takes all comments before it and a comment is taken once, so none can
// be dropped or printed twice; the printer counts the comments it prints, and
// if that count ever differed from the file's, format_file returns the input
// unchanged rather than lose one. Comment text is printed verbatim except for
// whitespace at the end of its lines, which is dropped (no trailing spaces).
#include "compiler/syntax/format.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/syntax/format_doc.h"

namespace mkq::syntax {

namespace {

using doc::Doc;

constexpr int kWidth = 100;
constexpr int kUnlimitedWidth = std::numeric_limits<int>::max() / 2;
constexpr std::uint32_t kEndOfFile = std::numeric_limits<std::uint32_t>::max();
// A second guard behind the parser's nesting limit: an expression nested
// deeper than this is printed as written, so formatting cannot exhaust the
// stack. (Operator, `?:` else and postfix chains are walked in loops and do
// not count.)
constexpr int kMaxExprDepth = 1000;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// The comment as printed: its text without whitespace at the end of any line.
std::string normalize_comment(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\n') {
      while (!out.empty() && is_space(out.back())) out.pop_back();
    }
    out += c;
  }
  while (!out.empty() && is_space(out.back())) out.pop_back();
  return out;
}

// Minimal escaping: only what the lexer needs (`\$` only where `${` would
// start an interpolation).
void append_escaped(std::string& out, std::string_view literal) {
  for (std::size_t i = 0; i < literal.size(); ++i) {
    const char c = literal[i];
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '$':
        out += (i + 1 < literal.size() && literal[i + 1] == '{') ? "\\$" : "$";
        break;
      default:
        out += c;
    }
  }
}

std::string quote(std::string_view text) { return quote_literal(text); }

const char* unary_spelling(UnaryOp op) { return op == UnaryOp::Negate ? "-" : "!"; }

bool is_postfix(ExprKind k) { return k == ExprKind::Field || k == ExprKind::Index || k == ExprKind::Call; }

// Brackets of a comma-separated sequence; `spaced` puts a space inside them
// when flat (`{ a: 1 }`, but `[1]` and `f(1)`).
struct Brackets {
  const char* open;
  const char* close;
  bool spaced;
};

class Formatter {
 public:
  Formatter(const File& file, const diag::SourceFile& source)
      : file_(file), source_(source), taken_(file.comments.size(), false) {}

  std::string run();

 private:
  using Taken = std::vector<const Comment*>;

  // ------------------------------------------------------------ comments

  template <class Pred>
  Taken take_while(Pred pred) {
    Taken out;
    if (interpolation_depth_ > 0) return out;  // a string cannot hold a comment
    const auto& comments = file_.comments;
    for (std::size_t i = next_; i < comments.size(); ++i) {
      if (taken_[i]) continue;
      if (!pred(comments[i])) break;
      taken_[i] = true;
      out.push_back(&comments[i]);
    }
    while (next_ < comments.size() && taken_[next_]) ++next_;
    return out;
  }

  // The comments that start before `offset`.
  Taken take_before(std::uint32_t offset) {
    return take_while([&](const Comment& c) { return c.range.begin.offset < offset; });
  }

  // The comments after a statement or element ending at `end` that stay on its
  // line, before `limit`: those inside it, and those that start on the line
  // where it (or the comment before, for a block comment of several lines) ends.
  // The output prints them one after the other on that line, which this takes
  // again: the placement is stable.
  // Nothing can follow a line comment on its line, so it ends the run.
  Taken take_trailing(const diag::SourceOffset& end, std::uint32_t limit) {
    std::uint32_t line = line_of(end.offset);
    bool line_ended = false;
    return take_while([&](const Comment& c) {
      if (line_ended || c.range.begin.offset >= limit) return false;
      if (c.range.begin.offset >= end.offset && line_of(c.range.begin.offset) != line) return false;
      line = std::max(line, line_of(c.range.end.offset));
      line_ended = !c.is_block;
      return true;
    });
  }

  // The comments on the line of an opening bracket (`line`), before `limit`
  // (the first element or the closing bracket), chained as in take_trailing.
  Taken take_after_open(std::uint32_t line, std::uint32_t limit) {
    bool line_ended = false;
    return take_while([&](const Comment& c) {
      if (line_ended || c.range.begin.offset >= limit || line_of(c.range.begin.offset) != line) return false;
      line = line_of(c.range.end.offset);
      line_ended = !c.is_block;
      return true;
    });
  }

  Doc comment_doc(const Comment& c) const { return doc::comment(normalize_comment(c.text)); }

  // " // a /* b */": comments kept at the end of a line.
  void append_trailing(std::vector<Doc>& parts, const Taken& comments) const {
    for (const Comment* c : comments) {
      parts.push_back(doc::text(" "));
      parts.push_back(comment_doc(*c));
    }
  }

  static std::uint32_t end_of(std::uint32_t end, const Taken& comments) {
    for (const Comment* c : comments) end = std::max(end, c->range.end.offset);
    return end;
  }

  // Whether the input has an empty line between byte offsets `from` and `to`.
  bool blank_line_between(std::uint32_t from, std::uint32_t to) const {
    const std::string& text = source_.text;
    to = std::min<std::uint32_t>(to, static_cast<std::uint32_t>(text.size()));
    bool after_break = false;
    for (std::uint32_t i = from; i < to; ++i) {
      const char c = text[i];
      if (c == '\n') {
        if (after_break) return true;
        after_break = true;
      } else if (!is_space(c)) {
        after_break = false;
      }
    }
    return false;
  }

  // The offset of the next `wanted` character from `from`, skipping blanks,
  // comments and (when asked) commas; nothing if another token comes first.
  std::optional<std::uint32_t> find_token(std::uint32_t from, char wanted, bool skip_commas) const {
    const std::string& text = source_.text;
    std::size_t i = from;
    while (i < text.size()) {
      const char c = text[i];
      if (is_space(c) || c == '\n' || (skip_commas && c == ',')) {
        ++i;
      } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
        i = text.find('\n', i);
        if (i == std::string::npos) return std::nullopt;
      } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
        const auto end = text.find("*/", i + 2);
        if (end == std::string::npos) return std::nullopt;
        i = end + 2;
      } else if (c == wanted) {
        return static_cast<std::uint32_t>(i);
      } else {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  std::uint32_t line_of(std::uint32_t offset) const { return source_.position(offset).line; }

  // A field name as written: bare, or quoted ("nvidia.com/gpu" = 8); the AST
  // keeps only the name, the source tells which.
  std::string attribute_name(const Identifier& name) const {
    const std::uint32_t at = name.range.begin.offset;
    if (at >= source_.text.size() || source_.text[at] != '"') return name.name;
    return quote(name.name);
  }

  // The text of `range` as written, for what cannot be formatted (an invalid
  // literal, pathologically deep nesting). Comments inside it are printed with it.
  Doc verbatim(const SourceRange& range) {
    const std::string& text = source_.text;
    const std::size_t begin = std::min<std::size_t>(range.begin.offset, text.size());
    const std::size_t end = std::clamp<std::size_t>(range.end.offset, begin, text.size());
    for (std::size_t i = 0; i < file_.comments.size(); ++i) {
      const auto& c = file_.comments[i].range;
      if (!taken_[i] && c.begin.offset >= begin && c.end.offset <= end) {
        taken_[i] = true;
        ++verbatim_comments_;
      }
    }
    return doc::text(text.substr(begin, end - begin));
  }

  // ------------------------------------------------------------ sequences

  // `open e1, e2, ... close`: flat when it fits and holds no comment, else one
  // element per line with a trailing comma. `begin(i)`/`end(i)` are the source
  // extent of element i, `build(i)` formats it.
  template <class Begin, class End, class Build>
  Doc sequence(const Brackets& brackets, std::size_t count, std::uint32_t open_offset,
               std::uint32_t close_offset, Begin begin, End end, Build build) {
    const std::uint32_t first = count == 0 ? close_offset : begin(0);
    const Taken after_open = take_after_open(line_of(open_offset), first);
    std::vector<Doc> inner;
    for (std::size_t i = 0; i < count; ++i) {
      if (i > 0) inner.push_back(doc::line());
      std::vector<Doc> element;
      for (const Comment* c : take_before(begin(i))) {
        element.push_back(comment_doc(*c));
        element.push_back(doc::hardline());
      }
      element.push_back(build(i));
      element.push_back(i + 1 < count ? doc::text(",") : doc::if_break(doc::text(","), doc::text("")));
      const std::uint32_t limit = i + 1 < count ? begin(i + 1) : close_offset;
      append_trailing(element, take_trailing(end(i), limit));
      inner.push_back(doc::concat(std::move(element)));
    }
    const Taken dangling = take_before(close_offset);
    for (std::size_t i = 0; i < dangling.size(); ++i) {
      if (count > 0 || i > 0) inner.push_back(doc::line());
      inner.push_back(comment_doc(*dangling[i]));
    }
    if (count == 0 && after_open.empty() && dangling.empty()) {
      return doc::text(std::string(brackets.open) + brackets.close);
    }
    std::vector<Doc> parts{doc::text(brackets.open)};
    append_trailing(parts, after_open);
    if (!inner.empty()) {
      inner.insert(inner.begin(), brackets.spaced ? doc::line() : doc::softline());
      parts.push_back(doc::nest(std::move(inner)));
    }
    parts.push_back(brackets.spaced ? doc::line() : doc::softline());
    parts.push_back(doc::text(brackets.close));
    return doc::group(std::move(parts));
  }

  Doc arguments(const std::vector<Argument>& args, std::uint32_t open_offset, std::uint32_t close_offset,
                int depth) {
    return sequence(
        {"(", ")", false}, args.size(), open_offset, close_offset,
        [&](std::size_t i) {
          return args[i].name ? args[i].name->range.begin.offset : args[i].value->range.begin.offset;
        },
        [&](std::size_t i) { return args[i].value->range.end; },
        [&](std::size_t i) {
          std::vector<Doc> parts;
          if (args[i].name) parts.push_back(doc::text(args[i].name->name + " = "));
          parts.push_back(expr(*args[i].value, depth + 1));
          return doc::concat(std::move(parts));
        });
  }

  // ------------------------------------------------------------ statements

  Doc stmt(const Stmt& s);
  Doc body(const Body& b, bool may_be_one_line);
  Doc if_chain(const IfStmt& s);
  Doc template_stmt(const TemplateStmt& s);
  Doc use_stmt(const UseStmt& s);

  // ------------------------------------------------------------ expressions

  Doc expr(const Expr& e, int depth);
  Doc operand(const Expr& e, bool parenthesize, int depth);
  Doc binary(const BinaryExpr& e, int depth);
  Doc conditional(const ConditionalExpr& e, int depth);
  Doc postfix(const Expr& e, int depth);
  Doc comprehension(const ComprehensionExpr& e, int depth);
  std::string string_text(const StringExpr& s, int depth);

  const File& file_;
  const diag::SourceFile& source_;
  std::vector<bool> taken_;
  std::size_t next_ = 0;  // first comment not taken yet
  std::size_t verbatim_comments_ = 0;
  int interpolation_depth_ = 0;
};

// ---------------------------------------------------------------- file

std::string Formatter::run() {
  std::string out;
  std::size_t printed_comments = 0;
  const auto emit = [&](const std::string& chunk, bool blank_before) {
    if (!out.empty()) {
      out += '\n';
      if (blank_before) out += '\n';
    }
    out += chunk;
  };

  std::uint32_t last_end = 0;
  bool have_stmt = false;
  bool previous_multiline = false;
  const auto& stmts = file_.stmts;
  for (std::size_t i = 0; i < stmts.size(); ++i) {
    const Stmt& s = *stmts[i];
    const Taken leading = take_before(s.range.begin.offset);
    const doc::Printed printed = doc::print(stmt(s), kWidth);
    const std::uint32_t limit = i + 1 < stmts.size() ? stmts[i + 1]->range.begin.offset : kEndOfFile;
    const Taken trailing = take_trailing(s.range.end, limit);
    printed_comments += printed.comments;

    // A statement of several lines is set apart by a blank line at the top level.
    const bool multiline = printed.text.find('\n') != std::string::npos;
    bool separate = have_stmt && (previous_multiline || multiline);
    for (const Comment* c : leading) {
      emit(normalize_comment(c->text), separate || blank_line_between(last_end, c->range.begin.offset));
      separate = false;
      last_end = c->range.end.offset;
      ++printed_comments;
    }
    std::string text = printed.text;
    for (const Comment* c : trailing) {
      text += ' ';
      text += normalize_comment(c->text);
      ++printed_comments;
    }
    emit(text, separate || blank_line_between(last_end, s.range.begin.offset));
    last_end = end_of(s.range.end.offset, trailing);
    have_stmt = true;
    previous_multiline = multiline;
  }
  for (const Comment* c : take_before(kEndOfFile)) {
    emit(normalize_comment(c->text), blank_line_between(last_end, c->range.begin.offset));
    last_end = c->range.end.offset;
    ++printed_comments;
  }
  if (!out.empty()) out += '\n';

  // The no-comment-lost invariant; see the file comment.
  if (printed_comments + verbatim_comments_ != file_.comments.size()) return source_.text;
  return out;
}

// ---------------------------------------------------------------- statements

Doc Formatter::body(const Body& b, bool may_be_one_line) {
  const std::uint32_t open = b.range.begin.offset;
  const std::uint32_t close = b.range.end.offset > open ? b.range.end.offset - 1 : open;
  const std::uint32_t first = b.stmts.empty() ? close : b.stmts.front()->range.begin.offset;
  const Taken after_open = take_after_open(line_of(b.range.begin.offset), first);

  struct Item {
    Doc doc;
    bool blank_before;
    bool is_comment;
  };
  std::vector<Item> items;
  std::uint32_t last_end = open + 1;
  const auto add_comments = [&](const Taken& comments) {
    for (const Comment* c : comments) {
      items.push_back({comment_doc(*c), blank_line_between(last_end, c->range.begin.offset), true});
      last_end = std::max(last_end, c->range.end.offset);
    }
  };

  bool only_attributes = true;
  for (std::size_t i = 0; i < b.stmts.size(); ++i) {
    const Stmt& s = *b.stmts[i];
    add_comments(take_before(s.range.begin.offset));
    std::vector<Doc> parts;
    parts.push_back(stmt(s));
    const std::uint32_t limit = i + 1 < b.stmts.size() ? b.stmts[i + 1]->range.begin.offset : close;
    const Taken trailing = take_trailing(s.range.end, limit);
    append_trailing(parts, trailing);
    items.push_back(
        {doc::concat(std::move(parts)), blank_line_between(last_end, s.range.begin.offset), false});
    last_end = std::max(last_end, end_of(s.range.end.offset, trailing));
    only_attributes = only_attributes && s.kind == StmtKind::Attribute;
  }
  add_comments(take_before(close));

  if (items.empty() && after_open.empty()) return doc::text("{}");

  const bool has_comment_item =
      std::any_of(items.begin(), items.end(), [](const Item& item) { return item.is_comment; });
  if (may_be_one_line && only_attributes && after_open.empty() && !has_comment_item) {
    // `{ a = 1, b = 2 }` when it fits; else one attribute per line, no separators.
    std::vector<Doc> inner{doc::line()};
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) {
        inner.push_back(doc::if_break(doc::text(""), doc::text(",")));
        if (items[i].blank_before) inner.push_back(doc::softline());
        inner.push_back(doc::line());
      }
      inner.push_back(std::move(items[i].doc));
    }
    return doc::group({doc::text("{"), doc::nest(std::move(inner)), doc::line(), doc::text("}")});
  }

  std::vector<Doc> parts{doc::text("{")};
  append_trailing(parts, after_open);
  if (!items.empty()) {
    std::vector<Doc> inner;
    for (std::size_t i = 0; i < items.size(); ++i) {
      inner.push_back(doc::hardline());
      if (i > 0 && items[i].blank_before) inner.push_back(doc::hardline());
      inner.push_back(std::move(items[i].doc));
    }
    parts.push_back(doc::nest(std::move(inner)));
  }
  parts.push_back(doc::hardline());
  parts.push_back(doc::text("}"));
  return doc::concat(std::move(parts));
}

Doc Formatter::stmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Import: {
      const auto& i = static_cast<const ImportStmt&>(s);
      std::string text = "import " + (i.path ? string_text(*i.path, 0) : std::string("\"\""));
      if (i.alias) text += " as " + i.alias->name;
      return doc::text(std::move(text));
    }
    case StmtKind::Let: {
      const auto& l = static_cast<const LetStmt&>(s);
      return doc::concat({doc::text("let " + l.name.name + " = "), expr(*l.value, 0)});
    }
    case StmtKind::Template:
      return template_stmt(static_cast<const TemplateStmt&>(s));
    case StmtKind::For: {
      const auto& f = static_cast<const ForStmt&>(s);
      std::string head = "for " + f.var.name;
      if (f.second_var) head += ", " + f.second_var->name;
      head += " in ";
      std::vector<Doc> parts{doc::text(std::move(head)), expr(*f.iterable, 0), doc::text(" ")};
      parts.push_back(body(f.body, false));
      return doc::concat(std::move(parts));
    }
    case StmtKind::If:
      return if_chain(static_cast<const IfStmt&>(s));
    case StmtKind::Assert: {
      const auto& a = static_cast<const AssertStmt&>(s);
      std::vector<Doc> parts{doc::text("assert "), expr(*a.condition, 0)};
      if (a.message) {
        parts.push_back(doc::text(", "));
        parts.push_back(expr(*a.message, 0));
      }
      return doc::concat(std::move(parts));
    }
    case StmtKind::Use:
      return use_stmt(static_cast<const UseStmt&>(s));
    case StmtKind::Attribute: {
      const auto& a = static_cast<const AttributeStmt&>(s);
      return doc::concat({doc::text(attribute_name(a.name) + " = "), expr(*a.value, 0)});
    }
    case StmtKind::Block: {
      const auto& b = static_cast<const BlockStmt&>(s);
      std::string head = b.kind.name;
      for (const auto& label : b.labels) head += " " + string_text(*label, 0);
      if (b.in_label) head += " in " + string_text(*b.in_label, 0);
      head += " ";
      std::vector<Doc> parts{doc::text(std::move(head))};
      parts.push_back(body(b.body, true));
      return doc::concat(std::move(parts));
    }
  }
  return verbatim(s.range);
}

// `if c { } else if d { } else { }`, walked as a chain (an else-if chain is
// not bounded by the nesting limit).
Doc Formatter::if_chain(const IfStmt& s) {
  std::vector<Doc> parts{doc::text("if "), expr(*s.condition, 0), doc::text(" ")};
  parts.push_back(body(s.then_body, false));
  const IfStmt* current = &s;
  while (true) {
    if (current->else_if) {
      current = current->else_if.get();
      parts.push_back(doc::text(" else if "));
      parts.push_back(expr(*current->condition, 0));
      parts.push_back(doc::text(" "));
      parts.push_back(body(current->then_body, false));
      continue;
    }
    if (current->else_body) {
      parts.push_back(doc::text(" else "));
      parts.push_back(body(*current->else_body, false));
    }
    break;
  }
  return doc::concat(std::move(parts));
}

Doc Formatter::template_stmt(const TemplateStmt& s) {
  const auto& params = s.params;
  const std::uint32_t open =
      find_token(s.name.range.end.offset, '(', false).value_or(s.name.range.end.offset);
  std::uint32_t after_last = open + 1;
  if (!params.empty()) {
    const Param& last = params.back();
    after_last = last.default_value ? last.default_value->range.end.offset : last.name.range.end.offset;
  }
  const std::uint32_t close = find_token(after_last, ')', true).value_or(s.body.range.begin.offset);
  std::vector<Doc> parts{doc::text("template " + s.name.name)};
  parts.push_back(sequence(
      {"(", ")", false}, params.size(), open, close,
      [&](std::size_t i) { return params[i].name.range.begin.offset; },
      [&](std::size_t i) {
        return params[i].default_value ? params[i].default_value->range.end : params[i].name.range.end;
      },
      [&](std::size_t i) {
        if (!params[i].default_value) return doc::text(params[i].name.name);
        return doc::concat({doc::text(params[i].name.name + " = "), expr(*params[i].default_value, 1)});
      }));
  parts.push_back(doc::text(" "));
  parts.push_back(body(s.body, false));
  return doc::concat(std::move(parts));
}

Doc Formatter::use_stmt(const UseStmt& s) {
  std::string name;
  for (const auto& part : s.name) {
    if (!name.empty()) name += '.';
    name += part.name;
  }
  const std::uint32_t open =
      find_token(s.name_range.end.offset, '(', false).value_or(s.name_range.end.offset);
  const std::uint32_t end = s.range.end.offset;
  const bool ends_with_paren = end > 0 && end <= source_.text.size() && source_.text[end - 1] == ')';
  const std::uint32_t close = ends_with_paren ? end - 1 : end;
  return doc::concat({doc::text("use " + name), arguments(s.args, open, close, 0)});
}

// ---------------------------------------------------------------- expressions

Doc Formatter::operand(const Expr& e, bool parenthesize, int depth) {
  if (!parenthesize) return expr(e, depth);
  return doc::concat({doc::text("("), expr(e, depth), doc::text(")")});
}

Doc Formatter::expr(const Expr& e, int depth) {
  if (depth > kMaxExprDepth) return verbatim(e.range);
  switch (e.kind) {
    case ExprKind::Number:
      return doc::text(static_cast<const NumberExpr&>(e).text);
    case ExprKind::Duration:
      return doc::text(static_cast<const DurationExpr&>(e).text);
    case ExprKind::String:
      return doc::text(string_text(static_cast<const StringExpr&>(e), depth));
    case ExprKind::Bool:
      return doc::text(static_cast<const BoolExpr&>(e).value ? "true" : "false");
    case ExprKind::Null:
      return doc::text("null");
    case ExprKind::All:
      return doc::text("all");
    case ExprKind::Name:
      return doc::text(static_cast<const NameExpr&>(e).name);
    case ExprKind::List: {
      const auto& items = static_cast<const ListExpr&>(e).items;
      return sequence(
          {"[", "]", false}, items.size(), e.range.begin.offset,
          e.range.end.offset > 0 ? e.range.end.offset - 1 : 0,
          [&](std::size_t i) { return items[i]->range.begin.offset; },
          [&](std::size_t i) { return items[i]->range.end; },
          [&](std::size_t i) { return expr(*items[i], depth + 1); });
    }
    case ExprKind::Map: {
      const auto& entries = static_cast<const MapExpr&>(e).entries;
      return sequence(
          {"{", "}", true}, entries.size(), e.range.begin.offset,
          e.range.end.offset > 0 ? e.range.end.offset - 1 : 0,
          [&](std::size_t i) { return entries[i].key_range.begin.offset; },
          [&](std::size_t i) { return entries[i].value->range.end; },
          [&](std::size_t i) {
            const std::string key = entries[i].key_is_string ? quote(entries[i].key) : entries[i].key;
            return doc::concat({doc::text(key + ": "), expr(*entries[i].value, depth + 1)});
          });
    }
    case ExprKind::Comprehension:
      return comprehension(static_cast<const ComprehensionExpr&>(e), depth);
    case ExprKind::Field:
    case ExprKind::Index:
    case ExprKind::Call:
      return postfix(e, depth);
    case ExprKind::Unary: {
      const auto& u = static_cast<const UnaryExpr&>(e);
      const ExprKind k = u.operand->kind;
      return doc::concat(
          {doc::text(unary_spelling(u.op)),
           operand(*u.operand, k == ExprKind::Binary || k == ExprKind::Conditional, depth + 1)});
    }
    case ExprKind::Binary:
      return binary(static_cast<const BinaryExpr&>(e), depth);
    case ExprKind::Conditional:
      return conditional(static_cast<const ConditionalExpr&>(e), depth);
    case ExprKind::Paren:
      return doc::concat(
          {doc::text("("), expr(*static_cast<const ParenExpr&>(e).inner, depth + 1), doc::text(")")});
    case ExprKind::Error:
      return verbatim(e.range);
  }
  return verbatim(e.range);
}

// `a + b - c`: the left spine is walked in a loop, so a long chain of
// operators costs no recursion. Parentheses come from ParenExpr; the only ones
// added are those a hand-built tree would need to keep its meaning.
Doc Formatter::binary(const BinaryExpr& e, int depth) {
  std::vector<const BinaryExpr*> chain;
  const Expr* leftmost = &e;
  while (leftmost->kind == ExprKind::Binary) {
    chain.push_back(static_cast<const BinaryExpr*>(leftmost));
    leftmost = chain.back()->left.get();
  }
  std::vector<Doc> parts;
  parts.push_back(operand(*leftmost, leftmost->kind == ExprKind::Conditional, depth + 1));
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const BinaryExpr& b = **it;
    const Expr& right = *b.right;
    const bool parenthesize = right.kind == ExprKind::Conditional ||
                              (right.kind == ExprKind::Binary &&
                               precedence(static_cast<const BinaryExpr&>(right).op) <= precedence(b.op));
    parts.push_back(doc::text(std::string(" ") + spelling(b.op) + " "));
    parts.push_back(operand(right, parenthesize, depth + 1));
  }
  return doc::concat(std::move(parts));
}

// `a ? b : c ? d : e`: the else spine is walked in a loop.
Doc Formatter::conditional(const ConditionalExpr& e, int depth) {
  std::vector<Doc> parts;
  const Expr* current = &e;
  while (current->kind == ExprKind::Conditional) {
    const auto& c = static_cast<const ConditionalExpr&>(*current);
    parts.push_back(operand(*c.condition, c.condition->kind == ExprKind::Conditional, depth + 1));
    parts.push_back(doc::text(" ? "));
    parts.push_back(expr(*c.then_value, depth + 1));
    parts.push_back(doc::text(" : "));
    current = c.else_value.get();
  }
  parts.push_back(expr(*current, depth + 1));
  return doc::concat(std::move(parts));
}

// `a.b[c](d)`: the object spine is walked in a loop.
Doc Formatter::postfix(const Expr& e, int depth) {
  std::vector<const Expr*> chain;
  const Expr* base = &e;
  while (is_postfix(base->kind)) {
    chain.push_back(base);
    switch (base->kind) {
      case ExprKind::Field:
        base = static_cast<const FieldExpr*>(base)->object.get();
        break;
      case ExprKind::Index:
        base = static_cast<const IndexExpr*>(base)->object.get();
        break;
      default:
        base = static_cast<const CallExpr*>(base)->callee.get();
        break;
    }
  }
  const ExprKind k = base->kind;
  std::vector<Doc> parts;
  parts.push_back(
      operand(*base, k == ExprKind::Unary || k == ExprKind::Binary || k == ExprKind::Conditional, depth + 1));
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Expr& link = **it;
    switch (link.kind) {
      case ExprKind::Field:
        parts.push_back(doc::text("." + static_cast<const FieldExpr&>(link).field.name));
        break;
      case ExprKind::Index:
        parts.push_back(doc::text("["));
        parts.push_back(expr(*static_cast<const IndexExpr&>(link).index, depth + 1));
        parts.push_back(doc::text("]"));
        break;
      default: {
        const auto& call = static_cast<const CallExpr&>(link);
        const std::uint32_t callee_end = call.callee->range.end.offset;
        const std::uint32_t open = find_token(callee_end, '(', false).value_or(callee_end);
        const std::uint32_t close = call.range.end.offset > 0 ? call.range.end.offset - 1 : 0;
        parts.push_back(arguments(call.args, open, close, depth));
        break;
      }
    }
  }
  return doc::concat(std::move(parts));
}

Doc Formatter::comprehension(const ComprehensionExpr& e, int depth) {
  std::string head = "for " + e.var.name;
  if (e.second_var) head += ", " + e.second_var->name;
  head += " in ";
  std::vector<Doc> inner{doc::softline(), expr(*e.element, depth + 1), doc::line(),
                         doc::text(std::move(head)), expr(*e.iterable, depth + 1)};
  if (e.condition) {
    inner.push_back(doc::line());
    inner.push_back(doc::text("if "));
    inner.push_back(expr(*e.condition, depth + 1));
  }
  return doc::group({doc::text("["), doc::nest(std::move(inner)), doc::softline(), doc::text("]")});
}

// A string literal, re-escaped; interpolations are formatted on one line
// (a string cannot span lines).
std::string Formatter::string_text(const StringExpr& s, int depth) {
  std::string out = "\"";
  std::string literal = s.literal;  // adjacent literal parts are escaped together (`$` + `{`)
  for (const StringPart& part : s.parts) {
    if (!part.expr) {
      literal += part.literal;
      continue;
    }
    append_escaped(out, literal);
    literal.clear();
    ++interpolation_depth_;
    const Doc inner = expr(*part.expr, depth + 1);
    --interpolation_depth_;
    out += "${" + doc::print(inner, kUnlimitedWidth).text + "}";
  }
  append_escaped(out, literal);
  out += '"';
  return out;
}

}  // namespace

std::string format_file(const File& file, const diag::SourceFile& source) {
  return Formatter(file, source).run();
}

std::string quote_literal(std::string_view text) {
  std::string out = "\"";
  append_escaped(out, text);
  out += '"';
  return out;
}

}  // namespace mkq::syntax
