// A policy's identity (policy_name.h): where it lives, however its path is
// typed; the derived name; the choice against its state; relabelling.
#include <catch2/catch.hpp>

#include <fstream>

#include "compiler/kueue/policy_name.h"
#include "compiler/kueue/schema.h"
#include "tests/support/temp_dir.h"

using mkq::kueue::choose_identity;
using mkq::kueue::derived_policy_name;
using mkq::kueue::policy_home;
using mkq::kueue::policy_name_for;
using mkq::kueue::to_label_value;
namespace fs = std::filesystem;

namespace {

void touch(const fs::path& path) { std::ofstream(path) << "manager \"m\" {}\n"; }

// Restores the working directory at the end of a test.
class InDirectory {
 public:
  explicit InDirectory(const fs::path& dir) : saved_(fs::current_path()) { fs::current_path(dir); }
  ~InDirectory() { fs::current_path(saved_); }
  InDirectory(const InDirectory&) = delete;
  InDirectory& operator=(const InDirectory&) = delete;

 private:
  fs::path saved_;
};

}  // namespace

TEST_CASE("identity: a directory, its only file and its inside are one policy", "[kueue][identity]") {
  mkq::testing::TempDir tmp;
  const fs::path dir = fs::canonical(tmp.path()) / "fleet";
  fs::create_directories(dir);
  touch(dir / "policy.mkq");
  for (const fs::path& typed : {dir, fs::path(dir.string() + "/"), dir / "policy.mkq", dir / "." / "policy.mkq"}) {
    INFO(typed);
    CHECK(policy_home(typed).directory == dir);
    CHECK(policy_home(typed).stem.empty());
    CHECK(policy_name_for(typed) == "fleet");
  }
  InDirectory inside(dir);
  CHECK(policy_home(".").directory == dir);
  CHECK(policy_home("policy.mkq").directory == dir);
  CHECK(policy_name_for(".") == "fleet");
  CHECK(policy_name_for("policy.mkq") == "fleet");
}

TEST_CASE("identity: a file among several is a policy of its own, named by its stem", "[kueue][identity]") {
  mkq::testing::TempDir tmp;
  const fs::path dir = fs::canonical(tmp.path());
  touch(dir / "gpu.mkq");
  touch(dir / "cpu.mkq");
  CHECK(policy_home(dir / "gpu.mkq").directory == dir);
  CHECK(policy_home(dir / "gpu.mkq").stem == "gpu");
  CHECK(policy_name_for(dir / "gpu.mkq") == "gpu");
  CHECK(policy_home(dir).stem.empty());  // the directory: both files, one policy
  CHECK(derived_policy_name(policy_home(dir)) == to_label_value(dir.filename().string()));
  // Not there yet: a name ending in .mkq is a file, anything else a directory.
  CHECK(policy_home(dir / "new.mkq").stem == "new");
  CHECK(policy_home(dir / "new-dir").directory == dir / "new-dir");
  CHECK(policy_home(dir / "new-dir").stem.empty());
}

TEST_CASE("identity: derived names are valid label values", "[kueue][identity]") {
  CHECK(policy_name_for("/nonexistent/examples/quickstart") == "quickstart");
  CHECK(policy_name_for("/nonexistent/examples/tas/../gpu-fleet") == "gpu-fleet");
  CHECK(to_label_value("My Policy") == "My-Policy");
  CHECK(to_label_value("_x_") == "x");
  CHECK(to_label_value("...") == "policy");
  CHECK(to_label_value("") == "policy");
  CHECK(to_label_value("a.b_c-d") == "a.b_c-d");
  CHECK(to_label_value(std::string(80, 'a')).size() == 63);
  CHECK(to_label_value(std::string(62, 'a') + "-b") == std::string(62, 'a'));
  CHECK(to_label_value("équipe") == "quipe");
}

TEST_CASE("identity: declared, else the state's, else derived, a state of another policy is refused",
          "[kueue][identity]") {
  // Nothing recorded yet: the declared or the derived name.
  CHECK(choose_identity("gpu", "", "dir", true, "s.db").value() == "gpu");
  CHECK(choose_identity(std::nullopt, "", "dir", true, "s.db").value() == "dir");
  // The state's identity is kept when the policy's own state (beside it) has one: a moved directory.
  CHECK(choose_identity(std::nullopt, "old-name", "new-name", true, "s.db").value() == "old-name");
  CHECK(choose_identity("gpu", "gpu", "dir", false, "s.db").value() == "gpu");
  // A declared name that differs from the state's: never a silent rename.
  const auto renamed = choose_identity("gpu", "tas", "dir", true, "/p/.mkq/state.db");
  REQUIRE_FALSE(renamed.ok());
  CHECK(renamed.error().reason == "ConfigError");
  CHECK(renamed.error().message ==
        "the state /p/.mkq/state.db belongs to policy 'tas', this policy declares 'gpu': a policy is not renamed "
        "silently; declare `policy \"tas\" {}` to keep its objects, or pass --state FILE for another state");
  // A state named with --state that belongs to another policy.
  const auto other = choose_identity(std::nullopt, "tas", "dir", false, "other.db");
  REQUIRE_FALSE(other.ok());
  CHECK(other.error().message ==
        "the state other.db belongs to policy 'tas', this policy is 'dir': pass --state FILE for another state, or "
        "declare `policy \"tas\" {}` in the policy if it is the same one");
}

TEST_CASE("identity: relabel gives every object the identity", "[kueue][identity]") {
  mkq::kueue::DesiredState desired;
  desired.policy = "old";
  mkq::kueue::Object object;
  object.document = {{"apiVersion", "v1"},
                     {"kind", "Namespace"},
                     {"metadata", {{"name", "a"}, {"labels", {{"mkq.dev/policy", "old"}, {"team", "a"}}}}}};
  desired.clusters.push_back({"m", mkq::kueue::ClusterRole::Manager, {object}});
  mkq::kueue::relabel(desired, "new");
  CHECK(desired.policy == "new");
  CHECK(desired.clusters[0].objects[0].document["metadata"]["labels"] ==
        mkq::kueue::Json({{"mkq.dev/policy", "new"}, {"team", "a"}}));
}
