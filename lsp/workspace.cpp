#include "lsp/workspace.h"

#include <algorithm>

#include "compiler/kueue/validate.h"

namespace mkq::lsp {

namespace fs = std::filesystem;

const Document* OverlayFileSystem::open(const fs::path& path) const {
  const auto found = documents_.find(fs::absolute(path).lexically_normal());
  return found == documents_.end() ? nullptr : &found->second;
}

sema::FileSystem::Kind OverlayFileSystem::kind(const fs::path& path) const {
  if (open(path) != nullptr) return Kind::File;
  const Kind on_disk = disk_.kind(path);
  if (on_disk != Kind::Missing) return on_disk;
  // The directory of a file that is open but was never saved.
  const fs::path normal = fs::absolute(path).lexically_normal();
  for (const auto& [open_path, document] : documents_) {
    if (open_path.parent_path() == normal) return Kind::Directory;
  }
  return on_disk;
}

sema::FileText OverlayFileSystem::read(const fs::path& path, std::uint64_t max_bytes) const {
  const Document* document = open(path);
  if (document == nullptr) return disk_.read(path, max_bytes);
  sema::FileText text;
  if (document->text.size() > max_bytes) {
    text.status = sema::FileText::Status::TooLarge;
    text.size = document->text.size();
    return text;
  }
  text.status = sema::FileText::Status::Read;
  text.text = document->text;
  return text;
}

std::vector<std::string> OverlayFileSystem::list(const fs::path& dir) const {
  std::vector<std::string> names = disk_.list(dir);
  const fs::path normal = fs::absolute(dir).lexically_normal();
  for (const auto& [path, document] : documents_) {
    if (path.parent_path() == normal) names.push_back(path.filename().string());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

fs::path OverlayFileSystem::canonical(const fs::path& path) const { return disk_.canonical(path); }

std::optional<diag::FileId> Analysis::file_of(const fs::path& path) const {
  const std::string wanted = path.lexically_normal().generic_string();
  for (const auto& root : parsed.roots) {
    if (root && sources.file(root->file).path == wanted) return root->file;
  }
  return std::nullopt;
}

const syntax::File* Analysis::tree(diag::FileId file) const {
  for (const auto& root : parsed.roots) {
    if (root && root->file == file) return root.get();
  }
  if (!parsed.imports) return nullptr;
  for (const auto& module : parsed.imports->loaded_modules()) {
    if (module.ast->file == file) return module.ast;
  }
  return nullptr;
}

std::unique_ptr<Analysis> analyze_policy(const fs::path& directory, const sema::FileSystem& files,
                                         const std::vector<fs::path>& import_roots) {
  auto analysis = std::make_unique<Analysis>();
  analysis->directory = directory;
  sema::AnalyzeOptions options;
  options.import_roots = import_roots;
  options.parsed = &analysis->parsed;
  const auto policy = sema::analyze(directory, files, analysis->sources, analysis->diagnostics, options);
  if (policy && !analysis->diagnostics.has_errors()) kueue::validate(*policy, analysis->diagnostics);
  return analysis;
}

}  // namespace mkq::lsp
