#include "sandbox/openapi.h"

#include <functional>
#include <vector>

#include <fmt/format.h>

#include "sandbox/builtin_types.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

const char* const kObjectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const char* const kListMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
const char* const kStatus = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";

// "kueue.x-k8s.io" -> "io.x-k8s.kueue": the reversed group kube-apiserver names CRD schemas by.
std::string reversed_group(const std::string& group) {
  std::vector<std::string> labels;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = group.find('.', start);
    labels.push_back(group.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  std::string out;
  for (auto it = labels.rbegin(); it != labels.rend(); ++it) out += (out.empty() ? "" : ".") + *it;
  return out;
}

// The component schema name of a kind, as kube-apiserver spells it.
std::string schema_name(const ResourceInfo& info, const std::string& kind) {
  if (info.custom) return reversed_group(info.group) + "." + info.version + "." + kind;
  if (info.group.empty()) return "io.k8s.api.core." + info.version + "." + kind;
  if (info.group == "rbac.authorization.k8s.io") return "io.k8s.api.rbac." + info.version + "." + kind;
  if (info.group == "apiextensions.k8s.io") {
    return "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions." + info.version + "." + kind;
  }
  // "coordination.k8s.io" -> "io.k8s.api.coordination.v1.Lease"; "apps" stays
  const std::string group = info.group.ends_with(".k8s.io") ? info.group.substr(0, info.group.size() - 7) : info.group;
  return "io.k8s.api." + group + "." + info.version + "." + kind;
}

json ref(const std::string& name) { return {{"$ref", "#/components/schemas/" + name}}; }
json str(const char* description) { return {{"type", "string"}, {"description", description}}; }

json gvk(const ResourceInfo& info, const std::string& kind) {
  return {{"group", info.group}, {"version", info.version}, {"kind", kind}};
}

// The metadata property of an object: ObjectMeta by reference.
json metadata_property() {
  return {{"allOf", json::array({ref(kObjectMeta)})}, {"default", json::object()}, {"description", "Standard object's metadata."}};
}

// The fields every object has; `properties` adds the kind's own.
json object_schema(const ResourceInfo& info, const std::string& description, json properties, json required) {
  properties["apiVersion"] = str("APIVersion defines the versioned schema of this representation of an object.");
  properties["kind"] = str("Kind is a string value representing the REST resource this object represents.");
  properties["metadata"] = metadata_property();
  json schema = {{"type", "object"},
                 {"description", description},
                 {"properties", properties},
                 {"x-kubernetes-group-version-kind", json::array({gvk(info, info.kind)})}};
  if (!required.empty()) schema["required"] = required;
  return schema;
}

// A built-in kind's schema: the decoder's own types (builtin_types.h), so that
// what explain and client-side tools are told is what the server decodes; the
// CRD kind (not decoded, its schema is the server's concern) by hand; others
// with no fields (the sandbox stores them as sent).
json builtin_schema(const ResourceInfo& info) {
  if (auto schema = builtin_openapi_schema(info, metadata_property())) {
    const json required = schema->value("required", json::array());
    return object_schema(info, schema->value("description", info.kind), std::move((*schema)["properties"]), required);
  }
  const std::string& k = info.kind;
  if (k == "CustomResourceDefinition") {
    return object_schema(
        info, "CustomResourceDefinition represents a resource that should be exposed on the API server.",
        {{"spec", {{"type", "object"}, {"description", "spec describes how the user wants the resources to appear."}, {"x-kubernetes-preserve-unknown-fields", true},
                   {"required", {"group", "names", "scope", "versions"}}}},
         {"status", {{"type", "object"}, {"description", "status indicates the actual state of the CustomResourceDefinition."}, {"x-kubernetes-preserve-unknown-fields", true}}}},
        json::array({"spec"}));
  }
  return object_schema(info, k, json::object(), json::array());
}

// A CRD's openAPIV3Schema, with metadata as ObjectMeta and its kind's GVK.
json custom_schema(const ResourceInfo& info) {
  json schema = info.schema.is_object() ? info.schema : json{{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  if (!schema.contains("type")) schema["type"] = "object";
  schema["properties"]["apiVersion"] = str("APIVersion defines the versioned schema of this representation of an object.");
  schema["properties"]["kind"] = str("Kind is a string value representing the REST resource this object represents.");
  schema["properties"]["metadata"] = ref(kObjectMeta);
  schema["x-kubernetes-group-version-kind"] = json::array({gvk(info, info.kind)});
  return schema;
}

json list_schema(const ResourceInfo& info, const std::string& item) {
  return {{"type", "object"},
          {"description", info.list_kind + " is a list of " + info.kind},
          {"required", {"items"}},
          {"properties",
           {{"apiVersion", str("APIVersion defines the versioned schema of this representation of an object.")},
            {"items", {{"type", "array"}, {"items", ref(item)}, {"description", "List of " + info.resource + "."}}},
            {"kind", str("Kind is a string value representing the REST resource this object represents.")},
            {"metadata", ref(kListMeta)}}},
          {"x-kubernetes-group-version-kind", json::array({gvk(info, info.list_kind)})}};
}

json meta_schemas() {
  json list_meta = {{"type", "object"},
                    {"description", "ListMeta describes metadata that synthetic resources must have."},
                    {"properties",
                     {{"continue", str("continue may be set if the user set a limit on the number of items returned.")},
                      {"remainingItemCount", {{"type", "integer"}, {"format", "int64"}}},
                      {"resourceVersion", str("String that identifies the server's internal version of this object.")}}}};
  json status = {{"type", "object"},
                 {"description", "Status is a return value for calls that don't return other objects."},
                 {"x-kubernetes-preserve-unknown-fields", true}};
  return {{kObjectMeta, object_meta_openapi_schema()}, {kListMeta, list_meta}, {kStatus, status}};
}

json parameter(const char* name, const char* in, const char* description) {
  json p = {{"name", name}, {"in", in}, {"description", description}, {"schema", {{"type", "string"}, {"uniqueItems", true}}}};
  if (std::string(in) == "path") p["required"] = true;
  return p;
}

json json_content(const json& schema) { return {{"application/json", {{"schema", schema}}}}; }

// One operation of a resource's path.
json operation(const ResourceInfo& info, const std::string& action, const std::string& kind_schema, bool body,
               const std::vector<json>& parameters) {
  json op = {{"operationId", action + info.kind},
             {"tags", {info.group.empty() ? "core_" + info.version : info.group + "_" + info.version}},
             {"description", action + " " + info.kind},
             {"x-kubernetes-action", action},
             {"x-kubernetes-group-version-kind", gvk(info, info.kind)},
             {"responses", {{"200", {{"description", "OK"}, {"content", json_content(ref(kind_schema))}}},
                            {"401", {{"description", "Unauthorized"}}}}}};
  if (body) {
    json content = json_content(ref(kind_schema));
    if (action == "patch") {
      const json any = {{"schema", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}};
      content = {{"application/apply-patch+yaml", any},
                 {"application/json-patch+json", any},
                 {"application/merge-patch+json", any}};
      if (!info.custom) content["application/strategic-merge-patch+json"] = any;
    }
    op["requestBody"] = {{"content", content}, {"required", true}};
  }
  if (!parameters.empty()) op["parameters"] = parameters;
  return op;
}

// The paths of one resource: its collection and its items (and /status).
void add_paths(const ResourceInfo& info, json& paths) {
  const std::string base = info.group.empty() ? "/api/" + info.version : "/apis/" + info.group + "/" + info.version;
  const std::string prefix = base + (info.namespaced ? "/namespaces/{namespace}/" : "/") + info.resource;
  const std::string item_schema = schema_name(info, info.kind);
  const std::string list_schema_name = schema_name(info, info.list_kind);
  const json dry_run = parameter("dryRun", "query", "When present, indicates that modifications should not be persisted.");
  const json field_manager = parameter("fieldManager", "query", "fieldManager is a name associated with the actor or entity that is making these changes.");
  const json field_validation = parameter("fieldValidation", "query", "fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields: Ignore, Warn (default) or Strict.");
  const json force = {{"name", "force"}, {"in", "query"}, {"description", "Force is going to \"force\" Apply requests."}, {"schema", {{"type", "boolean"}, {"uniqueItems", true}}}};
  const json label_selector = parameter("labelSelector", "query", "A selector to restrict the list of returned objects by their labels.");
  const json field_selector = parameter("fieldSelector", "query", "A selector to restrict the list of returned objects by their fields.");
  const json watch = {{"name", "watch"}, {"in", "query"}, {"description", "Watch for changes to the described resources."}, {"schema", {{"type", "boolean"}, {"uniqueItems", true}}}};
  std::vector<json> common = {parameter("pretty", "query", "If 'true', then the output is pretty printed.")};
  if (info.namespaced) common.push_back(parameter("namespace", "path", "object name and auth scope, such as for teams and projects"));

  json collection = {{"parameters", common},
                     {"get", operation(info, "list", list_schema_name, false, {label_selector, field_selector, watch})},
                     {"post", operation(info, "post", item_schema, true, {dry_run, field_manager, field_validation})},
                     {"delete", operation(info, "deletecollection", kStatus, false, {dry_run, label_selector, field_selector})}};
  collection["get"]["x-kubernetes-group-version-kind"] = gvk(info, info.kind);
  paths[prefix] = collection;

  std::vector<json> item_common = common;
  item_common.push_back(parameter("name", "path", "name of the object"));
  const auto item = [&](const std::string& path) {
    paths[path] = {{"parameters", item_common},
                   {"get", operation(info, "get", item_schema, false, {})},
                   {"put", operation(info, "put", item_schema, true, {dry_run, field_manager, field_validation})},
                   {"patch", operation(info, "patch", item_schema, true, {dry_run, field_manager, field_validation, force})}};
  };
  item(prefix + "/{name}");
  paths[prefix + "/{name}"]["delete"] = operation(info, "delete", kStatus, false, {dry_run});
  if (info.has_status) item(prefix + "/{name}/status");
}

std::string path_key(const std::string& group, const std::string& version) {
  return group.empty() ? "api/" + version : "apis/" + group + "/" + version;
}

std::string hash_of(const json& document) {
  return fmt::format("{:X}", std::hash<std::string>{}(document.dump()));
}

}  // namespace

std::optional<json> openapi_v3_document(const Registry& registry, const std::string& group, const std::string& version) {
  const auto infos = registry.in_group_version(group, version);
  if (infos.empty()) return std::nullopt;
  json paths = json::object();
  json schemas = meta_schemas();
  for (const auto* info : infos) {
    add_paths(*info, paths);
    const std::string name = schema_name(*info, info->kind);
    schemas[name] = info->custom ? custom_schema(*info) : builtin_schema(*info);
    schemas[schema_name(*info, info->list_kind)] = list_schema(*info, name);
  }
  return json{{"openapi", "3.0.0"},
              {"info", {{"title", "Kubernetes"}, {"version", "v1.33.0"}}},
              {"paths", paths},
              {"components", {{"schemas", schemas}}}};
}

json openapi_v3_index(const Registry& registry) {
  json paths = json::object();
  for (const auto& [group, versions] : registry.groups()) {
    for (const auto& version : versions) {
      const auto document = openapi_v3_document(registry, group, version);
      if (!document) continue;
      const std::string key = path_key(group, version);
      paths[key] = {{"serverRelativeURL", "/openapi/v3/" + key + "?hash=" + hash_of(*document)}};
    }
  }
  return {{"paths", paths}};
}

}  // namespace mkq::sandbox
