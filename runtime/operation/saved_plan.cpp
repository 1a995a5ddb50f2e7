#include "runtime/operation/saved_plan.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "base/files.h"

namespace mkq::operation {

namespace {

namespace fs = std::filesystem;
using reconcile::Json;

// The saved plan's own version: only this code writes and reads it (docs/plan-format.md).
// 3: the scope (--cluster, --drift-only) and --replace. A version-2 file is
// read as a plan of every cluster without --replace or --drift-only, which is
// what it was (docs/plan-format.md, "Versions").
constexpr int kSavedPlanVersion = 3;
constexpr int kOldestReadVersion = 2;
constexpr const char* kVersionKey = "mkq_saved_plan";

const char* role_of(kueue::ClusterRole role) { return role == kueue::ClusterRole::Manager ? "manager" : "worker"; }

std::optional<reconcile::Action> action_of(const std::string& name) {
  using reconcile::Action;
  for (const Action action :
       {Action::NoOp, Action::Create, Action::Update, Action::Delete, Action::Replace, Action::Release}) {
    if (name == reconcile::action_name(action)) return action;
  }
  return std::nullopt;
}

// One change: what apply carries out and how (the directives), what refresh
// saw, and the display text as shown when the plan was made.
Json change_to_json(const reconcile::Change& change) {
  Json fields = Json::array();
  for (const reconcile::FieldDiff& field : change.fields) {
    const bool sensitive = field.sensitive || change.sensitive;
    Json f = {{"path", field.path}, {"sensitive", field.sensitive}, {"restores_default", field.restores_default}};
    if (field.before) f["before"] = sensitive ? Json("(sensitive value)") : *field.before;
    if (field.after) f["after"] = sensitive ? Json("(sensitive value)") : *field.after;
    fields.push_back(std::move(f));
  }
  Json restart;
  if (change.restart) {
    restart = {{"namespace", change.restart->namespace_name},
               {"name", change.restart->name},
               {"enabled", change.restart->enabled}};
  }
  return Json{{"address", change.ref.address()},
              {"api_version", change.ref.api_version},
              {"kind", change.ref.kind},
              {"namespace", change.ref.namespace_name},
              {"name", change.ref.name},
              {"action", reconcile::action_name(change.action)},
              {"directives",
               {{"repairs_drift", change.repairs_drift},
                {"take_ownership", change.take_ownership},
                {"take_over", change.take_over},
                {"adopted", change.adopted},
                {"replace_requested", change.replace_requested},
                {"revokes_token_of", change.revokes_token_of},
                {"step", reconcile::step_name(change.step)}}},
              {"desired", reconcile::masked_document(change)},
              {"inventory_digest", change.inventory_digest},
              {"depends_on", change.depends_on},
              {"restart", restart},
              {"sensitive", change.sensitive},
              {"credential", change.credential},
              {"credential_error", change.credential_error},
              {"error", change.error},
              {"owner_conflict", change.owner_conflict},
              {"refusal", change.refusal},
              {"prior", change.prior},
              {"live_uid", change.live_uid},
              {"live_resource_version", change.live_resource_version},
              {"reason", reconcile::reason_text(change)},
              {"fields", std::move(fields)}};
}

Json plan_to_json(const reconcile::Plan& plan) {
  Json clusters = Json::array();
  for (const reconcile::ClusterPlan& cluster : plan.clusters) {
    Json changes = Json::array();
    for (const reconcile::Change& change : cluster.changes) changes.push_back(change_to_json(change));
    clusters.push_back(Json{{"name", cluster.cluster},
                            {"role", role_of(cluster.role)},
                            {"reachable", cluster.reachable},
                            {"error", cluster.error},
                            {"changes", std::move(changes)}});
  }
  Json excluded = Json::array();
  for (const reconcile::ExcludedCluster& e : plan.excluded) excluded.push_back({{"name", e.cluster}, {"objects", e.objects}});

  Json preflight = Json::array();
  for (const reconcile::Finding& finding : plan.preflight) preflight.push_back(reconcile::finding_json(finding));
  return Json{{kVersionKey, kSavedPlanVersion},
              {"kind", plan.kind == reconcile::PlanKind::Destroy ? "destroy" : "apply"},
              {"policy", plan.policy},
              {"policy_path", plan.policy_path},
              {"policy_digest", plan.policy_digest},
              {"lineage", plan.lineage},
              {"state_serial", plan.state_serial},
              {"options",
               {{"prune", plan.options.prune},
                {"take_over", plan.options.take_over},
                {"delete_adopted", plan.options.delete_adopted},
                {"replace", plan.options.replace}}},
              {"clusters", std::move(clusters)},
              {"excluded", std::move(excluded)},
              {"scope", reconcile::scope_json(plan.scope)},
              {"handover", {{"joining", plan.handover.joining}, {"leaving", plan.handover.leaving}}},
              {"preflight", std::move(preflight)}};
}

// Throws (nlohmann's exceptions) on a missing or mistyped required field; the
// caller turns that into "malformed".
reconcile::Change change_from_json(const Json& j, const std::string& cluster) {
  reconcile::Change change;
  change.ref.cluster = cluster;
  change.ref.api_version = j.at("api_version").get<std::string>();
  change.ref.kind = j.at("kind").get<std::string>();
  change.ref.namespace_name = j.value("namespace", std::string());
  change.ref.name = j.at("name").get<std::string>();
  const std::optional<reconcile::Action> action = action_of(j.at("action").get<std::string>());
  if (j.at("address").get<std::string>() != change.ref.address()) {
    throw std::invalid_argument("address " + j.at("address").dump() + " does not name its object (" + change.ref.address() + ")");
  }
  if (!action) throw std::invalid_argument("unknown action \"" + j.at("action").get<std::string>() + "\" for " + change.ref.address());
  change.action = *action;
  const Json directives = j.value("directives", Json::object());
  change.repairs_drift = directives.value("repairs_drift", false);
  change.take_ownership = directives.value("take_ownership", false);
  change.take_over = directives.value("take_over", false);
  change.adopted = directives.value("adopted", false);
  change.replace_requested = directives.value("replace_requested", false);
  change.revokes_token_of = directives.value("revokes_token_of", std::string());
  const std::optional<reconcile::Step> step = reconcile::step_from_name(directives.value("step", std::string()));
  if (!step) throw std::invalid_argument("unknown step " + directives["step"].dump() + " for " + change.ref.address());
  change.step = *step;
  change.desired = j.contains("desired") ? j["desired"] : Json();
  change.inventory_digest = j.value("inventory_digest", std::string());
  if (j.contains("depends_on")) change.depends_on = j["depends_on"].get<std::vector<std::string>>();
  if (j.contains("restart") && j["restart"].is_object()) {
    const Json& restart = j["restart"];
    change.restart = reconcile::Restart{restart.at("namespace").get<std::string>(),
                                        restart.at("name").get<std::string>(), restart.value("enabled", true)};
  }
  change.sensitive = j.value("sensitive", false);
  change.credential = j.value("credential", false);
  change.credential_error = j.value("credential_error", std::string());
  change.error = j.value("error", std::string());
  change.owner_conflict = j.value("owner_conflict", std::string());
  change.refusal = j.value("refusal", std::string());
  change.prior = j.value("prior", std::string());
  change.live_uid = j.value("live_uid", std::string());
  change.live_resource_version = j.value("live_resource_version", std::string());
  change.reason = reconcile::Reason::Recorded;  // the words as shown when the plan was made
  change.reason_args.text = j.value("reason", std::string());
  for (const Json& f : j.value("fields", Json::array())) change.fields.push_back(reconcile::field_diff_from_json(f));
  return change;
}

reconcile::Plan plan_from_json(const Json& json) {
  reconcile::Plan plan;
  const std::string kind = json.at("kind").get<std::string>();
  if (kind != "apply" && kind != "destroy") throw std::invalid_argument("unknown plan kind \"" + kind + "\"");
  plan.kind = kind == "destroy" ? reconcile::PlanKind::Destroy : reconcile::PlanKind::Apply;
  plan.policy = json.value("policy", std::string());
  plan.policy_path = json.at("policy_path").get<std::string>();
  plan.policy_digest = json.at("policy_digest").get<std::string>();
  plan.lineage = json.at("lineage").get<std::string>();
  plan.state_serial = json.at("state_serial").get<std::int64_t>();
  const Json& options = json.at("options");
  plan.options.kind = plan.kind;
  plan.options.prune = options.at("prune").get<bool>();
  plan.options.take_over = options.at("take_over").get<bool>();
  plan.options.delete_adopted = options.at("delete_adopted").get<bool>();
  const std::vector<std::string> replace = options.value("replace", std::vector<std::string>());
  plan.options.replace = {replace.begin(), replace.end()};
  for (const Json& c : json.at("clusters")) {
    reconcile::ClusterPlan cluster;
    cluster.cluster = c.at("name").get<std::string>();
    const std::string role = c.at("role").get<std::string>();
    if (role != "manager" && role != "worker") throw std::invalid_argument("unknown cluster role \"" + role + "\"");
    cluster.role = role == "manager" ? kueue::ClusterRole::Manager : kueue::ClusterRole::Worker;
    cluster.reachable = c.at("reachable").get<bool>();
    cluster.error = c.value("error", std::string());
    for (const Json& j : c.at("changes")) cluster.changes.push_back(change_from_json(j, cluster.cluster));
    plan.clusters.push_back(std::move(cluster));
  }
  for (const Json& e : json.value("excluded", Json::array())) {
    plan.excluded.push_back({e.at("name").get<std::string>(), e.at("objects").get<int>()});
  }
  plan.scope = reconcile::scope_from_json(json.value("scope", Json::object()));  // none in version 2: every cluster
  const Json handover = json.value("handover", Json::object());
  plan.handover.joining = handover.value("joining", std::vector<std::string>());
  plan.handover.leaving = handover.value("leaving", std::vector<std::string>());
  for (const Json& f : json.value("preflight", Json::array())) plan.preflight.push_back(reconcile::finding_from_json(f));
  return plan;
}

}  // namespace

bool looks_like_saved_plan(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::path(path).extension() == ".mkq") return false;
  std::ifstream in(path, std::ios::binary);
  char first = 0;
  in >> first;
  return first == '{';
}

base::Result<void> write_saved_plan(const reconcile::Plan& plan, const std::string& file) {
  base::FileWrite options;
  options.mode = base::FileMode::OwnerOnly;  // a plan names every object of the fleet: its owner's to read
  options.what = "the plan to " + file;
  return base::write_file(file, plan_to_json(plan).dump(2) + "\n", options);
}

base::Result<reconcile::Plan> read_saved_plan(const std::string& file) {
  using base::Error;
  std::ifstream in(file, std::ios::binary);
  const std::string text(std::istreambuf_iterator<char>(in), {});
  const Json document = Json::parse(text, nullptr, false);
  if (document.is_discarded()) return Error::config("");
  if (!document.is_object()) return Error::config("a saved plan is a JSON object");
  if (!document.contains(kVersionKey)) {
    return Error::config(document.contains("format_version")
                             ? "written by an older mkq (or by --format json); make the plan again with `mkq plan --out`"
                             : "it has no " + std::string(kVersionKey) + " version");
  }
  const Json& version = document[kVersionKey];
  if (!version.is_number_integer() || version.get<int>() < kOldestReadVersion || version.get<int>() > kSavedPlanVersion) {
    return Error::config(fmt::format("saved plan version {} (this mkq reads version {}); make the plan again with this mkq",
                                     document[kVersionKey].dump(), kSavedPlanVersion));
  }
  try {
    return plan_from_json(document);
  } catch (const std::exception& e) {
    return Error::config(std::string("the saved plan is malformed: ") + e.what());
  }
}

}  // namespace mkq::operation
