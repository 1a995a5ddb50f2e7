// create, update, patch and server-side apply (verbs.h).
#include <algorithm>
#include <ctime>

#include "sandbox/apply.h"
#include "sandbox/crds.h"
#include "sandbox/prepare.h"
#include "sandbox/protobuf.h"
#include "sandbox/responses.h"
#include "sandbox/strategic.h"
#include "sandbox/table.h"
#include "sandbox/verbs.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// The request body as an object with a metadata object.
std::optional<ApiResponse> parse_object(const ApiRequest& r, json* object) {
  const std::string type = media_type(header(r, "content-type"));
  if (type == "application/yaml") {
    return status_error(415, "UnsupportedMediaType",
                        "the body of the request was in an unknown format - accepted media types include: "
                        "application/json, application/vnd.kubernetes.protobuf");
  }
  if (type == "application/vnd.kubernetes.protobuf") {
    std::string error;
    auto decoded = decode_protobuf_object(r.body, &error);
    if (!decoded) return bad_request("couldn't get version/kind; " + error);
    *object = std::move(*decoded);
  } else {
    *object = json::parse(r.body, nullptr, false);
  }
  if (object->is_discarded() || !object->is_object()) {
    return bad_request("couldn't get version/kind; json parse error: invalid JSON in the request body");
  }
  if (!object->contains("metadata") || !(*object)["metadata"].is_object()) (*object)["metadata"] = json::object();
  return std::nullopt;
}

std::optional<ApiResponse> check_kind(const ResourceInfo& info, const json& object) {
  const std::string kind = object.value("kind", std::string());
  const std::string api_version = object.value("apiVersion", std::string());
  if ((!kind.empty() && kind != info.kind) || (!api_version.empty() && api_version != info.api_version())) {
    return bad_request("the API version in the data (" + api_version + ") does not match the expected API version (" +
                       info.api_version() + ")");
  }
  return std::nullopt;
}

// Stores a written object and answers with it (`status`): as object_response
// would, but with the text the store wrote when the answer is that text (JSON,
// not a Table, the object's apiVersion and kind its resource's) -- one dump per write.
ApiResponse store_and_answer(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const ObjectKey& key,
                             json& object, const char* event_type, int status) {
  std::string text;
  state.store->put(key, object, event_type, &text);
  if (!answers_as_written(r, info, object)) return object_response(r, info, status, object);
  ApiResponse answer;
  answer.status = status;
  answer.body = std::move(text);
  return answer;
}

// A create into a namespace needs the namespace, and not terminating.
std::optional<ApiResponse> check_namespace_open(ClusterState& state, const ResourceInfo& info, const std::string& ns,
                                                const std::string& name) {
  const auto found = state.store->find_and_keep({"", "namespaces", "", ns});  // parsed once, then shared by every create
  if (!found) return not_found(*state.registry.find("", "v1", "namespaces"), ns);
  if (!(*found)["metadata"].contains("deletionTimestamp")) return std::nullopt;
  return status_error(403, "Forbidden",
                      info.qualified_resource() + " \"" + name + "\" is forbidden: unable to create new content in namespace " +
                          ns + " because it is being terminated",
                      {{"name", name}, {"group", info.group}, {"kind", info.resource}});
}

std::optional<ApiResponse> check_namespace(ClusterState& state, const ResourceInfo& info, const Target& t, json& object,
                                           bool creating) {
  auto& meta = object["metadata"];
  if (!info.namespaced) {
    meta.erase("namespace");
    return std::nullopt;
  }
  const std::string body_ns = meta.value("namespace", std::string());
  if (!body_ns.empty() && !t.ns.empty() && body_ns != t.ns) {
    return bad_request("the namespace of the provided object does not match the namespace sent on the request");
  }
  if (t.ns.empty()) return bad_request("the server could not find the requested resource");
  meta["namespace"] = t.ns;
  if (!creating) return std::nullopt;
  return check_namespace_open(state, info, t.ns, meta.value("name", std::string()));
}

FieldTypes field_types(const ResourceInfo& info) {
  return FieldTypes{info.custom && info.schema.is_object() ? &info.schema : nullptr};
}

// The manager of a write: ?fieldManager (kubectl sends one on every write), else the User-Agent's first segment.
FieldManager field_manager(const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  return FieldManager{manager_or_user_agent(query_value(r, "fieldManager"), header(r, "user-agent")), info.api_version(),
                      t.sub == "status" ? "status" : "", format_timestamp(std::time(nullptr))};
}

// Records the Update entry of a write that is not an apply.
void record_update_manager(const ApiRequest& r, const ResourceInfo& info, const Target& t, json& object,
                           const json* before) {
  const FieldManager who = field_manager(r, info, t);
  if (who.manager.empty()) return;
  note_update(object, before, who, field_types(info));
}

// What a write over `existing` checks first: the name on the URL, the kind,
// the namespace and the resourceVersion (a conflict when stale).
std::optional<ApiResponse> check_write_over(ClusterState& state, const ResourceInfo& info, const Target& t,
                                            const json& existing, json& candidate, bool require_rv) {
  auto& meta = candidate["metadata"];
  const auto& old_meta = existing["metadata"];
  const std::string name = old_meta.value("name", std::string());
  if (meta.value("name", name) != name) {
    return bad_request("the name of the object (" + meta.value("name", std::string()) +
                       ") does not match the name on the URL (" + name + ")");
  }
  if (auto error = check_kind(info, candidate)) return error;
  if (auto error = check_namespace(state, info, t, candidate, false)) return error;
  const std::string rv = meta.value("resourceVersion", std::string());
  if (rv.empty() && require_rv && !info.allow_unconditional_update) {
    return invalid(info, name, {{"FieldValueInvalid", "metadata.resourceVersion", "Invalid value: 0x0: must be specified for an update"}});
  }
  if (!rv.empty() && rv != old_meta.value("resourceVersion", std::string())) return conflict(info, name);
  return std::nullopt;
}

// The managedFields a write leaves, as kube-apiserver: a write without them
// keeps the object's; an empty list, or one empty entry, clears them; any
// other list replaces them.
void carry_managed_fields(const json& old_meta, json& m) {
  if (!m.contains("managedFields") || !m["managedFields"].is_array()) {
    if (old_meta.contains("managedFields")) m["managedFields"] = old_meta["managedFields"];
  } else if (m["managedFields"].empty() || (m["managedFields"].size() == 1 && m["managedFields"][0] == json::object())) {
    m.erase("managedFields");
  }
}

// A write of the object itself (not its status): keeps what the client may
// not change -- the status subresource, uid, timestamps, generation -- and
// refuses new finalizers on an object being deleted.
std::optional<ApiResponse> keep_server_fields(const ResourceInfo& info, const json& existing, json& result) {
  const auto& old_meta = existing["metadata"];
  const std::string name = old_meta.value("name", std::string());
  if (info.has_status) {
    if (existing.contains("status")) result["status"] = existing["status"];
    else result.erase("status");
  }
  auto& m = result["metadata"];
  for (const char* keep : {"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"}) {
    if (old_meta.contains(keep)) m[keep] = old_meta[keep];
    else m.erase(keep);
  }
  carry_managed_fields(old_meta, m);
  if (old_meta.contains("deletionTimestamp") && m.contains("finalizers") && m["finalizers"].is_array()) {
    const auto& old_f = old_meta.value("finalizers", json::array());
    for (const auto& f : m["finalizers"]) {
      if (std::find(old_f.begin(), old_f.end(), f) != old_f.end()) continue;
      return status_error(422, "Invalid",
                          info.qualified_kind() + " \"" + name +
                              "\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted");
    }
  }
  if (is_kind(info, "", "namespaces")) {
    result["status"] = existing.value("status", json::object());
    if (!m.contains("labels") || !m["labels"].is_object()) m["labels"] = json::object();
    m["labels"]["kubernetes.io/metadata.name"] = name;
  }
  return std::nullopt;
}

// Stores a validated write over `existing`; the last finalizer of an object
// being deleted gone, the object goes.
ApiResponse store_write_over(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t,
                             const json& existing, json& result, const std::vector<std::string>& warnings,
                             int created_status) {
  const ObjectKey key = key_of(info, t.ns, existing["metadata"].value("name", std::string()));
  const auto& rm = result["metadata"];
  if (rm.contains("deletionTimestamp") && !has_finalizers(rm)) {
    finish_delete(state, info, key, result);
    state.changed.notify_all();
    return with_warnings(object_response(r, info, 200, result), warnings);
  }
  if (result == existing) return with_warnings(object_response(r, info, 200, existing), warnings);  // no-op write
  ApiResponse answer = store_and_answer(state, r, info, key, result, "MODIFIED", created_status);
  if (is_crd(info)) refresh_registry(state);
  state.changed.notify_all();
  return with_warnings(std::move(answer), warnings);
}

// Writes `candidate` over `existing` (a PUT, PATCH, apply or status write):
// keeps what the client may not change, checks the resourceVersion,
// validates, bumps generation and stores.
// `applied`: the candidate comes from a server-side apply, its managedFields already recorded.
ApiResponse write_over(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t,
                       const json& existing, json candidate, bool require_rv, bool applied = false) {
  if (auto error = check_write_over(state, info, t, existing, candidate, require_rv)) return *error;
  json result;
  if (t.sub == "status") {
    result = existing;
    if (candidate.contains("status")) result["status"] = candidate["status"];
    else result.erase("status");
    if (applied) result["metadata"]["managedFields"] = candidate["metadata"].value("managedFields", json::array());
    if (applied && result["metadata"]["managedFields"].empty()) result["metadata"].erase("managedFields");
  } else {
    result = std::move(candidate);
    if (auto error = keep_server_fields(info, existing, result)) return *error;
  }
  result["apiVersion"] = info.api_version();
  result["kind"] = info.kind;
  std::vector<std::string> warnings;
  if (auto error = decode_fields(r, info, result, &warnings)) return *error;
  normalise(info, result);
  if (auto error = allocate(state, info, result, &existing)) return *error;
  if (auto error = validate(r, info, result, &warnings, &existing)) return *error;
  if (auto error = admit(state, info, result, &existing)) return *error;
  if (is_crd(info) && t.sub != "status") {
    // Spec changes keep the established status.
    if (existing.contains("status")) result["status"] = existing["status"];
    set_crd_status(result);
  }
  if (info.has_generation && spec_part(existing, info.has_status) != spec_part(result, info.has_status)) {
    result["metadata"]["generation"] = existing["metadata"].value("generation", 1) + 1;
  }
  if (!applied) record_update_manager(r, info, t, result, &existing);
  if (is_dry_run(r)) return with_warnings(object_response(r, info, 200, result), warnings);
  return store_write_over(state, r, info, t, existing, result, warnings, 200);
}

// A merge, JSON or strategic merge patch applied to `existing`.
std::optional<ApiResponse> apply_patch(const ApiRequest& r, const ResourceInfo& info, const std::string& type,
                                       const json& existing, json* patched) {
  const json patch_body = json::parse(r.body, nullptr, false);
  if (patch_body.is_discarded()) return bad_request("error decoding patch: invalid JSON");
  if (type == "application/strategic-merge-patch+json" && !info.custom) {
    // The built-in kinds' merge lists are merged by key (strategic.h).
    std::string error;
    auto merged = strategic_merge(existing, patch_body, info.kind, &error);
    if (!merged) return bad_request(error);
    *patched = std::move(*merged);
  } else if (type == "application/merge-patch+json") {
    if (!patch_body.is_object()) return bad_request("error decoding patch: a merge patch must be an object");
    *patched = existing;
    patched->merge_patch(patch_body);
  } else if (type == "application/json-patch+json") {
    if (!patch_body.is_array()) return bad_request("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
    *patched = existing;
    for (const json& op : patch_body) {
      try {
        *patched = patched->patch(json::array({op}));
      } catch (const std::exception&) {
        // kube-apiserver: NewGenericServerResponse(422, ...), which keeps json-patch's own words out of the answer.
        return status_error(422, "Invalid", "the server rejected our request due to an error in our request",
                            json::object());
      }
    }
  } else {
    return status_error(415, "UnsupportedMediaType",
                        "the body of the request was in an unknown format - accepted media types include: "
                        "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml" +
                            std::string(info.custom ? "" : ", application/strategic-merge-patch+json"));
  }
  if (!patched->is_object()) return bad_request("the patched object is not an object");
  if (!patched->contains("metadata") || !(*patched)["metadata"].is_object()) (*patched)["metadata"] = json::object();
  return std::nullopt;
}

// PATCH application/apply-patch+yaml: server-side apply (apply.h), creating the object when missing.
ApiResponse apply_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t,
                         const json* existing) {
  json config;
  if (auto error = parse_object(r, &config)) return *error;
  if (query_value(r, "fieldManager").empty()) {
    return invalid(info, t.name, {{"FieldValueRequired", "metadata.managedFields.fieldManager",
                                   "Required value: is required for apply patch"}});
  }
  if (config["metadata"].value("name", t.name) != t.name) {
    return bad_request("the name of the object (" + config["metadata"].value("name", std::string()) +
                       ") does not match the name on the URL (" + t.name + ")");
  }
  config["metadata"]["name"] = t.name;
  ApplyRefusal refusal;
  auto merged = server_side_apply(existing, config, field_manager(r, info, t),
                                  query_true(r, "force"), field_types(info), &refusal);
  if (!merged && refusal.conflict) {
    return status_error(409, "Conflict", refusal.message,
                        {{"name", t.name}, {"group", info.group}, {"kind", info.resource}, {"causes", refusal.causes}});
  }
  if (!merged) {
    // A plain error in kube-apiserver's handler: a 500 without a reason.
    json status = status_body(500, "", "failed to create typed patch object (" + (t.ns.empty() ? "" : t.ns + "/") +
                                           t.name + "; " + info.group + "/" + info.version + ", Kind=" + info.kind +
                                           "): " + refusal.message);
    status.erase("reason");
    return json_response(500, status);
  }
  if (!existing) return create_object(state, r, info, t, &*merged);
  return write_over(state, r, info, t, *existing, std::move(*merged), false, true);
}

// metadata.name, or one made from generateName.
std::optional<ApiResponse> name_new_object(ClusterState& state, const ResourceInfo& info, json& meta) {
  if (!meta.value("name", std::string()).empty()) return std::nullopt;
  const std::string generate = meta.value("generateName", std::string());
  if (generate.empty()) {
    return invalid(info, "", {{"FieldValueRequired", "metadata.name", "Required value: name or generateName is required"}});
  }
  meta["name"] = generate + random_suffix(state);
  return std::nullopt;
}

}  // namespace

ApiResponse create_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t,
                          const json* applied) {
  json object;
  if (applied != nullptr) {
    object = *applied;
  } else if (auto error = parse_object(r, &object)) {
    return *error;
  }
  if (auto error = check_kind(info, object)) return *error;
  std::vector<std::string> warnings;
  if (auto error = decode_fields(r, info, object, &warnings)) return *error;
  auto& meta = object["metadata"];
  if (!meta.value("resourceVersion", std::string()).empty()) {
    // The storage layer's plain error, which kube-apiserver answers as a 500 without a reason.
    json status = status_body(500, "", "resourceVersion should not be set on objects to be created");
    status.erase("reason");
    return json_response(500, status);
  }
  if (auto error = name_new_object(state, info, meta)) return *error;
  const std::string name = meta["name"].get<std::string>();
  if (auto error = check_namespace(state, info, t, object, true)) return *error;
  if (info.has_status && info.custom) object.erase("status");
  if (applied == nullptr) meta.erase("managedFields");
  prepare_new(state, info, object);
  normalise(info, object);
  if (auto error = allocate(state, info, object, nullptr)) return *error;
  if (auto error = validate(r, info, object, &warnings)) return *error;
  if (auto error = admit(state, info, object, nullptr)) return *error;
  const ObjectKey key = key_of(info, t.ns, name);
  if (state.store->exists(key)) return already_exists(info, name);
  if (is_crd(info)) set_crd_status(object);
  if (applied == nullptr) record_update_manager(r, info, t, object, nullptr);
  if (is_dry_run(r)) return with_warnings(object_response(r, info, 201, object), warnings);
  ApiResponse answer = store_and_answer(state, r, info, key, object, "ADDED", 201);
  if (is_crd(info)) refresh_registry(state);
  state.changed.notify_all();
  return with_warnings(std::move(answer), warnings);
}

ApiResponse update_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  json object;
  if (auto error = parse_object(r, &object)) return *error;
  const auto existing = state.store->find(key_of(info, t.ns, t.name));
  if (!existing) return not_found(info, t.name);
  return write_over(state, r, info, t, *existing, std::move(object), true);
}

ApiResponse patch_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  const std::string type = media_type(header(r, "content-type"));
  const auto existing = state.store->find(key_of(info, t.ns, t.name));
  if (type == "application/apply-patch+yaml") return apply_object(state, r, info, t, existing.get());
  if (!existing) return not_found(info, t.name);
  json patched;
  if (auto error = apply_patch(r, info, type, *existing, &patched)) return *error;
  return write_over(state, r, info, t, *existing, std::move(patched), false);
}

}  // namespace mkq::sandbox
