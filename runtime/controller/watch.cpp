#include "runtime/controller/watch.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

namespace mkq::controller {

namespace {

namespace fs = std::filesystem;

// FNV-1a, 64 bits: change detection, not security.
class Hash {
 public:
  void add(const std::string& bytes) {
    for (const char c : bytes) {
      state_ ^= static_cast<unsigned char>(c);
      state_ *= 0x100000001b3ULL;
    }
    state_ ^= 0xff;  // a separator: "ab"+"c" differs from "a"+"bc"
    state_ *= 0x100000001b3ULL;
  }
  std::string hex() const { return fmt::format("{:016x}", state_); }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

bool hidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return !name.empty() && name[0] == '.';
}

// Every regular file under `root` (itself, when it is one), by name, following symlinks.
std::vector<fs::path> files_under(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return {root};
  std::vector<fs::path> files;
  fs::recursive_directory_iterator it(root, fs::directory_options::follow_directory_symlink, ec);
  for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
    if (hidden(it->path())) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::string DirectoryWatch::digest() {
  Hash hash;
  for (const std::string& path : paths_) {
    for (const fs::path& file : files_under(path)) {
      hash.add(file.string());
      std::ifstream in(file, std::ios::binary);
      if (!in) {
        hash.add("unreadable");
        continue;
      }
      hash.add(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
    }
  }
  return hash.hex();
}

}  // namespace mkq::controller
