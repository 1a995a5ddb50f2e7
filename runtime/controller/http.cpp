#include "runtime/controller/http.h"

#include <httplib.h>

#include <cctype>

#include <fmt/format.h>

namespace mkq::controller {

base::Result<Listen> parse_listen(const std::string& listen) {
  const base::Error malformed =
      base::Error::config("--listen " + listen + ": not an ADDR:PORT such as :8080 or 127.0.0.1:0");
  const std::size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon + 1 == listen.size() || listen.size() - colon > 6) return malformed;
  int value = 0;
  for (std::size_t i = colon + 1; i < listen.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(listen[i]))) return malformed;
    value = value * 10 + (listen[i] - '0');
  }
  if (value > 65535) return malformed;
  std::string address = listen.substr(0, colon);
  if (address.size() >= 2 && address.front() == '[' && address.back() == ']')
    address = address.substr(1, address.size() - 2);
  return Listen{address.empty() ? "0.0.0.0" : address, value};
}

HttpServer::HttpServer(Endpoints endpoints) : endpoints_(std::move(endpoints)) {}

HttpServer::~HttpServer() { stop(); }

base::Result<void> HttpServer::start(const std::string& listen) {
  base::Result<Listen> parsed = parse_listen(listen);
  if (!parsed) return std::move(parsed.error());
  const std::string& host = parsed->host;
  int port = parsed->port;
  server_ = std::make_unique<httplib::Server>();
  const auto probe = [](const std::function<Probe()>& check) {
    return [check](const httplib::Request&, httplib::Response& response) {
      const Probe answer = check();
      response.status = answer.ok ? 200 : 503;
      response.set_content(answer.text + "\n", "text/plain; charset=utf-8");
    };
  };
  server_->Get("/healthz", probe(endpoints_.healthz));
  server_->Get("/readyz", probe(endpoints_.readyz));
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    response.set_content(endpoints_.metrics(), "text/plain; version=0.0.4; charset=utf-8");
  });
  if (port == 0) {
    port = server_->bind_to_any_port(host);
    if (port < 0) port = 0;
  } else if (!server_->bind_to_port(host, port)) {
    port = 0;
  }
  if (port == 0) {
    server_.reset();
    return base::Error::config("--listen " + listen + ": cannot listen there (in use, or not an address of this host)");
  }
  address_ = fmt::format("{}:{}", host, port);
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  return {};
}

void HttpServer::stop() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
  server_.reset();
}

}  // namespace mkq::controller
