// The sandbox's files in its directory (daemon.h lists them): text written
// atomically (base/files.h), state.json, sandbox.pid, the log's tail, and the
// CRD files `up --crds` reads.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/files.h"

namespace mkq::sandbox {

bool read_text(const std::filesystem::path& path, std::string* out);
// Writes with base::write_file: readers never see half a file; `mode` as
// base::FileMode says (OwnerOnly for anything holding a key or a token).
bool write_text(const std::filesystem::path& path, const std::string& content, base::FileMode mode);

// state.json: serve's pid and options, and per cluster its port and object count.
struct State {
  long pid = 0;
  bool allow_short_tokens = false;  // serve runs with --allow-short-tokens
  struct Entry {
    std::string name;
    int port = 0;
    long long objects = -1;
  };
  std::vector<Entry> clusters;

  const Entry* find(const std::string& name) const {
    for (const Entry& entry : clusters) {
      if (entry.name == name) return &entry;
    }
    return nullptr;
  }
};

State read_state(const std::filesystem::path& dir);
bool write_state(const std::filesystem::path& dir, const State& state);

// sandbox.pid's pid, 0 when there is none.
long read_pid(const std::filesystem::path& dir);
// True when pid is a live `mkq sandbox serve` (not a recycled pid of some
// other program).
bool is_sandbox_process(long pid);
// The last `lines` lines of a file ("" when it cannot be read).
std::string log_tail(const std::filesystem::path& path, std::size_t lines);

// Every CRD document in dir's *.yaml, *.yml and *.json files, by file name;
// false and *error when one cannot be read.
bool read_crds(const std::filesystem::path& dir, std::vector<nlohmann::json>* crds, std::string* error);

}  // namespace mkq::sandbox
