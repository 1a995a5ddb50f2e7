// The evaluator's internals, shared by the evaluate*.cpp files (not part of
// the stage's interface: include evaluate.h instead).
//
// Model: a Module is one evaluated file (root, imported file or std module).
// Its top-level names (lets, templates, import aliases) form one
// order-independent scope; lets there are evaluated on first use with cycle
// detection, and all of them are evaluated before the file's statements run.
// Bodies (block, for, if, template) get a Scope whose lets are sequential.
// Name lookup: local scopes innermost first, then the module's top level,
// then the builtins. A template body's scope chain starts afresh: it sees its
// parameters, its own module's top level and the builtins, never the caller.
//
// Error recovery: an expression that fails reports once and yields nullopt;
// everything built from a nullopt is silently nullopt too, and a let whose
// value failed is bound as failed, so one mistake gives one diagnostic.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/eval_tree.h"
#include "compiler/sema/evaluate.h"
#include "compiler/sema/free_memory.h"
#include "compiler/sema/resolve_names.h"
#include "compiler/sema/value.h"
#include "compiler/syntax/ast.h"

namespace mkq::sema::detail {

inline constexpr std::size_t kMaxTemplateDepth = 64;   // nested `use` (docs/language.md)
inline constexpr int kMaxEvalDepth = 1500;             // nested expressions, statements, lazy lets and imports together
inline constexpr std::int64_t kMaxRangeLength = 100000;  // elements range() may produce
// Evaluation steps in one run, so that no input can hang the compiler: this
// many, plus kStepsPerByte for every byte of source loaded (a policy without
// loops or templates takes fewer steps than that, however large).
inline constexpr long kMaxSteps = 2'000'000;
inline constexpr long kStepsPerByte = 4;
inline constexpr std::uint32_t kMaxValueDepth = 256;   // nesting of lists and maps (above the syntax limit of 200)
inline constexpr std::uint64_t kMaxValueElements = 1'000'000;  // a value's elements, every nested one counted
inline constexpr std::uint64_t kMaxTextBytes = 1u << 20;       // a string, or a value printed as text

struct Module;

// Thrown by evaluate_module() when a deferred block does not parse; caught by
// evaluate(), which returns an EvalPolicy with unparsed_block set.
struct UnparsedBlock {};

// What a TemplateRef value points at.
struct TemplateInfo {
  const syntax::TemplateStmt* stmt = nullptr;
  Module* module = nullptr;  // the defining module: the body's top-level scope
};

// A name at a module's top level.
struct TopLevelName {
  enum class Kind { Let, Template, Import };
  enum class State { Pending, InProgress, Done };
  Kind kind = Kind::Let;
  diag::SourceRange name_range;
  const syntax::LetStmt* let = nullptr;      // Kind::Let
  State state = State::Pending;
  std::optional<Value> value;                // Done (lets), or at once (templates, imports); nullopt: failed
};

struct Module {
  enum class State { NotStarted, InProgress, Done };
  std::string key;
  std::string display;                       // the path shown to the user
  const syntax::File* ast = nullptr;         // null: could not be loaded; every use of it is silent
  syntax::File* releasable = nullptr;        // ModuleSource::releasable
  const syntax::DeferredBlocks* deferred = nullptr;  // ModuleSource::deferred, with releasable only
  State state = State::NotStarted;
  // Checks the names of each top-level block as soon as it is evaluated
  // (resolve_names.h); made once the module's imports are loaded.
  std::unique_ptr<NameResolver> resolver;
  std::map<std::string, TopLevelName> names;
  std::vector<std::unique_ptr<TemplateInfo>> templates;
};

// A body's local scope. Lets are bound as they run; `later` holds the lets of
// the body that have not run yet, to explain "used before its definition".
struct Scope {
  struct Binding {
    std::optional<Value> value;              // nullopt: failed (already reported)
    diag::SourceRange defined_at;
  };
  const Scope* parent = nullptr;
  std::map<std::string, Binding> names;
  std::map<std::string, diag::SourceRange> later;
};

// Where statements put what they produce: the enclosing block (attributes and
// nested blocks), or a file's top level (blocks only).
struct Sink {
  EvalBlock* block = nullptr;
  std::vector<EvalBlock>* blocks = nullptr;
};

// What an expression is evaluated in.
struct Env {
  Module* module = nullptr;
  const Scope* scope = nullptr;  // innermost local scope; null at a file's top level
};

class Evaluator {
 public:
  Evaluator(ModuleLoader& loader, diag::Diagnostics& diagnostics) : loader_(loader), diags_(diagnostics) {}
  EvalPolicy run(const std::vector<RootFile>& roots, const std::vector<ModuleSource>& prelude);

  // ---- modules (evaluate.cpp)
  Module& module_for(const ModuleSource& source);  // failed_module_ when source.ast is null
  void evaluate_module(Module& module);
  // What name resolution knows of the modules `module` imports (its aliases).
  std::map<std::string, ModuleExports> exports_of(const Module& module) const;
  void collect_top_level(Module& module);
  void process_import(Module& module, const syntax::ImportStmt& stmt);
  bool declare_top_level(Module& module, const std::string& name, diag::SourceRange range, TopLevelName entry);
  std::optional<Value> top_level_let(Module& module, const std::string& name, TopLevelName& entry,
                                     diag::SourceRange reference);
  std::optional<Value> lookup(const std::string& name, diag::SourceRange at, const Env& env);
  // Cold paths, apart so that the recursive functions keep small stack frames.
  void report_let_cycle(const Module& module, const std::string& name, const TopLevelName& entry,
                        diag::SourceRange reference);
  void report_unknown(const std::string& name, diag::SourceRange at, const Env& env);
  std::vector<std::string> visible_names(const Env& env) const;
  std::optional<Value> module_export(const Module& module, const std::string& name, diag::SourceRange at);

  // ---- statements (evaluate_statements.cpp)
  void check_placement(const std::vector<syntax::StmtPtr>& stmts, bool file_top, int in_block);
  void exec_body(const std::vector<syntax::StmtPtr>& stmts, Module& module, Scope& scope, Sink sink);
  void exec(const syntax::Stmt& stmt, Module& module, Scope* scope, Sink sink);
  void exec_let(const syntax::LetStmt& stmt, Module& module, Scope& scope);
  void exec_attribute(const syntax::AttributeStmt& stmt, Module& module, Scope* scope, Sink sink);
  void exec_block(const syntax::BlockStmt& stmt, Module& module, Scope* scope, Sink sink);
  void exec_for(const syntax::ForStmt& stmt, Module& module, Scope* scope, Sink sink);
  void exec_if(const syntax::IfStmt& stmt, Module& module, Scope* scope, Sink sink);
  void exec_assert(const syntax::AssertStmt& stmt, Module& module, Scope* scope);
  void exec_use(const syntax::UseStmt& stmt, Module& module, Scope* scope, Sink sink);
  // Resolves the template of a `use` and binds its parameters into `params`;
  // null after reporting a problem. (Apart from exec_use so that the
  // recursion through templates keeps small stack frames.)
  const TemplateInfo* prepare_use(const syntax::UseStmt& stmt, Module& module, Scope* scope, Scope& params);
  std::optional<EvalLabel> eval_label(const syntax::StringExpr& expr, const Env& env);
  bool bind_variable(Scope& scope, const syntax::Identifier& name, std::optional<Value> value);

  // ---- expressions (evaluate_expressions.cpp)
  std::optional<Value> eval(const syntax::Expr& expr, const Env& env);
  std::optional<Value> eval_number(const syntax::NumberExpr& expr);
  std::optional<Value> eval_duration(const syntax::DurationExpr& expr);
  std::optional<Value> eval_string(const syntax::StringExpr& expr, const Env& env);
  std::optional<Value> eval_list(const syntax::ListExpr& expr, const Env& env);
  std::optional<Value> eval_map(const syntax::MapExpr& expr, const Env& env);
  std::optional<Value> eval_comprehension(const syntax::ComprehensionExpr& expr, const Env& env);
  std::optional<Value> eval_field(const syntax::FieldExpr& expr, const Env& env);
  std::optional<Value> field_of(const Value& object, const syntax::Identifier& field, diag::SourceRange at);
  std::optional<Value> eval_index(const syntax::IndexExpr& expr, const Env& env);
  std::optional<Value> index_into(const syntax::IndexExpr& expr, const Value& object, const Value& index);
  std::optional<Value> eval_call(const syntax::CallExpr& expr, const Env& env);
  std::optional<Value> eval_unary(const syntax::UnaryExpr& expr, const Env& env);
  std::optional<Value> eval_binary(const syntax::BinaryExpr& expr, const Env& env);
  std::optional<Value> eval_logical(const syntax::BinaryExpr& expr, const Env& env);
  std::optional<Value> eval_conditional(const syntax::ConditionalExpr& expr, const Env& env);
  std::optional<bool> eval_condition(const syntax::Expr& expr, const Env& env);
  std::optional<Value> arithmetic(const syntax::BinaryExpr& expr, const Value& left, const Value& right);
  std::optional<Value> compare(const syntax::BinaryExpr& expr, const Value& left, const Value& right);
  std::optional<Value> membership(const syntax::BinaryExpr& expr, const Value& left, const Value& right);
  // The (first, second) variable values of iterating `iterable`; nullopt after reporting it is not iterable.
  std::optional<std::vector<std::pair<Value, Value>>> iteration(const Value& iterable, diag::SourceRange at);
  // Interpolation and string(): the value as text, or nullopt after reporting a secret or a non-value.
  std::optional<std::string> printable(const Value& value, diag::SourceRange at);

  // Lists and maps are built only through these, so that every value's
  // nesting depth and expanded size stay bounded (values share storage, so a
  // few lets can describe an exponentially large value). nullopt after
  // reporting a value over the limits at `at`.
  std::optional<Value> make_list(List items, diag::SourceRange at);
  std::optional<Value> make_map(Map entries, diag::SourceRange at);
  std::optional<Value> make_string(std::string text, diag::SourceRange at);
  struct Shape {
    std::uint32_t depth = 0;     // 0 for a scalar
    std::uint64_t elements = 1;  // itself and everything nested, counted with repetition
    std::uint64_t bytes = 0;     // an upper bound of its length as text (to_display)
  };
  Shape shape_of(const Value& value) const;
  std::optional<Value> admit(Value value, Shape shape, diag::SourceRange at);

  // ---- builtins (evaluate_builtins.cpp)
  // The arguments are evaluated by eval_call: builtins never recurse into eval.
  struct Argument {
    Value value;
    diag::SourceRange range;
  };
  std::optional<Value> call_builtin(const std::string& name, const syntax::CallExpr& call,
                                    const std::vector<Argument>& args);

  // ---- diagnostics shared by the files
  void secret_error(diag::SourceRange at, bool printed);
  bool reject_secret(const Value& value, diag::SourceRange at, bool printed);  // deep; true when one was found
  bool reject_non_value(const Value& value, diag::SourceRange at, const char* what);  // deep; templates, modules, builtins
  std::vector<diag::SourceRange> instantiation_notes() const;

  // Counts `steps` of work against the run's budget; false (after one report)
  // once it is spent. Every loop iteration and every element a builtin makes
  // is charged, so that even loops with empty bodies end.
  bool charge(long steps, diag::SourceRange at);

  // An RAII depth counter; `ok()` is false (after one report) past kMaxEvalDepth.
  class Depth {
   public:
    Depth(Evaluator& evaluator, diag::SourceRange at);
    ~Depth() {
      if (--evaluator_.depth_ < kMaxEvalDepth / 2) evaluator_.depth_reported_ = false;
    }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
    bool ok() const { return ok_; }

   private:
    Evaluator& evaluator_;
    bool ok_ = true;
  };

  struct LetFrame {
    Module* module = nullptr;
    std::string name;
    diag::SourceRange via;  // the reference that led to the next frame
  };
  struct ImportFrame {
    Module* importer = nullptr;
    diag::SourceRange at;
  };

  ModuleLoader& loader_;
  diag::Diagnostics& diags_;
  std::map<std::string, std::unique_ptr<Module>> modules_;  // by key
  Module failed_module_;                                    // stands for every module that could not be loaded
  std::vector<LetFrame> let_stack_;
  std::vector<ImportFrame> import_stack_;
  std::vector<diag::SourceRange> use_stack_;  // `use` sites, outermost first
  int depth_ = 0;
  bool depth_reported_ = false;  // the limit was reported in the current descent
  long steps_ = 0;
  long step_budget_ = kMaxSteps;
  bool steps_reported_ = false;
  // Shapes of the lists and maps built so far, by storage address. The weak
  // pointer tells a live entry from one whose storage was freed (and whose
  // address may have been reused); dead entries are pruned now and then.
  struct ShapeEntry {
    std::weak_ptr<const void> owner;
    Shape shape;
  };
  std::unordered_map<const void*, ShapeEntry> shapes_;
  std::size_t shapes_pruned_at_ = 0;
  EvalPolicy policy_;
  // Where the last root file's blocks go as they are evaluated (evaluate()'s
  // BlockStream), and that module; null when nothing streams.
  BlockStream* stream_ = nullptr;
  const Module* streamed_ = nullptr;
  // Gives the pages of the blocks let go (Module::releasable) back to the
  // system as evaluation goes, so that the model bound meanwhile does not add
  // to them.
  MemoryReleaser releaser_;
  // Errors reported before run(): blocks stream only while there are no others.
  std::size_t errors_before_ = 0;

  // The values one expression takes (values_of(), for mkq lsp's hover); null in a normal run.
  struct Watch {
    const syntax::Expr* expr = nullptr;
    std::vector<Value> values;
    std::size_t limit = 0;
  };
  Watch* watch_ = nullptr;
  std::optional<Value> eval_watched(const syntax::Expr& expr, const Env& env);
};

// ---- helpers shared by the files (evaluate_expressions.cpp)

const std::vector<std::string>& builtin_names();
bool is_builtin(const std::string& name);
Value template_value(const TemplateInfo& info, const std::string& name, diag::SourceRange at);
Value module_value(const Module& module, diag::SourceRange at);
Value builtin_value(const std::string& name, diag::SourceRange at);
// The first value inside `value` (itself included) of one of the kinds `pred` accepts; iterative.
const Value* find_nested(const Value& value, bool (*pred)(const Value&));
bool is_identifier(const std::string& text);
bool is_hard_keyword(const std::string& text);
// How many attributes / blocks a body declares directly: what its evaluated
// block holds when no `for`, `if` or `use` adds more (its vectors' capacity).
std::size_t declared_attributes(const std::vector<syntax::StmtPtr>& stmts);
std::size_t declared_blocks(const std::vector<syntax::StmtPtr>& stmts);
// The cluster queues and local queues a file's top level declares, directly
// or nested in a clusterqueue block (not through `for`, `if` or `use`).
std::pair<std::size_t, std::size_t> declared_queues(const std::vector<syntax::StmtPtr>& stmts);

}  // namespace mkq::sema::detail
