// Decoding the API server's JSON answers into Json values faster than
// nlohmann's parser: a LIST answer of a few hundred objects is most of what a
// plan with no changes spends its CPU on.
#pragma once

#include <optional>
#include <string_view>

#include "runtime/kube/result.h"

namespace mkq::kube {

// The value of `text` -- exactly what Json::parse(text) gives (the same
// members in the same order, a repeated key's last value at its first place,
// integers as nlohmann types them) -- or nullopt when the text holds anything
// this decoder leaves to nlohmann's parser: malformed JSON, bytes that are not
// well-formed UTF-8, \u escapes of surrogates, integers of more than 18
// digits, nesting deeper than 256. A caller falls back to Json::parse then.
std::optional<Json> decode_json(std::string_view text);

}  // namespace mkq::kube
