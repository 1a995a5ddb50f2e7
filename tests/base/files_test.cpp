#include "base/files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <catch2/catch.hpp>

#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using mkq::base::FileMode;
using mkq::base::FileWrite;
using mkq::testing::TempDir;

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

unsigned mode_of(const fs::path& file) {
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

FileWrite owner_only() {
  FileWrite options;
  options.mode = FileMode::OwnerOnly;
  return options;
}

FileWrite keep_mode() {
  FileWrite options;
  options.mode = FileMode::KeepExisting;
  return options;
}

FileWrite new_file() {
  FileWrite options;
  options.create_new = true;
  return options;
}

FileWrite named(const std::string& what) {
  FileWrite options;
  options.what = what;
  return options;
}

}  // namespace

TEST_CASE("write_file replaces a file's text and leaves no temporary", "[base][files]") {
  TempDir dir;
  const fs::path file = dir.path() / "policy.mkq";
  std::ofstream(file) << "old text that is longer than the new one\n";
  REQUIRE(mkq::base::write_file(file, "new\n"));
  CHECK(read(file) == "new\n");
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("write_file's modes: the umask's, owner-only, or the replaced file's", "[base][files]") {
  TempDir dir;
  const mode_t previous = ::umask(022);
  REQUIRE(mkq::base::write_file(dir.path() / "plain", "x"));
  CHECK(mode_of(dir.path() / "plain") == 0644);

  REQUIRE(mkq::base::write_file(dir.path() / "plan", "x", owner_only()));
  CHECK(mode_of(dir.path() / "plan") == 0600);
  // Owner-only also when the file replaced was readable by all.
  REQUIRE(mkq::base::write_file(dir.path() / "plain", "y", owner_only()));
  CHECK(mode_of(dir.path() / "plain") == 0600);

  std::ofstream(dir.path() / "script") << "old";
  fs::permissions(dir.path() / "script", static_cast<fs::perms>(0750));
  REQUIRE(mkq::base::write_file(dir.path() / "script", "new", keep_mode()));
  CHECK(mode_of(dir.path() / "script") == 0750);
  CHECK(read(dir.path() / "script") == "new");
  // Nothing to keep: a new file's mode.
  REQUIRE(mkq::base::write_file(dir.path() / "fresh", "x", keep_mode()));
  CHECK(mode_of(dir.path() / "fresh") == 0644);
  ::umask(previous);
}

TEST_CASE("write_file's world-readable mode: 0644 whatever the umask", "[base][files]") {
  TempDir dir;
  FileWrite options;
  options.mode = FileMode::WorldReadable;
  const mode_t previous = ::umask(0);
  REQUIRE(mkq::base::write_file(dir.path() / "ca.crt", "x", options));
  CHECK(mode_of(dir.path() / "ca.crt") == 0644);
  ::umask(077);
  REQUIRE(mkq::base::write_file(dir.path() / "sandbox.pid", "1\n", options));
  CHECK(mode_of(dir.path() / "sandbox.pid") == 0644);
  // Replacing an owner-only file widens it to what was asked.
  REQUIRE(mkq::base::write_file(dir.path() / "key", "k", owner_only()));
  REQUIRE(mkq::base::write_file(dir.path() / "key", "c", options));
  CHECK(mode_of(dir.path() / "key") == 0644);
  ::umask(previous);
  CHECK(entries(dir.path()) == 3);
}

TEST_CASE("write_file with create_new refuses a file that exists and leaves it as it was", "[base][files]") {
  TempDir dir;
  const fs::path file = dir.path() / "policy.mkq";
  REQUIRE(mkq::base::write_file(file, "first", new_file()));
  CHECK(read(file) == "first");

  const mkq::base::Result<void> again = mkq::base::write_file(file, "second", new_file());
  REQUIRE_FALSE(again);
  CHECK(again.error().reason == mkq::base::kFileExists);
  CHECK(again.error().message == file.string() + " exists");
  CHECK(read(file) == "first");
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("commit_file with create_new refuses a target that appeared after the text was staged",
          "[base][files]") {
  TempDir dir;
  const fs::path file = dir.path() / "policy.mkq";
  REQUIRE(mkq::base::stage_file(file, "mine", new_file()));
  std::ofstream(file) << "theirs";  // another writer, between the check and the commit
  const mkq::base::Result<void> committed = mkq::base::commit_file(file, new_file());
  REQUIRE_FALSE(committed);
  CHECK(committed.error().reason == mkq::base::kFileExists);
  CHECK(read(file) == "theirs");
  CHECK(entries(dir.path()) == 1);  // the temporary removed
}

TEST_CASE("write_file that cannot write says which file and why, and changes nothing", "[base][files]") {
  TempDir dir;
  // A directory where the file should be: the rename over it fails (as root too).
  const fs::path file = dir.path() / "plan.json";
  fs::create_directory(file);
  const mkq::base::Result<void> written = mkq::base::write_file(file, "new", named("the plan to plan.json"));
  REQUIRE_FALSE(written);
  CHECK(written.error().reason == mkq::base::kFileNotWritten);
  CHECK(written.error().message == "cannot write the plan to plan.json: Is a directory");
  CHECK(fs::is_directory(file));
  CHECK(entries(dir.path()) == 1);  // the temporary removed

  // A directory that does not exist: the temporary cannot be made.
  const mkq::base::Result<void> nowhere = mkq::base::write_file(dir.path() / "missing" / "f", "x");
  REQUIRE_FALSE(nowhere);
  CHECK(nowhere.error().message ==
        "cannot write " + (dir.path() / "missing" / "f").string() + ": No such file or directory");
}

TEST_CASE("stage_file and commit_file: nothing is visible at the target until the commit", "[base][files]") {
  TempDir dir;
  const fs::path a = dir.path() / "a.yaml";
  const fs::path b = dir.path() / "b.yaml";
  REQUIRE(mkq::base::stage_file(a, "A"));
  REQUIRE(mkq::base::stage_file(b, "B"));
  CHECK_FALSE(fs::exists(a));
  CHECK(fs::exists(mkq::base::temporary_path_for(a)));
  REQUIRE(mkq::base::commit_file(a));
  mkq::base::discard_file(b);
  CHECK(read(a) == "A");
  CHECK_FALSE(fs::exists(b));
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("temporary names: .NAME.tmp.PID beside the target, recognised by name", "[base][files]") {
  const fs::path temporary = mkq::base::temporary_path_for("out/manager.yaml");
  CHECK(temporary.parent_path() == "out");
  CHECK(temporary.filename().string() == ".manager.yaml.tmp." + std::to_string(::getpid()));
  CHECK(mkq::base::is_temporary_name(temporary.filename().string()));
  CHECK(mkq::base::is_temporary_name(".x.tmp.1"));
  CHECK_FALSE(mkq::base::is_temporary_name("manager.yaml"));
  CHECK_FALSE(mkq::base::is_temporary_name("x.tmp.1"));     // not hidden: not ours
  CHECK_FALSE(mkq::base::is_temporary_name(".x.tmp."));     // no pid
  CHECK_FALSE(mkq::base::is_temporary_name(".x.tmp.12a"));  // not a pid
  CHECK_FALSE(mkq::base::is_temporary_name(""));
}
