// The open documents and the policies they belong to.
//
// A policy is the directory of an open file, as `mkq check DIR` reads it:
// every *.mkq there, the open ones with the editor's unsaved text instead of
// the disk's (OverlayFileSystem, through sema's FileSystem port). Analysing
// one runs the compiler stages `mkq check` runs — sema::analyze, then
// kueue::validate — and keeps the syntax trees for navigation.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/analyze.h"
#include "compiler/sema/filesystem.h"

namespace mkq::lsp {

struct Document {
  std::string uri;
  std::filesystem::path path;  // absolute, lexically normal
  std::int64_t version = 0;
  std::string text;
};

// The open documents, by path.
using Documents = std::map<std::filesystem::path, Document>;

// The disk with the open documents laid over it: an open file reads as its
// buffer (and exists even if it was never saved).
class OverlayFileSystem final : public sema::FileSystem {
 public:
  OverlayFileSystem(const sema::FileSystem& disk, const Documents& documents) : disk_(disk), documents_(documents) {}
  Kind kind(const std::filesystem::path& path) const override;
  sema::FileText read(const std::filesystem::path& path, std::uint64_t max_bytes) const override;
  std::vector<std::string> list(const std::filesystem::path& dir) const override;
  std::filesystem::path canonical(const std::filesystem::path& path) const override;

 private:
  const Document* open(const std::filesystem::path& path) const;

  const sema::FileSystem& disk_;
  const Documents& documents_;
};

// One policy, analysed. Ranges in `diagnostics` and the trees refer to
// `sources`. Holds the file system it was read through by reference: the
// server keeps its overlay for as long as any analysis.
struct Analysis {
  std::filesystem::path directory;
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  sema::ParsedPolicy parsed;  // the model is not kept: no request reads it

  // The FileId of the file at `path` among the policy's own files, if any.
  std::optional<diag::FileId> file_of(const std::filesystem::path& path) const;
  // The syntax tree of a file of the policy or a module it loaded; null when it did not parse.
  const syntax::File* tree(diag::FileId file) const;
};

// Runs `mkq check`'s stages on the policy in `directory`.
std::unique_ptr<Analysis> analyze_policy(const std::filesystem::path& directory, const sema::FileSystem& files,
                                         const std::vector<std::filesystem::path>& import_roots);

}  // namespace mkq::lsp
