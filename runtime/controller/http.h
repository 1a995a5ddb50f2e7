// /healthz, /readyz and /metrics over plain HTTP (in the cluster a Service
// and the kubelet's probes reach it; nothing secret is served). The answers
// come from the callbacks; the server runs in a thread of its own.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "base/result.h"

namespace httplib {
class Server;
}

namespace mkq::controller {

// A probe's answer: 200 when ok, else 503; the body says why.
struct Probe {
  bool ok = true;
  std::string text;
};

struct Endpoints {
  std::function<Probe()> healthz, readyz;
  std::function<std::string()> metrics;  // the Prometheus text exposition
};

class HttpServer {
 public:
  explicit HttpServer(Endpoints endpoints);
  ~HttpServer();  // stops it
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds ADDR:PORT (":8080" is every address; port 0 picks a free one) and
  // serves in a thread. An Error (ConfigError) when the address is malformed
  // or cannot be bound.
  base::Result<void> start(const std::string& listen);
  void stop();
  // The address it serves, "127.0.0.1:34567" (the port chosen for port 0).
  const std::string& address() const { return address_; }

 private:
  Endpoints endpoints_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::string address_;
};

// Where to listen: an address ("0.0.0.0" for every address) and a port (0: any).
struct Listen {
  std::string host;
  int port = 0;
};
// Splits "ADDR:PORT" (":PORT": every address; "[::1]:PORT" too); a ConfigError
// naming --listen when malformed.
base::Result<Listen> parse_listen(const std::string& listen);

}  // namespace mkq::controller
