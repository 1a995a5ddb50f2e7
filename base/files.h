// Writing a file so that a reader never sees half of it: the text goes to a
// temporary beside the target (`.NAME.tmp.PID`, hidden, in the same directory
// so that the rename cannot cross file systems), is flushed to the disk
// (fsync), and is renamed over the target -- or, for a file that must be new,
// linked to it, which refuses a target that exists, atomically. A write that
// fails leaves the target as it was and removes its temporary.
//
// The one home of mkq's atomic writes: `mkq fmt`'s policies, `render -o`'s
// files and manifest, `mkq import`'s new policy, saved plan files, `state
// pull`'s state and the state's backups, the sandbox's certificates, keys,
// kubeconfig and state.json.
//
//   base::FileWrite options;
//   options.mode = base::FileMode::OwnerOnly;
//   base::Result<void> written = base::write_file(path, text, options);
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "base/result.h"

namespace mkq::base {

// Error::reason of a file that must be new and exists (FileWrite::create_new).
inline constexpr const char* kFileExists = "AlreadyExists";
// Error::reason of any other failed write (the message names the file and the system's reason).
inline constexpr const char* kFileNotWritten = "FileError";

// The permission bits of the file written.
enum class FileMode {
  Default,        // 0666 less the umask, as a new file gets them
  OwnerOnly,      // 0600 whatever the umask: a file that may hold a secret or a plan
  KeepExisting,   // those of the file it replaces (Default when there is none): rewriting keeps them
  WorldReadable,  // 0644 whatever the umask: a certificate or a pid file others read, written by the owner
};

struct FileWrite {
  FileMode mode = FileMode::Default;
  // Refuse (Error reason kFileExists) a target that exists; never replace it.
  bool create_new = false;
  // How the error's message names the file ("cannot write WHAT: why"); empty: its path.
  std::string what;
};

// `.NAME.tmp.PID` beside `target`: where this process stages `target`'s text.
std::filesystem::path temporary_path_for(const std::filesystem::path& target);

// Whether a directory entry is such a temporary (of any process): what a write
// that was interrupted left behind.
bool is_temporary_name(std::string_view name);

// Writes `text` to `target` atomically (above).
Result<void> write_file(const std::filesystem::path& target, std::string_view text,
                        const FileWrite& options = {});

// The two halves of write_file, for a caller that writes several files and
// renames them only once all are written: stage_file writes and flushes
// temporary_path_for(target); commit_file moves the staged text into place
// (removing the temporary when it cannot); discard_file removes a staged
// temporary that will not be committed.
Result<void> stage_file(const std::filesystem::path& target, std::string_view text,
                        const FileWrite& options = {});
Result<void> commit_file(const std::filesystem::path& target, const FileWrite& options = {});
void discard_file(const std::filesystem::path& target);

}  // namespace mkq::base
