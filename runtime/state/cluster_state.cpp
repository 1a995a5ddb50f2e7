// The state's database in a cluster's Secrets (cluster_state.h): the address,
// the index and its chunks, compression and checksum. The lock is in
// cluster_lock.cpp.
#include "runtime/state/cluster_state.h"

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "base/encoding.h"
#include "compiler/facts/kueue.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace {

using kube::Json;

// The index's annotations; the format names the encoding of the chunks so
// that a later mkq can change it and an older one refuses what it cannot read.
constexpr const char* kFormat = "mkq.dev/state-format";
constexpr const char* kFormatValue = "sqlite3+zlib/v1";
constexpr const char* kLineage = "mkq.dev/state-lineage";
constexpr const char* kSerial = "mkq.dev/state-serial";
constexpr const char* kPolicy = "mkq.dev/state-policy";
constexpr const char* kChecksum = "mkq.dev/state-sha256";
constexpr const char* kSize = "mkq.dev/state-size";
constexpr const char* kChunks = "mkq.dev/state-chunks";
constexpr const char* kChunkOf = "mkq.dev/state-chunk-of";
constexpr const char* kChunkKey = "chunk";
constexpr const char* kChunkType = "mkq.dev/state-chunk";
// A database larger than this is refused before it is inflated.
constexpr std::size_t kMaxDatabaseBytes = std::size_t{1} << 30;

kube::ResourceType secret_type() { return kube::ResourceType{"", "v1", "Secret", "secrets", true}; }
kube::ResourceType namespace_type() { return kube::ResourceType{"", "v1", "Namespace", "namespaces", false}; }

bool dns_label(const std::string& text, std::size_t max) {
  if (text.empty() || text.size() > max) return false;
  if (!std::isalnum(static_cast<unsigned char>(text.front())) || !std::isalnum(static_cast<unsigned char>(text.back())))
    return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::string sha256_hex(const std::string& bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1) return {};
  return base::hex_encode(std::string_view(reinterpret_cast<const char*>(digest.data()), size));
}

std::optional<std::string> compress(const std::string& bytes) {
  uLongf size = compressBound(static_cast<uLong>(bytes.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(bytes.data()),
                static_cast<uLong>(bytes.size()), Z_DEFAULT_COMPRESSION) != Z_OK) {
    return std::nullopt;
  }
  out.resize(size);
  return out;
}

std::optional<std::string> inflate_to(const std::string& compressed, std::size_t size) {
  std::string out(size, '\0');
  uLongf got = static_cast<uLongf>(size);
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &got, reinterpret_cast<const Bytef*>(compressed.data()),
                 static_cast<uLong>(compressed.size())) != Z_OK ||
      got != size) {
    return std::nullopt;
  }
  return out;
}

std::string annotation(const Json& object, const char* key) {
  const Json* annotations = object.contains("metadata") ? &object["metadata"] : nullptr;
  if (annotations == nullptr || !annotations->contains("annotations")) return {};
  const Json& map = (*annotations)["annotations"];
  const auto it = map.find(key);
  return it != map.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string resource_version_of(const Json& object) {
  if (!object.contains("metadata") || !object["metadata"].contains("resourceVersion")) return {};
  const Json& version = object["metadata"]["resourceVersion"];
  return version.is_string() ? version.get<std::string>() : std::string();
}

// The serial an index gives, or a chunk was written for; 0 when it names none.
std::int64_t serial_of(const Json& object) {
  try {
    const std::string text = annotation(object, kSerial);
    return text.empty() ? 0 : std::stoll(text);
  } catch (const std::exception&) {
    return 0;
  }
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string join_commas(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ",") + name;
  return out;
}

Json labels_for(const ClusterAddress& address) {
  return Json{{"app.kubernetes.io/managed-by", "mkq"}, {"mkq.dev/state", address.name}};
}

// An error about the state as a whole, naming it: "state kubernetes://c/ns/n: ...".
kube::Error state_error(const ClusterAddress& address, const kube::Error& cause, const std::string& doing) {
  kube::Error error = cause;
  error.message = "state " + address.uri() + ": " + doing + ": " + cause.message;
  return error;
}

kube::Error damaged(const ClusterAddress& address, const std::string& what) {
  return kube::Error{422, "Invalid",
                     "state " + address.uri() + " is damaged: " + what +
                         "; nothing was changed (a copy pushed earlier can be restored with `mkq state push --force`)",
                     Json()};
}

}  // namespace

std::string ClusterAddress::uri() const {
  return std::string(kClusterScheme) + context + "/" + namespace_name + "/" + name;
}

bool is_cluster_address(const std::string& text) { return text.rfind(kClusterScheme, 0) == 0; }

base::Result<ClusterAddress> parse_cluster_address(const std::string& text) {
  const auto fail = [&](const std::string& why) {
    return base::Error::config("--state " + text + ": " + why +
                               " (a state in a cluster is kubernetes://CONTEXT/NAMESPACE/NAME)");
  };
  if (!is_cluster_address(text)) return fail("not a kubernetes:// address");
  const std::string rest = text.substr(kClusterScheme.size());
  const std::size_t last = rest.rfind('/');
  const std::size_t middle = last == std::string::npos || last == 0 ? std::string::npos : rest.rfind('/', last - 1);
  if (last == std::string::npos || middle == std::string::npos) return fail("it names no namespace and name");
  ClusterAddress address{rest.substr(0, middle), rest.substr(middle + 1, last - middle - 1), rest.substr(last + 1)};
  if (address.context.empty()) return fail("the context is empty");
  if (!dns_label(address.namespace_name, facts::kMaxDns1123LabelLength)) {
    return fail(fmt::format("the namespace \"{}\" is not a DNS label (lower-case letters, digits and '-', at most {})",
                            address.namespace_name, facts::kMaxDns1123LabelLength));
  }
  if (!dns_label(address.name, facts::kMaxStateNameLength)) {
    return fail(fmt::format("the name \"{}\" is not a DNS label of at most {} characters", address.name,
                            facts::kMaxStateNameLength));
  }
  return address;
}

std::string changed_by_another_writer(const ClusterAddress& address) {
  return "the state in " + address.uri() +
         " was changed by another writer since it was read; nothing was recorded: run again to plan against what "
         "it holds now";
}

void ClusterState::keep(std::unique_ptr<kube::Client> client) { owned_ = std::move(client); }

kube::Result<void> ClusterState::ensure_namespace() {
  if (namespace_ready_) return {};
  const kube::Result<Json> got = client_.get(namespace_type(), "", address_.namespace_name);
  if (got.ok()) {
    namespace_ready_ = true;
    return {};
  }
  // Anything but "absent" (a role that may not read namespaces, say): the
  // write that follows says whether the namespace is there.
  if (!got.error().not_found()) return {};
  const Json object{{"apiVersion", "v1"},
                    {"kind", "Namespace"},
                    {"metadata", {{"name", address_.namespace_name}, {"labels", labels_for(address_)}}}};
  const kube::Result<Json> created = client_.create(namespace_type(), object);
  if (!created.ok() && !created.error().conflict()) {
    return state_error(address_, created.error(), "cannot create the namespace " + address_.namespace_name);
  }
  namespace_ready_ = true;
  return {};
}

kube::Result<std::string> ClusterState::current_version() {
  const kube::Result<Json> index = client_.get(secret_type(), address_.namespace_name, address_.name);
  if (!index.ok()) {
    if (index.error().not_found()) return std::string();
    return state_error(address_, index.error(), "cannot read its index");
  }
  return resource_version_of(index.value());
}

kube::Result<void> ClusterState::overwrite_next() {
  const kube::Result<Json> index = client_.get(secret_type(), address_.namespace_name, address_.name);
  base_version_.clear();
  base_chunks_.clear();
  base_serial_ = 0;
  if (!index.ok()) {
    if (index.error().not_found()) return {};
    return state_error(address_, index.error(), "cannot read its index");
  }
  base_version_ = resource_version_of(index.value());
  base_chunks_ = split_commas(annotation(index.value(), kChunks));
  base_serial_ = serial_of(index.value());
  return {};
}

kube::Result<std::string> ClusterState::read_chunks(const Json& index) {
  std::string compressed;
  for (const std::string& name : split_commas(annotation(index, kChunks))) {
    const kube::Result<Json> chunk = client_.get(secret_type(), address_.namespace_name, name);
    if (!chunk.ok()) {
      if (chunk.error().not_found()) return damaged(address_, "its chunk " + name + " is missing");
      return state_error(address_, chunk.error(), "cannot read its chunk " + name);
    }
    const Json& data = chunk.value().contains("data") ? chunk.value()["data"] : Json();
    const std::optional<std::string> bytes =
        data.is_object() && data.contains(kChunkKey) && data[kChunkKey].is_string()
            ? base::base64_decode(data[kChunkKey].get<std::string>())
            : std::nullopt;
    if (!bytes) return damaged(address_, "its chunk " + name + " holds no data");
    compressed += *bytes;
  }
  return compressed;
}

kube::Result<std::optional<StateSnapshot>> ClusterState::read() {
  // A writer may replace the chunks between our read of the index and of its
  // chunks: a missing chunk under an index that moved is read again.
  for (int attempt = 0;; ++attempt) {
    const kube::Result<Json> index = client_.get(secret_type(), address_.namespace_name, address_.name);
    if (!index.ok()) {
      if (!index.error().not_found()) return state_error(address_, index.error(), "cannot read its index");
      base_version_.clear();
      base_chunks_.clear();
      base_serial_ = 0;
      return std::optional<StateSnapshot>();
    }
    const Json& object = index.value();
    const std::string format = annotation(object, kFormat);
    if (format != kFormatValue) {
      return kube::Error{422, "Invalid",
                         "state " + address_.uri() + ": its index Secret " + address_.namespace_name + "/" +
                             address_.name + " is not a state this mkq can read (format \"" + format +
                             "\", expected \"" + kFormatValue + "\"); nothing was changed",
                         Json()};
    }
    kube::Result<std::string> compressed = read_chunks(object);
    if (!compressed.ok()) {
      const kube::Result<std::string> now = current_version();
      if (attempt < 2 && now.ok() && now.value() != resource_version_of(object)) continue;
      return compressed.error();
    }
    StateSnapshot snapshot;
    snapshot.lineage = annotation(object, kLineage);
    snapshot.policy = annotation(object, kPolicy);
    std::size_t size = 0;
    try {
      snapshot.serial = std::stoll(annotation(object, kSerial));
      size = static_cast<std::size_t>(std::stoull(annotation(object, kSize)));
    } catch (const std::exception&) {
      return damaged(address_, "its index has no serial or size");
    }
    if (size == 0 || size > kMaxDatabaseBytes) return damaged(address_, fmt::format("its index gives a size of {}", size));
    std::optional<std::string> database = inflate_to(compressed.value(), size);
    if (!database) return damaged(address_, fmt::format("its chunks do not inflate to the {} bytes its index gives", size));
    if (sha256_hex(*database) != annotation(object, kChecksum)) {
      return damaged(address_, "its checksum does not match its chunks (sha256 " + sha256_hex(*database) +
                                   ", the index says " + annotation(object, kChecksum) + ")");
    }
    snapshot.database = std::move(*database);
    base_version_ = resource_version_of(object);
    base_chunks_ = split_commas(annotation(object, kChunks));
    base_serial_ = snapshot.serial;
    return std::optional<StateSnapshot>(std::move(snapshot));
  }
}

void ClusterState::remove_chunks(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    // Best effort: a chunk left behind is named by no index and harms nothing.
    (void)client_.remove(secret_type(), address_.namespace_name, name, kube::DeleteOptions{});
  }
}

kube::Result<void> ClusterState::write(const StateSnapshot& snapshot) {
  if (const std::optional<kube::Error> lost = lock_lost()) {
    return kube::Error{409, "Conflict", "state " + address_.uri() + ": " + lost->message + "; nothing was recorded",
                       Json()};
  }
  if (kube::Result<void> ready = ensure_namespace(); !ready.ok()) return ready;
  const std::optional<std::string> compressed = compress(snapshot.database);
  if (!compressed) return kube::Error{0, "ConfigError", "state " + address_.uri() + ": cannot compress the database", Json()};

  // The new chunks, under names no other write uses.
  const std::string write_id = detail::random_uuid().substr(0, 8);
  std::vector<std::string> chunks;
  for (std::size_t offset = 0, n = 0; offset < compressed->size() || n == 0; offset += options_.chunk_bytes, ++n) {
    const std::string name = fmt::format("{}-{}-{}", address_.name, write_id, n);
    Json labels = labels_for(address_);
    labels[kChunkOf] = address_.name;
    const Json chunk{{"apiVersion", "v1"},
                     {"kind", "Secret"},
                     {"metadata",
                      {{"name", name},
                       {"namespace", address_.namespace_name},
                       {"labels", labels},
                       {"annotations", {{kSerial, std::to_string(snapshot.serial)}}}}},
                     {"type", kChunkType},
                     {"data", {{kChunkKey, base::base64_encode(compressed->substr(offset, options_.chunk_bytes))}}}};
    const kube::Result<Json> created = client_.create(secret_type(), chunk);
    if (!created.ok()) {
      remove_chunks(chunks);
      return state_error(address_, created.error(), "cannot write its chunk " + name);
    }
    chunks.push_back(name);
  }

  // The index names them, if nobody wrote it since we read it.
  Json metadata{{"name", address_.name}, {"namespace", address_.namespace_name}, {"labels", labels_for(address_)},
                {"annotations",
                 {{kFormat, kFormatValue},
                  {kLineage, snapshot.lineage},
                  {kSerial, std::to_string(snapshot.serial)},
                  {kPolicy, snapshot.policy},
                  {kChecksum, sha256_hex(snapshot.database)},
                  {kSize, std::to_string(snapshot.database.size())},
                  {kChunks, join_commas(chunks)}}}};
  if (!base_version_.empty()) metadata["resourceVersion"] = base_version_;
  const Json index{{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", metadata}, {"type", "mkq.dev/state"}};
  const kube::Result<Json> written =
      base_version_.empty() ? client_.create(secret_type(), index) : client_.update(secret_type(), index);
  if (!written.ok()) {
    remove_chunks(chunks);
    if (written.error().conflict()) return kube::Error{409, "Conflict", changed_by_another_writer(address_), Json()};
    return state_error(address_, written.error(), "cannot write its index");
  }
  std::vector<std::string> old = std::exchange(base_chunks_, chunks);
  base_version_ = resource_version_of(written.value());
  base_serial_ = snapshot.serial;
  remove_chunks(old);
  if (!orphans_swept_) {
    orphans_swept_ = true;  // once per process: orphans come from crashes, not from every write
    (void)remove_orphaned_chunks();  // best effort: the write itself is done
  }
  return {};
}

kube::Result<std::vector<std::string>> ClusterState::orphaned_chunks() {
  kube::ListOptions list;
  list.namespace_name = address_.namespace_name;
  list.label_selector = std::string(kChunkOf) + "=" + address_.name;
  const kube::Result<kube::ObjectList> secrets = client_.list(secret_type(), list);
  if (!secrets.ok()) return state_error(address_, secrets.error(), "cannot list its chunks");
  const std::string prefix = address_.name + "-";
  std::vector<std::string> orphans;
  for (const Json& secret : secrets.value().items) {
    const Json& metadata = secret.contains("metadata") ? secret["metadata"] : Json();
    const std::string name = metadata.is_object() && metadata.contains("name") && metadata["name"].is_string()
                                 ? metadata["name"].get<std::string>()
                                 : std::string();
    const bool labelled = metadata.is_object() && metadata.contains("labels") && metadata["labels"].is_object() &&
                          metadata["labels"].value(kChunkOf, Json()) == address_.name &&
                          metadata["labels"].value("mkq.dev/state", Json()) == address_.name;
    const bool chunk = secret.value("type", Json()) == kChunkType;
    if (name.rfind(prefix, 0) != 0 || !labelled || !chunk) continue;  // never anything but this state's chunks
    if (std::find(base_chunks_.begin(), base_chunks_.end(), name) != base_chunks_.end()) continue;
    if (serial_of(secret) >= base_serial_) continue;
    orphans.push_back(name);
  }
  std::sort(orphans.begin(), orphans.end());
  return orphans;
}

kube::Result<std::vector<std::string>> ClusterState::remove_orphaned_chunks() {
  kube::Result<std::vector<std::string>> orphans = orphaned_chunks();
  if (!orphans.ok()) return orphans;
  std::vector<std::string> removed;
  for (const std::string& name : orphans.value()) {
    const kube::Result<Json> gone = client_.remove(secret_type(), address_.namespace_name, name, kube::DeleteOptions{});
    if (gone.ok() || gone.error().not_found()) removed.push_back(name);
  }
  return removed;
}

}  // namespace mkq::state
