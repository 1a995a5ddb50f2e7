#include "runtime/credentials/secret_source.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace mkq::credentials {

base::Result<std::string> read_secret_source(const std::string& source) {
  const auto fail = [](std::string message) -> base::Result<std::string> {
    return base::Error::config(std::move(message));
  };
  if (source.rfind("env:", 0) == 0) {
    const std::string name = source.substr(4);
    const char* value = name.empty() ? nullptr : std::getenv(name.c_str());
    if (value == nullptr) return fail("environment variable " + name + " is not set");
    if (*value == '\0') return fail("environment variable " + name + " is empty");
    return std::string(value);
  }
  if (source.rfind("file:", 0) == 0) {
    const std::string path = source.substr(5);
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail("cannot open " + path + ": " + std::strerror(errno));
    std::string text(std::istreambuf_iterator<char>(in), {});
    if (in.bad()) return fail("cannot read " + path);
    if (text.empty()) return fail(path + " is empty");
    return text;
  }
  return fail("unknown secret source (expected env:NAME or file:PATH)");
}

}  // namespace mkq::credentials
