// import_policy: lay out, write, check -- the stage's one entry after reading.
#include <cctype>

#include "runtime/importer/importer_internal.h"

namespace mkq::importer {

base::Result<Imported> import_policy(const Snapshot& snapshot, const WriteOptions& options) {
  if (snapshot.clusters.empty()) return base::Error::config("nothing to import: no manager");
  const Layout layout = lay_out(snapshot);
  base::Result<std::string> text = write_policy(layout, options);
  if (!text) return text.error();
  base::Result<Imported> imported = check_policy(snapshot, std::move(text).value());
  if (!imported) return imported;
  if (options.credentials == Credentials::Kubeconfig) {
    for (const WorkerPlan& worker : layout.workers) {
      imported.value().findings.push_back(
          {Finding::Kind::Note, "",
           "worker " + worker.name + ": plan and apply read its kubeconfig from $" +
               kubeconfig_variable(worker.name) + " (what Secret " +
               (worker.secret.empty() ? worker.name + "-kubeconfig" : worker.secret) +
               " on the manager holds now)"});
    }
  }
  return imported;
}

std::string kubeconfig_variable(const std::string& worker) {
  std::string out = "MKQ_KUBECONFIG_";
  for (const char c : worker) {
    out += std::isalnum(static_cast<unsigned char>(c)) != 0
               ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
               : '_';
  }
  return out;
}

std::string describe(const Finding& finding) {
  const char* what = "";
  switch (finding.kind) {
    case Finding::Kind::Dropped:
      what = "dropped";
      break;
    case Finding::Kind::NotImported:
      what = "not imported";
      break;
    case Finding::Kind::Added:
      what = "added";
      break;
    case Finding::Kind::Note:
      break;
  }
  std::string out = what;
  if (!out.empty()) out += ": ";
  if (!finding.address.empty()) out += finding.address + ": ";
  return out + finding.message;
}

}  // namespace mkq::importer
