// Readers and defaulting writers of JSON members (json_access.h).
#include "sandbox/json_access.h"

namespace mkq::sandbox {

const nlohmann::json& member(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

const std::string& text_at(const nlohmann::json& object, const char* key) {
  static const std::string kEmpty;
  const nlohmann::json& value = member(object, key);
  return value.is_string() ? value.get_ref<const std::string&>() : kEmpty;
}

long long integer_at(const nlohmann::json& object, const char* key) {
  const nlohmann::json& value = member(object, key);
  return value.is_number_integer() ? value.get<long long>() : 0;
}

void set_default(nlohmann::json& object, const char* key, const nlohmann::json& value) {
  if (!object.contains(key) || object[key].is_null()) object[key] = value;
}

nlohmann::json& child_object(nlohmann::json& object, const char* key) {
  nlohmann::json& child = object[key];
  if (!child.is_object()) child = nlohmann::json::object();
  return child;
}

}  // namespace mkq::sandbox
