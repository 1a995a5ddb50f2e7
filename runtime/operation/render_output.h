// `mkq render -o DIR`: what render writes into a directory, and the rules of
// the directory it owns (docs/render.md, "A directory for GitOps").
//
// What it writes: one file per cluster and a README.md. The worker credential
// Secrets (kueue::Object::holds_credential_placeholder) are left out unless
// placeholders are asked for: synced by Argo CD or Flux, a placeholder would
// replace the real kubeconfig mkq issues and disconnect the worker.
//
// The directory it owns: render records every file it writes in DIR's manifest
// (`.mkq-render`, which neither kubectl, Argo CD nor Flux reads: no
// .yaml/.json extension), rewrites those files on the next render, removes the
// ones it no longer renders (a worker that left the policy), and refuses a
// directory holding anything it did not write -- before writing or removing
// anything. Its own temporaries (base/files.h) left by an interrupted render
// are removed.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/result.h"
#include "compiler/kueue/lower.h"

namespace mkq::operation {

inline constexpr const char* kRenderManifest = ".mkq-render";

// The files of a render into a directory: name -> text.
using RenderedFiles = std::map<std::string, std::string>;

struct RenderFilesOptions {
  bool json = false;  // CLUSTER.json in JSON; else CLUSTER.yaml in YAML
  // Write the worker credential Secrets as placeholders (left out by default).
  bool include_credential_placeholders = false;
};

// The worker credential Secrets of `cluster` as "NAMESPACE/NAME", taken out of
// it unless `keep`.
std::vector<std::string> take_credentials_out(kueue::ClusterObjects& cluster, bool keep);

// Every cluster of `lowering` as its file, and README.md.
RenderedFiles render_cluster_files(const kueue::ClusterLowering& lowering, const RenderFilesOptions& options);

// What a render into a directory would do, decided from names only.
struct RenderDirChanges {
  std::vector<std::string> foreign;  // entries render did not write: it refuses the directory
  std::vector<std::string> stale;    // files it wrote before and renders no more: removed
};

// `present`: DIR's entries (the manifest and render's own temporaries left
// out); `recorded`: the files the manifest lists; `rendered`: the files this
// render writes. Every list sorted in the result.
RenderDirChanges render_dir_changes(const std::vector<std::string>& present,
                                    const std::vector<std::string>& recorded,
                                    const std::vector<std::string>& rendered);

// Writes `files` into `dir` as render owns it: refuses (nothing written or
// removed; the Error says why) a directory holding entries it did not write
// or an unreadable manifest; else writes every file beside its target and
// renames them only when all were written, removes the stale ones and
// records the new set. The manifest is first written with the old and new
// names together, so that an interrupted render never leaves a file it wrote
// unrecorded.
base::Result<void> write_render_dir(const std::filesystem::path& dir, const RenderedFiles& files);

}  // namespace mkq::operation
