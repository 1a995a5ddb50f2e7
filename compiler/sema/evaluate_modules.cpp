// StandardModuleLoader: resolves an import to an embedded std module or to a
// file relative to the importing file (refusing one outside the import
// roots), registers its text in the SourceManager and parses it, once per
// module.
#include <algorithm>

#include "compiler/sema/codes_eval.h"
#include "compiler/sema/evaluate.h"
#include "compiler/syntax/parse.h"

namespace mkq::sema {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStdPrefix = "std/";
constexpr std::string_view kExtension = ".mkq";

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

std::string without_extension(std::string text) {
  if (text.size() > kExtension.size() && text.compare(text.size() - kExtension.size(), kExtension.size(), kExtension) == 0) {
    text.resize(text.size() - kExtension.size());
  }
  return text;
}

}  // namespace

StandardModuleLoader::StandardModuleLoader(const FileSystem& fs, diag::SourceManager& sources,
                                           const std::vector<fs::path>& import_roots,
                                           std::span<const stdlib::Module> std_modules)
    : fs_(fs), sources_(sources), std_modules_(std_modules) {
  for (const auto& root : import_roots) {
    fs::path canonical = fs_.canonical(root).lexically_normal();
    if (!canonical.has_filename() && canonical.has_relative_path()) canonical = canonical.parent_path();  // "/a/" -> "/a"
    import_roots_.push_back(std::move(canonical));
  }
}

bool StandardModuleLoader::allowed(const fs::path& path) const {
  // Element by element, so that /p does not contain /policy.
  return std::any_of(import_roots_.begin(), import_roots_.end(), [&](const fs::path& root) {
    return std::mismatch(root.begin(), root.end(), path.begin(), path.end()).first == root.end();
  });
}

std::vector<ModuleSource> StandardModuleLoader::loaded_modules() const {
  std::vector<ModuleSource> modules;
  for (const auto& [key, source] : loaded_) {
    if (source.ast != nullptr) modules.push_back(source);
  }
  return modules;
}

ModuleSource StandardModuleLoader::remember(const std::string& key, std::unique_ptr<syntax::File> ast, bool usable) {
  ModuleSource source;
  source.key = key;
  if (ast && ast->file != diag::kNoFile) source.display = sources_.file(ast->file).path;
  if (usable && ast) source.ast = ast.get();
  if (ast) asts_.push_back(std::move(ast));
  loaded_[key] = source;
  return source;
}

ModuleSource StandardModuleLoader::load(const std::string& importer, diag::FileId importer_file, const std::string& spec,
                                        diag::SourceRange at, diag::Diagnostics& diagnostics) {
  if (starts_with(spec, kStdPrefix)) return load_std(spec, at, diagnostics);

  if (starts_with(importer, kStdPrefix)) {
    // Inside the standard library a relative import names a sibling module.
    const auto resolved = (fs::path("/") / fs::path(importer).parent_path() / spec).lexically_normal().generic_string();
    if (starts_with(resolved, "/std/")) return load_std(resolved.substr(1), at, diagnostics);
    diagnostics.error(eval_codes::kModuleNotFound, at, "cannot find module '" + spec + "'");
    return {};
  }

  const fs::path written(spec);
  const fs::path base = fs::path(importer).parent_path();
  const fs::path target = written.is_absolute() ? written : base / written;
  std::string display = spec;
  if (!written.is_absolute() && importer_file != diag::kNoFile) {
    display = (fs::path(sources_.file(importer_file).path).parent_path() / written).lexically_normal().generic_string();
  }

  // Confinement comes before anything else touches the file: one outside the
  // roots is not opened, and its directory is not listed for a near miss. The
  // message is the same whether or not it exists.
  const auto refuse = [&] {
    auto& d = diagnostics.error(eval_codes::kImportOutsidePolicy, at,
                                "cannot import '" + spec + "': it is outside the policy's directory");
    d.notes.push_back({"imports may read only the policy's directory tree and std/ modules; "
                       "`--import-root DIR` allows the files under DIR too",
                       std::nullopt});
    return ModuleSource{};
  };
  if (!spec.empty() && !allowed(fs_.canonical(target))) return refuse();
  if (!spec.empty() && fs_.kind(target) == FileSystem::Kind::File) return load_file(target, display, spec, at, diagnostics);
  if (!spec.empty() && !written.has_extension()) {
    fs::path with_extension = target;
    with_extension += kExtension;
    if (fs_.kind(with_extension) == FileSystem::Kind::File) {
      if (!allowed(fs_.canonical(with_extension))) return refuse();
      return load_file(with_extension, display + std::string(kExtension), spec, at, diagnostics);
    }
  }

  const auto kind = spec.empty() ? FileSystem::Kind::Missing : fs_.kind(target);
  if (kind == FileSystem::Kind::Other) {
    diagnostics.error(eval_codes::kModuleUnreadable, at, "cannot read module '" + spec + "': it is not a regular file");
    return {};
  }
  auto& d = diagnostics.error(eval_codes::kModuleNotFound, at, "cannot find module '" + spec + "'");
  if (kind == FileSystem::Kind::Directory) {
    d.notes.push_back({"'" + display + "' is a directory: import one of its .mkq files", std::nullopt});
    return {};
  }
  // A near miss among the .mkq files of the directory it names.
  std::vector<std::string> siblings;
  for (const auto& name : fs_.list(target.parent_path())) {
    if (name.size() > kExtension.size() && fs::path(name).extension() == kExtension) siblings.push_back(name);
  }
  const std::string file_name = target.filename().string();
  if (auto closest = diag::closest_match(file_name, siblings)) {
    const auto slash = spec.rfind('/');
    const std::string fixed = (slash == std::string::npos ? std::string() : spec.substr(0, slash + 1)) + *closest;
    d.suggestions.push_back({"did you mean '" + fixed + "'?", at, "\"" + fixed + "\""});
  }
  return {};
}

ModuleSource StandardModuleLoader::load_std(const std::string& spec, diag::SourceRange at,
                                            diag::Diagnostics& diagnostics) {
  const std::string key = without_extension(spec);
  if (auto found = loaded_.find(key); found != loaded_.end()) return found->second;
  const auto modules = std_modules_;
  const auto module = std::find_if(modules.begin(), modules.end(),
                                   [&](const stdlib::Module& m) { return key == m.path; });
  if (module == modules.end()) {
    std::vector<std::string> names;
    for (const auto& m : modules) names.emplace_back(m.path);
    auto& d = diagnostics.error(eval_codes::kModuleNotFound, at, "cannot find module '" + spec + "'");
    if (auto closest = diag::closest_match(key, names)) {
      d.suggestions.push_back({"did you mean '" + *closest + "'?", at, "\"" + *closest + "\""});
    } else if (!names.empty()) {
      std::string all;
      for (const auto& name : names) all += (all.empty() ? "" : ", ") + name;
      d.notes.push_back({"the standard modules are " + all, std::nullopt});
    }
    return {};
  }
  const diag::FileId id = sources_.add(key + std::string(kExtension), std::string(module->text, module->size), true);
  const std::size_t errors = diagnostics.error_count();
  auto ast = syntax::parse_file(sources_, id, diagnostics);
  const bool usable = ast != nullptr && diagnostics.error_count() == errors;
  return remember(key, std::move(ast), usable);
}

ModuleSource StandardModuleLoader::load_file(const fs::path& path, const std::string& display, const std::string& spec,
                                             diag::SourceRange at, diag::Diagnostics& diagnostics) {
  const std::string key = fs_.canonical(path).generic_string();
  if (auto found = loaded_.find(key); found != loaded_.end()) return found->second;
  FileText read = fs_.read(path, diag::kMaxSourceBytes);
  if (read.status != FileText::Status::Read) {
    if (read.status == FileText::Status::TooLarge) {
      syntax::report_file_too_large(diagnostics, at, display, read.size);
    } else {
      diagnostics.error(eval_codes::kModuleUnreadable, at, "cannot read module '" + spec + "'");
    }
    loaded_[key] = ModuleSource{key, display, nullptr};
    return loaded_[key];
  }
  const diag::FileId id = sources_.add(display, std::move(read.text), false);
  const std::size_t errors = diagnostics.error_count();
  auto ast = syntax::parse_file(sources_, id, diagnostics);
  const bool usable = ast != nullptr && diagnostics.error_count() == errors;
  return remember(key, std::move(ast), usable);
}

}  // namespace mkq::sema
