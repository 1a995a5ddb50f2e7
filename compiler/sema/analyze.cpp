// The driver of the sema stage: the policy's files -> parse all -> evaluate
// -> bind. Each step runs only when the ones before it found no error, so a
// mistake is reported once, at its cause (every file is parsed, though, so
// that all syntax errors come out in one run).
#include "compiler/sema/analyze.h"

#include <chrono>
#include <memory>

#include "compiler/sema/bind.h"
#include "compiler/sema/codes_eval.h"
#include "compiler/sema/evaluate.h"
#include "compiler/sema/free_memory.h"
#include "compiler/syntax/parse.h"

namespace mkq::sema {

namespace fs = std::filesystem;

namespace {

std::string shown(const fs::path& path) {
  const std::string text = path.lexically_normal().generic_string();
  return text.empty() ? "." : text;
}

// evaluate()'s BlockStream into the binder.
struct BindAsEvaluated final : BlockStream {
  explicit BindAsEvaluated(BlockBinder& to) : binder(to) {}
  void first(std::vector<EvalBlock>&& blocks, std::size_t cluster_queues, std::size_t local_queues) override {
    began = true;
    binder.bind_first(std::move(blocks), {cluster_queues, local_queues});
  }
  void next(EvalBlock&& block) override { binder.bind_next(std::move(block)); }

  BlockBinder& binder;
  bool began = false;
};

}  // namespace

std::vector<fs::path> policy_files(const fs::path& path, const FileSystem& files, diag::Diagnostics& diagnostics) {
  switch (files.kind(path)) {
    case FileSystem::Kind::Missing:
      diagnostics.error(eval_codes::kPathMissing, {}, "path '" + shown(path) + "' does not exist");
      return {};
    case FileSystem::Kind::Other:
      diagnostics.error(eval_codes::kUnreadable, {},
                        "cannot read '" + shown(path) + "': it is neither a file nor a directory");
      return {};
    case FileSystem::Kind::File:
      return {path};
    case FileSystem::Kind::Directory:
      break;
  }
  std::vector<fs::path> result;
  for (const auto& name : files.list(path)) {
    const fs::path entry = path / name;
    if (entry.extension() != ".mkq" || files.kind(entry) != FileSystem::Kind::File) continue;
    result.push_back(entry);
  }
  if (result.empty()) {
    diagnostics.error(eval_codes::kNoPolicyFiles, {}, "directory '" + shown(path) + "' contains no .mkq files");
  }
  return result;  // sorted: list() is
}

std::optional<model::Policy> analyze(const fs::path& path, const FileSystem& files, diag::SourceManager& sources,
                                     diag::Diagnostics& diagnostics, const AnalyzeOptions& options) {
  std::vector<StageTiming>* const timings = options.timings;
  const std::size_t errors = diagnostics.error_count();
  // Steps are timed only when asked; the clock never changes what is computed.
  auto started = std::chrono::steady_clock::now();
  const auto lap = [&](const char* stage) {
    if (timings == nullptr) return;
    const auto now = std::chrono::steady_clock::now();
    timings->push_back({stage, std::chrono::duration<double, std::milli>(now - started).count()});
    started = now;
  };
  const auto paths = policy_files(path, files, diagnostics);
  if (paths.empty()) return std::nullopt;

  // Parse every file before stopping, so that all syntax errors are reported.
  // The last file's top-level blocks are parsed only as evaluation reaches
  // them (syntax::DeferredBlocks), so that its syntax tree is never whole;
  // unless the caller keeps the trees (options.parsed: mkq lsp navigates them).
  std::vector<std::unique_ptr<syntax::File>> asts;
  std::vector<RootFile> roots;
  syntax::DeferredBlocks deferred;
  for (std::size_t n = 0; n < paths.size(); ++n) {
    const fs::path& file = paths[n];
    FileText read = files.read(file, diag::kMaxSourceBytes);
    const std::string display = shown(file);
    if (read.status == FileText::Status::TooLarge) {
      const diag::FileId id = sources.add_unread(display);
      syntax::report_file_too_large(diagnostics, sources.range(id, 0, 0), display, read.size);
      continue;
    }
    if (read.status != FileText::Status::Read) {
      diagnostics.error(eval_codes::kUnreadable, {}, "cannot read '" + display + "'");
      continue;
    }
    const diag::FileId id = sources.add(display, std::move(read.text));
    const bool defer = options.parsed == nullptr && n + 1 == paths.size();
    auto ast = defer ? syntax::parse_file_deferred(sources, id, diagnostics, deferred)
                     : syntax::parse_file(sources, id, diagnostics);
    if (!ast) continue;
    // Its top-level blocks go as they are evaluated, unless the caller keeps
    // the trees.
    syntax::File* releasable = options.parsed != nullptr ? nullptr : ast.get();
    roots.push_back(RootFile{files.canonical(file).generic_string(), display, ast.get(), releasable,
                             defer ? &deferred : nullptr});
    asts.push_back(std::move(ast));
  }
  // The deferred file, parsed whole again when it has to be: its syntax errors
  // are then reported, last, as parse_file() would have reported them (it is
  // the last file parsed). Returns false when it has any.
  const auto parse_whole = [&]() {
    RootFile& root = roots.back();
    auto ast = syntax::parse_file(sources, root.ast->file, diagnostics);
    deferred = {};
    root.deferred = nullptr;
    root.ast = root.releasable = ast.get();
    asts.back() = std::move(ast);
    return root.ast != nullptr && diagnostics.error_count() == errors;
  };
  if (diagnostics.error_count() != errors && !deferred.empty()) parse_whole();
  lap("parse");
  // What parsing freed (the tokens, ANTLR's input) goes back to the system
  // before evaluation allocates objects of other sizes.
  release_free_memory();
  if (diagnostics.error_count() != errors) {
    if (options.parsed != nullptr) options.parsed->roots = std::move(asts);
    return std::nullopt;
  }

  // The policy's own tree: where relative imports of its root files start.
  std::vector<fs::path> import_roots = options.import_roots;
  const fs::path home = files.canonical(path);
  import_roots.push_back(files.kind(path) == FileSystem::Kind::Directory ? home : home.parent_path());
  while (true) {
    // While a deferred block may still turn out not to parse, evaluation's
    // findings are held apart: when one does not, they are dropped with
    // everything evaluated, the file is parsed whole (its syntax errors
    // reported) and, if it has none, evaluated again.
    diag::Diagnostics held;
    diag::Diagnostics& found = deferred.empty() ? diagnostics : held;
    auto owned_loader = std::make_unique<StandardModuleLoader>(files, sources, import_roots);
    StandardModuleLoader& loader = *owned_loader;
    for (const auto& root : roots) loader.preload(root);
    // The prelude (std/integrations) joins every policy without an import.
    std::vector<ModuleSource> prelude;
    for (const std::string_view spec : kPreludeModules) {
      prelude.push_back(loader.load("", diag::kNoFile, std::string(spec), {}, found));
    }
    // Binding runs as evaluation goes (BlockStream): each block of the last
    // root file is bound as soon as it is evaluated and let go, so that the
    // evaluated tree and the model are never both whole. Its diagnostics are
    // kept apart and added after evaluation's, and only when evaluation found no
    // error: the same diagnostics, in the same order, as binding afterwards.
    diag::Diagnostics bind_diagnostics;
    auto binder = std::make_unique<BlockBinder>(bind_diagnostics);
    BindAsEvaluated stream(*binder);
    EvalPolicy policy = evaluate(roots, loader, found, prelude, &stream);
    if (policy.unparsed_block) {
      if (!parse_whole()) return std::nullopt;
      continue;
    }
    for (const diag::Diagnostic& d : held.items()) diagnostics.add(d);
    lap("evaluate");
    if (options.parsed != nullptr) {
      options.parsed->roots = std::move(asts);
      options.parsed->imports = std::move(owned_loader);
    }
    if (diagnostics.error_count() != errors) return std::nullopt;
    // The root files' syntax trees end with evaluation: bind reads the evaluated
    // tree only. Their top-level blocks went as they were evaluated (they are
    // releasable); the rest is dropped here, so that the tree and the model it
    // binds never hold memory at once (for a large policy each is about 15
    // times its text). `roots` and the loader's preloaded entries still point at
    // them; neither is read again.
    asts.clear();
    release_free_memory();

    // What did not stream (all of it when the stream never began).
    if (stream.began) {
      for (EvalBlock& block : policy.blocks) binder->bind_next(std::move(block));
    } else {
      binder->bind_first(std::move(policy.blocks), {});
    }
    auto model = binder->finish(policy.first_file);
    for (const diag::Diagnostic& d : bind_diagnostics.items()) diagnostics.add(d);
    lap("bind");
    // The binder's tables end here; their pages go back before the caller's
    // next stage (kueue::validate, lower) allocates.
    binder.reset();
    release_free_memory();
    return model;
  }
}

}  // namespace mkq::sema
