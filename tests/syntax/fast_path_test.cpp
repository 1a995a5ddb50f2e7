// The fast path of parse_file() (compiler/syntax/fast_path.h) against the ANTLR
// path: for every input — the project's policies, generated valid programs,
// token soup, random mutations — both must give the same AST with the same
// ranges, the same comments and the same diagnostics. And the fast path must
// really handle valid input on its own.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/parse.h"
#include "compiler/syntax/parse_testing.h"

namespace fs = std::filesystem;

namespace mkq::syntax {
namespace {

using diag::SourceRange;
using testing::Engine;

// ------------------------------------------------------------------ a dump of everything

// The sources of the parse being dumped: every range must be what
// SourceManager::range gives for its offsets (TextPiece computes ranges itself).
const diag::SourceManager* current_sources = nullptr;

std::string at(const SourceRange& r) {
  if (current_sources != nullptr && r.valid() &&
      !(r == current_sources->range(r.file, r.begin.offset, r.end.offset))) {
    FAIL("range " << r.begin.offset << "-" << r.end.offset << " differs from SourceManager::range");
  }
  return "@" + std::to_string(r.file) + ":" + std::to_string(r.begin.line) + "." +
         std::to_string(r.begin.column) + "/" + std::to_string(r.begin.offset) + "-" +
         std::to_string(r.end.line) + "." + std::to_string(r.end.column) + "/" + std::to_string(r.end.offset);
}

std::string id(const Identifier& i) { return "'" + i.name + "'" + at(i.range); }
std::string dump(const Expr* e);
std::string dump(const Stmt* s);

std::string dump(const Body& b) {
  std::string out = "{" + at(b.range);
  for (const auto& s : b.stmts) out += " " + dump(s.get());
  return out + "}";
}

std::string dump(const std::vector<Argument>& args) {
  std::string out;
  for (const auto& a : args) out += " " + (a.name ? id(*a.name) + "=" : std::string()) + dump(a.value.get());
  return out;
}

std::string dump(const Expr* e) {
  if (e == nullptr) return "<null>";
  std::string out = "(" + std::to_string(static_cast<int>(e->kind)) + at(e->range);
  switch (e->kind) {
    case ExprKind::Number:
      out += " " + static_cast<const NumberExpr*>(e)->text;
      break;
    case ExprKind::Duration:
      out += " " + static_cast<const DurationExpr*>(e)->text;
      break;
    case ExprKind::String:
      for (const auto& part : static_cast<const StringExpr*>(e)->parts) {
        out += " [" + part.literal + "|" + dump(part.expr.get()) + at(part.range) + "]";
      }
      break;
    case ExprKind::Bool:
      out += static_cast<const BoolExpr*>(e)->value ? " true" : " false";
      break;
    case ExprKind::Name:
      out += " " + static_cast<const NameExpr*>(e)->name;
      break;
    case ExprKind::List:
      for (const auto& item : static_cast<const ListExpr*>(e)->items) out += " " + dump(item.get());
      break;
    case ExprKind::Map:
      for (const auto& entry : static_cast<const MapExpr*>(e)->entries) {
        out += " " + entry.key + (entry.key_is_string ? "(s)" : "") + at(entry.key_range) + ":" +
               dump(entry.value.get());
      }
      break;
    case ExprKind::Comprehension: {
      const auto* c = static_cast<const ComprehensionExpr*>(e);
      out += " " + dump(c->element.get()) + " " + id(c->var) + (c->second_var ? id(*c->second_var) : "-") +
             " " + dump(c->iterable.get()) + " " + dump(c->condition.get());
      break;
    }
    case ExprKind::Field: {
      const auto* f = static_cast<const FieldExpr*>(e);
      out += " " + dump(f->object.get()) + " " + id(f->field);
      break;
    }
    case ExprKind::Index: {
      const auto* i = static_cast<const IndexExpr*>(e);
      out += " " + dump(i->object.get()) + " " + dump(i->index.get());
      break;
    }
    case ExprKind::Call: {
      const auto* c = static_cast<const CallExpr*>(e);
      out += " " + dump(c->callee.get()) + dump(c->args);
      break;
    }
    case ExprKind::Unary: {
      const auto* u = static_cast<const UnaryExpr*>(e);
      out += std::string(u->op == UnaryOp::Not ? " !" : " -") + dump(u->operand.get());
      break;
    }
    case ExprKind::Binary: {
      const auto* b = static_cast<const BinaryExpr*>(e);
      out += std::string(" ") + spelling(b->op) + at(b->op_range) + " " + dump(b->left.get()) + " " +
             dump(b->right.get());
      break;
    }
    case ExprKind::Conditional: {
      const auto* c = static_cast<const ConditionalExpr*>(e);
      out +=
          " " + dump(c->condition.get()) + " " + dump(c->then_value.get()) + " " + dump(c->else_value.get());
      break;
    }
    case ExprKind::Paren:
      out += " " + dump(static_cast<const ParenExpr*>(e)->inner.get());
      break;
    default:
      break;
  }
  return out + ")";
}

std::string dump_if(const IfStmt* s) {
  return "(if" + at(s->range) + " " + dump(s->condition.get()) + " " + dump(s->then_body) +
         (s->else_if ? " elif " + dump_if(s->else_if.get()) : "") +
         (s->else_body ? " else " + dump(*s->else_body) : "") + ")";
}

std::string dump(const Stmt* s) {
  if (s == nullptr) return "<null>";
  std::string out = "[" + std::to_string(static_cast<int>(s->kind)) + at(s->range);
  switch (s->kind) {
    case StmtKind::Import: {
      const auto* i = static_cast<const ImportStmt*>(s);
      out += " " + dump(i->path.get()) + (i->alias ? " as " + id(*i->alias) : "");
      break;
    }
    case StmtKind::Let: {
      const auto* l = static_cast<const LetStmt*>(s);
      out += " " + id(l->name) + " " + dump(l->value.get());
      break;
    }
    case StmtKind::Template: {
      const auto* t = static_cast<const TemplateStmt*>(s);
      out += " " + id(t->name);
      for (const auto& p : t->params) out += " " + id(p.name) + "=" + dump(p.default_value.get());
      out += " " + dump(t->body);
      break;
    }
    case StmtKind::For: {
      const auto* f = static_cast<const ForStmt*>(s);
      out += " " + id(f->var) + (f->second_var ? id(*f->second_var) : "-") + " " + dump(f->iterable.get()) +
             " " + dump(f->body);
      break;
    }
    case StmtKind::If:
      out += " " + dump_if(static_cast<const IfStmt*>(s));
      break;
    case StmtKind::Assert: {
      const auto* a = static_cast<const AssertStmt*>(s);
      out += " " + dump(a->condition.get()) + " " + dump(a->message.get());
      break;
    }
    case StmtKind::Use: {
      const auto* u = static_cast<const UseStmt*>(s);
      for (const auto& part : u->name) out += " " + id(part);
      out += at(u->name_range) + dump(u->args);
      break;
    }
    case StmtKind::Attribute: {
      const auto* a = static_cast<const AttributeStmt*>(s);
      out += " " + id(a->name) + " " + dump(a->value.get());
      break;
    }
    case StmtKind::Block: {
      const auto* b = static_cast<const BlockStmt*>(s);
      out += " " + id(b->kind);
      for (const auto& label : b->labels) out += " " + dump(label.get());
      out += " in " + dump(b->in_label.get()) + " " + dump(b->body);
      break;
    }
  }
  return out + "]";
}

std::string dump(const diag::Diagnostics& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics.items()) {
    out += std::to_string(static_cast<int>(d.severity)) + d.code + at(d.range) + " " + d.message + "\n";
    for (const auto& note : d.notes)
      out += "  note " + note.message + (note.range ? at(*note.range) : "") + "\n";
    for (const auto& s : d.suggestions) {
      out += "  fix " + s.message + (s.range ? at(*s.range) : "") + " " + s.replacement + "\n";
    }
  }
  return out;
}

// Everything parse_file() gives for `text` with one engine.
std::string outcome(const std::string& text, Engine engine) {
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  sources.add("other.mkq", "x = 1\n");  // ranges must name the right file
  const auto file = sources.add("test.mkq", text);
  const auto ast = testing::parse_file_with(sources, file, diagnostics, engine);
  current_sources = &sources;
  std::string out = dump(diagnostics);
  if (ast == nullptr) {
    out += "<no AST>";
  } else {
    out += "file " + std::to_string(ast->file) + "\n";
    for (const auto& s : ast->stmts) out += dump(s.get()) + "\n";
    for (const auto& c : ast->comments)
      out += "comment " + c.text + at(c.range) + (c.is_block ? " block" : "") + "\n";
  }
  current_sources = nullptr;
  return out;
}

// True when the fast path alone handles `text` (then it must agree with ANTLR).
bool fast_path_handles(const std::string& text) {
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  const auto file = sources.add("test.mkq", text);
  return testing::parse_file_with(sources, file, diagnostics, Engine::FastOnly) != nullptr;
}

#define CHECK_SAME_AS_ANTLR(text)                                                 \
  do {                                                                            \
    const std::string input_ = (text);                                            \
    INFO("input: <<<" << input_ << ">>>");                                        \
    REQUIRE(outcome(input_, Engine::Auto) == outcome(input_, Engine::AntlrOnly)); \
  } while (false)

std::vector<std::string> corpus() {
  std::vector<std::string> texts;
  const fs::path root = MKQ_SOURCE_DIR;
  for (const char* dir : {"examples", "stdlib/std", "tests/lang", "editors/vscode/test", "docs"}) {
    if (!fs::exists(root / dir)) continue;
    std::vector<fs::path> paths;
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      if (entry.path().extension() == ".mkq") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    for (const auto& path : paths) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      texts.push_back(buffer.str());
    }
  }
  return texts;
}

// ------------------------------------------------------------------ generated valid programs

class Generator {
 public:
  explicit Generator(unsigned seed) : rng_(seed) {}

  std::string program() {
    std::string out;
    const int n = 1 + pick(6);
    for (int i = 0; i < n; ++i) out += stmt(0) + gap();
    return out;
  }

  std::string expression() { return expr(0); }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }
  bool chance(int percent) { return pick(100) < percent; }

  std::string gap() {
    static const std::vector<std::string> gaps = {
        " ", "\n", "  ", "\t", "\r\n", " // note\n", " /* c */ ", "\n\n", "/* multi\nline é */", " ;", ","};
    return gaps[static_cast<std::size_t>(pick(static_cast<int>(gaps.size())))];
  }
  std::string space() { return chance(80) ? " " : (chance(50) ? "\n" : " /*x*/ "); }

  std::string name() {
    static const std::vector<std::string> names = {"a",     "b_2",       "cpu",  "worker", "flavor",
                                                   "kueue", "namespace", "_x",   "access", "integration",
                                                   "In",    "iff",       "nullx"};
    return names[static_cast<std::size_t>(pick(static_cast<int>(names.size())))];
  }

  std::string string(int depth) {
    static const std::vector<std::string> parts = {"abc", "é",  "\\\"", "\\\\", "\\n", "\\$", "$",
                                                   "$a",  "$$", " ",    "{",    "}",   "\\q", "日本"};
    std::string out = "\"";
    const int n = pick(4);
    for (int i = 0; i < n; ++i) {
      if (depth < 3 && chance(20)) {
        out += "${" + interpolated(depth + 1) + "}";
      } else {
        out += parts[static_cast<std::size_t>(pick(static_cast<int>(parts.size())))];
      }
    }
    if (chance(10)) out += "$";
    return out + "\"";
  }

  // An expression without '"', '}' and line breaks, as `${...}` requires.
  std::string interpolated(int depth) {
    static const std::vector<std::string> simple = {"a",  "a.b",       "x + 1",  "f(a, 2)", "xs[0]",
                                                    "-n", "a ? b : c", "[1, 2]", "(a)",     " a "};
    (void)depth;
    return simple[static_cast<std::size_t>(pick(static_cast<int>(simple.size())))];
  }

  std::string number() {
    static const std::vector<std::string> numbers = {
        "0",   "9",       "1.5",   "500m", "36Gi", "2e3",  "1E",  "1Ei", "1e-3", "2E+4k", "30d",
        "90s", "1h30min", "250ms", "7Ki",  "3u",   "0.25", "12n", "4P",  "1min", "1d2h"};
    return numbers[static_cast<std::size_t>(pick(static_cast<int>(numbers.size())))];
  }

  std::string expr(int depth) {
    if (depth > 4) return chance(50) ? name() : number();
    switch (pick(depth < 2 ? 16 : 8)) {
      case 0:
        return name();
      case 1:
        return number();
      case 2:
        return string(depth);
      case 3:
        return chance(50) ? "true" : (chance(50) ? "null" : "all");
      case 4:
        return expr(depth + 1) + space() + binary_op() + space() + expr(depth + 1);
      case 5:
        return (chance(50) ? "-" : "!") + expr(depth + 1);
      case 6:
        return object(depth) + "." + name();
      case 7:
        return "(" + expr(depth + 1) + ")";
      case 8:
        return object(depth) + "[" + expr(depth + 1) + "]";
      case 9:
        return name() + "(" + args(depth) + ")";
      case 10:
        return expr(depth + 1) + " ? " + expr(depth + 1) + " : " + expr(depth + 1);
      case 11: {
        std::string out = "[";
        const int n = pick(4);
        for (int i = 0; i < n; ++i) out += (i > 0 ? ", " : "") + expr(depth + 1);
        if (n > 0 && chance(30)) out += ",";
        return out + "]";
      }
      case 12: {
        std::string out = "{";
        const int n = pick(4);
        for (int i = 0; i < n; ++i) {
          out += (i > 0 ? ", " : "") + (chance(50) ? name() : string(depth)) + ": " + expr(depth + 1);
        }
        if (n > 0 && chance(30)) out += ",";
        return out + "}";
      }
      case 13:
        return "[" + expr(depth + 1) + " for " + name() + (chance(30) ? ", " + name() : "") + " in " +
               expr(depth + 1) + (chance(40) ? " if " + expr(depth + 1) : "") + "]";
      case 14:
        return expr(depth + 1) + " in " + expr(depth + 1);
      default:
        return expr(depth + 1) + " " + binary_op() + " " + expr(depth + 1) + " " + binary_op() + " " +
               expr(depth + 1);
    }
  }

  // Something a '.' may follow without making a number token longer (`1.b`).
  std::string object(int depth) {
    switch (pick(5)) {
      case 0:
        return name();
      case 1:
        return name() + "(" + args(depth) + ")";
      case 2:
        return name() + "[" + expr(depth + 1) + "]." + name();
      case 3:
        return "-" + name() + ".x";
      default:
        return "(" + expr(depth + 1) + ")";
    }
  }

  std::string binary_op() {
    static const std::vector<std::string> ops = {
        "*", "/", "%", "+", "-", "<", "<=", ">", ">=", "==", "!=", "in", "&&", "||"};
    return ops[static_cast<std::size_t>(pick(static_cast<int>(ops.size())))];
  }

  std::string args(int depth) {
    std::string out;
    const int n = pick(4);
    for (int i = 0; i < n; ++i) {
      out += (i > 0 ? ", " : "") + (chance(40) ? name() + " = " : "") + expr(depth + 1);
    }
    if (n > 0 && chance(20)) out += ",";
    return out;
  }

  std::string body(int depth) {
    std::string out = "{";
    const int n = depth > 2 ? pick(2) : pick(4);
    for (int i = 0; i < n; ++i) out += gap() + stmt(depth + 1);
    return out + gap() + "}";
  }

  std::string stmt(int depth) {
    switch (pick(12)) {
      case 0:
        return "import " + string(3) + (chance(50) ? " as " + name() : "");
      case 1:
        return "let " + name() + " = " + expr(0);
      case 2: {
        std::string params;
        const int n = pick(3);
        for (int i = 0; i < n; ++i)
          params += (i > 0 ? ", " : "") + name() + (chance(50) ? " = " + expr(2) : "");
        if (n > 0 && chance(30)) params += ",";
        return "template " + name() + "(" + params + ") " + body(depth);
      }
      case 3:
        return "for " + name() + (chance(30) ? ", " + name() : "") + " in " + expr(1) + " " + body(depth);
      case 4: {
        std::string out = "if " + expr(1) + " " + body(depth);
        if (chance(40)) out += " else if " + expr(1) + " " + body(depth);
        if (chance(40)) out += " else " + body(depth);
        return out;
      }
      case 5: {
        static const std::vector<std::string> tails = {
            "",       ", \"message\"", ", \"m\" + x",     ", 3",       ", (a)",       ",",
            ", msg",  ", x.y",         ", f(1)",          ", a b = 1", ", \"k\" = 2", ", a = 1",
            ", w {}", ", w \"l\" {}",  ", w in \"n\" {}", ", a in b",  ", [1]",       ", -1",
            ", !a",   ", a\n\"k\" = 1"};
        return "assert " + expr(1) + tails[static_cast<std::size_t>(pick(static_cast<int>(tails.size())))];
      }
      case 6:
        return "use " + name() + (chance(30) ? "." + name() : "") + "(" + args(1) + ")";
      case 7:
        return name() + " = " + expr(0);
      case 8:
        return string(3) + " = " + expr(1);
      case 9:
        return ";";
      default: {
        std::string out = name();
        const int labels = pick(3);
        for (int i = 0; i < labels; ++i) out += " " + string(3);
        if (chance(20)) out += " in " + string(3);
        return out + " " + body(depth);
      }
    }
  }

  std::mt19937 rng_;
};

// ------------------------------------------------------------------ token soup and mutations

std::string soup(std::mt19937& rng) {
  static const std::vector<std::string> pieces = {"a",
                                                  "worker",
                                                  "in",
                                                  "let",
                                                  "import",
                                                  "as",
                                                  "if",
                                                  "else",
                                                  "for",
                                                  "assert",
                                                  "use",
                                                  "template",
                                                  "true",
                                                  "null",
                                                  "{",
                                                  "}",
                                                  "[",
                                                  "]",
                                                  "(",
                                                  ")",
                                                  ",",
                                                  ";",
                                                  ".",
                                                  ":",
                                                  "?",
                                                  "=",
                                                  "==",
                                                  "!",
                                                  "!=",
                                                  "<",
                                                  "<=",
                                                  ">",
                                                  ">=",
                                                  "+",
                                                  "-",
                                                  "*",
                                                  "/",
                                                  "%",
                                                  "&&",
                                                  "||",
                                                  "&",
                                                  "|",
                                                  "#",
                                                  "@",
                                                  "'",
                                                  "`",
                                                  "é",
                                                  "\xE2\x80\x9C",
                                                  "\xC2\xA0",
                                                  "\v",
                                                  "0",
                                                  "1.",
                                                  "1.5",
                                                  "1e",
                                                  "1e+",
                                                  "1e+5",
                                                  "1E",
                                                  "1Ei",
                                                  "1Ki",
                                                  "1K",
                                                  "1m",
                                                  "1ms",
                                                  "1min",
                                                  "1mi",
                                                  "1h30m",
                                                  "1s1h",
                                                  "1d2h3min4s5ms",
                                                  "36GB",
                                                  "1.5h",
                                                  "0x1F",
                                                  "1_000",
                                                  "2e3k",
                                                  "1..2",
                                                  "9Ei9",
                                                  "\"",
                                                  "\"a\"",
                                                  "\"a",
                                                  "\"\\",
                                                  "\"a\\\"",
                                                  "\"$\"",
                                                  "\"$$\"",
                                                  "\"${a}\"",
                                                  "\"${a\"",
                                                  "\"${\"}\"",
                                                  "\"${a\\}\"",
                                                  "\"${a}b${c.d}\"",
                                                  "\"$\\n\"",
                                                  "\"${}\"",
                                                  "\"${ }\"",
                                                  "\"${a b}\"",
                                                  "\"${1 +}\"",
                                                  "\"\\q\"",
                                                  "\"é\"",
                                                  "\"${\"",
                                                  "//",
                                                  "// c",
                                                  "/*",
                                                  "*/",
                                                  "/* c */",
                                                  "/**/",
                                                  "/*/",
                                                  "/* * / */",
                                                  " ",
                                                  " ",
                                                  " ",
                                                  "\n",
                                                  "\t",
                                                  "\r",
                                                  "\r\n",
                                                  "\f"};
  std::string out;
  const int n = 1 + static_cast<int>(rng() % 14);
  for (int i = 0; i < n; ++i) {
    out += pieces[rng() % pieces.size()];
    if (rng() % 3 == 0) out += " ";
  }
  return out;
}

std::string mutate(const std::string& text, std::mt19937& rng) {
  static const std::string bytes = " {}[]()\"=,.:;x0-!$\\\n/*";
  std::string out = text;
  const int steps = 1 + static_cast<int>(rng() % 3);
  for (int s = 0; s < steps && !out.empty(); ++s) {
    const std::size_t pos = rng() % out.size();
    switch (rng() % 4) {
      case 0:
        out.erase(pos, 1 + rng() % 8);
        break;
      case 1:
        out.insert(pos, 1, bytes[rng() % bytes.size()]);
        break;
      case 2:
        out[pos] = bytes[rng() % bytes.size()];
        break;
      default:
        out.insert(pos, out.substr(rng() % out.size(), 1 + rng() % 20));
        break;
    }
  }
  return out;
}

}  // namespace
}  // namespace mkq::syntax

using mkq::syntax::corpus;
using mkq::syntax::fast_path_handles;
using mkq::syntax::Generator;
using mkq::syntax::kMaxNestingDepth;
using mkq::syntax::mutate;
using mkq::syntax::outcome;
using mkq::syntax::soup;
using mkq::syntax::testing::Engine;

TEST_CASE("fast path: the project's policies parse as with ANTLR, most without ANTLR", "[syntax][fast]") {
  const auto texts = corpus();
  REQUIRE(texts.size() >= 20);
  std::size_t handled = 0;
  for (const auto& text : texts) {
    CHECK_SAME_AS_ANTLR(text);
    if (fast_path_handles(text)) ++handled;
  }
  // The error goldens do not take the fast path; everything else does.
  CHECK(handled * 2 >= texts.size());
}

TEST_CASE("fast path: handles valid input by itself", "[syntax][fast]") {
  for (const std::string text :
       {"", "x = 1", "worker \"w\" { cpu = 4, memory = 2Gi }",
        "a = -b.c * d[e](f, g = 1) + h ? i : j ? k : l", "let xs = [x * 2 for x, y in ys if x > 1]",
        "m = {a: 1, \"b\": \"${c} d\",}", "if a {} else if b {} else {}",
        "template t(a, b = 2,) { use m.t(a, b = 3,) }", "assert a, \"message\"", "assert a, b + 1",
        "import \"std/gpu\" as gpu", "x = 1e+5 + 1E + 2Ei + 250ms + 1h30min", "s = \"$\" + \"$$x\" + \"a$\"",
        "\xEF\xBB\xBFx = \"é ${ a }\" // é\n/* é */", "a { assert a,\n}"}) {
    INFO(text);
    CHECK(fast_path_handles(text));
    CHECK_SAME_AS_ANTLR(text);
  }
}

TEST_CASE("fast path: gives up where ANTLR must decide or report", "[syntax][fast]") {
  for (const std::string text :
       {"x = 1 +", "x = &a", "x = 36GB", "x = 1s1h", "x = \"abc", "/* open", "assert a, b in \"n\" {}",
        "x = \"${a\\}\"", "\"${a}\" = 1", "m = {\"${a}\": 1}", "x = 1\n}", "x = (1", "# comment"}) {
    INFO(text);
    CHECK_FALSE(fast_path_handles(text));
    CHECK_SAME_AS_ANTLR(text);
  }
}

TEST_CASE("fast path: generated valid programs parse as with ANTLR", "[syntax][fast]") {
  Generator generator(20240611);
  std::size_t handled = 0;
  constexpr int kPrograms = 1500;
  for (int i = 0; i < kPrograms; ++i) {
    const std::string text = generator.program();
    CHECK_SAME_AS_ANTLR(text);
    if (fast_path_handles(text)) ++handled;
  }
  // The rest have errors (E1015, generated on purpose) or an `assert c, x ...`
  // that only a longer look ahead decides (also on purpose).
  CHECK(handled * 100 >= kPrograms * 60);
  for (int i = 0; i < 500; ++i) CHECK_SAME_AS_ANTLR("x = " + generator.expression());
}

TEST_CASE("fast path: token soup and mutated policies give the same diagnostics as ANTLR", "[syntax][fast]") {
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) CHECK_SAME_AS_ANTLR(soup(rng));
  const auto texts = corpus();
  for (int i = 0; i < 1500; ++i) {
    CHECK_SAME_AS_ANTLR(mutate(texts[rng() % texts.size()], rng));
  }
}

TEST_CASE("fast path: numbers, strings and comments made of their special characters lex as with ANTLR",
          "[syntax][fast]") {
  std::mt19937 rng(11);
  const auto random_text = [&](const std::string& alphabet, std::size_t max_length) {
    std::string out;
    const std::size_t n = 1 + rng() % max_length;
    for (std::size_t i = 0; i < n; ++i) out += alphabet[rng() % alphabet.size()];
    return out;
  };
  for (int i = 0; i < 3000; ++i) {
    CHECK_SAME_AS_ANTLR("x = " + std::to_string(rng() % 100) +
                        random_text("0123456789.eE+-kKmMGiTPnusdhin_x", 8));
  }
  for (int i = 0; i < 3000; ++i) {
    CHECK_SAME_AS_ANTLR("x = \"" + random_text("a$${}}\\\\\"\" \n\t", 10) + "\" + 1");
  }
  for (int i = 0; i < 1000; ++i) CHECK_SAME_AS_ANTLR("x = 1 " + random_text("/*/* \nx", 12) + " y = 2");
}

TEST_CASE("fast path: limits are left to the ANTLR path", "[syntax][fast]") {
  const auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  CHECK_SAME_AS_ANTLR("x = " + repeat("(", kMaxNestingDepth) + "1" + repeat(")", kMaxNestingDepth));
  CHECK_SAME_AS_ANTLR("x = " + repeat("(", kMaxNestingDepth + 1) + "1" + repeat(")", kMaxNestingDepth + 1));
  // A chain of n operators is n + 1 levels deep; the Transformer allows 800.
  CHECK(fast_path_handles("x = 1" + repeat(" + 1", 799)));
  CHECK_FALSE(fast_path_handles("x = 1" + repeat(" + 1", 800)));
  for (const int n : {798, 799, 800, 801, 900}) CHECK_SAME_AS_ANTLR("x = 1" + repeat(" + 1", n));
  CHECK(fast_path_handles("a { b { x = 1" + repeat(" + 1", 797) + " } }"));
  CHECK_FALSE(fast_path_handles("a { b { x = 1" + repeat(" + 1", 798) + " } }"));
  for (const int n : {797, 798}) CHECK_SAME_AS_ANTLR("a { b { x = 1" + repeat(" + 1", n) + " } }");
  CHECK_SAME_AS_ANTLR("x = \"${1" + repeat(" + 1", 850) + "}\"");
  CHECK_SAME_AS_ANTLR(repeat("a {", 150) + "x = 1" + repeat(" + 1", 700) + repeat("}", 150));
  CHECK_SAME_AS_ANTLR("if a {}" + repeat(" else if a {}", kMaxNestingDepth - 1));
  CHECK_SAME_AS_ANTLR(repeat("x = \"\\q\"\n", 120));  // E1017 after 100 errors
}
