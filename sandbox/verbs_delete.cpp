// delete and deletecollection (verbs.h): DeleteOptions and the garbage
// collector's finalizers they set (garbage_collector.h does the rest),
// finalizers, namespace termination, a CRD's custom resources.
#include <ctime>
#include <set>
#include <variant>

#include "sandbox/crds.h"
#include "sandbox/priority_classes.h"
#include "sandbox/request.h"
#include "sandbox/responses.h"
#include "sandbox/selector.h"
#include "sandbox/table.h"
#include "sandbox/verbs.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// A Namespace: marked Terminating, everything in it deleted; it goes once empty.
json delete_namespace(ClusterState& state, const ObjectKey& key, json object) {
  auto& meta = object["metadata"];
  if (!meta.contains("deletionTimestamp")) {
    meta["deletionTimestamp"] = format_timestamp(std::time(nullptr));
    object["status"]["phase"] = "Terminating";
    state.store->put(key, object, "MODIFIED");
  }
  for (const auto& k : state.store->keys_in_namespace(key.name)) {
    auto child = state.store->get(k);
    if (!child) continue;
    const ResourceInfo* child_info = find_served(state.registry, k.group, k.resource);
    if (child_info == nullptr) {
      state.store->remove(k, *child);
      continue;
    }
    // The namespace controller deletes what is left in the background.
    delete_object(state, *child_info, k, std::move(*child), Propagation::Background);
  }
  auto now = state.store->get(key);
  if (now && state.store->keys_in_namespace(key.name).empty()) {
    state.store->remove(key, *now);
    return *now;
  }
  return now ? *now : object;
}

// The preconditions of a DeleteOptions body (resourceVersion, uid).
bool preconditions_hold(const ApiRequest& r, json& existing) {
  if (r.body.empty()) return true;
  const json options = json::parse(r.body, nullptr, false);
  if (!options.is_object() || !options.contains("preconditions")) return true;
  const auto pre = options["preconditions"];
  if (pre.contains("resourceVersion") && pre["resourceVersion"] != existing["metadata"]["resourceVersion"]) return false;
  return !(pre.contains("uid") && pre["uid"] != existing["metadata"]["uid"]);
}

bool is_gc_finalizer(const json& finalizer) { return finalizer == "orphan" || finalizer == "foregroundDeletion"; }

// The kind's registry default (DefaultGarbageCollectionPolicy): batch/v1 Jobs
// orphan their pods, for backward compatibility; every other kind served here
// deletes its dependents.
Propagation default_propagation(const ResourceInfo& info) {
  return is_kind(info, "batch", "jobs") && info.version == "v1" ? Propagation::Orphan : Propagation::Background;
}

// The finalizers a delete leaves (the generic store's
// deletionFinalizersForGarbageCollection): the garbage collector's two taken
// out, then the one the policy asks for put back at the end -- the policy
// given, else the one the object already carries, else the kind's default.
// The same set as before: kept as it was, order included.
json finalizers_after_delete(const ResourceInfo& info, const json& finalizers, std::optional<Propagation> policy) {
  const json current = finalizers.is_array() ? finalizers : json::array();
  if (!policy) {
    for (const json& finalizer : current) {
      if (finalizer == "orphan") policy = Propagation::Orphan;
      if (finalizer == "foregroundDeletion") policy = Propagation::Foreground;
      if (policy) break;
    }
  }
  const Propagation effective = policy.value_or(default_propagation(info));
  json after = json::array();
  for (const json& finalizer : current) {
    if (!is_gc_finalizer(finalizer)) after.push_back(finalizer);
  }
  if (effective == Propagation::Orphan) after.push_back("orphan");
  if (effective == Propagation::Foreground) after.push_back("foregroundDeletion");
  const auto as_set = [](const json& list) {
    std::set<std::string> names;
    for (const json& f : list) names.insert(f.is_string() ? f.get<std::string>() : f.dump());
    return names;
  };
  return as_set(after) == as_set(current) ? current : after;
}

// An object as a delete leaves it while finalizers remain: the garbage
// collector's finalizers as `policy` says, then (markAsDeleting) its
// deletionTimestamp set once, a grace period of 0, and its generation bumped
// the first time. *changed: whether it differs from `object`.
json marked_for_delete(const ResourceInfo& info, json object, std::optional<Propagation> policy, bool* changed) {
  auto& meta = object["metadata"];
  const json before = meta.contains("finalizers") ? meta["finalizers"] : json::array();
  const json after = finalizers_after_delete(info, before, policy);
  *changed = after != before;
  if (*changed) {
    if (after.empty()) meta.erase("finalizers");
    else meta["finalizers"] = after;
  }
  if (has_finalizers(meta) && !meta.contains("deletionTimestamp")) {
    meta["deletionTimestamp"] = format_timestamp(std::time(nullptr));
    meta["deletionGracePeriodSeconds"] = 0;
    if (meta.contains("generation") && meta["generation"].is_number_integer() && meta["generation"].get<std::int64_t>() > 0) {
      meta["generation"] = meta["generation"].get<std::int64_t>() + 1;
    }
    *changed = true;
  }
  return object;
}

// What a delete would leave, without doing it (a dry run): a namespace
// Terminating, an object with finalizers marked for deletion, else the object
// as it is (it would be gone).
json preview_delete(const ResourceInfo& info, json object, std::optional<Propagation> policy) {
  if (!is_kind(info, "", "namespaces")) {
    bool changed = false;
    return marked_for_delete(info, std::move(object), policy, &changed);
  }
  auto& meta = object["metadata"];
  if (!meta.contains("deletionTimestamp")) {
    meta["deletionTimestamp"] = format_timestamp(std::time(nullptr));
    object["status"]["phase"] = "Terminating";
  }
  return object;
}

// What a DELETE asks of the garbage collector: DeleteOptions from the body,
// or from the query when there is no body (as kube-apiserver decodes them).
struct DeleteRequest {
  std::optional<Propagation> policy;  // nullopt: none given (the object's or the kind's default)
};

// The DeleteOptions' propagation, or the 422 ValidateDeleteOptions answers
// (`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: ...`).
std::variant<DeleteRequest, ApiResponse> read_delete_options(const ApiRequest& r) {
  std::optional<std::string> policy;
  std::optional<bool> orphan;
  if (!r.body.empty()) {
    const json options = json::parse(r.body, nullptr, false);
    if (options.is_object()) {
      if (options.contains("propagationPolicy") && options["propagationPolicy"].is_string()) {
        policy = options["propagationPolicy"].get<std::string>();
      }
      if (options.contains("orphanDependents") && options["orphanDependents"].is_boolean()) {
        orphan = options["orphanDependents"].get<bool>();
      }
    }
  } else {
    if (r.query.count("propagationPolicy") > 0) policy = query_value(r, "propagationPolicy");
    if (r.query.count("orphanDependents") > 0) orphan = query_true(r, "orphanDependents");
  }
  std::vector<FieldError> errors;
  if (policy && orphan) {
    errors.push_back({"FieldValueInvalid", "propagationPolicy",
                      "Invalid value: \"" + *policy + "\": orphanDependents and deletionPropagation cannot be both set"});
  }
  DeleteRequest request;
  if (policy == "Orphan") request.policy = Propagation::Orphan;
  else if (policy == "Background") request.policy = Propagation::Background;
  else if (policy == "Foreground") request.policy = Propagation::Foreground;
  else if (policy) {
    errors.push_back({"FieldValueNotSupported", "propagationPolicy",
                      "Unsupported value: \"" + *policy +
                          "\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""});
  }
  if (!errors.empty()) return invalid_options("DeleteOptions", errors);
  // orphanDependents: true orphans; false neither orphans nor waits.
  if (orphan) request.policy = *orphan ? Propagation::Orphan : Propagation::Background;
  return request;
}

// The Job registry's warning when a delete leaves the propagation to
// batch/v1's default, which orphans the pods.
std::vector<std::string> delete_warnings(const ResourceInfo& info, const DeleteRequest& request) {
  if (request.policy || default_propagation(info) != Propagation::Orphan) return {};
  return {"child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove "
          "them or set propagationPolicy=Orphan to suppress this warning"};
}

// The registries that set ReturnDeletedObject (pods, service accounts, services), and
// those whose delete only starts one (namespaces, CRDs: their own Delete).
bool returns_deleted_object(const ResourceInfo& info) {
  return is_kind(info, "", "pods") || is_kind(info, "", "serviceaccounts") || is_kind(info, "", "namespaces") ||
         is_kind(info, "", "services") || is_crd(info);
}

// kube-apiserver's answer to a delete: the object while its deletion is
// pending (finalizers) or when the kind returns it, else the generic store's
// Status{Success} naming what went (details.kind is the resource, as upstream).
ApiResponse delete_answer(const ApiRequest& r, const ResourceInfo& info, const json& last) {
  const auto& meta = last["metadata"];
  const bool pending = meta.contains("finalizers") && meta["finalizers"].is_array() && !meta["finalizers"].empty();
  if (pending || returns_deleted_object(info)) return object_response(r, info, 200, last);
  json details = {{"name", meta.value("name", std::string())}};
  if (!info.group.empty()) details["group"] = info.group;
  details["kind"] = info.resource;
  details["uid"] = meta.value("uid", std::string());
  return json_response(200, {{"kind", "Status"},
                             {"apiVersion", "v1"},
                             {"metadata", json::object()},
                             {"status", "Success"},
                             {"details", details}});
}

}  // namespace

bool has_finalizers(const json& meta) {
  return meta.contains("finalizers") && meta["finalizers"].is_array() && !meta["finalizers"].empty();
}

const ResourceInfo* find_served(const Registry& registry, const std::string& group, const std::string& resource) {
  for (const auto& [g, versions] : registry.groups()) {
    if (g != group) continue;
    for (const auto& v : versions) {
      if (const auto* info = registry.find(g, v, resource)) return info;
    }
  }
  return nullptr;
}

void finish_delete(ClusterState& state, const ResourceInfo& info, const ObjectKey& key, json& last) {
  state.store->remove(key, last);
  if (is_crd(info)) remove_custom_resources(state, last);
  if (key.ns.empty()) return;
  auto ns = state.store->get({"", "namespaces", "", key.ns});
  if (ns && (*ns)["metadata"].contains("deletionTimestamp") && state.store->keys_in_namespace(key.ns).empty()) {
    state.store->remove({"", "namespaces", "", key.ns}, *ns);
  }
}

json delete_object(ClusterState& state, const ResourceInfo& info, const ObjectKey& key, json object,
                   std::optional<Propagation> policy) {
  if (is_kind(info, "", "namespaces")) return delete_namespace(state, key, std::move(object));
  bool changed = false;
  object = marked_for_delete(info, std::move(object), policy, &changed);
  if (has_finalizers(object["metadata"])) {
    if (changed) state.store->put(key, object, "MODIFIED");
    return object;
  }
  finish_delete(state, info, key, object);
  return object;
}

ApiResponse delete_one(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  auto options = read_delete_options(r);
  if (auto* refused = std::get_if<ApiResponse>(&options)) return *refused;
  const DeleteRequest& request = std::get<DeleteRequest>(options);
  const ObjectKey key = key_of(info, t.ns, t.name);
  auto existing = state.store->get(key);
  if (!existing) return not_found(info, t.name);
  if (is_kind(info, "scheduling.k8s.io", "priorityclasses")) {
    if (auto refused = refuse_priority_class_delete(t.name)) return *refused;
  }
  if (!preconditions_hold(r, *existing)) return conflict(info, t.name);
  const auto warnings = delete_warnings(info, request);
  if (is_dry_run(r)) {
    return with_warnings(delete_answer(r, info, preview_delete(info, std::move(*existing), request.policy)), warnings);
  }
  json last = delete_object(state, info, key, std::move(*existing), request.policy);
  state.changed.notify_all();
  return with_warnings(delete_answer(r, info, last), warnings);
}

ApiResponse delete_collection(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  auto options = read_delete_options(r);
  if (auto* refused = std::get_if<ApiResponse>(&options)) return *refused;
  const DeleteRequest& request = std::get<DeleteRequest>(options);
  std::string error;
  const auto selector = parse_selector(query_value(r, "labelSelector"), query_value(r, "fieldSelector"), info, &error);
  if (!selector) return bad_request(error);
  const std::optional<std::string> ns = info.namespaced && !t.ns.empty() ? std::optional(t.ns) : std::nullopt;
  json items = json::array();
  const bool dry_run = is_dry_run(r);
  for (auto& object : state.store->list(info.group, info.resource, ns, "", 0)) {
    if (!selector->matches(object)) continue;
    const auto& m = object["metadata"];
    const ObjectKey key = key_of(info, m.value("namespace", std::string()), m.value("name", std::string()));
    if (dry_run) {
      items.push_back(present(info, preview_delete(info, object, request.policy)));
      continue;
    }
    items.push_back(present(info, delete_object(state, info, key, object, request.policy)));
  }
  state.changed.notify_all();
  return with_warnings(json_response(200, {{"kind", info.list_kind},
                                           {"apiVersion", info.api_version()},
                                           {"metadata", {{"resourceVersion", std::to_string(state.store->current_rv())}}},
                                           {"items", items}}),
                       delete_warnings(info, request));
}

}  // namespace mkq::sandbox
