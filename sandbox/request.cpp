// Reading requests and shaping object answers, shared by every verb.
#include "sandbox/request.h"

#include <algorithm>
#include <ctime>
#include <iterator>
#include <limits>

#include <fmt/format.h>

#include "sandbox/responses.h"
#include "sandbox/table.h"

namespace mkq::sandbox {

using nlohmann::json;

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < path.size()) {
    const auto slash = path.find('/', start);
    const auto end = slash == std::string::npos ? path.size() : slash;
    if (end > start) out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string query_value(const ApiRequest& r, const std::string& key) {
  const auto it = r.query.find(key);
  return it == r.query.end() ? std::string() : it->second;
}

bool query_true(const ApiRequest& r, const std::string& key) {
  // The Python client sends watch=True.
  const auto v = query_value(r, key);
  return v == "true" || v == "1" || v == "t" || v == "T" || v == "TRUE" || v == "True";
}

std::string header(const ApiRequest& r, const std::string& key) {
  const auto it = r.headers.find(key);
  return it == r.headers.end() ? std::string() : it->second;
}

std::string media_type(const std::string& content_type) {
  std::string t = content_type.substr(0, content_type.find(';'));
  while (!t.empty() && t.back() == ' ') t.pop_back();
  return t;
}

bool is_dry_run(const ApiRequest& r) {
  const auto range = r.query.equal_range("dryRun");
  if (std::any_of(range.first, range.second, [](const auto& kv) { return kv.second == "All"; })) return true;
  if (r.method != "DELETE" || r.body.empty()) return false;
  // kubectl and the Python client put dryRun in the DeleteOptions body.
  const json options = json::parse(r.body, nullptr, false);
  if (!options.is_object() || !options.contains("dryRun") || !options["dryRun"].is_array()) return false;
  const json& values = options["dryRun"];
  return std::find(values.begin(), values.end(), json("All")) != values.end();
}

ObjectKey key_of(const ResourceInfo& info, const std::string& ns, const std::string& name) {
  return {info.group, info.resource, info.namespaced ? ns : std::string(), name};
}

bool is_kind(const ResourceInfo& info, const char* group, const char* resource) {
  return info.group == group && info.resource == resource;
}

json present(const ResourceInfo& info, json object) {
  object["apiVersion"] = info.api_version();
  object["kind"] = info.kind;
  return object;
}

bool answers_as_written(const ApiRequest& r, const ResourceInfo& info, const json& object) {
  const auto api_version = object.find("apiVersion");
  const auto kind = object.find("kind");
  return api_version != object.end() && *api_version == info.api_version() && kind != object.end() &&
         *kind == info.kind && !wants_table(header(r, "accept"));
}

ApiResponse object_response(const ApiRequest& r, const ResourceInfo& info, int status, const json& object) {
  if (answers_as_written(r, info, object)) return json_response(status, object);  // present() would copy it unchanged
  if (wants_table(header(r, "accept"))) {
    return json_response(status, to_table(info, {object}, {{"resourceVersion", object["metadata"].value("resourceVersion", "")}},
                                          query_value(r, "includeObject"), std::time(nullptr)));
  }
  return json_response(status, present(info, object));
}

namespace {
void append_warning(std::string& header, const std::string& warning) {
  fmt::format_to(std::back_inserter(header), "{}299 - {}", header.empty() ? "" : ", ", json(warning).dump());
}
}  // namespace

ApiResponse with_warnings(ApiResponse response, const std::vector<std::string>& warnings) {
  std::string text;
  for (const auto& w : warnings) append_warning(text, w);
  if (!text.empty()) response.headers["Warning"] = text;
  return response;
}

void add_first_warning(ApiResponse& response, const std::string& warning) {
  std::string text;
  append_warning(text, warning);
  const auto it = response.headers.find("Warning");
  if (it != response.headers.end() && !it->second.empty()) text += ", " + it->second;
  response.headers["Warning"] = std::move(text);
}

ResourceVersion read_resource_version(const std::string& text) {
  ResourceVersion out;
  if (text.empty() || text == "0") return out;
  // strconv.ParseUint's NumError inside field.Invalid's text.
  const auto refuse = [&](const char* why) {
    out.error = fmt::format("resourceVersion: Invalid value: {0}: strconv.ParseUint: parsing {0}: {1}",
                            go_value(json(text)), why);
    return out;
  };
  for (const char c : text) {
    if (c < '0' || c > '9') return refuse("invalid syntax");
  }
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  for (const char c : text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (out.value > (kMax - digit) / 10) return refuse("value out of range");
    out.value = out.value * 10 + digit;
  }
  return out;
}

}  // namespace mkq::sandbox
