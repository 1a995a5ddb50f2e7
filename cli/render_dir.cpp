// The directory `mkq render -o DIR` owns (render_dir.h).
#include "cli/render_dir.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/print.h"

namespace mkq::cli {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int kManifestVersion = 1;

// ".manager.yaml.tmp.4242": a file render was writing when it stopped (its own).
bool is_temporary(const std::string& name) {
  const std::size_t at = name.rfind(".tmp.");
  if (name.empty() || name[0] != '.' || at == std::string::npos || at + 5 >= name.size()) return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(at + 5), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

fs::path temporary_for(const fs::path& dir, const std::string& name) {
  return dir / fmt::format(".{}.tmp.{}", name, ::getpid());
}

// Writes `text` to `target` through a temporary beside it and a rename.
bool write_atomically(const fs::path& dir, const std::string& name, const std::string& text, std::string* why) {
  const fs::path temporary = temporary_for(dir, name);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      *why = fmt::format("cannot write {}", temporary.string());
      std::error_code ignored;
      fs::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(temporary, dir / name, ec);
  if (ec) {
    *why = fmt::format("cannot write {}: {}", (dir / name).string(), ec.message());
    fs::remove(temporary, ec);
    return false;
  }
  return true;
}

std::string manifest_text(const std::set<std::string>& files) {
  std::string text =
      Json{{"mkq_render", kManifestVersion},
           {"note", "the files mkq render -o wrote here; it rewrites them and removes those it no longer renders"},
           {"files", files}}
          .dump(2);
  text += '\n';
  return text;
}

// The files the manifest lists; false with `why` when it cannot be read as one.
bool read_manifest(const fs::path& file, std::vector<std::string>* files, std::string* why) {
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const Json manifest = Json::parse(text, nullptr, false);
  if (!in || manifest.is_discarded() || !manifest.is_object() || !manifest.contains("files") ||
      manifest.value("mkq_render", 0) != kManifestVersion || !manifest["files"].is_array()) {
    *why = fmt::format("{} is not a manifest this mkq wrote (mkq_render {})", file.string(), kManifestVersion);
    return false;
  }
  for (const Json& name : manifest["files"]) {
    // Only plain names: a manifest never makes render remove anything outside DIR.
    if (!name.is_string() || name.get<std::string>().find('/') != std::string::npos ||
        name.get<std::string>().empty() || name.get<std::string>()[0] == '.') {
      *why = fmt::format("{} lists {}, which render never writes", file.string(), name.dump());
      return false;
    }
    files->push_back(name.get<std::string>());
  }
  return true;
}

// "a, b, c and 4 more"
std::string some_of(const std::vector<std::string>& names) {
  const std::size_t shown = std::min<std::size_t>(names.size(), 5);
  const auto end = names.begin() + static_cast<std::ptrdiff_t>(shown);
  std::string out = fmt::format("{}", fmt::join(names.begin(), end, ", "));
  if (names.size() > shown) fmt::format_to(std::back_inserter(out), " and {} more", names.size() - shown);
  return out;
}

}  // namespace

RenderDirChanges render_dir_changes(const std::vector<std::string>& present, const std::vector<std::string>& recorded,
                                    const std::vector<std::string>& rendered) {
  const std::set<std::string> ours(recorded.begin(), recorded.end());
  const std::set<std::string> now(rendered.begin(), rendered.end());
  RenderDirChanges out;
  for (const std::string& name : present) {
    if (ours.count(name) == 0) out.foreign.push_back(name);
  }
  for (const std::string& name : ours) {
    if (now.count(name) == 0 && std::find(present.begin(), present.end(), name) != present.end()) {
      out.stale.push_back(name);
    }
  }
  std::sort(out.foreign.begin(), out.foreign.end());
  return out;
}

int write_render_dir(const fs::path& dir, const std::map<std::string, std::string>& files) {
  const auto fail = [](const std::string& message) {
    base::print(stderr, "mkq: error: {}\n", message);
    return 1;
  };
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    return fail(fmt::format("cannot create the output directory {}: {}", dir.string(),
                            ec ? ec.message() : std::string("not a directory")));
  }
  std::vector<std::string> recorded;
  const fs::path manifest = dir / kRenderManifest;
  if (fs::exists(manifest, ec)) {
    std::string why;
    if (!read_manifest(manifest, &recorded, &why)) return fail(why + "; nothing was written or removed");
  }
  std::vector<std::string> present, temporaries;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == kRenderManifest) continue;
    (is_temporary(name) ? temporaries : present).push_back(name);
  }
  if (ec) return fail(fmt::format("cannot read the output directory {}: {}", dir.string(), ec.message()));
  std::vector<std::string> rendered;
  for (const auto& [name, text] : files) rendered.push_back(name);
  const RenderDirChanges changes = render_dir_changes(present, recorded, rendered);
  if (!changes.foreign.empty()) {
    return fail(fmt::format("{} holds {} mkq did not write ({}); render -o writes only into an empty directory or "
                            "one it wrote before (listed in {}): choose another directory; nothing was written or "
                            "removed",
                            dir.string(), changes.foreign.size() == 1 ? "an entry" : "entries",
                            some_of(changes.foreign), kRenderManifest));
  }
  for (const std::string& name : temporaries) fs::remove(dir / name, ec);  // what an interrupted render left
  std::set<std::string> both(recorded.begin(), recorded.end());
  both.insert(rendered.begin(), rendered.end());
  std::string why;
  if (!write_atomically(dir, kRenderManifest, manifest_text(both), &why)) return fail(why);
  // Every file written beside its target first; renamed only when all were written.
  std::vector<std::string> pending;
  const auto drop_pending = [&] {
    std::error_code ignored;
    for (const std::string& name : pending) fs::remove(temporary_for(dir, name), ignored);
  };
  for (const auto& [name, text] : files) {
    pending.push_back(name);
    std::ofstream out(temporary_for(dir, name), std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      drop_pending();
      return fail(fmt::format("cannot write {}", temporary_for(dir, name).string()));
    }
  }
  for (const std::string& name : pending) {
    fs::rename(temporary_for(dir, name), dir / name, ec);
    if (ec) {
      drop_pending();
      return fail(fmt::format("cannot write {}: {}", (dir / name).string(), ec.message()));
    }
  }
  for (const std::string& name : changes.stale) {
    fs::remove(dir / name, ec);
    if (ec) {
      return fail(
          fmt::format("cannot remove {}, which mkq no longer renders: {}", (dir / name).string(), ec.message()));
    }
  }
  const std::set<std::string> now(rendered.begin(), rendered.end());
  if (!write_atomically(dir, kRenderManifest, manifest_text(now), &why)) return fail(why);
  return 0;
}

}  // namespace mkq::cli
