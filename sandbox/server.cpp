// HTTPS transport of the sandbox on cpp-httplib 0.11 (see server.h).
#include "sandbox/server.h"

#include "sandbox/limits.h"
#include "sandbox/pki.h"

#include <httplib.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string_view>
#include <thread>

#include <sys/socket.h>

#include <fmt/format.h>

namespace mkq::sandbox {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string status_json(int code, const std::string& reason, const std::string& message) {
  const nlohmann::json status = {{"kind", "Status"},  {"apiVersion", "v1"}, {"metadata", nlohmann::json::object()},
                                 {"status", "Failure"}, {"message", message}, {"reason", reason},
                                 {"code", code}};
  return status.dump();
}

void set_status(httplib::Response& res, int code, const std::string& reason, const std::string& message) {
  res.status = code;
  res.set_content(status_json(code, reason, message), "application/json");
}

// Every value of one X509 name field (CN, O), as UTF-8.
std::vector<std::string> name_entries(const X509_NAME* name, int nid) {
  std::vector<std::string> values;
  int index = -1;
  while ((index = X509_NAME_get_index_by_NID(name, nid, index)) >= 0) {
    const X509_NAME_ENTRY* entry = X509_NAME_get_entry(name, index);
    unsigned char* utf8 = nullptr;
    const int length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry));
    if (length >= 0 && utf8 != nullptr) values.emplace_back(reinterpret_cast<const char*>(utf8), length);
    OPENSSL_free(utf8);
  }
  return values;
}

constexpr const char* kAuthenticatedGroup = "system:authenticated";

// Who sent req: a verified client certificate (the TLS handshake already
// checked it against the sandbox CA), else a bearer token the cluster accepts
// (a service-account token, Cluster::authenticate_token). Like kube-apiserver,
// every authenticated user is also in system:authenticated, and a request
// without credentials is system:anonymous in system:unauthenticated (RBAC
// decides what it may do). A present but invalid token is never anonymous
// access: nullopt, the transport answers 401.
std::optional<Identity> authenticate(const httplib::Request& req, Cluster& cluster) {
  if (req.ssl != nullptr) {
    const X509* peer = SSL_get0_peer_certificate(req.ssl);
    if (peer != nullptr && SSL_get_verify_result(req.ssl) == X509_V_OK) {
      const X509_NAME* subject = X509_get_subject_name(peer);
      const std::vector<std::string> names = name_entries(subject, NID_commonName);
      if (!names.empty() && !names.front().empty()) {
        Identity identity{names.front(), name_entries(subject, NID_organizationName)};
        if (std::find(identity.groups.begin(), identity.groups.end(), kAuthenticatedGroup) == identity.groups.end()) {
          identity.groups.emplace_back(kAuthenticatedGroup);
        }
        return identity;
      }
    }
  }
  const std::string authorization = req.get_header_value("Authorization");
  if (authorization.size() > 7 && lower(authorization.substr(0, 7)) == "bearer ") {
    std::string token = authorization.substr(7);
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.front())) != 0) token.erase(0, 1);
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back())) != 0) token.pop_back();
    if (!token.empty()) {
      std::optional<TokenIdentity> found;
      try {
        found = cluster.authenticate_token(token);
      } catch (...) {
        found.reset();
      }
      if (!found) return std::nullopt;
      return Identity{found->user, found->groups};
    }
  }
  return Identity{"system:anonymous", {"system:unauthenticated"}};
}

// Closes the request's connection without an answer: the client sees the
// connection dropped (EOF) before any response byte. shutdown(), not close():
// the server still owns the descriptor and closes it when the write fails.
void drop_connection(const httplib::Request& req) {
  if (req.ssl == nullptr) return;
  const int fd = SSL_get_fd(req.ssl);
  if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
}

bool is_health_path(const std::string& path) {
  return path == "/healthz" || path == "/livez" || path == "/readyz" || path == "/version" ||
         path.rfind("/healthz/", 0) == 0 || path.rfind("/livez/", 0) == 0 || path.rfind("/readyz/", 0) == 0;
}



// The TLS context: the server certificate, and client certificates requested
// and verified against the sandbox CA but not required (anonymous requests
// must get an HTTP 401, not a failed handshake).
bool setup_tls(SSL_CTX& ctx, const Pki& pki) {
  const auto cert = read_cert(pki.server_cert);
  const auto key = read_key(pki.server_key);
  const auto ca = read_cert(pki.ca_cert);
  if (!cert || !key || !ca) return false;
  SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
  SSL_CTX_set_options(&ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_SESSION_RESUMPTION_ON_RENEGOTIATION);
  if (SSL_CTX_use_certificate(&ctx, cert.get()) != 1) return false;
  if (SSL_CTX_use_PrivateKey(&ctx, key.get()) != 1) return false;
  if (SSL_CTX_check_private_key(&ctx) != 1) return false;
  if (X509_STORE_add_cert(SSL_CTX_get_cert_store(&ctx), ca.get()) != 1) return false;
  if (SSL_CTX_add_client_CA(&ctx, ca.get()) != 1) return false;
  SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER, nullptr);
  // A server that verifies client certificates must name its session context,
  // or OpenSSL fails every resumed handshake ("tlsv1 alert internal error").
  static const unsigned char kSessionContext[] = "mkq-sandbox";
  if (SSL_CTX_set_session_id_context(&ctx, kSessionContext, sizeof kSessionContext - 1) != 1) return false;
  return true;
}

}  // namespace

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::string current;
  for (const char c : text + ",") {
    if (c == ',') {
      if (!current.empty()) items.push_back(current);
      current.clear();
    } else if (std::isspace(static_cast<unsigned char>(c)) == 0) {
      current += c;
    }
  }
  return items;
}

struct HttpsServer::Impl {
  Cluster& cluster;
  ServerOptions options;
  FlowControl flow_control{options.flow_control};
  bool tls_ok = false;  // set by the server's TLS callback: declared before server
  httplib::SSLServer server;
  int bound_port = -1;
  int listen_socket = -1;  // the listening socket, once bound
  std::thread thread;

  Impl(Cluster& c, const Pki& pki, ServerOptions o)
      : cluster(c), options(std::move(o)), server([this, &pki](SSL_CTX& ctx) {
          tls_ok = setup_tls(ctx, pki);
          return tls_ok;
        }) {
    server.set_socket_options([this](socket_t socket) {
      httplib::default_socket_options(socket);
      listen_socket = socket;
    });
  }

  // A fault to inject for this request, if any: true when res is answered.
  bool inject_fault(const httplib::Request& req, httplib::Response& res) {
    const FaultOptions& faults = options.faults;
    if (!faults.any() || is_health_path(req.path)) return false;
    if (!faults.verbs.empty() &&
        std::find(faults.verbs.begin(), faults.verbs.end(), lower(req.method)) == faults.verbs.end()) {
      return false;
    }
    if (faults.latency_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(faults.latency_ms));
    thread_local std::mt19937 random{std::random_device{}()};
    std::uniform_real_distribution<double> draw(0.0, 1.0);
    const double roll = draw(random);
    if (roll < faults.rate_drop) {
      drop_connection(req);
      res.status = 500;  // never reaches the client
      return true;
    }
    const double rest = roll - faults.rate_drop;
    if (rest < faults.rate_500 && rest >= 0.0) {
      set_status(res, 500, "InternalError", "Internal error occurred: injected fault");
      return true;
    }
    if (rest >= 0.0 && rest < faults.rate_500 + faults.rate_429) {
      set_status(res, 429, "TooManyRequests", "the server has received too many requests and has asked us to try "
                                              "again later (injected fault)");
      res.set_header("Retry-After", "1");
      return true;
    }
    return false;
  }

  // What kube-apiserver's filters do before a handler runs, in their order:
  // authentication (401), impersonation (its 403), API Priority and Fairness
  // on the user the request runs as (headers, 429), then the body: read only
  // now (an unauthenticated 300 MB body costs nothing), up to
  // kMaxRequestBodyBytes -- past it, a caller authorization refuses gets that
  // 403 (upstream authorizes before reading), any other the 413. A body left
  // unread closes the connection after the answer.
  void serve(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader* reader) {
    res.set_header("Cache-Control", "no-cache, private");
    const auto unread = [&res, reader] {
      if (reader != nullptr) res.set_header("Connection", "close");
    };
    const std::optional<Identity> identity = authenticate(req, cluster);
    if (!identity) {
      set_status(res, 401, "Unauthorized", "Unauthorized");
      unread();
      return;
    }
    ApiRequest request = request_of(req, *identity);
    std::variant<ApiRequest, ApiResponse> as;
    try {
      as = cluster.impersonate(request);
    } catch (const std::exception& e) {
      set_status(res, 500, "InternalError", std::string("Internal error occurred: ") + e.what());
      unread();
      return;
    }
    if (auto* refused = std::get_if<ApiResponse>(&as)) {
      write_answer(res, *refused);
      unread();
      return;
    }
    request = std::move(std::get<ApiRequest>(as));
    const Flow flow = classify_flow(request.user, request.groups, req.path);
    for (const auto& [name, value] : flow_headers(flow)) res.set_header(name, value);
    const FlowControl::Seat seat = flow_control.admit(flow);  // held while the request is served
    if (seat.rejected()) {
      res.status = 429;
      res.set_header("Retry-After", kRetryAfterSeconds);
      res.set_header("X-Content-Type-Options", "nosniff");
      res.set_content(kTooManyRequestsBody, "text/plain; charset=utf-8");
      unread();
      return;
    }
    if (reader == nullptr) {
      request.body = req.body;
    } else if (!read_body(req, res, *reader, request)) {
      return;
    }
    if (inject_fault(req, res)) return;
    answer(req, res, request);
  }

  // Reads the body into request.body; false when res is answered instead.
  bool read_body(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader,
                 ApiRequest& request) {
    const auto refuse_too_large = [&] {
      const std::optional<ApiResponse> denied = cluster.authorize(request);
      write_answer(res, denied ? *denied : request_entity_too_large());
      res.set_header("Connection", "close");
      return false;
    };
    if (req.has_header("Content-Length") &&
        std::strtoull(req.get_header_value("Content-Length").c_str(), nullptr, 10) > kMaxRequestBodyBytes) {
      return refuse_too_large();
    }
    std::string body;
    bool too_large = false;
    const bool read = reader([&](const char* data, std::size_t length) {
      if (body.size() + length > kMaxRequestBodyBytes) {
        too_large = true;
        return false;
      }
      body.append(data, length);
      return true;
    });
    if (too_large) return refuse_too_large();
    if (!read) {
      set_status(res, 400, "BadRequest", "the body of the request could not be read");
      res.set_header("Connection", "close");
      return false;
    }
    request.body = std::move(body);
    return true;
  }

  // The query as Go's url.ParseQuery reads it: a parameter's value is all
  // after its first '=' (httplib's params end at the second, so a curl user's
  // `fieldSelector=metadata.name=a` would lose its value).
  static void read_query(const std::string& target, std::multimap<std::string, std::string>& query) {
    const std::size_t mark = target.find('?');
    if (mark == std::string::npos) return;
    std::size_t start = mark + 1;
    while (start <= target.size()) {
      std::size_t end = target.find('&', start);
      if (end == std::string::npos) end = target.size();
      const std::string_view pair(target.data() + start, end - start);
      if (!pair.empty()) {
        const std::size_t equals = pair.find('=');
        const std::string key(pair.substr(0, equals));
        const std::string value(equals == std::string_view::npos ? std::string_view()
                                                                 : pair.substr(equals + 1));
        query.emplace(httplib::detail::decode_url(key, true), httplib::detail::decode_url(value, true));
      }
      start = end + 1;
    }
  }

  static ApiRequest request_of(const httplib::Request& req, const Identity& identity) {
    ApiRequest request;
    request.method = req.method;
    request.path = req.path;
    read_query(req.target, request.query);
    for (const auto& [name, value] : req.headers) {
      std::string& slot = request.headers[lower(name)];
      slot = slot.empty() ? value : slot + "," + value;
    }
    request.user = identity.user;
    request.groups = identity.groups;
    return request;
  }

  // A complete (not streamed) answer.
  static void write_answer(httplib::Response& res, const ApiResponse& response) {
    res.status = response.status;
    for (const auto& [name, value] : response.headers) res.set_header(name, value);
    res.set_content(response.body, response.content_type.c_str());
  }

  void answer(const httplib::Request& req, httplib::Response& res, const ApiRequest& request) {
    ApiResponse response;
    try {
      response = cluster.handle(request);
    } catch (const std::exception& e) {
      set_status(res, 500, "InternalError", std::string("Internal error occurred: ") + e.what());
      return;
    } catch (...) {
      set_status(res, 500, "InternalError", "Internal error occurred");
      return;
    }
    res.status = response.status;
    for (const auto& [name, value] : response.headers) res.set_header(name, value);
    if (!response.stream) {
      res.set_content(response.body, response.content_type.c_str());
      return;
    }
    // A watch: no compression — cpp-httplib's compressor would hold events
    // back until the stream ends. The request object is not const in the
    // server (only its view here), and is read again when the response is
    // written, so dropping the header disables compression for this reply.
    auto& mutable_headers = const_cast<httplib::Headers&>(req.headers);  // NOLINT: see above
    mutable_headers.erase("Accept-Encoding");
    mutable_headers.erase("accept-encoding");
    std::function<bool(std::string&)> stream = response.stream;
    std::string first = response.body;  // anything the Cluster wants sent before the first event
    res.set_chunked_content_provider(
        response.content_type, [stream, first](std::size_t offset, httplib::DataSink& sink) mutable {
          if (offset == 0 && !first.empty()) {
            sink.write(first.data(), first.size());
            first.clear();
            return true;
          }
          if (!sink.is_writable()) return false;
          std::string chunk;
          bool more = false;
          try {
            more = stream(chunk);
          } catch (...) {
            more = false;
          }
          if (!chunk.empty() && !sink.write(chunk.data(), chunk.size())) return false;
          if (!more) sink.done();
          return true;
        });
  }
};

HttpsServer::HttpsServer(Cluster& cluster, const Pki& pki, ServerOptions options)
    : impl_(std::make_unique<Impl>(cluster, pki, std::move(options))) {
  Impl* impl = impl_.get();
  const int threads = std::max(4, impl->options.threads);
  // cpp-httplib owns the task queue it gets from this factory (its API takes a raw pointer).
  impl->server.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
  impl->server.set_keep_alive_max_count(10000);
  impl->server.set_keep_alive_timeout(30);
  // Responses go out as separate TLS records for headers and body; without
  // TCP_NODELAY the body waits for the client's delayed ACK (about 40 ms a
  // request). kube-apiserver (Go) sets it on every connection too.
  impl->server.set_tcp_nodelay(true);
  impl->server.set_read_timeout(30, 0);
  impl->server.set_write_timeout(30, 0);
  const auto handler = [impl](const httplib::Request& req, httplib::Response& res) { impl->serve(req, res, nullptr); };
  const auto with_body = [impl](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    impl->serve(req, res, &reader);
  };
  impl->server.Get(".*", handler);
  impl->server.Post(".*", with_body);
  impl->server.Put(".*", with_body);
  impl->server.Patch(".*", with_body);
  impl->server.Delete(".*", with_body);
  impl->server.Options(".*", handler);
}

HttpsServer::~HttpsServer() { stop(); }

bool HttpsServer::bind(std::string* error) {
  if (!impl_->tls_ok || !impl_->server.is_valid()) {
    *error = "cannot set up TLS with the sandbox certificates";
    return false;
  }
  if (impl_->options.port == 0) {
    impl_->bound_port = impl_->server.bind_to_any_port(impl_->options.host);
  } else {
    impl_->bound_port = impl_->server.bind_to_port(impl_->options.host, impl_->options.port) ? impl_->options.port : -1;
  }
  // cpp-httplib listens with a backlog of 5: a client opening a dozen
  // connections at once (mkq's parallel apply) overflowed it, and the kernel
  // dropped SYNs that the client then resent a second later. Listen again with
  // the system's maximum.
  if (impl_->bound_port > 0 && impl_->listen_socket >= 0) ::listen(impl_->listen_socket, SOMAXCONN);
  if (impl_->bound_port <= 0) {
    *error = impl_->options.port == 0
                 ? fmt::format("cannot listen on {}:a free port (is another sandbox running?)", impl_->options.host)
                 : fmt::format("cannot listen on {}:{} (is another sandbox running?)", impl_->options.host,
                               impl_->options.port);
    return false;
  }
  return true;
}

int HttpsServer::port() const { return impl_->bound_port; }

void HttpsServer::start() {
  if (impl_->thread.joinable()) return;
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  // Return once the accept loop runs, so callers can connect right away.
  for (int i = 0; i < 1000 && !impl_->server.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void HttpsServer::stop() {
  if (!impl_) return;
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace mkq::sandbox
