// The importer checks its own work: the policy written is compiled and
// lowered like any other, and every object read is compared with the object
// it renders. Each difference is a Finding with the object's address: a field
// read that the policy does not render the same (Dropped), an object read it
// does not render at all (NotImported), what it renders that was not read
// (Added). A field absent on one side and holding Kueue's default on the
// other is no difference (kueue::schema's defaults), nor is what the server
// sets or mkq's own labels.
#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "compiler/diag/diagnostic.h"
#include "compiler/facts/kueue.h"
#include "compiler/kueue/lower.h"
#include "compiler/kueue/schema.h"
#include "compiler/sema/analyze.h"
#include "runtime/importer/importer_internal.h"

namespace mkq::importer {
namespace {

namespace schema = kueue::schema;

constexpr const char* kPolicyPath = "/mkq-import/policy.mkq";
// kubectl's record of what it applied: kubectl's, not a field of the object.
constexpr const char* kLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

// The one file being checked, as the compiler's file system.
class OneFile final : public sema::FileSystem {
 public:
  explicit OneFile(std::string text) : text_(std::move(text)) {}
  Kind kind(const std::filesystem::path& path) const override {
    if (path == kPolicyPath) return Kind::File;
    return path == std::filesystem::path(kPolicyPath).parent_path() ? Kind::Directory : Kind::Missing;
  }
  sema::FileText read(const std::filesystem::path& path, std::uint64_t max_bytes) const override {
    sema::FileText out;
    if (path != kPolicyPath) return out;
    if (text_.size() > max_bytes) {
      out.status = sema::FileText::Status::TooLarge;
      out.size = text_.size();
      return out;
    }
    out.status = sema::FileText::Status::Read;
    out.text = text_;
    return out;
  }
  std::vector<std::string> list(const std::filesystem::path& dir) const override {
    if (dir == std::filesystem::path(kPolicyPath).parent_path()) return {"policy.mkq"};
    return {};
  }
  std::filesystem::path canonical(const std::filesystem::path& path) const override {
    return path.lexically_normal();
  }

 private:
  std::string text_;
};

// The path with list indexes as kueue::schema writes them ("[]").
std::string schema_path(const std::string& path) {
  static const std::regex index("\\[[0-9]+\\]");
  return std::regex_replace(path, index, "[]");
}

// Scalars as text, so that 9 and "9" (int-or-string quantities) compare equal.
bool same_scalar(const Json& a, const Json& b) {
  const auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  return text(a) == text(b);
}

struct Comparison {
  std::string kind;
  std::vector<std::string> dropped;  // "path (value)"
  std::vector<std::string> added;
};

std::string shown(const Json& value) {
  std::string text = value.dump();
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

void compare(const std::string& path, const Json& read, const Json* rendered, Comparison& out);

void compare_missing(const std::string& path, const Json& read, Comparison& out) {
  if (holds_default(out.kind, path, read)) return;
  if (read.is_object() && !read.empty()) {  // leaf by leaf: each may hold its default
    for (const auto& [key, value] : read.items()) compare(path + "." + key, value, nullptr, out);
    return;
  }
  out.dropped.push_back(path + " = " + shown(read));
}

void compare(const std::string& path, const Json& read, const Json* rendered, Comparison& out) {
  if (rendered == nullptr) {
    compare_missing(path, read, out);
    return;
  }
  if (read.is_object() && rendered->is_object()) {
    for (const auto& [key, value] : read.items()) {
      const auto it = rendered->find(key);
      compare(path + "." + key, value, it == rendered->end() ? nullptr : &*it, out);
    }
    for (const auto& [key, value] : rendered->items()) {
      if (read.contains(key) || holds_default(out.kind, path + "." + key, value)) continue;
      out.added.push_back(path + "." + key + " = " + shown(value));
    }
    return;
  }
  if (read.is_array() && rendered->is_array() && read.size() == rendered->size()) {
    for (std::size_t i = 0; i < read.size(); ++i) {
      compare(fmt::format("{}[{}]", path, i), read[i], &(*rendered)[i], out);
    }
    return;
  }
  if (read.is_structured() || rendered->is_structured() || !same_scalar(read, *rendered)) {
    out.dropped.push_back(path + " = " + shown(read) + " (the policy renders " + shown(*rendered) + ")");
  }
}

// The metadata a policy says: labels and annotations, without mkq's own.
Json said_metadata(const Json& object, bool rendered) {
  Json out = Json::object();
  const auto m = object.find("metadata");
  if (m == object.end() || !m->is_object()) return out;
  for (const char* map : {"labels", "annotations"}) {
    if (!m->contains(map) || !(*m)[map].is_object()) continue;
    Json kept = Json::object();
    for (const auto& [key, value] : (*m)[map].items()) {
      if (key == kLastApplied) continue;
      if (rendered && (key == facts::kManagedByLabel || key == facts::kPolicyLabel)) continue;
      kept[key] = value;
    }
    if (!kept.empty()) out[map] = std::move(kept);
  }
  return out;
}

// Everything below metadata: what the object says.
Json body_of(const Json& object) {
  Json out = object;
  for (const char* key : {"apiVersion", "kind", "metadata", "status"}) out.erase(key);
  return out;
}

Comparison compare_objects(const Json& read, const Json& rendered) {
  Comparison c;
  c.kind = read.value("kind", std::string());
  const Json rendered_meta = said_metadata(rendered, true);
  compare("metadata", said_metadata(read, false), &rendered_meta, c);
  const Json rendered_body = body_of(rendered);
  const Json read_body = body_of(read);
  for (const auto& [key, value] : read_body.items()) {
    const auto it = rendered_body.find(key);
    compare(key, value, it == rendered_body.end() ? nullptr : &*it, c);
  }
  for (const auto& [key, value] : rendered_body.items()) {
    if (!read_body.contains(key) && !holds_default(c.kind, key, value))
      c.added.push_back(key + " = " + shown(value));
  }
  return c;
}

// What the policy's worker credentials render: the kubeconfig Secret on the
// manager, the ServiceAccount and its RBAC on a worker.
bool is_credential_object(const ClusterSource& cluster, const kueue::Object& o) {
  if (o.holds_credential_placeholder) return true;
  return cluster.role == kueue::ClusterRole::Worker &&
         (o.kind == "ServiceAccount" || o.kind == "ClusterRole" || o.kind == "ClusterRoleBinding");
}

std::string address_of(const std::string& cluster, const Json& object) {
  return base::object_address(cluster, object.value("kind", std::string()), namespace_of(object),
                              name_of(object));
}

}  // namespace

bool holds_default(const std::string& kind, const std::string& path, const Json& value) {
  const schema::KindInfo* info = schema::find_kind(kind);
  if (info == nullptr) return false;
  const schema::FieldDefault* d = schema::find_default(info->kind, schema_path(path));
  return d != nullptr && Json::parse(d->json_value) == value;
}

namespace {

// The policy compiled from its text and lowered; an Error (the compiler's
// words and the text) when it does not check, which is a bug of the writer.
base::Result<kueue::DesiredState> render_policy(const std::string& policy) {
  const OneFile files(policy);
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  std::optional<sema::model::Policy> model = sema::analyze(kPolicyPath, files, sources, diagnostics);
  std::optional<kueue::DesiredState> state;
  if (model && !diagnostics.has_errors()) state = kueue::lower(*model, {"import"}, diagnostics);
  if (!state) {
    return base::Error::config("the policy written does not check (a bug of mkq import):\n" +
                               diag::render_text(diagnostics.sorted(sources), sources) + "\n" + policy);
  }
  return std::move(*state);
}

const kueue::Object* rendered_at(const kueue::ClusterObjects* rendered, const std::string& address) {
  if (rendered == nullptr) return nullptr;
  for (const kueue::Object& o : rendered->objects) {
    if (kueue::address(rendered->cluster, o) == address) return &o;
  }
  return nullptr;
}

// One object read against the object rendered at its address.
void compare_read(const std::string& address, const Json& object, const kueue::Object* match, Imported& out) {
  if (match == nullptr) {
    out.findings.push_back({Finding::Kind::NotImported, address, "the policy does not declare it"});
    return;
  }
  const Comparison c = compare_objects(object, match->document);
  for (const std::string& field : c.dropped) {
    out.findings.push_back({Finding::Kind::Dropped, address, field + ": the policy cannot say it"});
  }
  for (const std::string& field : c.added) {
    out.findings.push_back({Finding::Kind::Added, address, "the policy sets " + field});
  }
  if (c.dropped.empty() && c.added.empty()) out.represented.push_back(address);
}

// Every object of a cluster that was read, both ways.
void compare_cluster(const ClusterSource& cluster, const kueue::ClusterObjects* rendered, Imported& out) {
  std::set<std::string> seen;
  for (const Json& object : cluster.objects) {
    const std::string address = address_of(cluster.name, object);
    const kueue::Object* match = rendered_at(rendered, address);
    if (match != nullptr) seen.insert(address);
    compare_read(address, object, match, out);
  }
  if (rendered == nullptr) return;
  for (const kueue::Object& o : rendered->objects) {
    const std::string address = kueue::address(cluster.name, o);
    if (seen.contains(address)) continue;
    if (is_credential_object(cluster, o)) {
      out.findings.push_back({Finding::Kind::Note, address,
                              "a worker credential object: import never reads it; apply writes it as the "
                              "policy's credentials say"});
    } else {
      out.findings.push_back({Finding::Kind::Added, address, "the policy renders it; it was not read"});
    }
  }
}

}  // namespace

base::Result<Imported> check_policy(const Snapshot& snapshot, std::string policy) {
  base::Result<kueue::DesiredState> state = render_policy(policy);
  if (!state) return state.error();
  Imported out;
  out.policy = std::move(policy);
  for (const std::string& skipped : snapshot.skipped) {
    const std::size_t colon = skipped.find(": ");
    out.findings.push_back({Finding::Kind::NotImported, skipped.substr(0, colon), skipped.substr(colon + 2)});
  }
  for (const ClusterSource& cluster : snapshot.clusters) {
    const kueue::ClusterObjects* rendered = nullptr;
    for (const kueue::ClusterObjects& c : state.value().clusters) {
      if (c.cluster == cluster.name) rendered = &c;
    }
    compare_cluster(cluster, rendered, out);
  }
  for (const kueue::ClusterObjects& c : state.value().clusters) {
    const bool read = std::any_of(snapshot.clusters.begin(), snapshot.clusters.end(),
                                  [&](const ClusterSource& s) { return s.name == c.cluster; });
    if (read) continue;
    out.findings.push_back({Finding::Kind::Note, "",
                            fmt::format("worker {}: its objects were not read; the policy renders {} objects on it",
                                        c.cluster, c.objects.size())});
  }
  return out;
}

}  // namespace mkq::importer
