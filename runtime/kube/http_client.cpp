// HttpClient: kube::Client over libcurl (OpenSSL). See client.h.
//
// Connections: a pool of curl easy handles per client. A request borrows an
// idle handle (or makes one), resets its options (curl_easy_reset keeps the
// handle's live connections) and returns it, so each of several concurrent
// threads reuses a kept-alive connection. Trust: only the endpoint's CA
// (CAINFO and CAPATH cleared); the system store only when the kubeconfig names
// no CA. Authentication per request: a client certificate, a token, a token
// file read each time, or an exec plugin's credential cached until its
// expirationTimestamp (and refreshed once on a 401).
//
// TLS material: the CA certificates and the client certificate and key are
// parsed once (tls_material.h; the identity again only when an exec plugin
// hands out another one) and installed on each new connection's SSL_CTX by
// CURLOPT_SSL_CTX_FUNCTION, so a connection costs no PEM parsing. When libcurl
// is not built on the OpenSSL mkq links, or refuses the callback, the PEM
// goes to curl as blobs (CURLOPT_CAINFO_BLOB, CURLOPT_SSLCERT_BLOB,
// CURLOPT_SSLKEY_BLOB) as before.
#include <curl/curl.h>
#include <openssl/crypto.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <iterator>

#include <fmt/format.h>

#include "runtime/kube/client.h"
#include "runtime/kube/exec_credential.h"
#include "runtime/kube/json_decode.h"
#include "runtime/kube/pacing.h"
#include "runtime/kube/tls_material.h"

namespace mkq::kube {

namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trim(std::string text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return {};
  const std::size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(start, end - start + 1);
}

// Percent-encodes a path segment or query value (RFC 3986 unreserved kept).
std::string escape(const std::string& text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15u]);
    }
  }
  return out;
}

Result<std::string> read_token_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::config("cannot read the token file " + path);
  std::string text(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) return Error::config("cannot read the token file " + path);
  return trim(std::move(text));
}

Error make_error(int status, std::string reason, std::string message) {
  Error error;
  error.status = status;
  error.reason = std::move(reason);
  error.message = std::move(message);
  return error;
}

std::string default_reason(int status) {
  switch (status) {
    case 400: return "BadRequest";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "NotFound";
    case 405: return "MethodNotAllowed";
    case 406: return "NotAcceptable";
    case 409: return "Conflict";
    case 410: return "Expired";
    case 413: return "RequestEntityTooLarge";
    case 415: return "UnsupportedMediaType";
    case 422: return "Invalid";
    case 429: return "TooManyRequests";
    case 500: return "InternalError";
    case 503: return "ServiceUnavailable";
    case 504: return "Timeout";
    default: return status >= 500 ? "InternalError" : "Unknown";
  }
}

// A metav1.Status (or any other answer) as an Error.
Error status_error(int status, const std::string& body) {
  Error error;
  error.status = status;
  const Json document = Json::parse(body, nullptr, false);
  if (!document.is_discarded() && document.is_object() && document.value("kind", std::string()) == "Status") {
    if (document.contains("reason") && document["reason"].is_string()) error.reason = document["reason"];
    if (document.contains("message") && document["message"].is_string()) error.message = document["message"];
    if (document.contains("details") && !document["details"].is_null()) error.details = document["details"];
  }
  if (error.reason.empty()) error.reason = default_reason(status);
  if (error.message.empty()) {
    error.message = fmt::format("the server answered {}", status);
    const std::string text = trim(body);
    if (!text.empty() && document.is_discarded()) {
      error.message += ": " + (text.size() > 200 ? text.substr(0, 200) + "..." : text);
    }
  }
  return error;
}

bool tls_code(CURLcode code) {
  switch (code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_USE_SSL_FAILED:
      return true;
    default:
      return false;
  }
}

struct CurlFree {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
using CurlPtr = std::unique_ptr<CURL, CurlFree>;

struct SlistFree {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using SlistPtr = std::unique_ptr<curl_slist, SlistFree>;

// An easy handle and the client identity its kept-alive connections were
// made with (ClientIdentity::generation; 0: none; kNoConnection: a new handle).
inline constexpr std::uint64_t kNoConnection = ~std::uint64_t{0};
struct PooledHandle {
  CurlPtr handle;
  std::uint64_t identity = kNoConnection;
};

// Idle easy handles, each with its kept-alive connection.
class HandlePool {
 public:
  PooledHandle acquire() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        PooledHandle pooled = std::move(idle_.back());
        idle_.pop_back();
        return pooled;
      }
    }
    return PooledHandle{CurlPtr(curl_easy_init()), kNoConnection};
  }
  void release(PooledHandle pooled) {
    if (!pooled.handle) return;
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(pooled));
  }

 private:
  std::mutex mutex_;
  std::vector<PooledHandle> idle_;
};

// True when libcurl's TLS backend is the OpenSSL (same major version) mkq is
// linked to: only then is the SSL_CTX that curl hands CURLOPT_SSL_CTX_FUNCTION
// one that tls_material.h may fill. A multi-SSL build that selected another
// backend writes "(OpenSSL/3.0.x)" or names the other first: no.
bool curl_uses_our_openssl() {
  static const bool same = [] {
    const curl_version_info_data* info = curl_version_info(CURLVERSION_NOW);
    if (info == nullptr || info->ssl_version == nullptr) return false;
    const std::string version = info->ssl_version;  // "OpenSSL/3.0.22"
    const std::string prefix = "OpenSSL/";
    if (version.rfind(prefix, 0) != 0) return false;
    unsigned long major = 0;
    std::size_t i = prefix.size();
    for (; i < version.size() && std::isdigit(static_cast<unsigned char>(version[i])) != 0 && major < 1000; ++i) {
      major = major * 10 + static_cast<unsigned long>(version[i] - '0');
    }
    return i > prefix.size() && major == static_cast<unsigned long>(OPENSSL_version_major());
  }();
  return same;
}

// CURLOPT_SSL_CTX_DATA: what a connection made by one request installs.
struct SslCtxData {
  TlsSetup setup;
  std::atomic<int>* connections = nullptr;
};

// CURLOPT_SSL_CTX_FUNCTION: called once per new connection, with the SSL_CTX
// curl made for it, before the handshake.
CURLcode on_ssl_ctx(CURL* /*handle*/, void* ssl_ctx, void* user) {
  const auto* data = static_cast<const SslCtxData*>(user);
  if (data == nullptr || ssl_ctx == nullptr) return CURLE_SSL_CERTPROBLEM;
  ++*data->connections;
  return install_tls_setup(static_cast<SSL_CTX*>(ssl_ctx), data->setup) ? CURLE_OK : CURLE_SSL_CERTPROBLEM;
}

// What one request authenticates with.
struct Auth {
  std::string bearer;
  std::string cert;
  std::string key;
};

// One HTTP exchange.
struct Call {
  std::string method;
  std::string path;  // absolute API path with query, e.g. "/api/v1/namespaces?limit=2"
  bool has_body = false;
  std::string body;
  std::string content_type = "application/json";
  std::chrono::milliseconds timeout{0};
  // Streaming (watch): receives the body of a 200 answer as it comes; false stops.
  std::function<bool(const char*, std::size_t)> sink;
  // Ask for a gzip-compressed answer: for LISTs, whose answers are large.
  // Small answers are cheaper uncompressed (kube-apiserver itself compresses
  // only answers above 128 KiB).
  bool compressed = false;
};

struct Response {
  CURLcode code = CURLE_OK;
  std::string curl_message;
  int status = 0;
  std::string body;
  std::optional<int> retry_after;  // seconds
  bool priority_and_fairness = false;  // X-Kubernetes-PF-FlowSchema-UID or -PriorityLevel-UID came with it
  bool streamed = false;           // the sink received data
  bool stopped = false;            // the sink asked to stop
  std::string gave_up;             // the answer could be retried and was not: why (gave_up_note)
};

// Why a request whose last outcome could be retried was not, for its error
// (pacing.h); "" when that outcome was final.
std::string gave_up_note(const PacedRun& run, std::chrono::milliseconds timeout) {
  if (!run.retries_spent && !run.out_of_time) return {};
  const std::string tries = run.attempts == 1 ? std::string("tried once")
                                              : fmt::format("tried {} times over {:.1f} s", run.attempts,
                                                            run.elapsed.count() / 1000.0);
  if (run.retries_spent) return tries + ", every retry spent";
  return fmt::format("{}; another try would pass the request's deadline of {} ms", tries, timeout.count());
}

// A non-2xx answer as an Error, saying why it was not tried again when it could have been.
Error answer_error(const Response& r) {
  Error error = status_error(r.status, r.body);
  if (!r.gave_up.empty()) error.message += " (" + r.gave_up + ")";
  return error;
}

struct Exchange {
  const Call* call = nullptr;
  Response* response = nullptr;
  CURL* handle = nullptr;
};

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  const std::size_t n = size * count;
  const std::string line(data, n);
  if (line.rfind("HTTP/", 0) == 0) {
    exchange->response->retry_after.reset();  // a new response (after 100 Continue or a redirect)
    exchange->response->priority_and_fairness = false;
    return n;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string::npos) return n;
  const std::string name = lower(line.substr(0, colon));
  // API Priority and Fairness classified the request (pacing.h): any value counts.
  if (name == "x-kubernetes-pf-flowschema-uid" || name == "x-kubernetes-pf-prioritylevel-uid") {
    exchange->response->priority_and_fairness = true;
    return n;
  }
  if (name == "retry-after") {
    const std::string value = trim(line.substr(colon + 1));
    if (!value.empty() && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        value.size() < 7) {
      exchange->response->retry_after = std::stoi(value);
    }
  }
  return n;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  const std::size_t n = size * count;
  if (exchange->call->sink) {
    long status = 0;
    curl_easy_getinfo(exchange->handle, CURLINFO_RESPONSE_CODE, &status);
    if (status == 200) {
      exchange->response->streamed = true;
      if (!exchange->call->sink(data, n)) {
        exchange->response->stopped = true;
        return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
      }
      return n;
    }
  }
  exchange->response->body.append(data, n);
  return n;
}

// A JSON body (object, list, Status); a non-JSON one as a string; empty: null.
Json parse_body(const std::string& body) {
  if (trim(body).empty()) return Json();
  Json document = Json::parse(body, nullptr, false);
  if (document.is_discarded()) return Json(body);
  return document;
}

PacingOptions pacing_options(const ClientOptions& options) {
  PacingOptions pacing;
  pacing.qps = options.qps;
  pacing.burst = options.burst;
  pacing.explicit_limit = options.explicit_rate_limit;
  pacing.max_retries = options.max_retries;
  pacing.max_transport_retries = options.max_transport_retries;
  pacing.backoff_base = options.backoff_base;
  pacing.backoff_max = options.backoff_max;
  return pacing;
}

class HttpClient final : public Client {
 public:
  // cas: the endpoint's CA certificates parsed (empty: no CA data); identity:
  // the kubeconfig's client certificate parsed (null: none).
  HttpClient(Endpoint endpoint, ClientOptions options, std::string base_url, std::string connect_to,
             std::string host_header, std::vector<X509Ptr> cas, std::unique_ptr<ClientIdentity> identity)
      : endpoint_(std::move(endpoint)),
        options_(std::move(options)),
        base_url_(std::move(base_url)),
        connect_to_(std::move(connect_to)),
        host_header_(std::move(host_header)),
        cas_(std::move(cas)),
        ssl_ctx_callback_(curl_uses_our_openssl()),
        pacing_(pacing_options(options_), steady_timer(), std::random_device{}()) {
    if (identity) {
      identity->generation = ++identity_generations_;
      identity_ = std::move(identity);
      ++identity_parses_;
    }
  }

  std::string server() const override { return endpoint_.cluster.server; }

  Result<ResourceType> resource_for(const std::string& api_version, const std::string& kind) override {
    std::lock_guard<std::mutex> lock(discovery_mutex_);
    if (const auto found = cached_resource(api_version, kind)) return *found;
    // Not cached or a miss: (re)load the group-version once.
    const std::string path = api_version.find('/') == std::string::npos ? "/api/" + api_version : "/apis/" + api_version;
    Call call;
    call.method = "GET";
    call.path = path;
    auto response = send(call);
    if (!response) return response.error();
    const Response& r = response.value();
    if (r.status == 404) {
      return make_error(404, "NotFound", "the server " + server() + " does not serve " + api_version + " (wanted for " +
                                             kind + ")");
    }
    if (r.status != 200) return answer_error(r);
    const Json list = Json::parse(r.body, nullptr, false);
    if (list.is_discarded() || !list.is_object() || !list.contains("resources") || !list["resources"].is_array()) {
      return make_error(r.status, "InternalError",
                        "the server " + server() + " answered discovery of " + api_version + " with no resource list");
    }
    const std::size_t slash = api_version.find('/');
    const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
    const std::string version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
    std::vector<ResourceType> types;
    for (const Json& resource : list["resources"]) {
      if (!resource.is_object()) continue;
      const std::string name = resource.value("name", std::string());
      if (name.empty() || name.find('/') != std::string::npos) continue;  // subresources
      ResourceType type;
      type.group = group;
      type.version = version;
      type.kind = resource.value("kind", std::string());
      type.plural = name;
      type.namespaced = resource.value("namespaced", false);
      types.push_back(std::move(type));
    }
    discovered_[api_version] = std::move(types);
    if (const auto found = cached_resource(api_version, kind)) return *found;
    return make_error(404, "NotFound",
                      "the server " + server() + " does not serve kind " + kind + " in " + api_version);
  }

  Result<Json> get(const ResourceType& type, const std::string& namespace_name, const std::string& name) override {
    ++gets_;
    Call call;
    call.method = "GET";
    call.path = object_path(type, namespace_name, name);
    return json_result(send(call));
  }

  Result<ObjectList> list(const ResourceType& type, const ListOptions& options) override {
    ObjectList result;
    auto listed = each_page(type, options, [&](const std::string& body) -> std::optional<ListPageMetadata> {
      std::optional<Json> page = decoded_page(body);
      if (!page) return std::nullopt;
      for (Json& item : (*page)["items"]) result.items.push_back(with_type(type, std::move(item)));
      return page_metadata(*page);
    });
    if (!listed) return listed.error();
    result.resource_version = std::move(listed.value());
    return result;
  }

  Result<ObjectTextList> list_text(const ResourceType& type, const ListOptions& options) override {
    ObjectTextList result;
    auto listed = each_page(type, options, [&](const std::string& body) -> std::optional<ListPageMetadata> {
      std::optional<ListPageText> split = split_list(body);
      if (split && std::all_of(split->items.begin(), split->items.end(), [](const ListItemText& item) {
            return item.has_api_version == item.has_kind;
          })) {
        for (ListItemText& item : split->items) {
          result.items.emplace_back(typed_text(type, item), std::move(item.name), std::move(item.namespace_name));
        }
        return ListPageMetadata{std::move(split->resource_version), std::move(split->continue_token)};
      }
      // Not a plain list (split_list declined it): decoded whole, as list() does.
      std::optional<Json> page = decoded_page(body);
      if (!page) return std::nullopt;
      for (Json& item : (*page)["items"]) result.items.emplace_back(with_type(type, std::move(item)));
      return page_metadata(*page);
    });
    if (!listed) return listed.error();
    result.resource_version = std::move(listed.value());
    return result;
  }

  Result<Json> apply(const ResourceType& type, const Json& object, const ApplyOptions& options) override {
    const std::string name = metadata_string(object, "name");
    if (name.empty()) return make_error(0, "ConfigError", "cannot apply a " + type.kind + " without metadata.name");
    const std::string namespace_name = metadata_string(object, "namespace");
    Call call;
    call.method = "PATCH";
    call.path = object_path(type, namespace_name, name) + "?fieldManager=" + escape(options.field_manager);
    if (options.force) call.path += "&force=true";
    if (options.dry_run) call.path += "&dryRun=All";
    call.has_body = true;
    call.body = object.dump();
    call.content_type = "application/apply-patch+yaml";
    return json_result(send(call));
  }

  Result<Json> create(const ResourceType& type, const Json& object) override {
    Call call;
    call.method = "POST";
    call.path = collection_path(type, metadata_string(object, "namespace"), true);
    call.has_body = true;
    call.body = object.dump();
    return json_result(send(call));
  }

  Result<Json> update(const ResourceType& type, const Json& object) override {
    const std::string name = metadata_string(object, "name");
    if (name.empty()) return make_error(0, "ConfigError", "cannot update a " + type.kind + " without metadata.name");
    Call call;
    call.method = "PUT";
    call.path = object_path(type, metadata_string(object, "namespace"), name);
    call.has_body = true;
    call.body = object.dump();
    return json_result(send(call));
  }

  Result<Json> remove(const ResourceType& type, const std::string& namespace_name, const std::string& name,
                      const DeleteOptions& options) override {
    Json body = {{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
    if (!options.propagation_policy.empty()) body["propagationPolicy"] = options.propagation_policy;
    if (!options.precondition_uid.empty()) body["preconditions"] = {{"uid", options.precondition_uid}};
    if (options.dry_run) body["dryRun"] = Json::array({"All"});
    Call call;
    call.method = "DELETE";
    call.path = object_path(type, namespace_name, name);
    call.has_body = true;
    call.body = body.dump();
    return json_result(send(call));
  }

  Result<void> watch(const ResourceType& type, const WatchOptions& options,
                     const std::function<bool(const WatchEvent&)>& on_event) override {
    Call call;
    call.method = "GET";
    call.path = collection_path(type, options.namespace_name, false) + "?watch=1&allowWatchBookmarks=true";
    if (!options.resource_version.empty()) call.path += "&resourceVersion=" + escape(options.resource_version);
    if (!options.label_selector.empty()) call.path += "&labelSelector=" + escape(options.label_selector);
    const long long seconds = std::max<long long>(1, options.timeout.count());
    call.path += "&timeoutSeconds=" + std::to_string(seconds);
    // The server ends the stream at timeoutSeconds; the client's own limit is a little later.
    call.timeout = std::chrono::milliseconds(seconds * 1000 + 5000);

    std::string buffer;
    std::optional<Error> stream_error;
    call.sink = [&](const char* data, std::size_t size) {
      buffer.append(data, size);
      std::size_t newline;
      while ((newline = buffer.find('\n')) != std::string::npos) {
        const std::string line = trim(buffer.substr(0, newline));
        buffer.erase(0, newline + 1);
        if (line.empty()) continue;
        Json event = Json::parse(line, nullptr, false);
        if (event.is_discarded() || !event.is_object()) {
          stream_error = make_error(0, "ConnectionFailed", "the server " + server() + " sent a malformed watch event");
          return false;
        }
        WatchEvent parsed;
        parsed.type = event.value("type", std::string());
        if (event.contains("object")) parsed.object = std::move(event["object"]);
        if (parsed.type == "ERROR") {
          const int code = parsed.object.is_object() ? parsed.object.value("code", 500) : 500;
          stream_error = status_error(code, parsed.object.dump());
          on_event(parsed);
          return false;
        }
        if (!on_event(parsed)) return false;
      }
      return true;
    };
    auto response = send(call);
    if (stream_error) return *stream_error;
    if (!response) return response.error();
    const Response& r = response.value();
    if (r.streamed || r.stopped) return {};
    if (r.status != 200) return answer_error(r);
    return {};
  }

  Result<Json> request(const std::string& method, const std::string& path, const Json* body,
                       const std::string& content_type) override {
    Call call;
    call.method = method;
    call.path = path.empty() || path.front() != '/' ? "/" + path : path;
    if (body != nullptr) {
      call.has_body = true;
      call.body = body->dump();
      call.content_type = content_type;
    }
    return json_result(send(call));
  }

  ClientStats stats() const override {
    ClientStats stats;
    stats.requests = requests_.load();
    stats.retries = pacing_.retries();
    stats.throttled = pacing_.throttled();
    stats.lists = lists_.load();
    stats.gets = gets_.load();
    stats.connections = connections_.load();
    stats.identity_parses = identity_parses_.load();
    stats.regime = pacing_.regime();
    stats.priority_and_fairness = pacing_.priority_and_fairness();
    stats.qps = pacing_.qps();
    stats.burst = pacing_.burst();
    return stats;
  }

 private:
  std::optional<ResourceType> cached_resource(const std::string& api_version, const std::string& kind) const {
    const auto it = discovered_.find(api_version);
    if (it == discovered_.end()) return std::nullopt;
    for (const ResourceType& type : it->second) {
      if (type.kind == kind) return type;
    }
    return std::nullopt;
  }

  std::string collection_path(const ResourceType& type, const std::string& namespace_name, bool default_ns) const {
    std::string path = type.group.empty() ? "/api/" + type.version : "/apis/" + type.group + "/" + type.version;
    if (type.namespaced) {
      std::string ns = namespace_name;
      if (ns.empty() && default_ns) ns = endpoint_.namespace_name.empty() ? "default" : endpoint_.namespace_name;
      if (!ns.empty()) path += "/namespaces/" + escape(ns);
    }
    return path + "/" + type.plural;
  }

  std::string object_path(const ResourceType& type, const std::string& namespace_name, const std::string& name) const {
    return collection_path(type, namespace_name, true) + "/" + escape(name);
  }

  static std::string metadata_string(const Json& object, const char* key) {
    if (!object.is_object() || !object.contains("metadata") || !object["metadata"].is_object()) return {};
    const Json& value = object["metadata"].contains(key) ? object["metadata"][key] : Json();
    return value.is_string() ? value.get<std::string>() : std::string();
  }

  // List items carry no apiVersion/kind for built-in kinds; mkq's callers want them.
  struct ListPageMetadata {
    std::string resource_version, continue_token;
  };

  // Sends a LIST's pages in turn, following `continue`, each answer's body
  // to on_page (nullopt: the answer is no list); one LIST in the stats. The
  // first page's resourceVersion.
  template <typename OnPage>
  Result<std::string> each_page(const ResourceType& type, const ListOptions& options, OnPage on_page) {
    ++lists_;
    std::string resource_version;
    std::string continue_token;
    bool first = true;
    while (first || !continue_token.empty()) {
      Call call;
      call.method = "GET";
      call.compressed = true;
      call.path = collection_path(type, options.namespace_name, false);
      std::string query;
      auto add = [&](const std::string& key, const std::string& value) {
        query += (query.empty() ? "?" : "&") + key + "=" + escape(value);
      };
      if (options.page_size > 0) add("limit", std::to_string(options.page_size));
      if (!options.label_selector.empty()) add("labelSelector", options.label_selector);
      if (!continue_token.empty()) add("continue", continue_token);
      call.path += query;
      auto response = send(call);
      if (!response) return response.error();
      const Response& r = response.value();
      if (r.status != 200) return answer_error(r);
      std::optional<ListPageMetadata> metadata = on_page(r.body);
      if (!metadata) return make_error(r.status, "InternalError", "the server " + server() + " answered a list with no JSON");
      if (first) resource_version = std::move(metadata->resource_version);
      continue_token = std::move(metadata->continue_token);
      first = false;
    }
    return resource_version;
  }

  // A LIST answer decoded whole, "items" made an array when it is none; nullopt: not a JSON object.
  static std::optional<Json> decoded_page(const std::string& body) {
    std::optional<Json> decoded = decode_json(body);
    Json page = decoded ? std::move(*decoded) : Json::parse(body, nullptr, false);
    if (page.is_discarded() || !page.is_object()) return std::nullopt;
    if (!page.contains("items") || !page["items"].is_array()) page["items"] = Json::array();
    return page;
  }

  static ListPageMetadata page_metadata(const Json& page) {
    const Json metadata = page.contains("metadata") && page["metadata"].is_object() ? page["metadata"] : Json::object();
    return {metadata.value("resourceVersion", std::string()), metadata.value("continue", std::string())};
  }

  // An item's text as with_type makes its value: apiVersion and kind first
  // when it has neither (one with both is kept as it is; one with one of
  // them is not given here).
  static std::string typed_text(const ResourceType& type, ListItemText& item) {
    if (item.has_api_version) return std::move(item.text);
    std::string typed = fmt::format("{{\"apiVersion\":{},\"kind\":{}", Json(type.api_version()).dump(), Json(type.kind).dump());
    std::size_t body = 1;  // after '{'
    while (body < item.text.size() && (item.text[body] == ' ' || item.text[body] == '\n' || item.text[body] == '\r' ||
                                       item.text[body] == '\t')) {
      ++body;
    }
    if (item.text[body] != '}') typed += ',';
    typed.append(item.text, body, std::string::npos);
    return typed;
  }

  static Json with_type(const ResourceType& type, Json item) {
    if (!item.is_object() || (item.contains("apiVersion") && item.contains("kind"))) return item;
    Json typed = {{"apiVersion", type.api_version()}, {"kind", type.kind}};
    for (auto& [key, value] : item.items()) {
      if (key != "apiVersion" && key != "kind") typed[key] = std::move(value);
    }
    return typed;
  }

  Result<Json> json_result(Result<Response> response) const {
    if (!response) return response.error();
    const Response& r = response.value();
    if (r.status < 200 || r.status >= 300) return answer_error(r);
    return parse_body(r.body);
  }

  Result<Auth> authenticate(bool refresh_exec) {
    Auth auth;
    auth.cert = endpoint_.user.client_certificate_data;
    auth.key = endpoint_.user.client_key_data;
    if (endpoint_.user.exec) {
      std::lock_guard<std::mutex> lock(exec_mutex_);
      const bool expired = exec_credential_ && exec_credential_->expiration &&
                           std::chrono::system_clock::now() >= *exec_credential_->expiration;
      if (!exec_credential_ || expired || refresh_exec) {
        auto credential = run_exec_plugin(*endpoint_.user.exec, endpoint_.cluster,
                                          std::max(options_.request_timeout, std::chrono::milliseconds(60000)));
        if (!credential) return credential.error();
        exec_credential_ = std::move(credential).value();
      }
      if (!exec_credential_->token.empty()) auth.bearer = exec_credential_->token;
      if (!exec_credential_->client_certificate_data.empty()) {
        auth.cert = exec_credential_->client_certificate_data;
        auth.key = exec_credential_->client_key_data;
      }
      return auth;
    }
    if (!endpoint_.user.token_file.empty()) {
      Result<std::string> token = read_token_file(endpoint_.user.token_file);
      if (!token) return token.error();
      auth.bearer = std::move(token).value();
    } else {
      auth.bearer = endpoint_.user.token;
    }
    return auth;
  }

  // The parsed client identity for auth's certificate and key (null: none),
  // parsed again only when they change (an exec plugin's new credential).
  // Held by the requests using it while another replaces it.
  Result<std::shared_ptr<const ClientIdentity>> identity_for(const Auth& auth) {
    if (auth.cert.empty()) return std::shared_ptr<const ClientIdentity>();
    std::lock_guard<std::mutex> lock(identity_mutex_);
    if (identity_ && identity_->cert_pem == auth.cert && identity_->key_pem == auth.key) return identity_;
    Result<std::unique_ptr<ClientIdentity>> parsed = read_client_identity(auth.cert, auth.key);
    ++identity_parses_;
    if (!parsed) {
      // Only an exec plugin's credential gets here: make_http_client checked the kubeconfig's.
      const std::string source = endpoint_.user.exec ? "exec plugin " + endpoint_.user.exec->command + ": "
                                                     : "context \"" + endpoint_.context + "\": ";
      return make_error(0, "ConfigError", source + parsed.error().message);
    }
    parsed.value()->generation = ++identity_generations_;
    identity_ = std::move(parsed).value();
    return identity_;
  }

  Error transport_error(const Response& r, std::chrono::milliseconds timeout) const {
    const std::string detail = lower(r.curl_message.empty() ? curl_easy_strerror(r.code) : r.curl_message);
    if (r.code == CURLE_OPERATION_TIMEDOUT) {
      return make_error(0, "Timeout",
                        fmt::format("no answer from {} within {} ms", server(), timeout.count()));
    }
    if (tls_code(r.code)) return make_error(0, "TLSError", "tls with " + server() + " failed: " + detail);
    return make_error(0, "ConnectionFailed", "cannot connect to " + server() + ": " + detail);
  }

  // Sends through the pacing (pacing.h: the regime's limit, retries with
  // backoff); a Response is any HTTP answer, an Error a transport failure or a
  // configuration problem. One deadline covers the request with all its
  // retries (the call's timeout, else request_timeout): no attempt and no wait
  // runs past it, so the time a Timeout names is the time waited.
  Result<Response> send(const Call& call) {
    const std::chrono::milliseconds timeout = call.timeout.count() > 0 ? call.timeout : options_.request_timeout;
    std::optional<Result<Response>> last;  // what the last attempt came to
    bool refreshed_exec = false;
    const auto attempt = [&](std::chrono::milliseconds budget) -> AttemptOutcome {
      AttemptOutcome outcome;
      outcome.may_retry = false;
      auto auth = authenticate(false);
      if (!auth) {
        last = auth.error();
        return outcome;
      }
      auto identity = identity_for(auth.value());
      if (!identity) {
        last = identity.error();
        return outcome;
      }
      Response r = perform(call, auth.value(), identity.value(), budget);
      ++requests_;
      outcome.priority_and_fairness = r.priority_and_fairness;
      if (r.code != CURLE_OK && !r.stopped) {
        if (call.sink && r.code == CURLE_OPERATION_TIMEDOUT && r.status == 200) {
          last = std::move(r);  // a watch ran its course
          return outcome;
        }
        Error error = transport_error(r, timeout);
        outcome.may_retry = error.reason != "TLSError" && !r.streamed;
        last = std::move(error);
        return outcome;
      }
      outcome.status = r.status;
      outcome.retry_after = r.retry_after;
      outcome.may_retry = !r.streamed;
      if (r.status == 401 && endpoint_.user.exec && !refreshed_exec && !r.streamed) {
        // The plugin's credential may have been revoked early: ask for a new one once.
        refreshed_exec = true;
        auto fresh = authenticate(true);
        if (!fresh) {
          last = fresh.error();
          outcome.may_retry = false;
          return outcome;
        }
        outcome.again_at_once = true;
      }
      last = std::move(r);
      return outcome;
    };
    const PacedRun run = pacing_.run(timeout, attempt);
    if (!run || !last) {
      return make_error(0, "Timeout", fmt::format("no answer from {} within {} ms", server(), timeout.count()));
    }
    // A Timeout names its deadline already.
    if (std::string note = gave_up_note(run, timeout);
        !note.empty() && (last->ok() || last->error().reason != "Timeout")) {
      if (last->ok()) {
        last->value().gave_up = std::move(note);
      } else {
        last->error().message += " (" + note + ")";
      }
    }
    return std::move(*last);
  }

  // One attempt, given at most `budget` (connecting included).
  Response perform(const Call& call, const Auth& auth, const std::shared_ptr<const ClientIdentity>& identity,
                   std::chrono::milliseconds budget) {
    Response response;
    PooledHandle pooled = pool_.acquire();
    // A handle whose connections authenticated as another identity would
    // reuse them (curl does not compare what the SSL_CTX callback installed):
    // drop them with the handle.
    const std::uint64_t generation = identity ? identity->generation : 0;
    if (pooled.identity != kNoConnection && pooled.identity != generation) pooled.handle.reset(curl_easy_init());
    pooled.identity = generation;
    if (!pooled.handle) {
      response.code = CURLE_FAILED_INIT;
      return response;
    }
    CURL* h = pooled.handle.get();
    curl_easy_reset(h);  // keeps the handle's live connections
    char error_buffer[CURL_ERROR_SIZE] = {0};
    const std::string url = base_url_ + call.path;
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https");
    curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
    // No TLS session resumption: an OpenSSL server that verifies client
    // certificates without a session id context fails resumed handshakes with
    // an internal_error alert. Connections are kept alive, so full handshakes
    // are rare anyway.
    curl_easy_setopt(h, CURLOPT_SSL_SESSIONID_CACHE, 0L);
    // gzip only (as client-go asks, never a slower codec such as brotli), and
    // only where the answer is large (Call::compressed) and the kubeconfig
    // does not say disable-compression (then no Accept-Encoding at all, as
    // client-go sends none).
    const bool gzip = call.compressed && !endpoint_.cluster.disable_compression;
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, gzip ? "gzip" : nullptr);
    curl_easy_setopt(h, CURLOPT_USERAGENT, options_.user_agent.c_str());
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<long long>(1, budget.count())));
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(std::max<long long>(1, std::min(options_.connect_timeout, budget).count())));
    curl_slist* connect_to = nullptr;
    SlistPtr connect_to_owner;
    if (!connect_to_.empty()) {
      connect_to = curl_slist_append(nullptr, connect_to_.c_str());
      connect_to_owner.reset(connect_to);
      curl_easy_setopt(h, CURLOPT_CONNECT_TO, connect_to);
    }
    if (!endpoint_.cluster.proxy_url.empty()) curl_easy_setopt(h, CURLOPT_PROXY, endpoint_.cluster.proxy_url.c_str());

    // TLS material for a new connection: parsed objects through the SSL_CTX
    // callback, else PEM blobs.
    const bool verify = !endpoint_.cluster.insecure_skip_tls_verify;
    const bool own_cas = verify && !endpoint_.cluster.certificate_authority_data.empty();
    SslCtxData ssl_ctx_data;
    ssl_ctx_data.setup.cas = own_cas ? &cas_ : nullptr;
    ssl_ctx_data.setup.identity = identity.get();
    ssl_ctx_data.connections = &connections_;
    bool parsed_material = false;
    if (ssl_ctx_callback_ && (own_cas || identity)) {
      parsed_material = curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx) == CURLE_OK &&
                        curl_easy_setopt(h, CURLOPT_SSL_CTX_DATA, &ssl_ctx_data) == CURLE_OK;
      if (!parsed_material) curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, nullptr);
    }
    // Trust.
    if (!verify) {
      curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (own_cas) {
      // Only the cluster's CA: no default bundle or directory is loaded, so
      // the store holds what the callback (or the blob) adds.
      curl_easy_setopt(h, CURLOPT_CAINFO, nullptr);
      curl_easy_setopt(h, CURLOPT_CAPATH, nullptr);
      if (!parsed_material) {
        curl_blob ca{const_cast<char*>(endpoint_.cluster.certificate_authority_data.data()),
                     endpoint_.cluster.certificate_authority_data.size(), CURL_BLOB_COPY};
        curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &ca);
      }
    }
    // Client certificate.
    if (!auth.cert.empty() && !parsed_material) {
      curl_blob cert{const_cast<char*>(auth.cert.data()), auth.cert.size(), CURL_BLOB_COPY};
      curl_blob key{const_cast<char*>(auth.key.data()), auth.key.size(), CURL_BLOB_COPY};
      curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &cert);
      curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
      curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &key);
      curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
    }

    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, "Accept: application/json");
    headers = curl_slist_append(headers, "Expect:");
    if (!host_header_.empty()) headers = curl_slist_append(headers, ("Host: " + host_header_).c_str());
    std::string authorization;
    if (!auth.bearer.empty()) {
      authorization = "Authorization: Bearer " + auth.bearer;
      headers = curl_slist_append(headers, authorization.c_str());
    }
    if (call.has_body) headers = curl_slist_append(headers, ("Content-Type: " + call.content_type).c_str());
    SlistPtr headers_owner(headers);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);

    if (call.method == "GET") {
      curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else {
      curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, call.method.c_str());
      if (call.has_body || call.method == "POST" || call.method == "PUT" || call.method == "PATCH") {
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(call.body.size()));
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, call.body.c_str());
      }
    }

    Exchange exchange{&call, &response, h};
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &exchange);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &exchange);

    response.code = curl_easy_perform(h);
    response.curl_message = error_buffer;
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    response.status = static_cast<int>(status);
    if (response.stopped) response.code = CURLE_OK;
    // Do not keep a handle whose options point at this call's buffers.
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, nullptr);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
    curl_easy_setopt(h, CURLOPT_CONNECT_TO, nullptr);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, nullptr);
    curl_easy_setopt(h, CURLOPT_SSL_CTX_DATA, nullptr);
    pool_.release(std::move(pooled));
    return response;
  }

  const Endpoint endpoint_;
  const ClientOptions options_;
  const std::string base_url_;     // scheme://host[:port][/path], no trailing '/'
  const std::string connect_to_;   // CURLOPT_CONNECT_TO entry when tls-server-name differs
  const std::string host_header_;  // the server's host:port when tls-server-name replaces it in the URL
  const std::vector<X509Ptr> cas_;  // the endpoint's CA certificates, parsed once (read-only)
  const bool ssl_ctx_callback_;     // curl_uses_our_openssl(): install parsed material, not blobs
  HandlePool pool_;
  std::mutex discovery_mutex_;
  std::map<std::string, std::vector<ResourceType>> discovered_;
  std::mutex exec_mutex_;
  std::optional<ExecCredential> exec_credential_;
  RequestPacing pacing_;
  std::atomic<int> requests_{0};
  std::atomic<int> lists_{0};
  std::atomic<int> gets_{0};
  std::atomic<int> connections_{0};
  std::atomic<int> identity_parses_{0};
  // The client identity last parsed; shared_ptr because requests in flight
  // keep the one they connect with while an exec refresh replaces it.
  std::mutex identity_mutex_;
  std::shared_ptr<const ClientIdentity> identity_;
  std::uint64_t identity_generations_ = 0;  // under identity_mutex_ (and in the constructor)
};

struct UrlFree {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};

std::string url_part(CURLU* url, CURLUPart part, unsigned flags = 0) {
  char* text = nullptr;
  if (curl_url_get(url, part, &text, flags) != CURLUE_OK || text == nullptr) return {};
  std::string value(text);
  curl_free(text);
  return value;
}

}  // namespace

Result<std::unique_ptr<Client>> make_http_client(const Endpoint& endpoint, const ClientOptions& options) {
  global_init();
  const auto fail = [](std::string text) -> Result<std::unique_ptr<Client>> { return Error::config(std::move(text)); };
  const std::string where = "context \"" + endpoint.context + "\"";
  std::unique_ptr<CURLU, UrlFree> url(curl_url());
  if (!url || curl_url_set(url.get(), CURLUPART_URL, endpoint.cluster.server.c_str(), 0) != CURLUE_OK) {
    return fail(where + ": server " + endpoint.cluster.server + " is not a URL");
  }
  if (lower(url_part(url.get(), CURLUPART_SCHEME)) != "https") {
    return fail(where + ": server " + endpoint.cluster.server + " is not https");
  }
  const std::string host = url_part(url.get(), CURLUPART_HOST);
  const std::string port = url_part(url.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  std::string path = url_part(url.get(), CURLUPART_PATH);
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (host.empty()) return fail(where + ": server " + endpoint.cluster.server + " names no host");

  std::string base_url = "https://" + host + ":" + port + path;
  std::string connect_to;
  std::string host_header;
  const std::string& sni = endpoint.cluster.tls_server_name;
  if (!sni.empty() && sni != host) {
    // Connect to the server's address, but verify (and send SNI for) tls-server-name.
    base_url = "https://" + sni + ":" + port + path;
    std::string bare_host = host;
    connect_to = sni + ":" + port + ":" + bare_host + ":" + port;
    host_header = host + ":" + port;
  }

  // Parsed here once: a bad PEM is refused now, and connections reuse the objects.
  const ClusterEntry& cluster = endpoint.cluster;
  std::vector<X509Ptr> cas;
  if (!cluster.certificate_authority_data.empty()) {
    cas = read_certificates(cluster.certificate_authority_data);
    if (cas.empty()) {
      return fail(where + ": the cluster's certificate authority" +
                  (cluster.certificate_authority_file.empty() ? std::string(" (certificate-authority-data)")
                                                              : " " + cluster.certificate_authority_file) +
                  " is not a PEM certificate");
    }
  }
  const UserEntry& user = endpoint.user;
  if (user.client_certificate_data.empty() != user.client_key_data.empty()) {
    return fail(where + ": a client certificate needs both client-certificate and client-key");
  }
  std::unique_ptr<ClientIdentity> identity;
  if (!user.client_certificate_data.empty()) {
    Result<std::unique_ptr<ClientIdentity>> parsed =
        read_client_identity(user.client_certificate_data, user.client_key_data);
    if (!parsed) return fail(where + ": " + parsed.error().message);
    identity = std::move(parsed).value();
  }
  if (!user.token_file.empty()) {
    if (Result<std::string> token = read_token_file(user.token_file); !token) {
      return fail(where + ": " + token.error().message);
    }
  }
  std::unique_ptr<Client> client = std::make_unique<HttpClient>(endpoint, options, std::move(base_url),
                                                                std::move(connect_to), std::move(host_header),
                                                                std::move(cas), std::move(identity));
  return client;
}

}  // namespace mkq::kube
