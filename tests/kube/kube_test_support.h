// Helpers for the kube stage's tests: a temporary directory removed at the end
// of a test, and small file writers.
#pragma once

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "tests/support/temp_dir.h"

namespace mkq::kube::testing {

using mkq::testing::TempDir;

inline void write_file(const std::filesystem::path& path, const std::string& text, bool executable = false) {
  std::filesystem::create_directories(path.parent_path());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  if (executable) ::chmod(path.c_str(), 0755);
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace mkq::kube::testing
