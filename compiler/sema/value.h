// Run-time values of the policy language.
//
// Values are immutable once built and cheap to copy (lists and maps share their
// storage). Each value remembers the source range of the expression that made
// it, so that a later stage (the binder) can point at the exact text of a bad
// element inside a list.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/sema/quantity.h"

namespace mkq::sema {

enum class ValueKind { Null, Bool, Number, Duration, String, All, List, Map, Secret, Template, Module, Builtin };

// A secret: where its value comes from at apply time. The compiler never reads
// or prints the value itself, only this description.
struct SecretRef {
  std::string source;  // e.g. "env:WORKER1_TOKEN", "file:/etc/mkq/worker1.kubeconfig"
};

struct Value;
using List = std::vector<Value>;
using Map = std::map<std::string, Value>;  // ordered: deterministic output

struct TemplateRef { const void* decl = nullptr; std::string name; };  // opaque to consumers
struct ModuleRef { const void* module = nullptr; std::string path; };   // opaque to consumers
struct BuiltinRef { std::string name; };

struct Value {
  using Storage = std::variant<std::monostate, bool, Quantity, Duration, std::string,
                               std::shared_ptr<const List>, std::shared_ptr<const Map>, SecretRef,
                               TemplateRef, ModuleRef, BuiltinRef>;

  ValueKind kind = ValueKind::Null;
  Storage data;
  diag::SourceRange origin;  // the expression that produced this value
  // For an entry of a map literal: where its key was written (`borrowing_limit:`),
  // so that an unknown key can be pointed at. Invalid otherwise.
  diag::SourceRange key_origin;

  static Value null(diag::SourceRange at = {});
  static Value boolean(bool b, diag::SourceRange at = {});
  static Value number(Quantity q, diag::SourceRange at = {});
  static Value duration(Duration d, diag::SourceRange at = {});
  static Value string(std::string s, diag::SourceRange at = {});
  static Value all(diag::SourceRange at = {});
  static Value list(List items, diag::SourceRange at = {});
  static Value map(Map entries, diag::SourceRange at = {});
  static Value secret(SecretRef ref, diag::SourceRange at = {});

  bool is(ValueKind k) const { return kind == k; }
  bool as_bool() const { return std::get<bool>(data); }
  const Quantity& as_number() const { return std::get<Quantity>(data); }
  const Duration& as_duration() const { return std::get<Duration>(data); }
  const std::string& as_string() const { return std::get<std::string>(data); }
  const List& as_list() const { return *std::get<std::shared_ptr<const List>>(data); }
  const Map& as_map() const { return *std::get<std::shared_ptr<const Map>>(data); }
  const SecretRef& as_secret() const { return std::get<SecretRef>(data); }
};

// The language's name for a kind, for messages: "number", "string", "list", ...
const char* type_name(ValueKind kind);

// The kind with its article, for messages: "a number", "a list", "'all'", "null".
std::string described(ValueKind kind);

// Structural equality (numbers by value, durations by length).
bool equal(const Value& a, const Value& b);

// How the value reads in a message or in string interpolation: strings as is,
// numbers canonical, lists and maps in the language's syntax. A secret prints
// as "<secret>" — callers that would print a secret must reject it first.
std::string to_display(const Value& v);

}  // namespace mkq::sema
