// The real PolicyWatch: a digest of the content of every file under the
// policy's directories (the policy itself and its --import-root
// directories), read through symbolic links. A mounted ConfigMap changes by
// swapping its `..data` symlink to a new timestamped directory: the files'
// content changes, so does the digest. Entries whose names start with a dot
// are skipped: the state beside the policy (.mkq/), a checkout's .git/, and
// the ConfigMap's own `..data` and `..2026_...` directories (their files are
// read through the policy's names).
#pragma once

#include <string>
#include <vector>

#include "runtime/controller/controller.h"

namespace mkq::controller {

class DirectoryWatch final : public PolicyWatch {
 public:
  // `paths`: files or directories (a directory is read recursively).
  explicit DirectoryWatch(std::vector<std::string> paths) : paths_(std::move(paths)) {}
  // Changes when a file is added, removed, renamed or changed; a file that
  // cannot be read counts as such (its name and the error).
  std::string digest() override;

 private:
  std::vector<std::string> paths_;
};

}  // namespace mkq::controller
