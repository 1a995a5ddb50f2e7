// The sandbox's parts over an explicit ClusterState: the router and the verbs
// without a Cluster around them, and the post-write hooks (cluster_state.h).
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "api_test_support.h"
#include "sandbox/cluster_state.h"
#include "sandbox/crds.h"
#include "sandbox/routing.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

// What a recording hook saw: "resource ns" per call.
struct Seen {
  std::vector<std::string> writes;
};

std::shared_ptr<ClusterState> bare_state() {
  std::string error;
  auto store = Store::open(":memory:", &error);
  REQUIRE(store);
  auto state = std::make_shared<ClusterState>("bare", std::move(store), ClusterOptions{});
  const std::lock_guard<std::mutex> lock(state->mutex);
  refresh_registry(*state);
  return state;
}

PostWriteHook recording(const std::shared_ptr<Seen>& seen, const std::string& tag, bool wrote) {
  return [seen, tag, wrote](ClusterState&, const WriteEvent& write) {
    seen->writes.push_back(tag + " " + write.info.resource + " " + write.ns);
    return wrote;
  };
}

std::string configmap(const std::string& name) {
  return json({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}}).dump();
}

TEST_CASE("post-write hooks run in the order they were registered, and report any write", "[sandbox][hooks]") {
  auto state = bare_state();
  auto seen = std::make_shared<Seen>();
  state->post_write_hooks = {recording(seen, "a", false), recording(seen, "b", false)};
  const ResourceInfo& info = *state->registry.find("", "v1", "configmaps");
  const std::string ns = "team";
  const std::lock_guard<std::mutex> lock(state->mutex);
  CHECK_FALSE(run_post_write_hooks(*state, WriteEvent{info, ns}));
  state->post_write_hooks.push_back(recording(seen, "c", true));
  CHECK(run_post_write_hooks(*state, WriteEvent{info, ns}));
  CHECK(seen->writes == std::vector<std::string>{"a configmaps team", "b configmaps team", "a configmaps team",
                                                 "b configmaps team", "c configmaps team"});
}

TEST_CASE("the router runs the hooks after successful writes only, never for reads or dry runs", "[sandbox][hooks]") {
  auto state = bare_state();
  auto seen = std::make_shared<Seen>();
  state->post_write_hooks = {recording(seen, "h", false)};
  const json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team"}}}};
  REQUIRE(route(state, request("POST", "/api/v1/namespaces", ns.dump())).status == 201);
  REQUIRE(route(state, request("POST", "/api/v1/namespaces/team/configmaps", configmap("one"))).status == 201);
  CHECK(seen->writes == std::vector<std::string>{"h namespaces ", "h configmaps team"});

  seen->writes.clear();
  CHECK(route(state, request("GET", "/api/v1/namespaces/team/configmaps/one")).status == 200);
  CHECK(route(state, request("GET", "/api/v1/namespaces/team/configmaps")).status == 200);
  CHECK(route(state, request("POST", "/api/v1/namespaces/team/configmaps", configmap("two"), {{"dryRun", "All"}}))
            .status == 201);
  CHECK(route(state, request("POST", "/api/v1/namespaces/team/configmaps", configmap("one"))).status == 409);
  CHECK(route(state, request("DELETE", "/api/v1/namespaces/team/configmaps/missing")).status == 404);
  CHECK(seen->writes.empty());

  CHECK(route(state, request("DELETE", "/api/v1/namespaces/team/configmaps/one")).status == 200);
  CHECK(seen->writes == std::vector<std::string>{"h configmaps team"});
  CHECK(body_of(route(state, request("GET", "/api/v1/namespaces/team/configmaps")))["items"].empty());
}

}  // namespace
}  // namespace mkq::sandbox
