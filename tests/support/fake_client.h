// An in-memory Kubernetes API for unit tests: the kinds mkq applies, server-side
// apply by whole-object replacement of the fields a manager sent (enough for
// ownership and removal of fields mkq stops sending), uid, resourceVersion,
// generation, finalizers (a delete of an object with finalizers only sets
// deletionTimestamp; finish_deletion() plays the controller), and failure
// injection; through request(), discovery documents and PATCH of stored objects
// (JSON merge patch; a strategic merge patch is merged the same way, lists
// replaced, which is what the fake's kinds need). Thread-safe.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/kube/client.h"

namespace mkq::kube {

class FakeClient : public Client {
 public:
  explicit FakeClient(std::string server = "https://fake.invalid");

  // Serves every kind mkq renders (core, RBAC, Kueue v1beta2) by default; more:
  void serve(const ResourceType& type);
  void stop_serving(const std::string& api_version, const std::string& kind);

  // Direct access for tests (no stats, no failures): an object as stored, or
  // written as another actor would (manager = field manager recorded).
  std::optional<Json> object(const std::string& api_version, const std::string& kind,
                             const std::string& namespace_name, const std::string& name) const;
  void put(const Json& object, const std::string& manager = "kubectl");
  // Removes remaining finalizers of objects being deleted, deleting them.
  void finish_deletion();
  std::size_t size() const;

  // Failure injection. A predicate sees "VERB PATH" ("PATCH /apis/.../clusterqueues/a")
  // and returns an Error to answer instead, or nullopt to proceed.
  void fail_when(std::function<std::optional<Error>(const std::string& call)> predicate);
  void set_unreachable(bool unreachable);  // every call: status 0, ConnectionFailed

  // Client
  std::string server() const override;
  Result<ResourceType> resource_for(const std::string& api_version, const std::string& kind) override;
  Result<Json> get(const ResourceType& type, const std::string& namespace_name, const std::string& name) override;
  Result<ObjectList> list(const ResourceType& type, const ListOptions& options) override;
  Result<Json> apply(const ResourceType& type, const Json& object, const ApplyOptions& options) override;
  // create and update keep no managedFields entry of their own (Leases and
  // mkq's state Secrets, which are what they serve, need none).
  Result<Json> create(const ResourceType& type, const Json& object) override;
  Result<Json> update(const ResourceType& type, const Json& object) override;
  Result<Json> remove(const ResourceType& type, const std::string& namespace_name, const std::string& name,
                      const DeleteOptions& options) override;
  Result<void> watch(const ResourceType& type, const WatchOptions& options,
                     const std::function<bool(const WatchEvent&)>& on_event) override;
  Result<Json> request(const std::string& method, const std::string& path, const Json* body,
                       const std::string& content_type) override;
  ClientStats stats() const override;

  // Every call made, as "VERB PATH", in order (for asserting the number of LISTs).
  std::vector<std::string> calls() const;

 private:
  struct Stored;
  std::optional<Error> injected(const std::string& call);
  // request()'s answers, under mutex_.
  std::optional<Json> discovery(const std::string& path) const;
  Result<Json> merge_patch(const std::string& path, const Json& patch);

  mutable std::mutex mutex_;
  std::string server_;
  std::map<std::string, ResourceType> types_;   // "apiVersion/kind" -> type
  std::map<std::string, Json> objects_;         // "apiVersion/kind/namespace/name" -> object
  std::map<std::string, std::map<std::string, Json>> owned_;  // object key -> manager -> fields it sent
  std::function<std::optional<Error>(const std::string&)> fail_when_;
  bool unreachable_ = false;
  long long resource_version_ = 1;
  long long uid_counter_ = 0;
  ClientStats stats_;
  std::vector<std::string> calls_;
};

}  // namespace mkq::kube
