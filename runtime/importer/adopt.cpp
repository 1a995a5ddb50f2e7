// --adopt: apply's own adoption, allowed only when that is all the plan does.
#include "runtime/importer/adopt.h"

#include "compiler/facts/kueue.h"
#include "runtime/reconcile/reason.h"

namespace mkq::importer {
namespace {

// mkq's labels, the one thing an adoption writes.
bool is_mkq_label(const std::string& path) {
  const std::string labels = "metadata.labels.";
  return path == labels + std::string(facts::kManagedByLabel) ||
         path == labels + std::string(facts::kPolicyLabel);
}

// The plan's confirmation is the check: everything else is the caller's Ui.
class AdoptionUi final : public operation::Ui {
 public:
  AdoptionUi(operation::Ui& inner, std::vector<std::string>& refused) : inner_(inner), refused_(refused) {}
  void compiled(const operation::Compilation& c) override { inner_.compiled(c); }
  void target(const operation::TargetChoice& choice) override { inner_.target(choice); }
  void notice(const std::string& text) override { inner_.notice(text); }
  void error(const std::string& text) override { inner_.error(text); }
  void output(const std::string& text) override { inner_.output(text); }
  void timing(const operation::Timing& t) override { inner_.timing(t); }
  void show_plan(const reconcile::Plan& plan) override { inner_.show_plan(plan); }
  bool confirm(const reconcile::Plan& plan) override {
    refused_ = beyond_adoption(plan);
    return refused_.empty();
  }
  std::unique_ptr<operation::Cancellation> begin_apply(const reconcile::Plan& plan) override {
    return inner_.begin_apply(plan);
  }
  void progress(const reconcile::ProgressEvent& event) override { inner_.progress(event); }
  void end_apply(const reconcile::ApplyReport& report) override { inner_.end_apply(report); }
  void status_poll(std::size_t active, std::size_t total) override { inner_.status_poll(active, total); }

 private:
  operation::Ui& inner_;
  std::vector<std::string>& refused_;
};

}  // namespace

std::vector<std::string> beyond_adoption(const reconcile::Plan& plan) {
  std::vector<std::string> out;
  for (const reconcile::ClusterPlan& cluster : plan.clusters) {
    if (!cluster.reachable) out.push_back(cluster.cluster + ": not reachable: " + cluster.error);
    for (const reconcile::Change& change : cluster.changes) {
      if (change.action == reconcile::Action::NoOp) continue;
      const std::string address = change.ref.address();
      if (change.action != reconcile::Action::Update || change.credential) {
        out.push_back(address + ": " + reconcile::reason_text(change));
        continue;
      }
      if (!change.owner_conflict.empty()) {
        out.push_back(address + ": owned by policy " + change.owner_conflict);
        continue;
      }
      if (!change.adopted) {
        out.push_back(address + ": already recorded by mkq: " + reconcile::reason_text(change));
        continue;
      }
      for (const reconcile::FieldDiff& field : change.fields) {
        if (!is_mkq_label(field.path)) out.push_back(address + ": " + field.path + " would change");
      }
    }
  }
  return out;
}

AdoptResult adopt(const operation::ApplyRequest& request, operation::TargetResolver& resolver,
                  operation::Ui& ui) {
  AdoptResult out;
  AdoptionUi guarded(ui, out.refused);
  operation::ApplyRequest asked = request;
  asked.auto_approve = false;  // confirm() is where the plan is checked
  out.apply = operation::apply(asked, resolver, guarded);
  return out;
}

}  // namespace mkq::importer
