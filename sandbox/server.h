// The sandbox's HTTPS transport: one server per simulated cluster, on
// 127.0.0.1. It authenticates each request (client certificate signed by the
// sandbox CA: CN is the user, every O a group; or a service-account bearer
// token the Cluster accepts), answers anonymous ones with a 401 Status, turns the rest into
// an ApiRequest for Cluster::handle and writes back the ApiResponse, a watch
// as a chunked stream. Optional fault injection for tests and benchmarks.
// HTTP/1.1 over OpenSSL, a thread per connection (server.cpp, http1.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sandbox/api.h"
#include "sandbox/flow_control.h"
#include "sandbox/pki.h"

namespace mkq::sandbox {

// Faults injected before a request reaches the Cluster. Health and version
// endpoints (/healthz, /livez, /readyz, /version) are never faulted.
struct FaultOptions {
  int latency_ms = 0;      // added to every faulted request
  double rate_500 = 0.0;   // fraction answered 500 InternalError
  double rate_429 = 0.0;   // fraction answered 429 TooManyRequests, Retry-After: 1
  double rate_drop = 0.0;  // fraction whose connection is closed without any answer (`--fault-drop-rate`)
  std::vector<std::string> verbs;  // HTTP methods, lower-case ("get", "post", ...); empty: all

  bool any() const { return latency_ms > 0 || rate_500 > 0.0 || rate_429 > 0.0 || rate_drop > 0.0; }
};

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 0;        // 0: any free port
  // Connections served at once, a thread each (16 clients with keep-alive
  // connections plus their watches); more wait in the listen backlog.
  int threads = 64;
  FaultOptions faults;
  FlowControlOptions flow_control;  // API Priority and Fairness (flow_control.h)
};

// The authenticated caller of a request.
struct Identity {
  std::string user;
  std::vector<std::string> groups;
};

class HttpsServer {
 public:
  // cluster must outlive the server.
  HttpsServer(Cluster& cluster, const Pki& pki, ServerOptions options);
  ~HttpsServer();
  HttpsServer(const HttpsServer&) = delete;
  HttpsServer& operator=(const HttpsServer&) = delete;

  // Binds options.port (or a free one); false with *error when the TLS setup
  // fails or the port is taken.
  bool bind(std::string* error);
  int port() const;
  // Serves in a background thread until stop() (or destruction).
  void start();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Parses the faults flag value "get,post" into FaultOptions::verbs.
std::vector<std::string> split_list(const std::string& text);

}  // namespace mkq::sandbox
