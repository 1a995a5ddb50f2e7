// The owned AST of a .mkq file.
//
// Built from the ANTLR parse tree by the hand-written transformer in parse.cpp;
// no ANTLR type appears here. Nodes are move-only, own their children through
// unique_ptr, and carry the source range of the text they came from. The tree
// keeps everything the formatter needs (comments are kept beside it in File).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/source.h"

namespace mkq::syntax {

using diag::FileId;
using diag::SourceRange;

struct Identifier {
  std::string name;
  SourceRange range;
};

// ------------------------------------------------------------------ expressions

enum class ExprKind {
  Number,         // 9, 1.5, 500m, 36Gi, 2e3 (text kept; sema makes it exact)
  Duration,       // 30d, 90s, 1h30min
  String,         // "text ${expr} text"
  Bool,
  Null,
  All,            // `all` (e.g. namespaces = all)
  Name,           // a reference to a let, a parameter or a loop variable
  List,
  Map,
  Comprehension,  // [expr for x in xs if cond]
  Field,          // object.field
  Index,          // object[index]
  Call,           // callee(args)
  Unary,
  Binary,
  Conditional,    // cond ? a : b
  Paren,          // (expr), kept so that the formatter reproduces it
  Error,          // an invalid literal already reported by the parser
};

struct Expr {
  explicit Expr(ExprKind k, SourceRange r) : kind(k), range(r) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  const ExprKind kind;
  SourceRange range;
};
using ExprPtr = std::unique_ptr<Expr>;

struct NumberExpr final : Expr {
  NumberExpr(SourceRange r, std::string t) : Expr(ExprKind::Number, r), text(std::move(t)) {}
  std::string text;
};

struct DurationExpr final : Expr {
  DurationExpr(SourceRange r, std::string t) : Expr(ExprKind::Duration, r), text(std::move(t)) {}
  std::string text;
};

// One piece of a string: literal text (escapes already decoded) or an
// interpolated expression `${...}`.
struct StringPart {
  std::string literal;  // used when expr is null
  ExprPtr expr;
  SourceRange range;    // of the literal text, or of `${...}` including the braces
};

struct StringExpr final : Expr {
  explicit StringExpr(SourceRange r) : Expr(ExprKind::String, r) {}
  // A string without interpolation (nearly every one: labels, names, keys)
  // is its decoded text in `literal`, with `parts` empty, so that it costs no
  // array of parts. A string with interpolation has every piece in `parts`,
  // in order, and `literal` empty.
  std::string literal;
  std::vector<StringPart> parts;
  // True when the string has no interpolation: then literal_value() is the value.
  bool is_literal() const;
  std::string literal_value() const;  // concatenated literal parts
};

struct BoolExpr final : Expr {
  BoolExpr(SourceRange r, bool v) : Expr(ExprKind::Bool, r), value(v) {}
  bool value;
};

struct NullExpr final : Expr {
  explicit NullExpr(SourceRange r) : Expr(ExprKind::Null, r) {}
};

struct AllExpr final : Expr {
  explicit AllExpr(SourceRange r) : Expr(ExprKind::All, r) {}
};

struct NameExpr final : Expr {
  NameExpr(SourceRange r, std::string n) : Expr(ExprKind::Name, r), name(std::move(n)) {}
  std::string name;
};

struct ListExpr final : Expr {
  explicit ListExpr(SourceRange r) : Expr(ExprKind::List, r) {}
  std::vector<ExprPtr> items;
};

struct MapEntry {
  std::string key;        // the key's value (a string literal's text or an identifier)
  bool key_is_string = false;  // written "key" (true) or key (false)
  SourceRange key_range;
  ExprPtr value;
};

struct MapExpr final : Expr {
  explicit MapExpr(SourceRange r) : Expr(ExprKind::Map, r) {}
  std::vector<MapEntry> entries;
};

struct ComprehensionExpr final : Expr {
  explicit ComprehensionExpr(SourceRange r) : Expr(ExprKind::Comprehension, r) {}
  ExprPtr element;
  Identifier var;
  std::optional<Identifier> second_var;  // `for k, v in map` / `for i, x in list`
  ExprPtr iterable;
  ExprPtr condition;                     // may be null
};

struct FieldExpr final : Expr {
  explicit FieldExpr(SourceRange r) : Expr(ExprKind::Field, r) {}
  ExprPtr object;
  Identifier field;
};

struct IndexExpr final : Expr {
  explicit IndexExpr(SourceRange r) : Expr(ExprKind::Index, r) {}
  ExprPtr object;
  ExprPtr index;
};

// A call argument, positional or named (`name = value`).
struct Argument {
  std::optional<Identifier> name;
  ExprPtr value;
};

struct CallExpr final : Expr {
  explicit CallExpr(SourceRange r) : Expr(ExprKind::Call, r) {}
  ExprPtr callee;
  std::vector<Argument> args;
};

enum class UnaryOp { Negate, Not };

struct UnaryExpr final : Expr {
  explicit UnaryExpr(SourceRange r) : Expr(ExprKind::Unary, r) {}
  UnaryOp op = UnaryOp::Negate;
  ExprPtr operand;
};

enum class BinaryOp { Mul, Div, Mod, Add, Sub, Lt, Le, Gt, Ge, Eq, Ne, In, And, Or };

// The operator as written ("*", "&&", "in", ...).
const char* spelling(BinaryOp op);
// Binding strength, higher binds tighter (Mul=7 ... Or=1); used by the formatter.
int precedence(BinaryOp op);

struct BinaryExpr final : Expr {
  explicit BinaryExpr(SourceRange r) : Expr(ExprKind::Binary, r) {}
  BinaryOp op = BinaryOp::Add;
  SourceRange op_range;
  ExprPtr left;
  ExprPtr right;
};

struct ConditionalExpr final : Expr {
  explicit ConditionalExpr(SourceRange r) : Expr(ExprKind::Conditional, r) {}
  ExprPtr condition;
  ExprPtr then_value;
  ExprPtr else_value;
};

struct ParenExpr final : Expr {
  explicit ParenExpr(SourceRange r) : Expr(ExprKind::Paren, r) {}
  ExprPtr inner;
};

struct ErrorExpr final : Expr {
  explicit ErrorExpr(SourceRange r) : Expr(ExprKind::Error, r) {}
};

// ------------------------------------------------------------------ statements

enum class StmtKind { Import, Let, Template, For, If, Assert, Use, Attribute, Block };

struct Stmt {
  explicit Stmt(StmtKind k, SourceRange r) : kind(k), range(r) {}
  virtual ~Stmt() = default;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  const StmtKind kind;
  SourceRange range;
};
using StmtPtr = std::unique_ptr<Stmt>;

// `{ ... }`: range covers both braces.
struct Body {
  std::vector<StmtPtr> stmts;
  SourceRange range;
};

// import "std/gpu" as gpu   |   import "./teams.mkq"
struct ImportStmt final : Stmt {
  explicit ImportStmt(SourceRange r) : Stmt(StmtKind::Import, r) {}
  std::unique_ptr<StringExpr> path;
  std::optional<Identifier> alias;
};

struct LetStmt final : Stmt {
  explicit LetStmt(SourceRange r) : Stmt(StmtKind::Let, r) {}
  Identifier name;
  ExprPtr value;
};

struct Param {
  Identifier name;
  ExprPtr default_value;  // may be null
};

// template team(name, cpu = 4) { ...statements... }
struct TemplateStmt final : Stmt {
  explicit TemplateStmt(SourceRange r) : Stmt(StmtKind::Template, r) {}
  Identifier name;
  std::vector<Param> params;
  Body body;
};

// for x in xs { ... }   |   for k, v in map { ... }
struct ForStmt final : Stmt {
  explicit ForStmt(SourceRange r) : Stmt(StmtKind::For, r) {}
  Identifier var;
  std::optional<Identifier> second_var;
  ExprPtr iterable;
  Body body;
};

// if c { ... } else if d { ... } else { ... }
struct IfStmt final : Stmt {
  explicit IfStmt(SourceRange r) : Stmt(StmtKind::If, r) {}
  ExprPtr condition;
  Body then_body;
  std::unique_ptr<IfStmt> else_if;   // at most one of else_if / else_body
  std::optional<Body> else_body;
};

// assert cond, "message"
struct AssertStmt final : Stmt {
  explicit AssertStmt(SourceRange r) : Stmt(StmtKind::Assert, r) {}
  ExprPtr condition;
  ExprPtr message;  // may be null
};

// use team("research", cpu = 10)   |   use teams.team(...)
struct UseStmt final : Stmt {
  explicit UseStmt(SourceRange r) : Stmt(StmtKind::Use, r) {}
  std::vector<Identifier> name;  // qualified: module alias, template name
  std::vector<Argument> args;
  SourceRange name_range;
};

// name = value
struct AttributeStmt final : Stmt {
  explicit AttributeStmt(SourceRange r) : Stmt(StmtKind::Attribute, r) {}
  Identifier name;
  ExprPtr value;
};

// kind "label" ... [in "namespace"] { ... }
struct BlockStmt final : Stmt {
  explicit BlockStmt(SourceRange r) : Stmt(StmtKind::Block, r) {}
  Identifier kind;
  std::vector<std::unique_ptr<StringExpr>> labels;
  std::unique_ptr<StringExpr> in_label;  // may be null
  Body body;
};

// ------------------------------------------------------------------ file

struct Comment {
  std::string text;     // as written, including // or /* */
  SourceRange range;
  bool is_block = false;
};

struct File {
  FileId file = diag::kNoFile;
  std::vector<StmtPtr> stmts;
  std::vector<Comment> comments;  // every comment of the file, in source order
};

}  // namespace mkq::syntax
