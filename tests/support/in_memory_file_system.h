// The compiler's file-system boundary (compiler/sema/filesystem.h) held in
// memory, for tests: policies and imports without touching the disk.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/sema/filesystem.h"

namespace mkq::sema {

// Files held in memory, keyed by their lexically normal path.
class InMemoryFileSystem final : public FileSystem {
 public:
  void add(const std::filesystem::path& path, std::string text);
  Kind kind(const std::filesystem::path& path) const override;
  FileText read(const std::filesystem::path& path, std::uint64_t max_bytes) const override;
  std::vector<std::string> list(const std::filesystem::path& dir) const override;
  std::filesystem::path canonical(const std::filesystem::path& path) const override;

 private:
  std::map<std::string, std::string> files_;
};

}  // namespace mkq::sema
