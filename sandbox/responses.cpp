#include "sandbox/responses.h"

namespace mkq::sandbox {

ApiResponse json_response(int status, const nlohmann::json& body) {
  ApiResponse response;
  response.status = status;
  response.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return response;
}

nlohmann::json status_body(int code, const std::string& reason, const std::string& message,
                           const nlohmann::json& details) {
  nlohmann::json body = {{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", nlohmann::json::object()},
                         {"status", "Failure"}, {"message", message}, {"reason", reason},
                         {"code", code}};
  if (!details.is_null()) body["details"] = details;
  return body;
}

ApiResponse status_error(int code, const std::string& reason, const std::string& message,
                         const nlohmann::json& details) {
  return json_response(code, status_body(code, reason, message, details));
}

namespace {
nlohmann::json details_of(const ResourceInfo& info, const std::string& name, const std::string& kind) {
  nlohmann::json details = {{"name", name}};
  if (!info.group.empty()) details["group"] = info.group;
  details["kind"] = kind;
  return details;
}
}  // namespace

ApiResponse not_found(const ResourceInfo& info, const std::string& name) {
  return status_error(404, "NotFound", info.qualified_resource() + " \"" + name + "\" not found",
                      details_of(info, name, info.resource));
}

ApiResponse already_exists(const ResourceInfo& info, const std::string& name) {
  return status_error(409, "AlreadyExists", info.qualified_resource() + " \"" + name + "\" already exists",
                      details_of(info, name, info.resource));
}

ApiResponse conflict(const ResourceInfo& info, const std::string& name) {
  return status_error(409, "Conflict",
                      "Operation cannot be fulfilled on " + info.qualified_resource() + " \"" + name +
                          "\": the object has been modified; please apply your changes to the latest version and "
                          "try again",
                      details_of(info, name, info.resource));
}

namespace {
// The errors as an Invalid message lists them ("a: x" or "[a: x, b: y]"), and as causes.
std::string invalid_list(const std::vector<FieldError>& errors, nlohmann::json* causes) {
  std::string list;
  *causes = nlohmann::json::array();
  for (const auto& e : errors) {
    if (!list.empty()) list += ", ";
    list += e.field + ": " + e.message;
    causes->push_back({{"reason", e.reason}, {"message", e.message}, {"field", e.field}});
  }
  return errors.size() > 1 ? "[" + list + "]" : list;
}
}  // namespace

ApiResponse invalid(const ResourceInfo& info, const std::string& name, const std::vector<FieldError>& errors) {
  nlohmann::json causes;
  const std::string list = invalid_list(errors, &causes);
  auto details = details_of(info, name, info.kind);
  details["causes"] = causes;
  return status_error(422, "Invalid", info.qualified_kind() + " \"" + name + "\" is invalid: " + list, details);
}

ApiResponse invalid_options(const std::string& kind, const std::vector<FieldError>& errors) {
  nlohmann::json causes;
  const std::string list = invalid_list(errors, &causes);
  return status_error(422, "Invalid", kind + ".meta.k8s.io \"\" is invalid: " + list,
                      {{"group", "meta.k8s.io"}, {"kind", kind}, {"causes", causes}});
}

ApiResponse unwrapped_error(const std::string& message) {
  nlohmann::json body = status_body(500, "", message);
  body.erase("reason");  // metav1.StatusReasonUnknown is "", omitted
  return json_response(500, body);
}

ApiResponse bad_request(const std::string& message) { return status_error(400, "BadRequest", message); }

ApiResponse path_not_found() {
  return status_error(404, "NotFound", "the server could not find the requested resource",
                      {{"causes", {{{"reason", "UnexpectedServerResponse"}, {"message", "404 page not found"}}}}});
}

ApiResponse method_not_allowed() {
  return status_error(405, "MethodNotAllowed", "the server does not allow this method on the requested resource",
                      nlohmann::json::object());
}

}  // namespace mkq::sandbox
