// The real file system (std::filesystem, never throwing) and the in-memory
// one the tests use.
#include "compiler/sema/filesystem.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

namespace mkq::sema {

namespace fs = std::filesystem;

// ------------------------------------------------------------------ RealFileSystem

FileSystem::Kind RealFileSystem::kind(const fs::path& path) const {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || status.type() == fs::file_type::not_found) return Kind::Missing;
  if (status.type() == fs::file_type::regular) return Kind::File;
  if (status.type() == fs::file_type::directory) return Kind::Directory;
  return Kind::Other;
}

std::optional<std::string> RealFileSystem::read(const fs::path& path) const {
  if (kind(path) != Kind::File) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

std::vector<std::string> RealFileSystem::list(const fs::path& dir) const {
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return names;
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) break;
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

fs::path RealFileSystem::canonical(const fs::path& path) const {
  std::error_code ec;
  auto result = fs::weakly_canonical(path, ec);
  if (!ec) return result;
  auto absolute = fs::absolute(path, ec);
  if (ec) return path.lexically_normal();
  return absolute.lexically_normal();
}

// ------------------------------------------------------------------ InMemoryFileSystem

namespace {

// Every in-memory path is absolute: relative ones are taken from "/". No
// trailing separator, so "dir/" and "dir" are one key.
std::string normal(const fs::path& path) {
  fs::path p = path.is_absolute() ? path : fs::path("/") / path;
  p = p.lexically_normal();
  std::string text = p.generic_string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

}  // namespace

void InMemoryFileSystem::add(const fs::path& path, std::string text) {
  files_[normal(path)] = std::move(text);
}

FileSystem::Kind InMemoryFileSystem::kind(const fs::path& path) const {
  const std::string key = normal(path);
  if (files_.count(key) > 0) return Kind::File;
  const std::string prefix = key == "/" ? "/" : key + "/";
  auto it = files_.lower_bound(prefix);
  if (it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0) return Kind::Directory;
  return key == "/" ? Kind::Directory : Kind::Missing;
}

std::optional<std::string> InMemoryFileSystem::read(const fs::path& path) const {
  auto found = files_.find(normal(path));
  if (found == files_.end()) return std::nullopt;
  return found->second;
}

std::vector<std::string> InMemoryFileSystem::list(const fs::path& dir) const {
  const std::string key = normal(dir);
  const std::string prefix = key == "/" ? "/" : key + "/";
  std::vector<std::string> names;
  for (auto it = files_.lower_bound(prefix); it != files_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    const std::string rest = it->first.substr(prefix.size());
    const std::string name = rest.substr(0, rest.find('/'));  // a file, or a subdirectory's name
    if (names.empty() || names.back() != name) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

fs::path InMemoryFileSystem::canonical(const fs::path& path) const { return normal(path); }

}  // namespace mkq::sema
