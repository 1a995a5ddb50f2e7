// The sandbox stays up whatever a request carries (issue 16.1): bodies past
// kube-apiserver's size limit, JSON nested past its depth limit, and a fuzz of
// malformed JSON, YAML and protobuf bodies against every write verb. A crash
// (a stack overflow, an uncaught exception) ends this test process; each case
// then checks the next request is still answered.
#include <catch2/catch.hpp>
#include <random>
#include <thread>

#include "sandbox/limits.h"
#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::kueue_crd;
using mkq::sandbox::testing::request;
using nlohmann::json;

std::string nested(int depth, const std::string& leaf = "1") {
  return std::string(static_cast<std::size_t>(depth), '[') + leaf + std::string(static_cast<std::size_t>(depth), ']');
}

// A Workload (schema-less: every field is kept) with `value` at .spec.deep.
std::string workload_with(const std::string& name, const std::string& value) {
  return R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","metadata":{"name":")" + name +
         R"("},"spec":{"deep":)" + value + "}}";
}

void require_alive(Cluster& c) {
  const ApiResponse r = c.handle(request("GET", "/api/v1/namespaces/default"));
  REQUIRE(r.status == 200);
}

std::unique_ptr<Cluster> cluster_with_workloads() {
  auto c = mkq::sandbox::testing::memory_cluster();
  REQUIRE(c);
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                            kueue_crd("workloads", "Workload", true).dump()))
              .status == 201);
  return c;
}

}  // namespace

TEST_CASE("json nesting: brackets are counted outside strings only, in one pass", "[sandbox][limits]") {
  using mkq::sandbox::json_nesting_exceeds;
  CHECK_FALSE(json_nesting_exceeds("{\"a\":[1,2,{\"b\":3}]}", 3));
  CHECK(json_nesting_exceeds("{\"a\":[1,2,{\"b\":3}]}", 2));
  CHECK_FALSE(json_nesting_exceeds("{\"a\":\"[[[[[[\"}", 1));
  CHECK_FALSE(json_nesting_exceeds("{\"a\":\"\\\"[[[[\"}", 1));  // an escaped quote does not end the string
  CHECK(json_nesting_exceeds(nested(10001), 10000));
  CHECK_FALSE(json_nesting_exceeds(nested(10000), 10000));
  CHECK_FALSE(json_nesting_exceeds("]]]]}}}}", 0));  // stray closers never go below zero
}

TEST_CASE("a body nested past 10,000 levels gets kube-apiserver's 400, the cluster stays up", "[sandbox][limits]") {
  auto c = cluster_with_workloads();
  for (const int depth : {10001, 100000, 1000000}) {
    INFO(depth);
    const ApiResponse created = c->handle(request(
        "POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads", workload_with("deep", nested(depth))));
    CHECK(created.status == 400);
    const json status = body_of(created);
    CHECK(status["reason"] == "BadRequest");
    CHECK(status["message"] ==
          "the object provided is unrecognized (must be of type Workload): couldn't get version/kind; json parse error: "
          "exceeded max depth ({\"apiVersion\":\"kueue.x-k8s.io/ ...)");
    require_alive(*c);
  }
  const ApiResponse patched = c->handle(request("PATCH", "/api/v1/namespaces/default", "{\"metadata\":" + nested(20000, "{}") + "}",
                                                {}, "application/merge-patch+json"));
  CHECK(patched.status == 400);
  CHECK(body_of(patched)["message"] == "error decoding patch: exceeded max depth");
  const ApiResponse deleted = c->handle(request("DELETE", "/api/v1/namespaces/default", nested(20000)));
  CHECK(deleted.status == 400);
  require_alive(*c);
}

TEST_CASE("an object nested to the limit is stored, read, listed, patched, applied and deleted on a worker thread",
          "[sandbox][limits]") {
  auto c = cluster_with_workloads();
  // Run where the HTTPS transport runs requests: on a pool thread with the default stack.
  std::thread worker([&c] {
    const std::string path = "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads";
    const std::string deep = nested(9990);
    REQUIRE(c->handle(request("POST", path, workload_with("deep", deep))).status == 201);
    CHECK(c->handle(request("GET", path + "/deep")).status == 200);
    auto table = request("GET", path);
    table.headers["accept"] = "application/json;as=Table;v=v1;g=meta.k8s.io";
    CHECK(c->handle(table).status == 200);
    CHECK(c->handle(request("PATCH", path + "/deep", R"({"spec":{"other":1}})", {}, "application/merge-patch+json")).status == 200);
    CHECK(c->handle(request("PATCH", path + "/deep", R"([{"op":"add","path":"/spec/x","value":2}])", {},
                            "application/json-patch+json"))
              .status == 200);
    CHECK(c->handle(request("PATCH", path + "/deep", workload_with("deep", deep), {{"fieldManager", "a"}, {"force", "true"}},
                            "application/apply-patch+yaml"))
              .status == 200);
    CHECK(c->handle(request("DELETE", path + "/deep")).status == 200);
  });
  worker.join();
  require_alive(*c);
}

TEST_CASE("a body over 3 MiB gets 413 RequestEntityTooLarge from the cluster too", "[sandbox][limits]") {
  auto c = mkq::sandbox::testing::memory_cluster();
  const std::string big = R"({"metadata":{"name":"big"},"data":{"a":")" + std::string(mkq::sandbox::kMaxRequestBodyBytes, 'x') + "\"}}";
  const ApiResponse r = c->handle(request("POST", "/api/v1/namespaces/default/configmaps", big));
  CHECK(r.status == 413);
  CHECK(body_of(r)["reason"] == "RequestEntityTooLarge");
  CHECK(body_of(r)["message"] == "Request entity too large: limit is 3145728");
  require_alive(*c);
}

TEST_CASE("fuzz: malformed JSON, YAML and protobuf bodies on every write verb never take the cluster down",
          "[sandbox][limits][fuzz]") {
  auto c = cluster_with_workloads();
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"cm"},"data":{"a":"b"}})"))
              .status == 201);
  const std::vector<std::string> seeds = {
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"a":"b"}},"data":{"a":"b"}})",
      workload_with("w", R"({"podSets":[{"name":"main","count":1,"template":{"spec":{"containers":[]}}}]})"),
      R"([{"op":"replace","path":"/data/a","value":"c"},{"op":"remove","path":"/metadata/labels"}])",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: [[[[{b: c}]]]]\n",
      std::string("k8s\0\n\x0c\n\x02v1\x12\x06Secret\x12\x30\n\x04\n\x02s1\x12\x02\x61\x62", 36),
  };
  const std::vector<std::pair<std::string, std::string>> targets = {
      {"POST", "/api/v1/namespaces/default/configmaps"},
      {"PUT", "/api/v1/namespaces/default/configmaps/cm"},
      {"PATCH", "/api/v1/namespaces/default/configmaps/cm"},
      {"POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads"},
      {"PATCH", "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads/w"},
      {"DELETE", "/api/v1/namespaces/default/secrets/s1"},
  };
  const std::vector<std::string> types = {"application/json", "application/merge-patch+json", "application/json-patch+json",
                                          "application/strategic-merge-patch+json", "application/apply-patch+yaml",
                                          "application/yaml", "application/vnd.kubernetes.protobuf"};
  std::mt19937 random(16);  // fixed: a failure is reproducible
  const std::string alphabet = "{}[]\":,\\ \n\x00\xff" "0123456789.eE-+truefalsnul";
  int answered = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string body = seeds[random() % seeds.size()];
    const int edits = 1 + static_cast<int>(random() % 8);
    for (int e = 0; e < edits && !body.empty(); ++e) {
      const std::size_t at = random() % body.size();
      switch (random() % 5) {
        case 0: body[at] = alphabet[random() % alphabet.size()]; break;                       // flip a byte
        case 1: body.erase(at, 1 + random() % 8); break;                                      // cut
        case 2: body.insert(at, std::string(1 + random() % 64, alphabet[random() % 4])); break;  // nest
        case 3: body.resize(at); break;                                                       // truncate
        default: body.insert(at, body.substr(0, random() % body.size())); break;            // repeat
      }
    }
    const auto& [method, path] = targets[random() % targets.size()];
    auto r = request(method, path, body, {{"fieldManager", "fuzz"}}, types[random() % types.size()]);
    const ApiResponse response = c->handle(r);
    INFO(method << " " << path << " " << r.headers["content-type"] << " " << json(body).dump());
    CHECK(response.status >= 200);
    CHECK(response.status != 500);
    CHECK(body_of(response).is_object());
    ++answered;
  }
  CHECK(answered == 3000);
  require_alive(*c);
}
