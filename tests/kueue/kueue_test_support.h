// Test support for lowering and rendering: compile policy text (or an example
// directory) all the way to the desired state, and find objects in it.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <optional>
#include <string>

#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/lower.h"
#include "compiler/kueue/objects.h"
#include "compiler/sema/analyze.h"
#include "tests/support/in_memory_file_system.h"

namespace kueuetest {

using mkq::kueue::ClusterObjects;
using mkq::kueue::DesiredState;
using mkq::kueue::Json;
using mkq::kueue::Object;

struct Rendered {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  std::optional<mkq::sema::model::Policy> policy;
  std::optional<DesiredState> state;

  // Every diagnostic as text, for failure messages.
  std::string messages() const {
    return mkq::diag::render_text(diagnostics.sorted(sources), sources, {false});
  }
};

inline void lower_into(Rendered& out, const std::string& policy_name) {
  if (!out.policy || out.diagnostics.has_errors()) return;
  mkq::kueue::LowerOptions options;
  options.policy_name = policy_name;
  out.state = mkq::kueue::lower(*out.policy, options, out.diagnostics);
}

// Compiles one policy file's text (as /p/policy.mkq) and lowers it.
inline std::unique_ptr<Rendered> render_text(const std::string& text, const std::string& policy_name = "test") {
  auto out = std::make_unique<Rendered>();
  mkq::sema::InMemoryFileSystem fs;
  fs.add("/p/policy.mkq", text);
  out->policy = mkq::sema::analyze("/p", fs, out->sources, out->diagnostics);
  lower_into(*out, policy_name);
  return out;
}

// Compiles a policy path of the real file system and lowers it.
inline std::unique_ptr<Rendered> render_path(const std::filesystem::path& path, const std::string& policy_name) {
  auto out = std::make_unique<Rendered>();
  mkq::sema::RealFileSystem fs;
  out->policy = mkq::sema::analyze(path, fs, out->sources, out->diagnostics);
  lower_into(*out, policy_name);
  return out;
}

inline const ClusterObjects* find_cluster(const DesiredState& state, const std::string& name) {
  for (const ClusterObjects& cluster : state.clusters) {
    if (cluster.cluster == name) return &cluster;
  }
  return nullptr;
}

inline const Object* find_object(const ClusterObjects& cluster, const std::string& kind, const std::string& name,
                                 const std::string& namespace_name = "") {
  for (const Object& object : cluster.objects) {
    if (object.kind == kind && object.name == name && object.namespace_name == namespace_name) return &object;
  }
  return nullptr;
}

inline std::size_t count_kind(const ClusterObjects& cluster, const std::string& kind) {
  std::size_t n = 0;
  for (const Object& object : cluster.objects) n += object.kind == kind ? 1 : 0;
  return n;
}

// The examples folder of the source tree.
inline std::filesystem::path examples_dir() { return std::filesystem::path(MKQ_SOURCE_DIR) / "examples"; }

}  // namespace kueuetest
