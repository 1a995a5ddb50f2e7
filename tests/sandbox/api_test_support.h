// Helpers for the sandbox API tests: requests against Cluster::handle().
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "sandbox/api.h"

namespace mkq::sandbox::testing {

inline ApiRequest request(std::string method, std::string path, std::string body = {},
                          std::multimap<std::string, std::string> query = {}, std::string content_type = "application/json") {
  ApiRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.body = std::move(body);
  r.query = std::move(query);
  r.headers["content-type"] = std::move(content_type);
  r.headers["accept"] = "application/json";
  r.user = "admin";
  r.groups = {"system:masters"};
  return r;
}

inline nlohmann::json body_of(const ApiResponse& response) {
  return nlohmann::json::parse(response.body, nullptr, false);
}

inline std::unique_ptr<Cluster> memory_cluster() {
  std::string error;
  auto cluster = Cluster::open("test", ":memory:", &error);
  return cluster;
}

// A request as the admin (system:masters) that must succeed.
inline void admin(Cluster& c, const std::string& method, const std::string& path, const nlohmann::json& body,
                  const std::string& content_type = "application/json",
                  std::multimap<std::string, std::string> query = {}) {
  const ApiResponse r = c.handle(request(method, path, body.dump(), std::move(query), content_type));
  INFO(method << " " << path << ": " << r.body);
  REQUIRE(r.status < 300);
}

// A cluster with namespace team and its service account robot (bound to nothing).
inline std::unique_ptr<Cluster> team_cluster() {
  auto c = memory_cluster();
  REQUIRE(c);
  admin(*c, "POST", "/api/v1/namespaces", {{"metadata", {{"name", "team"}}}});
  admin(*c, "POST", "/api/v1/namespaces/team/serviceaccounts", {{"metadata", {{"name", "robot"}}}});
  return c;
}

// A minimal Kueue CRD: kueue.x-k8s.io/v1beta2, schema-less (preserve unknown
// fields), status subresource.
inline nlohmann::json kueue_crd(const std::string& plural, const std::string& kind, bool namespaced) {
  using json = nlohmann::json;
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", plural + ".kueue.x-k8s.io"}}},
          {"spec",
           {{"group", "kueue.x-k8s.io"},
            {"scope", namespaced ? "Namespaced" : "Cluster"},
            {"names", {{"plural", plural}, {"singular", kind}, {"kind", kind}, {"listKind", kind + "List"}}},
            {"versions",
             {{{"name", "v1beta2"},
               {"served", true},
               {"storage", true},
               {"subresources", {{"status", json::object()}}},
               {"schema", {{"openAPIV3Schema", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}}}}}}};
}

// A ClusterQueue-like CRD (cluster-scoped, status subresource, printer
// columns, enum, pattern, ranges, defaults, int-or-string, list-map).
inline nlohmann::json widget_crd() {
  return nlohmann::json::parse(R"({
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.example.com"},
  "spec": {
    "group": "example.com", "scope": "Cluster",
    "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList",
              "shortNames": ["wd"], "categories": ["all", "fun"]},
    "versions": [
      {"name": "v1beta1", "served": true, "storage": false,
       "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}},
      {"name": "v1", "served": true, "storage": true,
       "subresources": {"status": {}},
       "additionalPrinterColumns": [
         {"name": "Cohort", "type": "string", "jsonPath": ".spec.cohort"},
         {"name": "Active", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"Active\")].status"}],
       "schema": {"openAPIV3Schema": {"type": "object", "properties": {
         "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
         "spec": {"type": "object", "required": ["size"], "properties": {
           "cohort": {"type": "string", "maxLength": 10, "pattern": "^[a-z]+$"},
           "strategy": {"type": "string", "enum": ["BestEffortFIFO", "StrictFIFO"], "default": "BestEffortFIFO"},
           "size": {"type": "integer", "minimum": 1, "maximum": 10},
           "quota": {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true},
           "note": {"type": "string", "nullable": true},
           "flavors": {"type": "array", "maxItems": 2, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                       "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}},
           "labels": {"type": "object", "additionalProperties": {"type": "string"}}}},
         "status": {"type": "object", "properties": {"conditions": {"type": "array", "items": {"type": "object",
           "properties": {"type": {"type": "string"}, "status": {"type": "string"}}}}}}}}}}
    ]}})");
}

}  // namespace mkq::sandbox::testing
