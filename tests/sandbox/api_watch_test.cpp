// Watch streams, persistence across reopen, server-side apply.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <sstream>
#include <unistd.h>
#include <thread>

#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

std::vector<json> events(const std::string& chunk) {
  std::vector<json> out;
  std::istringstream in(chunk);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

TEST_CASE("sandbox api: watch from now, from a resourceVersion, with a timeout", "[sandbox][api][watch]") {
  auto c = testing::memory_cluster();
  c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"a"}})"));
  auto w = c->handle(request("GET", "/api/v1/namespaces/default/configmaps", "", {{"watch", "1"}, {"timeoutSeconds", "2"}}));
  REQUIRE(w.stream);
  std::string chunk;
  REQUIRE(w.stream(chunk));
  auto initial = events(chunk);
  REQUIRE(initial.size() == 1);
  CHECK(initial[0]["type"] == "ADDED");
  CHECK(initial[0]["object"]["metadata"]["name"] == "a");
  CHECK(initial[0]["object"]["kind"] == "ConfigMap");

  std::thread writer([&] {
    c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"b"}})"));
    c->handle(request("DELETE", "/api/v1/namespaces/default/configmaps/a"));
  });
  std::vector<json> seen;
  while (seen.size() < 2 && w.stream(chunk)) {
    for (auto& e : events(chunk)) seen.push_back(e);
  }
  writer.join();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0]["type"] == "ADDED");
  CHECK(seen[0]["object"]["metadata"]["name"] == "b");
  CHECK(seen[1]["type"] == "DELETED");
  // The timeout ends the stream.
  const auto start = std::chrono::steady_clock::now();
  while (w.stream(chunk)) {
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(4));

  // From a resourceVersion: only later events; /watch/ paths work too.
  const auto list = body_of(c->handle(request("GET", "/api/v1/namespaces/default/configmaps")));
  const std::string rv = list["metadata"]["resourceVersion"];
  c->handle(request("PATCH", "/api/v1/namespaces/default/configmaps/b", R"({"data":{"x":"1"}})", {}, "application/merge-patch+json"));
  auto from = c->handle(request("GET", "/api/v1/watch/namespaces/default/configmaps", "", {{"resourceVersion", rv}, {"timeoutSeconds", "1"}}));
  REQUIRE(from.stream);
  REQUIRE(from.stream(chunk));
  auto later = events(chunk);
  REQUIRE(later.size() == 1);
  CHECK(later[0]["type"] == "MODIFIED");
  CHECK(later[0]["object"]["data"]["x"] == "1");

  // A resourceVersion that is no uint64: the watch cache's unwrapped parse error, a 500 without a reason.
  for (const char* bad : {"abc", "12abc", "-1"}) {
    const auto refused = c->handle(request("GET", "/api/v1/watch/namespaces/default/configmaps", "", {{"resourceVersion", bad}}));
    CHECK_FALSE(refused.stream);
    CHECK(refused.status == 500);
    CHECK(body_of(refused) == json{{"kind", "Status"},
                                   {"apiVersion", "v1"},
                                   {"metadata", json::object()},
                                   {"status", "Failure"},
                                   {"message", fmt::format("resourceVersion: Invalid value: \"{0}\": strconv.ParseUint: parsing \"{0}\": invalid syntax", bad)},
                                   {"code", 500}});
  }
}

TEST_CASE("sandbox api: watch filters by namespace and label, bookmarks", "[sandbox][api][watch]") {
  auto c = testing::memory_cluster();
  c->handle(request("POST", "/api/v1/namespaces", R"({"metadata":{"name":"other"}})"));
  auto w = c->handle(request("GET", "/api/v1/namespaces/default/configmaps", "",
                             {{"watch", "true"}, {"resourceVersion", "1"}, {"labelSelector", "keep"}, {"timeoutSeconds", "1"}}));
  c->handle(request("POST", "/api/v1/namespaces/other/configmaps", R"({"metadata":{"name":"x","labels":{"keep":"1"}}})"));
  c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"y"}})"));
  c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"z","labels":{"keep":"1"}}})"));
  std::string chunk;
  std::vector<json> seen;
  while (w.stream(chunk)) {
    for (auto& e : events(chunk)) seen.push_back(e);
  }
  REQUIRE(seen.size() == 1);
  CHECK(seen[0]["object"]["metadata"]["name"] == "z");

  auto b = c->handle(request("GET", "/api/v1/namespaces/default/configmaps", "",
                             {{"watch", "true"}, {"resourceVersion", "100"}, {"allowWatchBookmarks", "true"}, {"timeoutSeconds", "7"}}));
  REQUIRE(b.stream(chunk));
  auto bookmark = events(chunk);
  REQUIRE(bookmark.size() == 1);
  CHECK(bookmark[0]["type"] == "BOOKMARK");
  CHECK(bookmark[0]["object"]["metadata"].contains("resourceVersion"));
}

TEST_CASE("sandbox api: state survives reopening the database", "[sandbox][api][store]") {
  const auto dir = std::filesystem::temp_directory_path() / ("mkq-sandbox-api-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto db = dir / "c.db";
  std::string rv;
  {
    std::string error;
    auto c = Cluster::open("c", db, &error);
    REQUIRE(c);
    c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", testing::widget_crd().dump()));
    auto created = body_of(c->handle(request("POST", "/apis/example.com/v1/widgets",
                                             R"({"metadata":{"name":"w"},"spec":{"size":3}})")));
    rv = created["metadata"]["resourceVersion"];
  }
  std::string error;
  auto c = Cluster::open("c", db, &error);
  REQUIRE(c);
  CHECK(c->name() == "c");
  CHECK(c->object_count() == 6 + 14 + 3);  // with the bootstrap RBAC objects, the kubernetes Service and the system PriorityClasses, created once
  auto w = c->handle(request("GET", "/apis/example.com/v1/widgets/w"));
  REQUIRE(w.status == 200);
  CHECK(body_of(w)["spec"]["size"] == 3);
  auto next = body_of(c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"n"}})")));
  CHECK(std::stoll(next["metadata"]["resourceVersion"].get<std::string>()) > std::stoll(rv));
  c.reset();
  std::filesystem::remove_all(dir);
}

TEST_CASE("sandbox api: server-side apply creates, merges and reports conflicts", "[sandbox][api][apply]") {
  auto c = testing::memory_cluster();
  const std::string path = "/api/v1/namespaces/default/configmaps/cfg";
  const std::string apply_type = "application/apply-patch+yaml";
  auto first = c->handle(request("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"a":"1","b":"2"}})",
                                 {{"fieldManager", "alice"}}, apply_type));
  REQUIRE(first.status == 201);
  auto obj = body_of(first);
  REQUIRE(obj["metadata"]["managedFields"].size() == 1);
  CHECK(obj["metadata"]["managedFields"][0]["manager"] == "alice");
  CHECK(obj["metadata"]["managedFields"][0]["operation"] == "Apply");
  CHECK(obj["metadata"]["managedFields"][0]["fieldsV1"]["f:data"].contains("f:a"));

  // Another manager changing alice's field conflicts.
  auto clash = c->handle(request("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"a":"9"}})",
                                 {{"fieldManager", "bob"}}, apply_type));
  REQUIRE(clash.status == 409);
  CHECK(body_of(clash)["reason"] == "Conflict");
  CHECK(body_of(clash)["message"] == "Apply failed with 1 conflict: conflict with \"alice\": .data.a");
  CHECK(body_of(clash)["details"]["causes"][0]["field"] == ".data.a");
  // Same value: shared ownership, no conflict; a new field merges.
  auto shared = c->handle(request("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"a":"1","c":"3"}})",
                                  {{"fieldManager", "bob"}}, apply_type));
  REQUIRE(shared.status == 200);
  CHECK(body_of(shared)["data"] == json({{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  // Forced: bob takes the field.
  auto forced = c->handle(request("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"a":"9","c":"3"}})",
                                  {{"fieldManager", "bob"}, {"force", "true"}}, apply_type));
  REQUIRE(forced.status == 200);
  CHECK(body_of(forced)["data"]["a"] == "9");
  // alice stops applying b: it is removed.
  auto dropped = c->handle(request("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{}})",
                                   {{"fieldManager", "alice"}}, apply_type));
  REQUIRE(dropped.status == 200);
  CHECK_FALSE(body_of(dropped)["data"].contains("b"));
  CHECK(body_of(dropped)["data"]["a"] == "9");
  CHECK(c->handle(request("PATCH", path, "{}", {}, apply_type)).status == 422);  // fieldManager required

  // An update owns only what it changed.
  auto labelled = c->handle(request("PATCH", path, R"({"metadata":{"labels":{"l":"1"}}})", {{"fieldManager", "kubectl-label"}},
                                    "application/merge-patch+json"));
  REQUIRE(labelled.status == 200);
  auto again = c->handle(request("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"a":"9","c":"4"}})",
                                 {{"fieldManager", "bob"}}, apply_type));
  CHECK(again.status == 200);
  c->handle(request("PATCH", path, R"({"data":{"c":"5"}})", {{"fieldManager", "kubectl-edit"}}, "application/merge-patch+json"));
  auto edited = c->handle(request("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"a":"9","c":"6"}})",
                                  {{"fieldManager", "bob"}}, apply_type));
  CHECK(edited.status == 409);
  CHECK(body_of(edited)["message"] == "Apply failed with 1 conflict: conflict with \"kubectl-edit\" using v1: .data.c");
}

TEST_CASE("sandbox api: managedFields in a write are kept, replaced or cleared as kube-apiserver does",
          "[sandbox][api][apply]") {
  auto c = testing::memory_cluster();
  const std::string path = "/api/v1/namespaces/default/configmaps/cfg";
  const std::string merge = "application/merge-patch+json";
  const auto managers = [](const ApiResponse& response) {
    std::vector<std::string> out;
    for (const auto& entry : body_of(response)["metadata"].value("managedFields", json::array())) {
      out.push_back(entry.value("manager", std::string()) + "/" + entry.value("operation", std::string()));
    }
    return out;
  };
  REQUIRE(c->handle(request("PATCH", path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"a":"1"}})",
                            {{"fieldManager", "mkq"}}, "application/apply-patch+yaml"))
              .status == 201);
  auto labelled = c->handle(request("PATCH", path, R"({"metadata":{"labels":{"team":"a"}}})",
                                    {{"fieldManager", "kubectl-label"}}, merge));
  REQUIRE(managers(labelled) == std::vector<std::string>{"mkq/Apply", "kubectl-label/Update"});
  const json entries = body_of(labelled)["metadata"]["managedFields"];

  // A write without managedFields keeps them.
  auto kept = c->handle(request("PATCH", path, R"({"metadata":{"annotations":{"x":"y"}}})", {}, merge));
  CHECK(managers(kept) == std::vector<std::string>{"mkq/Apply", "kubectl-label/Update"});
  // A list replaces them; the write's own changes go to its field manager.
  json patch = {{"metadata", {{"managedFields", json::array({entries[1]})}}}, {"data", {{"a", "0"}}}};
  auto replaced = c->handle(request("PATCH", path, patch.dump(), {{"fieldManager", "mkq-release"}}, merge));
  REQUIRE(replaced.status == 200);
  CHECK(managers(replaced) == std::vector<std::string>{"kubectl-label/Update", "mkq-release/Update"});
  CHECK(body_of(replaced)["metadata"]["managedFields"][1]["fieldsV1"] == json({{"f:data", {{"f:a", json::object()}}}}));
  // One empty entry, or an empty list, clears them.
  for (const char* reset : {R"({"metadata":{"managedFields":[{}]}})", R"({"metadata":{"managedFields":[]}})"}) {
    c->handle(request("PATCH", path, R"({"metadata":{"labels":{"team":"b"}}})", {{"fieldManager", "kubectl-label"}}, merge));
    auto cleared = c->handle(request("PATCH", path, reset, {}, merge));
    REQUIRE(cleared.status == 200);
    CHECK_FALSE(body_of(cleared)["metadata"].contains("managedFields"));
  }
}

}  // namespace
}  // namespace mkq::sandbox
