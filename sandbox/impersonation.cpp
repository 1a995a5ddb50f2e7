// Impersonation (impersonation.h), after k8s.io/apiserver's
// pkg/endpoints/filters/impersonation.go.
#include "sandbox/impersonation.h"

#include <algorithm>
#include <cctype>

#include "sandbox/rbac.h"
#include "sandbox/request.h"
#include "sandbox/responses.h"

namespace mkq::sandbox {
namespace {

constexpr const char* kUserHeader = "impersonate-user";
constexpr const char* kGroupHeader = "impersonate-group";
constexpr const char* kUidHeader = "impersonate-uid";
constexpr const char* kExtraPrefix = "impersonate-extra-";
constexpr const char* kServiceAccountPrefix = "system:serviceaccount:";

// One thing to impersonate, as upstream's ObjectReference of it.
struct Part {
  std::string kind;  // User, ServiceAccount, Group, UserExtra, UID
  std::string ns;
  std::string name;
  std::string extra_key;  // UserExtra
};

// The transport joins a repeated header's values with ","; so does Go's Header.Values read here.
std::vector<std::string> values_of(const std::string& joined) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= joined.size()) {
    const std::size_t comma = joined.find(',', start);
    std::string value = joined.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    while (!value.empty() && value.back() == ' ') value.pop_back();
    if (!value.empty()) out.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// Impersonate-Extra-KEY: KEY is percent-decoded (and lower-case, as HTTP/2 sends it).
std::string unescape(const std::string& key) {
  std::string out;
  for (std::size_t i = 0; i < key.size(); ++i) {
    if (key[i] == '%' && i + 2 < key.size() && std::isxdigit(static_cast<unsigned char>(key[i + 1])) != 0 &&
        std::isxdigit(static_cast<unsigned char>(key[i + 2])) != 0) {
      out += static_cast<char>(std::stoi(key.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += key[i];
    }
  }
  return out;
}

std::vector<Part> parts_of(const ApiRequest& r) {
  std::vector<Part> parts;
  const std::string user = header(r, kUserHeader);
  if (!user.empty()) {
    Part p{"User", "", user, ""};
    if (user.rfind(kServiceAccountPrefix, 0) == 0) {
      const std::string rest = user.substr(std::string(kServiceAccountPrefix).size());
      const auto colon = rest.find(':');
      if (colon != std::string::npos && colon > 0 && colon + 1 < rest.size() && rest.find(':', colon + 1) == std::string::npos) {
        p = {"ServiceAccount", rest.substr(0, colon), rest.substr(colon + 1), ""};
      }
    }
    parts.push_back(p);
  }
  for (const auto& group : values_of(header(r, kGroupHeader))) parts.push_back({"Group", "", group, ""});
  for (const auto& [name, joined] : r.headers) {
    if (name.rfind(kExtraPrefix, 0) != 0) continue;
    const std::string key = unescape(name.substr(std::string(kExtraPrefix).size()));
    for (const auto& value : values_of(joined)) parts.push_back({"UserExtra", "", value, key});
  }
  const std::string uid = header(r, kUidHeader);
  if (!uid.empty()) parts.push_back({"UID", "", uid, ""});
  return parts;
}

// What the caller must be allowed to `impersonate` for one part.
RequestAttributes attributes_for(const ApiRequest& r, const Part& p) {
  RequestAttributes a;
  a.user = r.user;
  a.groups = r.groups;
  a.verb = "impersonate";
  a.name = p.name;
  a.ns = p.ns;
  if (p.kind == "ServiceAccount") a.resource = "serviceaccounts";
  if (p.kind == "User") a.resource = "users";
  if (p.kind == "Group") a.resource = "groups";
  if (p.kind == "UserExtra" || p.kind == "UID") a.api_group = "authentication.k8s.io";
  if (p.kind == "UserExtra") {
    a.resource = "userextras";
    a.subresource = p.extra_key;
  }
  if (p.kind == "UID") a.resource = "uids";
  return a;
}

// Go's %v of the []ObjectReference upstream words its error with.
std::string describe(const std::vector<Part>& parts) {
  std::string out = "[";
  for (const auto& p : parts) {
    if (out.size() > 1) out += " ";
    const std::string api_version = p.kind == "UserExtra" || p.kind == "UID" ? "authentication.k8s.io/v1" : "";
    out += "{" + p.kind + " " + p.ns + " " + p.name + "  " + api_version + "  " + p.extra_key + "}";
  }
  return out + "]";
}

}  // namespace

bool wants_impersonation(const ApiRequest& r) {
  return std::any_of(r.headers.begin(), r.headers.end(),
                     [](const auto& h) { return h.first.rfind("impersonate-", 0) == 0; });
}

std::variant<ApiRequest, ApiResponse> impersonate(ClusterState& state, const ApiRequest& r) {
  const std::vector<Part> parts = parts_of(r);
  if (parts.empty()) return r;
  const bool has_user = parts.front().kind == "User" || parts.front().kind == "ServiceAccount";
  if (!has_user) {
    const std::string error = "requested " + describe(parts) + " without impersonating a user";
    return status_error(500, "InternalError", "Internal error occurred: " + error, {{"causes", {{{"message", error}}}}});
  }
  ApiRequest as = r;
  as.groups.clear();
  as.extra.clear();
  as.uid.clear();
  bool groups_given = false;
  for (const Part& p : parts) {
    const RequestAttributes a = attributes_for(r, p);
    if (!state.rbac.allows(*state.store, a)) return json_response(403, forbidden_status(a));
    if (p.kind == "User") as.user = p.name;
    if (p.kind == "ServiceAccount") as.user = std::string(kServiceAccountPrefix) + p.ns + ":" + p.name;
    if (p.kind == "Group") {
      as.groups.push_back(p.name);
      groups_given = true;
    }
    if (p.kind == "UserExtra") as.extra[p.extra_key].push_back(p.name);
    if (p.kind == "UID") as.uid = p.name;
  }
  if (parts.front().kind == "ServiceAccount" && !groups_given) {
    as.groups = {"system:serviceaccounts", "system:serviceaccounts:" + parts.front().ns};
  }
  const auto has = [&as](const char* g) { return std::find(as.groups.begin(), as.groups.end(), g) != as.groups.end(); };
  if (as.user == "system:anonymous") {
    if (!has("system:unauthenticated")) as.groups.emplace_back("system:unauthenticated");
  } else if (!has("system:authenticated") && !has("system:unauthenticated")) {
    as.groups.emplace_back("system:authenticated");
  }
  for (auto it = as.headers.begin(); it != as.headers.end();) {
    it = it->first.rfind("impersonate-", 0) == 0 ? as.headers.erase(it) : std::next(it);
  }
  return as;
}

}  // namespace mkq::sandbox
