// A small, deterministic YAML writer for rendered objects.
//
// mkq writes its own YAML instead of going through a library so the output is
// byte-stable and shaped the way Kubernetes manifests are usually written:
// block style, two-space indentation, list items at their key's indentation
// ("- name: x"), keys in the document's (insertion) order. Every string that a
// YAML 1.1 or 1.2 reader would take for something else ("yes", "on", "null",
// "1.5", "0x1F", "", " padded") is double-quoted; a string of several lines
// is a block literal ("|"). Reading the output back with any YAML reader
// gives exactly the JSON document.
#pragma once

#include <string>
#include <string_view>

#include "compiler/kueue/objects.h"

namespace mkq::kueue {

// The document as YAML (no "---" separator), ending with a newline.
std::string to_yaml(const Json& document);
// The same text appended to `out` (one buffer for many documents).
void append_yaml(const Json& document, std::string& out);

// True when `text` can be written as a plain (unquoted) scalar and read back as
// the same string.
bool is_plain_safe(std::string_view text);

// `text` as a double-quoted YAML scalar (escapes for '"', '\\' and control characters).
std::string double_quoted(std::string_view text);

}  // namespace mkq::kueue
