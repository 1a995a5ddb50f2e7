// The policy's digest taken a cluster at a time (run.h's policy_digest,
// state::DigestStream) is the digest of the whole rendering, as before.
#include <catch2/catch.hpp>

#include "compiler/kueue/render.h"
#include "runtime/operation/run.h"
#include "runtime/state/digest_stream.h"
#include "runtime/state/state.h"

namespace mkq::operation {
namespace {

kueue::Object object(const std::string& kind, const std::string& name, const kueue::Json& spec) {
  kueue::Object o;
  o.api_version = "kueue.x-k8s.io/v1beta2";
  o.kind = kind;
  o.name = name;
  o.document = {{"apiVersion", o.api_version}, {"kind", kind}, {"metadata", {{"name", name}}}, {"spec", spec}};
  return o;
}

TEST_CASE("policy digest: taken a cluster at a time, it is the digest of the whole rendering", "[operation][digest]") {
  kueue::DesiredState desired;
  CHECK(detail::policy_digest(desired) == state::digest_of(kueue::render_json(desired), "mkq policy"));
  kueue::ClusterObjects manager{"manager", kueue::ClusterRole::Manager, {}};
  manager.objects.push_back(object("ResourceFlavor", "default", kueue::Json::object()));
  manager.objects.push_back(object("ClusterQueue", "q\"uoted \xc3\xa9", {{"cohortName", "a\nb"}, {"x", 1.5}}));
  desired.clusters.push_back(manager);
  CHECK(detail::policy_digest(desired) == state::digest_of(kueue::render_json(desired), "mkq policy"));
  desired.clusters.push_back(kueue::ClusterObjects{"worker-1", kueue::ClusterRole::Worker, {}});
  kueue::ClusterObjects worker{"worker-2", kueue::ClusterRole::Worker, {}};
  worker.objects.push_back(object("LocalQueue", "lq", {{"clusterQueue", "q"}, {"list", {1, 2, {{"k", nullptr}}}}}));
  desired.clusters.push_back(worker);
  const std::string digest = detail::policy_digest(desired);
  CHECK(digest == state::digest_of(kueue::render_json(desired), "mkq policy"));
  CHECK(digest.rfind("sha256:", 0) == 0);
  desired.clusters.back().objects.back().document["spec"]["clusterQueue"] = "r";
  CHECK(detail::policy_digest(desired) != digest);
}

TEST_CASE("digest stream: pieces digest as the text they join", "[operation][digest]") {
  const std::string text = "{\"a\": [1, 2, 3],\n \"b\": \"caf\xc3\xa9\"}";
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    state::DigestStream stream("lineage-1");
    stream.add(text.substr(0, cut));
    stream.add("");
    stream.add(text.substr(cut));
    CHECK(stream.finish() == state::digest_of(text, "lineage-1"));
  }
  state::DigestStream empty("");
  CHECK(empty.finish() == state::digest_of("", ""));
}

}  // namespace
}  // namespace mkq::operation
