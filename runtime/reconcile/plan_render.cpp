// The plan's renderings (text, markdown, JSON), the saved plan read back, and
// the staleness check of a saved plan. No rendering ever shows a value of a
// sensitive field: those FieldDiffs hold only a marker.
#include <algorithm>
#include <exception>
#include <iterator>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/style.h"
#include "runtime/reconcile/handover.h"
#include "runtime/reconcile/plan.h"

namespace mkq::reconcile {
namespace {

constexpr const char* kSensitiveMarker = "(sensitive value)";
constexpr int kFormatVersion = 1;

const char* symbol(Action action) {
  switch (action) {
    case Action::Create: return "+";
    case Action::Update: return "~";
    case Action::Delete: return "-";
    case Action::Replace: return "-/+";
    case Action::Release: return ".";
    case Action::NoOp: return " ";
  }
  return " ";
}

// The text rendering's styles (base/style.h); each refers to its text, so use
// it within the expression that formats it.
struct Palette {
  bool on = false;
  base::Styled green(std::string_view t) const { return base::styled(t, base::kGreen, on); }
  base::Styled yellow(std::string_view t) const { return base::styled(t, base::kYellow, on); }
  base::Styled red(std::string_view t) const { return base::styled(t, base::kRed, on); }
  base::Styled bold(std::string_view t) const { return base::styled(t, base::kBold, on); }
  // The action's symbol (a change's line starts with it), appended to `out`.
  void append_action(std::string& out, Action a) const {
    const auto to = std::back_inserter(out);
    switch (a) {
      case Action::Create: fmt::format_to(to, "{}", green("+")); return;
      case Action::Update: fmt::format_to(to, "{}", yellow("~")); return;
      case Action::Delete: fmt::format_to(to, "{}", red("-")); return;
      case Action::Replace: fmt::format_to(to, "{}/{}", red("-"), green("+")); return;
      case Action::Release: fmt::format_to(to, "{}", yellow(".")); return;
      case Action::NoOp: break;
    }
    out += ' ';
  }
};

const char* role_name(kueue::ClusterRole role) { return role == kueue::ClusterRole::Manager ? "manager" : "worker"; }

std::string object_name(const base::ObjectRef& ref) {
  if (ref.namespace_name.empty()) return fmt::format("{} {}", ref.kind, ref.name);
  return fmt::format("{} {}/{}", ref.kind, ref.namespace_name, ref.name);
}

std::string object_name(const Change& change) { return object_name(change.ref); }

std::size_t kept_count(const Plan& plan) {
  std::size_t n = 0;
  for (const ClusterPlan& cluster : plan.clusters) n += cluster.kept.size();
  return n;
}

// "2 objects mkq applied are no longer in the policy and kept (--no-prune)"
std::string kept_text(std::size_t n) {
  return fmt::format("{} {} no longer in the policy and kept (--no-prune)", n,
                     n == 1 ? "object mkq applied is" : "objects mkq applied are");
}

std::string value_text(const Json& value, bool sensitive) { return sensitive ? kSensitiveMarker : value.dump(); }

bool has_real_changes(const ClusterPlan& cluster) {
  return std::any_of(cluster.changes.begin(), cluster.changes.end(),
                     [](const Change& c) { return c.action != Action::NoOp; });
}

std::string summary_line(const PlanSummary& s) {
  std::string line = fmt::format("{} to add, {} to change, {} to destroy", s.add, s.change, s.destroy);
  if (s.release > 0) fmt::format_to(std::back_inserter(line), ", {} to release", s.release);
  return line;
}

// "" when apply may carry the plan out.
std::string conflicts_line(const PlanSummary& s) {
  if (s.conflicts == 0) return "";
  return fmt::format("{} {} not this policy's to make (marked !): apply refuses this plan", s.conflicts,
                     s.conflicts == 1 ? "change is" : "changes are");
}

// The "!" notes of a change: why apply cannot carry it out as it is.
std::vector<std::string> blockers_of(const Change& change) {
  std::vector<std::string> out;
  if (!change.credential_error.empty()) {
    out.push_back(fmt::format("the credential cannot be issued: {}", change.credential_error));
  }
  if (!change.owner_conflict.empty() && !change.take_over) {
    out.push_back(fmt::format("owned by policy {}: apply refuses it; --take-over makes it this policy's (relabelled, "
                              "forcing conflicts)",
                              change.owner_conflict));
  }
  if (!change.refusal.empty()) out.push_back(fmt::format("refused: {}", change.refusal));
  if (!change.error.empty()) out.push_back(fmt::format("cannot be applied: {}", change.error));
  return out;
}

// "excluded (--exclude-cluster): 7 objects left as they are"
std::string excluded_text(const ExcludedCluster& excluded) {
  return fmt::format("excluded (--exclude-cluster): {} {}", excluded.objects,
                     excluded.objects == 1 ? "object left as it is" : "objects left as they are");
}

// What the plan's scope left out, one line each (Scope): "2 clusters not
// planned (--cluster): w2, w3; 9 objects left as they are".
std::vector<std::string> scope_lines(const Plan& plan, const std::string& manager) {
  std::vector<std::string> out;
  const Scope& scope = plan.scope;
  const auto objects = [](int n) { return fmt::format("{} {}", n, n == 1 ? "object" : "objects"); };
  const auto as_they_are = [](int n) { return n == 1 ? "it is" : "they are"; };
  if (!scope.not_planned.empty()) {
    std::vector<std::string> names;
    int left = 0;
    for (const ExcludedCluster& c : scope.not_planned) {
      names.push_back(c.cluster);
      left += c.objects;
    }
    const std::size_t n = names.size();
    out.push_back(fmt::format("{} {} not planned (--cluster): {}; {} of the state left as {}", n,
                              n == 1 ? "cluster" : "clusters", listed(names), objects(left), as_they_are(left)));
  }
  if (!scope.clusters.empty() && std::find(scope.clusters.begin(), scope.clusters.end(), manager) == scope.clusters.end()) {
    out.push_back(fmt::format("manager {}: only its objects for {} planned (--cluster); {} of the state left as {}",
                              manager, listed(scope.clusters), objects(scope.manager_objects_left),
                              as_they_are(scope.manager_objects_left)));
  }
  if (scope.drift_only) {
    out.push_back(fmt::format("drift only (--drift-only): {} {} not drift left out", scope.not_drift,
                              scope.not_drift == 1 ? "change that is" : "changes that are"));
  }
  return out;
}

// The manager's name as the plan holds it ("" when the plan has none).
std::string manager_name(const Plan& plan) {
  for (const ClusterPlan& cluster : plan.clusters) {
    if (cluster.role == kueue::ClusterRole::Manager) return cluster.cluster;
  }
  return "";
}

std::string no_changes_text(const Plan& plan) {
  if (plan.kind == PlanKind::Destroy) return "No changes. mkq has nothing to destroy.";
  if (plan.scope.drift_only) return "No drift. Every object planned is as mkq last applied it.";
  if (!plan.scope.clusters.empty()) return "No changes. Every object planned matches the policy.";
  const std::size_t kept = kept_count(plan);
  if (kept > 0) return fmt::format("No changes to make, but not every cluster matches the policy: {}.", kept_text(kept));
  return "No changes. Every cluster matches the policy.";
}

// Per cluster: the objects --no-prune keeps, one line each, appended to `out`.
void append_kept_lines(std::string& out, const ClusterPlan& cluster) {
  for (const base::ObjectRef& ref : cluster.kept) {
    fmt::format_to(std::back_inserter(out), "  = {} (kept: no longer in the policy; --no-prune)\n", object_name(ref));
  }
}

std::string escape_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

// Secret data values of a sensitive, non-credential document are replaced by the marker.

// What the plan says of a restart that follows a change (plan.h Restart).
std::string restart_note(const Restart& restart) {
  if (!restart.enabled) {
    return fmt::format("Kueue's controller manager is not restarted (kueue {{ restart = false }}): it reads the change "
                       "when it next starts (Deployment {}/{})",
                       restart.namespace_name, restart.name);
  }
  return fmt::format("Kueue's controller manager will be restarted to read it (Deployment {}/{})",
                     restart.namespace_name, restart.name);
}

std::optional<Action> action_from(const std::string& name) {
  for (const Action a :
       {Action::NoOp, Action::Create, Action::Update, Action::Delete, Action::Replace, Action::Release}) {
    if (name == action_name(a)) return a;
  }
  return std::nullopt;
}

// "1 error and 2 warnings"
std::string findings_count(const std::vector<Finding>& findings) {
  const auto errors = std::count_if(findings.begin(), findings.end(),
                                    [](const Finding& f) { return f.severity == Severity::Error; });
  const auto warnings = static_cast<std::ptrdiff_t>(findings.size()) - errors;
  const auto counted = [](std::ptrdiff_t n, const char* what) { return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s"); };
  if (errors == 0) return counted(warnings, "warning");
  if (warnings == 0) return counted(errors, "error");
  return fmt::format("{} and {}", counted(errors, "error"), counted(warnings, "warning"));
}

// The plan's first section, before the changes: every finding with its fix.
void append_preflight(std::string& out, const Plan& plan, const Palette& p) {
  if (plan.preflight.empty()) return;
  const auto to = std::back_inserter(out);
  fmt::format_to(to, "{}\n", p.bold(fmt::format("Preflight found {}:", findings_count(plan.preflight))));
  for (const Finding& f : plan.preflight) {
    const char* severity = severity_name(f.severity);
    fmt::format_to(to, "  {}: {}: {} [{}]\n", f.severity == Severity::Error ? p.red(severity) : p.yellow(severity),
                   f.cluster, f.missing, finding_code_name(f.code));
    if (!f.fix.empty()) fmt::format_to(to, "      fix: {}\n", f.fix);
  }
  out += '\n';
}

const char* kPreflightRefusal = "apply refuses this plan until the preflight errors are fixed";

// Each dispatch ordered by free capacity, its workers as the MultiKueueConfig
// lists them: "gpu-east: 8 nvidia.com/gpu free (2 nodes)".
std::vector<std::string> order_lines(const DispatchOrder& order) {
  std::vector<std::string> out;
  for (const WorkerFree& worker : order.workers) {
    if (worker.error) {
      out.push_back(fmt::format("{}: cannot be read: {}", worker.worker, describe(*worker.error)));
      continue;
    }
    out.push_back(fmt::format("{}: {} {} free ({} {})", worker.worker, worker.free, order.resource, worker.nodes,
                              worker.nodes == 1 ? "node" : "nodes"));
  }
  return out;
}

std::string order_heading(const DispatchOrder& order) {
  return fmt::format("dispatch {}: workers by free {}, most first{}", order.dispatch, order.resource,
                     order.known() ? "" : " (order unknown)");
}

}  // namespace

std::string render_text(const Plan& plan, bool color) {
  const Palette p{color};
  std::string trailer;  // after the clusters: the excluded ones, the dispatch orders
  const auto trailer_to = std::back_inserter(trailer);
  for (const ExcludedCluster& e : plan.excluded) {
    fmt::format_to(trailer_to, "{}: {}\n", p.bold(fmt::format("# cluster {} (worker)", e.cluster)),
                   p.yellow(excluded_text(e)));
  }
  for (const std::string& line : scope_lines(plan, manager_name(plan))) {
    fmt::format_to(trailer_to, "{}\n", p.yellow(fmt::format("# {}", line)));
  }
  for (const DispatchOrder& order : plan.dispatch_orders) {
    fmt::format_to(trailer_to, "{}\n", p.bold(fmt::format("# {}", order_heading(order))));
    for (const std::string& line : order_lines(order)) {
      fmt::format_to(trailer_to, "  {}\n", order.known() ? base::styled(line, {}, false) : p.red(line));
    }
  }
  const auto cluster_heading = [](const ClusterPlan& cluster) {
    return fmt::format("# cluster {} ({})", cluster.cluster, role_name(cluster.role));
  };
  const std::string refusal = fmt::format("{}.", kPreflightRefusal);
  std::string out;
  const auto to = std::back_inserter(out);
  append_preflight(out, plan, p);
  if (!plan.has_changes() && plan.complete()) {
    std::string kept;
    for (const ClusterPlan& cluster : plan.clusters) {
      if (cluster.kept.empty()) continue;
      fmt::format_to(std::back_inserter(kept), "{}\n", p.bold(cluster_heading(cluster)));
      append_kept_lines(kept, cluster);
    }
    fmt::format_to(to, "{}\n{}{}{}", no_changes_text(plan), kept.empty() ? "" : "\n", kept, trailer);
    if (plan.preflight_failed()) fmt::format_to(to, "{}\n", p.red(refusal));
    return out;
  }
  out += "mkq will perform the following actions:\n";
  for (const ClusterPlan& cluster : plan.clusters) {
    fmt::format_to(to, "\n{}", p.bold(cluster_heading(cluster)));
    if (!cluster.reachable) {
      fmt::format_to(to, ": {}: {}\n", p.red("unreachable"), cluster.error);
      continue;
    }
    if (!has_real_changes(cluster)) {
      out += ": no changes\n";
      append_kept_lines(out, cluster);
      continue;
    }
    out += '\n';
    append_kept_lines(out, cluster);
    for (const Change& change : cluster.changes) {
      if (change.action == Action::NoOp) continue;
      out += "  ";
      p.append_action(out, change.action);
      fmt::format_to(to, " {} ({})\n", object_name(change), reason_text(change));
      for (const FieldDiff& field : change.fields) {
        const bool sensitive = field.sensitive || change.sensitive;
        if (field.before && field.after) {
          fmt::format_to(to, "      {} {}: {} -> {}{}\n", p.yellow("~"), field.path, value_text(*field.before, sensitive),
                         value_text(*field.after, sensitive), field.restores_default ? " (Kueue's default)" : "");
        } else if (field.after) {
          fmt::format_to(to, "      {} {}: {}\n", p.green("+"), field.path, value_text(*field.after, sensitive));
        } else if (field.before) {
          fmt::format_to(to, "      {} {}: {}\n", p.red("-"), field.path, value_text(*field.before, sensitive));
        }
      }
      for (const std::string& blocker : blockers_of(change)) fmt::format_to(to, "      {} {}\n", p.red("!"), blocker);
      if (change.restart) fmt::format_to(to, "      {}\n", restart_note(*change.restart));
    }
  }
  if (!trailer.empty()) fmt::format_to(to, "\n{}", trailer);
  const std::vector<std::string> steps = handover_lines(plan);
  for (std::size_t index = 0; index < steps.size(); ++index) {
    if (index == 0) fmt::format_to(to, "\n{}\n", p.bold(steps[index]));
    else fmt::format_to(to, "  {}\n", steps[index]);
  }
  const PlanSummary s = plan.summary();
  fmt::format_to(to, "\n{}\n", p.bold(fmt::format("Plan: {}.", summary_line(s))));
  if (s.conflicts > 0) fmt::format_to(to, "{}.\n", p.red(conflicts_line(s)));
  if (const std::size_t kept = kept_count(plan); kept > 0) fmt::format_to(to, "{}.\n", kept_text(kept));
  if (plan.preflight_failed()) fmt::format_to(to, "{}\n", p.red(refusal));
  if (s.unreachable_clusters > 0) {
    const bool one = s.unreachable_clusters == 1;
    fmt::format_to(to, "{} {} unreachable: {} changes are unknown and not part of this plan.\n", s.unreachable_clusters,
                   one ? "cluster is" : "clusters are", one ? "its" : "their");
  }
  return out;
}

std::string render_markdown(const Plan& plan) {
  const PlanSummary s = plan.summary();
  std::string trailer;  // after the clusters: the excluded ones, the dispatch orders
  const auto trailer_to = std::back_inserter(trailer);
  for (const ExcludedCluster& e : plan.excluded) {
    fmt::format_to(trailer_to, "\n#### cluster `{}` (worker)\n\n{}\n", e.cluster, excluded_text(e));
  }
  if (const std::vector<std::string> lines = scope_lines(plan, manager_name(plan)); !lines.empty()) {
    trailer += "\n#### scope\n\n";
    for (const std::string& line : lines) fmt::format_to(trailer_to, "- {}\n", escape_cell(line));
  }
  for (const DispatchOrder& order : plan.dispatch_orders) {
    fmt::format_to(trailer_to, "\n#### {}\n\n", order_heading(order));
    for (const std::string& line : order_lines(order)) fmt::format_to(trailer_to, "- {}\n", escape_cell(line));
  }
  std::string preflight;
  if (!plan.preflight.empty()) {
    const auto preflight_to = std::back_inserter(preflight);
    fmt::format_to(preflight_to, "\n#### preflight: {}\n\n| Severity | Cluster | Missing | Fix |\n| --- | --- | --- | --- |\n",
                   findings_count(plan.preflight));
    for (const Finding& f : plan.preflight) {
      fmt::format_to(preflight_to, "| {} | `{}` | {} | {} |\n", severity_name(f.severity), f.cluster,
                     escape_cell(f.missing), escape_cell(f.fix));
    }
    if (plan.preflight_failed()) fmt::format_to(preflight_to, "\n**{}**.\n", kPreflightRefusal);
  }
  if (!plan.has_changes() && plan.complete()) {
    return fmt::format("### mkq plan: no changes\n{}\n{}\n{}", preflight, no_changes_text(plan), trailer);
  }
  std::string out = fmt::format("### mkq plan: {}\n{}", summary_line(s), preflight);
  const auto to = std::back_inserter(out);
  if (s.conflicts > 0) fmt::format_to(to, "\n**{}**.\n", conflicts_line(s));
  if (const std::size_t kept = kept_count(plan); kept > 0) fmt::format_to(to, "\n{}.\n", kept_text(kept));
  if (s.unreachable_clusters > 0) {
    const bool one = s.unreachable_clusters == 1;
    fmt::format_to(to, "\n**{} {} unreachable**: {} changes are unknown.\n", s.unreachable_clusters,
                   one ? "cluster is" : "clusters are", one ? "its" : "their");
  }
  const std::vector<std::string> steps = handover_lines(plan);
  for (std::size_t index = 0; index < steps.size(); ++index) {
    if (index == 0) fmt::format_to(to, "\n{}\n\n", steps[index]);
    else fmt::format_to(to, "{}\n", steps[index]);
  }
  for (const ClusterPlan& cluster : plan.clusters) {
    fmt::format_to(to, "\n#### cluster `{}` ({})\n\n", cluster.cluster, role_name(cluster.role));
    if (!cluster.reachable) {
      fmt::format_to(to, "Unreachable: {}\n", escape_cell(cluster.error));
      continue;
    }
    if (!has_real_changes(cluster)) {
      out += "No changes.\n";
      continue;
    }
    out += "| Action | Object | Reason |\n| --- | --- | --- |\n";
    bool any_fields = false;
    for (const Change& change : cluster.changes) {
      if (change.action == Action::NoOp) continue;
      any_fields = any_fields || !change.fields.empty();
      std::string reason = reason_text(change);
      for (const std::string& blocker : blockers_of(change)) fmt::format_to(std::back_inserter(reason), "; **{}**", blocker);
      fmt::format_to(to, "| {} {} | `{}` | {} |\n", symbol(change.action), action_name(change.action),
                     object_name(change), escape_cell(reason));
    }
    for (const Change& change : cluster.changes) {
      if (change.action == Action::NoOp) continue;
      if (!change.error.empty()) fmt::format_to(to, "\n`{}` cannot be applied: {}\n", object_name(change), change.error);
      if (change.restart) fmt::format_to(to, "\n`{}`: {}\n", object_name(change), restart_note(*change.restart));
    }
    if (!any_fields) continue;
    fmt::format_to(to, "\n<details><summary>field changes on {}</summary>\n\n```diff\n", cluster.cluster);
    for (const Change& change : cluster.changes) {
      if (change.action == Action::NoOp || change.fields.empty()) continue;
      fmt::format_to(to, "# {} {}\n", symbol(change.action), object_name(change));
      for (const FieldDiff& field : change.fields) {
        const bool sensitive = field.sensitive || change.sensitive;
        if (field.before) fmt::format_to(to, "- {}: {}\n", field.path, value_text(*field.before, sensitive));
        if (field.after) {
          fmt::format_to(to, "+ {}: {}{}\n", field.path, value_text(*field.after, sensitive),
                         field.restores_default ? " (Kueue's default)" : "");
        }
      }
    }
    out += "```\n\n</details>\n";
  }
  return out + trailer;
}

namespace {

// One change as the JSON rendering (and the saved plan) holds it.
Json change_json(const Change& change) {
  Json j = Json::object();
  j["address"] = change.ref.address();
  j["api_version"] = change.ref.api_version;
  j["kind"] = change.ref.kind;
  j["namespace"] = change.ref.namespace_name;
  j["name"] = change.ref.name;
  j["action"] = action_name(change.action);
  j["reason"] = reason_text(change);
  Json fields = Json::array();
  for (const FieldDiff& field : change.fields) {
    const bool sensitive = field.sensitive || change.sensitive;
    Json f = Json::object();
    f["path"] = field.path;
    if (field.before) f["before"] = sensitive ? Json(kSensitiveMarker) : *field.before;
    if (field.after) f["after"] = sensitive ? Json(kSensitiveMarker) : *field.after;
    f["sensitive"] = field.sensitive;
    if (field.restores_default) f["restores_default"] = true;
    fields.push_back(std::move(f));
  }
  j["fields"] = std::move(fields);
  j["desired"] = masked_document(change);
  if (!change.inventory_digest.empty()) j["inventory_digest"] = change.inventory_digest;
  j["repairs_drift"] = change.repairs_drift;
  j["sensitive"] = change.sensitive;
  j["credential"] = change.credential;
  j["credential_error"] = change.credential_error;
  if (!change.revokes_token_of.empty()) j["revokes_token_of"] = change.revokes_token_of;
  j["error"] = change.error;
  j["take_ownership"] = change.take_ownership;
  j["restart"] = change.restart ? Json{{"namespace", change.restart->namespace_name},
                                       {"name", change.restart->name},
                                       {"enabled", change.restart->enabled}}
                                : Json();
  j["live_uid"] = change.live_uid;
  j["live_resource_version"] = change.live_resource_version;
  j["depends_on"] = change.depends_on;
  j["owner_conflict"] = change.owner_conflict;
  j["take_over"] = change.take_over;
  j["adopted"] = change.adopted;
  j["replace_requested"] = change.replace_requested;
  j["prior"] = change.prior;
  j["refusal"] = change.refusal;
  if (change.step != Step::Unphased) j["step"] = step_name(change.step);
  return j;
}

}  // namespace

FieldDiff field_diff_from_json(const Json& f) {
  FieldDiff field;
  field.path = f.at("path").get<std::string>();
  if (f.contains("before")) field.before = f["before"];
  if (f.contains("after")) field.after = f["after"];
  field.sensitive = f.value("sensitive", false);
  field.restores_default = f.value("restores_default", false);
  return field;
}

Json masked_document(const Change& change) {
  if (!change.sensitive || change.credential || !change.desired.is_object()) return change.desired;
  Json out = change.desired;
  for (const char* key : {"data", "stringData"}) {
    if (!out.contains(key) || !out[key].is_object()) continue;
    for (auto& [k, v] : out[key].items()) {
      (void)k;
      if (!v.is_null()) v = kSensitiveMarker;  // null: a key a release removes
    }
  }
  return out;
}

Json scope_json(const Scope& scope) {
  Json not_planned = Json::array();
  for (const ExcludedCluster& e : scope.not_planned) not_planned.push_back(Json{{"name", e.cluster}, {"objects", e.objects}});
  return Json{{"clusters", scope.clusters},
              {"not_planned", std::move(not_planned)},
              {"manager_objects_left", scope.manager_objects_left},
              {"drift_only", scope.drift_only},
              {"not_drift", scope.not_drift}};
}

Scope scope_from_json(const Json& json) {
  Scope scope;
  scope.clusters = json.value("clusters", std::vector<std::string>());
  for (const Json& e : json.value("not_planned", Json::array())) {
    scope.not_planned.push_back(ExcludedCluster{e.at("name").get<std::string>(), e.at("objects").get<int>()});
  }
  scope.manager_objects_left = json.value("manager_objects_left", 0);
  scope.drift_only = json.value("drift_only", false);
  scope.not_drift = json.value("not_drift", 0);
  return scope;
}

Json render_json(const Plan& plan) {
  const PlanSummary s = plan.summary();
  Json out = Json::object();
  out["format_version"] = kFormatVersion;
  out["kind"] = plan.kind == PlanKind::Destroy ? "destroy" : "apply";
  out["policy_path"] = plan.policy_path;
  out["policy_digest"] = plan.policy_digest;
  out["lineage"] = plan.lineage;
  out["state_serial"] = plan.state_serial;
  out["policy"] = plan.policy;
  out["options"] = Json{{"prune", plan.options.prune},
                        {"take_over", plan.options.take_over},
                        {"delete_adopted", plan.options.delete_adopted},
                        {"replace", plan.options.replace}};
  out["scope"] = scope_json(plan.scope);
  out["summary"] = Json{{"add", s.add},         {"change", s.change},       {"destroy", s.destroy},
                        {"replace", s.replace}, {"unchanged", s.unchanged}, {"unreachable_clusters", s.unreachable_clusters},
                        {"release", s.release}, {"conflicts", s.conflicts}};
  Json clusters = Json::array();
  for (const ClusterPlan& cluster : plan.clusters) {
    Json c = Json::object();
    c["name"] = cluster.cluster;
    c["role"] = role_name(cluster.role);
    c["reachable"] = cluster.reachable;
    c["error"] = cluster.error;
    Json changes = Json::array();
    for (const Change& change : cluster.changes) {
      Json j = change_json(change);
      changes.push_back(std::move(j));
    }
    c["changes"] = std::move(changes);
    Json kept = Json::array();
    for (const base::ObjectRef& ref : cluster.kept) kept.push_back(ref.address());
    c["kept"] = std::move(kept);
    clusters.push_back(std::move(c));
  }
  out["clusters"] = std::move(clusters);
  Json excluded = Json::array();
  for (const ExcludedCluster& e : plan.excluded) excluded.push_back(Json{{"name", e.cluster}, {"objects", e.objects}});
  out["excluded"] = std::move(excluded);
  if (plan.phased()) out["handover"] = Json{{"joining", plan.handover.joining}, {"leaving", plan.handover.leaving}};
  Json preflight = Json::array();
  for (const Finding& finding : plan.preflight) preflight.push_back(finding_json(finding));
  out["preflight"] = std::move(preflight);
  Json orders = Json::array();
  for (const DispatchOrder& order : plan.dispatch_orders) {
    Json workers = Json::array();
    for (const WorkerFree& w : order.workers) {
      workers.push_back(Json{
          {"name", w.worker}, {"free", w.free}, {"nodes", w.nodes}, {"error", w.error ? describe(*w.error) : ""}});
    }
    orders.push_back(Json{{"dispatch", order.dispatch}, {"config", order.config}, {"resource", order.resource},
                          {"known", order.known()}, {"workers", std::move(workers)}});
  }
  out["dispatch_orders"] = std::move(orders);
  return out;
}

base::Result<Plan> plan_from_json(const Json& json) {
  const auto fail = [](std::string message) -> base::Result<Plan> { return base::Error::config(std::move(message)); };
  try {
    if (!json.is_object()) return fail("a saved plan is a JSON object");
    if (!json.contains("format_version") || json["format_version"] != kFormatVersion) {
      return fail(fmt::format("unsupported plan format_version (this mkq reads version {})", kFormatVersion));
    }
    Plan plan;
    const std::string kind = json.at("kind").get<std::string>();
    if (kind != "apply" && kind != "destroy") return fail(fmt::format("unknown plan kind \"{}\"", kind));
    plan.kind = kind == "destroy" ? PlanKind::Destroy : PlanKind::Apply;
    plan.policy = json.value("policy", std::string());
    plan.policy_path = json.value("policy_path", std::string());
    plan.policy_digest = json.at("policy_digest").get<std::string>();
    plan.lineage = json.at("lineage").get<std::string>();
    plan.state_serial = json.at("state_serial").get<std::int64_t>();
    const Json options = json.value("options", Json::object());
    plan.options.kind = plan.kind;
    plan.options.prune = options.value("prune", true);
    plan.options.take_over = options.value("take_over", false);
    plan.options.delete_adopted = options.value("delete_adopted", false);
    const std::vector<std::string> replace = options.value("replace", std::vector<std::string>());
    plan.options.replace = {replace.begin(), replace.end()};
    for (const Json& c : json.at("clusters")) {
      ClusterPlan cluster;
      cluster.cluster = c.at("name").get<std::string>();
      const std::string role = c.at("role").get<std::string>();
      if (role != "manager" && role != "worker") return fail(fmt::format("unknown cluster role \"{}\"", role));
      cluster.role = role == "manager" ? kueue::ClusterRole::Manager : kueue::ClusterRole::Worker;
      cluster.reachable = c.at("reachable").get<bool>();
      cluster.error = c.value("error", std::string());
      for (const Json& j : c.at("changes")) {
        Change change;
        change.ref.cluster = cluster.cluster;
        change.ref.api_version = j.at("api_version").get<std::string>();
        change.ref.kind = j.at("kind").get<std::string>();
        change.ref.namespace_name = j.value("namespace", std::string());
        change.ref.name = j.at("name").get<std::string>();
        const auto action = action_from(j.at("action").get<std::string>());
        if (j.at("address").get<std::string>() != change.ref.address()) {
          return fail(fmt::format("address {} does not name its object ({})", j.at("address").dump(), change.ref.address()));
        }
        if (!action) {
          return fail(fmt::format("unknown action \"{}\" for {}", j.at("action").get<std::string>(), change.ref.address()));
        }
        change.action = *action;
        change.reason = Reason::Recorded;  // the words as shown: never derived again
        change.reason_args.text = j.value("reason", std::string());
        for (const Json& f : j.at("fields")) change.fields.push_back(field_diff_from_json(f));
        change.desired = j.contains("desired") ? j["desired"] : Json();
        change.inventory_digest = j.value("inventory_digest", std::string());
        change.repairs_drift = j.value("repairs_drift", false);
        change.sensitive = j.value("sensitive", false);
        change.credential = j.value("credential", false);
        change.credential_error = j.value("credential_error", std::string());
        change.revokes_token_of = j.value("revokes_token_of", std::string());
        change.error = j.value("error", std::string());
        change.take_ownership = j.value("take_ownership", false);
        if (j.contains("restart") && j["restart"].is_object()) {
          const Json& restart = j["restart"];
          change.restart = Restart{restart.at("namespace").get<std::string>(), restart.at("name").get<std::string>(),
                                   restart.value("enabled", true)};
        }
        change.live_uid = j.value("live_uid", std::string());
        change.live_resource_version = j.value("live_resource_version", std::string());
        if (j.contains("depends_on")) change.depends_on = j["depends_on"].get<std::vector<std::string>>();
        change.owner_conflict = j.value("owner_conflict", std::string());
        change.take_over = j.value("take_over", false);
        change.adopted = j.value("adopted", false);
        change.replace_requested = j.value("replace_requested", false);
        change.prior = j.value("prior", std::string());
        change.refusal = j.value("refusal", std::string());
        const std::optional<Step> step = step_from_name(j.value("step", std::string()));
        if (!step) return fail(fmt::format("unknown step {} for {}", j["step"].dump(), change.ref.address()));
        change.step = *step;
        cluster.changes.push_back(std::move(change));
      }
      plan.clusters.push_back(std::move(cluster));
    }
    for (const Json& e : json.value("excluded", Json::array())) {
      plan.excluded.push_back(ExcludedCluster{e.at("name").get<std::string>(), e.at("objects").get<int>()});
    }
    plan.scope = scope_from_json(json.value("scope", Json::object()));
    if (json.contains("handover")) {
      plan.handover.joining = json["handover"].at("joining").get<std::vector<std::string>>();
      plan.handover.leaving = json["handover"].at("leaving").get<std::vector<std::string>>();
    }
    for (const Json& f : json.value("preflight", Json::array())) plan.preflight.push_back(finding_from_json(f));
    for (const Json& o : json.value("dispatch_orders", Json::array())) {
      DispatchOrder order{o.at("dispatch").get<std::string>(), o.at("config").get<std::string>(),
                          o.at("resource").get<std::string>(), {}};
      for (const Json& w : o.at("workers")) {
        const std::string error = w.at("error").get<std::string>();
        order.workers.push_back(WorkerFree{w.at("name").get<std::string>(), w.at("free").get<std::string>(),
                                           w.at("nodes").get<int>(),
                                           error.empty() ? std::nullopt : std::optional(base::Error(0, "", error))});
      }
      plan.dispatch_orders.push_back(std::move(order));
    }
    return plan;
  } catch (const std::exception& e) {
    return fail(std::string("the saved plan is malformed: ") + e.what());
  }
}

std::vector<std::string> stale_reasons(const Plan& saved, std::int64_t current_serial, const std::string& lineage,
                                       const LiveState& live) {
  std::vector<std::string> out;
  if (saved.lineage != lineage) {
    out.push_back(fmt::format("the plan was made for another state (lineage {}, now {})", saved.lineage, lineage));
  } else if (saved.state_serial != current_serial) {
    out.push_back(fmt::format("the state changed since the plan (serial {} -> {})", saved.state_serial, current_serial));
  }
  for (const ClusterPlan& cluster : saved.clusters) {
    if (!cluster.reachable) continue;  // nothing was planned there
    const ClusterLive* now = live.find(cluster.cluster);
    if (now == nullptr || !now->reachable) {
      const bool why = now != nullptr && !now->error.empty();
      out.push_back(fmt::format("cluster {}: cannot be read now, so the plan cannot be checked{}{}", cluster.cluster,
                                why ? ": " : "", why ? now->error : std::string()));
      continue;
    }
    for (const Change& change : cluster.changes) {
      // An anchor is not refreshed: first_difference compares it with the anchors listed again.
      if (!change.revokes_token_of.empty()) continue;
      const auto found = now->objects.find(change.ref.address());
      const bool saw = !change.live_uid.empty() || !change.live_resource_version.empty();
      if (found == now->objects.end()) {
        if (saw) out.push_back(fmt::format("{}: deleted from the cluster since the plan", change.ref.address()));
        continue;
      }
      if (!saw) {
        out.push_back(fmt::format("{}: appeared on the cluster since the plan", change.ref.address()));
        continue;
      }
      const Json object = found->second.decode();
      const Json meta = object.contains("metadata") ? object["metadata"] : Json::object();
      const std::string uid = meta.value("uid", std::string());
      const std::string rv = meta.value("resourceVersion", std::string());
      if (uid != change.live_uid) {
        out.push_back(fmt::format("{}: replaced on the cluster since the plan (uid {} -> {})", change.ref.address(),
                                  change.live_uid, uid));
      } else if (rv != change.live_resource_version) {
        out.push_back(fmt::format("{}: changed on the cluster since the plan (resourceVersion {} -> {})",
                                  change.ref.address(), change.live_resource_version, rv));
      }
    }
  }
  return out;
}

std::string first_difference(const Plan& saved, const Plan& fresh) {
  if (!(saved.handover == fresh.handover)) {
    const auto words = [](const Handover& handover) {
      return fmt::format("leaving [{}], joining [{}]", fmt::join(handover.leaving, ", "), fmt::join(handover.joining, ", "));
    };
    return fmt::format("the workers it hands over differ: the plan says {}, the policy now plans {}", words(saved.handover),
                       words(fresh.handover));
  }
  // What decides: everything of a change but its display text.
  const auto checked = [](const Change& change) {
    Json j = change_json(change);
    j.erase("reason");
    j.erase("fields");
    return j;
  };
  std::map<std::string, const Change*> now;
  for (const ClusterPlan& cluster : fresh.clusters) {
    for (const Change& change : cluster.changes) now[change.ref.address()] = &change;
  }
  std::set<std::string> seen;
  for (const ClusterPlan& cluster : saved.clusters) {
    for (const Change& change : cluster.changes) {
      seen.insert(change.ref.address());
      const auto it = now.find(change.ref.address());
      if (it == now.end()) return fmt::format("{}: not part of what the policy plans now", change.ref.address());
      if (it->second->action != change.action) {
        return fmt::format("{}: the plan says {}, the policy now plans {}", change.ref.address(), action_name(change.action),
                           action_name(it->second->action));
      }
      const Json was = checked(change), is = checked(*it->second);
      if (was == is) continue;
      for (const auto& [key, value] : is.items()) {
        if (was.value(key, Json()) != value) {
          return fmt::format("{}: its {} differs from what the policy plans now", change.ref.address(), key);
        }
      }
      return fmt::format("{}: differs from what the policy plans now", change.ref.address());
    }
  }
  for (const auto& [address, change] : now) {
    (void)change;
    if (seen.count(address) == 0) return fmt::format("{}: planned now, missing from the saved plan", address);
  }
  return "";
}

}  // namespace mkq::reconcile
