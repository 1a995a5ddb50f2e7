// FakeClient: an in-memory API server for unit tests. Server-side apply is
// modelled per field leaf (maps descend, lists and scalars are leaves): each
// manager's last sent copy is kept, which decides ownership, conflicts and
// the removal of fields a manager stops sending.
#include "tests/support/fake_client.h"

#include <chrono>
#include <ctime>
#include <set>
#include <string_view>

#include "base/time.h"
#include "compiler/kueue/schema.h"
#include "runtime/kube/fields_v1.h"

namespace mkq::kube {
namespace {

using Path = std::vector<std::string>;
using Leaves = std::map<Path, Json>;

bool is_server_metadata(std::string_view key) {
  return key == "uid" || key == "resourceVersion" || key == "generation" || key == "creationTimestamp" ||
         key == "managedFields" || key == "deletionTimestamp" || key == "deletionGracePeriodSeconds" ||
         key == "selfLink";
}

std::string now_rfc3339() { return base::format_rfc3339(std::chrono::system_clock::now()); }

// What a manager's write contributes: no apiVersion/kind (not fields), no status
// (a subresource), no server metadata.
Json fields_part(const Json& object) {
  Json out = Json::object();
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items()) {
    if (key == "apiVersion" || key == "kind" || key == "status") continue;
    if (key == "metadata" && value.is_object()) {
      Json meta = Json::object();
      for (const auto& [mkey, mvalue] : value.items()) {
        if (!is_server_metadata(mkey)) meta[mkey] = mvalue;
      }
      out["metadata"] = std::move(meta);
      continue;
    }
    out[key] = value;
  }
  return out;
}

void collect_leaves(const Json& node, Path& path, Leaves& out) {
  if (!node.is_object() || (node.empty() && !path.empty())) {
    out[path] = node;
    return;
  }
  for (const auto& [key, child] : node.items()) {
    path.push_back(key);
    collect_leaves(child, path, out);
    path.pop_back();
  }
}

Leaves leaves_of(const Json& fields) {
  Leaves out;
  Path path;
  if (fields.is_object()) collect_leaves(fields, path, out);
  return out;
}

const Json* value_at(const Json& object, const Path& path) {
  const Json* node = &object;
  for (const std::string& key : path) {
    if (!node->is_object()) return nullptr;
    const auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

void set_at(Json& object, const Path& path, const Json& value) {
  Json* node = &object;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    if (!node->is_object()) *node = Json::object();
    node = &(*node)[path[i]];
  }
  if (!node->is_object()) *node = Json::object();
  Json& slot = (*node)[path.back()];
  // An empty map sent over an existing map keeps the existing children.
  if (value.is_object() && value.empty() && slot.is_object()) return;
  slot = value;
}

// Erases the leaf and then every map left empty on the way up.
void erase_at(Json& object, const Path& path) {
  if (path.empty()) return;
  std::vector<Json*> chain{&object};
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    Json* node = chain.back();
    if (!node->is_object() || !node->contains(path[i])) return;
    chain.push_back(&(*node)[path[i]]);
  }
  if (!chain.back()->is_object()) return;
  chain.back()->erase(path.back());
  for (std::size_t i = chain.size() - 1; i >= 1; --i) {
    if (!chain[i]->is_object() || !chain[i]->empty()) break;
    chain[i - 1]->erase(path[i - 1]);
  }
}

std::string dotted(const Path& path) {
  std::string out;
  for (const std::string& key : path) out += "." + key;
  return out;
}

Json spec_part(const Json& object) {
  Json out = object;
  if (out.is_object()) {
    out.erase("metadata");
    out.erase("status");
  }
  return out;
}

std::string object_key(const std::string& api_version, const std::string& kind, const std::string& namespace_name,
                       const std::string& name) {
  return api_version + "/" + kind + "/" + namespace_name + "/" + name;
}

std::string meta_string(const Json& object, const char* key) {
  if (!object.is_object() || !object.contains("metadata") || !object["metadata"].is_object()) return {};
  const Json& meta = object["metadata"];
  const auto it = meta.find(key);
  return it != meta.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string collection_path(const ResourceType& type, const std::string& namespace_name) {
  std::string out = type.group.empty() ? "/api/" + type.version : "/apis/" + type.group + "/" + type.version;
  if (type.namespaced && !namespace_name.empty()) out += "/namespaces/" + namespace_name;
  return out + "/" + type.plural;
}

std::string object_path(const ResourceType& type, const std::string& namespace_name, const std::string& name) {
  return collection_path(type, namespace_name) + "/" + name;
}

std::string qualified_resource(const ResourceType& type) {
  return type.group.empty() ? type.plural : type.plural + "." + type.group;
}

Error not_found(const ResourceType& type, const std::string& name) {
  return Error{404, "NotFound", qualified_resource(type) + " \"" + name + "\" not found", Json()};
}

// Equality-based selectors: "a=b,c==d,e!=f,g,!h".
bool matches_selector(const Json& object, const std::string& selector) {
  Json labels = Json::object();
  if (object.contains("metadata") && object["metadata"].is_object() && object["metadata"].contains("labels"))
    labels = object["metadata"]["labels"];
  std::size_t start = 0;
  while (start <= selector.size()) {
    std::size_t end = selector.find(',', start);
    if (end == std::string::npos) end = selector.size();
    std::string term = selector.substr(start, end - start);
    start = end + 1;
    while (!term.empty() && term.front() == ' ') term.erase(term.begin());
    while (!term.empty() && term.back() == ' ') term.pop_back();
    if (term.empty()) {
      if (end == selector.size()) break;
      continue;
    }
    const auto label = [&](const std::string& key) -> std::optional<std::string> {
      const auto it = labels.find(key);
      if (it == labels.end() || !it->is_string()) return std::nullopt;
      return it->get<std::string>();
    };
    if (const std::size_t ne = term.find("!="); ne != std::string::npos) {
      if (label(term.substr(0, ne)) == term.substr(ne + 2)) return false;
    } else if (const std::size_t eq = term.find('='); eq != std::string::npos) {
      const std::size_t value_at_pos = term.compare(eq, 2, "==") == 0 ? eq + 2 : eq + 1;
      if (label(term.substr(0, eq)) != term.substr(value_at_pos)) return false;
    } else if (term.front() == '!') {
      if (label(term.substr(1))) return false;
    } else if (!label(term)) {
      return false;
    }
    if (end == selector.size()) break;
  }
  return true;
}

}  // namespace

// Internal representation of owned_: manager -> {"operation": "Apply"|"Update",
// "time": RFC 3339, "fields": the manager's fields (fields_part of what it wrote)}.

FakeClient::FakeClient(std::string server) : server_(std::move(server)) {
  for (const kueue::schema::KindInfo& info : kueue::schema::kKinds) {
    ResourceType type;
    const std::string api_version(info.api_version);
    const std::size_t slash = api_version.find('/');
    if (slash != std::string::npos) {
      type.group = api_version.substr(0, slash);
      type.version = api_version.substr(slash + 1);
    } else {
      type.version = api_version;
    }
    type.kind = std::string(info.name);
    type.plural = std::string(info.plural);
    type.namespaced = info.namespaced;
    types_[type.api_version() + "/" + type.kind] = type;
  }
}

void FakeClient::serve(const ResourceType& type) {
  const std::lock_guard lock(mutex_);
  types_[type.api_version() + "/" + type.kind] = type;
}

void FakeClient::stop_serving(const std::string& api_version, const std::string& kind) {
  const std::lock_guard lock(mutex_);
  types_.erase(api_version + "/" + kind);
}

std::optional<Json> FakeClient::object(const std::string& api_version, const std::string& kind,
                                       const std::string& namespace_name, const std::string& name) const {
  const std::lock_guard lock(mutex_);
  const auto it = objects_.find(object_key(api_version, kind, namespace_name, name));
  if (it == objects_.end()) return std::nullopt;
  return it->second;
}

namespace {

// Rebuilds metadata.managedFields from the managers' recorded fields.
void write_managed_fields(Json& object, const std::map<std::string, Json>& managers) {
  Json entries = Json::array();
  for (const auto& [manager, entry] : managers) {
    const Json& fields = entry["fields"];
    if (!fields.is_object() || fields.empty()) continue;
    Json e = Json::object();
    e["manager"] = manager;
    e["operation"] = entry["operation"];
    e["apiVersion"] = object.value("apiVersion", std::string());
    e["time"] = entry["time"];
    e["fieldsType"] = "FieldsV1";
    e["fieldsV1"] = fields_v1_of(fields);
    entries.push_back(std::move(e));
  }
  object["metadata"]["managedFields"] = std::move(entries);
}

void drop_empty_managers(std::map<std::string, Json>& managers) {
  for (auto it = managers.begin(); it != managers.end();) {
    const Json& fields = it->second["fields"];
    const bool empty = !fields.is_object() || leaves_of(fields).empty();
    it = empty ? managers.erase(it) : std::next(it);
  }
}

}  // namespace

void FakeClient::put(const Json& object, const std::string& manager) {
  const std::lock_guard lock(mutex_);
  const std::string api_version = object.value("apiVersion", std::string());
  const std::string kind = object.value("kind", std::string());
  const std::string key = object_key(api_version, kind, meta_string(object, "namespace"), meta_string(object, "name"));
  const auto existing = objects_.find(key);
  Json stored = object;
  if (!stored.contains("metadata") || !stored["metadata"].is_object()) stored["metadata"] = Json::object();
  std::map<std::string, Json>& managers = owned_[key];
  const Leaves new_leaves = leaves_of(fields_part(object));
  Leaves changed = new_leaves;  // the leaves this write sets or changes
  if (existing != objects_.end()) {
    const Json& old = existing->second;
    const Leaves old_leaves = leaves_of(fields_part(old));
    changed.clear();
    for (const auto& [path, value] : new_leaves) {
      const auto it = old_leaves.find(path);
      if (it == old_leaves.end() || it->second != value) changed[path] = value;
    }
    // Fields this write removed, or set, are nobody else's any more.
    for (auto& [name, entry] : managers) {
      if (name == manager) continue;
      for (const auto& [path, value] : leaves_of(entry["fields"])) {
        (void)value;
        if (!new_leaves.count(path) || changed.count(path)) erase_at(entry["fields"], path);
      }
    }
    for (const char* m : {"uid", "creationTimestamp"}) {
      if (!stored["metadata"].contains(m) && old["metadata"].contains(m)) stored["metadata"][m] = old["metadata"][m];
    }
    long long generation = old["metadata"].value("generation", 1LL);
    if (spec_part(old) != spec_part(object)) ++generation;
    stored["metadata"]["generation"] = generation;
  } else {
    if (!stored["metadata"].contains("uid")) stored["metadata"]["uid"] = "fake-uid-" + std::to_string(++uid_counter_);
    if (!stored["metadata"].contains("creationTimestamp")) stored["metadata"]["creationTimestamp"] = now_rfc3339();
    stored["metadata"]["generation"] = 1;
  }
  if (!changed.empty()) {
    Json& entry = managers[manager];
    if (!entry.is_object()) entry = Json{{"operation", "Update"}, {"time", now_rfc3339()}, {"fields", Json::object()}};
    for (const auto& [path, value] : changed) set_at(entry["fields"], path, value);
    entry["time"] = now_rfc3339();
  }
  drop_empty_managers(managers);
  stored["metadata"]["resourceVersion"] = std::to_string(++resource_version_);
  write_managed_fields(stored, managers);
  objects_[key] = std::move(stored);
}

void FakeClient::finish_deletion() {
  const std::lock_guard lock(mutex_);
  for (auto it = objects_.begin(); it != objects_.end();) {
    if (it->second["metadata"].contains("deletionTimestamp")) {
      owned_.erase(it->first);
      it = objects_.erase(it);
    } else {
      ++it;
    }
  }
}

std::size_t FakeClient::size() const {
  const std::lock_guard lock(mutex_);
  return objects_.size();
}

void FakeClient::fail_when(std::function<std::optional<Error>(const std::string& call)> predicate) {
  const std::lock_guard lock(mutex_);
  fail_when_ = std::move(predicate);
}

void FakeClient::set_unreachable(bool unreachable) {
  const std::lock_guard lock(mutex_);
  unreachable_ = unreachable;
}

// Records the call and decides whether it fails. The predicate runs without the
// lock held, so it may inspect the fake.
std::optional<Error> FakeClient::injected(const std::string& call) {
  std::function<std::optional<Error>(const std::string&)> predicate;
  {
    const std::lock_guard lock(mutex_);
    calls_.push_back(call);
    ++stats_.requests;
    if (call.rfind("LIST ", 0) == 0) ++stats_.lists;
    if (call.rfind("GET ", 0) == 0) ++stats_.gets;
    if (unreachable_) {
      return Error{0, "ConnectionFailed", "connection refused: " + server_ + " cannot be reached", Json()};
    }
    predicate = fail_when_;
  }
  if (predicate) return predicate(call);
  return std::nullopt;
}

std::string FakeClient::server() const { return server_; }

Result<ResourceType> FakeClient::resource_for(const std::string& api_version, const std::string& kind) {
  const std::lock_guard lock(mutex_);
  if (unreachable_) return Error{0, "ConnectionFailed", "connection refused: " + server_ + " cannot be reached", Json()};
  const auto it = types_.find(api_version + "/" + kind);
  if (it == types_.end()) {
    return Error{404, "NotFound", "the server does not serve " + kind + " in " + api_version, Json()};
  }
  return it->second;
}

Result<Json> FakeClient::get(const ResourceType& type, const std::string& namespace_name, const std::string& name) {
  if (auto error = injected("GET " + object_path(type, namespace_name, name))) return *error;
  const std::lock_guard lock(mutex_);
  const auto it = objects_.find(object_key(type.api_version(), type.kind, namespace_name, name));
  if (it == objects_.end()) return not_found(type, name);
  return it->second;
}

Result<ObjectList> FakeClient::list(const ResourceType& type, const ListOptions& options) {
  if (auto error = injected("LIST " + collection_path(type, options.namespace_name))) return *error;
  const std::lock_guard lock(mutex_);
  ObjectList out;
  const std::string prefix = type.api_version() + "/" + type.kind + "/";
  for (auto it = objects_.lower_bound(prefix); it != objects_.end() && it->first.rfind(prefix, 0) == 0; ++it) {
    if (!options.namespace_name.empty() && meta_string(it->second, "namespace") != options.namespace_name) continue;
    if (!options.label_selector.empty() && !matches_selector(it->second, options.label_selector)) continue;
    out.items.push_back(it->second);
  }
  out.resource_version = std::to_string(resource_version_);
  return out;
}

Result<Json> FakeClient::apply(const ResourceType& type, const Json& object, const ApplyOptions& options) {
  const std::string name = meta_string(object, "name");
  const std::string namespace_name = meta_string(object, "namespace");
  if (auto error = injected("PATCH " + object_path(type, namespace_name, name))) return *error;
  const std::lock_guard lock(mutex_);
  if (object.value("apiVersion", std::string()) != type.api_version() || object.value("kind", std::string()) != type.kind) {
    return Error{400, "BadRequest", "the object's apiVersion and kind do not match " + type.api_version() + " " + type.kind,
                 Json()};
  }
  if (name.empty()) return Error{422, "Invalid", type.kind + ": metadata.name: Required value", Json()};
  if (type.namespaced && namespace_name.empty()) {
    return Error{422, "Invalid", type.kind + " \"" + name + "\": metadata.namespace: Required value", Json()};
  }
  const std::string key = object_key(type.api_version(), type.kind, namespace_name, name);
  const auto existing = objects_.find(key);
  std::map<std::string, Json> managers = owned_[key];
  const Json sent = fields_part(object);
  const Leaves sent_leaves = leaves_of(sent);
  const std::string& me = options.field_manager;

  // Conflicts: a leaf another manager owns whose live value differs from the sent one.
  std::vector<std::pair<std::string, Path>> conflicts;
  if (existing != objects_.end()) {
    for (const auto& [path, value] : sent_leaves) {
      const Json* live = value_at(existing->second, path);
      if (live != nullptr && *live == value) continue;
      for (const auto& [manager, entry] : managers) {
        if (manager == me || value_at(entry["fields"], path) == nullptr) continue;
        conflicts.emplace_back(manager, path);
      }
    }
  }
  if (!conflicts.empty() && !options.force) {
    std::string message = "Apply failed with " + std::to_string(conflicts.size()) +
                          (conflicts.size() == 1 ? " conflict: " : " conflicts: ");
    Json causes = Json::array();
    for (std::size_t i = 0; i < conflicts.size(); ++i) {
      if (i > 0) message += "; ";
      message += "conflict with \"" + conflicts[i].first + "\": " + dotted(conflicts[i].second);
      causes.push_back(Json{{"reason", "FieldManagerConflict"},
                            {"message", "conflict with \"" + conflicts[i].first + "\""},
                            {"field", dotted(conflicts[i].second)}});
    }
    return Error{409, "Conflict", message, Json{{"causes", causes}}};
  }
  for (const auto& [manager, path] : conflicts) erase_at(managers[manager]["fields"], path);

  Json result = existing != objects_.end()
                    ? existing->second
                    : Json{{"apiVersion", type.api_version()}, {"kind", type.kind}, {"metadata", Json::object()}};
  // Fields this manager sent before and no longer sends go, unless someone else owns them.
  if (const auto mine = managers.find(me); mine != managers.end()) {
    for (const auto& [path, value] : leaves_of(mine->second["fields"])) {
      (void)value;
      if (sent_leaves.count(path)) continue;
      bool shared = false;
      for (const auto& [manager, entry] : managers) {
        if (manager != me && value_at(entry["fields"], path) != nullptr) shared = true;
      }
      if (!shared) erase_at(result, path);
    }
  }
  for (const auto& [path, value] : sent_leaves) set_at(result, path, value);

  Json& entry = managers[me];
  if (!entry.is_object() || entry["fields"] != sent || entry["operation"] != "Apply") {
    entry = Json{{"operation", "Apply"}, {"time", now_rfc3339()}, {"fields", sent}};
  }
  drop_empty_managers(managers);
  write_managed_fields(result, managers);

  Json& meta = result["metadata"];
  if (existing == objects_.end()) {
    meta["uid"] = "fake-uid-" + std::to_string(uid_counter_ + 1);
    meta["creationTimestamp"] = now_rfc3339();
    meta["generation"] = 1;
  } else if (spec_part(existing->second) != spec_part(result)) {
    meta["generation"] = existing->second["metadata"].value("generation", 1LL) + 1;
  }
  const bool changed = existing == objects_.end() || existing->second != result;
  if (!changed) return existing->second;
  meta["resourceVersion"] = std::to_string(resource_version_ + 1);
  if (options.dry_run) return result;
  if (existing == objects_.end()) ++uid_counter_;
  ++resource_version_;
  objects_[key] = result;
  owned_[key] = std::move(managers);
  return result;
}

Result<Json> FakeClient::create(const ResourceType& type, const Json& object) {
  const std::string name = meta_string(object, "name");
  const std::string namespace_name = meta_string(object, "namespace");
  if (auto error = injected("POST " + collection_path(type, namespace_name))) return *error;
  const std::lock_guard lock(mutex_);
  if (name.empty()) return Error{422, "Invalid", type.kind + ": metadata.name: Required value", Json()};
  const std::string key = object_key(type.api_version(), type.kind, namespace_name, name);
  if (objects_.count(key) != 0) {
    return Error{409, "AlreadyExists", type.plural + " \"" + name + "\" already exists", Json()};
  }
  Json stored = object;
  stored["apiVersion"] = type.api_version();
  stored["kind"] = type.kind;
  Json& meta = stored["metadata"];
  meta["uid"] = "fake-uid-" + std::to_string(++uid_counter_);
  meta["creationTimestamp"] = now_rfc3339();
  meta["generation"] = 1;
  meta["resourceVersion"] = std::to_string(++resource_version_);
  objects_[key] = stored;
  return stored;
}

Result<Json> FakeClient::update(const ResourceType& type, const Json& object) {
  const std::string name = meta_string(object, "name");
  const std::string namespace_name = meta_string(object, "namespace");
  if (auto error = injected("PUT " + object_path(type, namespace_name, name))) return *error;
  const std::lock_guard lock(mutex_);
  const auto it = objects_.find(object_key(type.api_version(), type.kind, namespace_name, name));
  if (it == objects_.end()) return not_found(type, name);
  const std::string wanted = meta_string(object, "resourceVersion");
  if (!wanted.empty() && wanted != meta_string(it->second, "resourceVersion")) {
    return Error{409, "Conflict",
                 "Operation cannot be fulfilled on " + type.plural + " \"" + name +
                     "\": the object has been modified; please apply your changes to the latest version and try again",
                 Json()};
  }
  Json stored = object;
  stored["apiVersion"] = type.api_version();
  stored["kind"] = type.kind;
  Json& meta = stored["metadata"];
  for (const char* kept : {"uid", "creationTimestamp", "managedFields"}) {
    if (it->second["metadata"].contains(kept)) meta[kept] = it->second["metadata"][kept];
  }
  long long generation = it->second["metadata"].value("generation", 1LL);
  if (spec_part(it->second) != spec_part(stored)) ++generation;
  meta["generation"] = generation;
  meta["resourceVersion"] = std::to_string(++resource_version_);
  it->second = stored;
  return stored;
}

Result<Json> FakeClient::remove(const ResourceType& type, const std::string& namespace_name, const std::string& name,
                                const DeleteOptions& options) {
  if (auto error = injected("DELETE " + object_path(type, namespace_name, name))) return *error;
  const std::lock_guard lock(mutex_);
  const std::string key = object_key(type.api_version(), type.kind, namespace_name, name);
  const auto it = objects_.find(key);
  if (it == objects_.end()) return not_found(type, name);
  const std::string uid = meta_string(it->second, "uid");
  if (!options.precondition_uid.empty() && options.precondition_uid != uid) {
    return Error{409, "Conflict",
                 "Precondition failed: UID in precondition: " + options.precondition_uid + ", UID in object meta: " + uid,
                 Json()};
  }
  const Json& meta = it->second["metadata"];
  const bool has_finalizers = meta.contains("finalizers") && meta["finalizers"].is_array() && !meta["finalizers"].empty();
  if (options.dry_run) return it->second;
  if (has_finalizers) {
    if (!meta.contains("deletionTimestamp")) {
      it->second["metadata"]["deletionTimestamp"] = now_rfc3339();
      it->second["metadata"]["resourceVersion"] = std::to_string(++resource_version_);
    }
    return it->second;
  }
  Json gone = std::move(it->second);
  objects_.erase(it);
  owned_.erase(key);
  return gone;
}

Result<void> FakeClient::watch(const ResourceType& type, const WatchOptions& options,
                               const std::function<bool(const WatchEvent&)>& on_event) {
  if (auto error = injected("WATCH " + collection_path(type, options.namespace_name))) return *error;
  std::vector<Json> current;
  {
    const std::lock_guard lock(mutex_);
    const std::string prefix = type.api_version() + "/" + type.kind + "/";
    for (auto it = objects_.lower_bound(prefix); it != objects_.end() && it->first.rfind(prefix, 0) == 0; ++it) {
      if (!options.namespace_name.empty() && meta_string(it->second, "namespace") != options.namespace_name) continue;
      if (!options.label_selector.empty() && !matches_selector(it->second, options.label_selector)) continue;
      current.push_back(it->second);
    }
  }
  for (const Json& object : current) {
    if (!on_event(WatchEvent{"ADDED", object})) break;
  }
  return {};
}

// Discovery documents ("GET /api/v1", "/apis", "/apis/GROUP/VERSION") from
// the kinds served, each listable everywhere; nullopt for another path.
std::optional<Json> FakeClient::discovery(const std::string& path) const {
  if (path == "/apis") {
    std::set<std::string> group_versions;
    for (const auto& [key, type] : types_) {
      if (!type.group.empty()) group_versions.insert(type.api_version());
    }
    Json groups = Json::array();
    for (const std::string& group_version : group_versions) {
      const std::string group = group_version.substr(0, group_version.find('/'));
      const Json version{{"groupVersion", group_version}, {"version", group_version.substr(group.size() + 1)}};
      groups.push_back(Json{{"name", group}, {"versions", Json::array({version})}, {"preferredVersion", version}});
    }
    return Json{{"kind", "APIGroupList"}, {"groups", groups}};
  }
  Json resources = Json::array();
  for (const auto& [key, type] : types_) {
    if ((type.group.empty() ? "/api/" + type.version : "/apis/" + type.api_version()) != path) continue;
    resources.push_back(Json{{"name", type.plural},
                             {"kind", type.kind},
                             {"namespaced", type.namespaced},
                             {"verbs", Json::array({"create", "delete", "get", "list", "patch", "update", "watch"})}});
  }
  if (resources.empty()) return std::nullopt;
  return Json{{"kind", "APIResourceList"}, {"resources", resources}};
}

// PATCH application/merge-patch+json of one object, as the API server does it:
// a resourceVersion in the patch is a precondition; managedFields in the
// patch replace the object's ([] or [{}] clear them); the fields the patch
// changes are recorded for ?fieldManager= as an Update.
Result<Json> FakeClient::merge_patch(const std::string& path, const Json& patch) {
  const std::size_t query = path.find('?');
  const std::string object_path_only = path.substr(0, query);
  std::string manager;
  if (query != std::string::npos) {
    const std::string parameters = path.substr(query + 1);
    const std::size_t at = parameters.find("fieldManager=");
    if (at != std::string::npos) manager = parameters.substr(at + 13, parameters.find('&', at) - at - 13);
  }
  std::string key;
  for (const auto& [type_key, type] : types_) {
    for (const auto& [stored_key, object] : objects_) {
      if (stored_key.rfind(type.api_version() + "/" + type.kind + "/", 0) != 0) continue;
      if (object_path(type, meta_string(object, "namespace"), meta_string(object, "name")) == object_path_only) {
        key = stored_key;
      }
    }
  }
  const auto it = objects_.find(key);
  if (it == objects_.end()) return Error{404, "NotFound", "the server could not find the requested resource", Json()};
  if (!patch.is_object()) return Error{400, "BadRequest", "a merge patch must be an object", Json()};
  const std::string wanted = meta_string(patch, "resourceVersion");
  if (!wanted.empty() && wanted != meta_string(it->second, "resourceVersion")) {
    return Error{409, "Conflict", "the object has been modified; please apply your changes to the latest version",
                 Json()};
  }
  Json result = it->second;
  result.merge_patch(patch);
  std::map<std::string, Json>& managers = owned_[key];
  if (patch.contains("metadata") && patch["metadata"].contains("managedFields")) {
    std::set<std::string> kept;
    for (const Json& entry : patch["metadata"]["managedFields"]) {
      if (entry.is_object() && entry.contains("manager")) kept.insert(entry["manager"].get<std::string>());
    }
    for (auto m = managers.begin(); m != managers.end();) m = kept.count(m->first) ? std::next(m) : managers.erase(m);
  }
  const Leaves before = leaves_of(fields_part(it->second));
  const Leaves after = leaves_of(fields_part(result));
  for (const auto& [field, value] : before) {
    (void)value;
    if (after.count(field) != 0) continue;
    for (auto& [name, entry] : managers) erase_at(entry["fields"], field);  // a removed field is nobody's
  }
  for (const auto& [field, value] : after) {
    const auto old = before.find(field);
    if (old != before.end() && old->second == value) continue;
    for (auto& [name, entry] : managers) erase_at(entry["fields"], field);
    if (manager.empty()) continue;
    Json& entry = managers[manager];
    if (!entry.is_object()) entry = Json{{"operation", "Update"}, {"time", now_rfc3339()}, {"fields", Json::object()}};
    set_at(entry["fields"], field, value);
  }
  drop_empty_managers(managers);
  long long generation = it->second["metadata"].value("generation", 1LL);
  if (spec_part(it->second) != spec_part(result)) ++generation;
  result["metadata"]["generation"] = generation;
  result["metadata"]["resourceVersion"] = std::to_string(++resource_version_);
  write_managed_fields(result, managers);
  it->second = result;
  return result;
}

Result<Json> FakeClient::request(const std::string& method, const std::string& path, const Json* body,
                                 const std::string& content_type) {
  if (auto error = injected(method + " " + path)) return *error;
  const std::lock_guard lock(mutex_);
  if (method == "GET") {
    if (std::optional<Json> document = discovery(path)) return *document;
  }
  const bool merge = content_type == "application/merge-patch+json" ||
                     content_type == "application/strategic-merge-patch+json";
  if (method == "PATCH" && merge && body != nullptr) {
    return merge_patch(path, *body);
  }
  return Error{404, "NotFound", "the server could not find the requested resource", Json()};
}

ClientStats FakeClient::stats() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

std::vector<std::string> FakeClient::calls() const {
  const std::lock_guard lock(mutex_);
  return calls_;
}

}  // namespace mkq::kube
