#include "tests/support/in_memory_file_system.h"

#include <algorithm>

namespace mkq::sema {

namespace fs = std::filesystem;

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

FileText InMemoryFileSystem::read(const fs::path& path, std::uint64_t max_bytes) const {
  FileText result;
  auto found = files_.find(normal(path));
  if (found == files_.end()) return result;
  if (found->second.size() > max_bytes) {
    result.status = FileText::Status::TooLarge;
    result.size = found->second.size();
    return result;
  }
  result.status = FileText::Status::Read;
  result.text = found->second;
  return result;
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
