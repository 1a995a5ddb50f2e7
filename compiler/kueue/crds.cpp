// Generates Kueue's CRDs from the tables of schema.h (see crds.h).
#include "compiler/kueue/crds.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace mkq::kueue {

namespace {

using schema::FieldType;
using schema::Kind;

// Object fields (paths as in schema.h; "x[]" is the item of list x) whose
// every Kueue field the tables list: these reject unknown fields. Every other
// object keeps unknown fields. tests/kueue/crds_test.cpp checks each entry
// against Kueue's released CRDs.
struct ClosedObject {
  Kind kind;
  std::string_view path;
};
constexpr std::array kClosedObjects = std::to_array<ClosedObject>({
    {Kind::Topology, "spec"},
    {Kind::Topology, "spec.levels[]"},
    {Kind::ResourceFlavor, "spec.tolerations[]"},
    {Kind::Cohort, "spec.resourceGroups[]"},
    {Kind::Cohort, "spec.resourceGroups[].flavors[]"},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].resources[]"},
    {Kind::Cohort, "spec.fairSharing"},
    {Kind::ClusterQueue, "spec.namespaceSelector"},
    {Kind::ClusterQueue, "spec.namespaceSelector.matchExpressions[]"},
    {Kind::ClusterQueue, "spec.resourceGroups[]"},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[]"},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].resources[]"},
    {Kind::ClusterQueue, "spec.preemption"},
    {Kind::ClusterQueue, "spec.preemption.borrowWithinCohort"},
    {Kind::ClusterQueue, "spec.fairSharing"},
    {Kind::ClusterQueue, "spec.flavorFungibility"},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy"},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy.admissionChecks[]"},
    {Kind::LocalQueue, "spec.fairSharing"},
    {Kind::AdmissionCheck, "spec.parameters"},
    {Kind::MultiKueueCluster, "spec.clusterSource"},
    {Kind::MultiKueueCluster, "spec.clusterSource.kubeConfig"},
    {Kind::MultiKueueCluster, "spec.clusterSource.clusterProfileRef"},
});

bool closed(Kind kind, std::string_view path) {
  return std::any_of(kClosedObjects.begin(), kClosedObjects.end(),
                     [&](const ClosedObject& c) { return c.kind == kind && c.path == path; });
}

// kubectl's extra columns. No Age column: the API server (and the sandbox)
// shows one for every kind.
struct PrinterColumn {
  Kind kind;
  std::string_view name;
  std::string_view type;
  std::string_view json_path;
};
constexpr std::array kPrinterColumns = std::to_array<PrinterColumn>({
    {Kind::ClusterQueue, "Cohort", "string", ".spec.cohortName"},
    {Kind::ClusterQueue, "Strategy", "string", ".spec.queueingStrategy"},
    {Kind::ClusterQueue, "Pending Workloads", "integer", ".status.pendingWorkloads"},
    {Kind::LocalQueue, "ClusterQueue", "string", ".spec.clusterQueue"},
    {Kind::LocalQueue, "Pending Workloads", "integer", ".status.pendingWorkloads"},
    {Kind::LocalQueue, "Admitted Workloads", "integer", ".status.admittedWorkloads"},
    {Kind::WorkloadPriorityClass, "Value", "integer", ".value"},
    {Kind::MultiKueueCluster, "Connected", "string", ".status.conditions[?(@.type=='Active')].status"},
});

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (!text.empty()) {
    const std::size_t at = text.find(separator);
    const std::string_view part = text.substr(0, at);
    if (!part.empty()) parts.push_back(part);
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return parts;
}

// The schema node of `path` under `root`, created on the way: "a.b" is
// properties.a.properties.b, "a[]" is properties.a.items. A node that gets a
// child becomes an object.
Json& node_at(Json& root, std::string_view path) {
  Json* node = &root;
  for (std::string_view segment : split(path, '.')) {
    const bool item = segment.size() > 2 && segment.substr(segment.size() - 2) == "[]";
    const std::string name(item ? segment.substr(0, segment.size() - 2) : segment);
    if (!node->contains("type")) (*node)["type"] = "object";
    node = &(*node)["properties"][name];
    if (item) {
      if (!node->contains("type")) (*node)["type"] = "array";
      node = &(*node)["items"];
    }
  }
  return *node;
}

// The node that holds the `required` list of the field at `path`.
Json& parent_of(Json& root, std::string_view path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? root : node_at(root, path.substr(0, dot));
}

void set_type(Json& node, FieldType type) {
  switch (type) {
    case FieldType::String:
      node["type"] = "string";
      break;
    case FieldType::Integer:
      node["type"] = "integer";
      break;
    case FieldType::Boolean:
      node["type"] = "boolean";
      break;
    case FieldType::Quantity:
      node["anyOf"] = Json::array({{{"type", "integer"}}, {{"type", "string"}}});
      node["x-kubernetes-int-or-string"] = true;
      break;
    case FieldType::Object:
      node["type"] = "object";
      break;
    case FieldType::List:
      node["type"] = "array";
      break;
    case FieldType::Map:
      node["type"] = "object";
      node["additionalProperties"] = {{"type", "string"}};
      break;
  }
}

const char* limit_keyword(schema::LimitType type) {
  switch (type) {
    case schema::LimitType::MinItems:
      return "minItems";
    case schema::LimitType::MaxItems:
      return "maxItems";
    case schema::LimitType::MaxLength:
      return "maxLength";
    case schema::LimitType::MaxProperties:
      return "maxProperties";
  }
  return "maxItems";
}

// Finishes the tree below `node` (at `path`): a list whose items the tables do
// not describe holds strings (every such list of Kueue's kinds does), and an
// object not listed as complete keeps unknown fields. Depth is bounded by the
// tables' paths.
void finish(Json& node, Kind kind, const std::string& path) {
  if (node.value("type", "") == "array") {
    Json& items = node["items"];
    if (!items.contains("type")) items["type"] = "string";
    finish(items, kind, path + "[]");
    return;
  }
  if (node.value("type", "") != "object" || node.contains("additionalProperties")) return;
  if (node.contains("properties")) {
    for (auto& [name, child] : node["properties"].items()) finish(child, kind, path.empty() ? name : path + "." + name);
  }
  if (!path.empty() && !closed(kind, path)) node["x-kubernetes-preserve-unknown-fields"] = true;
}

Json open_schema(std::string_view description) {
  return {{"description", description}, {"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
}

Json open_api_schema(Kind kind) {
  Json root = {{"type", "object"}};
  root["properties"]["apiVersion"] = {{"type", "string"}};
  root["properties"]["kind"] = {{"type", "string"}};
  root["properties"]["metadata"] = {{"type", "object"}};
  for (const schema::Field& field : schema::fields_of(kind)) {
    set_type(node_at(root, field.path), field.type);
    if (!field.required) continue;
    Json& parent = parent_of(root, field.path);
    const std::string name(split(field.path, '.').back());
    const std::string key = name.size() > 2 && name.ends_with("[]") ? name.substr(0, name.size() - 2) : name;
    Json& required = parent["required"];
    if (!required.is_array()) required = Json::array();
    if (std::find(required.begin(), required.end(), key) == required.end()) required.push_back(key);
  }
  for (const schema::EnumField& e : schema::kEnums) {
    if (e.kind != kind) continue;
    Json& values = node_at(root, e.path)["enum"] = Json::array();
    for (std::string_view value : e.values) values.push_back(value);
  }
  for (const schema::FieldLimit& limit : schema::kLimits) {
    if (limit.kind == kind) node_at(root, limit.path)[limit_keyword(limit.type)] = limit.value;
  }
  for (const schema::FieldDefault& d : schema::kDefaults) {
    if (d.kind != kind || d.source != schema::DefaultSource::Server) continue;  // as Kueue's own CRDs
    Json value = Json::parse(d.json_value, nullptr, false);
    if (!value.is_discarded()) node_at(root, d.path)["default"] = std::move(value);
  }
  for (const schema::ImmutableField& field : schema::kImmutableFields) {
    if (field.kind != kind) continue;
    // The rules Kueue's own CRDs carry; the sandbox recognises exactly these
    // two forms. Conditional rules need real CEL and are left to Kueue.
    if (field.mutability == schema::Mutability::Immutable) {
      node_at(root, field.path)["x-kubernetes-validations"].push_back(
          {{"message", field.message}, {"rule", "self == oldSelf"}});
    } else if (field.mutability == schema::Mutability::SetOnce) {
      const std::string name(split(field.path, '.').back());
      const std::string rule = "!has(oldSelf." + name + ") || (has(self." + name + ") && self." + name +
                               " == oldSelf." + name + ")";
      parent_of(root, field.path)["x-kubernetes-validations"].push_back({{"message", field.message}, {"rule", rule}});
    }
  }
  finish(root, kind, "");
  root["properties"]["status"] = open_schema("the state Kueue reports (not validated)");
  return root;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Json kueue_crd(Kind kind) {
  const schema::KindInfo& info = schema::info(kind);
  if (info.api_version != schema::kKueueApiVersion) return Json();
  const std::string group(schema::kKueueGroup);
  Json names = {{"kind", info.name},
                {"listKind", std::string(info.name) + "List"},
                {"plural", info.plural},
                {"singular", lower(info.name)}};
  const auto short_names = split(info.short_names, ' ');
  if (!short_names.empty()) {
    names["shortNames"] = Json::array();
    for (std::string_view name : short_names) names["shortNames"].push_back(name);
  }
  Json columns = Json::array();
  for (const PrinterColumn& column : kPrinterColumns) {
    if (column.kind == kind) {
      columns.push_back({{"jsonPath", column.json_path}, {"name", column.name}, {"type", column.type}});
    }
  }
  Json version = {{"name", schema::kKueueVersion}, {"served", true}, {"storage", true}};
  if (!columns.empty()) version["additionalPrinterColumns"] = std::move(columns);
  version["subresources"] = {{"status", Json::object()}};
  version["schema"] = {{"openAPIV3Schema", open_api_schema(kind)}};
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata",
           {{"name", std::string(info.plural) + "." + group},
            {"labels", {{std::string(schema::kManagedByLabel), schema::kManagedByValue}}}}},
          {"spec",
           {{"group", group},
            {"names", std::move(names)},
            {"scope", info.namespaced ? "Namespaced" : "Cluster"},
            {"versions", Json::array({std::move(version)})}}}};
}

// Workloads are Kueue's own objects (mkq never renders one), but MultiKueue
// watches them on every worker: a cluster without the kind cannot connect.
// Its schema is left open; Kueue's controllers, not mkq, write them.
Json workload_crd() {
  const std::string group(schema::kKueueGroup);
  Json open_object = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  Json version = {{"name", schema::kKueueVersion},
                  {"served", true},
                  {"storage", true},
                  {"subresources", {{"status", Json::object()}}},
                  {"schema",
                   {{"openAPIV3Schema",
                     {{"type", "object"},
                      {"properties",
                       {{"apiVersion", {{"type", "string"}}},
                        {"kind", {{"type", "string"}}},
                        {"metadata", {{"type", "object"}}},
                        {"spec", open_object},
                        {"status", open_object}}}}}}}};
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", "workloads." + group}}},
          {"spec",
           {{"group", group},
            {"names",
             {{"kind", "Workload"},
              {"listKind", "WorkloadList"},
              {"plural", "workloads"},
              {"singular", "workload"},
              {"shortNames", {"kwl", "kueueworkload", "kueueworkloads"}}}},
            {"scope", "Namespaced"},
            {"versions", Json::array({version})}}}};
}

std::vector<Json> kueue_crds() {
  std::vector<Json> crds;
  for (const schema::KindInfo& info : schema::kKinds) {
    if (info.api_version == schema::kKueueApiVersion) crds.push_back(kueue_crd(info.kind));
  }
  crds.push_back(workload_crd());
  return crds;
}

}  // namespace mkq::kueue
