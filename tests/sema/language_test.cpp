// The language table (compiler/sema/language.h) against the binder: every
// field and nested block the table lists is one the binder reads, and the
// binder accepts nothing the table does not list. The binder is asked, never
// restated: a policy with every member of the table set to a value of the
// wrong kind must get a diagnostic at each of them.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "compiler/sema/bind_declarations.h"
#include "compiler/sema/language.h"
#include "tests/sema/bind_test_support.h"

namespace bindtest {
namespace language = mkq::sema::language;

namespace {

// A value no field of the table takes: a bool for the fields that take a
// bool, a string for those.
Value wrong_value_for(const language::Field& field) {
  return field.type == "true or false" ? str("not a bool") : boolean(true);
}

// A block of `schema` with the labels it needs and nothing else.
Block bare_block(const language::Block& schema) {
  Block block(std::string(schema.kind), schema.labels.noun.empty() ? std::vector<std::string>{}
                                                                    : std::vector<std::string>{"p"});
  if (schema.labels.in != language::InLabel::Forbidden) block.in("ns");
  return block;
}

// The blocks from a top-level kind down to `target` (its first position), or empty.
bool chain_below(const language::Block* at, const language::Block* target,
                 std::vector<const language::Block*>& chain) {
  chain.push_back(at);
  if (at == target) return true;
  for (const language::Block* child : at->children) {
    if (chain_below(child, target, chain)) return true;
  }
  chain.pop_back();
  return false;
}

std::vector<const language::Block*> chain_to(const language::Block* target) {
  std::vector<const language::Block*> chain;
  for (const language::Block* top : language::top_level()) {
    if (chain_below(top, target, chain)) return chain;
  }
  return {};
}

struct Probe {
  std::string where;  // "clusterqueue > preemption.within_cluster_queue"
  SourceRange name;
  SourceRange value;
};

// A block of the table's `schema` with a label when it takes one, every field
// set to a wrong value (recorded in `probes`) and every nested kind once.
Block full_block(const language::Block& schema, const std::string& where, std::vector<Probe>& probes) {
  Block block = bare_block(schema);
  const auto set = [&](std::string name, const language::Field& field) {
    block.set(name, wrong_value_for(field));
    const EvalAttribute& attribute = block.block.attributes.back();
    probes.push_back({where + "." + name, attribute.name_range, attribute.value.origin});
  };
  if (schema.any_field) set("cpu", schema.resource);
  for (const language::Field& field : schema.fields) set(std::string(field.name), field);
  for (const language::Block* child : schema.children) {
    block.add(full_block(*child, where + " > " + std::string(child->kind), probes));
  }
  return block;
}

bool points_at(const mkq::diag::Diagnostics& diagnostics, const SourceRange& range) {
  for (const auto& d : diagnostics.items()) {
    if (d.range == range) return true;
  }
  return false;
}

std::vector<std::string> kinds_of(std::span<const language::Block* const> blocks) {
  std::vector<std::string> kinds;
  for (const language::Block* block : blocks) kinds.emplace_back(block->kind);
  return kinds;
}

}  // namespace

TEST_CASE("language table: the binder reads every field and nested block the table lists", "[sema][language]") {
  for (const language::Block* top : language::top_level()) {
    DYNAMIC_SECTION(top->kind) {
      std::vector<Probe> probes;
      const Block block = full_block(*top, std::string(top->kind), probes);
      Result r;
      // A field the binder reads but the table lacks throws (bind_reader.h: Members).
      REQUIRE_NOTHROW(r.model = mkq::sema::bind(with_base({block}), r.diagnostics));
      INFO(r.summary());
      for (const auto* d : r.with_code(codes::kUnknownField)) {
        // The one field a position refuses: a nested localqueue's target is its enclosing queue.
        CHECK(d->message == "'clusterqueue' is implied by the enclosing clusterqueue 'p'");
      }
      CHECK(r.with_code(codes::kUnknownBlockKind).empty());
      CHECK(r.with_code(codes::kDuplicateBlock).empty());
      for (const Probe& probe : probes) {
        INFO(probe.where);
        CHECK((points_at(r.diagnostics, probe.value) || points_at(r.diagnostics, probe.name)));
      }
    }
  }
}

TEST_CASE("language table: the binder refuses what the table does not list", "[sema][language][errors]") {
  std::vector<const language::Block*> pending(language::top_level().begin(), language::top_level().end());
  std::set<const language::Block*> seen;
  while (!pending.empty()) {
    const language::Block* schema = pending.back();
    pending.pop_back();
    if (!seen.insert(schema).second) continue;
    for (const language::Block* child : schema->children) pending.push_back(child);
    if (schema->any_field) continue;  // every field names a resource
    DYNAMIC_SECTION(schema->kind) {
      std::vector<Probe> probes;
      Block block = full_block(*schema, std::string(schema->kind), probes);
      block.set("zz_not_in_the_table", num("1"));
      block.add(Block("zz_not_a_block"));
      // The probe block at its place: wrapped in the parents of its first position in the table.
      const std::vector<const language::Block*> chain = chain_to(schema);
      REQUIRE_FALSE(chain.empty());
      for (auto parent = chain.rbegin() + 1; parent != chain.rend(); ++parent) {
        Block wrapper = bare_block(**parent);
        wrapper.add(block);
        block = wrapper;
      }
      const std::vector<Block> policy_blocks = {block};
      const Result r = run(with_base(policy_blocks));
      INFO(r.summary());
      const auto unknown_fields = r.with_code(codes::kUnknownField);
      CHECK(std::any_of(unknown_fields.begin(), unknown_fields.end(), [](const auto* d) {
        return d->message.rfind("unknown field 'zz_not_in_the_table'", 0) == 0;
      }));
      const auto unknown_blocks = r.with_code(codes::kUnknownBlockKind);
      CHECK(std::any_of(unknown_blocks.begin(), unknown_blocks.end(), [](const auto* d) {
        return d->message.rfind("unknown block 'zz_not_a_block'", 0) == 0;
      }));
    }
  }
}

TEST_CASE("language table: its top-level kinds are the binder's, in order", "[sema][language]") {
  std::vector<std::string> binder;
  for (const std::string_view kind : mkq::sema::bind_detail::top_level_kinds()) binder.emplace_back(kind);
  CHECK(kinds_of(language::top_level()) == binder);
}

TEST_CASE("language table: a nested kind at the top level is told where it belongs", "[sema][language][errors]") {
  const std::vector<std::string> top = kinds_of(language::top_level());
  std::set<std::string> nested;
  for (const language::Block* block : language::top_level()) {
    for (const language::Block* child : block->children) {
      nested.emplace(child->kind);
      for (const language::Block* grandchild : child->children) nested.emplace(grandchild->kind);
    }
  }
  for (const std::string& kind : nested) {
    if (std::find(top.begin(), top.end(), kind) != top.end()) continue;  // localqueue: both
    INFO(kind);
    const Result r = run(with_base({Block(kind, {"x"})}));
    const auto found = r.with_code(codes::kUnknownBlockKind);
    REQUIRE(found.size() == 1);
    CHECK(found.front()->message.find("cannot be declared at the top level: it belongs in") != std::string::npos);
  }
}

TEST_CASE("language table: lookup by position", "[sema][language]") {
  const language::Block* preemption = language::find({"clusterqueue", "preemption"});
  REQUIRE(preemption != nullptr);
  const language::Field* within = preemption->field("within_cluster_queue");
  REQUIRE(within != nullptr);
  CHECK(within->values == std::vector<std::string_view>{"Never", "LowerPriority", "LowerOrNewerEqualPriority"});
  CHECK(within->kueue.kind == "ClusterQueue");
  CHECK(within->kueue.path == "spec.preemption.withinClusterQueue");
  CHECK(within->kueue.description.rfind("withinClusterQueue determines whether a pending Workload", 0) == 0);

  // One kind, two blocks: look up by position.
  REQUIRE(language::find({"cohort", "fair_sharing"}) != nullptr);
  CHECK(language::find({"cohort", "fair_sharing"})->field("weight") != nullptr);
  CHECK(language::find({"kueue", "fair_sharing"})->field("weight") == nullptr);
  CHECK(language::find({"kueue", "fair_sharing"})->field("preemption_strategies")->values ==
        std::vector<std::string_view>{"LessThanOrEqualToFinalShare", "LessThanInitialShare"});
  CHECK(language::find({"cohort", "quota"})->kueue.kind == "Cohort");
  CHECK(language::find({"clusterqueue", "quota"})->resource.keys ==
        std::vector<std::string_view>{"nominal", "borrowing_limit", "lending_limit"});

  const std::string_view path[] = {"kueue", "multikueue", "access_provider"};
  const language::Field* api = language::find_field(path, "api_version");
  REQUIRE(api != nullptr);
  CHECK(api->default_value == "\"client.authentication.k8s.io/v1\"");
  CHECK(language::find({"worker", "credentials"})->field("lifetime")->default_value == "30d");

  CHECK(language::find({}) == nullptr);
  CHECK(language::find({"clusterqeue"}) == nullptr);
  CHECK(language::find({"clusterqueue", "sync"}) == nullptr);
  CHECK(language::find({"quota"}) == nullptr);  // nested only
  CHECK(language::find({"localqueue"}) == language::find({"clusterqueue", "localqueue"}));
}

TEST_CASE("language table: every entry has a type and a doc line, every Kueue CRD field a description",
          "[sema][language]") {
  // The kinds of Kueue's CRDs; fields of other kinds (Configuration, RBAC) have no CRD description.
  const std::set<std::string_view> crd_kinds = {"ClusterQueue",   "LocalQueue",           "Cohort",
                                                "ResourceFlavor", "Topology",             "WorkloadPriorityClass",
                                                "AdmissionCheck", "MultiKueueConfig",     "MultiKueueCluster"};
  const auto check_kueue = [&](const language::KueueField& kueue) {
    if (!crd_kinds.count(kueue.kind) || kueue.path.empty() || kueue.path.rfind("metadata.", 0) == 0) return;
    INFO(std::string(kueue.kind) + " " + std::string(kueue.path));
    CHECK_FALSE(kueue.description.empty());
  };
  std::vector<const language::Block*> pending(language::top_level().begin(), language::top_level().end());
  while (!pending.empty()) {
    const language::Block* block = pending.back();
    pending.pop_back();
    INFO(block->kind);
    CHECK_FALSE(block->doc.empty());
    check_kueue(block->kueue);
    if (block->any_field) {
      CHECK_FALSE(block->resource.type.empty());
      check_kueue(block->resource.kueue);
    }
    for (const language::Field& field : block->fields) {
      INFO(field.name);
      CHECK_FALSE(field.type.empty());
      CHECK_FALSE(field.doc.empty());
      check_kueue(field.kueue);
    }
    for (const language::Block* child : block->children) pending.push_back(child);
  }
}

}  // namespace bindtest
