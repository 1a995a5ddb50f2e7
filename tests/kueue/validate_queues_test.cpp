// Compile-time Kueue validation of ClusterQueues, Cohorts, worker overrides
// and Topologies: resource group limits, preemption, flavor fungibility, fair
// sharing weights, topology level length.
#include <string>

#include "tests/kueue/validate_test_support.h"

namespace validatetest {
namespace {

// `count` flavors named f0, f1, ... declared at the top level.
std::string flavors(std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) text += "flavor \"f" + std::to_string(i) + "\" {}\n";
  return text;
}

// A quota block for flavor `flavor` with resources r0.io/x .. r<count-1>.io/x,
// starting at `first`.
std::string quota(const std::string& flavor, std::size_t first, std::size_t count) {
  std::string text = "quota \"" + flavor + "\" {";
  for (std::size_t i = first; i < first + count; ++i) text += " \"r" + std::to_string(i) + ".io/x\" = 1";
  return text + " }\n";
}

}  // namespace

TEST_CASE("a clean policy validates without diagnostics", "[kueue][validate]") {
  require_clean(R"(
manager "manager-cluster" {}
worker "multikueue-test-worker1" { context = "worker1-cluster" }
flavor "default-flavor" {}
clusterqueue "cluster-queue" {
  cohort = "all"
  quota "default-flavor" { cpu = 9, memory = 36Gi }
  preemption { reclaim_within_cohort = "Any", borrow_within_cohort = "LowerPriority" }
  flavor_fungibility { when_can_borrow = "TryNextFlavor", preference = "BorrowingOverPreemption" }
  fair_sharing { weight = 0 }
  localqueue "user-queue" in "default" {}
}
cohort "all" { fair_sharing { weight = 2n } }
dispatch "sample-multikueue" { queues = ["cluster-queue"], workers = ["multikueue-test-worker1"] }
)");
}

TEST_CASE("resource groups: at most 16 per clusterqueue, cohort and override", "[kueue][validate][groups]") {
  std::string groups;
  for (std::size_t i = 0; i < 17; ++i) groups += "  group { " + quota("f" + std::to_string(i), i, 1) + " }\n";
  SECTION("clusterqueue") {
    const auto r = check("manager \"m\" {}\n" + flavors(17) + "clusterqueue \"q\" {\n" + groups + "}\n");
    const Diagnostic d = r->only(codes::kTooManyResourceGroups);
    CHECK(d.message == "clusterqueue 'q' has 17 resource groups; a ClusterQueue takes at most 16");
    CHECK(r->at(d.range) == "52:3");  // the 17th group block (two lines each, from line 20)
  }
  SECTION("cohort") {
    const auto r = check("manager \"m\" {}\n" + flavors(17) + "cohort \"c\" {\n" + groups + "}\n");
    CHECK(r->only(codes::kTooManyResourceGroups).message ==
          "cohort 'c' has 17 resource groups; a Cohort takes at most 16");
  }
  SECTION("a worker's override") {
    const auto r = check("manager \"m\" {}\n" + flavors(17) +
                         "clusterqueue \"q\" {}\n"
                         "worker \"w\" { override \"q\" {\n" +
                         groups +
                         "} }\n"
                         "dispatch \"d\" { queues = [\"q\"], workers = [\"w\"] }\n");
    CHECK(r->only(codes::kTooManyResourceGroups).message ==
          "the override of clusterqueue 'q' on worker 'w' has 17 resource groups; a ClusterQueue takes at "
          "most 16");
  }
  SECTION("16 is fine") {
    std::string sixteen;
    for (std::size_t i = 0; i < 16; ++i)
      sixteen += "  group { " + quota("f" + std::to_string(i), i, 1) + " }\n";
    require_clean("manager \"m\" {}\n" + flavors(16) + "clusterqueue \"q\" {\n" + sixteen + "}\n");
  }
}

TEST_CASE("resource groups: at most 64 resources and 64 flavors per group", "[kueue][validate][groups]") {
  SECTION("65 covered resources, reported at the 65th") {
    const auto r =
        check("manager \"m\" {}\n" + flavors(1) + "clusterqueue \"q\" {\n" + quota("f0", 0, 65) + "}\n");
    const Diagnostic d = r->only(codes::kTooManyCoveredResources);
    CHECK(d.message ==
          "a resource group of clusterqueue 'q' covers 65 resources; a ClusterQueue takes at most 64 per "
          "group");
    const std::string line(r->sources.file(d.range.file).line_text(r->sources.begin_of(d.range).line));
    CHECK(line.substr(r->sources.begin_of(d.range).column - 1, 10) == "\"r64.io/x\"");
  }
  SECTION("64 resources are fine") {
    require_clean("manager \"m\" {}\n" + flavors(1) + "clusterqueue \"q\" {\n" + quota("f0", 0, 64) + "}\n");
  }
  SECTION("65 flavors in one group, reported at the 65th") {
    std::string quotas;
    for (std::size_t i = 0; i < 65; ++i) quotas += quota("f" + std::to_string(i), 0, 1);
    const auto r = check("manager \"m\" {}\n" + flavors(65) + "cohort \"c\" {\n" + quotas + "}\n");
    const Diagnostic d = r->only(codes::kTooManyGroupFlavors);
    CHECK(d.message == "a resource group of cohort 'c' has 65 flavors; a Cohort takes at most 64 per group");
    CHECK(r->at(d.range) == "132:7");  // the label of quota "f64"
  }
}

TEST_CASE("clusterqueue totals: 256 flavors, 256 resources, 512 pairs per group",
          "[kueue][validate][groups]") {
  SECTION("more than 256 flavors across groups") {
    // 5 groups of 52 flavors: 260 flavors, each group within its own limits.
    std::string body;
    for (std::size_t g = 0; g < 5; ++g) {
      body += "  group {\n";
      for (std::size_t i = 0; i < 52; ++i) body += "    " + quota("f" + std::to_string(g * 52 + i), g, 1);
      body += "  }\n";
    }
    const auto r = check("manager \"m\" {}\n" + flavors(260) + "clusterqueue \"q\" {\n" + body + "}\n");
    const Diagnostic d = r->only(codes::kTooManyFlavorsTotal);
    CHECK(d.message ==
          "clusterqueue 'q' has 260 flavors across its resource groups; a ClusterQueue takes at most 256");
    CHECK(note_messages(d) == std::vector<std::string>{"this is flavor 257"});
    // The same groups in a cohort are fine: the totals are a ClusterQueue's.
    require_clean("manager \"m\" {}\n" + flavors(260) + "cohort \"c\" {\n" + body + "}\n");
  }
  SECTION("more than 256 resources across groups") {
    std::string body;
    for (std::size_t g = 0; g < 5; ++g) body += "  " + quota("f" + std::to_string(g), g * 52, 52);
    const auto r = check("manager \"m\" {}\n" + flavors(5) + "clusterqueue \"q\" {\n" + body + "}\n");
    const Diagnostic d = r->only(codes::kTooManyResourcesTotal);
    CHECK(
        d.message ==
        "clusterqueue 'q' covers 260 resources across its resource groups; a ClusterQueue takes at most 256");
    CHECK(r->at(d.range).rfind("12:", 0) == 0);  // in the fifth quota block
  }
  SECTION("more than 512 flavor-resource pairs in one group") {
    std::string body;
    for (std::size_t i = 0; i < 9; ++i) body += "  " + quota("f" + std::to_string(i), 0, 57);
    const auto r = check("manager \"m\" {}\n" + flavors(9) + "clusterqueue \"q\" {\n" + body + "}\n");
    const Diagnostic d = r->only(codes::kTooManyFlavorResources);
    CHECK(d.message ==
          "a resource group of clusterqueue 'q' has 513 flavor-resource pairs (9 flavors of 57 resources); a "
          "ClusterQueue takes at most 512 per group");
    CHECK(r->at(d.range) == "12:3");  // the group's first quota block
  }
}

TEST_CASE("preemption: borrowing within the cohort needs reclaiming", "[kueue][validate][preemption]") {
  SECTION("reclaim_within_cohort not set") {
    const auto r = check(R"(manager "m" {}
clusterqueue "q" {
  cohort = "c"
  preemption { borrow_within_cohort = "LowerPriority" }
}
)");
    const Diagnostic d = r->only(codes::kBorrowWithoutReclaim);
    CHECK(d.message ==
          "'borrow_within_cohort' = \"LowerPriority\" needs 'reclaim_within_cohort' other than \"Never\"");
    CHECK(r->at(d.range) == "4:39");
    REQUIRE(d.notes.size() == 2);
    CHECK(d.notes[0].message == "'reclaim_within_cohort' is not set, and Kueue's default is \"Never\"");
    CHECK(!d.notes[0].range);
  }
  SECTION("reclaim_within_cohort = Never") {
    const auto r = check(R"(manager "m" {}
clusterqueue "q" {
  preemption { reclaim_within_cohort = "Never", borrow_within_cohort = "LowerPriority" }
}
)");
    const Diagnostic d = r->only(codes::kBorrowWithoutReclaim);
    REQUIRE(d.notes[0].range);
    CHECK(d.notes[0].message == "'reclaim_within_cohort' is \"Never\" here");
    CHECK(r->at(*d.notes[0].range) == "3:40");
  }
  SECTION("fine combinations") {
    require_clean(R"(manager "m" {}
clusterqueue "a" { preemption { reclaim_within_cohort = "LowerPriority", borrow_within_cohort = "LowerPriority" } }
clusterqueue "b" { preemption { borrow_within_cohort = "Never" } }
clusterqueue "c" { preemption { within_cluster_queue = "LowerPriority" } }
)");
  }
}

TEST_CASE("flavor fungibility: a preference needs TryNextFlavor twice", "[kueue][validate][fungibility]") {
  SECTION("when_can_borrow left to its default") {
    const auto r = check(R"(manager "m" {}
clusterqueue "q" {
  flavor_fungibility { preference = "PreemptionOverBorrowing" }
}
)");
    const Diagnostic d = r->only(codes::kFungibilityPreference);
    CHECK(d.message ==
          "'preference' needs both 'when_can_borrow' and 'when_can_preempt' to be \"TryNextFlavor\"");
    CHECK(note_messages(d) ==
          std::vector<std::string>{"'when_can_borrow' is not set, and Kueue's default is \"MayStopSearch\""});
  }
  SECTION("both set against it") {
    const auto r = check(R"(manager "m" {}
clusterqueue "q" {
  flavor_fungibility {
    when_can_borrow = "MayStopSearch"
    when_can_preempt = "MayStopSearch"
    preference = "BorrowingOverPreemption"
  }
}
)");
    const Diagnostic d = r->only(codes::kFungibilityPreference);
    REQUIRE(d.notes.size() == 2);
    CHECK(d.notes[0].message == "'when_can_borrow' is \"MayStopSearch\" here");
    CHECK(r->at(*d.notes[0].range) == "4:23");
    CHECK(d.notes[1].message == "'when_can_preempt' is \"MayStopSearch\" here");
  }
  SECTION("no preference: any combination") {
    require_clean(R"(manager "m" {}
clusterqueue "q" { flavor_fungibility { when_can_borrow = "MayStopSearch", when_can_preempt = "MayStopSearch" } }
)");
  }
}

TEST_CASE("fair sharing: a weight other than 0 is above 1n", "[kueue][validate][fair-sharing]") {
  const auto r = check(R"(manager "m" {}
clusterqueue "q" { fair_sharing { weight = 1n } }
cohort "c" { fair_sharing { weight = 0.000000001 } }
clusterqueue "ok" { fair_sharing { weight = 2n } }
localqueue "lq" in "ns" {
  clusterqueue = "ok"
  fair_sharing { weight = 1n }
}
)");
  const auto found = r->with_code(codes::kFairSharingWeightTooSmall);
  INFO(r->summary());
  REQUIRE(found.size() == 2);  // not the local queue's: Kueue does not check it
  CHECK(found[0].message ==
        "fair-sharing weight 1n is too small: a weight other than 0 must be greater than 1n");
  CHECK(r->at(found[0].range) == "2:44");
  CHECK(r->at(found[1].range) == "3:38");
}

TEST_CASE("a template's declaration gets instantiated-from notes", "[kueue][validate]") {
  const auto r = check(R"(manager "m" {}
template team(name) {
  clusterqueue "${name}" { fair_sharing { weight = 1n } }
}
use team("a")
)");
  const Diagnostic d = r->only(codes::kFairSharingWeightTooSmall);
  REQUIRE(d.notes.size() == 2);
  CHECK(d.notes[0].message == "instantiated from here");
  CHECK(r->at(*d.notes[0].range) == "5:1");
}

TEST_CASE("topology levels are at most 316 characters", "[kueue][validate][topology]") {
  // A valid label key of 317 characters: a 253-character prefix, '/', 63 characters.
  const std::string prefix = std::string(63, 'a') + "." + std::string(63, 'b') + "." + std::string(63, 'c') +
                             "." + std::string(61, 'd');
  REQUIRE(prefix.size() == 253);
  const std::string longest = prefix + "/" + std::string(63, 'e');
  const auto r = check("manager \"m\" {}\ntopology \"t\" { levels = [\"zone\", \"" + longest + "\"] }\n");
  const Diagnostic d = r->only(codes::kTopologyLevelTooLong);
  CHECK(d.message == "topology level is 317 characters long; a Topology level takes at most 316");
  CHECK(r->at(d.range) == "2:34");
  require_clean("manager \"m\" {}\ntopology \"t\" { levels = [\"" + longest.substr(1) + "\"] }\n");
}

}  // namespace validatetest
