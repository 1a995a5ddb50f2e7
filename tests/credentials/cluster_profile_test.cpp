// check_cluster_profiles(): the plan-time check of clusterprofile-mode workers
// against the ClusterProfiles on the manager (a FakeClient).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "runtime/credentials/cluster_profile.h"
#include "tests/support/fake_client.h"
#include "tests/kueue/kueue_test_support.h"

namespace {

using mkq::credentials::check_cluster_profiles;
using mkq::kube::FakeClient;
using mkq::kube::Json;

const char* const kPolicy = R"(
manager "m" {}

kueue {
  multikueue {
    access_provider "google" { command = "/plugins/gke-gcloud-auth-plugin" }
    access_provider "secretreader" { command = "/plugins/secretreader-plugin", provide_cluster_info = true }
  }
}

worker "east" { credentials { mode = "clusterprofile", cluster_profile = "east-profile" } }
worker "west" { credentials { mode = "clusterprofile" } }
worker "plain" {}
)";

const mkq::kube::ResourceType kClusterProfileType{"multicluster.x-k8s.io", "v1alpha1", "ClusterProfile",
                                                  "clusterprofiles", true};

Json profile(const std::string& name, const std::string& ns, const std::vector<std::string>& access,
             const std::vector<std::string>& deprecated = {}) {
  Json object = {{"apiVersion", "multicluster.x-k8s.io/v1alpha1"},
                 {"kind", "ClusterProfile"},
                 {"metadata", {{"name", name}, {"namespace", ns}}},
                 {"spec", {{"clusterManager", {{"name", "fleet"}}}}}};
  Json status = Json::object();
  const auto providers = [](const std::vector<std::string>& names) {
    Json list = Json::array();
    for (const auto& n : names) list.push_back({{"name", n}, {"cluster", {{"server", "https://" + n + ".example"}}}});
    return list;
  };
  if (!access.empty()) status["accessProviders"] = providers(access);
  if (!deprecated.empty()) status["credentialProviders"] = providers(deprecated);
  object["status"] = status;
  return object;
}

struct Setup {
  std::unique_ptr<kueuetest::Rendered> rendered = kueuetest::render_text(kPolicy);
  FakeClient manager;
  Setup() {
    INFO(rendered->messages());
    REQUIRE(rendered->policy);
    REQUIRE_FALSE(rendered->diagnostics.has_errors());
  }
  const mkq::sema::model::Policy& policy() const { return *rendered->policy; }
  int lists() const {
    int n = 0;
    for (const auto& call : manager.calls()) n += call.rfind("LIST ", 0) == 0 ? 1 : 0;
    return n;
  }
};

}  // namespace

TEST_CASE("cluster profiles: all present with a declared provider", "[credentials][clusterprofile]") {
  Setup s;
  s.manager.serve(kClusterProfileType);
  s.manager.put(profile("east-profile", "kueue-system", {"google", "other"}));
  s.manager.put(profile("west", "kueue-system", {}, {"secretreader"}));  // the deprecated field counts too
  CHECK(check_cluster_profiles(s.policy(), &s.manager).empty());
  CHECK(s.lists() == 1);  // one LIST for every worker
}

TEST_CASE("cluster profiles: the manager does not serve the kind", "[credentials][clusterprofile]") {
  Setup s;
  const auto problems = check_cluster_profiles(s.policy(), &s.manager);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "the manager does not serve ClusterProfile (multicluster.x-k8s.io/v1alpha1): install the Cluster Inventory "
        "API CRDs");
}

TEST_CASE("cluster profiles: missing, in another namespace, or without a matching provider",
          "[credentials][clusterprofile]") {
  Setup s;
  s.manager.serve(kClusterProfileType);
  s.manager.put(profile("east-profile", "kueue-system", {"b-provider", "a-provider"}));
  s.manager.put(profile("west", "default", {"google"}));  // not Kueue's namespace
  const auto problems = check_cluster_profiles(s.policy(), &s.manager);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] ==
        "worker east: ClusterProfile kueue-system/east-profile offers access providers [a-provider, b-provider], "
        "none of which the policy's kueue settings name (declared: [google, secretreader])");
  CHECK(problems[1] ==
        "worker west: ClusterProfile kueue-system/west does not exist on the manager (Kueue reads it from its "
        "namespace kueue-system)");
  CHECK(s.lists() == 1);
}

TEST_CASE("cluster profiles: a profile whose status offers nothing", "[credentials][clusterprofile]") {
  Setup s;
  s.manager.serve(kClusterProfileType);
  s.manager.put(profile("east-profile", "kueue-system", {}));
  s.manager.put(profile("west", "kueue-system", {"google"}));
  const auto problems = check_cluster_profiles(s.policy(), &s.manager);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].rfind("worker east: ClusterProfile kueue-system/east-profile offers no access provider", 0) == 0);
}

TEST_CASE("cluster profiles: a LIST failure and an unreachable manager", "[credentials][clusterprofile]") {
  Setup s;
  s.manager.serve(kClusterProfileType);
  s.manager.fail_when([](const std::string& call) -> std::optional<mkq::kube::Error> {
    if (call.rfind("LIST ", 0) == 0) return mkq::kube::Error{403, "Forbidden", "clusterprofiles is forbidden", Json()};
    return std::nullopt;
  });
  auto problems = check_cluster_profiles(s.policy(), &s.manager);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "cannot list ClusterProfiles in namespace kueue-system on the manager: clusterprofiles is forbidden");

  s.manager.set_unreachable(true);
  problems = check_cluster_profiles(s.policy(), &s.manager);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].rfind("cannot look up ClusterProfile on the manager: ", 0) == 0);
  CHECK(check_cluster_profiles(s.policy(), nullptr).size() == 1);
}

TEST_CASE("cluster profiles: no clusterprofile worker, no call", "[credentials][clusterprofile]") {
  auto rendered = kueuetest::render_text("manager \"m\" {}\nworker \"w\" {}\n");
  REQUIRE(rendered->policy);
  FakeClient manager;
  CHECK(check_cluster_profiles(*rendered->policy, &manager).empty());
  CHECK(manager.calls().empty());
  CHECK(check_cluster_profiles(*rendered->policy, nullptr).empty());
}
