// The file-system boundary of the compiler: reading policy files, listing a
// policy directory, resolving imports. Tests use InMemoryFileSystem
// (tests/support/in_memory_file_system.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mkq::sema {

// What FileSystem::read() found.
struct FileText {
  enum class Status { Read, Unreadable, TooLarge };
  Status status = Status::Unreadable;
  std::string text;        // Read: the whole file
  std::uint64_t size = 0;  // TooLarge: the file's size in bytes, over the bound (its text was not kept)
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  enum class Kind { Missing, File, Directory, Other };
  virtual Kind kind(const std::filesystem::path& path) const = 0;
  // The whole file when it has at most `max_bytes` bytes (diag::kMaxSourceBytes
  // for sources). A larger file is refused from its size before any of it is
  // read, and one that grows past the bound while it is read is refused too:
  // no more than `max_bytes` + 1 bytes are ever held.
  virtual FileText read(const std::filesystem::path& path, std::uint64_t max_bytes) const = 0;
  // The entries of a directory (names only), sorted.
  virtual std::vector<std::string> list(const std::filesystem::path& dir) const = 0;
  // A normal, absolute form of `path`, used to recognise a file imported twice.
  virtual std::filesystem::path canonical(const std::filesystem::path& path) const = 0;
};

class RealFileSystem final : public FileSystem {
 public:
  Kind kind(const std::filesystem::path& path) const override;
  FileText read(const std::filesystem::path& path, std::uint64_t max_bytes) const override;
  std::vector<std::string> list(const std::filesystem::path& dir) const override;
  std::filesystem::path canonical(const std::filesystem::path& path) const override;
};

}  // namespace mkq::sema
