// YAML read as JSON (yaml.h).
#include "sandbox/yaml.h"

#include <yaml-cpp/yaml.h>

#include <regex>

namespace mkq::sandbox {

using nlohmann::json;

json yaml_to_json(const YAML::Node& node, int depth) {
  if (depth > 200) return nullptr;  // bounded: no CRD nests that deep
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Sequence: {
      json array = json::array();
      for (const YAML::Node& item : node) array.push_back(yaml_to_json(item, depth + 1));
      return array;
    }
    case YAML::NodeType::Map: {
      json object = json::object();
      for (const auto& pair : node)
        object[pair.first.as<std::string>()] = yaml_to_json(pair.second, depth + 1);
      return object;
    }
    case YAML::NodeType::Scalar:
      break;
  }
  const std::string text = node.Scalar();
  if (node.Tag() != "?") return text;  // quoted or explicitly tagged
  if (text == "null" || text == "Null" || text == "NULL" || text == "~" || text.empty()) return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  static const std::regex integer("[-+]?[0-9]+");
  static const std::regex decimal(
      "[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+");
  if (std::regex_match(text, integer)) {
    try {
      return std::stoll(text);
    } catch (...) {
      return text;
    }
  }
  if (std::regex_match(text, decimal)) {
    try {
      return std::stod(text);
    } catch (...) {
      return text;
    }
  }
  return text;
}

std::optional<json> parse_yaml(const std::string& text, std::string* error) {
  try {
    return yaml_to_json(YAML::Load(text));
  } catch (const std::exception& e) {
    if (error != nullptr) *error = e.what();
    return std::nullopt;
  }
}

}  // namespace mkq::sandbox
