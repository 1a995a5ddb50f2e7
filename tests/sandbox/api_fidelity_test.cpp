// What clients no one here wrote need beyond the verbs: protobuf request bodies
// (client-go's typed clients), the OpenAPI v3 documents (kubectl's validation and
// explain), /openapi/v2 as protobuf (kubectl before 1.30), Go-style booleans.
#include <catch2/catch.hpp>

#include "api_test_support.h"
#include "sandbox/protobuf.h"
#include "tests/sandbox/protobuf_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

using testing::envelope;
using testing::field;

TEST_CASE("a Namespace in protobuf is created", "[sandbox][protobuf]") {
  auto c = testing::memory_cluster();
  // ObjectMeta{name "team-p", generateName "", labels {a: b}, creationTimestamp {}}, Spec{}.
  const std::string meta = field(1, "team-p") + field(2, "") + field(11, field(1, "a") + field(2, "b")) + field(8, "");
  const std::string body = envelope("v1", "Namespace", field(1, meta) + field(2, "") + field(3, ""));
  auto created = c->handle(request("POST", "/api/v1/namespaces", body, {}, "application/vnd.kubernetes.protobuf"));
  REQUIRE(created.status == 201);
  const json ns = body_of(created);
  CHECK(ns["metadata"]["name"] == "team-p");
  CHECK(ns["metadata"]["labels"]["a"] == "b");
  CHECK_FALSE(ns["metadata"].contains("generateName"));
  CHECK(ns["metadata"]["creationTimestamp"].is_string());
}

TEST_CASE("a Secret in protobuf keeps its bytes (base64 in JSON)", "[sandbox][protobuf]") {
  std::string error;
  const std::string raw = field(1, field(1, "s") + field(3, "default")) + field(2, field(1, "pw") + field(2, "hi!")) +
                          field(3, "Opaque");
  const auto object = decode_protobuf_object(envelope("v1", "Secret", raw), &error);
  REQUIRE(object);
  CHECK((*object)["data"]["pw"] == "aGkh");
  CHECK((*object)["type"] == "Opaque");
  CHECK((*object)["kind"] == "Secret");
}

TEST_CASE("malformed or unknown protobuf bodies are 400", "[sandbox][protobuf]") {
  auto c = testing::memory_cluster();
  const auto pb = "application/vnd.kubernetes.protobuf";
  CHECK(c->handle(request("POST", "/api/v1/namespaces", "{}", {}, pb)).status == 400);
  CHECK(c->handle(request("POST", "/api/v1/namespaces", std::string("k8s\0\x0a\xff", 6), {}, pb)).status == 400);
  CHECK(c->handle(request("POST", "/api/v1/namespaces", envelope("v1", "Pod", ""), {}, pb)).status == 400);
  std::string error;
  CHECK_FALSE(decode_protobuf_object(envelope("v1", "ObjectMeta", ""), &error));
}

TEST_CASE("/openapi/v3 indexes every group version and serves their documents", "[sandbox][openapi]") {
  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                            testing::widget_crd().dump())).status == 201);
  const json index = body_of(c->handle(request("GET", "/openapi/v3")));
  REQUIRE(index["paths"].contains("api/v1"));
  REQUIRE(index["paths"].contains("apis/example.com/v1"));
  const std::string url = index["paths"]["apis/example.com/v1"]["serverRelativeURL"];
  CHECK(url.rfind("/openapi/v3/apis/example.com/v1?hash=", 0) == 0);

  const json doc = body_of(c->handle(request("GET", "/openapi/v3/apis/example.com/v1")));
  CHECK(doc["openapi"] == "3.0.0");
  const json& widget = doc["components"]["schemas"]["com.example.v1.Widget"];
  CHECK(widget["x-kubernetes-group-version-kind"][0] == json({{"group", "example.com"}, {"version", "v1"}, {"kind", "Widget"}}));
  CHECK(widget["properties"]["spec"]["properties"]["strategy"]["enum"].size() == 2);
  // kubectl asks the PATCH operation whether the server validates fields itself.
  const json& patch = doc["paths"]["/apis/example.com/v1/widgets/{name}"]["patch"];
  CHECK(patch["x-kubernetes-group-version-kind"]["kind"] == "Widget");
  bool field_validation = false;
  for (const auto& p : patch["parameters"]) field_validation |= p["name"] == "fieldValidation";
  CHECK(field_validation);

  const json core = body_of(c->handle(request("GET", "/openapi/v3/api/v1")));
  CHECK(core["components"]["schemas"].contains("io.k8s.api.core.v1.Namespace"));
  CHECK(core["paths"].contains("/api/v1/namespaces/{namespace}/configmaps/{name}"));
  CHECK(c->handle(request("GET", "/openapi/v3/apis/nothing.io/v1")).status == 404);
}

TEST_CASE("/openapi/v2 as protobuf is an empty document", "[sandbox][openapi]") {
  auto c = testing::memory_cluster();
  auto r = request("GET", "/openapi/v2");
  r.headers["accept"] = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
  const auto answer = c->handle(r);
  CHECK(answer.status == 200);
  CHECK(answer.body.empty());
  CHECK(answer.content_type.find("protobuf") != std::string::npos);
}

TEST_CASE("boolean query parameters as Go parses them (watch=True)", "[sandbox][watch]") {
  auto c = testing::memory_cluster();
  auto answer = c->handle(request("GET", "/api/v1/namespaces", {}, {{"watch", "True"}, {"timeoutSeconds", "1"}}));
  CHECK(static_cast<bool>(answer.stream));
}

}  // namespace
}  // namespace mkq::sandbox
