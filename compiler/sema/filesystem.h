// The file-system boundary of the compiler: reading policy files, listing a
// policy directory, resolving imports. Tests use InMemoryFileSystem
// (tests/support/in_memory_file_system.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mkq::sema {

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  enum class Kind { Missing, File, Directory, Other };
  virtual Kind kind(const std::filesystem::path& path) const = 0;
  // The whole file, or nullopt when it cannot be read.
  virtual std::optional<std::string> read(const std::filesystem::path& path) const = 0;
  // The entries of a directory (names only), sorted.
  virtual std::vector<std::string> list(const std::filesystem::path& dir) const = 0;
  // A normal, absolute form of `path`, used to recognise a file imported twice.
  virtual std::filesystem::path canonical(const std::filesystem::path& path) const = 0;
};

class RealFileSystem final : public FileSystem {
 public:
  Kind kind(const std::filesystem::path& path) const override;
  std::optional<std::string> read(const std::filesystem::path& path) const override;
  std::vector<std::string> list(const std::filesystem::path& dir) const override;
  std::filesystem::path canonical(const std::filesystem::path& path) const override;
};

}  // namespace mkq::sema
