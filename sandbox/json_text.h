// Reading JSON text without parsing it into values: what a LIST answer needs
// to splice stored objects into its body as they are (verbs_read.cpp).
#pragma once

#include <optional>
#include <string_view>

namespace mkq::sandbox {

// The text of the value of `key` among the top-level members of the JSON
// object `text` ("\"v1\"" for {"apiVersion":"v1",...}), found by skipping
// every other value without building it. nullopt when the key is absent, when
// the text is not a well-formed object to this scan's eye, or when a key holds
// an escape (the scan compares keys as written, so it does not guess).
std::optional<std::string_view> top_level_member(std::string_view text, std::string_view key);

}  // namespace mkq::sandbox
