// The sandbox's files (daemon_files.h).
#include "sandbox/daemon_files.h"

#include <signal.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "sandbox/yaml.h"

namespace mkq::sandbox {

namespace fs = std::filesystem;
using nlohmann::json;

bool read_text(const fs::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

bool write_text(const fs::path& path, const std::string& content, base::FileMode mode) {
  base::FileWrite options;
  options.mode = mode;
  return base::write_file(path, content, options).ok();
}

State read_state(const fs::path& dir) {
  State state;
  std::string text;
  if (!read_text(dir / "state.json", &text)) return state;
  const json document = json::parse(text, nullptr, false);
  if (!document.is_object()) return state;
  if (document.contains("pid") && document["pid"].is_number_integer()) state.pid = document["pid"].get<long>();
  state.allow_short_tokens = document.value("allowShortTokens", false);
  if (document.contains("clusters") && document["clusters"].is_array()) {
    for (const json& item : document["clusters"]) {
      if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) continue;
      State::Entry entry;
      entry.name = item["name"].get<std::string>();
      if (item.contains("port") && item["port"].is_number_integer()) entry.port = item["port"].get<int>();
      if (item.contains("objects") && item["objects"].is_number_integer()) {
        entry.objects = item["objects"].get<long long>();
      }
      state.clusters.push_back(entry);
    }
  }
  return state;
}

bool write_state(const fs::path& dir, const State& state) {
  json clusters = json::array();
  for (const State::Entry& entry : state.clusters) {
    clusters.push_back({{"name", entry.name}, {"port", entry.port}, {"objects", entry.objects}});
  }
  json document = {{"pid", state.pid}, {"clusters", clusters}};
  if (state.allow_short_tokens) document["allowShortTokens"] = true;
  return write_text(dir / "state.json", document.dump(2) + "\n", base::FileMode::WorldReadable);
}

long read_pid(const fs::path& dir) {
  std::string text;
  if (!read_text(dir / "sandbox.pid", &text)) return 0;
  try {
    return std::stol(text);
  } catch (...) {
    return 0;
  }
}

bool is_sandbox_process(long pid) {
  if (pid <= 0 || kill(static_cast<pid_t>(pid), 0) != 0) return false;
  std::string cmdline;
  if (!read_text("/proc/" + std::to_string(pid) + "/cmdline", &cmdline)) return false;
  std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
  return cmdline.find("sandbox serve") != std::string::npos;
}

std::string log_tail(const fs::path& path, std::size_t lines) {
  std::string text;
  if (!read_text(path, &text)) return {};
  std::size_t position = text.size();
  std::size_t count = 0;
  while (position > 0 && count <= lines) {
    position = text.rfind('\n', position - 1);
    if (position == std::string::npos) {
      position = 0;
      break;
    }
    ++count;
  }
  return text.substr(position);
}

bool read_crds(const fs::path& dir, std::vector<json>* crds, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *error = "--crds " + dir.string() + ": not a directory";
    return false;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".yaml" || extension == ".yml" || extension == ".json")) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    try {
      for (const YAML::Node& document : YAML::LoadAllFromFile(file.string())) {
        json object = yaml_to_json(document);
        if (object.is_object() && object.value("kind", "") == "CustomResourceDefinition") {
          crds->push_back(std::move(object));
        }
      }
    } catch (const std::exception& e) {
      *error = file.string() + ": " + e.what();
      return false;
    }
  }
  return true;
}

}  // namespace mkq::sandbox
