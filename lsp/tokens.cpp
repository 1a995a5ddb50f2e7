// Semantic tokens, on top of the TextMate grammar: what only the syntax tree
// and the resolver know — which words are block kinds, fields, declarations,
// parameters, modules, templates — besides keywords, strings, numbers,
// durations and comments. Computed from the tree, never from a second lexer.
#include <algorithm>
#include <cctype>

#include "lsp/features.h"
#include "lsp/walk.h"

namespace mkq::lsp {

namespace {

enum TokenType { kKeyword, kType, kVariable, kParameter, kFunction, kProperty, kString, kNumber, kComment, kOperator, kNamespace };
enum Modifier { kDeclaration = 1, kReadonly = 2, kDefaultLibrary = 4 };

struct Token {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  int type = kKeyword;
  int modifiers = 0;
};

class Collector {
 public:
  Collector(const View& view, diag::FileId file)
      : view_(view), file_(file), text_(view.analysis.sources.file(file).text) {}

  std::vector<Token> tokens;

  void statements(const std::vector<syntax::StmtPtr>& stmts) {
    for (const auto& stmt : stmts) {
      if (stmt) statement(*stmt);
    }
  }

  void comments(const std::vector<syntax::Comment>& list) {
    for (const auto& comment : list) add(comment.range, kComment);
  }

 private:
  void add(const diag::SourceRange& range, int type, int modifiers = 0) {
    if (!range.valid() || range.file != file_ || range.end.offset <= range.begin.offset) return;
    tokens.push_back({range.begin.offset, range.end.offset, type, modifiers});
  }
  void add(std::uint32_t begin, std::uint32_t end, int type, int modifiers = 0) {
    if (end > begin) tokens.push_back({begin, end, type, modifiers});
  }

  // The keyword `word` at `at`, when the text there is that word.
  void keyword_at(std::uint32_t at, std::string_view word) {
    if (text_.compare(at, word.size(), word) == 0) add(at, at + static_cast<std::uint32_t>(word.size()), kKeyword);
  }
  // The keyword `word` somewhere in [from, to) (between two pieces of a statement).
  void keyword_between(std::uint32_t from, std::uint32_t to, std::string_view word) {
    if (to <= from || to > text_.size()) return;
    for (auto at = text_.find(word, from); at != std::string::npos && at + word.size() <= to;
         at = text_.find(word, at + 1)) {
      const bool alone = (at == 0 || !std::isalnum(static_cast<unsigned char>(text_[at - 1]))) &&
                         !std::isalnum(static_cast<unsigned char>(text_[at + word.size()]));
      if (!alone) continue;
      add(static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(at + word.size()), kKeyword);
      return;
    }
  }

  void body(const syntax::Body& body) { statements(body.stmts); }

  void statement(const syntax::Stmt& stmt) {
    const std::uint32_t start = stmt.range.begin.offset;
    switch (stmt.kind) {
      case syntax::StmtKind::Import: {
        const auto& import = static_cast<const syntax::ImportStmt&>(stmt);
        keyword_at(start, "import");
        expression(import.path.get());
        if (import.alias && import.path) {
          keyword_between(import.path->range.end.offset, import.alias->range.begin.offset, "as");
          add(import.alias->range, kNamespace, kDeclaration);
        }
        return;
      }
      case syntax::StmtKind::Let: {
        const auto& let = static_cast<const syntax::LetStmt&>(stmt);
        keyword_at(start, "let");
        add(let.name.range, kVariable, kDeclaration | kReadonly);
        return expression(let.value.get());
      }
      case syntax::StmtKind::Template: {
        const auto& tmpl = static_cast<const syntax::TemplateStmt&>(stmt);
        keyword_at(start, "template");
        add(tmpl.name.range, kFunction, kDeclaration);
        for (const auto& param : tmpl.params) {
          add(param.name.range, kParameter, kDeclaration);
          expression(param.default_value.get());
        }
        return body(tmpl.body);
      }
      case syntax::StmtKind::For: {
        const auto& loop = static_cast<const syntax::ForStmt&>(stmt);
        keyword_at(start, "for");
        add(loop.var.range, kVariable, kDeclaration | kReadonly);
        if (loop.second_var) add(loop.second_var->range, kVariable, kDeclaration | kReadonly);
        const auto& last = loop.second_var ? *loop.second_var : loop.var;
        if (loop.iterable) keyword_between(last.range.end.offset, loop.iterable->range.begin.offset, "in");
        expression(loop.iterable.get());
        return body(loop.body);
      }
      case syntax::StmtKind::If:
        for (const auto* branch = &static_cast<const syntax::IfStmt&>(stmt); branch != nullptr;
             branch = branch->else_if.get()) {
          keyword_at(branch->range.begin.offset, "if");
          expression(branch->condition.get());
          body(branch->then_body);
          const std::uint32_t after = branch->then_body.range.end.offset;
          if (branch->else_if) keyword_between(after, branch->else_if->range.begin.offset, "else");
          if (branch->else_body) {
            keyword_between(after, branch->else_body->range.begin.offset, "else");
            body(*branch->else_body);
          }
        }
        return;
      case syntax::StmtKind::Assert: {
        const auto& assertion = static_cast<const syntax::AssertStmt&>(stmt);
        keyword_at(start, "assert");
        expression(assertion.condition.get());
        return expression(assertion.message.get());
      }
      case syntax::StmtKind::Use: {
        const auto& use = static_cast<const syntax::UseStmt&>(stmt);
        keyword_at(start, "use");
        for (std::size_t i = 0; i < use.name.size(); ++i) {
          add(use.name[i].range, i + 1 < use.name.size() ? kNamespace : kFunction);
        }
        arguments(use.args);
        return;
      }
      case syntax::StmtKind::Attribute: {
        const auto& attribute = static_cast<const syntax::AttributeStmt&>(stmt);
        add(attribute.name.range, kProperty);
        return expression(attribute.value.get());
      }
      case syntax::StmtKind::Block: {
        const auto& block = static_cast<const syntax::BlockStmt&>(stmt);
        add(block.kind.range, kType);
        for (const auto& label : block.labels) expression(label.get());
        if (block.in_label) {
          if (!block.labels.empty()) {
            keyword_between(block.labels.back()->range.end.offset, block.in_label->range.begin.offset, "in");
          }
          expression(block.in_label.get());
        }
        return body(block.body);
      }
    }
  }

  void arguments(const std::vector<syntax::Argument>& args) {
    for (const auto& arg : args) {
      if (arg.name) add(arg.name->range, kParameter);
      expression(arg.value.get());
    }
  }

  // A name as the resolver sees it.
  void name(const diag::SourceRange& range, bool called) {
    const auto id = view_.index.symbol_at(file_, range.begin.offset);
    // Unresolved: a builtin when called, else a name sema reports.
    if (!id) return called ? add(range, kFunction, kDefaultLibrary) : add(range, kVariable);
    switch (view_.index.symbol(*id).kind) {
      case SymbolKind::Parameter:
        return add(range, kParameter);
      case SymbolKind::Template:
        return add(range, kFunction);
      case SymbolKind::Import:
        return add(range, kNamespace);
      default:
        return add(range, kVariable, kReadonly);
    }
  }

  void expression(const syntax::Expr* expr) {
    if (expr == nullptr) return;
    switch (expr->kind) {
      case syntax::ExprKind::Number:
      case syntax::ExprKind::Duration:
        return add(expr->range, kNumber);
      case syntax::ExprKind::Bool:
      case syntax::ExprKind::Null:
      case syntax::ExprKind::All:
        return add(expr->range, kKeyword);
      case syntax::ExprKind::Error:
        return;
      case syntax::ExprKind::String: {
        const auto& string = static_cast<const syntax::StringExpr&>(*expr);
        if (string.is_literal()) return add(expr->range, kString);
        // The quotes and literal pieces are strings; what is interpolated is an expression.
        std::uint32_t at = expr->range.begin.offset;
        for (const auto& part : string.parts) {
          if (!part.expr) continue;
          add(at, part.range.begin.offset, kString);
          expression(part.expr.get());
          at = part.range.end.offset;
        }
        return add(at, expr->range.end.offset, kString);
      }
      case syntax::ExprKind::Name:
        return name(expr->range, false);
      case syntax::ExprKind::List:
      case syntax::ExprKind::Index:
      case syntax::ExprKind::Unary:
      case syntax::ExprKind::Conditional:
      case syntax::ExprKind::Paren:
        for (const syntax::Expr* child : children(*expr)) expression(child);
        return;
      case syntax::ExprKind::Map:
        for (const auto& entry : static_cast<const syntax::MapExpr&>(*expr).entries) {
          add(entry.key_range, entry.key_is_string ? kString : kProperty);
          expression(entry.value.get());
        }
        return;
      case syntax::ExprKind::Comprehension: {
        const auto& comp = static_cast<const syntax::ComprehensionExpr&>(*expr);
        expression(comp.element.get());
        keyword_between(comp.element ? comp.element->range.end.offset : expr->range.begin.offset,
                        comp.var.range.begin.offset, "for");
        add(comp.var.range, kVariable, kDeclaration | kReadonly);
        if (comp.second_var) add(comp.second_var->range, kVariable, kDeclaration | kReadonly);
        const auto& last = comp.second_var ? *comp.second_var : comp.var;
        if (comp.iterable) keyword_between(last.range.end.offset, comp.iterable->range.begin.offset, "in");
        expression(comp.iterable.get());
        if (comp.condition && comp.iterable) {
          keyword_between(comp.iterable->range.end.offset, comp.condition->range.begin.offset, "if");
        }
        return expression(comp.condition.get());
      }
      case syntax::ExprKind::Field: {
        const auto& field = static_cast<const syntax::FieldExpr&>(*expr);
        expression(field.object.get());
        const auto id = view_.index.symbol_at(file_, field.field.range.begin.offset);
        const bool is_template = id && view_.index.symbol(*id).kind == SymbolKind::Template;
        return add(field.field.range, is_template ? kFunction : kProperty);
      }
      case syntax::ExprKind::Call: {
        const auto& call = static_cast<const syntax::CallExpr&>(*expr);
        if (call.callee && call.callee->kind == syntax::ExprKind::Name) {
          name(call.callee->range, true);
        } else {
          expression(call.callee.get());
        }
        for (const auto& arg : call.args) {
          if (arg.name) add(arg.name->range, kParameter);
          expression(arg.value.get());
        }
        return;
      }
      case syntax::ExprKind::Binary: {
        const auto& binary = static_cast<const syntax::BinaryExpr&>(*expr);
        expression(binary.left.get());
        if (binary.op == syntax::BinaryOp::In) add(binary.op_range, kKeyword);
        return expression(binary.right.get());
      }
    }
  }

  const View& view_;
  diag::FileId file_;
  const std::string& text_;
};

}  // namespace

Json semantic_tokens_legend() {
  return {{"tokenTypes",
           {"keyword", "type", "variable", "parameter", "function", "property", "string", "number", "comment",
            "operator", "namespace"}},
          {"tokenModifiers", {"declaration", "readonly", "defaultLibrary"}}};
}

Json semantic_tokens(const View& view, diag::FileId file) {
  const syntax::File* tree = view.analysis.tree(file);
  Json data = Json::array();
  if (tree == nullptr) return {{"data", data}};
  Collector collector(view, file);
  collector.statements(tree->stmts);
  collector.comments(tree->comments);
  auto& tokens = collector.tokens;
  std::stable_sort(tokens.begin(), tokens.end(), [](const Token& a, const Token& b) { return a.begin < b.begin; });
  // LSP wants tokens in order, apart, and (without multilineTokenSupport) each on one line.
  const LineIndex& lines = view.positions.lines(file);
  const std::string_view text = lines.text();
  Position previous;
  std::uint32_t covered = 0;
  for (const Token& token : tokens) {
    if (token.begin < covered) continue;  // overlaps one already sent
    covered = token.end;
    for (std::uint32_t begin = token.begin; begin < token.end;) {
      const auto newline = text.find('\n', begin);
      const std::uint32_t end = newline == std::string_view::npos ? token.end
                                                                  : std::min<std::uint32_t>(token.end, newline);
      if (end > begin) {
        const Position start = lines.position(begin, view.positions.encoding());
        const Position stop = lines.position(end, view.positions.encoding());
        const std::uint32_t delta_line = start.line - previous.line;
        data.push_back(delta_line);
        data.push_back(delta_line == 0 ? start.character - previous.character : start.character);
        data.push_back(stop.character - start.character);
        data.push_back(token.type);
        data.push_back(token.modifiers);
        previous = start;
      }
      begin = end + 1;
    }
  }
  return {{"data", std::move(data)}};
}

}  // namespace mkq::lsp
