// Reading evaluated blocks and values against the schema (see bind_reader.h).
#include "compiler/sema/bind_reader.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/sema/codes_bind.h"
#include "compiler/sema/names.h"

namespace mkq::sema::bind_detail {

namespace codes = bind_codes;

// ------------------------------------------------------------------ Binder

diag::Diagnostic& Binder::error(const char* code, const diag::SourceRange& range, std::string message) {
  return annotate(diagnostics_.error(code, range, std::move(message)));
}

diag::Diagnostic& Binder::warning(const char* code, const diag::SourceRange& range, std::string message) {
  return annotate(diagnostics_.warning(code, range, std::move(message)));
}

diag::Diagnostic& Binder::annotate(diag::Diagnostic& d) {
  if (chain_ == nullptr) return d;
  for (const diag::SourceRange& site : *chain_) d.notes.push_back({"instantiated from here", site});
  return d;
}

Binder::InstantiationScope::InstantiationScope(Binder& binder, const std::vector<diag::SourceRange>& chain)
    : binder_(binder), saved_(binder.chain_) {
  if (!chain.empty()) binder_.chain_ = &chain;
}

Binder::InstantiationScope::~InstantiationScope() { binder_.chain_ = saved_; }

// ------------------------------------------------------------------ labels

const language::Block& schema_at(std::initializer_list<std::string_view> path) {
  if (const language::Block* block = language::find(path)) return *block;
  std::string where;
  for (const std::string_view kind : path) where += (where.empty() ? "" : " > ") + std::string(kind);
  throw std::logic_error("the language table has no block at " + where);
}

const EvalLabel* check_labels(Binder& binder, const EvalBlock& block, const language::Block& schema) {
  const language::Labels& spec = schema.labels;
  const std::string noun(spec.noun);
  const EvalLabel* label = nullptr;
  if (noun.empty()) {
    if (!block.labels.empty()) binder.error(codes::kBadLabels, block.labels.front().range, "'" + block.kind + "' takes no label");
  } else if (block.labels.empty()) {
    binder.error(codes::kBadLabels, block.kind_range,
                 fmt::format("'{}' needs {}: {}", block.kind, noun, spec.usage));
  } else {
    label = &block.labels.front();
    if (block.labels.size() > 1) {
      binder.error(codes::kBadLabels, block.labels[1].range,
                   fmt::format("'{}' takes one label ({}), found {}", block.kind, noun, block.labels.size()));
    }
  }
  if (spec.in == language::InLabel::Forbidden && block.in_label) {
    binder.error(codes::kBadLabels, block.in_label->range, "'" + block.kind + "' takes no 'in' label");
  } else if (spec.in == language::InLabel::Required && !block.in_label) {
    binder.error(codes::kBadLabels, block.kind_range,
                 fmt::format("'{}' needs a namespace: {}", block.kind, spec.usage));
  }
  return label;
}

// ------------------------------------------------------------------ Members

namespace {

bool contains(const std::vector<std::string_view>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::vector<std::string> to_strings(std::initializer_list<const std::vector<std::string_view>*> lists) {
  std::vector<std::string> result;
  for (const auto* list : lists) {
    for (const std::string_view item : *list) result.emplace_back(item);
  }
  return result;
}

// What "did you mean" offers for a misspelt member: the fields, then the
// nested kinds that may repeat, then those that may appear once.
std::vector<std::string> member_names(const language::Block& schema, bool with_fields) {
  std::vector<std::string> result;
  if (with_fields) {
    for (const language::Field& field : schema.fields) result.emplace_back(field.name);
  }
  for (const bool repeats : {true, false}) {
    for (const language::Block* child : schema.children) {
      if (child->repeats == repeats) result.emplace_back(child->kind);
    }
  }
  return result;
}

[[noreturn]] void not_in_table(const language::Block& schema, std::string_view what, std::string_view name) {
  throw std::logic_error(fmt::format(
      "the binder reads {} '{}' of '{}', which the language table does not list", what, name, schema.kind));
}

}  // namespace

Members::Members(Binder& binder, const EvalBlock& block, const language::Block& schema) : schema_(&schema) {
  const std::string what(schema.kind);
  for (const EvalAttribute& attribute : block.attributes) {
    const bool known = schema.any_field || schema.field(attribute.name) != nullptr;
    if (!known) {
      if (schema.child(attribute.name) != nullptr) {
        binder.error(codes::kUnknownField, attribute.name_range,
                     "'" + attribute.name + "' is a block in '" + what + "', not a field: write '" + attribute.name +
                         " { ... }'");
      } else {
        auto& d = binder.error(codes::kUnknownField, attribute.name_range,
                               "unknown field '" + attribute.name + "' in '" + what + "'");
        diag::suggest_closest(d, attribute.name, member_names(schema, true));
      }
      continue;
    }
    const auto first = std::find_if(attributes_.begin(), attributes_.end(),
                                     [&](const EvalAttribute* a) { return a->name == attribute.name; });
    if (first != attributes_.end()) {
      auto& d = binder.error(codes::kDuplicateField, attribute.name_range,
                             "field '" + attribute.name + "' is set twice");
      d.notes.push_back({"first set here", (*first)->name_range});
      continue;
    }
    attributes_.push_back(&attribute);
  }
  for (const EvalBlock& nested : block.blocks) {
    if (const language::Block* child = schema.child(nested.kind)) {
      if (!child->repeats) {
        const auto first = std::find_if(blocks_.begin(), blocks_.end(),
                                        [&](const EvalBlock* b) { return b->kind == nested.kind; });
        if (first != blocks_.end()) {
          auto& d = binder.error(codes::kDuplicateBlock, nested.kind_range,
                                 "'" + nested.kind + "' may appear only once in '" + what + "'");
          d.notes.push_back({"first here", (*first)->kind_range});
          continue;
        }
      }
      blocks_.push_back(&nested);
      continue;
    }
    if (!schema.any_field && schema.field(nested.kind) != nullptr) {
      binder.error(codes::kUnknownBlockKind, nested.kind_range,
                   "'" + nested.kind + "' is a field of '" + what + "', not a block: write '" + nested.kind +
                       " = ...'");
      continue;
    }
    if (nested.kind == "policy") {
      binder.error(codes::kUnknownBlockKind, nested.kind_range,
                   "'policy' names the whole policy: declare it at the top level, not in '" + what + "'");
      continue;
    }
    auto& d = binder.error(codes::kUnknownBlockKind, nested.kind_range,
                           "unknown block '" + nested.kind + "' in '" + what + "'");
    diag::suggest_closest(d, nested.kind, member_names(schema, false));
  }
}

const EvalAttribute* Members::field(std::string_view name) const {
  if (!schema_->any_field && schema_->field(name) == nullptr) not_in_table(*schema_, "field", name);
  for (const EvalAttribute* attribute : attributes_) {
    if (attribute->name == name) return attribute->value.is(ValueKind::Null) ? nullptr : attribute;
  }
  return nullptr;
}

std::vector<const EvalBlock*> Members::blocks(std::string_view kind) const {
  if (schema_->child(kind) == nullptr) not_in_table(*schema_, "block", kind);
  std::vector<const EvalBlock*> result;
  for (const EvalBlock* nested : blocks_) {
    if (nested->kind == kind) result.push_back(nested);
  }
  return result;
}

const EvalBlock* Members::block(std::string_view kind) const {
  if (schema_->child(kind) == nullptr) not_in_table(*schema_, "block", kind);
  for (const EvalBlock* nested : blocks_) {
    if (nested->kind == kind) return nested;
  }
  return nullptr;
}

// ------------------------------------------------------------------ values

std::string describe_found(const Value& value) { return described(value.kind); }

diag::Diagnostic& report_type(Binder& binder, std::string_view field, std::string_view expected,
                              const Value& value) {
  if (value.is(ValueKind::Secret)) {
    auto& d = binder.error(codes::kSecretNotAllowed, value.origin,
                           fmt::format("field '{}' cannot hold a secret: its value would be printed", field));
    d.notes.push_back({"only 'token' and 'kubeconfig' of a 'credentials' block take secrets", std::nullopt});
    return d;
  }
  return binder.error(codes::kTypeMismatch, value.origin,
                      fmt::format("field '{}' expects {}, found {}", field, expected, describe_found(value)));
}

std::optional<Located<std::string>> read_string(Binder& binder, std::string_view field, const Value& value) {
  if (!value.is(ValueKind::String)) {
    report_type(binder, field, "a string", value);
    return std::nullopt;
  }
  return Located<std::string>{value.as_string(), value.origin};
}

std::optional<Located<Quantity>> read_quantity(Binder& binder, std::string_view field, const Value& value) {
  if (!value.is(ValueKind::Number)) {
    report_type(binder, field, "a quantity", value);
    return std::nullopt;
  }
  return Located<Quantity>{value.as_number(), value.origin};
}

std::optional<Located<std::int64_t>> read_integer(Binder& binder, std::string_view field, const Value& value,
                                                  std::int64_t min, std::int64_t max) {
  if (!value.is(ValueKind::Number)) {
    report_type(binder, field, "an integer", value);
    return std::nullopt;
  }
  const Quantity& number = value.as_number();
  if (!number.is_integer()) {
    binder.error(codes::kNotAnInteger, value.origin,
                 fmt::format("field '{}' expects an integer, found {}", field, number.to_string()));
    return std::nullopt;
  }
  const std::optional<std::int64_t> integer = number.to_int64();
  if (!integer || *integer < min || *integer > max) {
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
    std::string bound;
    if (min != kMin && max != kMax) {
      bound = fmt::format("must be between {} and {}", min, max);
    } else if (min != kMin) {
      bound = fmt::format("must be at least {}", min);
    } else if (max != kMax) {
      bound = fmt::format("must be at most {}", max);
    } else {
      bound = "must fit in 64 bits";
    }
    binder.error(codes::kValueOutOfRange, value.origin,
                 fmt::format("field '{}' {}, found {}", field, bound, number.to_string()));
    return std::nullopt;
  }
  return Located<std::int64_t>{*integer, value.origin};
}

std::optional<Located<Duration>> read_duration(Binder& binder, std::string_view field, const Value& value,
                                               DurationBound bound) {
  if (!value.is(ValueKind::Duration)) {
    diag::Diagnostic& d = report_type(binder, field, "a duration", value);
    if (value.is(ValueKind::Number)) {
      // `30m` is a quantity (m: thousandths), as in Kubernetes; a duration's minutes are `min`.
      const std::string written = value.as_number().to_string();
      d.notes.push_back({written.size() > 1 && written.back() == 'm'
                             ? "'" + written + "' is a quantity (m: thousandths); minutes are written '" +
                                   written.substr(0, written.size() - 1) + "min'"
                             : std::string("a duration takes a unit: ms, s, min, h or d, as in '30min' or '7d'"),
                         std::nullopt});
    }
    return std::nullopt;
  }
  const Duration& duration = value.as_duration();
  if (duration.millis() < 0 || (bound == DurationBound::Positive && duration.millis() == 0)) {
    const char* rule = bound == DurationBound::Positive ? "must be positive" : "must not be negative";
    binder.error(codes::kValueOutOfRange, value.origin,
                 fmt::format("field '{}' {}, found {}", field, rule, duration.to_string()));
    return std::nullopt;
  }
  return Located<Duration>{duration, value.origin};
}

std::optional<Located<bool>> read_bool(Binder& binder, std::string_view field, const Value& value) {
  if (!value.is(ValueKind::Bool)) {
    report_type(binder, field, "a bool", value);
    return std::nullopt;
  }
  return Located<bool>{value.as_bool(), value.origin};
}

std::optional<Located<SecretRef>> read_secret(Binder& binder, std::string_view field, const Value& value) {
  if (!value.is(ValueKind::Secret)) {
    auto& d =
        binder.error(codes::kTypeMismatch, value.origin,
                     fmt::format("field '{}' expects a secret, found {}", field, describe_found(value)));
    d.notes.push_back({"write secret(\"env:NAME\") or secret(\"file:/path\"), so that the value is never printed",
                       std::nullopt});
    return std::nullopt;
  }
  return Located<SecretRef>{value.as_secret(), value.origin};
}

std::optional<std::vector<Located<std::string>>> read_string_list(Binder& binder, std::string_view field,
                                                                  const Value& value) {
  if (!value.is(ValueKind::List)) {
    report_type(binder, field, "a list of strings", value);
    return std::nullopt;
  }
  std::vector<Located<std::string>> result;
  bool ok = true;
  for (const Value& item : value.as_list()) {
    if (!item.is(ValueKind::String)) {
      if (item.is(ValueKind::Secret)) {
        report_type(binder, field, "a list of strings", item);
      } else {
        binder.error(
            codes::kTypeMismatch, item.origin,
            fmt::format("each element of '{}' must be a string, found {}", field, describe_found(item)));
      }
      ok = false;
      continue;
    }
    result.push_back({item.as_string(), item.origin});
  }
  if (!ok) return std::nullopt;
  return result;
}

std::optional<model::Labels> read_labels(Binder& binder, std::string_view field, const Value& value) {
  if (!value.is(ValueKind::Map)) {
    report_type(binder, field, "a map of labels", value);
    return std::nullopt;
  }
  model::Labels labels;
  bool ok = true;
  for (const auto& [key, item] : value.as_map()) {
    const diag::SourceRange& at = item.origin.valid() ? item.origin : value.origin;
    if (!item.is(ValueKind::String)) {
      if (item.is(ValueKind::Secret)) {
        report_type(binder, field, "a map of labels", item);
      } else {
        binder.error(codes::kTypeMismatch, at,
                     fmt::format("each value of '{}' must be a string, found {} for '{}'", field,
                                 describe_found(item), key));
      }
      ok = false;
      continue;
    }
    check_name(binder, NameFormat::LabelKey, key, at, "label key");
    check_name(binder, NameFormat::LabelValue, item.as_string(), at, "label value");
    labels.emplace(key, item.as_string());
  }
  if (!ok) return std::nullopt;
  return labels;
}

std::optional<std::vector<std::pair<std::string, const Value*>>> read_struct(
    Binder& binder, std::string_view field, const Value& value, const std::vector<std::string_view>& keys) {
  if (!value.is(ValueKind::Map)) return std::nullopt;
  std::vector<std::pair<std::string, const Value*>> entries;
  for (const auto& [key, item] : value.as_map()) {
    if (!contains(keys, key)) {
      const auto& at = item.key_origin.valid() ? item.key_origin : item.origin.valid() ? item.origin : value.origin;
      auto& d = binder.error(codes::kUnknownKey, at, fmt::format("unknown key '{}' in '{}'", key, field));
      diag::suggest_closest(d, key, to_strings({&keys}));
      continue;
    }
    if (item.is(ValueKind::Null)) continue;
    entries.emplace_back(key, &item);
  }
  return entries;
}

void report_enum(Binder& binder, std::string_view field, const std::string& text, const diag::SourceRange& range,
                 const std::vector<std::string>& valid) {
  std::string expected = "expected ";
  for (std::size_t i = 0; i < valid.size(); ++i) {
    if (i > 0) expected += i + 1 == valid.size() ? " or " : ", ";
    expected += "'" + valid[i] + "'";
  }
  auto& d = binder.error(bind_codes::kInvalidEnumValue, range,
                         fmt::format("'{}' is not a valid value for '{}'", text, field));
  d.notes.push_back({std::move(expected), std::nullopt});
  diag::suggest_closest(d, text, valid);
}

// ------------------------------------------------------------------ field shortcuts

std::optional<Located<std::string>> string_field(Binder& binder, const Members& members, std::string_view name) {
  const EvalAttribute* attribute = members.field(name);
  if (attribute == nullptr) return std::nullopt;
  return read_string(binder, name, attribute->value);
}

std::optional<Located<Quantity>> quantity_field(Binder& binder, const Members& members, std::string_view name) {
  const EvalAttribute* attribute = members.field(name);
  if (attribute == nullptr) return std::nullopt;
  return read_quantity(binder, name, attribute->value);
}

std::optional<Located<std::int64_t>> integer_field(Binder& binder, const Members& members, std::string_view name,
                                                   std::int64_t min, std::int64_t max) {
  const EvalAttribute* attribute = members.field(name);
  if (attribute == nullptr) return std::nullopt;
  return read_integer(binder, name, attribute->value, min, max);
}

std::optional<Located<Duration>> duration_field(Binder& binder, const Members& members, std::string_view name,
                                                 DurationBound bound) {
  const EvalAttribute* attribute = members.field(name);
  if (attribute == nullptr) return std::nullopt;
  return read_duration(binder, name, attribute->value, bound);
}

std::optional<Located<bool>> bool_field(Binder& binder, const Members& members, std::string_view name) {
  const EvalAttribute* attribute = members.field(name);
  if (attribute == nullptr) return std::nullopt;
  return read_bool(binder, name, attribute->value);
}

std::optional<std::vector<Located<std::string>>> string_list_field(Binder& binder, const Members& members,
                                                                   std::string_view name) {
  const EvalAttribute* attribute = members.field(name);
  if (attribute == nullptr) return std::nullopt;
  return read_string_list(binder, name, attribute->value);
}

// ------------------------------------------------------------------ names

bool check_name(Binder& binder, NameFormat format, std::string_view text, const diag::SourceRange& range,
                std::string_view noun) {
  std::optional<std::string> rule;
  const char* code = codes::kInvalidSubdomain;
  switch (format) {
    case NameFormat::Subdomain:
      rule = dns1123_subdomain_error(text);
      code = codes::kInvalidSubdomain;
      break;
    case NameFormat::DnsLabel:
      rule = dns1123_label_error(text);
      code = codes::kInvalidDnsLabel;
      break;
    case NameFormat::LabelKey:
      rule = label_key_error(text);
      code = codes::kInvalidLabelKey;
      break;
    case NameFormat::LabelValue:
      rule = label_value_error(text);
      code = codes::kInvalidLabelValue;
      break;
    case NameFormat::ResourceName:
      rule = label_key_error(text);
      code = codes::kInvalidResourceName;
      break;
  }
  if (!rule) return true;
  binder.error(code, range, fmt::format("'{}' is not a valid {}: {}", text, noun, *rule));
  return false;
}

}  // namespace mkq::sema::bind_detail
