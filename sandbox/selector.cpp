#include "sandbox/selector.h"

#include <algorithm>
#include <cctype>

#include "sandbox/nodes_pods.h"

namespace mkq::sandbox {
namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Splits on commas outside parentheses.
std::vector<std::string> split_terms(const std::string& s) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (const char c : s) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!trim(current).empty() || !out.empty()) out.push_back(trim(current));
  return out;
}

bool valid_key(const std::string& key) {
  if (key.empty()) return false;
  return std::all_of(key.begin(), key.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '/';
  });
}

std::optional<Requirement> parse_term(const std::string& term, bool set_ops) {
  Requirement r;
  if (term.empty()) return std::nullopt;
  if (term[0] == '!') {
    if (!set_ops) return std::nullopt;
    r.key = trim(term.substr(1));
    r.op = Requirement::Op::DoesNotExist;
    return valid_key(r.key) ? std::optional(r) : std::nullopt;
  }
  if (const auto pos = term.find("!="); pos != std::string::npos) {
    r.key = trim(term.substr(0, pos));
    r.op = Requirement::Op::NotEquals;
    r.values.push_back(trim(term.substr(pos + 2)));
  } else if (const auto pos2 = term.find("=="); pos2 != std::string::npos) {
    r.key = trim(term.substr(0, pos2));
    r.values.push_back(trim(term.substr(pos2 + 2)));
  } else if (const auto pos3 = term.find('='); pos3 != std::string::npos) {
    r.key = trim(term.substr(0, pos3));
    r.values.push_back(trim(term.substr(pos3 + 1)));
  } else if (set_ops && term.find('(') != std::string::npos) {
    const auto open = term.find('(');
    const auto close = term.rfind(')');
    if (close == std::string::npos || close < open || !trim(term.substr(close + 1)).empty()) return std::nullopt;
    const std::string head = trim(term.substr(0, open));
    const auto space = head.find_last_of(" \t");
    if (space == std::string::npos) return std::nullopt;
    r.key = trim(head.substr(0, space));
    const std::string op = trim(head.substr(space + 1));
    if (op == "in") {
      r.op = Requirement::Op::In;
    } else if (op == "notin") {
      r.op = Requirement::Op::NotIn;
    } else {
      return std::nullopt;
    }
    std::string inner = term.substr(open + 1, close - open - 1);
    std::size_t start = 0;
    while (start <= inner.size()) {
      const auto comma = inner.find(',', start);
      const std::string value = trim(inner.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      r.values.push_back(value);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else if (set_ops) {
    r.key = trim(term);
    r.op = Requirement::Op::Exists;
  } else {
    return std::nullopt;
  }
  return valid_key(r.key) ? std::optional(r) : std::nullopt;
}

bool holds(const Requirement& r, const std::optional<std::string>& value) {
  switch (r.op) {
    case Requirement::Op::Equals:
      return value && *value == r.values.front();
    case Requirement::Op::NotEquals:
      return !value || *value != r.values.front();
    case Requirement::Op::In:
      return value && std::find(r.values.begin(), r.values.end(), *value) != r.values.end();
    case Requirement::Op::NotIn:
      return !value || std::find(r.values.begin(), r.values.end(), *value) == r.values.end();
    case Requirement::Op::Exists:
      return value.has_value();
    case Requirement::Op::DoesNotExist:
      return !value.has_value();
  }
  return false;
}

}  // namespace

std::optional<Selector> parse_selector(const std::string& label_selector, const std::string& field_selector,
                                       const ResourceInfo& info, std::string* error) {
  Selector selector;
  for (const auto& term : split_terms(label_selector)) {
    auto r = parse_term(term, true);
    if (!r) {
      *error = "unable to parse requirement: found '" + term + "', expected: valid label selector";
      return std::nullopt;
    }
    selector.labels.push_back(std::move(*r));
  }
  for (const auto& term : split_terms(field_selector)) {
    auto r = parse_term(term, false);
    if (!r) {
      *error = "invalid selector: '" + field_selector + "'; can't understand '" + term + "'";
      return std::nullopt;
    }
    if (r->key != "metadata.name" && r->key != "metadata.namespace" && !is_field_label(info, r->key)) {
      *error = "field label not supported: " + r->key;
      return std::nullopt;
    }
    selector.fields.push_back(std::move(*r));
  }
  return selector;
}

bool Selector::matches(const nlohmann::json& object) const {
  const auto meta = object.value("metadata", nlohmann::json::object());
  const auto label_map = meta.value("labels", nlohmann::json::object());
  for (const auto& r : labels) {
    std::optional<std::string> value;
    if (label_map.is_object() && label_map.contains(r.key) && label_map[r.key].is_string()) value = label_map[r.key].get<std::string>();
    if (!holds(r, value)) return false;
  }
  for (const auto& r : fields) {
    const bool of_meta = r.key == "metadata.name" || r.key == "metadata.namespace";
    const std::optional<std::string> value =
        of_meta ? std::optional(meta.value(r.key == "metadata.name" ? "name" : "namespace", std::string()))
                : field_label_value(r.key, object);
    if (!holds(r, value)) return false;
  }
  return true;
}

}  // namespace mkq::sandbox
