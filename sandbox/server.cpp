// HTTPS transport of the sandbox (see server.h): OpenSSL on blocking
// sockets, one thread per connection, HTTP/1.1 read and written by
// sandbox/http1.h. A request's head is read once from a buffered SSL_read;
// its body only after authentication; the whole answer (status line, headers,
// body) goes out in one SSL_write.
#include "sandbox/server.h"

#include "sandbox/http1.h"
#include "sandbox/limits.h"
#include "sandbox/pki.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <ctime>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <string_view>
#include <thread>

#include <fmt/format.h>

namespace mkq::sandbox {
namespace {

// How long a read (a keep-alive connection's next request included) or a
// write may block before the connection is closed (cpp-httplib's 30 s before).
constexpr int kIoTimeoutSeconds = 30;
constexpr std::size_t kReadSize = 16 * 1024;  // one TLS record's plaintext at most
constexpr std::size_t kMaxChunkLineBytes = 4096;
constexpr std::chrono::milliseconds kLinger{250};
constexpr std::size_t kLingerBytes = 256 * 1024;

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

// One answer as the transport writes it.
struct Answer {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // in the order written
  std::string content_type;                                  // "": no Content-Type
  std::string body;
  std::function<bool(std::string&)> stream;  // set: a chunked stream follows body (ApiResponse::stream)
  bool close = false;                        // Connection: close after the answer
  bool drop = false;                         // no answer at all: the connection is shut

  void set_header(std::string name, std::string value) { headers.emplace_back(std::move(name), std::move(value)); }
  void set_status(int code, const std::string& reason, const std::string& message) {
    status = code;
    body = status_json(code, reason, message);
    content_type = "application/json";
  }
  // A complete (not streamed) answer of the cluster.
  void set(const ApiResponse& response) {
    status = response.status;
    for (const auto& [name, value] : response.headers) set_header(name, value);
    body = response.body;
    content_type = response.content_type;
  }
};

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

// The user of a verified client certificate (the TLS handshake already
// checked it against the sandbox CA): CN the user, every O a group. Read once
// per connection: renegotiation is off, so the certificate cannot change.
std::optional<Identity> certificate_identity(SSL* ssl) {
  const X509* peer = SSL_get0_peer_certificate(ssl);
  if (peer == nullptr || SSL_get_verify_result(ssl) != X509_V_OK) return std::nullopt;
  const X509_NAME* subject = X509_get_subject_name(peer);
  const std::vector<std::string> names = name_entries(subject, NID_commonName);
  if (names.empty() || names.front().empty()) return std::nullopt;
  Identity identity{names.front(), name_entries(subject, NID_organizationName)};
  if (std::find(identity.groups.begin(), identity.groups.end(), kAuthenticatedGroup) == identity.groups.end()) {
    identity.groups.emplace_back(kAuthenticatedGroup);
  }
  return identity;
}

// Who sent a request: the connection's client certificate, else a bearer
// token the cluster accepts (a service-account token,
// Cluster::authenticate_token). Like kube-apiserver, every authenticated user
// is also in system:authenticated, and a request without credentials is
// system:anonymous in system:unauthenticated (RBAC decides what it may do). A
// present but invalid token is never anonymous access: nullopt, the
// transport answers 401.
std::optional<Identity> authenticate(const std::optional<Identity>& certified, const std::string& authorization,
                                     Cluster& cluster) {
  if (certified) return certified;
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

bool is_health_path(const std::string& path) {
  return path == "/healthz" || path == "/livez" || path == "/readyz" || path == "/version" ||
         path.rfind("/healthz/", 0) == 0 || path.rfind("/livez/", 0) == 0 || path.rfind("/readyz/", 0) == 0;
}

// The methods served; any other is answered 400, as cpp-httplib did.
bool is_served_method(const std::string& method) {
  return method == "GET" || method == "HEAD" || method == "POST" || method == "PUT" || method == "PATCH" ||
         method == "DELETE" || method == "OPTIONS";
}

// The TLS context: the server certificate, and client certificates requested
// and verified against the sandbox CA but not required (anonymous requests
// must get an HTTP 401, not a failed handshake). AES-GCM first (AES-NI),
// never renegotiation, no compression.
bool setup_tls(SSL_CTX& ctx, const Pki& pki) {
  const auto cert = read_cert(pki.server_cert);
  const auto key = read_key(pki.server_key);
  const auto ca = read_cert(pki.ca_cert);
  if (!cert || !key || !ca) return false;
  SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
  SSL_CTX_set_options(&ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_SESSION_RESUMPTION_ON_RENEGOTIATION |
                                SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  if (SSL_CTX_set_ciphersuites(&ctx, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256") !=
      1) {
    return false;
  }
  if (SSL_CTX_set_cipher_list(&ctx, "ECDHE+AESGCM:ECDHE+CHACHA20:HIGH:!aNULL:!MD5:!RC4:!3DES") != 1) return false;
  SSL_CTX_set_mode(&ctx, SSL_MODE_AUTO_RETRY);
  SSL_CTX_set_read_ahead(&ctx, 1);  // a whole socket read at once, not record by record
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
  // One TLS 1.3 session ticket after the handshake, as Go's servers
  // (kube-apiserver) send, not OpenSSL's two: making each decodes the
  // client's certificate again (OpenSSL 3 copies a session through its
  // encoding), a large part of the sandbox's CPU in a many-cluster plan.
  // None at all would cost more than it saves: the ticket also acknowledges
  // the client's Finished at once, and without it a client with Nagle's
  // algorithm on (cpp-httplib's default, the MultiKueueCluster probes') holds
  // its first request for the server's delayed ACK, 40 ms.
  if (SSL_CTX_set_num_tickets(&ctx, 1) != 1) return false;
  return true;
}

// The Date header's value, formatted once a second per thread.
const std::string& date_now() {
  thread_local std::time_t formatted = 0;
  thread_local std::string text;
  const std::time_t now = std::time(nullptr);
  if (now != formatted) {
    formatted = now;
    text = http1::http_date(now);
  }
  return text;
}

// One client's TLS connection on a blocking socket, with the bytes read but
// not yet consumed.
class Connection {
 public:
  Connection(int fd, SSL* ssl) : fd_(fd), ssl_(ssl) {}
  ~Connection() { SSL_free(ssl_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  bool handshake() { return SSL_accept(ssl_) == 1; }
  // Sends close_notify once the answer is out (not after a dropped request).
  void close_tls() { SSL_shutdown(ssl_); }
  // After an answer that closes the connection: what the client still sends
  // (the rest of a refused body or head) is read and dropped for a moment, at
  // most kLingerBytes, so that closing with unread data does not reset the
  // connection before the client has read the answer (Go's server waits
  // likewise after closing its side).
  void linger() {
    ::shutdown(fd_, SHUT_WR);
    timeval tick{0, 50 * 1000};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick);
    const auto until = std::chrono::steady_clock::now() + kLinger;
    std::size_t dropped = 0;
    char block[kReadSize];
    while (dropped < kLingerBytes && std::chrono::steady_clock::now() < until) {
      const ssize_t read = ::recv(fd_, block, sizeof block, 0);
      if (read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return;
      if (read > 0) dropped += static_cast<std::size_t>(read);
    }
  }

  std::string_view buffered() const { return std::string_view(in_).substr(start_); }
  void consume(std::size_t count) {
    start_ += count;
    if (start_ >= in_.size()) {
      in_.clear();
      start_ = 0;
    }
  }
  // Reads what the socket has (one buffered SSL_read); false at the end, on
  // an error or after kIoTimeoutSeconds.
  bool fill() {
    if (start_ > 0 && start_ >= in_.size() / 2) {
      in_.erase(0, start_);
      start_ = 0;
    }
    char block[kReadSize];
    const int read = SSL_read(ssl_, block, sizeof block);
    if (read <= 0) {
      ERR_clear_error();
      return false;
    }
    in_.append(block, static_cast<std::size_t>(read));
    return true;
  }
  // Appends the next `count` bytes to *out.
  bool read_exact(std::size_t count, std::string* out) {
    while (count > 0) {
      if (buffered().empty() && !fill()) return false;
      const std::size_t take = std::min(count, buffered().size());
      out->append(buffered().substr(0, take));
      consume(take);
      count -= take;
    }
    return true;
  }
  // The next line without its CRLF (or LF); false past `max` bytes.
  bool read_line(std::string* line, std::size_t max) {
    std::size_t end;
    while ((end = buffered().find('\n')) == std::string_view::npos) {
      if (buffered().size() > max || !fill()) return false;
    }
    std::string_view text = buffered().substr(0, end);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    line->assign(text);
    consume(end + 1);
    return true;
  }
  bool write(std::string_view bytes) {
    if (bytes.empty()) return true;
    const int written = SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size()));
    if (written <= 0) ERR_clear_error();
    return written == static_cast<int>(bytes.size());
  }

 private:
  int fd_;
  SSL* ssl_;
  std::string in_;
  std::size_t start_ = 0;
};

// A chunk of a chunked stream, framed.
void append_chunk(std::string& out, std::string_view data) {
  if (data.empty()) return;
  fmt::format_to(std::back_inserter(out), "{:x}\r\n", data.size());
  out.append(data);
  out.append("\r\n");
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
  SSL_CTX* ctx = nullptr;
  bool tls_ok = false;
  int bound_port = -1;
  int listen_socket = -1;
  std::thread acceptor;

  // Connections being served, and their sockets (shut by stop()).
  std::mutex mutex;
  std::condition_variable changed;
  int active = 0;
  std::set<int> sockets;
  bool stopping = false;

  Impl(Cluster& c, const Pki& pki, ServerOptions o) : cluster(c), options(std::move(o)) {
    ctx = SSL_CTX_new(TLS_server_method());
    tls_ok = ctx != nullptr && setup_tls(*ctx, pki);
  }
  ~Impl() {
    if (listen_socket >= 0) ::close(listen_socket);
    SSL_CTX_free(ctx);
  }

  // Connections served at once; more wait in the listen backlog, as with a pool of `threads`.
  int max_connections() const { return std::max(4, options.threads); }

  void accept_loop() {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [this] { return stopping || active < max_connections(); });
        if (stopping) return;
      }
      const int fd = ::accept4(listen_socket, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (stopping_now()) return;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        continue;
      }
      {
        const std::lock_guard<std::mutex> lock(mutex);
        if (stopping) {
          ::close(fd);
          return;
        }
        ++active;
        sockets.insert(fd);
      }
      try {
        std::thread([this, fd] {
          serve_connection(fd);
          finished(fd);
        }).detach();
      } catch (const std::system_error&) {
        finished(fd);  // no thread to be had: the client sees the connection closed
      }
    }
  }

  bool stopping_now() {
    const std::lock_guard<std::mutex> lock(mutex);
    return stopping;
  }

  // The connection's socket is closed under the lock, so stop() never shuts
  // a descriptor number already reused. Nothing of this is touched after the
  // lock is released: stop() may destroy it then.
  void finished(int fd) {
    const std::lock_guard<std::mutex> lock(mutex);
    sockets.erase(fd);
    ::close(fd);
    --active;
    changed.notify_all();
  }

  void serve_connection(int fd) {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // as Go's servers: answers never wait for an ACK
    timeval timeout{kIoTimeoutSeconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    SSL* ssl = SSL_new(ctx);
    if (ssl == nullptr) return;
    Connection connection(fd, ssl);
    if (SSL_set_fd(ssl, fd) != 1 || !connection.handshake()) {
      ERR_clear_error();
      return;
    }
    const std::optional<Identity> certified = certificate_identity(ssl);
    for (;;) {
      http1::RequestHead head;
      std::size_t consumed = 0;
      http1::HeadStatus status;
      while ((status = http1::parse_head(connection.buffered(), &head, &consumed)) == http1::HeadStatus::kIncomplete) {
        if (!connection.fill()) return;  // the client left (or was idle too long)
        head = http1::RequestHead();
      }
      if (status != http1::HeadStatus::kComplete) {
        const bool too_large = status == http1::HeadStatus::kTooLarge;
        Answer refusal;
        refusal.status = too_large ? 431 : 400;
        refusal.content_type = "text/plain; charset=utf-8";
        refusal.body = too_large ? "431 Request Header Fields Too Large" : "400 Bad Request";
        refusal.close = true;
        if (send(connection, head, refusal)) {
          connection.close_tls();
          connection.linger();
        }
        return;
      }
      connection.consume(consumed);
      Answer answer;
      try {
        answer = serve(connection, head, certified);
      } catch (const std::exception& e) {
        answer = Answer();
        answer.set_status(500, "InternalError", std::string("Internal error occurred: ") + e.what());
        answer.close = true;
      }
      if (answer.drop) {
        ::shutdown(fd, SHUT_RDWR);  // no answer, not even close_notify
        return;
      }
      if (!head.keep_alive()) answer.close = true;
      if (!send(connection, head, answer)) return;  // the connection broke
      if (answer.close) {
        connection.close_tls();
        connection.linger();
        return;
      }
    }
  }

  // A fault to inject for this request, if any: true when answer is set.
  bool inject_fault(const http1::RequestHead& head, Answer& answer) {
    const FaultOptions& faults = options.faults;
    if (!faults.any() || is_health_path(head.path)) return false;
    if (!faults.verbs.empty() &&
        std::find(faults.verbs.begin(), faults.verbs.end(), lower(head.method)) == faults.verbs.end()) {
      return false;
    }
    if (faults.latency_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(faults.latency_ms));
    thread_local std::mt19937 random{std::random_device{}()};
    std::uniform_real_distribution<double> draw(0.0, 1.0);
    const double roll = draw(random);
    if (roll < faults.rate_drop) {
      answer.drop = true;  // the connection is shut without an answer
      return true;
    }
    const double rest = roll - faults.rate_drop;
    if (rest < faults.rate_500 && rest >= 0.0) {
      answer.set_status(500, "InternalError", "Internal error occurred: injected fault");
      return true;
    }
    if (rest >= 0.0 && rest < faults.rate_500 + faults.rate_429) {
      answer.set_status(429, "TooManyRequests",
                        "the server has received too many requests and has asked us to try "
                        "again later (injected fault)");
      answer.set_header("Retry-After", "1");
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
  Answer serve(Connection& connection, const http1::RequestHead& head, const std::optional<Identity>& certified) {
    Answer res;
    res.set_header("Cache-Control", "no-cache, private");
    const std::string& transfer_encoding = head.header("transfer-encoding");
    const bool chunked = lower(transfer_encoding).find("chunked") != std::string::npos;
    std::optional<std::size_t> length;
    if (!chunked && head.headers.count("content-length") != 0) {
      length = http1::parse_content_length(head.header("content-length"));
      if (!length) {
        res.set_status(400, "BadRequest", "the request's Content-Length is not a number");
        res.close = true;
        return res;
      }
    }
    if (!transfer_encoding.empty() && !chunked) {
      res.set_status(501, "NotImplemented", "unsupported transfer encoding: " + transfer_encoding);
      res.close = true;
      return res;
    }
    const bool has_body = chunked || length.value_or(0) > 0;
    const auto unread = [&res, has_body] {
      if (has_body) res.close = true;
    };
    if (!is_served_method(head.method)) {
      res = Answer();
      res.status = 400;
      res.close = true;
      return res;
    }
    const std::optional<Identity> identity = authenticate(certified, head.header("authorization"), cluster);
    if (!identity) {
      res.set_status(401, "Unauthorized", "Unauthorized");
      unread();
      return res;
    }
    ApiRequest request = request_of(head, *identity);
    std::variant<ApiRequest, ApiResponse> as;
    try {
      as = cluster.impersonate(request);
    } catch (const std::exception& e) {
      res.set_status(500, "InternalError", std::string("Internal error occurred: ") + e.what());
      unread();
      return res;
    }
    if (auto* refused = std::get_if<ApiResponse>(&as)) {
      res.set(*refused);
      unread();
      return res;
    }
    request = std::move(std::get<ApiRequest>(as));
    const Flow flow = classify_flow(request.user, request.groups, head.path);
    for (const auto& [name, value] : flow_headers(flow)) res.set_header(name, value);
    const FlowControl::Seat seat = flow_control.admit(flow);  // held while the request is served
    if (seat.rejected()) {
      res.status = 429;
      res.set_header("Retry-After", kRetryAfterSeconds);
      res.set_header("X-Content-Type-Options", "nosniff");
      res.body = kTooManyRequestsBody;
      res.content_type = "text/plain; charset=utf-8";
      unread();
      return res;
    }
    if (has_body && !read_body(connection, head, chunked, length, res, request)) return res;
    if (inject_fault(head, res)) return res;
    answer(res, request);
    return res;
  }

  // Reads the body into request.body; false when res is answered instead
  // (the connection then closes: what is left of the body is never read).
  bool read_body(Connection& connection, const http1::RequestHead& head, bool chunked,
                 std::optional<std::size_t> length, Answer& res, ApiRequest& request) {
    const auto refuse_too_large = [&] {
      const std::optional<ApiResponse> denied = cluster.authorize(request);
      res.set(denied ? *denied : request_entity_too_large());
      res.close = true;
      return false;
    };
    if (length && *length > kMaxRequestBodyBytes) return refuse_too_large();
    // A client waiting for leave to send its body (curl does for large ones) gets it now.
    if (head.minor_version == 1 && lower(head.header("expect")) == "100-continue" && connection.buffered().empty() &&
        !connection.write("HTTP/1.1 100 Continue\r\n\r\n")) {
      res.drop = true;
      return false;
    }
    std::string body;
    bool too_large = false;
    bool read = true;
    if (!chunked) {
      body.reserve(*length);
      read = connection.read_exact(*length, &body);
    } else {
      std::string line;
      for (;;) {
        std::optional<std::size_t> size;
        read = connection.read_line(&line, kMaxChunkLineBytes) && (size = http1::parse_chunk_size(line)).has_value();
        if (!read) break;
        if (*size == 0) {  // the last chunk; then trailers up to an empty line
          while ((read = connection.read_line(&line, kMaxChunkLineBytes)) && !line.empty()) {
          }
          break;
        }
        if (body.size() + *size > kMaxRequestBodyBytes) {
          too_large = true;
          break;
        }
        read = connection.read_exact(*size, &body) && connection.read_line(&line, 2) && line.empty();
        if (!read) break;
      }
    }
    if (too_large) return refuse_too_large();
    if (!read) {
      res.set_status(400, "BadRequest", "the body of the request could not be read");
      res.close = true;
      return false;
    }
    request.body = std::move(body);
    return true;
  }

  static ApiRequest request_of(const http1::RequestHead& head, const Identity& identity) {
    ApiRequest request;
    request.method = head.method;
    request.path = head.path;
    http1::parse_query(head.target, request.query);
    request.headers = head.headers;
    request.user = identity.user;
    request.groups = identity.groups;
    return request;
  }

  void answer(Answer& res, const ApiRequest& request) {
    ApiResponse response;
    try {
      response = cluster.handle(request);
    } catch (const std::exception& e) {
      res.set_status(500, "InternalError", std::string("Internal error occurred: ") + e.what());
      return;
    } catch (...) {
      res.set_status(500, "InternalError", "Internal error occurred");
      return;
    }
    res.status = response.status;
    for (auto& [name, value] : response.headers) res.set_header(name, std::move(value));
    res.body = std::move(response.body);
    res.content_type = std::move(response.content_type);
    res.stream = std::move(response.stream);  // a watch: anything in body goes before the first event
  }

  // Writes the answer: status line, headers and body in one SSL_write; a
  // stream's chunks each in one more. False when the connection broke.
  bool send(Connection& connection, const http1::RequestHead& head, Answer& answer) {
    std::string out;
    const bool head_only = head.method == "HEAD";
    const bool bodyless = answer.status < 200 || answer.status == 204 || answer.status == 304;
    bool compressed = false;
    if (!answer.stream && !bodyless && answer.body.size() >= http1::kGzipThresholdBytes &&
        http1::accepts_gzip(head.header("accept-encoding"))) {
      std::string packed = http1::gzip(answer.body);
      if (!packed.empty()) {
        answer.body = std::move(packed);
        compressed = true;
      }
    }
    out.reserve(512 + (head_only ? 0 : answer.body.size()));
    fmt::format_to(std::back_inserter(out), "HTTP/1.1 {} {}\r\n", answer.status, http1::reason_phrase(answer.status));
    for (const auto& [name, value] : answer.headers) {
      out.append(name).append(": ").append(value).append("\r\n");
    }
    if (!answer.content_type.empty() && !bodyless) out.append("Content-Type: ").append(answer.content_type).append("\r\n");
    if (compressed) out.append("Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n");
    out.append("Date: ").append(date_now()).append("\r\n");
    if (answer.close) out.append("Connection: close\r\n");
    if (answer.stream) {
      // A watch: never compressed (gzip would hold events back).
      out.append("Transfer-Encoding: chunked\r\n\r\n");
      if (head_only) return connection.write(out);
      append_chunk(out, answer.body);
      if (!connection.write(out)) return false;
      for (;;) {
        if (stopping_now()) return false;
        std::string chunk;
        bool more = false;
        try {
          more = answer.stream(chunk);
        } catch (...) {
          more = false;
        }
        std::string framed;
        append_chunk(framed, chunk);
        if (!more) framed.append("0\r\n\r\n");
        if (!connection.write(framed)) return false;
        if (!more) return true;
      }
    }
    if (!bodyless) fmt::format_to(std::back_inserter(out), "Content-Length: {}\r\n", answer.body.size());
    out.append("\r\n");
    if (!head_only && !bodyless) out.append(answer.body);
    return connection.write(out);
  }
};

HttpsServer::HttpsServer(Cluster& cluster, const Pki& pki, ServerOptions options)
    : impl_(std::make_unique<Impl>(cluster, pki, std::move(options))) {
  // A write to a connection the client closed must fail, not kill the
  // process (cpp-httplib's server ignored SIGPIPE the same way).
  std::signal(SIGPIPE, SIG_IGN);
}

HttpsServer::~HttpsServer() { stop(); }

bool HttpsServer::bind(std::string* error) {
  Impl& impl = *impl_;
  if (!impl.tls_ok) {
    *error = "cannot set up TLS with the sandbox certificates";
    return false;
  }
  const auto refuse = [&] {
    *error = impl.options.port == 0
                 ? fmt::format("cannot listen on {}:a free port (is another sandbox running?)", impl.options.host)
                 : fmt::format("cannot listen on {}:{} (is another sandbox running?)", impl.options.host,
                               impl.options.port);
    return false;
  };
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (::getaddrinfo(impl.options.host.c_str(), std::to_string(impl.options.port).c_str(), &hints, &found) != 0) {
    return refuse();
  }
  for (const addrinfo* at = found; at != nullptr && impl.listen_socket < 0; at = at->ai_next) {
    const int fd = ::socket(at->ai_family, at->ai_socktype | SOCK_CLOEXEC, at->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    // The system's maximum backlog: a client opening a dozen connections at
    // once (mkq's parallel apply) must not have its SYNs dropped.
    if (::bind(fd, at->ai_addr, at->ai_addrlen) == 0 && ::listen(fd, SOMAXCONN) == 0) {
      impl.listen_socket = fd;
    } else {
      ::close(fd);
    }
  }
  ::freeaddrinfo(found);
  if (impl.listen_socket < 0) return refuse();
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  if (::getsockname(impl.listen_socket, reinterpret_cast<sockaddr*>(&address), &size) != 0) return refuse();
  impl.bound_port = address.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port)
                                                   : ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port);
  return true;
}

int HttpsServer::port() const { return impl_->bound_port; }

void HttpsServer::start() {
  if (impl_->acceptor.joinable() || impl_->listen_socket < 0) return;
  // The socket already listens (bind): clients can connect as soon as this returns.
  impl_->acceptor = std::thread([this] { impl_->accept_loop(); });
}

void HttpsServer::stop() {
  if (!impl_) return;
  Impl& impl = *impl_;
  {
    const std::lock_guard<std::mutex> lock(impl.mutex);
    impl.stopping = true;
    // Wakes every connection's blocked read or write; a watch ends at its next event or tick.
    for (const int fd : impl.sockets) ::shutdown(fd, SHUT_RDWR);
  }
  impl.changed.notify_all();
  if (impl.listen_socket >= 0) ::shutdown(impl.listen_socket, SHUT_RDWR);  // wakes accept()
  if (impl.acceptor.joinable()) impl.acceptor.join();
  if (impl.listen_socket >= 0) ::close(impl.listen_socket);  // new connections are refused from now on
  impl.listen_socket = -1;
  std::unique_lock<std::mutex> lock(impl.mutex);
  impl.changed.wait(lock, [&impl] { return impl.active == 0; });
}

}  // namespace mkq::sandbox
