// The real file system (std::filesystem, never throwing); tests use
// tests/support/in_memory_file_system.h.
#include "compiler/sema/filesystem.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

namespace {

// Closes a file descriptor on every way out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

FileText RealFileSystem::read(const fs::path& path, std::uint64_t max_bytes) const {
  FileText result;
  if (kind(path) != Kind::File) return result;
  // O_NONBLOCK: should the path have become a FIFO since kind(), open() must
  // not wait for a writer (fstat() below refuses it).
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return result;
  struct stat status {};
  if (::fstat(fd.get(), &status) != 0 || !S_ISREG(status.st_mode)) return result;
  const auto size = static_cast<std::uint64_t>(status.st_size);
  if (size > max_bytes) {
    result.status = FileText::Status::TooLarge;
    result.size = size;
    return result;
  }
  // Read at most one byte past the bound, to see a file that grew.
  std::string text;
  text.resize(static_cast<std::size_t>(size) + 1);
  std::size_t filled = 0;
  while (true) {
    if (filled == text.size()) {
      if (filled > max_bytes) break;
      text.resize(std::min<std::uint64_t>(max_bytes + 1, std::max<std::uint64_t>(2 * filled, 4096)));
    }
    const ssize_t got = ::read(fd.get(), text.data() + filled, text.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return result;
    if (got == 0) break;
    filled += static_cast<std::size_t>(got);
  }
  if (filled > max_bytes) {
    result.status = FileText::Status::TooLarge;
    result.size = filled;
    return result;
  }
  text.resize(filled);
  result.status = FileText::Status::Read;
  result.text = std::move(text);
  return result;
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
