#include "lsp/index.h"

#include <algorithm>
#include <tuple>

#include "compiler/sema/evaluate.h"
#include "compiler/sema/resolve_names.h"
#include "lsp/walk.h"

namespace mkq::lsp {

namespace {

using Key = std::tuple<diag::FileId, std::uint32_t, std::uint32_t>;
Key key_of(const diag::SourceRange& range) { return {range.file, range.begin.offset, range.end.offset}; }

// Block kinds whose label declares a name others refer to.
bool declares_name(const std::string& kind) {
  static const char* const kKinds[] = {"manager",   "worker",        "flavor",   "topology",
                                       "cohort",    "clusterqueue",  "localqueue", "namespace",
                                       "priorityclass", "dispatch",  "integration"};
  return std::find(std::begin(kKinds), std::end(kKinds), kind) != std::end(kKinds);
}

// The text of a plain string literal and the range of its text without the
// quotes; nullopt for an interpolated string or one with escapes (whose text
// is not its source).
std::optional<std::pair<std::string, diag::SourceRange>> plain_string(const syntax::Expr* expr) {
  if (expr == nullptr || expr->kind != syntax::ExprKind::String) return std::nullopt;
  const auto& string = static_cast<const syntax::StringExpr&>(*expr);
  if (!string.is_literal()) return std::nullopt;
  std::string text = string.literal_value();
  const std::uint32_t begin = string.range.begin.offset;
  const std::uint32_t end = string.range.end.offset;
  if (end < begin + 2 || end - begin - 2 != text.size()) return std::nullopt;
  diag::SourceRange inner = string.range;
  inner.begin.offset = begin + 1;
  inner.end.offset = end - 1;
  return std::make_pair(std::move(text), inner);
}

}  // namespace

std::string referenced_kind(const std::string& place) {
  static const std::map<std::string, std::string> kPlaces = {
      {"cohort", "cohort"},       {"parent", "cohort"},           {"flavor", "flavor"},
      {"flavors", "flavor"},      {"quota", "flavor"},            {"capacity", "flavor"},
      {"clusterqueue", "clusterqueue"}, {"queues", "clusterqueue"}, {"queue", "clusterqueue"},
      {"workers", "worker"},      {"worker", "worker"},           {"worker_name", "worker"},
      {"topology", "topology"},   {"namespaces", "namespace"},    {"namespace", "namespace"},
      {"localqueue", "localqueue"}, {"priorityclass", "priorityclass"}, {"priority_class", "priorityclass"},
      {"override", "clusterqueue"}};
  const auto found = kPlaces.find(place);
  return found == kPlaces.end() ? "" : found->second;
}

// Builds an Index in three passes: the names sema resolves, the named blocks,
// then the strings that refer to named blocks (known only once all are declared).
class IndexBuilder {
 public:
  explicit IndexBuilder(const Analysis& analysis) : analysis_(analysis) {}

  Index run() {
    std::vector<const syntax::File*> trees;
    for (const auto& root : analysis_.parsed.roots) {
      if (root) trees.push_back(root.get());
    }
    if (analysis_.parsed.imports) {
      for (const auto& module : analysis_.parsed.imports->loaded_modules()) {
        if (std::find(trees.begin(), trees.end(), module.ast) == trees.end()) trees.push_back(module.ast);
      }
    }
    for (const auto* tree : trees) walk_statements(tree->stmts, true, "");
    std::vector<sema::FileNames> names;
    for (const auto* tree : trees) names.push_back(declare_names(*tree));
    for (const auto& symbol_id : exported_ids()) exports_[index_.symbols_[symbol_id].range.file].push_back(symbol_id);
    for (std::size_t i = 0; i < trees.size(); ++i) link_names(*trees[i], names[i]);
    for (const auto& candidate : candidates_) resolve_candidate(candidate);
    for (auto& [file, list] : index_.occurrences_) {
      std::sort(list.begin(), list.end(), [](const Index::Occurrence& a, const Index::Occurrence& b) {
        return a.range.begin.offset < b.range.begin.offset;
      });
    }
    return std::move(index_);
  }

 private:
  // A plain string in a place that takes a name of `kind`.
  struct Candidate {
    std::string kind;
    std::string text;
    diag::SourceRange range;
  };

  std::size_t add_symbol(Symbol symbol) {
    const std::size_t id = index_.symbols_.size();
    declared_.emplace(key_of(symbol.range), id);
    index_.occurrences_[symbol.range.file].push_back({symbol.range, id});
    index_.symbols_.push_back(std::move(symbol));
    return id;
  }

  void add_use(const diag::SourceRange& range, std::size_t id) {
    index_.occurrences_[range.file].push_back({range, id});
    used_.emplace(key_of(range), id);
  }

  // ---- pass 1: statements (the declaring statements, named blocks and reference candidates)

  void walk_statements(const std::vector<syntax::StmtPtr>& stmts, bool top, const std::string& parent) {
    for (const auto& stmt : stmts) {
      if (stmt) walk_statement(*stmt, top, parent);
    }
  }

  void walk_statement(const syntax::Stmt& stmt, bool top, const std::string& parent) {
    switch (stmt.kind) {
      case syntax::StmtKind::Let: {
        const auto& let = static_cast<const syntax::LetStmt&>(stmt);
        statements_[key_of(let.name.range)] = {&stmt, top};
        return;
      }
      case syntax::StmtKind::Template: {
        const auto& tmpl = static_cast<const syntax::TemplateStmt&>(stmt);
        statements_[key_of(tmpl.name.range)] = {&stmt, top};
        return walk_statements(tmpl.body.stmts, false, parent);
      }
      case syntax::StmtKind::Import: {
        const auto& import = static_cast<const syntax::ImportStmt&>(stmt);
        if (import.alias) statements_[key_of(import.alias->range)] = {&stmt, top};
        if (import.path) statements_[key_of(import.path->range)] = {&stmt, top};
        return;
      }
      case syntax::StmtKind::For:
      case syntax::StmtKind::If:
        for (const auto* body : bodies(stmt)) walk_statements(*body, false, parent);
        return;
      case syntax::StmtKind::Attribute: {
        const auto& attribute = static_cast<const syntax::AttributeStmt&>(stmt);
        return add_candidates(attribute.name.name, attribute.value.get());
      }
      case syntax::StmtKind::Use:
        for (const auto& arg : static_cast<const syntax::UseStmt&>(stmt).args) {
          if (arg.name) add_candidates(arg.name->name, arg.value.get());
        }
        return;
      case syntax::StmtKind::Block:
        return walk_block(static_cast<const syntax::BlockStmt&>(stmt), top, parent);
      case syntax::StmtKind::Assert:
        return;
    }
  }

  void walk_block(const syntax::BlockStmt& block, bool top, const std::string& parent) {
    const std::string& kind = block.kind.name;
    const auto label = block.labels.empty() ? std::nullopt : plain_string(block.labels.front().get());
    // A block nested in another declares a name only where it is one of its own (a localqueue in a clusterqueue).
    if (label && declares_name(kind) && (parent.empty() || kind == "localqueue")) {
      Symbol symbol;
      symbol.name = label->first;
      symbol.kind = SymbolKind::Block;
      symbol.block_kind = kind;
      symbol.range = label->second;
      symbol.stmt = &block;
      symbol.top_level = top;
      const auto key = std::make_pair(kind, label->first);
      if (const auto first = blocks_.find(key); first != blocks_.end()) {
        add_use(label->second, first->second);  // declared again: an error sema reports; navigates to the first
      } else {
        blocks_.emplace(key, add_symbol(std::move(symbol)));
      }
    } else if (label) {
      add_candidate(kind, label->first, label->second);
    }
    if (const auto in = plain_string(block.in_label.get())) add_candidate("namespace", in->first, in->second);
    walk_statements(block.body.stmts, false, kind);
  }

  void add_candidate(const std::string& place, const std::string& text, const diag::SourceRange& range) {
    std::string kind = referenced_kind(place);
    if (!kind.empty()) candidates_.push_back({std::move(kind), text, range});
  }

  // The plain strings of a value written for `place`: a string, the strings of
  // a list, and the values of a map (each for its key).
  void add_candidates(const std::string& place, const syntax::Expr* value) {
    if (value == nullptr) return;
    if (const auto string = plain_string(value)) return add_candidate(place, string->first, string->second);
    if (value->kind == syntax::ExprKind::List) {
      for (const auto& item : static_cast<const syntax::ListExpr&>(*value).items) {
        if (const auto string = plain_string(item.get())) add_candidate(place, string->first, string->second);
      }
    } else if (value->kind == syntax::ExprKind::Map) {
      for (const auto& entry : static_cast<const syntax::MapExpr&>(*value).entries) {
        add_candidates(entry.key, entry.value.get());
      }
    }
  }

  void resolve_candidate(const Candidate& candidate) {
    const auto found = blocks_.find({candidate.kind, candidate.text});
    if (found != blocks_.end()) add_use(candidate.range, found->second);
  }

  // ---- pass 2: the language's names, as sema resolves them

  sema::FileNames declare_names(const syntax::File& tree) {
    sema::FileNames names = sema::file_names(tree);
    static constexpr SymbolKind kKinds[] = {SymbolKind::Let, SymbolKind::Template, SymbolKind::Parameter,
                                            SymbolKind::LoopVariable, SymbolKind::Import};
    for (const auto& declaration : names.declarations) {
      Symbol symbol;
      symbol.name = declaration.name;
      symbol.kind = kKinds[static_cast<int>(declaration.kind)];
      symbol.range = declaration.range;
      if (const auto found = statements_.find(key_of(declaration.range)); found != statements_.end()) {
        symbol.stmt = found->second.first;
        symbol.top_level = found->second.second;
      }
      const std::size_t id = add_symbol(std::move(symbol));
      if (index_.symbols_[id].kind == SymbolKind::Import) link_module(id);
    }
    return names;
  }

  std::vector<std::size_t> exported_ids() const {
    std::vector<std::size_t> ids;
    for (std::size_t id = 0; id < index_.symbols_.size(); ++id) {
      const Symbol& symbol = index_.symbols_[id];
      if (symbol.top_level && (symbol.kind == SymbolKind::Let || symbol.kind == SymbolKind::Template)) ids.push_back(id);
    }
    return ids;
  }

  void link_names(const syntax::File& tree, const sema::FileNames& names) {
    for (const auto& use : names.uses) {
      if (const auto found = declared_.find(key_of(use.declared_at)); found != declared_.end()) {
        add_use(use.range, found->second);
      }
    }
    for (const auto& member : names.members) {
      const auto alias = declared_.find(key_of(member.alias_declared_at));
      if (alias == declared_.end()) continue;
      if (const auto target = export_named(index_.module_of(alias->second), member.member)) add_use(member.range, *target);
    }
    link_template_arguments(tree.stmts);
  }

  // The module an import loaded: found by the key the loader gave it (std/NAME, or the file's canonical path).
  void link_module(std::size_t id) {
    const Symbol& symbol = index_.symbols_[id];
    if (symbol.stmt == nullptr || !analysis_.parsed.imports) return;
    const auto& import = static_cast<const syntax::ImportStmt&>(*symbol.stmt);
    if (!import.path || !import.path->is_literal()) return;
    const std::string spec = import.path->literal_value();
    const std::filesystem::path importer = analysis_.sources.file(symbol.range.file).path;
    for (const auto& module : analysis_.parsed.imports->loaded_modules()) {
      const std::filesystem::path key = module.key;
      const bool same = module.key == spec || key == (importer.parent_path() / spec).lexically_normal() ||
                        key == (importer.parent_path() / (spec + ".mkq")).lexically_normal();
      if (same) index_.modules_[id] = module.ast->file;
    }
  }

  std::optional<std::size_t> export_named(diag::FileId module, const std::string& name) const {
    const auto found = exports_.find(module);
    if (found == exports_.end()) return std::nullopt;
    for (const std::size_t id : found->second) {
      if (index_.symbols_[id].name == name) return id;
    }
    return std::nullopt;
  }

  // `use t(name = ...)`: each named argument refers to the template's parameter.
  void link_template_arguments(const std::vector<syntax::StmtPtr>& stmts) {
    for (const auto& stmt : stmts) {
      if (!stmt) continue;
      if (stmt->kind == syntax::StmtKind::Use) link_arguments(static_cast<const syntax::UseStmt&>(*stmt));
      for (const auto* body : bodies(*stmt)) link_template_arguments(*body);
    }
  }

  void link_arguments(const syntax::UseStmt& use) {
    if (use.name.empty()) return;
    const auto& last = use.name.back();
    const auto target = used_.find(key_of(last.range));
    if (target == used_.end()) return;
    const Symbol& symbol = index_.symbols_[target->second];
    if (symbol.kind != SymbolKind::Template || symbol.stmt == nullptr) return;
    const auto& tmpl = static_cast<const syntax::TemplateStmt&>(*symbol.stmt);
    for (const auto& arg : use.args) {
      if (!arg.name) continue;
      for (const auto& param : tmpl.params) {
        if (param.name.name != arg.name->name) continue;
        if (const auto found = declared_.find(key_of(param.name.range)); found != declared_.end()) {
          add_use(arg.name->range, found->second);
        }
      }
    }
  }

  const Analysis& analysis_;
  Index index_;
  std::map<Key, std::size_t> declared_;                                    // declaration range -> symbol
  std::map<Key, std::size_t> used_;                                        // use range -> symbol
  std::map<Key, std::pair<const syntax::Stmt*, bool>> statements_;         // name range -> statement, top level
  std::map<std::pair<std::string, std::string>, std::size_t> blocks_;      // (kind, label) -> symbol
  std::vector<Candidate> candidates_;
  std::map<diag::FileId, std::vector<std::size_t>> exports_;              // module file -> its top-level lets and templates
};

Index Index::build(const Analysis& analysis) { return IndexBuilder(analysis).run(); }

std::optional<std::size_t> Index::symbol_at(diag::FileId file, std::uint32_t offset) const {
  const auto found = occurrences_.find(file);
  if (found == occurrences_.end()) return std::nullopt;
  std::optional<std::size_t> best;
  std::uint32_t best_size = 0;
  for (const auto& occurrence : found->second) {
    if (occurrence.range.begin.offset > offset || offset > occurrence.range.end.offset) continue;
    const std::uint32_t size = occurrence.range.end.offset - occurrence.range.begin.offset;
    if (!best || size < best_size) {
      best = occurrence.symbol;
      best_size = size;
    }
  }
  return best;
}

std::vector<diag::SourceRange> Index::occurrences(std::size_t id) const {
  std::vector<diag::SourceRange> ranges{symbols_[id].range};
  for (const auto& [file, list] : occurrences_) {
    for (const auto& occurrence : list) {
      if (occurrence.symbol == id && !(occurrence.range == symbols_[id].range)) ranges.push_back(occurrence.range);
    }
  }
  return ranges;
}

std::vector<std::size_t> Index::blocks_of_kind(const std::string& kind) const {
  std::vector<std::size_t> ids;
  for (std::size_t id = 0; id < symbols_.size(); ++id) {
    if (symbols_[id].kind == SymbolKind::Block && symbols_[id].block_kind == kind) ids.push_back(id);
  }
  return ids;
}

std::vector<std::size_t> Index::exports_of(diag::FileId file) const {
  std::vector<std::size_t> ids;
  for (std::size_t id = 0; id < symbols_.size(); ++id) {
    const Symbol& symbol = symbols_[id];
    if (symbol.range.file == file && symbol.top_level &&
        (symbol.kind == SymbolKind::Let || symbol.kind == SymbolKind::Template)) {
      ids.push_back(id);
    }
  }
  return ids;
}

diag::FileId Index::module_of(std::size_t import_symbol) const {
  const auto found = modules_.find(import_symbol);
  return found == modules_.end() ? diag::kNoFile : found->second;
}

}  // namespace mkq::lsp
