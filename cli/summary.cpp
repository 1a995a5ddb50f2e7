// summarize() (summary.h): "PATH: ok (1 manager, 2 workers, ...)".
#include "cli/summary.h"

#include <cstddef>
#include <iterator>
#include <string>

#include <fmt/format.h>

namespace mkq::cli {
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
  std::string text = fmt::format("{}: ok (", path);
  const char* separator = "";
  for (const Entry& entry : entries) {
    if (entry.n == 0) continue;
    // "1 worker", "2 workers", "3 priority classes"
    fmt::format_to(std::back_inserter(text), "{}{} {}", separator, entry.n,
                   entry.n == 1 ? entry.singular : entry.plural);
    separator = ", ";
  }
  text += ")\n";
  return text;
}

}  // namespace mkq::cli
