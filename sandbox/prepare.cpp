// Object preparation and validation on every write (prepare.h).
#include "sandbox/prepare.h"

#include <algorithm>
#include <ctime>

#include "sandbox/builtin_types.h"
#include "sandbox/builtin_validation.h"
#include "sandbox/crd_rules.h"
#include "sandbox/crds.h"
#include "sandbox/apps_workloads.h"
#include "sandbox/deployments.h"
#include "sandbox/jobs.h"
#include "sandbox/pki.h"
#include "sandbox/priority_classes.h"
#include "sandbox/request.h"
#include "sandbox/responses.h"
#include "sandbox/schema.h"
#include "sandbox/services.h"
#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// "Deployment in version \"v1\" cannot be handled as a Deployment: ": how
// kube-apiserver's decoder starts every refusal of a body.
std::string cannot_handle(const ResourceInfo& info) {
  return info.kind + " in version \"" + info.version + "\" cannot be handled as a " + info.kind + ": ";
}

// Unknown fields by ?fieldValidation: a 400 under Strict, warnings under
// Warn (the default), nothing under Ignore.
std::optional<ApiResponse> field_validation(const ApiRequest& r, const ResourceInfo& info,
                                            const std::vector<std::string>& unknown_fields,
                                            std::vector<std::string>* warnings) {
  if (unknown_fields.empty()) return std::nullopt;
  const std::string mode = query_value(r, "fieldValidation");
  if (mode == "Strict") {
    std::string list;
    for (const auto& f : unknown_fields) {
      if (!list.empty()) list += ", ";
      list += "unknown field \"" + f + "\"";
    }
    return bad_request(cannot_handle(info) + "strict decoding error: " + list);
  }
  if (mode != "Ignore") {
    for (const auto& f : unknown_fields) warnings->push_back("unknown field \"" + f + "\"");
  }
  return std::nullopt;
}

// A schema error that stops kube-apiserver from running a CRD's CEL rules
// (the value they would read is not what the schema promises).
bool blocks_rules(const FieldError& e) {
  return e.reason == "FieldValueNotSupported" || e.reason == "FieldValueRequired" || e.reason == "FieldValueTooLong" ||
         e.reason == "FieldValueTooMany" || e.reason == "FieldValueTypeInvalid";
}

// A custom resource against its version's schema: pruned and defaulted in
// place; unknown fields handled by ?fieldValidation; then the CRD's
// x-kubernetes-validations (crd_rules.h), `existing` the stored object of an update.
std::optional<ApiResponse> validate_custom(const ApiRequest& r, const ResourceInfo& info, json& object,
                                           std::vector<std::string>* warnings, const json* existing,
                                           std::vector<FieldError>* errors) {
  auto outcome = apply_schema(info.schema, object);
  if (auto refused = field_validation(r, info, outcome.unknown_fields, warnings)) return refused;
  errors->insert(errors->end(), outcome.errors.begin(), outcome.errors.end());
  if (!info.rules_error.empty()) {
    return status_error(500, "InternalError",
                        "the CustomResourceDefinition of " + info.qualified_resource() +
                            " has validation rules that do not compile: " + info.rules_error);
  }
  if (!info.rules) return std::nullopt;
  if (std::any_of(errors->begin(), errors->end(), blocks_rules)) {
    errors->push_back({"FieldValueInvalid", "<nil>",
                       "Invalid value: \"null\": some validation rules were not checked because the object was "
                       "invalid; correct the existing errors to complete validation"});
    return std::nullopt;
  }
  const auto failed = info.rules->validate(object, existing);
  errors->insert(errors->end(), failed.begin(), failed.end());
  return std::nullopt;
}

}  // namespace

std::optional<ApiResponse> decode_fields(const ApiRequest& r, const ResourceInfo& info, json& object,
                                         std::vector<std::string>* warnings) {
  const DecodeOutcome outcome = decode_builtin(info, object);
  if (!outcome.type_error.empty()) return bad_request(cannot_handle(info) + outcome.type_error);
  return field_validation(r, info, outcome.unknown_fields, warnings);
}

void prepare_new(ClusterState& state, const ResourceInfo& info, json& object) {
  auto& meta = object["metadata"];
  meta["uid"] = new_uid(state);
  meta["creationTimestamp"] = format_timestamp(std::time(nullptr));
  meta.erase("deletionTimestamp");
  meta.erase("resourceVersion");
  if (info.has_generation) meta["generation"] = 1;
  else meta.erase("generation");
  object["apiVersion"] = info.api_version();
  object["kind"] = info.kind;
  if (is_kind(info, "", "namespaces")) {
    object["spec"] = {{"finalizers", {"kubernetes"}}};
    object["status"] = {{"phase", "Active"}};
    if (!meta.contains("labels") || !meta["labels"].is_object()) meta["labels"] = json::object();
    meta["labels"]["kubernetes.io/metadata.name"] = meta["name"];
  }
  if (is_kind(info, kBatchGroup, "jobs")) {  // its selector needs the uid given above
    default_job(object);
    prepare_new_job(object);
  }
  if (is_kind(info, "", "services")) object["status"] = {{"loadBalancer", json::object()}};
}

void normalise(const ResourceInfo& info, json& object) {
  default_builtin(info, object);
  if (is_kind(info, kAppsGroup, "deployments")) default_deployment(object);
  if (is_apps_workload(info)) default_apps_workload(info, object);
  // Services, Jobs and CronJobs, PriorityClasses.
  if (is_kind(info, "", "services")) default_service(object);
  if (is_kind(info, kBatchGroup, "jobs")) default_job(object);
  if (is_kind(info, kBatchGroup, "cronjobs")) default_cron_job(object);
  if (is_kind(info, "scheduling.k8s.io", "priorityclasses")) default_priority_class(object);
  if (is_kind(info, "", "secrets")) {
    if (object.contains("stringData") && object["stringData"].is_object()) {
      for (const auto& [k, v] : object["stringData"].items()) {
        if (v.is_string()) object["data"][k] = base64(v.get<std::string>());
      }
    }
    object.erase("stringData");
    if (!object.contains("type")) object["type"] = "Opaque";
  }
}

std::optional<ApiResponse> validate(const ApiRequest& r, const ResourceInfo& info, json& object,
                                    std::vector<std::string>* warnings, const json* existing) {
  const std::string name = object["metadata"].value("name", std::string());
  std::vector<FieldError> errors;
  validate_builtin(info, object, existing, &errors);  // metadata (the name by the kind's rule), the kind's own rules
  if (info.custom && info.schema.is_object()) {
    if (auto refused = validate_custom(r, info, object, warnings, existing, &errors)) return refused;
  }
  if (is_crd(info)) validate_crd(object, &errors);
  if (is_kind(info, kAppsGroup, "deployments")) {
    const auto found = validate_deployment(object, existing);
    errors.insert(errors.end(), found.begin(), found.end());
  }
  if (is_apps_workload(info)) {
    const auto found = validate_apps_workload(info, object, existing);
    errors.insert(errors.end(), found.begin(), found.end());
  }
  // Services, Jobs and CronJobs, PriorityClasses.
  std::vector<FieldError> found;
  if (is_kind(info, "", "services")) found = validate_service(object, existing);
  else if (is_kind(info, kBatchGroup, "jobs")) found = validate_job(object, existing);
  else if (is_kind(info, kBatchGroup, "cronjobs")) found = validate_cron_job(object, existing);
  else if (is_kind(info, "scheduling.k8s.io", "priorityclasses")) found = validate_priority_class(object, existing);
  errors.insert(errors.end(), found.begin(), found.end());
  if (!errors.empty()) return invalid(info, name, errors);
  return std::nullopt;
}

std::optional<ApiResponse> allocate(const ClusterState& state, const ResourceInfo& info, json& object,
                                    const json* existing) {
  if (info.custom || !is_kind(info, "", "services")) return std::nullopt;
  const auto errors = allocate_service(*state.store, object, existing);
  if (errors.empty()) return std::nullopt;
  return invalid(info, object["metadata"].value("name", std::string()), errors);
}

std::optional<ApiResponse> admit(const ClusterState& state, const ResourceInfo& info, const json& object,
                                 const json* existing) {
  if (info.custom || !is_kind(info, "scheduling.k8s.io", "priorityclasses")) return std::nullopt;
  return admit_priority_class(state, object, existing == nullptr);
}

json spec_part(const json& object, bool status_is_subresource) {
  json copy = object;
  copy.erase("metadata");
  if (status_is_subresource) copy.erase("status");
  return copy;
}

}  // namespace mkq::sandbox
