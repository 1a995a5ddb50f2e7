// Decoding the API server's JSON answers into Json values faster than
// nlohmann's parser: a LIST answer of a few hundred objects is most of what a
// plan with no changes spends its CPU on.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/kube/result.h"

namespace mkq::kube {

// The value of `text` -- exactly what Json::parse(text) gives (the same
// members in the same order, a repeated key's last value at its first place,
// integers as nlohmann types them) -- or nullopt when the text holds anything
// this decoder leaves to nlohmann's parser: malformed JSON, bytes that are not
// well-formed UTF-8, \u escapes of surrogates, integers of more than 18
// digits, nesting deeper than 256. A caller falls back to Json::parse then.
std::optional<Json> decode_json(std::string_view text);

// One item of a LIST answer as the server wrote it, not decoded: what refresh
// keeps of a live object (its text takes a fraction of the decoded value's
// memory) until the plan reads it.
struct ListItemText {
  std::string text;
  std::string name, namespace_name;  // metadata's, as strings ("" when absent or not a string)
  bool has_api_version = false, has_kind = false;
};

struct ListPageText {
  std::vector<ListItemText> items;
  std::string resource_version, continue_token;  // the list's metadata ("" when absent)
};

// A LIST answer cut into its items, each a text that decode_json decodes (it
// never declines one), read with the same rules: or nullopt when decode_json
// would decline the answer, or it is not a plain list -- an object whose
// "items" is an array of objects and whose metadata's resourceVersion and
// continue are strings, neither key repeated. A caller decodes it whole then.
std::optional<ListPageText> split_list(std::string_view text);

}  // namespace mkq::kube
