// The served OpenAPI of the built-in kinds, made from the decoder's types
// (sandbox/builtin_types.h): fields, formats, enums, required fields and
// descriptions; the texts served before they were generated, unchanged.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sandbox/openapi.h"
#include "sandbox/resources.h"

using namespace mkq::sandbox;
using nlohmann::json;

namespace {

json schema_of(const std::string& group, const std::string& version, const std::string& name) {
  const Registry registry;
  const auto document = openapi_v3_document(registry, group, version);
  REQUIRE(document);
  const json& schemas = (*document)["components"]["schemas"];
  REQUIRE(schemas.contains(name));
  return schemas[name];
}

}  // namespace

TEST_CASE("builtin openapi: Lease, Pod, Node and Event show their fields", "[sandbox][openapi][builtin]") {
  const json lease = schema_of("coordination.k8s.io", "v1", "io.k8s.api.coordination.v1.Lease");
  const json spec = lease["properties"]["spec"];
  CHECK(spec["description"] == "spec contains the specification of the Lease.");
  CHECK(spec["properties"]["holderIdentity"] ==
        json{{"type", "string"}, {"description", "holderIdentity contains the identity of the holder of a current lease."}});
  CHECK(spec["properties"]["leaseDurationSeconds"]["format"] == "int32");
  CHECK(spec["properties"]["renewTime"]["format"] == "date-time");

  const json pod = schema_of("", "v1", "io.k8s.api.core.v1.Pod");
  const json containers = pod["properties"]["spec"]["properties"]["containers"];
  CHECK(containers["type"] == "array");
  CHECK(containers["items"]["required"] == json{"name"});
  CHECK(containers["items"]["properties"]["imagePullPolicy"]["enum"] == json{"Always", "IfNotPresent", "Never"});
  CHECK(containers["items"]["properties"]["command"]["items"] == json{{"type", "string"}, {"default", ""}});
  CHECK(containers["items"]["properties"]["ports"]["items"]["properties"]["containerPort"] ==
        json{{"type", "integer"}, {"format", "int32"}});
  CHECK(pod["properties"]["spec"]["properties"]["tolerations"]["type"] == "array");

  const json node = schema_of("", "v1", "io.k8s.api.core.v1.Node");
  const json taint = node["properties"]["spec"]["properties"]["taints"]["items"];
  CHECK(taint["required"] == json{"key", "effect"});
  CHECK(taint["properties"]["effect"]["enum"] == json{"NoExecute", "NoSchedule", "PreferNoSchedule"});

  const json event = schema_of("", "v1", "io.k8s.api.core.v1.Event");
  CHECK(event["properties"]["involvedObject"]["properties"].contains("fieldPath"));
  CHECK(event["properties"]["involvedObject"]["description"] == "The object that this event is about.");

  const json deployment = schema_of("apps", "v1", "io.k8s.api.apps.v1.Deployment");
  const json template_meta = deployment["properties"]["spec"]["properties"]["template"]["properties"]["metadata"];
  CHECK(template_meta["allOf"][0]["$ref"] == "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
}

TEST_CASE("builtin openapi: the texts served before the schemas were generated are unchanged",
          "[sandbox][openapi][builtin]") {
  // Served by the hand-written schemas this generation replaced (kubectl explain shows them).
  CHECK(schema_of("", "v1", "io.k8s.api.core.v1.ConfigMap") == json::parse(R"({"description":"ConfigMap holds configuration data for pods to consume.","properties":{"apiVersion":{"description":"APIVersion defines the versioned schema of this representation of an object.","type":"string"},"binaryData":{"additionalProperties":{"format":"byte","type":"string"},"description":"BinaryData contains the binary data.","type":"object"},"data":{"additionalProperties":{"default":"","type":"string"},"description":"Data contains the configuration data.","type":"object"},"immutable":{"description":"Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated.","type":"boolean"},"kind":{"description":"Kind is a string value representing the REST resource this object represents.","type":"string"},"metadata":{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}],"default":{},"description":"Standard object's metadata."}},"type":"object","x-kubernetes-group-version-kind":[{"group":"","kind":"ConfigMap","version":"v1"}]})"));
  CHECK(schema_of("rbac.authorization.k8s.io", "v1", "io.k8s.api.rbac.v1.RoleBinding") == json::parse(R"({"description":"RoleBinding references a role, but does not contain it.","properties":{"apiVersion":{"description":"APIVersion defines the versioned schema of this representation of an object.","type":"string"},"kind":{"description":"Kind is a string value representing the REST resource this object represents.","type":"string"},"metadata":{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}],"default":{},"description":"Standard object's metadata."},"roleRef":{"description":"RoleRef contains information that points to the role being used.","properties":{"apiGroup":{"description":"APIGroup is the group for the resource being referenced.","type":"string"},"kind":{"description":"Kind is the type of resource being referenced.","type":"string"},"name":{"description":"Name is the name of resource being referenced.","type":"string"}},"required":["apiGroup","kind","name"],"type":"object","x-kubernetes-map-type":"atomic"},"subjects":{"description":"Subjects holds references to the objects the role applies to.","items":{"description":"Subject contains a reference to the object or user identities a role binding applies to.","properties":{"apiGroup":{"description":"APIGroup holds the API group of the referenced subject.","type":"string"},"kind":{"description":"Kind of object being referenced: User, Group or ServiceAccount.","type":"string"},"name":{"description":"Name of the object being referenced.","type":"string"},"namespace":{"description":"Namespace of the referenced object.","type":"string"}},"required":["kind","name"],"type":"object","x-kubernetes-map-type":"atomic"},"type":"array"}},"required":["roleRef"],"type":"object","x-kubernetes-group-version-kind":[{"group":"rbac.authorization.k8s.io","kind":"RoleBinding","version":"v1"}]})"));
}
