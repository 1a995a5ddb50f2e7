// Cluster: routing of kube-apiserver paths to discovery and the verbs, over
// the Store (persistence), the Registry (served resources) and the schema
// code (validation, pruning, defaulting of custom resources).
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include "sandbox/api.h"
#include "sandbox/apply.h"
#include "sandbox/controllers.h"
#include "sandbox/deployments.h"
#include "sandbox/identity.h"
#include "sandbox/kueue_install.h"
#include "sandbox/openapi.h"
#include "sandbox/protobuf.h"
#include "sandbox/rbac.h"
#include "sandbox/resources.h"
#include "sandbox/responses.h"
#include "sandbox/schema.h"
#include "sandbox/selector.h"
#include "sandbox/strategic.h"
#include "sandbox/store.h"
#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kVerbs[] = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};
constexpr std::size_t kWatchBatch = 500;
constexpr int kDefaultWatchSeconds = 1800;
constexpr int kBookmarkSeconds = 5;
// Group commit: a write is committed at most this long after it was answered
// (a burst of writes shares one commit; see Store::set_commit_listener).
constexpr std::chrono::milliseconds kCommitDelay{10};

// State shared with running watch streams, which may outlive one handle() call.
struct Shared {
  std::mutex mutex;
  std::condition_variable changed;
  std::unique_ptr<Store> store;
  Registry registry;
  bool closing = false;
  std::mt19937_64 random{std::random_device{}()};
};

// Where a resource request points.
struct Target {
  std::string group;
  std::string version;
  std::string ns;  // from /namespaces/NS/...
  std::string resource;
  std::string name;
  std::string sub;  // "status", ...
  bool watch = false;
};

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
  // Go's strconv.ParseBool, as kube-apiserver reads boolean parameters (the Python
  // client sends watch=True).
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

const std::regex& subdomain_regex() {
  static const std::regex re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
  return re;
}
const std::regex& label_regex() {
  static const std::regex re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
  return re;
}

std::string hex_encode(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::optional<std::string> hex_decode(const std::string& s) {
  if (s.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < s.size(); i += 2) {
    const auto nibble = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      return -1;
    };
    const int hi = nibble(s[i]);
    const int lo = nibble(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

// The object without metadata and status: what bumps generation.
json spec_part(const json& object, bool status_is_subresource) {
  json copy = object;
  copy.erase("metadata");
  if (status_is_subresource) copy.erase("status");
  return copy;
}

class ClusterImpl final : public Cluster {
 public:
  ClusterImpl(std::string name, std::unique_ptr<Store> store, ClusterOptions options)
      : name_(std::move(name)), options_(std::move(options)), shared_(std::make_shared<Shared>()) {
    shared_->store = std::move(store);
    refresh_registry();
    for (const char* ns : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
      if (!shared_->store->get({"", "namespaces", "", ns})) {
        json object = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}};
        prepare_new(*shared_->registry.find("", "v1", "namespaces"), object);
        shared_->store->put({"", "namespaces", "", ns}, object, "ADDED");
      }
    }
    controllers_ = std::make_unique<Controllers>([this] {
      const std::lock_guard<std::mutex> lock(shared_->mutex);
      if (!shared_->closing && controllers_->reconcile(*shared_->store)) shared_->changed.notify_all();
    });
    deployments_ = std::make_unique<DeploymentController>(
        [this] {
          const std::lock_guard<std::mutex> lock(shared_->mutex);
          if (!shared_->closing && reconcile_deployments()) shared_->changed.notify_all();
        },
        options_.rollout_delay);
    {
      // The cluster starts, and Kueue with it: it reads its configuration.
      const std::lock_guard<std::mutex> lock(shared_->mutex);
      log(controllers_->start_kueue(*shared_->store));
      reconcile_deployments();
      controllers_->reconcile(*shared_->store);  // a reopened database: restart the connections
    }
    shared_->store->set_commit_listener([this] {
      const std::lock_guard<std::mutex> lock(commit_mutex_);
      commit_due_ = true;
      commit_wake_.notify_one();
    });
    committer_ = std::thread([this] { commit_loop(); });
  }

  ~ClusterImpl() override {
    deployments_.reset();
    controllers_.reset();
    {
      const std::lock_guard<std::mutex> lock(commit_mutex_);
      commit_stop_ = true;
      commit_wake_.notify_one();
    }
    committer_.join();
    const std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->store->commit_pending();
    shared_->store->set_commit_listener(nullptr);  // watch streams may still hold the store
    shared_->closing = true;
    shared_->changed.notify_all();
  }

  void flush() override {
    const std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->store->commit_pending();
  }

  std::string name() const override { return name_; }

  std::size_t object_count() const override {
    const std::lock_guard<std::mutex> lock(shared_->mutex);
    return shared_->store->count();
  }

  ApiResponse handle(const ApiRequest& request) override {
    try {
      if (auto denied = authorize_non_resource(request)) return *denied;
      return route(request);
    } catch (const std::exception& e) {
      return status_error(500, "InternalError", std::string("an error on the server has prevented the request from succeeding: ") + e.what());
    }
  }

 std::optional<TokenIdentity> authenticate_token(const std::string& token) override {
    const std::lock_guard<std::mutex> lock(shared_->mutex);
    return verify_token(token);
  }

 private:
  // ---- identity (docs/sandbox.md, "Identity and RBAC") -------------------
  const std::string& signing_key() {
    if (options_.service_account_key.empty()) options_.service_account_key = generate_signing_key();
    return options_.service_account_key;
  }

  static bool is_master(const ApiRequest& r) {
    return std::find(r.groups.begin(), r.groups.end(), "system:masters") != r.groups.end();
  }

  // Non-resource paths (/version, /healthz, /api, /apis, /openapi, ...): RBAC
  // on the path; resource requests are authorized in resource_request.
  std::optional<ApiResponse> authorize_non_resource(const ApiRequest& r) {
    if (is_master(r)) return std::nullopt;
    const auto parts = split_path(r.path);
    const bool resource_path = (parts.size() >= 3 && parts[0] == "api") || (parts.size() >= 4 && parts[0] == "apis");
    if (resource_path) return std::nullopt;
    RequestAttributes a;
    a.user = r.user;
    a.groups = r.groups;
    a.resource_request = false;
    a.path = r.path.empty() ? "/" : r.path;
    a.verb = r.method == "GET" || r.method == "HEAD" ? "get" : verb_of(r.method, true, false);
    const std::lock_guard<std::mutex> lock(shared_->mutex);
    if (rbac_allows(*shared_->store, a)) return std::nullopt;
    return json_response(403, forbidden_status(a));
  }

  // Under the lock: RBAC for a resource request.
  std::optional<ApiResponse> authorize_resource(const ApiRequest& r, const Target& t) {
    if (is_master(r)) return std::nullopt;
    RequestAttributes a;
    a.user = r.user;
    a.groups = r.groups;
    a.api_group = t.group;
    a.resource = t.resource;
    a.subresource = t.sub;
    a.ns = t.ns;
    a.name = t.name;
    // kube-apiserver's RequestInfo: a namespace's own requests are in that namespace.
    if (t.group.empty() && t.resource == "namespaces" && !t.name.empty()) a.ns = t.name;
    a.verb = verb_of(r.method, !t.name.empty(), t.watch);
    if (rbac_allows(*shared_->store, a)) return std::nullopt;
    return json_response(403, forbidden_status(a));
  }

  // Under the lock: the identity a service-account token stands for.
  std::optional<TokenIdentity> verify_token(const std::string& token) {
    const auto claims = verify_jwt(token, signing_key());
    if (!claims || !token_time_valid(*claims, static_cast<long long>(std::time(nullptr)))) return std::nullopt;
    const json& c = *claims;
    std::string ns, name, uid, secret_name, secret_uid;
    bool legacy = false;
    if (c.value("iss", "") == kTokenIssuer) {
      const json aud = c.value("aud", json::array());
      if (!aud.is_array() || std::find(aud.begin(), aud.end(), json(kTokenIssuer)) == aud.end()) return std::nullopt;
      const json k = c.value("kubernetes.io", json::object());
      if (!k.is_object()) return std::nullopt;
      ns = k.value("namespace", "");
      const json sa = k.value("serviceaccount", json::object());
      if (sa.is_object()) {
        name = sa.value("name", "");
        uid = sa.value("uid", "");
      }
      const json secret = k.value("secret", json::object());
      if (secret.is_object()) {
        secret_name = secret.value("name", "");
        secret_uid = secret.value("uid", "");
      }
    } else if (c.value("iss", "") == kLegacyTokenIssuer) {
      legacy = true;
      ns = c.value("kubernetes.io/serviceaccount/namespace", "");
      name = c.value("kubernetes.io/serviceaccount/service-account.name", "");
      uid = c.value("kubernetes.io/serviceaccount/service-account.uid", "");
      secret_name = c.value("kubernetes.io/serviceaccount/secret.name", "");
      if (secret_name.empty()) return std::nullopt;
    } else {
      return std::nullopt;
    }
    if (ns.empty() || name.empty() || uid.empty()) return std::nullopt;
    const std::string user = "system:serviceaccount:" + ns + ":" + name;
    if (c.value("sub", "") != user) return std::nullopt;
    const auto account = shared_->store->get({"", "serviceaccounts", ns, name});
    if (!account || (*account)["metadata"].value("uid", "") != uid ||
        (*account)["metadata"].contains("deletionTimestamp")) {
      return std::nullopt;
    }
    if (!secret_name.empty()) {
      const auto secret = shared_->store->get({"", "secrets", ns, secret_name});
      if (!secret || (*secret)["metadata"].contains("deletionTimestamp")) return std::nullopt;
      if (!secret_uid.empty() && (*secret)["metadata"].value("uid", "") != secret_uid) return std::nullopt;
      if (legacy) {
        const json data = secret->value("data", json::object());
        if (!data.is_object() || data.value("token", "") != base64(token)) return std::nullopt;
      }
    }
    return TokenIdentity{user, {"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"}};
  }

  // POST /api/v1/namespaces/NS/serviceaccounts/NAME/token (authentication.k8s.io/v1 TokenRequest).
  ApiResponse token_request(const ApiRequest& r, const ResourceInfo& sa_info, const Target& t) {
    if (r.method != "POST") return method_not_allowed();
    ResourceInfo info;
    info.group = "authentication.k8s.io";
    info.version = "v1";
    info.resource = "tokenrequests";
    info.kind = "TokenRequest";
    json body = r.body.empty() ? json::object() : json::parse(r.body, nullptr, false);
    if (media_type(header(r, "content-type")) == "application/vnd.kubernetes.protobuf") {
      std::string error;
      auto decoded = decode_protobuf_object(r.body, &error);  // kubectl create token
      if (!decoded) return bad_request(error);
      body = std::move(*decoded);
    }
    if (!body.is_object()) return bad_request("the body of the request is not a TokenRequest");
    if (body.contains("kind") && body["kind"] != "TokenRequest") {
      return bad_request("the body of the request is not a TokenRequest but a " + body["kind"].dump());
    }
    const auto account = shared_->store->get(key_of(sa_info, t.ns, t.name));
    if (!account) return not_found(sa_info, t.name);
    const json spec = body.value("spec", json::object());
    long long seconds = kDefaultTokenSeconds;
    if (spec.is_object() && spec.contains("expirationSeconds") && !spec["expirationSeconds"].is_null()) {
      if (!spec["expirationSeconds"].is_number_integer()) {
        return bad_request("TokenRequest in version \"v1\" cannot be handled as a TokenRequest: spec.expirationSeconds must be an integer");
      }
      seconds = spec["expirationSeconds"].get<long long>();
    }
    const long long minimum = options_.allow_short_tokens ? 1 : kMinTokenSeconds;
    if (seconds < minimum) {
      return invalid(info, t.name,
                     {{"FieldValueInvalid", "spec.expirationSeconds",
                       "Invalid value: " + std::to_string(seconds) + ": may not specify a duration less than " +
                           (options_.allow_short_tokens ? std::string("1 second") : std::string("10 minutes"))}});
    }
    if (seconds > (1LL << 32)) {
      return invalid(info, t.name, {{"FieldValueTooLong", "spec.expirationSeconds",
                                     "Invalid value: " + std::to_string(seconds) +
                                         ": may not specify a duration larger than 2^32 seconds"}});
    }
    json audiences = spec.is_object() ? spec.value("audiences", json::array()) : json::array();
    if (!audiences.is_array()) audiences = json::array();
    if (audiences.empty()) audiences = json::array({kTokenIssuer});
    const json& sa_meta = (*account)["metadata"];
    json k8s = {{"namespace", t.ns}, {"serviceaccount", {{"name", t.name}, {"uid", sa_meta.value("uid", "")}}}};
    json bound = nullptr;
    if (spec.is_object() && spec.contains("boundObjectRef") && spec["boundObjectRef"].is_object()) {
      bound = spec["boundObjectRef"];
      const std::string kind = bound.value("kind", "");
      const std::string bound_name = bound.value("name", "");
      if (kind != "Secret") {
        return invalid(info, t.name, {{"FieldValueNotSupported", "spec.boundObjectRef.kind",
                                       "Unsupported value: \"" + kind + "\": supported values: \"Secret\""}});
      }
      const ResourceInfo* secrets = shared_->registry.find("", "v1", "secrets");
      const auto secret = shared_->store->get({"", "secrets", t.ns, bound_name});
      if (!secret) return not_found(*secrets, bound_name);
      const std::string secret_uid = (*secret)["metadata"].value("uid", "");
      if (!bound.value("uid", "").empty() && bound.value("uid", "") != secret_uid) {
        return conflict(*secrets, bound_name);
      }
      bound["uid"] = secret_uid;
      k8s["secret"] = {{"name", bound_name}, {"uid", secret_uid}};
    }
    const long long now = static_cast<long long>(std::time(nullptr));
    const json claims = {{"aud", audiences},
                         {"exp", now + seconds},
                         {"iat", now},
                         {"iss", kTokenIssuer},
                         {"jti", new_uid()},
                         {"kubernetes.io", k8s},
                         {"nbf", now},
                         {"sub", "system:serviceaccount:" + t.ns + ":" + t.name}};
    const std::string token = sign_jwt(claims, signing_key());
    if (token.empty()) return status_error(500, "InternalError", "Internal error occurred: failed to sign the token");
    json out_spec = {{"audiences", audiences}, {"expirationSeconds", seconds}, {"boundObjectRef", bound}};
    return json_response(201, {{"kind", "TokenRequest"},
                               {"apiVersion", "authentication.k8s.io/v1"},
                               {"metadata", {{"name", t.name}, {"namespace", t.ns}, {"creationTimestamp", nullptr}}},
                               {"spec", out_spec},
                               {"status", {{"token", token}, {"expirationTimestamp", format_timestamp(now + seconds)}}}});
  }

  // The token controller for legacy kubernetes.io/service-account-token
  // Secrets in ns: fills data.token (a non-expiring JWT bound to the Secret),
  // ca.crt and namespace, and the service-account.uid annotation, once the
  // ServiceAccount exists; deletes such a Secret once the account it was
  // filled for (its uid) is gone, as Kubernetes' token controller does.
  void reconcile_token_secrets(const std::string& ns) {
    const ResourceInfo* secrets = shared_->registry.find("", "v1", "secrets");
    for (json secret : shared_->store->list("", "secrets", ns, "", 0)) {
      if (secret.value("type", "") != "kubernetes.io/service-account-token") continue;
      json& meta = secret["metadata"];
      if (meta.contains("deletionTimestamp")) continue;
      const json annotations = meta.value("annotations", json::object());
      if (!annotations.is_object()) continue;
      const std::string account_name = annotations.value("kubernetes.io/service-account.name", "");
      const std::string bound_uid = annotations.value("kubernetes.io/service-account.uid", "");
      const std::string secret_name = meta.value("name", "");
      if (account_name.empty()) continue;
      const auto account = shared_->store->get({"", "serviceaccounts", ns, account_name});
      const std::string account_uid = account ? (*account)["metadata"].value("uid", "") : "";
      const ObjectKey key{"", "secrets", ns, secret_name};
      if (!bound_uid.empty() && bound_uid != account_uid) {
        delete_object(*secrets, key, secret);
        continue;
      }
      if (!account) continue;
      const json data = secret.value("data", json::object());
      if (!bound_uid.empty() && data.is_object() && data.contains("token")) continue;
      const json claims = {{"iss", kLegacyTokenIssuer},
                           {"kubernetes.io/serviceaccount/namespace", ns},
                           {"kubernetes.io/serviceaccount/secret.name", secret_name},
                           {"kubernetes.io/serviceaccount/service-account.name", account_name},
                           {"kubernetes.io/serviceaccount/service-account.uid", account_uid},
                           {"sub", "system:serviceaccount:" + ns + ":" + account_name}};
      const std::string token = sign_jwt(claims, signing_key());
      if (token.empty()) continue;
      meta["annotations"]["kubernetes.io/service-account.uid"] = account_uid;
      if (!secret.contains("data") || !secret["data"].is_object()) secret["data"] = json::object();
      secret["data"]["token"] = base64(token);
      secret["data"]["ca.crt"] = base64(options_.ca_cert);
      secret["data"]["namespace"] = base64(ns);
      shared_->store->put(key, secret, "MODIFIED");
    }
  }

  // ---- routing -----------------------------------------------------------
  ApiResponse route(const ApiRequest& r) {
    const auto parts = split_path(r.path);
    if (parts.empty()) return path_not_found();
    const std::string& head = parts[0];
    if (head == "healthz" || head == "readyz" || head == "livez") {
      ApiResponse ok;
      ok.content_type = "text/plain; charset=utf-8";
      ok.body = "ok";
      return ok;
    }
    if (head == "version" && parts.size() == 1) return json_response(200, version_info());
    if (head == "openapi" && parts.size() >= 2 && parts[1] == "v3") return openapi(r, parts);
    if (head == "openapi" && parts.size() == 2 && parts[1] == "v2") return openapi_v2(r);
    if (head == "api") {
      if (parts.size() == 1) return only_get(r, [&] { return api_versions(); });
      if (parts[1] != "v1") return path_not_found();
      if (parts.size() == 2) return only_get(r, [&] { return resource_list("", "v1"); });
      return resource_request(r, "", "v1", std::vector<std::string>(parts.begin() + 2, parts.end()));
    }
    if (head == "apis") {
      if (parts.size() == 1) return only_get(r, [&] { return group_list(); });
      if (parts.size() == 2) return only_get(r, [&] { return group_info(parts[1]); });
      if (parts.size() == 3) return only_get(r, [&] { return resource_list(parts[1], parts[2]); });
      return resource_request(r, parts[1], parts[2], std::vector<std::string>(parts.begin() + 3, parts.end()));
    }
    return path_not_found();
  }

  template <typename F>
  ApiResponse only_get(const ApiRequest& r, F answer) {
    if (r.method != "GET") return method_not_allowed();
    const std::lock_guard<std::mutex> lock(shared_->mutex);
    return answer();
  }

  // /openapi/v3 (the index) and /openapi/v3/api/v1, /openapi/v3/apis/G/V. No /openapi/v2: kubectl
  // asks for it only as protobuf, and only when /openapi/v3 is missing.
  ApiResponse openapi(const ApiRequest& r, const std::vector<std::string>& parts) {
    return only_get(r, [&] {
      if (parts.size() == 2) return json_response(200, openapi_v3_index(shared_->registry));
      std::optional<json> document;
      if (parts.size() == 4 && parts[2] == "api") document = openapi_v3_document(shared_->registry, "", parts[3]);
      if (parts.size() == 5 && parts[2] == "apis") document = openapi_v3_document(shared_->registry, parts[3], parts[4]);
      if (!document) return path_not_found();
      return json_response(200, *document);
    });
  }

  // /openapi/v2, which kubectl before 1.30 reads (as protobuf only) for its client-side
  // validation and apply: an empty gnostic Document (a zero-length protobuf message) — no
  // definitions, so clients skip schema validation and leave it to the server. JSON on request.
  ApiResponse openapi_v2(const ApiRequest& r) {
    return only_get(r, [&] {
      ApiResponse response;
      if (header(r, "accept").find("application/com.github.proto-openapi.spec.v2") != std::string::npos) {
        response.content_type = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
        return response;
      }
      return json_response(200, {{"swagger", "2.0"}, {"info", {{"title", "Kubernetes"}, {"version", "v1.33.0"}}},
                                 {"paths", json::object()}, {"definitions", json::object()}});
    });
  }

  // ---- discovery -----------------------------------------------------------
  static json version_info() {
    return {{"major", "1"},
            {"minor", "33"},
            {"gitVersion", "v1.33.0"},
            {"gitCommit", "mkq-sandbox"},
            {"gitTreeState", "clean"},
            {"buildDate", "2025-04-23T00:00:00Z"},
            {"goVersion", "go1.24.2"},
            {"compiler", "gc"},
            {"platform", "linux/amd64"},
            {"emulationMajor", "1"},
            {"emulationMinor", "33"},
            {"minCompatibilityMajor", "1"},
            {"minCompatibilityMinor", "32"}};
  }

  static json server_address() {
    return json::array({{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", ""}}});
  }

  ApiResponse api_versions() {
    return json_response(200, {{"kind", "APIVersions"}, {"versions", {"v1"}}, {"serverAddressByClientCIDRs", server_address()}});
  }

  json group_json(const std::string& group, const std::vector<std::string>& versions) {
    json list = json::array();
    for (const auto& v : versions) list.push_back({{"groupVersion", group + "/" + v}, {"version", v}});
    return {{"name", group},
            {"versions", list},
            {"preferredVersion", {{"groupVersion", group + "/" + versions.front()}, {"version", versions.front()}}}};
  }

  ApiResponse group_list() {
    json groups = json::array();
    for (const auto& [group, versions] : shared_->registry.groups()) {
      if (group.empty() || versions.empty()) continue;
      groups.push_back(group_json(group, versions));
    }
    return json_response(200, {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", groups}});
  }

  ApiResponse group_info(const std::string& name) {
    for (const auto& [group, versions] : shared_->registry.groups()) {
      if (group == name && !group.empty() && !versions.empty()) {
        json body = group_json(group, versions);
        body["kind"] = "APIGroup";
        body["apiVersion"] = "v1";
        return json_response(200, body);
      }
    }
    return path_not_found();
  }

  ApiResponse resource_list(const std::string& group, const std::string& version) {
    const auto infos = shared_->registry.in_group_version(group, version);
    if (infos.empty()) return path_not_found();
    json resources = json::array();
    for (const auto* info : infos) {
      json entry = {{"name", info->resource},
                    {"singularName", info->singular},
                    {"namespaced", info->namespaced},
                    {"kind", info->kind},
                    {"verbs", kVerbs}};
      if (!info->short_names.empty()) entry["shortNames"] = info->short_names;
      if (!info->categories.empty()) entry["categories"] = info->categories;
      resources.push_back(entry);
      if (info->group.empty() && info->resource == "serviceaccounts") {
        resources.push_back({{"name", "serviceaccounts/token"},
                             {"singularName", ""},
                             {"namespaced", true},
                             {"group", "authentication.k8s.io"},
                             {"version", "v1"},
                             {"kind", "TokenRequest"},
                             {"verbs", {"create"}}});
      }
      if (info->has_status) {
        resources.push_back({{"name", info->resource + "/status"},
                             {"singularName", ""},
                             {"namespaced", info->namespaced},
                             {"kind", info->kind},
                             {"verbs", {"get", "patch", "update"}}});
      }
    }
    return json_response(200, {{"kind", "APIResourceList"},
                               {"apiVersion", "v1"},
                               {"groupVersion", group.empty() ? version : group + "/" + version},
                               {"resources", resources}});
  }

  // ---- resources -----------------------------------------------------------
  ApiResponse resource_request(const ApiRequest& r, const std::string& group, const std::string& version,
                               std::vector<std::string> rest) {
    Target t;
    t.group = group;
    t.version = version;
    if (!rest.empty() && rest[0] == "watch") {
      t.watch = true;
      rest.erase(rest.begin());
    }
    if (rest.empty()) return path_not_found();
    if (rest[0] == "namespaces" && rest.size() >= 3) {
      // /namespaces/NS/RESOURCE[/NAME[/SUB]], or the namespace's own subresource.
      const bool ns_sub = (rest[2] == "status" || rest[2] == "finalize") && group.empty() && rest.size() == 3;
      if (ns_sub) {
        t.resource = "namespaces";
        t.name = rest[1];
        t.sub = rest[2];
      } else {
        t.ns = rest[1];
        t.resource = rest[2];
        if (rest.size() >= 4) t.name = rest[3];
        if (rest.size() >= 5) t.sub = rest[4];
        if (rest.size() > 5) return path_not_found();
      }
    } else {
      t.resource = rest[0];
      if (rest.size() >= 2) t.name = rest[1];
      if (rest.size() >= 3) t.sub = rest[2];
      if (rest.size() > 3) return path_not_found();
    }
    if (query_true(r, "watch")) t.watch = true;

    std::unique_lock<std::mutex> lock(shared_->mutex);
    if (auto denied = authorize_resource(r, t)) return *denied;
    const ResourceInfo* found = shared_->registry.find(t.group, t.version, t.resource);
    if (found == nullptr) return path_not_found();
    const ResourceInfo info = *found;  // the registry may change during this request
    if (!t.ns.empty() && !info.namespaced) return path_not_found();
    if (info.group.empty() && info.resource == "serviceaccounts" && t.sub == "token" && !t.name.empty() && !t.watch) {
      return token_request(r, info, t);
    }
    if (!t.sub.empty() && !(t.sub == "status" && info.has_status) && !(t.resource == "namespaces" && t.sub == "finalize")) {
      return path_not_found();
    }
    if (t.watch) {
      if (r.method != "GET") return method_not_allowed();
      return watch(r, info, t, lock);
    }
    if (r.method == "GET") return t.name.empty() ? list(r, info, t) : get(r, info, t);
    ApiResponse response = write_verb(r, info, t);
    // The simulated Kueue controllers react to the write (controllers.h).
    if (response.status < 300 && !is_dry_run(r) && triggers_controllers(info.group, info.resource, t.ns) &&
        controllers_->reconcile_after_write(*shared_->store)) {
      shared_->changed.notify_all();
    }
    if (response.status < 300 && !is_dry_run(r) && info.group == kAppsGroup && info.resource == "deployments" &&
        reconcile_deployments()) {
      shared_->changed.notify_all();
    }
    if (response.status < 300 && !is_dry_run(r) && info.group.empty() &&
        (info.resource == "secrets" || info.resource == "serviceaccounts")) {
      reconcile_token_secrets(t.ns);  // namespaced: the request's namespace
      shared_->changed.notify_all();
    }
    return response;
  }

  ApiResponse write_verb(const ApiRequest& r, const ResourceInfo& info, const Target& t) {
    if (r.method == "POST") {
      if (!t.name.empty()) return method_not_allowed();
      return create(r, info, t);
    }
    if (r.method == "PUT") {
      if (t.name.empty()) return method_not_allowed();
      return update(r, info, t);
    }
    if (r.method == "PATCH") {
      if (t.name.empty()) return method_not_allowed();
      return patch(r, info, t);
    }
    if (r.method == "DELETE") {
      if (!t.sub.empty()) return method_not_allowed();
      return t.name.empty() ? delete_collection(r, info, t) : remove(r, info, t);
    }
    return method_not_allowed();
  }

  ObjectKey key_of(const ResourceInfo& info, const std::string& ns, const std::string& name) const {
    return {info.group, info.resource, info.namespaced ? ns : std::string(), name};
  }

  // The stored object as the client asked for it (its apiVersion).
  static json present(const ResourceInfo& info, json object) {
    object["apiVersion"] = info.api_version();
    object["kind"] = info.kind;
    return object;
  }

  ApiResponse object_response(const ApiRequest& r, const ResourceInfo& info, int status, const json& object) {
    if (wants_table(header(r, "accept"))) {
      return json_response(status, to_table(info, {object}, {{"resourceVersion", object["metadata"].value("resourceVersion", "")}},
                                            query_value(r, "includeObject"), std::time(nullptr)));
    }
    return json_response(status, present(info, object));
  }

  ApiResponse get(const ApiRequest& r, const ResourceInfo& info, const Target& t) {
    const auto object = shared_->store->get(key_of(info, t.ns, t.name));
    if (!object) return not_found(info, t.name);
    return object_response(r, info, 200, *object);
  }

  ApiResponse list(const ApiRequest& r, const ResourceInfo& info, const Target& t) {
    std::string error;
    const auto selector = parse_selector(query_value(r, "labelSelector"), query_value(r, "fieldSelector"), &error);
    if (!selector) return bad_request(error);
    std::size_t limit = 0;
    if (const auto text = query_value(r, "limit"); !text.empty()) {
      try {
        limit = static_cast<std::size_t>(std::max(0LL, std::stoll(text)));
      } catch (const std::exception&) {
        return bad_request("invalid limit: " + text);
      }
    }
    std::string after;
    if (const auto token = query_value(r, "continue"); !token.empty()) {
      const auto decoded = hex_decode(token);
      if (!decoded) {
        return status_error(400, "BadRequest", "continue key is not valid: illegal base64 data");
      }
      after = *decoded;
    }
    const std::optional<std::string> ns = info.namespaced && !t.ns.empty() ? std::optional(t.ns) : std::nullopt;
    std::vector<json> items;
    bool more = false;
    std::string last_key = after;
    for (;;) {
      const std::size_t batch = limit == 0 ? 0 : std::max<std::size_t>(limit, 256);
      auto page = shared_->store->list(info.group, info.resource, ns, last_key, batch);
      for (auto& object : page) {
        const auto& meta = object["metadata"];
        last_key = meta.value("namespace", std::string()) + "\n" + meta.value("name", std::string());
        if (!selector->matches(object)) continue;
        if (limit > 0 && items.size() == limit) {
          more = true;
          break;
        }
        items.push_back(std::move(object));
      }
      if (more || batch == 0 || page.size() < batch) break;
    }
    json metadata = {{"resourceVersion", std::to_string(shared_->store->current_rv())}};
    if (more) {
      const auto& meta = items.back()["metadata"];
      metadata["continue"] = hex_encode(meta.value("namespace", std::string()) + "\n" + meta.value("name", std::string()));
    }
    if (wants_table(header(r, "accept"))) {
      return json_response(200, to_table(info, items, metadata, query_value(r, "includeObject"), std::time(nullptr)));
    }
    json out_items = json::array();
    for (auto& object : items) out_items.push_back(present(info, std::move(object)));
    return json_response(200, {{"kind", info.list_kind},
                               {"apiVersion", info.api_version()},
                               {"metadata", metadata},
                               {"items", std::move(out_items)}});
  }

  // ---- writes --------------------------------------------------------------
  std::string new_uid() {
    std::uniform_int_distribution<int> d(0, 15);
    std::string uid = "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx";
    static const char* digits = "0123456789abcdef";
    for (char& c : uid) {
      if (c == 'x') c = digits[d(shared_->random)];
      if (c == 'y') c = digits[8 + d(shared_->random) % 4];
    }
    return uid;
  }

  std::string random_suffix() {
    static const char* alphabet = "bcdfghjklmnpqrstvwxz2456789";
    std::uniform_int_distribution<int> d(0, 26);
    std::string out;
    for (int i = 0; i < 5; ++i) out += alphabet[d(shared_->random)];
    return out;
  }

  // Fills the metadata a create gives, and kind-specific defaults.
  void prepare_new(const ResourceInfo& info, json& object) {
    auto& meta = object["metadata"];
    meta["uid"] = new_uid();
    meta["creationTimestamp"] = format_timestamp(std::time(nullptr));
    meta.erase("deletionTimestamp");
    meta.erase("resourceVersion");
    if (info.has_generation) meta["generation"] = 1;
    else meta.erase("generation");
    object["apiVersion"] = info.api_version();
    object["kind"] = info.kind;
    if (info.group.empty() && info.resource == "namespaces") {
      object["spec"] = {{"finalizers", {"kubernetes"}}};
      object["status"] = {{"phase", "Active"}};
      if (!meta.contains("labels") || !meta["labels"].is_object()) meta["labels"] = json::object();
      meta["labels"]["kubernetes.io/metadata.name"] = meta["name"];
    }
  }

  // Under the lock: the Deployment controller's pass; a completed rollout of
  // Kueue's controller manager restarts the simulated Kueue, which reads its
  // configuration. True when anything was written.
  bool reconcile_deployments() {
    bool wrote = false;
    const std::string kueue = std::string(kKueueNamespace) + "/" + kKueueDeploymentName;
    for (const std::string& completed : deployments_->reconcile(*shared_->store, &wrote)) {
      if (completed != kueue) continue;
      log(controllers_->start_kueue(*shared_->store));
      wrote = controllers_->reconcile(*shared_->store) || wrote;
    }
    return wrote;
  }

  void log(const std::string& line) const {
    if (options_.log) options_.log("cluster " + name_ + ": " + line);
  }

  // Kind-specific normalisation on every write.
  static void normalise(const ResourceInfo& info, json& object) {
    if (info.group == kAppsGroup && info.resource == "deployments") default_deployment(object);
    if (info.group.empty() && info.resource == "secrets") {
      if (object.contains("stringData") && object["stringData"].is_object()) {
        for (const auto& [k, v] : object["stringData"].items()) {
          if (v.is_string()) object["data"][k] = base64(v.get<std::string>());
        }
      }
      object.erase("stringData");
      if (!object.contains("type")) object["type"] = "Opaque";
    }
  }

  static std::string base64(const std::string& in) {
    static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    while (i + 2 < in.size()) {
      const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                         static_cast<unsigned char>(in[i + 2]);
      out += table[(v >> 18) & 63];
      out += table[(v >> 12) & 63];
      out += table[(v >> 6) & 63];
      out += table[v & 63];
      i += 3;
    }
    if (i + 1 == in.size()) {
      const unsigned v = static_cast<unsigned char>(in[i]) << 16;
      out += table[(v >> 18) & 63];
      out += table[(v >> 12) & 63];
      out += "==";
    } else if (i + 2 == in.size()) {
      const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
      out += table[(v >> 18) & 63];
      out += table[(v >> 12) & 63];
      out += table[(v >> 6) & 63];
      out += '=';
    }
    return out;
  }

  // Checks the name, validates the custom resource against its schema (pruning
  // and defaulting it) and the CRD's own rules. An empty response when valid.
  std::optional<ApiResponse> validate(const ApiRequest& r, const ResourceInfo& info, json& object,
                                      std::vector<std::string>* warnings, const json* existing = nullptr) {
    const auto& meta = object["metadata"];
    const std::string name = meta.value("name", std::string());
    std::vector<FieldError> errors;
    const bool label_name = info.group.empty() && info.resource == "namespaces";
    const auto& re = label_name ? label_regex() : subdomain_regex();
    if (name.size() > (label_name ? 63U : 253U) || !std::regex_match(name, re)) {
      const std::string what =
          label_name ? "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                       "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
                       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
                     : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                       "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
                       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
      errors.push_back({"FieldValueInvalid", "metadata.name", "Invalid value: " + go_value(name) + ": " + what});
    }
    if (info.custom && info.schema.is_object()) {
      auto outcome = apply_schema(info.schema, object);
      if (!outcome.unknown_fields.empty()) {
        const std::string mode = query_value(r, "fieldValidation");
        if (mode == "Strict") {
          std::string list;
          for (const auto& f : outcome.unknown_fields) {
            if (!list.empty()) list += ", ";
            list += "unknown field \"" + f + "\"";
          }
          return bad_request(info.kind + " in version \"" + info.version + "\" cannot be handled as a " + info.kind +
                             ": strict decoding error: " + list);
        }
        if (mode != "Ignore") {
          for (const auto& f : outcome.unknown_fields) warnings->push_back("unknown field \"" + f + "\"");
        }
      }
      errors.insert(errors.end(), outcome.errors.begin(), outcome.errors.end());
      if (existing != nullptr) {
        // An update: the transition rules (immutable fields) compare with the stored object.
        const auto transition = check_transition_rules(info.schema, object, *existing);
        errors.insert(errors.end(), transition.begin(), transition.end());
      }
    }
    if (info.group == "apiextensions.k8s.io" && info.resource == "customresourcedefinitions") {
      validate_crd(object, &errors);
    }
    if (info.group == kAppsGroup && info.resource == "deployments") {
      const auto found = validate_deployment(object, existing);
      errors.insert(errors.end(), found.begin(), found.end());
    }
    if (!errors.empty()) return invalid(info, name, errors);
    return std::nullopt;
  }

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
  }

  static void set_crd_status(json& crd) {
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

  void refresh_registry() {
    shared_->registry.set_crds(shared_->store->list("apiextensions.k8s.io", "customresourcedefinitions", std::nullopt, "", 0));
  }

  static bool is_dry_run(const ApiRequest& r) {
    const auto range = r.query.equal_range("dryRun");
    return std::any_of(range.first, range.second, [](const auto& kv) { return kv.second == "All"; });
  }

  static ApiResponse with_warnings(ApiResponse response, const std::vector<std::string>& warnings) {
    std::string text;
    for (const auto& w : warnings) {
      if (!text.empty()) text += ", ";
      text += "299 - " + json(w).dump();
    }
    if (!text.empty()) response.headers["Warning"] = text;
    return response;
  }

  std::optional<ApiResponse> parse_object(const ApiRequest& r, json* object) {
    if (media_type(header(r, "content-type")) == "application/yaml") {
      return status_error(415, "UnsupportedMediaType",
                          "the body of the request was in an unknown format - accepted media types include: "
                          "application/json, application/vnd.kubernetes.protobuf");
    }
    if (media_type(header(r, "content-type")) == "application/vnd.kubernetes.protobuf") {
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

  std::optional<ApiResponse> check_namespace(const ResourceInfo& info, const Target& t, json& object, bool creating) {
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
    if (creating) {
      const auto ns = shared_->store->get({"", "namespaces", "", t.ns});
      const auto& ns_info = *shared_->registry.find("", "v1", "namespaces");
      if (!ns) return not_found(ns_info, t.ns);
      if ((*ns)["metadata"].contains("deletionTimestamp")) {
        return status_error(403, "Forbidden",
                            info.qualified_resource() + " \"" + meta.value("name", std::string()) +
                                "\" is forbidden: unable to create new content in namespace " + t.ns +
                                " because it is being terminated",
                            {{"name", meta.value("name", std::string())}, {"group", info.group}, {"kind", info.resource}});
      }
    }
    return std::nullopt;
  }

  // `applied`: the object a server-side apply creates (its managedFields kept).
  ApiResponse create(const ApiRequest& r, const ResourceInfo& info, const Target& t, const json* applied = nullptr) {
    json object;
    if (applied != nullptr) {
      object = *applied;
    } else if (auto error = parse_object(r, &object)) {
      return *error;
    }
    if (auto error = check_kind(info, object)) return *error;
    auto& meta = object["metadata"];
    if (meta.value("name", std::string()).empty()) {
      const std::string generate = meta.value("generateName", std::string());
      if (generate.empty()) {
        return invalid(info, "", {{"FieldValueRequired", "metadata.name", "Required value: name or generateName is required"}});
      }
      meta["name"] = generate + random_suffix();
    }
    const std::string name = meta["name"].get<std::string>();
    if (auto error = check_namespace(info, t, object, true)) return *error;
    if (info.has_status && info.custom) object.erase("status");
    if (applied == nullptr) meta.erase("managedFields");
    prepare_new(info, object);
    normalise(info, object);
    std::vector<std::string> warnings;
    if (auto error = validate(r, info, object, &warnings)) return *error;
    const ObjectKey key = key_of(info, t.ns, name);
    if (shared_->store->get(key)) return already_exists(info, name);
    const bool is_crd = info.group == "apiextensions.k8s.io" && info.resource == "customresourcedefinitions";
    if (is_crd) set_crd_status(object);
    record_update_manager(r, info, object, nullptr);
    if (is_dry_run(r)) return with_warnings(object_response(r, info, 201, object), warnings);
    shared_->store->put(key, object, "ADDED");
    if (is_crd) refresh_registry();
    shared_->changed.notify_all();
    return with_warnings(object_response(r, info, 201, object), warnings);
  }

  // Records an Update entry for ?fieldManager (kubectl sends one on every write).
  void record_update_manager(const ApiRequest& r, const ResourceInfo& info, json& object, const json* before) {
    const std::string manager = query_value(r, "fieldManager");
    if (manager.empty()) return;
    note_manager(object, before, manager, "Update", info.api_version(), format_timestamp(std::time(nullptr)));
  }

  // Writes `candidate` over `existing` (a PUT, PATCH or status write): keeps
  // what the client may not change, checks the resourceVersion, validates,
  // bumps generation and stores. `subresource` is "status" for status writes.
  ApiResponse write_over(const ApiRequest& r, const ResourceInfo& info, const Target& t, const json& existing,
                         json candidate, bool require_rv, int created_status = 200) {
    auto& meta = candidate["metadata"];
    const auto& old_meta = existing["metadata"];
    const std::string name = old_meta.value("name", std::string());
    if (meta.value("name", name) != name) {
      return bad_request("the name of the object (" + meta.value("name", std::string()) +
                         ") does not match the name on the URL (" + name + ")");
    }
    if (auto error = check_kind(info, candidate)) return *error;
    if (auto error = check_namespace(info, t, candidate, false)) return *error;
    const std::string rv = meta.value("resourceVersion", std::string());
    if (rv.empty() && require_rv && !info.allow_unconditional_update) {
      return invalid(info, name, {{"FieldValueInvalid", "metadata.resourceVersion", "Invalid value: 0x0: must be specified for an update"}});
    }
    if (!rv.empty() && rv != old_meta.value("resourceVersion", std::string())) return conflict(info, name);
    json result;
    if (t.sub == "status") {
      result = existing;
      if (candidate.contains("status")) result["status"] = candidate["status"];
      else result.erase("status");
    } else {
      result = std::move(candidate);
      if (info.has_status) {
        if (existing.contains("status")) result["status"] = existing["status"];
        else result.erase("status");
      }
      auto& m = result["metadata"];
      for (const char* keep : {"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"}) {
        if (old_meta.contains(keep)) m[keep] = old_meta[keep];
        else m.erase(keep);
      }
      // As kube-apiserver: a write without managedFields keeps the object's; an
      // empty list, or one empty entry, clears them; any other list replaces them.
      if (!m.contains("managedFields") || !m["managedFields"].is_array()) {
        if (old_meta.contains("managedFields")) m["managedFields"] = old_meta["managedFields"];
      } else if (m["managedFields"].empty() ||
                 (m["managedFields"].size() == 1 && m["managedFields"][0] == json::object())) {
        m.erase("managedFields");
      }
      if (old_meta.contains("deletionTimestamp") && m.contains("finalizers") && m["finalizers"].is_array()) {
        // Finalizers may only be removed from an object being deleted.
        for (const auto& f : m["finalizers"]) {
          const auto& old_f = old_meta.value("finalizers", json::array());
          if (std::find(old_f.begin(), old_f.end(), f) == old_f.end()) {
            return status_error(422, "Invalid",
                                info.qualified_kind() + " \"" + name +
                                    "\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted");
          }
        }
      }
      if (info.group.empty() && info.resource == "namespaces") {
        result["status"] = existing.value("status", json::object());
        if (!m.contains("labels") || !m["labels"].is_object()) m["labels"] = json::object();
        m["labels"]["kubernetes.io/metadata.name"] = name;
      }
    }
    result["apiVersion"] = info.api_version();
    result["kind"] = info.kind;
    normalise(info, result);
    std::vector<std::string> warnings;
    if (auto error = validate(r, info, result, &warnings, &existing)) return *error;
    const bool is_crd = info.group == "apiextensions.k8s.io" && info.resource == "customresourcedefinitions";
    if (is_crd && t.sub != "status") {
      // Spec changes keep the established status.
      if (existing.contains("status")) result["status"] = existing["status"];
      set_crd_status(result);
    }
    if (info.has_generation && spec_part(existing, info.has_status) != spec_part(result, info.has_status)) {
      result["metadata"]["generation"] = existing["metadata"].value("generation", 1) + 1;
    }
    record_update_manager(r, info, result, &existing);
    if (is_dry_run(r)) return with_warnings(object_response(r, info, created_status, result), warnings);
    const ObjectKey key = key_of(info, t.ns, name);
    // The last finalizer of an object being deleted is gone: the object goes.
    const auto& rm = result["metadata"];
    const bool finalizers_left = rm.contains("finalizers") && rm["finalizers"].is_array() && !rm["finalizers"].empty();
    if (rm.contains("deletionTimestamp") && !finalizers_left) {
      finish_delete(info, key, result);
      shared_->changed.notify_all();
      return with_warnings(object_response(r, info, 200, result), warnings);
    }
    if (result == existing) return with_warnings(object_response(r, info, 200, existing), warnings);  // no-op write
    shared_->store->put(key, result, "MODIFIED");
    if (is_crd) refresh_registry();
    shared_->changed.notify_all();
    return with_warnings(object_response(r, info, created_status, result), warnings);
  }

  ApiResponse update(const ApiRequest& r, const ResourceInfo& info, const Target& t) {
    json object;
    if (auto error = parse_object(r, &object)) return *error;
    const auto existing = shared_->store->get(key_of(info, t.ns, t.name));
    if (!existing) return not_found(info, t.name);
    return write_over(r, info, t, *existing, std::move(object), true);
  }

  ApiResponse patch(const ApiRequest& r, const ResourceInfo& info, const Target& t) {
    const std::string type = media_type(header(r, "content-type"));
    const ObjectKey key = key_of(info, t.ns, t.name);
    const auto existing = shared_->store->get(key);
    if (type == "application/apply-patch+yaml") return apply(r, info, t, existing);
    if (!existing) return not_found(info, t.name);
    const json patch_body = json::parse(r.body, nullptr, false);
    if (patch_body.is_discarded()) return bad_request("error decoding patch: invalid JSON");
    json patched;
    if (type == "application/strategic-merge-patch+json" && !info.custom) {
      // The built-in kinds' merge lists are merged by key (strategic.h).
      std::string error;
      auto merged = strategic_merge(*existing, patch_body, info.kind, &error);
      if (!merged) return bad_request(error);
      patched = std::move(*merged);
    } else if (type == "application/merge-patch+json") {
      if (!patch_body.is_object()) return bad_request("error decoding patch: a merge patch must be an object");
      patched = *existing;
      patched.merge_patch(patch_body);
    } else if (type == "application/json-patch+json") {
      if (!patch_body.is_array()) return bad_request("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
      try {
        patched = existing->patch(patch_body);
      } catch (const std::exception& e) {
        return status_error(422, "Invalid", std::string("the server rejected our request due to an error in our request: ") + e.what());
      }
    } else {
      return status_error(415, "UnsupportedMediaType",
                          "the body of the request was in an unknown format - accepted media types include: "
                          "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml" +
                              std::string(info.custom ? "" : ", application/strategic-merge-patch+json"));
    }
    if (!patched.is_object()) return bad_request("the patched object is not an object");
    if (!patched.contains("metadata") || !patched["metadata"].is_object()) patched["metadata"] = json::object();
    return write_over(r, info, t, *existing, std::move(patched), false);
  }

  ApiResponse apply(const ApiRequest& r, const ResourceInfo& info, const Target& t, const std::optional<json>& existing) {
    json config;
    if (auto error = parse_object(r, &config)) return *error;
    const std::string manager = query_value(r, "fieldManager");
    if (manager.empty()) {
      return invalid(info, t.name, {{"FieldValueRequired", "metadata.managedFields.fieldManager",
                                     "Required value: is required for apply patch"}});
    }
    if (config["metadata"].value("name", t.name) != t.name) {
      return bad_request("the name of the object (" + config["metadata"].value("name", std::string()) +
                         ") does not match the name on the URL (" + t.name + ")");
    }
    config["metadata"]["name"] = t.name;
    const std::string now = format_timestamp(std::time(nullptr));
    if (!existing) {
      json object = config;
      object["metadata"].erase("managedFields");
      note_apply(object, config, manager, info.api_version(), now);
      ApiRequest create_request = r;
      create_request.query.erase("fieldManager");
      return create(create_request, info, t, &object);
    }
    std::string conflict_message;
    json conflicts;
    auto merged = server_side_apply(*existing, config, manager, info.api_version(), now, query_true(r, "force"),
                                    &conflict_message, &conflicts);
    if (!merged) {
      return status_error(409, "Conflict", conflict_message,
                          {{"name", t.name}, {"group", info.group}, {"kind", info.resource}, {"causes", conflicts}});
    }
    ApiRequest write_request = r;
    write_request.query.erase("fieldManager");
    return write_over(write_request, info, t, *existing, std::move(*merged), false);
  }

  // ---- delete ----------------------------------------------------------------
  // Removes an object for good, then what depends on it: a CRD's custom
  // resources, a terminating namespace that became empty.
  void finish_delete(const ResourceInfo& info, const ObjectKey& key, json& last) {
    shared_->store->remove(key, last);
    if (info.group == "apiextensions.k8s.io" && info.resource == "customresourcedefinitions") {
      const auto spec = last.value("spec", json::object());
      const std::string group = spec.value("group", std::string());
      const std::string plural = spec.value("names", json::object()).value("plural", std::string());
      for (auto& object : shared_->store->list(group, plural, std::nullopt, "", 0)) {
        const auto& m = object["metadata"];
        shared_->store->remove({group, plural, m.value("namespace", std::string()), m.value("name", std::string())}, object);
      }
      refresh_registry();
    }
    if (!key.ns.empty()) {
      auto ns = shared_->store->get({"", "namespaces", "", key.ns});
      if (ns && (*ns)["metadata"].contains("deletionTimestamp") && shared_->store->keys_in_namespace(key.ns).empty()) {
        shared_->store->remove({"", "namespaces", "", key.ns}, *ns);
      }
    }
  }

  // Deletes one object: marks it when finalizers remain, else removes it.
  // Returns the object's last state.
  json delete_object(const ResourceInfo& info, const ObjectKey& key, json object) {
    auto& meta = object["metadata"];
    const bool has_finalizers = meta.contains("finalizers") && meta["finalizers"].is_array() && !meta["finalizers"].empty();
    const bool is_namespace = info.group.empty() && info.resource == "namespaces";
    if (is_namespace) {
      if (!meta.contains("deletionTimestamp")) {
        meta["deletionTimestamp"] = format_timestamp(std::time(nullptr));
        object["status"]["phase"] = "Terminating";
        shared_->store->put(key, object, "MODIFIED");
      }
      for (const auto& k : shared_->store->keys_in_namespace(key.name)) {
        auto child = shared_->store->get(k);
        if (!child) continue;
        const ResourceInfo* child_info = find_any_version(k.group, k.resource);
        if (child_info == nullptr) {
          shared_->store->remove(k, *child);
          continue;
        }
        delete_object(*child_info, k, std::move(*child));
      }
      auto now = shared_->store->get(key);
      if (now && shared_->store->keys_in_namespace(key.name).empty()) {
        shared_->store->remove(key, *now);
        return *now;
      }
      return now ? *now : object;
    }
    if (has_finalizers) {
      if (!meta.contains("deletionTimestamp")) {
        meta["deletionTimestamp"] = format_timestamp(std::time(nullptr));
        meta["deletionGracePeriodSeconds"] = 0;
        shared_->store->put(key, object, "MODIFIED");
      }
      return object;
    }
    finish_delete(info, key, object);
    return object;
  }

  const ResourceInfo* find_any_version(const std::string& group, const std::string& resource) const {
    for (const auto& [g, versions] : shared_->registry.groups()) {
      if (g != group) continue;
      for (const auto& v : versions) {
        if (const auto* info = shared_->registry.find(g, v, resource)) return info;
      }
    }
    return nullptr;
  }

  ApiResponse remove(const ApiRequest& r, const ResourceInfo& info, const Target& t) {
    const ObjectKey key = key_of(info, t.ns, t.name);
    auto existing = shared_->store->get(key);
    if (!existing) return not_found(info, t.name);
    if (!r.body.empty()) {
      const json options = json::parse(r.body, nullptr, false);
      if (options.is_object() && options.contains("preconditions")) {
        const auto pre = options["preconditions"];
        if (pre.contains("resourceVersion") && pre["resourceVersion"] != (*existing)["metadata"]["resourceVersion"]) {
          return conflict(info, t.name);
        }
        if (pre.contains("uid") && pre["uid"] != (*existing)["metadata"]["uid"]) return conflict(info, t.name);
      }
    }
    if (is_dry_run(r)) return object_response(r, info, 200, *existing);
    json last = delete_object(info, key, std::move(*existing));
    shared_->changed.notify_all();
    return object_response(r, info, 200, last);
  }

  ApiResponse delete_collection(const ApiRequest& r, const ResourceInfo& info, const Target& t) {
    std::string error;
    const auto selector = parse_selector(query_value(r, "labelSelector"), query_value(r, "fieldSelector"), &error);
    if (!selector) return bad_request(error);
    const std::optional<std::string> ns = info.namespaced && !t.ns.empty() ? std::optional(t.ns) : std::nullopt;
    json items = json::array();
    for (auto& object : shared_->store->list(info.group, info.resource, ns, "", 0)) {
      if (!selector->matches(object)) continue;
      const auto& m = object["metadata"];
      const ObjectKey key = key_of(info, m.value("namespace", std::string()), m.value("name", std::string()));
      if (is_dry_run(r)) {
        items.push_back(present(info, object));
        continue;
      }
      items.push_back(present(info, delete_object(info, key, object)));
    }
    shared_->changed.notify_all();
    return json_response(200, {{"kind", info.list_kind},
                               {"apiVersion", info.api_version()},
                               {"metadata", {{"resourceVersion", std::to_string(shared_->store->current_rv())}}},
                               {"items", items}});
  }

  // ---- watch ---------------------------------------------------------------
  ApiResponse watch(const ApiRequest& r, const ResourceInfo& info, const Target& t, std::unique_lock<std::mutex>& lock) {
    std::string error;
    auto selector = parse_selector(query_value(r, "labelSelector"), query_value(r, "fieldSelector"), &error);
    if (!selector) return bad_request(error);
    if (!t.name.empty()) selector->fields.push_back({"metadata.name", Requirement::Op::Equals, {t.name}});
    int timeout = kDefaultWatchSeconds;
    if (const auto text = query_value(r, "timeoutSeconds"); !text.empty()) {
      try {
        timeout = std::max(0, std::stoi(text));
      } catch (const std::exception&) {
        return bad_request("invalid timeoutSeconds: " + text);
      }
    }
    const std::string rv_text = query_value(r, "resourceVersion");
    std::int64_t from = 0;
    std::vector<std::string> initial;
    auto event_line = [info](const std::string& type, json object) {
      return json({{"type", type}, {"object", present(info, std::move(object))}}).dump() + "\n";
    };
    const std::optional<std::string> ns = info.namespaced && !t.ns.empty() ? std::optional(t.ns) : std::nullopt;
    if (rv_text.empty() || rv_text == "0") {
      // No resourceVersion: the current state as ADDED events, then changes.
      from = shared_->store->current_rv();
      for (auto& object : shared_->store->list(info.group, info.resource, ns, "", 0)) {
        if (selector->matches(object)) initial.push_back(event_line("ADDED", std::move(object)));
      }
    } else {
      try {
        from = std::stoll(rv_text);
      } catch (const std::exception&) {
        return bad_request("invalid resource version: " + rv_text);
      }
      if (from < shared_->store->oldest_watchable_rv()) {
        const json status = status_body(410, "Expired",
                                        "too old resource version: " + rv_text + " (" +
                                            std::to_string(shared_->store->oldest_watchable_rv() + 1) + ")");
        initial.push_back(json({{"type", "ERROR"}, {"object", status}}).dump() + "\n");
        from = -1;  // the stream ends after the error
      }
    }
    lock.unlock();
    struct WatchState {
      std::int64_t last = 0;
      std::vector<std::string> pending;
      std::chrono::steady_clock::time_point deadline;
      std::chrono::steady_clock::time_point last_sent;
      bool bookmarks = false;
      bool done = false;
    };
    auto state = std::make_shared<WatchState>();
    state->last = from;
    state->pending = std::move(initial);
    state->deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout);
    state->last_sent = std::chrono::steady_clock::now();
    state->bookmarks = query_true(r, "allowWatchBookmarks");
    auto shared = shared_;
    const Selector filter = *selector;
    ApiResponse response;
    response.content_type = "application/json";
    response.stream = [shared, state, info, ns, filter, event_line](std::string& chunk) -> bool {
      chunk.clear();
      if (!state->pending.empty()) {
        for (auto& line : state->pending) chunk += line;
        state->pending.clear();
        if (state->last < 0) state->done = true;
        return true;
      }
      if (state->done || state->last < 0) return false;
      std::unique_lock<std::mutex> guard(shared->mutex);
      for (;;) {
        if (shared->closing) return false;
        if (state->last < shared->store->oldest_watchable_rv()) {
          chunk = json({{"type", "ERROR"}, {"object", status_body(410, "Expired", "too old resource version")}}).dump() + "\n";
          state->done = true;
          return true;
        }
        for (auto& e : shared->store->events_after(info.group, info.resource, state->last, kWatchBatch)) {
          state->last = e.rv;
          if (ns && e.ns != *ns) continue;
          if (!filter.matches(e.object)) continue;
          chunk += event_line(e.type, std::move(e.object));
        }
        const auto now = std::chrono::steady_clock::now();
        if (!chunk.empty()) {
          state->last_sent = now;
          return true;
        }
        if (now >= state->deadline) return false;
        if (state->bookmarks && now - state->last_sent >= std::chrono::seconds(kBookmarkSeconds)) {
          state->last_sent = now;
          chunk = json({{"type", "BOOKMARK"},
                        {"object", {{"kind", info.kind}, {"apiVersion", info.api_version()},
                                    {"metadata", {{"resourceVersion", std::to_string(shared->store->current_rv())}}}}}})
                      .dump() + "\n";
          return true;
        }
        auto wake = std::min(state->deadline, now + std::chrono::seconds(1));
        shared->changed.wait_until(guard, wake);
      }
    };
    return response;
  }

  std::string name_;
  ClusterOptions options_;  // service_account_key filled on first use when empty (under the lock)
  std::shared_ptr<Shared> shared_;
  std::unique_ptr<Controllers> controllers_;  // reset first on destruction: its thread calls back into shared_
  std::unique_ptr<DeploymentController> deployments_;  // likewise, before controllers_

  // The group committer: kCommitDelay after a write opened the store's
  // transaction, it commits that transaction (with every write since).
  void commit_loop() {
    std::unique_lock<std::mutex> lock(commit_mutex_);
    while (true) {
      commit_wake_.wait(lock, [this] { return commit_stop_ || commit_due_; });
      if (commit_stop_) return;
      commit_wake_.wait_for(lock, kCommitDelay, [this] { return commit_stop_; });
      if (commit_stop_) return;  // the destructor commits
      // Cleared before committing: a write after this point either joins the
      // transaction committed below or opens the next one and sets it again.
      commit_due_ = false;
      lock.unlock();
      {
        const std::lock_guard<std::mutex> cluster_lock(shared_->mutex);
        shared_->store->commit_pending();
      }
      lock.lock();
    }
  }
  std::mutex commit_mutex_;  // guards the two flags; never held while taking shared_->mutex
  std::condition_variable commit_wake_;
  bool commit_due_ = false;
  bool commit_stop_ = false;
  std::thread committer_;
};

}  // namespace

std::unique_ptr<Cluster> Cluster::open(const std::string& name, const std::filesystem::path& database,
                                       std::string* error) {
  return open(name, database, ClusterOptions{}, error);
}

std::unique_ptr<Cluster> Cluster::open(const std::string& name, const std::filesystem::path& database,
                                       const ClusterOptions& options, std::string* error) {
  try {
    auto store = Store::open(database, error);
    if (!store) return nullptr;
    return std::make_unique<ClusterImpl>(name, std::move(store), options);
  } catch (const std::exception& e) {
    if (error != nullptr) *error = e.what();
    return nullptr;
  }
}

}  // namespace mkq::sandbox
