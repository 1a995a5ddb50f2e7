// ObjectText (client.h): an object kept as text, and the default list_text.
#include "runtime/kube/client.h"
#include "runtime/kube/json_decode.h"

namespace mkq::kube {
namespace {

std::string metadata_string(const Json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  const auto it = meta->find(key);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

// nlohmann's encoding reads back as the same value (numbers round-trip).
ObjectText::ObjectText(const Json& object)
    : text_(object.dump()), name_(metadata_string(object, "name")), namespace_(metadata_string(object, "namespace")) {}

Json ObjectText::decode() const {
  if (std::optional<Json> decoded = decode_json(text_)) return std::move(*decoded);
  Json parsed = Json::parse(text_, nullptr, false);
  return parsed.is_discarded() ? Json() : parsed;
}

Result<ObjectTextList> Client::list_text(const ResourceType& type, const ListOptions& options) {
  Result<ObjectList> listed = list(type, options);
  if (!listed.ok()) return listed.error();
  ObjectTextList out;
  out.resource_version = std::move(listed.value().resource_version);
  out.items.reserve(listed.value().items.size());
  for (const Json& item : listed.value().items) out.items.emplace_back(item);
  return out;
}

}  // namespace mkq::kube
