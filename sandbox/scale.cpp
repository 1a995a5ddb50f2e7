// The scale subresource (scale.h).
#include "sandbox/scale.h"

#include <fmt/format.h>

#include "sandbox/apps_workloads.h"
#include "sandbox/responses.h"
#include "sandbox/table.h"
#include "sandbox/verbs.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// The autoscaling/v1 Scale of a stored object.
json scale_of(const json& object) {
  const json& meta = object["metadata"];
  json scale_meta = json::object();
  for (const char* key : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
    if (meta.contains(key)) scale_meta[key] = meta[key];
  }
  const json replicas = json_path_first(object, ".spec.replicas");
  const json current = json_path_first(object, ".status.replicas");
  const std::string selector = format_label_selector(json_path_first(object, ".spec.selector"));
  json status = {{"replicas", current.is_number_integer() ? current : json(0)}};
  if (selector != "<none>") status["selector"] = selector;
  json spec = json::object();
  if (replicas.is_number_integer() && replicas != 0) spec["replicas"] = replicas;
  return {{"kind", "Scale"}, {"apiVersion", "autoscaling/v1"}, {"metadata", scale_meta}, {"spec", spec}, {"status", status}};
}

// The Scale a PUT sends or a PATCH makes of the current one; an error answers.
std::optional<ApiResponse> wanted_scale(const ApiRequest& r, const json& current, json* scale) {
  const std::string type = media_type(header(r, "content-type"));
  const json body = json::parse(r.body, nullptr, false);
  if (body.is_discarded()) return bad_request("error decoding the request body: invalid JSON");
  if (r.method == "PUT") {
    *scale = body;
  } else if (type == "application/merge-patch+json" || type == "application/strategic-merge-patch+json") {
    // A Scale has no lists: a strategic merge patch of it is a merge patch.
    if (!body.is_object()) return bad_request("error decoding patch: a merge patch must be an object");
    *scale = current;
    scale->merge_patch(body);
  } else if (type == "application/json-patch+json") {
    if (!body.is_array()) return bad_request("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
    try {
      *scale = current.patch(body);
    } catch (const std::exception&) {
      return status_error(422, "Invalid", "the server rejected our request due to an error in our request",
                          json::object());
    }
  } else {
    return status_error(415, "UnsupportedMediaType",
                        "the body of the request was in an unknown format - accepted media types include: "
                        "application/json-patch+json, application/merge-patch+json, "
                        "application/strategic-merge-patch+json");
  }
  if (!scale->is_object()) return bad_request("the Scale is not an object");
  return std::nullopt;
}

}  // namespace

ApiResponse scale_verb(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  if (r.method != "GET" && r.method != "PUT" && r.method != "PATCH") return method_not_allowed();
  const auto stored = state.store->find(key_of(info, t.ns, t.name));
  if (!stored) return not_found(info, t.name);
  const json current = scale_of(*stored);
  if (r.method == "GET") return json_response(200, current);

  json scale;
  if (auto refused = wanted_scale(r, current, &scale)) return *refused;
  const json replicas = json_path_first(scale, ".spec.replicas");
  if (!replicas.is_null() && !replicas.is_number_integer()) {
    return bad_request(fmt::format("json: cannot unmarshal {} into Go struct field ScaleSpec.spec.replicas of type int32",
                                   replicas.is_string() ? "string" : "number"));
  }
  const std::int64_t count = replicas.is_number_integer() ? replicas.get<std::int64_t>() : 0;
  if (count < 0) {
    ResourceInfo scale_info;
    scale_info.group = "autoscaling";
    scale_info.kind = "Scale";
    return invalid(scale_info, t.name,
                   {{"FieldValueInvalid", "spec.replicas",
                     fmt::format("Invalid value: {}: must be greater than or equal to 0", count)}});
  }
  // The object with its new replicas, written as a PUT of it would be: its
  // checks, generation, managedFields, dryRun; the Scale's resourceVersion
  // (when given) its precondition.
  json object = *stored;
  object["spec"]["replicas"] = count;
  const json version = json_path_first(scale, ".metadata.resourceVersion");
  if (version.is_string() && !version.get<std::string>().empty()) object["metadata"]["resourceVersion"] = version;
  ApiRequest update = r;
  update.method = "PUT";
  update.body = object.dump();
  update.headers["content-type"] = "application/json";
  update.headers["accept"] = "application/json";
  Target whole = t;
  whole.sub.clear();
  ApiResponse written = update_object(state, update, info, whole);
  if (written.status >= 300) return written;
  const json result = json::parse(written.body, nullptr, false);
  if (result.is_discarded() || !result.is_object()) return written;
  ApiResponse answer = json_response(200, scale_of(result));
  answer.headers = written.headers;  // warnings
  return answer;
}

}  // namespace mkq::sandbox
