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
#include "compiler/syntax/parse_route.h"
#include "grammar_generator.h"

namespace fs = std::filesystem;

namespace mkq::syntax {
namespace {

using diag::SourceRange;
using detail::Engine;
using detail::ParseRoute;

// ------------------------------------------------------------------ a dump of everything

// The sources of the parse being dumped: every range must be what
// SourceManager::range gives for its offsets (TextPiece computes ranges itself).
const diag::SourceManager* current_sources = nullptr;

std::string at(const SourceRange& r) {
  if (current_sources != nullptr && r.valid() &&
      !(r == current_sources->range(r.file, r.begin.offset, r.end.offset))) {
    FAIL("range " << r.begin.offset << "-" << r.end.offset << " differs from SourceManager::range");
  }
  return "@" + std::to_string(r.file) + ":" + std::to_string(r.begin.offset) + "-" + std::to_string(r.end.offset);
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
      out += " \"" + static_cast<const StringExpr*>(e)->literal + "\"";
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
  ParseRoute route{engine};
  const auto ast = detail::parse_file_via(sources, file, diagnostics, route);
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

// What parse_file_deferred() gives for `text`, each deferred block parsed by
// DeferredBlocks::parse() in its place, as outcome() writes it; "<retry>" when
// a deferred block does not parse (sema::analyze() then parses the file with
// parse_file()). `deferred` receives how many blocks were deferred.
std::string outcome_deferred(const std::string& text, std::size_t& deferred) {
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  sources.add("other.mkq", "x = 1\n");
  const auto file = sources.add("test.mkq", text);
  DeferredBlocks blocks;
  const auto ast = parse_file_deferred(sources, file, diagnostics, blocks);
  deferred = 0;
  if (ast != nullptr) {
    for (std::size_t i = 0; i < ast->stmts.size(); ++i) {
      if (!blocks.deferred(i)) continue;
      ++deferred;
      const auto& shell = static_cast<const BlockStmt&>(*ast->stmts[i]);
      if (!shell.body.stmts.empty()) return "<deferred block with a body>";
      auto parsed = blocks.parse(shell);
      if (parsed == nullptr) return "<retry>";
      ast->stmts[i] = std::move(parsed);
    }
  }
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
  ParseRoute route;
  return detail::parse_file_via(sources, file, diagnostics, route) != nullptr && !route.used_antlr;
}

// True when the ANTLR path parses `text` without an error.
bool antlr_accepts(const std::string& text) {
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  const auto file = sources.add("test.mkq", text);
  ParseRoute route{Engine::AntlrOnly};
  return detail::parse_file_via(sources, file, diagnostics, route) != nullptr && !diagnostics.has_errors();
}

// Deferring blocks changes nothing: parse_file_deferred() with every deferred
// block parsed gives what parse_file() gives, or a deferred block does not
// parse and parse_file() needs ANTLR for the file (it reports why, or the
// fast path could not decide alone).
#define CHECK_DEFERRED_SAME(text)                                                 \
  do {                                                                            \
    const std::string deferred_input_ = (text);                                   \
    INFO("input: <<<" << deferred_input_ << ">>>");                               \
    std::size_t deferred_count_ = 0;                                              \
    const std::string deferred_ = outcome_deferred(deferred_input_, deferred_count_); \
    if (deferred_ == "<retry>") {                                                 \
      REQUIRE_FALSE(fast_path_handles(deferred_input_));                          \
    } else {                                                                      \
      REQUIRE(deferred_ == outcome(deferred_input_, Engine::FastPathFirst));      \
    }                                                                             \
  } while (false)

#define CHECK_SAME_AS_ANTLR(text)                                                 \
  do {                                                                            \
    const std::string input_ = (text);                                            \
    INFO("input: <<<" << input_ << ">>>");                                        \
    REQUIRE(outcome(input_, Engine::FastPathFirst) == outcome(input_, Engine::AntlrOnly)); \
    CHECK_DEFERRED_SAME(input_);                                                  \
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

using mkq::syntax::antlr_accepts;
using mkq::syntax::corpus;
using mkq::syntax::fast_path_handles;
using mkq::syntax::kMaxNestingDepth;
using mkq::syntax::mutate;
using mkq::syntax::outcome;
using mkq::syntax::outcome_deferred;
using mkq::syntax::detail::Engine;
namespace programs = mkq::syntax::grammar_programs;
using mkq::syntax::soup;

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
        "\xEF\xBB\xBFx = \"é ${ a }\" // é\n/* é */", "a { assert a; }", "assert a, \"m\", b = 1",
        ", x = 1,, y = 2; , assert a, b,, c {, }"}) {
    INFO(text);
    CHECK(fast_path_handles(text));
    CHECK_SAME_AS_ANTLR(text);
  }
}

TEST_CASE("fast path: top-level blocks deferred, then parsed one by one, give the same tree", "[syntax][fast]") {
  std::size_t deferred = 0;
  const std::string policy =
      "// a policy\nlet n = 2\nworker \"w\" in \"ns\" { cpu = n, memory = 2Gi /* c */ }\n"
      "clusterqueue \"q\" \"${n}\" {\n  quota \"cpu\" { cpu = 4 }\n  localqueue \"lq\" in \"t\" {}\n  m = {a: {b: 1}}\n}\n"
      "for x in [1] { flavor \"f${x}\" {} }\nassert n > 1, \"m\"\n";
  CHECK(outcome_deferred(policy, deferred) == outcome(policy, Engine::FastPathFirst));
  CHECK(deferred == 2);  // the worker and the clusterqueue; the flavor is in a `for`
  {
    mkq::diag::SourceManager sources;
    mkq::diag::Diagnostics diagnostics;
    mkq::syntax::DeferredBlocks blocks;
    const auto ast = mkq::syntax::parse_file_deferred(sources, sources.add("p.mkq", policy), diagnostics, blocks);
    REQUIRE(ast != nullptr);
    CHECK(blocks.nested("localqueue") == 1);
    CHECK(blocks.nested("quota") == 1);
    CHECK(blocks.nested("m") == 0);
  }
  // A block holding an import or a template is parsed at once (check_placement()
  // reports it before evaluation runs any block).
  CHECK(outcome_deferred("a { import \"x\" }\nb { template t() {} }\nc {}", deferred) ==
        outcome("a { import \"x\" }\nb { template t() {} }\nc {}", Engine::FastPathFirst));
  CHECK(deferred == 1);
  // A syntax error inside a deferred block is found when it is parsed.
  for (const std::string text : {"a { x = }", "a { x = 1 +\n}\nb {}", "a { \"${n}\" = 1 }", "a {\n} }"}) {
    INFO(text);
    CHECK_DEFERRED_SAME(text);
  }
  CHECK(outcome_deferred("ok {}\na { x = }", deferred) == "<retry>");
}

TEST_CASE("fast path: gives up where ANTLR must report", "[syntax][fast]") {
  for (const std::string text :
       {"x = 1 +", "x = &a", "x = 36GB", "x = 1s1h", "x = \"abc", "/* open", "assert a, b in \"n\" {}",
        "a { assert a,\n}", "assert a, b = 1", "x = \"${a\\}\"", "\"${a}\" = 1", "m = {\"${a}\": 1}",
        "x = 1\n}", "x = (1", "# comment"}) {
    INFO(text);
    CHECK_FALSE(fast_path_handles(text));
    CHECK_SAME_AS_ANTLR(text);
  }
}

namespace {

const programs::Grammar& mkq_grammar() {
  static const programs::Grammar grammar = programs::Grammar::read(MKQ_SOURCE_DIR "/lang/grammar/Mkq.g4");
  return grammar;
}

}  // namespace

TEST_CASE("grammar programs: Mkq.g4 is read whole, and only its error tokens cannot be spelled", "[syntax][fast]") {
  const auto& rules = mkq_grammar().parser_rules();
  for (const char* rule : {"file", "stmt", "assertStmt", "body", "expr", "primary", "comprehensionTail", "ident"}) {
    INFO(rule);
    CHECK(rules.count(rule) == 1);
  }
  CHECK(rules.at("expr").items.size() == 13);  // the alternatives of expr, one per precedence level
  CHECK(mkq_grammar().literal("ASSERT") == "assert");
  CHECK(mkq_grammar().literal("NE") == "!=");
  CHECK(mkq_grammar().literal("STRING").empty());
  programs::Generator generator(mkq_grammar(), 1);
  // A token added to the grammar needs samples in grammar_generator.h to be generated.
  CHECK(generator.unspellable_tokens() == std::set<std::string>{"BAD_NUMBER", "UNTERMINATED_STRING"});
}

TEST_CASE("fast path: programs generated from the grammar parse as with ANTLR", "[syntax][fast]") {
  programs::Generator generator(mkq_grammar(), 20240611);
  std::size_t valid = 0;
  constexpr int kPrograms = 1500;
  for (int i = 0; i < kPrograms; ++i) {
    const std::string text = generator.text("file");
    CHECK_SAME_AS_ANTLR(text);
    // Whatever ANTLR accepts, the fast path parses by itself.
    if (antlr_accepts(text)) {
      ++valid;
      INFO("input: <<<" << text << ">>>");
      CHECK(fast_path_handles(text));
    }
  }
  // The rest have errors the generator makes on purpose: an interpolated quoted
  // name (E1015), an unknown escape (E1006).
  CHECK(valid * 100 >= kPrograms * 70);
  for (int i = 0; i < 500; ++i) CHECK_SAME_AS_ANTLR("x = " + generator.text("expr"));
  // Every alternative of every rule was taken at least once.
  for (const auto& alternative : generator.generable_alternatives()) {
    INFO(alternative);
    CHECK(generator.alternatives_used().count(alternative) == 1);
  }
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
