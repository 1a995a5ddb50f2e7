// Helpers for the syntax tests: parse a string, print an AST compactly, find
// a diagnostic. Header-only (the test executable is built from *_test.cpp).
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/ast.h"
#include "compiler/syntax/parse.h"

namespace mkq::syntax::testing {

// One parse of `text` as file "test.mkq", with its sources and diagnostics.
struct Parsed {
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  FileId id = diag::kNoFile;
  std::unique_ptr<File> file;

  bool ok() const { return file != nullptr && !diagnostics.has_errors(); }
  const diag::Diagnostic& error(std::size_t i = 0) const { return diagnostics.items().at(i); }
  std::size_t errors() const { return diagnostics.error_count(); }
  // The source text a range covers.
  std::string text(const diag::SourceRange& r) const {
    return sources.file(id).text.substr(r.begin.offset, r.end.offset - r.begin.offset);
  }
  // "line:col-line:col" of a range, for compact assertions.
  std::string where(const diag::SourceRange& r) const {
    const diag::SourcePosition begin = sources.begin_of(r);
    const diag::SourcePosition end = sources.end_of(r);
    return std::to_string(begin.line) + ":" + std::to_string(begin.column) + "-" + std::to_string(end.line) + ":" +
           std::to_string(end.column);
  }
  // "CODE line:col-line:col message" of every diagnostic, in order.
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const auto& d : diagnostics.items()) out.push_back(d.code + " " + where(d.range) + " " + d.message);
    return out;
  }
};

inline std::unique_ptr<Parsed> parse(const std::string& text) {
  auto p = std::make_unique<Parsed>();
  p->id = p->sources.add("test.mkq", text);
  p->file = parse_file(p->sources, p->id, p->diagnostics);
  return p;
}

// ------------------------------------------------------------------ AST printer

inline std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string dump(const Expr* e);
std::string dump(const Stmt* s);

inline std::string dump_args(const std::vector<Argument>& args) {
  std::string out;
  for (const auto& a : args) {
    out += " ";
    if (a.name) out += a.name->name + "=";
    out += dump(a.value.get());
  }
  return out;
}

inline std::string dump_string(const StringExpr& s) {
  if (s.is_literal()) return quoted(s.literal_value());
  std::string out = "(str";
  for (const auto& part : s.parts) {
    out += " ";
    out += part.expr ? "${" + dump(part.expr.get()) + "}" : quoted(part.literal);
  }
  return out + ")";
}

inline std::string dump(const Expr* e) {
  if (e == nullptr) return "<null>";
  switch (e->kind) {
    case ExprKind::Number: return static_cast<const NumberExpr*>(e)->text;
    case ExprKind::Duration: return static_cast<const DurationExpr*>(e)->text;
    case ExprKind::String: return dump_string(*static_cast<const StringExpr*>(e));
    case ExprKind::Bool: return static_cast<const BoolExpr*>(e)->value ? "true" : "false";
    case ExprKind::Null: return "null";
    case ExprKind::All: return "all";
    case ExprKind::Name: return static_cast<const NameExpr*>(e)->name;
    case ExprKind::List: {
      std::string out = "[";
      for (const auto& item : static_cast<const ListExpr*>(e)->items) {
        if (out.size() > 1) out += " ";
        out += dump(item.get());
      }
      return out + "]";
    }
    case ExprKind::Map: {
      std::string out = "{";
      for (const auto& entry : static_cast<const MapExpr*>(e)->entries) {
        if (out.size() > 1) out += " ";
        out += (entry.key_is_string ? quoted(entry.key) : entry.key) + ":" + dump(entry.value.get());
      }
      return out + "}";
    }
    case ExprKind::Comprehension: {
      const auto* c = static_cast<const ComprehensionExpr*>(e);
      std::string out = "(for " + dump(c->element.get()) + " " + c->var.name;
      if (c->second_var) out += "," + c->second_var->name;
      out += " in " + dump(c->iterable.get());
      if (c->condition) out += " if " + dump(c->condition.get());
      return out + ")";
    }
    case ExprKind::Field: {
      const auto* f = static_cast<const FieldExpr*>(e);
      return "(. " + dump(f->object.get()) + " " + f->field.name + ")";
    }
    case ExprKind::Index: {
      const auto* i = static_cast<const IndexExpr*>(e);
      return "(at " + dump(i->object.get()) + " " + dump(i->index.get()) + ")";
    }
    case ExprKind::Call: {
      const auto* c = static_cast<const CallExpr*>(e);
      return "(call " + dump(c->callee.get()) + dump_args(c->args) + ")";
    }
    case ExprKind::Unary: {
      const auto* u = static_cast<const UnaryExpr*>(e);
      return std::string("(") + (u->op == UnaryOp::Not ? "!" : "-") + " " + dump(u->operand.get()) + ")";
    }
    case ExprKind::Binary: {
      const auto* b = static_cast<const BinaryExpr*>(e);
      return std::string("(") + spelling(b->op) + " " + dump(b->left.get()) + " " + dump(b->right.get()) + ")";
    }
    case ExprKind::Conditional: {
      const auto* c = static_cast<const ConditionalExpr*>(e);
      return "(? " + dump(c->condition.get()) + " " + dump(c->then_value.get()) + " " + dump(c->else_value.get()) + ")";
    }
    case ExprKind::Paren: return "(paren " + dump(static_cast<const ParenExpr*>(e)->inner.get()) + ")";
    case ExprKind::Error: return "<error>";
  }
  return "?";
}

inline std::string dump_body(const Body& body) {
  std::string out = "{";
  for (const auto& s : body.stmts) {
    if (out.size() > 1) out += " ";
    out += dump(s.get());
  }
  return out + "}";
}

inline std::string dump_if(const IfStmt* s) {
  std::string out = "(if " + dump(s->condition.get()) + " " + dump_body(s->then_body);
  if (s->else_if) out += " else " + dump_if(s->else_if.get());
  if (s->else_body) out += " else " + dump_body(*s->else_body);
  return out + ")";
}

inline std::string dump(const Stmt* s) {
  if (s == nullptr) return "<null>";
  switch (s->kind) {
    case StmtKind::Import: {
      const auto* i = static_cast<const ImportStmt*>(s);
      std::string out = "(import " + (i->path ? dump_string(*i->path) : "<null>");
      if (i->alias) out += " as " + i->alias->name;
      return out + ")";
    }
    case StmtKind::Let: {
      const auto* l = static_cast<const LetStmt*>(s);
      return "(let " + l->name.name + " " + dump(l->value.get()) + ")";
    }
    case StmtKind::Template: {
      const auto* t = static_cast<const TemplateStmt*>(s);
      std::string out = "(template " + t->name.name + " (";
      for (std::size_t i = 0; i < t->params.size(); ++i) {
        if (i > 0) out += " ";
        out += t->params[i].name.name;
        if (t->params[i].default_value) out += "=" + dump(t->params[i].default_value.get());
      }
      return out + ") " + dump_body(t->body) + ")";
    }
    case StmtKind::For: {
      const auto* f = static_cast<const ForStmt*>(s);
      std::string out = "(for " + f->var.name;
      if (f->second_var) out += "," + f->second_var->name;
      return out + " in " + dump(f->iterable.get()) + " " + dump_body(f->body) + ")";
    }
    case StmtKind::If: return dump_if(static_cast<const IfStmt*>(s));
    case StmtKind::Assert: {
      const auto* a = static_cast<const AssertStmt*>(s);
      std::string out = "(assert " + dump(a->condition.get());
      if (a->message) out += " " + dump(a->message.get());
      return out + ")";
    }
    case StmtKind::Use: {
      const auto* u = static_cast<const UseStmt*>(s);
      std::string name;
      for (const auto& part : u->name) name += (name.empty() ? "" : ".") + part.name;
      return "(use " + name + dump_args(u->args) + ")";
    }
    case StmtKind::Attribute: {
      const auto* a = static_cast<const AttributeStmt*>(s);
      return "(= " + a->name.name + " " + dump(a->value.get()) + ")";
    }
    case StmtKind::Block: {
      const auto* b = static_cast<const BlockStmt*>(s);
      std::string out = "(" + b->kind.name;
      for (const auto& label : b->labels) out += " " + dump_string(*label);
      if (b->in_label) out += " in " + dump_string(*b->in_label);
      return out + " " + dump_body(b->body) + ")";
    }
  }
  return "?";
}

inline std::string dump(const File& file) {
  std::string out;
  for (const auto& s : file.stmts) {
    if (!out.empty()) out += "\n";
    out += dump(s.get());
  }
  return out;
}

}  // namespace mkq::syntax::testing
