// `mkq render -o DIR`: the directory render owns (docs/render.md, "A
// directory for GitOps"). Render records every file it writes in DIR's
// manifest (`.mkq-render`, which neither kubectl, Argo CD nor Flux reads: no
// .yaml/.json extension), rewrites those files on the next render, removes
// the ones it no longer renders (a worker that left the policy), and refuses a
// directory holding anything it did not write -- before writing or removing
// anything.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mkq::cli {

inline constexpr const char* kRenderManifest = ".mkq-render";

// What a render into a directory would do, decided from names only.
struct RenderDirChanges {
  std::vector<std::string> foreign;  // entries render did not write: it refuses the directory
  std::vector<std::string> stale;    // files it wrote before and renders no more: removed
};

// `present`: DIR's entries (the manifest and render's own temporaries left
// out); `recorded`: the files the manifest lists; `rendered`: the files this
// render writes. Every list sorted in the result.
RenderDirChanges render_dir_changes(const std::vector<std::string>& present, const std::vector<std::string>& recorded,
                                    const std::vector<std::string>& rendered);

// Writes `files` (name -> text) into `dir` as render owns it: refuses
// (nothing written or removed) a directory holding entries it did not write
// or an unreadable manifest; else writes every file beside its target and
// renames them only when all were written, removes the stale ones and
// records the new set. The manifest is first written with the old and new
// names together, so that an interrupted render never leaves a file it wrote
// unrecorded. An error says why on stderr and returns 1; else 0.
int write_render_dir(const std::filesystem::path& dir, const std::map<std::string, std::string>& files);

}  // namespace mkq::cli
