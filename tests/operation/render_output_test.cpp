// `mkq render -o DIR`'s rules (render_output.h) over a temporary directory:
// which entries render owns, what it replaces and removes, its temporaries,
// a manifest it did not write, and the credential Secrets left out.
#include "runtime/operation/render_output.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "base/files.h"
#include "tests/support/temp_dir.h"

namespace mkq::operation {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// DIR's entries, sorted.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

using Names = std::vector<std::string>;

TEST_CASE("render_dir_changes: what render does not own, and what it no longer renders",
          "[operation][render]") {
  const RenderDirChanges changes =
      render_dir_changes({"worker2.yaml", "notes.txt", "manager.yaml", "app.yaml"},
                         {"manager.yaml", "worker2.yaml", "gone.yaml"}, {"manager.yaml", "worker1.yaml"});
  CHECK(changes.foreign == Names{"app.yaml", "notes.txt"});
  // gone.yaml is recorded but not present: nothing to remove.
  CHECK(changes.stale == Names{"worker2.yaml"});
  CHECK(render_dir_changes({}, {}, {"manager.yaml"}).foreign.empty());
}

TEST_CASE("write_render_dir writes, rewrites, removes what it no longer renders", "[operation][render]") {
  mkq::testing::TempDir tmp;
  const fs::path dir = tmp / "out";
  REQUIRE(
      write_render_dir(dir, {{"manager.yaml", "m1\n"}, {"worker1.yaml", "w1\n"}, {"worker2.yaml", "w2\n"}}));
  CHECK(entries(dir) == Names{".mkq-render", "manager.yaml", "worker1.yaml", "worker2.yaml"});
  CHECK(read(dir / kRenderManifest).find(R"("files": [
    "manager.yaml",
    "worker1.yaml",
    "worker2.yaml"
  ])") != std::string::npos);

  // worker2 leaves; an interrupted render's temporary is cleared.
  std::ofstream(dir / ".worker1.yaml.tmp.12345") << "half";
  REQUIRE(write_render_dir(dir, {{"manager.yaml", "m2\n"}, {"worker1.yaml", "w1\n"}}));
  CHECK(entries(dir) == Names{".mkq-render", "manager.yaml", "worker1.yaml"});
  CHECK(read(dir / "manager.yaml") == "m2\n");
  CHECK(read(dir / kRenderManifest).find("worker2") == std::string::npos);
}

TEST_CASE("write_render_dir refuses a directory holding what it did not write, and changes nothing",
          "[operation][render]") {
  mkq::testing::TempDir tmp;
  const fs::path dir = tmp / "out";
  REQUIRE(write_render_dir(dir, {{"manager.yaml", "m1\n"}, {"worker2.yaml", "w2\n"}}));
  std::ofstream(dir / "notes.txt") << "mine";
  const std::string manifest = read(dir / kRenderManifest);

  const base::Result<void> written = write_render_dir(dir, {{"manager.yaml", "m2\n"}});
  REQUIRE_FALSE(written);
  CHECK(written.error().message ==
        dir.string() +
            " holds an entry mkq did not write (notes.txt); render -o writes only into an empty directory or "
            "one it "
            "wrote before (listed in .mkq-render): choose another directory; nothing was written or removed");
  CHECK(entries(dir) == Names{".mkq-render", "manager.yaml", "notes.txt", "worker2.yaml"});
  CHECK(read(dir / "manager.yaml") == "m1\n");
  CHECK(read(dir / kRenderManifest) == manifest);

  // Someone else's directory, never written by render: six entries, five named.
  const fs::path theirs = tmp / "theirs";
  fs::create_directories(theirs);
  for (const char* name : {"a", "b", "c", "d", "e", "f"}) std::ofstream(theirs / name) << name;
  const base::Result<void> refused = write_render_dir(theirs, {{"manager.yaml", "m\n"}});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("holds entries mkq did not write (a, b, c, d, e and 1 more)") !=
        std::string::npos);
  CHECK(entries(theirs).size() == 6);
}

TEST_CASE("write_render_dir refuses a manifest it did not write, or one naming a path",
          "[operation][render]") {
  mkq::testing::TempDir tmp;
  const fs::path dir = tmp / "out";
  fs::create_directories(dir);
  std::ofstream(dir / "victim.yaml") << "keep";
  SECTION("not a manifest") { std::ofstream(dir / kRenderManifest) << "files: [victim.yaml]"; }
  SECTION("a name outside DIR") {
    std::ofstream(dir / kRenderManifest) << R"({"mkq_render": 1, "files": ["../victim.yaml"]})";
  }
  SECTION("a hidden name") {
    std::ofstream(dir / kRenderManifest) << R"({"mkq_render": 1, "files": [".x"]})";
  }
  const base::Result<void> written = write_render_dir(dir, {{"manager.yaml", "m\n"}});
  REQUIRE_FALSE(written);
  CHECK(written.error().message.ends_with("; nothing was written or removed"));
  CHECK(entries(dir) == Names{".mkq-render", "victim.yaml"});
  CHECK(read(dir / "victim.yaml") == "keep");
}

TEST_CASE("write_render_dir renames nothing when one file cannot be written", "[operation][render]") {
  mkq::testing::TempDir tmp;
  const fs::path dir = tmp / "out";
  REQUIRE(write_render_dir(dir, {{"manager.yaml", "m1\n"}}));
  // A directory where worker1.yaml's temporary would go: its staging fails.
  // (Not empty: the clearing of an interrupted render's temporaries cannot remove it.)
  fs::create_directories(base::temporary_path_for(dir / "worker1.yaml"));
  std::ofstream(base::temporary_path_for(dir / "worker1.yaml") / "x") << "x";
  const base::Result<void> written =
      write_render_dir(dir, {{"manager.yaml", "m2\n"}, {"worker1.yaml", "w1\n"}});
  REQUIRE_FALSE(written);
  CHECK(written.error().message.starts_with("cannot write " + (dir / "worker1.yaml").string() + ": "));
  CHECK(read(dir / "manager.yaml") == "m1\n");  // the staged manager.yaml was not moved into place
  CHECK_FALSE(fs::exists(base::temporary_path_for(dir / "manager.yaml")));
}

TEST_CASE("take_credentials_out leaves the worker credential Secrets out unless kept",
          "[operation][render]") {
  kueue::ClusterObjects cluster;
  cluster.cluster = "manager";
  cluster.role = kueue::ClusterRole::Manager;
  kueue::Object secret;
  secret.kind = "Secret";
  secret.namespace_name = "kueue-system";
  secret.name = "worker1-secret";
  secret.holds_credential_placeholder = true;
  kueue::Object cluster_object;
  cluster_object.kind = "MultiKueueCluster";
  cluster_object.name = "worker1";
  cluster.objects = {secret, cluster_object};

  kueue::ClusterObjects kept = cluster;
  CHECK(take_credentials_out(kept, true) == Names{"kueue-system/worker1-secret"});
  CHECK(kept.objects.size() == 2);
  CHECK(take_credentials_out(cluster, false) == Names{"kueue-system/worker1-secret"});
  REQUIRE(cluster.objects.size() == 1);
  CHECK(cluster.objects[0].kind == "MultiKueueCluster");
}

}  // namespace
}  // namespace mkq::operation
