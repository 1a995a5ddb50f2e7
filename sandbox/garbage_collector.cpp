// The garbage collector (garbage_collector.h). Its decisions are those of
// kube's attemptToDeleteItem (solid, dangling and waiting owners),
// attemptToOrphan and processDeletingDependentsItem.
#include "sandbox/garbage_collector.h"

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "sandbox/json_access.h"
#include "sandbox/request.h"
#include "sandbox/verbs.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kOrphan = "orphan";
constexpr const char* kForeground = "foregroundDeletion";

std::string id_of(const ObjectKey& key) {
  return key.group + '\x1f' + key.resource + '\x1f' + key.ns + '\x1f' + key.name;
}

std::string uid_of(const json& object) {
  const json& meta = member(object, "metadata");
  return text_at(meta, "uid");
}

// The object's ownerReferences that are objects (empty when it has none).
std::vector<json> owner_references(const json& object) {
  std::vector<json> refs;
  const json& meta = member(object, "metadata");
  if (!meta.is_object() || !meta.contains("ownerReferences") || !meta["ownerReferences"].is_array()) return refs;
  for (const json& ref : meta["ownerReferences"]) {
    if (ref.is_object()) refs.push_back(ref);
  }
  return refs;
}

bool has_finalizer(const json& object, const char* finalizer) {
  const json& meta = member(object, "metadata");
  if (!meta.is_object() || !meta.contains("finalizers") || !meta["finalizers"].is_array()) return false;
  for (const json& f : meta["finalizers"]) {
    if (f == finalizer) return true;
  }
  return false;
}

bool being_deleted(const json& object) {
  const json& meta = member(object, "metadata");
  return meta.is_object() && meta.contains("deletionTimestamp");
}

// Removes the references to `uids` from an object's ownerReferences (the
// field itself when none is left).
void drop_references(json& object, const std::set<std::string>& uids) {
  json kept = json::array();
  for (const json& ref : owner_references(object)) {
    if (uids.count(text_at(ref, "uid")) == 0) kept.push_back(ref);
  }
  if (kept.empty()) object["metadata"].erase("ownerReferences");
  else object["metadata"]["ownerReferences"] = kept;
}

}  // namespace

struct GarbageCollector::Impl {
  explicit Impl(ClusterState& cluster) : state(cluster) {}

  ClusterState& state;
  // The index of ownerReferences, kept by observe(): owner uid -> the ids of
  // the objects naming it; object id -> its key and the uids it names.
  struct Dependent {
    ObjectKey key;
    std::vector<std::string> owners;
  };
  std::unordered_map<std::string, std::set<std::string>> dependents;
  std::unordered_map<std::string, Dependent> owned;
  // Objects being deleted in the foreground: uid -> key.
  std::unordered_map<std::string, ObjectKey> waiting;
  // What the writes since the last collect() left to do (ids keep the order stable).
  std::vector<std::string> gone;              // uids of removed objects: their dependents to look at
  std::map<std::string, ObjectKey> to_check;  // dependents whose references changed
  std::map<std::string, ObjectKey> owners;    // objects being deleted with the collector's finalizers

  bool pending() const { return !gone.empty() || !to_check.empty() || !owners.empty(); }

  // Every put and remove of the store (Store::WriteObserver); never writes.
  void observe(const ObjectKey& key, const json& object, bool removed) {
    const std::string id = id_of(key);
    const std::string uid = uid_of(object);
    std::vector<std::string> refs;
    for (const json& ref : owner_references(object)) refs.push_back(text_at(ref, "uid"));
    const auto known = owned.find(id);
    if (removed) {
      if (!uid.empty()) {
        gone.push_back(uid);
        waiting.erase(uid);
      }
      // An owner waiting for this dependent looks again.
      for (const std::string& owner : refs) {
        if (const auto w = waiting.find(owner); w != waiting.end()) owners[id_of(w->second)] = w->second;
      }
      if (known != owned.end()) {
        unindex(id, known->second.owners);
        owned.erase(known);
      }
      return;
    }
    const bool same = known != owned.end() ? known->second.owners == refs : refs.empty();
    if (!same) {
      if (known != owned.end()) unindex(id, known->second.owners);
      if (refs.empty()) {
        owned.erase(id);
      } else {
        for (const std::string& owner : refs) dependents[owner].insert(id);
        owned[id] = Dependent{key, refs};
        to_check[id] = key;
      }
    }
    if (being_deleted(object) && (has_finalizer(object, kOrphan) || has_finalizer(object, kForeground))) {
      owners[id] = key;
      if (has_finalizer(object, kForeground) && !uid.empty()) waiting[uid] = key;
    } else if (!waiting.empty() && !uid.empty()) {
      waiting.erase(uid);
    }
  }

  void unindex(const std::string& id, const std::vector<std::string>& refs) {
    for (const std::string& owner : refs) {
      const auto it = dependents.find(owner);
      if (it == dependents.end()) continue;
      it->second.erase(id);
      if (it->second.empty()) dependents.erase(it);
    }
  }

  // The keys of the objects naming `uid` as an owner.
  std::vector<ObjectKey> dependents_of(const std::string& uid) const {
    std::vector<ObjectKey> keys;
    const auto it = dependents.find(uid);
    if (it == dependents.end()) return keys;
    for (const std::string& id : it->second) {
      if (const auto d = owned.find(id); d != owned.end()) keys.push_back(d->second.key);
    }
    return keys;
  }

  // The served resource of an owner reference's apiVersion and kind; nullptr when none.
  const ResourceInfo* resolve(const json& ref) const {
    const std::string api_version = text_at(ref, "apiVersion");
    const std::string kind = text_at(ref, "kind");
    const auto slash = api_version.find('/');
    const std::string group = slash == std::string::npos ? std::string() : api_version.substr(0, slash);
    const std::string version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
    for (const ResourceInfo* info : state.registry.in_group_version(group, version)) {
      if (info->kind == kind && !info->create_only) return info;
    }
    return nullptr;
  }

  // Removes `finalizer` from an object being deleted, as the collector's
  // patch does; the last finalizer gone, the API server removes it.
  void release(const ResourceInfo& info, const ObjectKey& key, json object, const char* finalizer) {
    json kept = json::array();
    for (const json& f : object["metadata"]["finalizers"]) {
      if (f != finalizer) kept.push_back(f);
    }
    if (kept.empty()) {
      object["metadata"].erase("finalizers");
      finish_delete(state, info, key, object);
    } else {
      object["metadata"]["finalizers"] = kept;
      state.store->put(key, object, "MODIFIED");
    }
  }

  // An owner being deleted with `orphan` or `foregroundDeletion`.
  bool process_owner(const ObjectKey& key) {
    auto object = state.store->get(key);
    if (!object || !being_deleted(*object)) return false;
    const ResourceInfo* info = find_served(state.registry, key.group, key.resource);
    if (info == nullptr) return false;
    const std::string uid = uid_of(*object);
    if (has_finalizer(*object, kOrphan)) {
      for (const ObjectKey& dependent_key : dependents_of(uid)) {
        auto dependent = state.store->get(dependent_key);
        if (!dependent) continue;
        drop_references(*dependent, {uid});
        state.store->put(dependent_key, *dependent, "MODIFIED");
      }
      release(*info, key, std::move(*object), kOrphan);
      return true;
    }
    if (!has_finalizer(*object, kForeground)) return false;
    bool wrote = false;
    for (const ObjectKey& dependent_key : dependents_of(uid)) {
      if (const auto dependent = state.store->find(dependent_key); dependent && !being_deleted(*dependent)) {
        wrote = process_dependent(dependent_key) || wrote;
      }
    }
    for (const ObjectKey& dependent_key : dependents_of(uid)) {
      const auto dependent = state.store->find(dependent_key);
      if (!dependent) continue;
      for (const json& ref : owner_references(*dependent)) {
        if (text_at(ref, "uid") == uid && ref.value("blockOwnerDeletion", json(false)) == true) return wrote;
      }
    }
    release(*info, key, std::move(*object), kForeground);
    return true;
  }

  // A dependent: kept, its references to the owners gone removed, or deleted.
  bool process_dependent(const ObjectKey& key) {
    auto object = state.store->get(key);
    if (!object) return false;
    if (being_deleted(*object)) return has_finalizer(*object, kForeground) && process_owner(key);
    const std::vector<json> refs = owner_references(*object);
    if (refs.empty()) return false;
    std::size_t solid = 0;
    std::set<std::string> dangling;
    std::set<std::string> waiting_owners;
    for (const json& ref : refs) {
      const ResourceInfo* owner_info = resolve(ref);
      if (owner_info == nullptr) return false;                  // unresolvable: retried forever, never collected
      if (key.ns.empty() && owner_info->namespaced) return false;  // OwnerRefInvalidNamespace
      const std::string ref_uid = text_at(ref, "uid");
      const auto owner =
          state.store->find(key_of(*owner_info, key.ns, text_at(ref, "name")));
      if (!owner || uid_of(*owner) != ref_uid) dangling.insert(ref_uid);
      else if (being_deleted(*owner) && has_finalizer(*owner, kForeground)) waiting_owners.insert(ref_uid);
      else ++solid;
    }
    const ResourceInfo* info = find_served(state.registry, key.group, key.resource);
    if (info == nullptr) return false;
    if (solid > 0) {
      if (dangling.empty() && waiting_owners.empty()) return false;
      dangling.insert(waiting_owners.begin(), waiting_owners.end());
      drop_references(*object, dangling);
      state.store->put(key, *object, "MODIFIED");
      return true;
    }
    Propagation policy = Propagation::Background;
    if (!waiting_owners.empty() && !dependents_of(uid_of(*object)).empty()) policy = Propagation::Foreground;
    else if (has_finalizer(*object, kOrphan)) policy = Propagation::Orphan;
    else if (has_finalizer(*object, kForeground)) policy = Propagation::Foreground;
    delete_object(state, *info, key, std::move(*object), policy);
    return true;
  }

  // The stored objects, once: what the collector finds to do at its start.
  void index_store() {
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& [group, versions] : state.registry.groups()) {
      for (const std::string& version : versions) {
        for (const ResourceInfo* info : state.registry.in_group_version(group, version)) {
          if (info->create_only || !seen.insert({info->group, info->resource}).second) continue;
          for (const StoredText& row : state.store->list_text(info->group, info->resource, std::nullopt, "", 0)) {
            if (row.body.find("ownerReferences") == std::string::npos &&
                row.body.find("deletionTimestamp") == std::string::npos) {
              continue;
            }
            const json object = json::parse(row.body, nullptr, false);
            if (object.is_object()) observe(key_of(*info, row.ns, row.name), object, false);
          }
        }
      }
    }
  }
};

GarbageCollector::GarbageCollector(ClusterState& state) : impl_(std::make_unique<Impl>(state)) {
  impl_->index_store();
  state.store->set_write_observer(
      [impl = impl_.get()](const ObjectKey& key, const json& object, bool removed) {
        impl->observe(key, object, removed);
      });
}

GarbageCollector::~GarbageCollector() { impl_->state.store->set_write_observer(nullptr); }

bool GarbageCollector::collect() {
  bool wrote = false;
  // Each round's writes make the next one's work; a chain of owners ends.
  for (int round = 0; round < 10000 && impl_->pending(); ++round) {
    const auto owners = std::move(impl_->owners);
    impl_->owners.clear();
    const auto gone = std::move(impl_->gone);
    impl_->gone.clear();
    auto to_check = std::move(impl_->to_check);
    impl_->to_check.clear();
    for (const auto& [id, key] : owners) wrote = impl_->process_owner(key) || wrote;
    for (const std::string& uid : gone) {
      for (const ObjectKey& key : impl_->dependents_of(uid)) to_check[id_of(key)] = key;
    }
    for (const auto& [id, key] : to_check) wrote = impl_->process_dependent(key) || wrote;
  }
  return wrote;
}

}  // namespace mkq::sandbox
