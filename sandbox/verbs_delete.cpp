// delete and deletecollection (verbs.h): finalizers, namespace termination,
// a CRD's custom resources.
#include <ctime>

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

// The served resource of group/resource in any version; nullptr when none serves it.
const ResourceInfo* find_any_version(const Registry& registry, const std::string& group, const std::string& resource) {
  for (const auto& [g, versions] : registry.groups()) {
    if (g != group) continue;
    for (const auto& v : versions) {
      if (const auto* info = registry.find(g, v, resource)) return info;
    }
  }
  return nullptr;
}

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
    const ResourceInfo* child_info = find_any_version(state.registry, k.group, k.resource);
    if (child_info == nullptr) {
      state.store->remove(k, *child);
      continue;
    }
    delete_object(state, *child_info, k, std::move(*child));
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

// What a delete would leave, without doing it (a dry run): a namespace
// Terminating, an object with finalizers marked for deletion, else the object
// as it is (it would be gone).
json preview_delete(const ResourceInfo& info, json object) {
  auto& meta = object["metadata"];
  const bool has_finalizers = meta.contains("finalizers") && meta["finalizers"].is_array() && !meta["finalizers"].empty();
  const bool is_namespace = is_kind(info, "", "namespaces");
  if ((is_namespace || has_finalizers) && !meta.contains("deletionTimestamp")) {
    meta["deletionTimestamp"] = format_timestamp(std::time(nullptr));
    if (is_namespace) object["status"]["phase"] = "Terminating";
    else meta["deletionGracePeriodSeconds"] = 0;
  }
  return object;
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

void finish_delete(ClusterState& state, const ResourceInfo& info, const ObjectKey& key, json& last) {
  state.store->remove(key, last);
  if (is_crd(info)) remove_custom_resources(state, last);
  if (key.ns.empty()) return;
  auto ns = state.store->get({"", "namespaces", "", key.ns});
  if (ns && (*ns)["metadata"].contains("deletionTimestamp") && state.store->keys_in_namespace(key.ns).empty()) {
    state.store->remove({"", "namespaces", "", key.ns}, *ns);
  }
}

json delete_object(ClusterState& state, const ResourceInfo& info, const ObjectKey& key, json object) {
  if (is_kind(info, "", "namespaces")) return delete_namespace(state, key, std::move(object));
  auto& meta = object["metadata"];
  const bool has_finalizers = meta.contains("finalizers") && meta["finalizers"].is_array() && !meta["finalizers"].empty();
  if (has_finalizers) {
    if (!meta.contains("deletionTimestamp")) {
      meta["deletionTimestamp"] = format_timestamp(std::time(nullptr));
      meta["deletionGracePeriodSeconds"] = 0;
      state.store->put(key, object, "MODIFIED");
    }
    return object;
  }
  finish_delete(state, info, key, object);
  return object;
}

ApiResponse delete_one(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  const ObjectKey key = key_of(info, t.ns, t.name);
  auto existing = state.store->get(key);
  if (!existing) return not_found(info, t.name);
  if (is_kind(info, "scheduling.k8s.io", "priorityclasses")) {
    if (auto refused = refuse_priority_class_delete(t.name)) return *refused;
  }
  if (!preconditions_hold(r, *existing)) return conflict(info, t.name);
  if (is_dry_run(r)) return delete_answer(r, info, preview_delete(info, std::move(*existing)));
  json last = delete_object(state, info, key, std::move(*existing));
  state.changed.notify_all();
  return delete_answer(r, info, last);
}

ApiResponse delete_collection(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
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
      items.push_back(present(info, preview_delete(info, object)));
      continue;
    }
    items.push_back(present(info, delete_object(state, info, key, object)));
  }
  state.changed.notify_all();
  return json_response(200, {{"kind", info.list_kind},
                             {"apiVersion", info.api_version()},
                             {"metadata", {{"resourceVersion", std::to_string(state.store->current_rv())}}},
                             {"items", items}});
}

}  // namespace mkq::sandbox
