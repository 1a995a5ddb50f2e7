// Test support for the binder: builds evaluated declaration trees directly,
// with a distinct source range for every label, field name and value, so that
// tests can check exactly where a diagnostic points.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/bind.h"
#include "compiler/sema/codes_bind.h"
#include "compiler/sema/eval_tree.h"
#include "compiler/sema/evaluate.h"
#include "tests/support/in_memory_file_system.h"
#include "compiler/sema/model.h"
#include "compiler/sema/value.h"

namespace bindtest {

using mkq::diag::SourceRange;
using mkq::sema::Duration;
using mkq::sema::EvalAttribute;
using mkq::sema::EvalBlock;
using mkq::sema::EvalLabel;
using mkq::sema::EvalPolicy;
using mkq::sema::Quantity;
using mkq::sema::Value;
namespace model = mkq::sema::model;
namespace codes = mkq::sema::bind_codes;

// A range no other call returns (file 0, one byte at a fresh offset).
inline SourceRange fresh() {
  static std::uint32_t next = 0;
  SourceRange range;
  range.file = 0;
  range.begin.offset = next;
  range.end.offset = next + 1;
  ++next;
  return range;
}

inline Value str(std::string text) { return Value::string(std::move(text), fresh()); }
inline Value num(const char* text) { return Value::number(*Quantity::parse(text), fresh()); }
inline Value dur(const char* text) { return Value::duration(*Duration::parse(text), fresh()); }
inline Value boolean(bool b) { return Value::boolean(b, fresh()); }
inline Value all() { return Value::all(fresh()); }
inline Value null() { return Value::null(fresh()); }
inline Value secret(std::string source) { return Value::secret({std::move(source)}, fresh()); }
inline Value list(std::vector<Value> items) { return Value::list(std::move(items), fresh()); }
inline Value strings(std::initializer_list<const char*> items) {
  std::vector<Value> values;
  for (const char* item : items) values.push_back(str(item));
  return list(std::move(values));
}
inline Value map(std::vector<std::pair<std::string, Value>> entries) {
  mkq::sema::Map m;
  for (auto& [key, value] : entries) m.emplace(key, std::move(value));
  return Value::map(std::move(m), fresh());
}

// A block under construction; `block` is public so tests can read its ranges.
struct Block {
  EvalBlock block;

  explicit Block(std::string kind, std::vector<std::string> labels = {}) {
    block.kind = std::move(kind);
    block.kind_range = fresh();
    for (std::string& label : labels) block.labels.push_back(EvalLabel{std::move(label), fresh()});
    block.range = fresh();
  }
  Block& in(std::string ns) {
    block.in_label = EvalLabel{std::move(ns), fresh()};
    return *this;
  }
  Block& set(std::string name, Value value) {
    EvalAttribute attribute;
    attribute.name = std::move(name);
    attribute.name_range = fresh();
    attribute.value = std::move(value);
    attribute.range = fresh();
    block.attributes.push_back(std::move(attribute));
    return *this;
  }
  Block& add(const Block& nested) {
    block.blocks.push_back(nested.block);
    return *this;
  }
  Block& from_use(SourceRange site) {
    block.instantiated_from.push_back(site);
    return *this;
  }
  // Shortcuts to ranges.
  const SourceRange& label(std::size_t i = 0) const { return block.labels.at(i).range; }
  const SourceRange& name_of(std::size_t i) const { return block.attributes.at(i).name_range; }
  const SourceRange& value_of(std::size_t i) const { return block.attributes.at(i).value.origin; }
  const EvalBlock& nested(std::size_t i) const { return block.blocks.at(i); }
};

// quota "FLAVOR" { RES = Q ... } from (resource, value) pairs.
inline Block quota(const std::string& flavor, std::vector<std::pair<std::string, Value>> resources) {
  Block b("quota", {flavor});
  for (auto& [name, value] : resources) b.set(name, std::move(value));
  return b;
}

// A small valid policy: manager "hub", worker "w1" and "w2", flavor "f",
// clusterqueue "cq" with quota "f" { cpu = 4 }, dispatch "d" to w1.
inline std::vector<Block> base() {
  std::vector<Block> blocks;
  blocks.push_back(Block("manager", {"hub"}));
  blocks.push_back(Block("worker", {"w1"}));
  blocks.push_back(Block("worker", {"w2"}));
  blocks.push_back(Block("flavor", {"f"}));
  blocks.push_back(Block("clusterqueue", {"cq"}).add(quota("f", {{"cpu", num("4")}})));
  blocks.push_back(Block("dispatch", {"d"}).set("queues", strings({"cq"})).set("workers", strings({"w1"})));
  return blocks;
}

// The declarations every policy gets from the prelude (std/integrations, the
// integration catalogue), evaluated from the embedded module.
inline const std::vector<EvalBlock>& standard_catalogue() {
  static const std::vector<EvalBlock> blocks = [] {
    mkq::sema::InMemoryFileSystem fs;
    mkq::diag::SourceManager sources;
    mkq::diag::Diagnostics diagnostics;
    mkq::sema::StandardModuleLoader loader(fs, sources, {"/"});
    std::vector<mkq::sema::ModuleSource> prelude;
    for (const std::string_view spec : mkq::sema::kPreludeModules) {
      prelude.push_back(loader.load("", mkq::diag::kNoFile, std::string(spec), {}, diagnostics));
    }
    EvalPolicy evaluated = mkq::sema::evaluate({}, loader, diagnostics, prelude);
    REQUIRE_FALSE(diagnostics.has_errors());
    return evaluated.blocks;
  }();
  return blocks;
}

// `blocks` after the standard catalogue, as analyze() hands a policy to bind().
inline EvalPolicy with_catalogue(const std::vector<Block>& blocks) {
  EvalPolicy p;
  p.blocks = standard_catalogue();
  for (const Block& b : blocks) p.blocks.push_back(b.block);
  return p;
}

inline EvalPolicy policy(const std::vector<Block>& blocks) {
  EvalPolicy p;
  for (const Block& b : blocks) p.blocks.push_back(b.block);
  return p;
}

// base() plus `extra`.
inline EvalPolicy with_base(const std::vector<Block>& extra) {
  std::vector<Block> blocks = base();
  blocks.insert(blocks.end(), extra.begin(), extra.end());
  return policy(blocks);
}

struct Result {
  std::optional<model::Policy> model;
  mkq::diag::Diagnostics diagnostics;

  std::vector<const mkq::diag::Diagnostic*> with_code(const std::string& code) const {
    std::vector<const mkq::diag::Diagnostic*> found;
    for (const auto& d : diagnostics.items()) {
      if (d.code == code) found.push_back(&d);
    }
    return found;
  }

  // The one diagnostic of the run, which must have `code`.
  const mkq::diag::Diagnostic& only(const std::string& code) const {
    INFO(summary());
    REQUIRE(diagnostics.items().size() == 1);
    REQUIRE(diagnostics.items().front().code == code);
    return diagnostics.items().front();
  }

  // The first diagnostic with `code` (others may exist).
  const mkq::diag::Diagnostic& first(const std::string& code) const {
    INFO(summary());
    const auto found = with_code(code);
    REQUIRE(!found.empty());
    return *found.front();
  }

  std::string summary() const {
    std::string text;
    for (const auto& d : diagnostics.items()) text += d.code + " " + d.message + "\n";
    return text.empty() ? "no diagnostics" : text;
  }
};

inline Result run(const EvalPolicy& p) {
  Result result;
  result.model = mkq::sema::bind(p, result.diagnostics);
  return result;
}

inline std::string suggestion(const mkq::diag::Diagnostic& d) {
  return d.suggestions.empty() ? std::string() : d.suggestions.front().message;
}

}  // namespace bindtest
