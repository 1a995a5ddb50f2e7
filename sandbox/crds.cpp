// CustomResourceDefinitions: their rules, status and served resources (crds.h).
#include "sandbox/crds.h"

#include <ctime>

#include "sandbox/crd_rules.h"
#include "sandbox/request.h"
#include "sandbox/table.h"

namespace mkq::sandbox {

using nlohmann::json;

bool is_crd(const ResourceInfo& info) { return is_kind(info, kApiExtensionsGroup, "customresourcedefinitions"); }

void validate_crd(const json& crd, std::vector<FieldError>* errors) {
  const auto spec = crd.value("spec", json::object());
  const std::string group = spec.value("group", std::string());
  const auto names = spec.value("names", json::object());
  const std::string plural = names.is_object() ? names.value("plural", std::string()) : std::string();
  if (group.empty()) errors->push_back({"FieldValueRequired", "spec.group", "Required value"});
  if (plural.empty()) errors->push_back({"FieldValueRequired", "spec.names.plural", "Required value"});
  if (!names.is_object() || names.value("kind", std::string()).empty()) {
    errors->push_back({"FieldValueRequired", "spec.names.kind", "Required value"});
  }
  const std::string scope = spec.value("scope", std::string());
  if (scope != "Namespaced" && scope != "Cluster") {
    errors->push_back({"FieldValueNotSupported", "spec.scope",
                       "Unsupported value: " + go_value(scope) + ": supported values: \"Cluster\", \"Namespaced\""});
  }
  const auto versions = spec.value("versions", json::array());
  if (!versions.is_array() || versions.empty()) {
    errors->push_back({"FieldValueInvalid", "spec.versions", "Invalid value: null: must have exactly one version marked as storage version"});
  }
  const std::string name = crd["metadata"].value("name", std::string());
  if (!group.empty() && !plural.empty() && name != plural + "." + group) {
    errors->push_back({"FieldValueInvalid", "metadata.name",
                       "Invalid value: " + go_value(name) + ": must be spec.names.plural+\".\"+spec.group"});
  }
  validate_crd_rules(crd, errors);
}

void set_crd_status(json& crd) {
  const auto spec = crd.value("spec", json::object());
  json stored = json::array();
  for (const auto& v : spec.value("versions", json::array())) {
    if (v.is_object() && v.value("storage", false)) stored.push_back(v.value("name", ""));
  }
  const std::string now = format_timestamp(std::time(nullptr));
  crd["status"] = {{"acceptedNames", spec.value("names", json::object())},
                   {"storedVersions", stored},
                   {"conditions",
                    {{{"type", "NamesAccepted"}, {"status", "True"}, {"lastTransitionTime", now},
                      {"reason", "NoConflicts"}, {"message", "no conflicts found"}},
                     {{"type", "Established"}, {"status", "True"}, {"lastTransitionTime", now},
                      {"reason", "InitialNamesAccepted"}, {"message", "the initial names have been accepted"}}}}};
}

void refresh_registry(ClusterState& state) {
  state.registry.set_crds(state.store->list(kApiExtensionsGroup, "customresourcedefinitions", std::nullopt, "", 0));
}

void remove_custom_resources(ClusterState& state, const json& crd) {
  const auto spec = crd.value("spec", json::object());
  const std::string group = spec.value("group", std::string());
  const std::string plural = spec.value("names", json::object()).value("plural", std::string());
  for (auto& object : state.store->list(group, plural, std::nullopt, "", 0)) {
    const auto& m = object["metadata"];
    state.store->remove({group, plural, m.value("namespace", std::string()), m.value("name", std::string())}, object);
  }
  refresh_registry(state);
}

}  // namespace mkq::sandbox
