// Internal to the binder: reading one evaluated block against the schema of its
// position (fields, nested block kinds, labels) and reading attribute values as
// the types the model needs, reporting every mismatch with its exact range.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/eval_tree.h"
#include "compiler/sema/language.h"
#include "compiler/sema/model.h"

namespace mkq::sema::bind_detail {

using model::Located;

// The diagnostics sink of one bind() run. Diagnostics about a block produced by
// a template get "instantiated from here" notes for the `use` sites.
class Binder {
 public:
  explicit Binder(diag::Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  diag::Diagnostic& error(const char* code, const diag::SourceRange& range, std::string message);
  diag::Diagnostic& warning(const char* code, const diag::SourceRange& range, std::string message);

  // While alive, diagnostics get notes for `chain` (innermost first). Scopes
  // nest; the innermost non-empty chain wins.
  class InstantiationScope {
   public:
    InstantiationScope(Binder& binder, const std::vector<diag::SourceRange>& chain);
    ~InstantiationScope();
    InstantiationScope(const InstantiationScope&) = delete;
    InstantiationScope& operator=(const InstantiationScope&) = delete;

   private:
    Binder& binder_;
    const std::vector<diag::SourceRange>* saved_;
  };

 private:
  diag::Diagnostic& annotate(diag::Diagnostic& d);

  diag::Diagnostics& diagnostics_;
  const std::vector<diag::SourceRange>* chain_ = nullptr;
};

// ------------------------------------------------------------------ labels, fields and nested blocks

// The schema of each block position is the language table (language.h).
// The block at `path` in the table; a path the table lacks is a bug in mkq
// (std::logic_error), never a property of the input.
const language::Block& schema_at(std::initializer_list<std::string_view> path);

// Reports a missing, extra or unexpected label against the labels `schema`
// takes, and returns the block's one label (nullptr when it takes none or it
// is missing).
const EvalLabel* check_labels(Binder& binder, const EvalBlock& block, const language::Block& schema);

// The members of one block, checked against its schema on construction:
// unknown fields and nested kinds get "did you mean", duplicate fields and
// repeated single blocks get an error with a note at the first. Later lookups
// see only the first of duplicates and only known members.
class Members {
 public:
  Members(Binder& binder, const EvalBlock& block, const language::Block& schema);

  // Lookups name only fields and kinds of the schema: asking for another is a
  // bug in mkq (a field the binder reads but the language table lacks) and
  // throws std::logic_error.
  // The attribute `name`, or nullptr when absent or set to null.
  const EvalAttribute* field(std::string_view name) const;
  // Every known attribute (first of duplicates), in order, null values included.
  const std::vector<const EvalAttribute*>& attributes() const { return attributes_; }
  // Known nested blocks of `kind`, in order (a single block: at most one).
  std::vector<const EvalBlock*> blocks(std::string_view kind) const;
  const EvalBlock* block(std::string_view kind) const;
  // Every known nested block, in order.
  const std::vector<const EvalBlock*>& all_blocks() const { return blocks_; }

 private:
  const language::Block* schema_;
  std::vector<const EvalAttribute*> attributes_;
  std::vector<const EvalBlock*> blocks_;
};

// ------------------------------------------------------------------ values

// "a string", "a number", "a list", ... for "found ..." in messages.
std::string describe_found(const Value& value);

// Reports that `field` expects `expected` ("a string") but got `value`; a
// secret gets the "would be printed" error instead.
diag::Diagnostic& report_type(Binder& binder, std::string_view field, std::string_view expected,
                              const Value& value);

// Each reader returns nullopt after reporting when the value does not fit.
std::optional<Located<std::string>> read_string(Binder& binder, std::string_view field, const Value& value);
std::optional<Located<Quantity>> read_quantity(Binder& binder, std::string_view field, const Value& value);
std::optional<Located<std::int64_t>> read_integer(Binder& binder, std::string_view field, const Value& value,
                                                  std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                                                  std::int64_t max = std::numeric_limits<std::int64_t>::max());
enum class DurationBound { NonNegative, Positive };
std::optional<Located<Duration>> read_duration(Binder& binder, std::string_view field, const Value& value,
                                               DurationBound bound);
std::optional<Located<bool>> read_bool(Binder& binder, std::string_view field, const Value& value);
std::optional<Located<SecretRef>> read_secret(Binder& binder, std::string_view field, const Value& value);
// A list of strings; each element keeps its own range.
std::optional<std::vector<Located<std::string>>> read_string_list(Binder& binder, std::string_view field,
                                                                  const Value& value);
// A map of Kubernetes labels: keys are label keys, values label values.
std::optional<model::Labels> read_labels(Binder& binder, std::string_view field, const Value& value);
// A map value's entries, checked against the keys it may have (unknown keys
// get "did you mean"); nullopt when `value` is not a map.
std::optional<std::vector<std::pair<std::string, const Value*>>> read_struct(
    Binder& binder, std::string_view field, const Value& value, const std::vector<std::string_view>& keys);

// "'X' is not a valid value for 'field'; did you mean 'Y'?" or "...: expected 'A', 'B' or 'C'".
void report_enum(Binder& binder, std::string_view field, const std::string& text, const diag::SourceRange& range,
                 const std::vector<std::string>& valid);

template <typename E, std::size_t N>
std::optional<Located<E>> read_enum(Binder& binder, std::string_view field, const Value& value,
                                    const std::array<E, N>& values) {
  const auto text = read_string(binder, field, value);
  if (!text) return std::nullopt;
  if (const auto parsed = model::from_string(text->value, values)) return Located<E>{*parsed, text->range};
  std::vector<std::string> valid;
  for (const E v : values) valid.emplace_back(model::to_string(v));
  report_enum(binder, field, text->value, text->range, valid);
  return std::nullopt;
}

// Readers of a block's field `name` (nullopt when absent, null or invalid).
std::optional<Located<std::string>> string_field(Binder& binder, const Members& members, std::string_view name);
std::optional<Located<Quantity>> quantity_field(Binder& binder, const Members& members, std::string_view name);
std::optional<Located<std::int64_t>> integer_field(Binder& binder, const Members& members, std::string_view name,
                                                   std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                                                   std::int64_t max = std::numeric_limits<std::int64_t>::max());
std::optional<Located<Duration>> duration_field(Binder& binder, const Members& members, std::string_view name,
                                                 DurationBound bound);
std::optional<Located<bool>> bool_field(Binder& binder, const Members& members, std::string_view name);
std::optional<std::vector<Located<std::string>>> string_list_field(Binder& binder, const Members& members,
                                                                   std::string_view name);
template <typename E, std::size_t N>
std::optional<Located<E>> enum_field(Binder& binder, const Members& members, std::string_view name,
                                     const std::array<E, N>& values) {
  const EvalAttribute* attribute = members.field(name);
  if (attribute == nullptr) return std::nullopt;
  return read_enum(binder, name, attribute->value, values);
}

// ------------------------------------------------------------------ names

enum class NameFormat {
  Subdomain,     // object names
  DnsLabel,      // namespaces, the MultiKueueConfig name
  LabelKey,      // label keys, topology levels
  LabelValue,    // label values, the MultiKueue origin
  ResourceName,  // quota resources
};

// Reports "'X' is not a valid <noun>: <rule>" at `range` and returns false
// when `text` breaks `format`. noun: "name", "namespace name", "label key", ...
bool check_name(Binder& binder, NameFormat format, std::string_view text, const diag::SourceRange& range,
                std::string_view noun);

}  // namespace mkq::sema::bind_detail
