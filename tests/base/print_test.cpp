#include "base/print.h"

#include <cstdio>
#include <string>
#include <system_error>

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace {

// What `stream` holds from its start.
std::string contents(std::FILE* stream) {
  std::fflush(stream);
  std::rewind(stream);
  std::string text;
  for (int c = std::fgetc(stream); c != EOF; c = std::fgetc(stream)) text += static_cast<char>(c);
  return text;
}

}  // namespace

TEST_CASE("print writes what fmt::format formats", "[base][print]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  mkq::base::print(file, "mkq: {:<7} {:8.1f} ms ({} LISTs)\n", "apply", 12.25, 3);
  mkq::base::print(file, "plain\n");
  CHECK(contents(file) == "mkq: apply       12.2 ms (3 LISTs)\nplain\n");
  std::fclose(file);
}

TEST_CASE("print ignores a write the stream refuses, where fmt::print throws", "[base][print]") {
  std::FILE* full = std::fopen("/dev/full", "w");
  REQUIRE(full != nullptr);  // Linux's always-full device
  std::setvbuf(full, nullptr, _IONBF, 0);  // every write reaches the device, as on stderr
  CHECK_THROWS_AS(fmt::print(full, "mkq: note: {}\n", "x"), std::system_error);
  CHECK_NOTHROW(mkq::base::print(full, "mkq: note: {}\n", "x"));
  std::fclose(full);
}
