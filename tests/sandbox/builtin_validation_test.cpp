// The built-in kinds validated as kube-apiserver v1.33 validates them
// (sandbox/builtin_validation.h): for each served kind a valid object stored
// and an invalid one refused with the 422 kube-apiserver writes (message,
// causes); base64 in []byte fields decoded as Go's decoder does; and the
// served OpenAPI schemas agreeing with what the server decodes.
#include <catch2/catch.hpp>

#include <functional>

#include "api_test_support.h"
#include "sandbox/builtin_types.h"
#include "sandbox/builtin_validation.h"
#include "sandbox/openapi.h"
#include "sandbox/resources.h"

using namespace mkq::sandbox;
using namespace mkq::sandbox::testing;
using nlohmann::json;

namespace {

const std::string kRbac = "/apis/rbac.authorization.k8s.io/v1";

// POST `body` to `path`; the answer's status and body.
std::pair<int, json> post(Cluster& c, const std::string& path, const std::string& body) {
  auto response = c.handle(request("POST", path, body));
  return {response.status, body_of(response)};
}

// A 422 with exactly `message`, and the causes' reasons in order.
void check_invalid(const std::pair<int, json>& answer, const std::string& message,
                   const std::vector<std::string>& reasons) {
  INFO(answer.second.dump());
  CHECK(answer.first == 422);
  CHECK(answer.second["reason"] == "Invalid");
  CHECK(answer.second["message"] == message);
  std::vector<std::string> got;
  for (const json& cause : answer.second["details"]["causes"]) got.push_back(cause["reason"]);
  CHECK(got == reasons);
}

const char* const kConfigKeyRule =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  "
    "or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

}  // namespace

TEST_CASE("builtin validation: a ConfigMap's keys, its data beside binaryData, a value that is not a string",
          "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  const std::string path = "/api/v1/namespaces/default/configmaps";
  CHECK(post(*c, path, R"({"metadata":{"name":"ok"},"data":{"key.name":"v","KEY_NAME":"w"}})").first == 201);
  check_invalid(post(*c, path, R"({"metadata":{"name":"cm"},"data":{"a b":"x"}})"),
                std::string("ConfigMap \"cm\" is invalid: data[a b]: Invalid value: \"a b\": ") + kConfigKeyRule,
                {"FieldValueInvalid"});
  check_invalid(post(*c, path, R"({"metadata":{"name":"cm"},"data":{"k":"x",".":"y"},"binaryData":{"k":"eA=="}})"),
                "ConfigMap \"cm\" is invalid: [data[.]: Invalid value: \".\": must not be '.', data[k]: Invalid value: "
                "\"k\": duplicate of key present in binaryData]",
                {"FieldValueInvalid", "FieldValueInvalid"});
  // The issue's probe: a number is not a string (the decoder's 400, before validation).
  auto number = post(*c, path, R"({"metadata":{"name":"cm"},"data":{"a":1}})");
  CHECK(number.first == 400);
  CHECK(number.second["message"] ==
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct "
        "field ConfigMap.data of type string");
}

TEST_CASE("builtin validation: an immutable ConfigMap keeps its data", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  const std::string path = "/api/v1/namespaces/default/configmaps";
  auto created = c->handle(request("POST", path, R"({"metadata":{"name":"cm"},"data":{"a":"1"},"immutable":true})"));
  REQUIRE(created.status == 201);
  json changed = body_of(created);
  changed["data"]["a"] = "2";
  auto put = c->handle(request("PUT", path + "/cm", changed.dump()));
  CHECK(put.status == 422);
  CHECK(body_of(put)["message"] == "ConfigMap \"cm\" is invalid: data: Forbidden: field is immutable when `immutable` is set");
  changed["data"]["a"] = "1";
  changed["metadata"]["labels"] = {{"k", "v"}};
  CHECK(c->handle(request("PUT", path + "/cm", changed.dump())).status == 200);  // metadata may change
}

TEST_CASE("builtin validation: a Secret's data must be base64, its keys config keys, its type's keys present",
          "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  const std::string path = "/api/v1/namespaces/default/secrets";
  CHECK(post(*c, path, R"({"metadata":{"name":"ok"},"data":{"k":"dmFsdWU=","l":"YWI=\n"}})").first == 201);
  auto bad = post(*c, path, R"({"metadata":{"name":"s"},"data":{"k":"abc$"}})");
  CHECK(bad.first == 400);
  CHECK(bad.second["message"] == "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 3");
  CHECK(post(*c, path, R"({"metadata":{"name":"s"},"data":{"k":"abc"}})").second["message"] ==
        "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 0");
  check_invalid(post(*c, path, R"({"metadata":{"name":"s"},"data":{"a/b":"eA=="}})"),
                std::string("Secret \"s\" is invalid: data[a/b]: Invalid value: \"a/b\": ") + kConfigKeyRule,
                {"FieldValueInvalid"});
  check_invalid(post(*c, path, R"({"metadata":{"name":"s"},"type":"kubernetes.io/tls","data":{}})"),
                "Secret \"s\" is invalid: [data[tls.crt]: Required value, data[tls.key]: Required value]",
                {"FieldValueRequired", "FieldValueRequired"});
  auto created = c->handle(request("POST", path, R"({"metadata":{"name":"typed"},"type":"example.com/x"})"));
  REQUIRE(created.status == 201);
  json changed = body_of(created);
  changed["type"] = "Opaque";
  CHECK(body_of(c->handle(request("PUT", path + "/typed", changed.dump())))["message"] ==
        "Secret \"typed\" is invalid: type: Invalid value: \"Opaque\": field is immutable");
}

TEST_CASE("builtin validation: base64 as Go's StdEncoding reads it", "[sandbox][validation][builtin]") {
  CHECK(base64_error("").empty());
  CHECK(base64_error("YWJj").empty());
  CHECK(base64_error("YQ==").empty());
  CHECK(base64_error("YWI=").empty());
  CHECK(base64_error("YW\nJj\r\n").empty());
  CHECK(base64_error("YQ=") == "illegal base64 data at input byte 3");
  CHECK(base64_error("Y===") == "illegal base64 data at input byte 1");
  CHECK(base64_error("YQ==YQ==") == "illegal base64 data at input byte 4");
  CHECK(base64_error("YQ=x") == "illegal base64 data at input byte 2");
  CHECK(base64_error("YWJjZ") == "illegal base64 data at input byte 4");
  CHECK(base64_error("YW J") == "illegal base64 data at input byte 2");
}

TEST_CASE("builtin validation: names by each kind's rule", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  CHECK(post(*c, "/api/v1/namespaces", R"({"metadata":{"name":"team-a"}})").first == 201);
  check_invalid(post(*c, "/api/v1/namespaces", R"({"metadata":{"name":"team.a"}})"),
                "Namespace \"team.a\" is invalid: metadata.name: Invalid value: \"team.a\": must not contain dots",
                {"FieldValueInvalid"});
  check_invalid(post(*c, "/api/v1/namespaces/default/serviceaccounts", R"({"metadata":{"name":"Robot"}})"),
                "ServiceAccount \"Robot\" is invalid: metadata.name: Invalid value: \"Robot\": a lowercase RFC 1123 "
                "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with "
                "an alphanumeric character (e.g. 'example.com', regex used for validation is "
                "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                {"FieldValueInvalid"});
  // RBAC names are path segments: kube-apiserver's own roles are named system:...
  const std::string role = R"({"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}],"metadata":{"name":)";
  CHECK(post(*c, kRbac + "/clusterroles", role + R"("system:team:Reader"}})").first == 201);
  check_invalid(post(*c, kRbac + "/clusterroles", role + R"("a/b%"}})"),
                "ClusterRole.rbac.authorization.k8s.io \"a/b%\" is invalid: [metadata.name: Invalid value: \"a/b%\": "
                "may not contain '/', metadata.name: Invalid value: \"a/b%\": may not contain '%']",
                {"FieldValueInvalid", "FieldValueInvalid"});
  check_invalid(post(*c, kRbac + "/namespaces/default/roles", role + R"(".."}})"),
                "Role.rbac.authorization.k8s.io \"..\" is invalid: metadata.name: Invalid value: \"..\": may not be '..'",
                {"FieldValueInvalid"});
}

TEST_CASE("builtin validation: labels, annotations and finalizers of any kind", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  const std::string path = "/api/v1/namespaces/default/configmaps";
  CHECK(post(*c, path, R"({"metadata":{"name":"ok","labels":{"example.com/a":"b","c":""},"annotations":{"Example.COM/X":"any text"},"finalizers":["example.com/f","kubernetes"]}})")
            .first == 201);
  check_invalid(
      post(*c, path, R"({"metadata":{"name":"cm","labels":{"bad key":"-v"}}})"),
      "ConfigMap \"cm\" is invalid: [metadata.labels: Invalid value: \"bad key\": name part must consist of "
      "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName', "
      " or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), "
      "metadata.labels: Invalid value: \"-v\": a valid label must be an empty string or consist of alphanumeric "
      "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
      "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
      {"FieldValueInvalid", "FieldValueInvalid"});
  check_invalid(post(*c, path, R"({"metadata":{"name":"cm","annotations":{"/x":"v"}}})"),
                "ConfigMap \"cm\" is invalid: metadata.annotations: Invalid value: \"/x\": prefix part must be non-empty",
                {"FieldValueInvalid"});
  const std::string big(256 * 1024, 'x');
  check_invalid(post(*c, path, R"({"metadata":{"name":"cm","annotations":{"a":")" + big + R"("}}})"),
                "ConfigMap \"cm\" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes",
                {"FieldValueTooLong"});
  check_invalid(post(*c, path, R"({"metadata":{"name":"cm","finalizers":["mine"]}})"),
                "ConfigMap \"cm\" is invalid: metadata.finalizers[0]: Invalid value: \"mine\": name is neither a "
                "standard finalizer name nor is it fully qualified",
                {"FieldValueInvalid"});
  check_invalid(post(*c, path, R"({"metadata":{"name":"cm","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p"}]}})"),
                "ConfigMap \"cm\" is invalid: metadata.ownerReferences.uid: Invalid value: \"\": must not be empty",
                {"FieldValueInvalid"});
}

TEST_CASE("builtin validation: a custom resource's metadata is checked too, by the generic rules", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  json crd = kueue_crd("resourceflavors", "ResourceFlavor", false);
  crd["metadata"]["finalizers"] = {"customresourcecleanup.apiextensions.k8s.io"};  // apiextensions' own finalizer
  REQUIRE(post(*c, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd.dump()).first == 201);
  const std::string path = "/apis/kueue.x-k8s.io/v1beta2/resourceflavors";
  // A bare finalizer is the built-in kinds' rule only.
  CHECK(post(*c, path, R"({"metadata":{"name":"ok","finalizers":["mine"],"labels":{"a":"b"}}})").first == 201);
  check_invalid(post(*c, path, R"({"metadata":{"name":"rf","labels":{"a":"b c"}}})"),
                "ResourceFlavor.kueue.x-k8s.io \"rf\" is invalid: metadata.labels: Invalid value: \"b c\": a valid "
                "label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
                "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
                "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                {"FieldValueInvalid"});
}

TEST_CASE("builtin validation: Role and ClusterRole rules", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  CHECK(post(*c, kRbac + "/clusterroles", R"({"metadata":{"name":"probe"},"rules":[{"nonResourceURLs":["/healthz"],"verbs":["get"]}]})")
            .first == 201);
  check_invalid(post(*c, kRbac + "/namespaces/default/roles", R"({"metadata":{"name":"r"},"rules":[{"apiGroups":[""],"resources":["pods"]}]})"),
                "Role.rbac.authorization.k8s.io \"r\" is invalid: rules[0].verbs: Required value: verbs must contain at "
                "least one value",
                {"FieldValueRequired"});
  check_invalid(post(*c, kRbac + "/namespaces/default/roles", R"({"metadata":{"name":"r"},"rules":[{"verbs":["get"],"nonResourceURLs":["/x"]}]})"),
                "Role.rbac.authorization.k8s.io \"r\" is invalid: rules[0].nonResourceURLs: Invalid value: "
                "[]string{\"/x\"}: namespaced rules cannot apply to non-resource URLs",
                {"FieldValueInvalid"});
  check_invalid(post(*c, kRbac + "/clusterroles", R"({"metadata":{"name":"c"},"rules":[{"verbs":["get"]}]})"),
                "ClusterRole.rbac.authorization.k8s.io \"c\" is invalid: [rules[0].apiGroups: Required value: resource "
                "rules must supply at least one api group, rules[0].resources: Required value: resource rules must "
                "supply at least one resource]",
                {"FieldValueRequired", "FieldValueRequired"});
}

TEST_CASE("builtin validation: bindings' roleRef and subjects, apiGroups defaulted, roleRef immutable",
          "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  const std::string bindings = kRbac + "/namespaces/default/rolebindings";
  auto created = c->handle(request("POST", bindings,
                                   R"({"metadata":{"name":"b"},"roleRef":{"kind":"ClusterRole","name":"view"},
                                       "subjects":[{"kind":"User","name":"alice"},{"kind":"ServiceAccount","name":"sa"}]})"));
  REQUIRE(created.status == 201);
  json stored = body_of(created);
  CHECK(stored["roleRef"]["apiGroup"] == "rbac.authorization.k8s.io");
  CHECK(stored["subjects"][0]["apiGroup"] == "rbac.authorization.k8s.io");
  CHECK_FALSE(stored["subjects"][1].contains("apiGroup"));
  stored["roleRef"]["name"] = "edit";
  CHECK(body_of(c->handle(request("PUT", bindings + "/b", stored.dump())))["message"] ==
        "RoleBinding.rbac.authorization.k8s.io \"b\" is invalid: roleRef: Invalid value: "
        "rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef");
  check_invalid(post(*c, bindings, R"({"metadata":{"name":"b2"},"roleRef":{"kind":"Foo","name":"view"},"subjects":[{"kind":"Robot","name":"r"}]})"),
                "RoleBinding.rbac.authorization.k8s.io \"b2\" is invalid: [roleRef.kind: Unsupported value: \"Foo\": "
                "supported values: \"Role\", \"ClusterRole\", subjects[0].kind: Unsupported value: \"Robot\": supported "
                "values: \"ServiceAccount\", \"User\", \"Group\"]",
                {"FieldValueNotSupported", "FieldValueNotSupported"});
  check_invalid(post(*c, kRbac + "/clusterrolebindings",
                     R"({"metadata":{"name":"cb"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"view"},"subjects":[{"kind":"ServiceAccount","name":"sa"}]})"),
                "ClusterRoleBinding.rbac.authorization.k8s.io \"cb\" is invalid: [roleRef.kind: Unsupported value: "
                "\"Role\": supported values: \"ClusterRole\", subjects[0].namespace: Required value]",
                {"FieldValueNotSupported", "FieldValueRequired"});
}

TEST_CASE("builtin validation: a Lease's durations, its fields decoded", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  const std::string path = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
  CHECK(post(*c, path, R"({"metadata":{"name":"ok"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15,"leaseTransitions":0}})").first == 201);
  check_invalid(post(*c, path, R"({"metadata":{"name":"l"},"spec":{"leaseDurationSeconds":0,"leaseTransitions":-1}})"),
                "Lease.coordination.k8s.io \"l\" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be "
                "greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]",
                {"FieldValueInvalid", "FieldValueInvalid"});
  auto strict = c->handle(request("POST", path, R"({"metadata":{"name":"l"},"spec":{"holder":"a"}})", {{"fieldValidation", "Strict"}}));
  CHECK(strict.status == 400);
  CHECK(body_of(strict)["message"] ==
        "Lease in version \"v1\" cannot be handled as a Lease: strict decoding error: unknown field \"spec.holder\"");
  CHECK(post(*c, path, R"({"metadata":{"name":"l"},"spec":{"leaseDurationSeconds":"15"}})").second["message"] ==
        "Lease in version \"v1\" cannot be handled as a Lease: json: cannot unmarshal string into Go struct field "
        "LeaseSpec.spec.leaseDurationSeconds of type int32");
}

TEST_CASE("builtin validation: an Event's namespace agrees with its object's", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  const std::string path = "/api/v1/namespaces/default/events";
  CHECK(post(*c, path, R"({"metadata":{"name":"e1"},"involvedObject":{"kind":"Lease","namespace":"default","name":"l"},"reason":"Elected","type":"Normal"})")
            .first == 201);
  check_invalid(post(*c, path, R"({"metadata":{"name":"e2"},"involvedObject":{"kind":"Lease","namespace":"other","name":"l"}})"),
                "Event \"e2\" is invalid: involvedObject.namespace: Invalid value: \"other\": does not match event.namespace",
                {"FieldValueInvalid"});
}

TEST_CASE("builtin validation: a Node's taints", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  CHECK(post(*c, "/api/v1/nodes", R"({"metadata":{"name":"n1"},"spec":{"taints":[{"key":"gpu","effect":"NoSchedule"}]}})").first == 201);
  check_invalid(post(*c, "/api/v1/nodes", R"({"metadata":{"name":"n2"},"spec":{"taints":[{"key":"gpu"},{"key":"x","effect":"Never"}]}})"),
                "Node \"n2\" is invalid: [spec.taints[0].effect: Required value, spec.taints[1].effect: Unsupported "
                "value: \"Never\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"]",
                {"FieldValueRequired", "FieldValueNotSupported"});
}

TEST_CASE("builtin validation: a Pod's containers", "[sandbox][validation][builtin]") {
  auto c = memory_cluster();
  const std::string path = "/api/v1/namespaces/default/pods";
  CHECK(post(*c, path, R"({"metadata":{"name":"p1"},"spec":{"containers":[{"name":"main","image":"busybox","ports":[{"containerPort":80}]}]}})").first == 201);
  check_invalid(post(*c, path, R"({"metadata":{"name":"p2"},"spec":{}})"),
                "Pod \"p2\" is invalid: spec.containers: Required value", {"FieldValueRequired"});
  check_invalid(post(*c, path, R"({"metadata":{"name":"p3"},"spec":{"restartPolicy":"Sometimes","containers":[{"name":"a","image":"x"},{"name":"a","imagePullPolicy":"Maybe"}]}})"),
                "Pod \"p3\" is invalid: [spec.containers[1].image: Required value, spec.containers[1].imagePullPolicy: "
                "Unsupported value: \"Maybe\": supported values: \"Always\", \"IfNotPresent\", \"Never\", "
                "spec.containers[1].name: Duplicate value: \"a\", spec.restartPolicy: Unsupported value: "
                "\"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"]",
                {"FieldValueRequired", "FieldValueNotSupported", "FieldValueDuplicate", "FieldValueNotSupported"});
}

namespace {

// A value of `schema`'s type, every property filled: what a client reading the
// served OpenAPI may write.
json sample_of(const json& schema, const json& schemas) {
  REQUIRE(schema.is_object());
  if (schema.contains("$ref")) {
    const std::string ref = schema["$ref"];
    return sample_of(schemas.at(ref.substr(ref.rfind('/') + 1)), schemas);
  }
  if (schema.contains("allOf")) return sample_of(schema["allOf"][0], schemas);
  if (schema.value("x-kubernetes-preserve-unknown-fields", false)) return json::object();
  const std::string type = schema.value("type", "object");
  if (type == "string") {
    if (schema.contains("enum")) return schema["enum"][0];
    return schema.value("format", "") == "byte" ? "eA==" : schema.value("format", "") == "date-time" ? "2025-01-01T00:00:00Z" : "x";
  }
  if (type == "integer") return 1;
  if (type == "boolean") return true;
  if (type == "array") return json::array({sample_of(schema["items"], schemas)});
  json out = json::object();
  if (schema.contains("additionalProperties")) out["k"] = sample_of(schema["additionalProperties"], schemas);
  const json properties = schema.value("properties", json::object());
  for (const auto& [name, property] : properties.items()) out[name] = sample_of(property, schemas);
  return out;
}

}  // namespace

TEST_CASE("builtin validation: every field the served OpenAPI shows decodes with the type it shows",
          "[sandbox][validation][builtin][openapi]") {
  // kubectl explain and client-side tools read /openapi/v3; what they are told
  // must be what the server accepts, with no unknown field and no type error.
  const Registry registry;
  int kinds = 0;
  for (const auto& [group, versions] : registry.groups()) {
    for (const auto& version : versions) {
      const auto document = openapi_v3_document(registry, group, version);
      REQUIRE(document);
      const json& schemas = (*document)["components"]["schemas"];
      for (const ResourceInfo* info : registry.in_group_version(group, version)) {
        if (info->create_only) continue;
        json object;
        for (const auto& [name, schema] : schemas.items()) {
          const json gvks = schema.value("x-kubernetes-group-version-kind", json::array());
          if (!gvks.empty() && gvks[0]["kind"] == info->kind) object = sample_of(schema, schemas);
        }
        INFO(info->api_version() << " " << info->kind << ": " << object.dump());
        REQUIRE(object.is_object());
        const DecodeOutcome outcome = decode_builtin(*info, object);
        if (!outcome.known) continue;  // kinds the sandbox does not decode (their schema says nothing either)
        ++kinds;
        CHECK(outcome.type_error.empty());
        CHECK(outcome.unknown_fields.empty());
      }
    }
  }
  CHECK(kinds >= 12);
}
