#include "base/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

#include <fmt/format.h>

namespace mkq::base {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTemporaryInfix = ".tmp.";

std::string named(const fs::path& target, const FileWrite& options) {
  return options.what.empty() ? target.string() : options.what;
}

Error not_written(const fs::path& target, const FileWrite& options, int error_number) {
  return Error(0, kFileNotWritten,
               fmt::format("cannot write {}: {}", named(target, options), std::strerror(error_number)));
}

// The permission bits `target`'s new text gets; nullopt: those open() gives (0666 less the umask).
std::optional<mode_t> mode_for(const fs::path& target, FileMode mode) {
  if (mode == FileMode::OwnerOnly) return S_IRUSR | S_IWUSR;
  if (mode == FileMode::WorldReadable) return S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH;
  struct stat existing {};
  if (mode == FileMode::KeepExisting && ::stat(target.c_str(), &existing) == 0)
    return existing.st_mode & 07777;
  return std::nullopt;
}

// Every byte of `text` to `fd`, then to the disk; false with errno set when not.
bool write_all(int fd, std::string_view text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return ::fsync(fd) == 0;
}

// The directory's entry for the renamed file to the disk too; best effort (a
// file system that cannot sync a directory still has the file).
void sync_directory(const fs::path& target) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

fs::path temporary_path_for(const fs::path& target) {
  return target.parent_path() /
         fmt::format(".{}{}{}", target.filename().string(), kTemporaryInfix, ::getpid());
}

bool is_temporary_name(std::string_view name) {
  const std::size_t at = name.rfind(kTemporaryInfix);
  if (name.empty() || name[0] != '.' || at == std::string_view::npos ||
      at + kTemporaryInfix.size() >= name.size()) {
    return false;
  }
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(at + kTemporaryInfix.size()), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

Result<void> stage_file(const fs::path& target, std::string_view text, const FileWrite& options) {
  const fs::path temporary = temporary_path_for(target);
  const std::optional<mode_t> mode = mode_for(target, options.mode);
  const int fd =
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode ? *mode & 0600 : 0666);
  if (fd < 0) return not_written(target, options, errno);
  bool written = (!mode || ::fchmod(fd, *mode) == 0) && write_all(fd, text);
  int why = written ? 0 : errno;
  if (::close(fd) != 0 && written) {
    written = false;
    why = errno;
  }
  if (!written) {
    discard_file(target);
    return not_written(target, options, why != 0 ? why : EIO);
  }
  return {};
}

Result<void> commit_file(const fs::path& target, const FileWrite& options) {
  const fs::path temporary = temporary_path_for(target);
  if (options.create_new) {
    // link() refuses an existing target atomically, where rename() would replace it.
    const int linked = ::link(temporary.c_str(), target.c_str());
    const int why = errno;
    discard_file(target);
    if (linked != 0 && why == EEXIST)
      return Error(0, kFileExists, fmt::format("{} exists", named(target, options)));
    if (linked != 0) return not_written(target, options, why);
  } else if (::rename(temporary.c_str(), target.c_str()) != 0) {
    const int why = errno;
    discard_file(target);
    return not_written(target, options, why);
  }
  sync_directory(target);
  return {};
}

void discard_file(const fs::path& target) {
  std::error_code ignored;
  fs::remove(temporary_path_for(target), ignored);
}

Result<void> write_file(const fs::path& target, std::string_view text, const FileWrite& options) {
  if (options.create_new) {
    std::error_code ec;
    // Said before anything is written; commit_file's link() is what makes it hold under a race.
    if (fs::exists(target, ec))
      return Error(0, kFileExists, fmt::format("{} exists", named(target, options)));
  }
  if (Result<void> staged = stage_file(target, text, options); !staged) return staged;
  return commit_file(target, options);
}

}  // namespace mkq::base
