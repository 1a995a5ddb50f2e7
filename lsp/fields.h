// What the language server says about block kinds and their fields: the one
// seam between the server and the language's schema, read from the table the
// binder checks against (compiler/sema/language.h), so hover and completion
// offer exactly what `mkq check` accepts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mkq::lsp {

struct FieldInfo {
  std::string name;
  std::string doc;                       // one line; empty when none is known
  std::vector<std::string> enum_values;  // the strings the field takes, when it is an enumeration
  // Markdown lines for hover: its type, mkq's default, and the Kueue field it
  // renders to with Kueue's own description.
  std::string detail;
};

struct BlockInfo {
  std::string kind;
  std::string doc;                      // one line
  std::string detail;                   // Markdown for hover: what it renders to
  std::vector<FieldInfo> fields;
  std::vector<std::string> blocks;      // nested block kinds
  bool any_field = false;               // quota, capacity: every attribute names a resource
};

// The block kind `kind` nested in `parent` ("" at the top level); null when
// no such block is known there.
const BlockInfo* block_info(std::string_view parent, std::string_view kind);

// The block kinds that may be written inside `parent` ("" at the top level).
std::vector<std::string> block_kinds(std::string_view parent);

}  // namespace mkq::lsp
