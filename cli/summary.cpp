// summarize() (summary.h): "PATH: ok (1 manager, 2 workers, ...)".
#include "cli/summary.h"

#include <cstddef>
#include <string>

namespace mkq::cli {
namespace {

// "1 worker", "2 workers", "3 priority classes".
std::string count(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace

std::string summarize(const sema::model::Policy& policy, const std::string& path) {
  struct Entry {
    std::size_t n;
    const char* singular;
    const char* plural;
  };
  // A policy always has exactly one manager; the other collections appear
  // only when non-empty, always in this order.
  const Entry entries[] = {
      {1, "manager", "managers"},
      {policy.workers.size(), "worker", "workers"},
      {policy.flavors.size(), "flavor", "flavors"},
      {policy.topologies.size(), "topology", "topologies"},
      {policy.cohorts.size(), "cohort", "cohorts"},
      {policy.cluster_queues.size(), "cluster queue", "cluster queues"},
      {policy.local_queues.size(), "local queue", "local queues"},
      {policy.namespaces.size(), "namespace", "namespaces"},
      {policy.priority_classes.size(), "priority class", "priority classes"},
      {policy.dispatches.size(), "dispatch", "dispatches"},
      {policy.access.size(), "access binding", "access bindings"},
  };
  std::string parts;
  for (const Entry& entry : entries) {
    if (entry.n == 0) continue;
    if (!parts.empty()) parts += ", ";
    parts += count(entry.n, entry.singular, entry.plural);
  }
  return path + ": ok (" + parts + ")\n";
}

}  // namespace mkq::cli
