// A kube::Client that only reads: resource_for, get, list and GET requests go
// to the wrapped client; apply, create, update, remove, watch and any other
// request answer an Error (status 0, reason "ReadOnly") without reaching the
// cluster. Preflight's checks see clusters only through it.
#pragma once

#include "runtime/kube/client.h"

namespace mkq::preflight {

class ReadOnlyClient : public kube::Client {
 public:
  explicit ReadOnlyClient(kube::Client& client) : client_(client) {}

  std::string server() const override { return client_.server(); }
  kube::Result<kube::ResourceType> resource_for(const std::string& api_version, const std::string& kind) override {
    return client_.resource_for(api_version, kind);
  }
  kube::Result<kube::Json> get(const kube::ResourceType& type, const std::string& namespace_name,
                               const std::string& name) override {
    return client_.get(type, namespace_name, name);
  }
  kube::Result<kube::ObjectList> list(const kube::ResourceType& type, const kube::ListOptions& options) override {
    return client_.list(type, options);
  }
  kube::Result<kube::Json> apply(const kube::ResourceType&, const kube::Json&, const kube::ApplyOptions&) override {
    return refused();
  }
  kube::Result<kube::Json> create(const kube::ResourceType&, const kube::Json&) override { return refused(); }
  kube::Result<kube::Json> update(const kube::ResourceType&, const kube::Json&) override { return refused(); }
  kube::Result<kube::Json> remove(const kube::ResourceType&, const std::string&, const std::string&,
                                  const kube::DeleteOptions&) override {
    return refused();
  }
  kube::Result<void> watch(const kube::ResourceType&, const kube::WatchOptions&,
                           const std::function<bool(const kube::WatchEvent&)>&) override {
    return kube::Error{0, "ReadOnly", "preflight only reads", nullptr};
  }
  kube::Result<kube::Json> request(const std::string& method, const std::string& path, const kube::Json* body,
                                   const std::string& content_type) override {
    if (method != "GET") return refused();
    return client_.request(method, path, body, content_type);
  }
  kube::ClientStats stats() const override { return client_.stats(); }

 private:
  static kube::Error refused() { return kube::Error{0, "ReadOnly", "preflight only reads", nullptr}; }

  kube::Client& client_;
};

}  // namespace mkq::preflight
