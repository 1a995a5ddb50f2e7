#include "runtime/operation/saved_plan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mkq::operation {

namespace fs = std::filesystem;

bool looks_like_saved_plan(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::path(path).extension() == ".mkq") return false;
  std::ifstream in(path, std::ios::binary);
  char first = 0;
  in >> first;
  return first == '{';
}

std::string write_saved_plan(const reconcile::Plan& plan, const std::string& file) {
  const fs::path target(file);
  const fs::path temporary = target.string() + ".tmp." + std::to_string(getpid());
  const std::string text = reconcile::render_json(plan).dump(2) + "\n";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  bool written = fd >= 0 && ::fchmod(fd, 0600) == 0;
  for (std::size_t done = 0; written && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    written = n > 0;
    if (written) done += static_cast<std::size_t>(n);
  }
  const std::string why = written ? "" : std::strerror(errno);
  if (fd >= 0 && ::close(fd) != 0) written = false;
  if (!written) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    return "cannot write the plan to " + file + (why.empty() ? "" : ": " + why);
  }
  std::error_code ec;
  fs::rename(temporary, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    return "cannot write the plan to " + file + ": " + ec.message();
  }
  return "";
}

std::optional<reconcile::Plan> read_saved_plan(const std::string& file, std::string* error) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const kube::Json document = kube::Json::parse(text.str(), nullptr, false);
  error->clear();
  if (document.is_discarded()) return std::nullopt;
  return reconcile::plan_from_json(document, error);
}

}  // namespace mkq::operation
