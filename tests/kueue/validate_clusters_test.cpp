// Compile-time Kueue validation across objects and clusters (VALIDATION.md §K):
// namespaces a queue's label selector cannot admit, and the model invariants
// lowering relies on.
#include <string>

#include "tests/kueue/validate_test_support.h"

namespace validatetest {

TEST_CASE("a declared namespace without the labels its queue selects is a warning",
          "[kueue][validate][namespaces]") {
  const std::string head = R"(manager "m" {}
worker "w1" {}
worker "w2" {}
namespace "team-a" { labels = { team: "a" } }
)";
  SECTION("a dispatched queue: the note names the workers") {
    const auto r = check(head + R"(clusterqueue "q" {
  namespaces = { team: "b", tier: "gold" }
  localqueue "lq" in "team-a" {}
}
dispatch "d" { queues = ["q"], workers = ["w1", "w2"] }
)");
    const Diagnostic d = r->only(codes::kNamespaceLabelsNotAdmitted);
    CHECK(d.severity == mkq::diag::Severity::Warning);
    CHECK(d.message ==
          "namespace 'team-a' lacks the labels 'team: b', 'tier: gold' that clusterqueue 'q' selects: "
          "workloads of "
          "localqueue 'lq' will not be admitted");
    CHECK(r->at(d.range) == "7:22");
    REQUIRE(d.notes.size() == 3);
    CHECK(r->at(*d.notes[0].range) == "6:16");
    CHECK(r->at(*d.notes[1].range) == "4:11");
    CHECK(d.notes[2].message ==
          "the same holds on the workers 'w1', 'w2', where the queue is mirrored with the same selector");
  }
  SECTION("matching labels, and the name label Kubernetes adds") {
    require_clean(head + R"(clusterqueue "q" {
  namespaces = { team: "a", "kubernetes.io/metadata.name": "team-a" }
  localqueue "lq" in "team-a" {}
}
)");
  }
  SECTION("a namespace the policy does not declare: its labels are unknown") {
    require_clean(head + R"(clusterqueue "q" {
  namespaces = { team: "b" }
  localqueue "lq" in "elsewhere" {}
}
)");
  }
}

TEST_CASE("a model that breaks the binder's guarantees is an internal error", "[kueue][validate][internal]") {
  // Built by hand: bind() never returns such a model.
  model::Policy policy;
  policy.manager.name = "hub";
  model::Worker worker;
  worker.name = "w";
  policy.workers.push_back(worker);
  model::ClusterQueue queue;
  queue.name = "q";
  queue.dispatch = "gone";
  model::FlavorQuotas quotas;
  quotas.flavor.name = "missing";
  queue.resource_groups.push_back({{"cpu"}, {quotas}, {}});
  policy.cluster_queues.push_back(queue);
  model::Dispatch dispatch;
  dispatch.name = "d";
  dispatch.queues.push_back({"q", {}});
  dispatch.workers.push_back({"hub", {}});
  dispatch.workers.push_back({"nobody", {}});
  policy.dispatches.push_back(dispatch);
  model::Flavor flavor;
  flavor.name = "tas";
  flavor.topology = model::Ref{"no-topology", {}};
  policy.flavors.push_back(flavor);
  policy.kueue.integrations.push_back({"batch/job", {}});

  mkq::diag::Diagnostics diagnostics;
  mkq::kueue::validate(policy, diagnostics);
  std::vector<std::string> messages;
  for (const Diagnostic& d : diagnostics.items()) {
    CHECK(d.code == codes::kModelInvariant);
    messages.push_back(d.message);
  }
  const std::string suffix = " (a bug in mkq: the binder should have reported it)";
  CHECK(messages ==
        std::vector<std::string>{
            "internal error: topology 'no-topology' is not declared" + suffix,
            "internal error: flavor 'missing' is not declared" + suffix,
            "internal error: dispatch 'd' sends work to the manager" + suffix,
            "internal error: worker 'nobody' has no MultiKueueCluster" + suffix,
            "internal error: clusterqueue 'q' does not carry the admission check of dispatch 'd'" + suffix,
            "internal error: clusterqueue 'q' names dispatch 'gone', which does not exist" + suffix,
            "internal error: 'batch/job' is enabled but not in the integration catalogue" + suffix,
        });
}

}  // namespace validatetest
