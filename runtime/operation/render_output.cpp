// What `mkq render -o DIR` writes, and the directory it owns (render_output.h).
#include "runtime/operation/render_output.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "compiler/kueue/render.h"

namespace mkq::operation {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int kManifestVersion = 1;

// A directory render does not own, or a manifest it did not write: nothing was written or removed.
base::Error refused(const std::string& why) {
  return base::Error::config(why + "; nothing was written or removed");
}

// An error of the file system, as it is.
base::Error failed(std::string message) { return base::Error(0, base::kFileNotWritten, std::move(message)); }

// The README render writes into DIR: what the directory is, and why the
// worker credentials are not in it (or, with placeholders, why to beware).
std::string readme(const std::vector<std::string>& credentials, const std::string& manager,
                   bool placeholders) {
  std::string out =
      "# Rendered by mkq\n\n"
      "`mkq render -o` wrote the files of this directory, one per cluster, and lists them in\n"
      "`.mkq-render`. The next render rewrites them and removes those of clusters it no longer\n"
      "renders; it refuses a directory holding files it did not write, so keep nothing else here.\n";
  if (credentials.empty()) return out;
  out += placeholders
             ? "\nThe worker credential Secrets are placeholders (--include-credential-placeholders):\n\n"
             : "\nLeft out on purpose: the worker credential Secrets, which `mkq apply` or `mkq controller`\n"
               "issues and keeps current (a placeholder synced from here would replace the real kubeconfig\n"
               "and disconnect the worker):\n\n";
  for (const std::string& name : credentials) {
    fmt::format_to(std::back_inserter(out), "- Secret {} on {}\n", name, manager);
  }
  out += placeholders
             ? "\nApplied as they are -- by Argo CD, Flux or `kubectl apply --server-side --force-conflicts` "
               "-- they\n"
               "replace the real kubeconfigs and disconnect the workers. `mkq apply` or `mkq controller`\n"
               "issues the real ones.\n"
             : "\n`mkq render -o DIR --include-credential-placeholders` writes placeholders all the same.\n";
  return out;
}

std::string manifest_text(const std::set<std::string>& files) {
  std::string text = Json{
      {"mkq_render", kManifestVersion},
      {"note", "the files mkq render -o wrote here; it rewrites them and removes those it no longer renders"},
      {"files", files}}.dump(2);
  text += '\n';
  return text;
}

// The files the manifest lists, or why it cannot be read as one.
base::Result<std::vector<std::string>> read_manifest(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const Json manifest = Json::parse(text, nullptr, false);
  if (!in || manifest.is_discarded() || !manifest.is_object() || !manifest.contains("files") ||
      manifest.value("mkq_render", 0) != kManifestVersion || !manifest["files"].is_array()) {
    return refused(
        fmt::format("{} is not a manifest this mkq wrote (mkq_render {})", file.string(), kManifestVersion));
  }
  std::vector<std::string> files;
  for (const Json& name : manifest["files"]) {
    // Only plain names: a manifest never makes render remove anything outside DIR.
    if (!name.is_string() || name.get<std::string>().find('/') != std::string::npos ||
        name.get<std::string>().empty() || name.get<std::string>()[0] == '.') {
      return refused(fmt::format("{} lists {}, which render never writes", file.string(), name.dump()));
    }
    files.push_back(name.get<std::string>());
  }
  return files;
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

std::vector<std::string> take_credentials_out(kueue::ClusterObjects& cluster, bool keep) {
  std::vector<std::string> out;
  for (const kueue::Object& object : cluster.objects) {
    if (object.holds_credential_placeholder) out.push_back(object.namespace_name + "/" + object.name);
  }
  if (!keep)
    std::erase_if(cluster.objects, [](const kueue::Object& o) { return o.holds_credential_placeholder; });
  return out;
}

RenderedFiles render_cluster_files(const kueue::ClusterLowering& lowering,
                                   const RenderFilesOptions& options) {
  RenderedFiles files;
  std::vector<std::string> credentials;
  std::string manager;
  for (std::size_t i = 0; i < lowering.size(); ++i) {
    kueue::ClusterObjects cluster = lowering.cluster(i);
    if (cluster.role == kueue::ClusterRole::Manager) manager = cluster.cluster;
    for (std::string& name : take_credentials_out(cluster, options.include_credential_placeholders)) {
      credentials.push_back(std::move(name));
    }
    std::string text =
        options.json ? kueue::render_cluster_json(cluster) : kueue::render_cluster_yaml(cluster);
    if (!options.json && cluster.role == kueue::ClusterRole::Manager && !credentials.empty() &&
        !options.include_credential_placeholders) {
      text =
          "# The worker credential Secrets are left out: `mkq apply` or `mkq controller` manages them "
          "(README.md)\n" +
          text;
    }
    files[cluster.cluster + (options.json ? ".json" : ".yaml")] = std::move(text);
  }
  files["README.md"] = readme(credentials, manager, options.include_credential_placeholders);
  return files;
}

RenderDirChanges render_dir_changes(const std::vector<std::string>& present,
                                    const std::vector<std::string>& recorded,
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

base::Result<void> write_render_dir(const fs::path& dir, const RenderedFiles& files) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    return failed(fmt::format("cannot create the output directory {}: {}", dir.string(),
                              ec ? ec.message() : std::string("not a directory")));
  }
  std::vector<std::string> recorded;
  const fs::path manifest = dir / kRenderManifest;
  if (fs::exists(manifest, ec)) {
    base::Result<std::vector<std::string>> listed = read_manifest(manifest);
    if (!listed) return listed.error();
    recorded = std::move(listed).value();
  }
  std::vector<std::string> present, temporaries;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == kRenderManifest) continue;
    (base::is_temporary_name(name) ? temporaries : present).push_back(name);
  }
  if (ec) return failed(fmt::format("cannot read the output directory {}: {}", dir.string(), ec.message()));
  std::vector<std::string> rendered;
  for (const auto& [name, text] : files) rendered.push_back(name);
  const RenderDirChanges changes = render_dir_changes(present, recorded, rendered);
  if (!changes.foreign.empty()) {
    return refused(
        fmt::format("{} holds {} mkq did not write ({}); render -o writes only into an empty directory or "
                    "one it wrote before (listed in {}): choose another directory",
                    dir.string(), changes.foreign.size() == 1 ? "an entry" : "entries",
                    some_of(changes.foreign), kRenderManifest));
  }
  for (const std::string& name : temporaries) fs::remove(dir / name, ec);  // what an interrupted render left
  std::set<std::string> both(recorded.begin(), recorded.end());
  both.insert(rendered.begin(), rendered.end());
  if (base::Result<void> listed = base::write_file(manifest, manifest_text(both)); !listed) return listed;
  // Every file staged beside its target first; moved into place only when all were written.
  const auto discard = [&] {
    for (const std::string& name : rendered) base::discard_file(dir / name);
  };
  for (const auto& [name, text] : files) {
    if (base::Result<void> staged = base::stage_file(dir / name, text); !staged) {
      discard();
      return staged;
    }
  }
  for (const std::string& name : rendered) {
    if (base::Result<void> committed = base::commit_file(dir / name); !committed) {
      discard();
      return committed;
    }
  }
  for (const std::string& name : changes.stale) {
    fs::remove(dir / name, ec);
    if (ec) {
      return failed(fmt::format("cannot remove {}, which mkq no longer renders: {}", (dir / name).string(),
                                ec.message()));
    }
  }
  return base::write_file(manifest, manifest_text(std::set<std::string>(rendered.begin(), rendered.end())));
}

}  // namespace mkq::operation
