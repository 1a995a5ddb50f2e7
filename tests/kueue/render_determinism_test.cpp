// `mkq render` is byte-identical whatever the order of a policy's top-level
// declarations: every example is rendered with its declarations shuffled
// (several fixed permutations) and compared with the original's output. And
// the way `mkq render` writes YAML, one object at a time as lowering makes it
// (StateWriter over ClusterLowering), gives render_yaml()'s bytes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "compiler/kueue/render.h"
#include "compiler/syntax/ast.h"
#include "compiler/syntax/parse.h"
#include "tests/kueue/kueue_test_support.h"

using kueuetest::render_text;
using kueuetest::render_path;
using kueuetest::examples_dir;
using kueuetest::Rendered;

namespace {

// `mkq render`'s YAML: each cluster lowered and written one object at a time.
std::string streamed_yaml(const Rendered& rendered, const std::string& policy_name) {
  mkq::kueue::LowerOptions options;
  options.policy_name = policy_name;
  const mkq::kueue::ClusterLowering lowering(*rendered.policy, options);
  mkq::kueue::StateWriter writer(mkq::kueue::TextFormat::Yaml);
  std::string out;
  for (std::size_t i = 0; i < lowering.size(); ++i) out += writer.cluster(lowering, i);
  return out + writer.end();
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Split {
  std::vector<std::string> fixed;      // imports, lets, asserts, templates: kept in order, first
  std::vector<std::string> shuffled;   // blocks, loops, conditionals, uses
};

// The top-level statements of a policy file, as source text (comments dropped).
Split split_statements(const std::string& text) {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  const auto id = sources.add("policy.mkq", text);
  const auto file = mkq::syntax::parse_file(sources, id, diagnostics);
  REQUIRE(file != nullptr);
  REQUIRE_FALSE(diagnostics.has_errors());
  Split out;
  for (const auto& stmt : file->stmts) {
    const std::string slice =
        text.substr(stmt->range.begin.offset, stmt->range.end.offset - stmt->range.begin.offset);
    using K = mkq::syntax::StmtKind;
    const bool keep = stmt->kind == K::Import || stmt->kind == K::Let || stmt->kind == K::Assert ||
                      stmt->kind == K::Template;
    (keep ? out.fixed : out.shuffled).push_back(slice);
  }
  return out;
}

std::string join(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::string out;
  for (const auto* part : {&a, &b}) {
    for (const std::string& s : *part) out += s + "\n\n";
  }
  return out;
}

}  // namespace

TEST_CASE("render: the output does not depend on the declaration order", "[kueue][render]") {
  for (const char* example : {"quickstart", "tas", "gpu-fleet", "teams"}) {
    INFO("examples/" << example);
    const std::string text = read_file(examples_dir() / example / "policy.mkq");
    REQUIRE_FALSE(text.empty());
    const auto original = render_text(text, example);
    INFO(original->messages());
    REQUIRE(original->state.has_value());
    const std::string want_yaml = mkq::kueue::render_yaml(*original->state);
    const std::string want_json = mkq::kueue::render_json(*original->state);
    CHECK(streamed_yaml(*original, example) == want_yaml);

    Split split = split_statements(text);
    REQUIRE(split.shuffled.size() >= 3);
    std::vector<std::vector<std::string>> orders;
    orders.push_back({split.shuffled.rbegin(), split.shuffled.rend()});
    std::mt19937 random(20260822);
    for (int i = 0; i < 4; ++i) {
      std::vector<std::string> order = split.shuffled;
      for (std::size_t k = order.size(); k > 1; --k) {  // Fisher-Yates with a fixed generator
        std::swap(order[k - 1], order[random() % k]);
      }
      orders.push_back(std::move(order));
    }
    for (const auto& order : orders) {
      const auto shuffled = render_text(join(split.fixed, order), example);
      INFO(join(split.fixed, order));
      INFO(shuffled->messages());
      REQUIRE(shuffled->state.has_value());
      CHECK(mkq::kueue::render_yaml(*shuffled->state) == want_yaml);
      CHECK(mkq::kueue::render_json(*shuffled->state) == want_json);
      CHECK(streamed_yaml(*shuffled, example) == want_yaml);
    }
  }
}

TEST_CASE("render: the same policy renders the same bytes twice", "[kueue][render]") {
  const auto a = render_path(examples_dir() / "teams", "teams");
  const auto b = render_path(examples_dir() / "teams", "teams");
  REQUIRE(a->state.has_value());
  REQUIRE(b->state.has_value());
  CHECK(mkq::kueue::render_yaml(*a->state) == mkq::kueue::render_yaml(*b->state));
}

TEST_CASE("render: apply order is kind, then namespace, then name, equals stay in the order made", "[kueue][render]") {
  using mkq::kueue::ApplyPosition;
  const std::vector<ApplyPosition> positions = {
      {2, "", "b"}, {1, "ns", "a"}, {1, "", "z"}, {2, "", "b"}, {1, "ns", "0"}};
  CHECK(mkq::kueue::apply_order(positions) == std::vector<std::size_t>{2, 4, 1, 0, 3});
  CHECK(mkq::kueue::apply_order({}).empty());
}
