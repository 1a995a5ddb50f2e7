// `kueue { platform = "openshift" }` (issue 15.4): the operator's Kueue
// resource instead of Kueue's ConfigMap, labelled managed namespaces, the
// operator's namespace, the batch personas' ClusterRoles.
#include <catch2/catch.hpp>

#include "tests/kueue/kueue_test_support.h"

using kueuetest::ClusterObjects;
using kueuetest::count_kind;
using kueuetest::find_cluster;
using kueuetest::find_object;
using kueuetest::Json;
using kueuetest::Object;
using kueuetest::render_text;

namespace {

constexpr const char* kPolicy = R"(
manager "hub" {}
worker "w" { capacity "gpu" { "nvidia.com/gpu" = 8 } }
flavor "gpu" {}
namespace "team" { labels = { tier: "gold" } }
kueue {
  platform = "openshift"
  integrations = ["batch/job", "ray.io/rayjob"]
  manage_jobs_without_queue_name = true
  gang_scheduling {}
  fair_sharing {}
}
clusterqueue "q" {
  quota "gpu" { "nvidia.com/gpu" = 8 }
  localqueue "lq" in "team" {}
}
access "admins" { role = "batch-admin", users = ["ada"] }
dispatch "d" { queues = ["q"], workers = ["w"] }
)";

}  // namespace

TEST_CASE("lower openshift: the Kueue resource named cluster replaces the ConfigMap",
          "[kueue][lower][openshift]") {
  const auto r = render_text(kPolicy);
  INFO(r->messages());
  REQUIRE(r->state);
  const ClusterObjects& hub = *find_cluster(*r->state, "hub");
  CHECK(count_kind(hub, "ConfigMap") == 0);
  const Object* kueue = find_object(hub, "Kueue", "cluster");
  REQUIRE(kueue != nullptr);
  CHECK(kueue->api_version == "kueue.openshift.io/v1");
  CHECK_FALSE(kueue->kueue_configuration);  // an ordinary object for apply: no merge, no restart by mkq
  CHECK(
      kueue->document.at("spec").dump() ==
      R"({"managementState":"Managed","config":{"integrations":{"frameworks":["BatchJob","RayJob"]},)"
      R"("workloadManagement":{"labelPolicy":"None"},)"
      R"("gangScheduling":{"policy":"ByWorkload","byWorkload":{"admission":"Parallel","timeoutSeconds":300}},)"
      R"("preemption":{"preemptionPolicy":"FairSharing"}}})");
  // Applied with Kueue's configuration, before the objects that need Kueue.
  CHECK(&hub.objects[1] == kueue);
  // Workers get no Kueue configuration, as on Kubernetes.
  CHECK(count_kind(*find_cluster(*r->state, "w"), "Kueue") == 0);
}

TEST_CASE(
    "lower openshift: namespaces are labelled managed on the manager and the workers, Secrets in the "
    "operator's namespace",
    "[kueue][lower][openshift]") {
  const auto r = render_text(kPolicy);
  REQUIRE(r->state);
  for (const char* cluster : {"hub", "w"}) {
    const Object* ns = find_object(*find_cluster(*r->state, cluster), "Namespace", "team");
    REQUIRE(ns != nullptr);
    CHECK(
        ns->document.at("metadata").at("labels").dump() ==
        R"({"app.kubernetes.io/managed-by":"mkq","kueue.openshift.io/managed":"true","mkq.dev/policy":"test","tier":"gold"})");
  }
  const ClusterObjects& hub = *find_cluster(*r->state, "hub");
  CHECK(find_object(hub, "Secret", "w-kubeconfig", "openshift-kueue-operator") != nullptr);
  CHECK(find_object(*find_cluster(*r->state, "w"), "ServiceAccount", "multikueue-sa",
                    "openshift-kueue-operator") != nullptr);
  const Object* admins = find_object(hub, "ClusterRoleBinding", "admins");
  REQUIRE(admins != nullptr);
  CHECK(admins->document.at("roleRef").at("name") == "kueue-batch-admin-role");
}

TEST_CASE("lower openshift: without the platform, Kueue's ConfigMap and unlabelled namespaces",
          "[kueue][lower][openshift]") {
  std::string policy = kPolicy;
  policy.replace(policy.find("  platform = \"openshift\"\n"), 25, "");
  const auto r = render_text(policy);
  INFO(r->messages());
  REQUIRE(r->state);
  const ClusterObjects& hub = *find_cluster(*r->state, "hub");
  CHECK(count_kind(hub, "Kueue") == 0);
  CHECK(find_object(hub, "ConfigMap", "kueue-manager-config", "kueue-system") != nullptr);
  CHECK_FALSE(find_object(hub, "Namespace", "team")
                  ->document.at("metadata")
                  .at("labels")
                  .contains("kueue.openshift.io/managed"));
}
