// A LIST in pages (verbs_read.cpp, Store::list_page_at): every page reads the
// first page's snapshot, every page but the last says how many are left, a
// snapshot the event log no longer holds is 410 with a token that continues
// at the latest, and a continue token is read as kube-apiserver reads one.
#include <catch2/catch.hpp>

#include "sandbox/identity.h"
#include "sandbox/store.h"
#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

const char* const kConfigMaps = "/api/v1/namespaces/default/configmaps";

void create(Cluster& c, const std::string& name, const std::string& value = "old") {
  const json cm = {{"metadata", {{"name", name}, {"labels", {{"app", "x"}}}}}, {"data", {{"v", value}}}};
  REQUIRE(c.handle(request("POST", kConfigMaps, cm.dump())).status == 201);
}

std::vector<std::string> names_and_values(const json& list) {
  std::vector<std::string> out;
  for (const json& item : list["items"]) {
    out.push_back(item["metadata"]["name"].get<std::string>() + "=" + item["data"]["v"].get<std::string>());
  }
  return out;
}

using V = std::vector<std::string>;

TEST_CASE(
    "sandbox list pages: later pages read the first page's snapshot, remainingItemCount on all but the last",
    "[sandbox][list]") {
  auto c = testing::memory_cluster();
  for (const char* name : {"a", "b", "c", "d", "e"}) create(*c, name);
  // With no selector (spliced from the stored text), and with one (each object read).
  const std::multimap<std::string, std::string> selector =
      GENERATE(std::multimap<std::string, std::string>{},
               std::multimap<std::string, std::string>{{"labelSelector", "app=x"}});
  const json page1 = body_of(c->handle(request("GET", kConfigMaps, "", [&] {
    auto q = selector;
    q.emplace("limit", "2");
    return q;
  }())));
  CHECK(names_and_values(page1) == V{"a=old", "b=old"});
  const std::string snapshot = page1["metadata"]["resourceVersion"];
  if (selector.empty())
    CHECK(page1["metadata"]["remainingItemCount"] == 3);
  else
    CHECK_FALSE(page1["metadata"].contains("remainingItemCount"));  // kube-apiserver cannot count matches

  // Between the pages: c changes, d is deleted, "bb" and "f" are created.
  REQUIRE(c->handle(request("PATCH", std::string(kConfigMaps) + "/c", R"({"data":{"v":"new"}})", {},
                            "application/merge-patch+json"))
              .status == 200);
  REQUIRE(c->handle(request("DELETE", std::string(kConfigMaps) + "/d")).status == 200);
  create(*c, "bb", "new");
  create(*c, "f", "new");

  auto next = [&](const json& page) {
    auto q = selector;
    q.emplace("limit", "2");
    q.emplace("continue", page["metadata"]["continue"].get<std::string>());
    const ApiResponse answer = c->handle(request("GET", kConfigMaps, "", q));
    REQUIRE(answer.status == 200);
    return body_of(answer);
  };
  const json page2 = next(page1);
  CHECK(names_and_values(page2) == V{"c=old", "d=old"});
  CHECK(page2["metadata"]["resourceVersion"] == snapshot);
  if (selector.empty()) CHECK(page2["metadata"]["remainingItemCount"] == 1);
  const json page3 = next(page2);
  CHECK(names_and_values(page3) == V{"e=old"});
  CHECK(page3["metadata"]["resourceVersion"] == snapshot);
  CHECK_FALSE(page3["metadata"].contains("continue"));
  CHECK_FALSE(page3["metadata"].contains("remainingItemCount"));

  // A new LIST sees today's objects.
  CHECK(names_and_values(body_of(c->handle(request("GET", kConfigMaps)))) ==
        V{"a=old", "b=old", "bb=new", "c=new", "e=old", "f=new"});
}

TEST_CASE("sandbox list pages: the continue token is kube-apiserver's, and read as it reads one",
          "[sandbox][list]") {
  auto c = testing::memory_cluster();
  for (const char* name : {"a", "b", "c"}) create(*c, name);
  const json page = body_of(c->handle(request("GET", kConfigMaps, "", {{"limit", "1"}})));
  const auto token = base64url_decode(page["metadata"]["continue"].get<std::string>());
  REQUIRE(token);
  CHECK(*token == R"({"v":"meta.k8s.io/v1","rv":)" + page["metadata"]["resourceVersion"].get<std::string>() +
                      R"(,"start":"a\u0000"})");
  // Across namespaces the key names the namespace.
  const json all = body_of(c->handle(request("GET", "/api/v1/configmaps", "", {{"limit", "1"}})));
  CHECK(base64url_decode(all["metadata"]["continue"].get<std::string>())
            ->find(R"("start":"default/a\u0000")") != std::string::npos);

  const auto refused = [&](const std::string& continue_value, const std::string& resource_version = "") {
    std::multimap<std::string, std::string> q{{"limit", "1"}, {"continue", continue_value}};
    if (!resource_version.empty()) q.emplace("resourceVersion", resource_version);
    const ApiResponse answer = c->handle(request("GET", kConfigMaps, "", q));
    CHECK(answer.status == 400);
    CHECK(body_of(answer)["reason"] == "BadRequest");
    return body_of(answer)["message"].get<std::string>();
  };
  CHECK(refused("abc!def") ==
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 3");
  CHECK(refused("abcde") ==
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 4");
  CHECK(refused(base64url(R"({"v":"v1","rv":1,"start":"a"})")) ==
        "invalid continue token: continue key is not valid: server does not recognize this encoded version");
  CHECK(refused(base64url(R"({"v":"meta.k8s.io/v1","rv":0,"start":"a"})")) ==
        "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version "
        "meta.k8s.io/v1)");
  CHECK(
      refused(base64url(R"({"v":"meta.k8s.io/v1","rv":1,"start":""})")) ==
      "invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)");
  CHECK(refused(base64url(R"({"v":"meta.k8s.io/v1","rv":1,"start":"../x"})")) ==
        "invalid continue token: continue key is not valid: ../x");
  CHECK(refused(page["metadata"]["continue"], "5") ==
        "specifying resource version is not allowed when using continue");
  // resourceVersion=0 with a continue token is allowed.
  CHECK(c->handle(
             request("GET", kConfigMaps, "",
                     {{"limit", "1"}, {"continue", page["metadata"]["continue"]}, {"resourceVersion", "0"}}))
            .status == 200);
}

TEST_CASE("sandbox list pages: a snapshot older than the event log is 410 Expired with a token for the rest",
          "[sandbox][list]") {
  auto c = testing::memory_cluster();
  for (const char* name : {"a", "b", "c"}) create(*c, name);
  const json page1 = body_of(c->handle(request("GET", kConfigMaps, "", {{"limit", "1"}})));
  // Enough writes elsewhere that the log is compacted past the snapshot.
  for (std::int64_t i = 0; i <= kEventLogSize + 1000; ++i) {
    REQUIRE(c->handle(request("PATCH", std::string(kConfigMaps) + "/c",
                              json{{"data", {{"v", std::to_string(i)}}}}.dump(), {},
                              "application/merge-patch+json"))
                .status == 200);
  }
  const ApiResponse expired = c->handle(
      request("GET", kConfigMaps, "", {{"limit", "1"}, {"continue", page1["metadata"]["continue"]}}));
  CHECK(expired.status == 410);
  const json status = body_of(expired);
  CHECK(status["reason"] == "Expired");
  CHECK(
      status["message"] ==
      "The provided continue parameter is too old to display a consistent list result. You can start a new "
      "list "
      "without the continue parameter, or use the continue token in this response to retrieve the remainder "
      "of the "
      "results. Continuing with the provided token results in an inconsistent list - objects that were "
      "created, "
      "modified, or deleted between the time the first chunk was returned and now may show up in the list.");
  REQUIRE(status["metadata"].contains("continue"));
  CHECK(*base64url_decode(status["metadata"]["continue"].get<std::string>()) ==
        R"({"v":"meta.k8s.io/v1","rv":-1,"start":"a\u0000"})");
  // resourceVersionMatch=Exact at that resourceVersion: etcd's answer for a compacted revision.
  const ApiResponse exact = c->handle(request(
      "GET", kConfigMaps, "",
      {{"resourceVersion", page1["metadata"]["resourceVersion"]}, {"resourceVersionMatch", "Exact"}}));
  CHECK(exact.status == 410);
  CHECK(body_of(exact)["reason"] == "Expired");
  CHECK(body_of(exact)["message"] == "The resourceVersion for the provided list is too old.");
  // So does a `limit` with that resourceVersion and no match: the legacy Exact, from etcd too.
  const ApiResponse legacy = c->handle(
      request("GET", kConfigMaps, "", {{"resourceVersion", page1["metadata"]["resourceVersion"]}, {"limit", "1"}}));
  CHECK(legacy.status == 410);
  CHECK(body_of(legacy)["message"] == "The resourceVersion for the provided list is too old.");
  // That token continues after "a" at the latest resourceVersion.
  const json rest =
      body_of(c->handle(request("GET", kConfigMaps, "", {{"continue", status["metadata"]["continue"]}})));
  CHECK(names_and_values(rest) == V{"b=old", "c=" + std::to_string(kEventLogSize + 1000)});
}

// ConfigMaps a and b at `then`; since then a changed (v=new), b was deleted and c created.
struct History {
  decltype(testing::memory_cluster()) cluster;
  std::string then;

  auto list(std::multimap<std::string, std::string> query) const {
    return cluster->handle(request("GET", kConfigMaps, "", std::move(query)));
  }
};

History history() {
  auto c = testing::memory_cluster();
  for (const char* name : {"a", "b"}) create(*c, name);
  const std::string then = body_of(c->handle(request("GET", kConfigMaps)))["metadata"]["resourceVersion"];
  REQUIRE(c->handle(request("PATCH", std::string(kConfigMaps) + "/a", R"({"data":{"v":"new"}})", {},
                            "application/merge-patch+json"))
              .status == 200);
  REQUIRE(c->handle(request("DELETE", std::string(kConfigMaps) + "/b")).status == 200);
  create(*c, "c");
  return {std::move(c), then};
}

TEST_CASE("sandbox list: resourceVersionMatch Exact reads that resourceVersion, NotOlderThan the latest",
          "[sandbox][list]") {
  const History h = history();
  const std::string& then = h.then;
  const auto list = [&h](std::multimap<std::string, std::string> query) { return h.list(std::move(query)); };
  json exact = body_of(list({{"resourceVersion", then}, {"resourceVersionMatch", "Exact"}}));
  CHECK(names_and_values(exact) == V{"a=old", "b=old"});
  CHECK(exact["metadata"]["resourceVersion"] == then);
  exact = body_of(list({{"resourceVersion", then}, {"resourceVersionMatch", "Exact"}, {"labelSelector", "app=x"}}));
  CHECK(names_and_values(exact) == V{"a=old", "b=old"});
  CHECK(names_and_values(body_of(list({{"resourceVersion", then}, {"resourceVersionMatch", "NotOlderThan"}}))) ==
        V{"a=new", "c=old"});

  // ValidateListOptions' refusals, a 422 on ListOptions.
  const auto message = [&](std::multimap<std::string, std::string> query) {
    const ApiResponse r = list(std::move(query));
    CHECK(r.status == 422);
    return body_of(r)["message"].get<std::string>();
  };
  CHECK(message({{"resourceVersionMatch", "Exact"}}) ==
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is "
        "forbidden unless resourceVersion is provided");
  CHECK(message({{"resourceVersion", "0"}, {"resourceVersionMatch", "Exact"}}) ==
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" "
        "is forbidden for resourceVersion \"0\"");
  CHECK(message({{"resourceVersion", then}, {"resourceVersionMatch", "Sometimes"}}) ==
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Unsupported value: \"Sometimes\": "
        "supported values: \"Exact\", \"NotOlderThan\", \"\"");
  CHECK(message({{"resourceVersion", then}, {"resourceVersionMatch", "Exact"}, {"continue", "x"}}) ==
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is "
        "forbidden when continue is provided");

  // A resourceVersion the cluster has not reached: 504, as the storage layer answers.
  const std::int64_t current = std::stoll(body_of(list({}))["metadata"]["resourceVersion"].get<std::string>());
  const std::string future = std::to_string(current + 100);
  ApiResponse r = list({{"resourceVersion", future}, {"resourceVersionMatch", "NotOlderThan"}});
  CHECK(r.status == 504);
  CHECK(body_of(r)["reason"] == "Timeout");
  CHECK(body_of(r)["message"] == "Timeout: Too large resource version: " + future + ", current: " + std::to_string(current));
  CHECK(body_of(r)["details"]["causes"][0]["reason"] == "ResourceVersionTooLarge");
  CHECK(r.headers["Retry-After"] == "1");
  r = list({{"resourceVersion", future}, {"resourceVersionMatch", "Exact"}});
  CHECK(r.status == 504);
  CHECK(r.headers.count("Retry-After") == 0);
}

TEST_CASE("sandbox list: a resourceVersion without resourceVersionMatch is read as kube-apiserver reads it",
          "[sandbox][list]") {
  const History h = history();
  const std::string& then = h.then;
  const auto list = [&h](std::multimap<std::string, std::string> query) { return h.list(std::move(query)); };
  const std::string current = body_of(list({}))["metadata"]["resourceVersion"];
  REQUIRE(current != then);

  // Without a limit the watch cache serves it: "0" any state (the current one here), another
  // resourceVersion NotOlderThan -- the latest state, the list at the current resourceVersion.
  for (const std::string& rv : {std::string("0"), then, current}) {
    const json latest = body_of(list({{"resourceVersion", rv}}));
    CHECK(names_and_values(latest) == V{"a=new", "c=old"});
    CHECK(latest["metadata"]["resourceVersion"] == current);
  }
  // With a limit, "0" is still any state; another is the legacy Exact (etcd at that revision),
  // and its pages continue in that snapshot.
  CHECK(names_and_values(body_of(list({{"resourceVersion", "0"}, {"limit", "5"}}))) == V{"a=new", "c=old"});
  const json page1 = body_of(list({{"resourceVersion", then}, {"limit", "1"}}));
  CHECK(names_and_values(page1) == V{"a=old"});
  CHECK(page1["metadata"]["resourceVersion"] == then);
  const json page2 = body_of(list({{"limit", "1"}, {"continue", page1["metadata"]["continue"]}}));
  CHECK(names_and_values(page2) == V{"b=old"});
  CHECK_FALSE(page2["metadata"].contains("continue"));

  // One the cluster has not reached: the watch cache's 504 with Retry-After, etcd's without.
  const std::string future = std::to_string(std::stoll(current) + 100);
  ApiResponse r = list({{"resourceVersion", future}});
  CHECK(r.status == 504);
  CHECK(body_of(r) == json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
                                  R"("message":"Timeout: Too large resource version: )" +
                                  future + ", current: " + current +
                                  R"(","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge",)"
                                  R"("message":"Too large resource version"}],"retryAfterSeconds":1},"code":504})"));
  CHECK(r.headers["Retry-After"] == "1");
  r = list({{"resourceVersion", future}, {"limit", "1"}});
  CHECK(r.status == 504);
  CHECK_FALSE(body_of(r)["details"].contains("retryAfterSeconds"));
  CHECK(r.headers.count("Retry-After") == 0);
  // The largest uint64 is a resourceVersion too, one past it is not.
  r = list({{"resourceVersion", "18446744073709551615"}});
  CHECK(r.status == 504);
  CHECK(body_of(r)["message"] == "Timeout: Too large resource version: 18446744073709551615, current: " + current);

  // Not a uint64: the watch cache hands ParseResourceVersion's error up unwrapped, a 500
  // without a reason; etcd (a limit, or resourceVersionMatch=Exact) a 400.
  const auto parse_error = [](const std::string& rv, const std::string& why) {
    return "resourceVersion: Invalid value: \"" + rv + "\": strconv.ParseUint: parsing \"" + rv + "\": " + why;
  };
  for (const auto& [rv, why] : std::vector<std::pair<std::string, std::string>>{
           {"abc", "invalid syntax"},
           {"-1", "invalid syntax"},
           {"+5", "invalid syntax"},
           {" 5", "invalid syntax"},
           {"18446744073709551616", "value out of range"}}) {
    r = list({{"resourceVersion", rv}});
    CHECK(r.status == 500);
    CHECK(body_of(r) == json{{"kind", "Status"},
                             {"apiVersion", "v1"},
                             {"metadata", json::object()},
                             {"status", "Failure"},
                             {"message", parse_error(rv, why)},
                             {"code", 500}});
    CHECK(list({{"resourceVersion", rv}, {"resourceVersionMatch", "NotOlderThan"}}).status == 500);
    for (const auto& etcd : std::vector<std::multimap<std::string, std::string>>{
             {{"resourceVersion", rv}, {"limit", "1"}},
             {{"resourceVersion", rv}, {"resourceVersionMatch", "Exact"}},
             {{"resourceVersion", rv}, {"limit", "1"}, {"continue", page1["metadata"]["continue"]}}}) {
      r = list(etcd);
      CHECK(r.status == 400);
      CHECK(body_of(r)["reason"] == "BadRequest");
      CHECK(body_of(r)["message"] == "invalid resource version: " + parse_error(rv, why));
    }
  }
}

TEST_CASE("sandbox store: a page at an older resourceVersion from the event log", "[sandbox][list]") {
  std::string error;
  auto store = Store::open(":memory:", &error);
  REQUIRE(store);
  auto put = [&](const std::string& name, const std::string& value, const char* type) {
    json object = {{"metadata", {{"name", name}, {"namespace", "ns"}}}, {"v", value}};
    return store->put({"", "configmaps", "ns", name}, object, type);
  };
  put("a", "1", "ADDED");
  put("b", "1", "ADDED");
  const std::int64_t at = put("c", "1", "ADDED");
  put("b", "2", "MODIFIED");
  json last = {{"metadata", {{"name", "a"}, {"namespace", "ns"}}}, {"v", "1"}};
  store->remove({"", "configmaps", "ns", "a"}, last);
  put("a", "3", "ADDED");  // deleted and created again
  put("d", "1", "ADDED");
  const auto values = [](const ListPage& page) {
    std::vector<std::string> out;
    for (const StoredText& row : page.rows)
      out.push_back(row.name + "=" + json::parse(row.body)["v"].get<std::string>());
    return out;
  };
  const auto then = store->list_page_at("", "configmaps", std::string("ns"), "", 0, at, false);
  REQUIRE(then);
  CHECK(values(*then) == V{"a=1", "b=1", "c=1"});
  const auto first = store->list_page_at("", "configmaps", std::string("ns"), "", 2, at, true);
  REQUIRE(first);
  CHECK(values(*first) == V{"a=1", "b=1"});
  CHECK(first->more);
  CHECK(first->remaining == 1);
  const auto after_b = store->list_page_at("", "configmaps", std::nullopt, "ns\nb", 5, at, true);
  REQUIRE(after_b);
  CHECK(values(*after_b) == V{"c=1"});
  CHECK_FALSE(after_b->more);
  const auto now =
      store->list_page_at("", "configmaps", std::string("ns"), "", 0, store->current_rv(), false);
  CHECK(values(*now) == V{"a=3", "b=2", "c=1", "d=1"});
}

}  // namespace
}  // namespace mkq::sandbox
