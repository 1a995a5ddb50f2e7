// runtime/credentials/secret_source.h: a policy secret's value from env:NAME or
// file:PATH, and Errors that say why not without quoting a value.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "runtime/credentials/secret_source.h"
#include "tests/support/temp_dir.h"

using mkq::credentials::read_secret_source;

namespace {

std::string refusal(const std::string& source) {
  const auto value = read_secret_source(source);
  REQUIRE_FALSE(value);
  CHECK(value.error().reason == "ConfigError");
  return value.error().message;
}

}  // namespace

TEST_CASE("secret sources: env and file values, and why one cannot be read", "[credentials][secret]") {
  ::setenv("MKQ_TEST_SECRET_SOURCE", "s3cr3t", 1);
  const auto from_env = read_secret_source("env:MKQ_TEST_SECRET_SOURCE");
  REQUIRE(from_env);
  CHECK(*from_env == "s3cr3t");
  ::setenv("MKQ_TEST_SECRET_SOURCE", "", 1);
  CHECK(refusal("env:MKQ_TEST_SECRET_SOURCE") == "environment variable MKQ_TEST_SECRET_SOURCE is empty");
  ::unsetenv("MKQ_TEST_SECRET_SOURCE");
  CHECK(refusal("env:MKQ_TEST_SECRET_SOURCE") == "environment variable MKQ_TEST_SECRET_SOURCE is not set");

  const mkq::testing::TempDir dir;
  const std::filesystem::path file = dir / "token";
  std::ofstream(file, std::ios::binary) << "token-value\n";
  const auto from_file = read_secret_source("file:" + file.string());
  REQUIRE(from_file);
  CHECK(*from_file == "token-value\n");
  std::ofstream(file, std::ios::binary | std::ios::trunc).flush();
  CHECK(refusal("file:" + file.string()) == file.string() + " is empty");
  std::filesystem::remove(file);
  CHECK(refusal("file:" + file.string()) == "cannot open " + file.string() + ": No such file or directory");

  CHECK(refusal("vault:x") == "unknown secret source (expected env:NAME or file:PATH)");
}
