// Credential transactions (provider.cpp, "Transactions"): a rotation records
// its intent before it changes anything, finishes it once every other token
// is revoked, and what an interrupted one left is found by the next plan
// (leftovers) -- with the fake worker of credentials_test_support.h.
#include <algorithm>

#include "tests/credentials/credentials_test_support.h"

using credtest::World;
using mkq::kube::Json;
using mkq::reconcile::StaleCredential;

namespace {

// A journal in memory: what was begun and finished, and what the worker had
// seen by then (its object calls and token requests).
class Journal : public mkq::reconcile::CredentialJournal {
 public:
  explicit Journal(const credtest::TokenClient* worker = nullptr) : worker_(worker) {}
  mkq::base::Result<void> begin(const mkq::state::CredentialIntent& intent) override {
    if (!fail.empty()) return mkq::base::Error(0, "StateError", fail);
    begun.push_back(intent);
    if (worker_ != nullptr) {
      writes_before_begin = static_cast<int>(std::count_if(
          worker_->object_calls.begin(), worker_->object_calls.end(),
          [](const std::string& call) { return call.rfind("apply ", 0) == 0 || call.rfind("remove ", 0) == 0; }));
      tokens_before_begin = static_cast<int>(worker_->calls.size());
    }
    return {};
  }
  mkq::base::Result<void> finish(const std::string& worker) override {
    finished.push_back(worker);
    return {};
  }
  std::vector<mkq::state::CredentialIntent> begun;
  std::vector<std::string> finished;
  std::string fail;
  int writes_before_begin = -1, tokens_before_begin = -1;

 private:
  const credtest::TokenClient* worker_;
};

Json issue(World& world, mkq::reconcile::CredentialProvider& provider, Journal* journal) {
  auto result = provider.issue("m", world.secret("east"), journal);
  INFO((result ? std::string() : result.error().message));
  REQUIRE(result.ok());
  return result.value();
}

std::string anchor_of(const Json& secret) {
  return secret["metadata"]["annotations"]["mkq.dev/credential-anchor"].get<std::string>();
}

std::vector<std::string> names(const std::vector<StaleCredential>& stale) {
  std::vector<std::string> out;
  for (const StaleCredential& one : stale) out.push_back(one.name);
  return out;
}

}  // namespace

TEST_CASE("credential transaction: the intent is recorded before the worker changes and finished after",
          "[credentials][transactions]") {
  World world;
  auto& east = *world.clients["east"];
  auto provider = world.provider();
  Journal journal(&east);

  // The first credential: nothing to revoke.
  const Json first = issue(world, *provider, &journal);
  REQUIRE(journal.begun.size() == 1);
  CHECK(journal.writes_before_begin == 0);
  CHECK(journal.tokens_before_begin == 0);
  const mkq::state::CredentialIntent& minted = journal.begun[0];
  CHECK(minted.worker == "east");
  CHECK(minted.secret == "kueue-system/east-kubeconfig");
  CHECK(minted.account == "kueue-system/multikueue-sa");
  CHECK(minted.revokes.empty());
  CHECK(minted.issues == anchor_of(first));
  CHECK(journal.finished.empty());  // not finished before the Secret is stored
  CHECK(provider->settled("m", world.secret("east"), true, &journal).ok());
  CHECK(journal.finished == std::vector<std::string>{"east"});

  // A rotation names the anchor whose token it revokes.
  world.clock.set(credtest::at("2026-12-15T10:00:00Z"));
  east.object_calls.clear();
  east.calls.clear();
  Journal second_journal(&east);
  const Json second = issue(world, *provider, &second_journal);
  REQUIRE(second_journal.begun.size() == 1);
  CHECK(second_journal.writes_before_begin == 0);
  CHECK(second_journal.tokens_before_begin == 0);
  CHECK(second_journal.begun[0].revokes == std::vector<std::string>{anchor_of(first)});
  CHECK(second_journal.begun[0].issues == anchor_of(second));
  CHECK(provider->settled("m", world.secret("east"), true, &second_journal).ok());
  CHECK(second_journal.finished == std::vector<std::string>{"east"});
  CHECK(east.anchors() == std::vector<std::string>{anchor_of(second)});

  // Identifiers only: no intent holds a token.
  const std::vector<const mkq::state::CredentialIntent*> recorded_intents{&minted, &second_journal.begun[0]};
  for (const mkq::state::CredentialIntent* recorded : recorded_intents) {
    std::string text = recorded->worker + recorded->secret + recorded->account + recorded->issues;
    for (const std::string& name : recorded->revokes) text += name;
    CHECK(text.find(credtest::kTokenMarker) == std::string::npos);
  }
}

TEST_CASE("credential transaction: an intent the state cannot record stops the rotation before anything changes",
          "[credentials][transactions][errors]") {
  World world;
  auto& east = *world.clients["east"];
  auto provider = world.provider();
  Journal journal;
  journal.fail = "state /x/state.db: database or disk is full";
  const auto result = provider->issue("m", world.secret("east"), &journal);
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message ==
        "worker east: cannot record the rotation in the state, so nothing was issued: state /x/state.db: database "
        "or disk is full");
  CHECK(east.calls.empty());
  CHECK(east.stored.empty());
}

TEST_CASE("credential transaction: a rotation whose Secret could not be stored is finished once its anchor is gone",
          "[credentials][transactions]") {
  World world;
  auto provider = world.provider();
  Journal journal;
  issue(world, *provider, &journal);
  CHECK(provider->settled("m", world.secret("east"), false, &journal).ok());
  CHECK(journal.finished == std::vector<std::string>{"east"});
  CHECK(world.clients["east"]->anchors().empty());
}

TEST_CASE("credential transaction: a rotation killed after the new Secret was stored leaves the previous token, "
          "which the next plan revokes",
          "[credentials][transactions]") {
  World world;
  auto& east = *world.clients["east"];
  Journal journal;
  Json stored, previous_anchor_secret;
  std::string previous;
  {
    auto run = world.provider();
    const Json first = issue(world, *run, &journal);
    CHECK(run->settled("m", world.secret("east"), true, &journal).ok());
    previous = anchor_of(first);
    previous_anchor_secret = east.stored.at("kueue-system/" + previous);
    // The rotation: issued and stored on the manager, then the process dies before settled().
    stored = issue(world, *run, &journal);
  }
  REQUIRE(east.anchors().size() == 2);
  REQUIRE(journal.begun.size() == 2);

  mkq::credentials::ProviderOptions options;
  SECTION("with the intent the state kept") { options.unfinished = {journal.begun.back()}; }
  SECTION("without it (the state lost it): the anchors say it") {}
  auto next = world.provider(options);
  // The credential itself is current: nothing to issue.
  CHECK_FALSE(next->decide("m", world.secret("east"), &stored, nullptr).issue);
  const std::vector<StaleCredential> stale = next->leftovers("m", world.secret("east"), &stored);
  REQUIRE(stale.size() == 1);
  CHECK(stale[0].worker == "east");
  CHECK(stale[0].namespace_name == "kueue-system");
  CHECK(stale[0].name == previous);
  CHECK(stale[0].uid == previous_anchor_secret["metadata"]["uid"].get<std::string>());
  CHECK_FALSE(stale[0].never_stored);
}

TEST_CASE("credential transaction: a token issued by a run killed before storing it is revoked as never stored",
          "[credentials][transactions]") {
  World world;
  auto& east = *world.clients["east"];
  Journal journal;
  Json stored;
  std::string orphan;
  {
    auto run = world.provider();
    stored = issue(world, *run, &journal);
    CHECK(run->settled("m", world.secret("east"), true, &journal).ok());
    orphan = anchor_of(issue(world, *run, &journal));  // never stored: the manager still holds `stored`
  }
  mkq::credentials::ProviderOptions options;
  options.unfinished = {journal.begun.back()};
  auto next = world.provider(options);
  const std::vector<StaleCredential> stale = next->leftovers("m", world.secret("east"), &stored);
  REQUIRE(stale.size() == 1);
  CHECK(stale[0].name == orphan);
  CHECK(stale[0].never_stored);

  SECTION("without the intent, an anchor newer than the one in use was never stored") {
    east.stored.at("kueue-system/" + anchor_of(stored))["metadata"]["creationTimestamp"] = "2026-11-21T10:00:00Z";
    east.stored.at("kueue-system/" + orphan)["metadata"]["creationTimestamp"] = "2026-11-21T10:00:01Z";
    auto without = world.provider();
    const std::vector<StaleCredential> found = without->leftovers("m", world.secret("east"), &stored);
    REQUIRE(found.size() == 1);
    CHECK(found[0].name == orphan);
    CHECK(found[0].never_stored);
  }
  SECTION("the first credential of a worker, interrupted before its Secret was stored") {
    east.stored.erase("kueue-system/" + anchor_of(stored));
    auto fresh = world.provider(options);  // a run lists the anchors once
    const std::vector<StaleCredential> all = fresh->leftovers("m", world.secret("east"), nullptr);
    CHECK(names(all) == std::vector<std::string>{orphan});
  }
}

TEST_CASE("credential transaction: an unfinished intent's anchors are looked for by name, only mkq's",
          "[credentials][transactions]") {
  World world;
  auto& east = *world.clients["east"];
  auto run = world.provider();
  const Json current = issue(world, *run, nullptr);
  CHECK(run->settled("m", world.secret("east"), true, nullptr).ok());
  // The account was renamed since: its anchors carry another label value.
  east.stored["kueue-system/old-sa-token-1"] = {
      {"metadata",
       {{"name", "old-sa-token-1"},
        {"namespace", "kueue-system"},
        {"uid", "uid-old"},
        {"resourceVersion", "7"},
        {"labels", {{"app.kubernetes.io/managed-by", "mkq"}, {"mkq.dev/credential-anchor", "old-sa"}}}}}};
  // Someone else's Secret that happens to have a name the intent names.
  east.stored["kueue-system/theirs"] = {{"metadata", {{"name", "theirs"}, {"namespace", "kueue-system"}}}};
  mkq::state::CredentialIntent intent;
  intent.worker = "east";
  intent.revokes = {"old-sa-token-1", "theirs", "gone-already"};
  intent.issues = anchor_of(current);
  mkq::credentials::ProviderOptions options;
  options.unfinished = {intent};
  auto next = world.provider(options);
  const std::vector<StaleCredential> stale = next->leftovers("m", world.secret("east"), &current);
  REQUIRE(stale.size() == 1);
  CHECK(stale[0].name == "old-sa-token-1");
  CHECK(stale[0].uid == "uid-old");
  CHECK(stale[0].resource_version == "7");

  SECTION("the next rotation revokes it too, and the intent it records names it") {
    Journal journal;
    issue(world, *next, &journal);
    REQUIRE(journal.begun.size() == 1);
    const auto& revokes = journal.begun[0].revokes;
    CHECK(std::find(revokes.begin(), revokes.end(), "old-sa-token-1") != revokes.end());
    CHECK(std::find(revokes.begin(), revokes.end(), "theirs") == revokes.end());
    CHECK(next->settled("m", world.secret("east"), true, &journal).ok());
    CHECK(east.stored.count("kueue-system/old-sa-token-1") == 0);
    CHECK(east.stored.count("kueue-system/theirs") == 1);  // never deleted: not mkq's
    CHECK(journal.finished == std::vector<std::string>{"east"});
  }
}

TEST_CASE("credential transaction: one live credential leaves nothing to revoke, and other modes are not looked at",
          "[credentials][transactions]") {
  World world;
  auto provider = world.provider();
  const Json stored = issue(world, *provider, nullptr);
  CHECK(provider->settled("m", world.secret("east"), true, nullptr).ok());
  auto next = world.provider();
  CHECK(next->leftovers("m", world.secret("east"), &stored).empty());
  world.clients["south"]->object_calls.clear();
  CHECK(next->leftovers("m", world.secret("south"), nullptr).empty());
  CHECK(next->leftovers("m", world.secret("west"), nullptr).empty());
  CHECK(world.clients["south"]->object_calls.empty());
}

TEST_CASE("credential transaction: live credentials per worker for status", "[credentials][transactions][status]") {
  World world;
  auto run = world.provider();
  issue(world, *run, nullptr);
  CHECK(run->settled("m", world.secret("east"), true, nullptr).ok());
  issue(world, *run, nullptr);  // interrupted: two live on east
  auto status = world.provider();
  const auto live = status->live_credentials();
  REQUIRE(live.size() == 2);  // east and north: the workers whose tokens mkq anchors
  CHECK(live[0].worker == "east");
  CHECK(live[0].account == "kueue-system/multikueue-sa");
  CHECK(live[0].live == 2);
  CHECK(live[0].error.empty());
  CHECK(live[1].worker == "north");
  CHECK(live[1].account == "kueue-system/multikueue-north");
  CHECK(live[1].live == 0);

  SECTION("a worker that cannot be read: unknown") {
    world.clients["north"]->fail_list = mkq::kube::Error{0, "ConnectionFailed", "connection refused", nullptr};
    auto again = world.provider();
    const auto unknown = again->live_credentials();
    REQUIRE(unknown.size() == 2);
    CHECK(unknown[1].error == "worker north could not be read");
  }
}
