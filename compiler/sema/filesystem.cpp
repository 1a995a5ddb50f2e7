// The real file system (std::filesystem, never throwing); tests use
// tests/support/in_memory_file_system.h.
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

}  // namespace mkq::sema
