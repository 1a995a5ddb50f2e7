// mkq_flux_health EXPRS OBJECTS: for each object of OBJECTS (a kubectl `get
// -o json` List) whose kind EXPRS (a YAML document with healthCheckExprs)
// checks, one line "KIND NAMESPACE/NAME STATUS" with Flux's verdict (see
// flux_health.h): Current, InProgress, Failed, or "Error: WHY". e2e.gitops
// runs it on the sandbox's objects. Exit 2 when a file cannot be read.
#include <fmt/format.h>

#include <fstream>

#include "tests/gitops/flux_health.h"
#include "tests/support/crd_validator.h"

int main(int argc, char* argv[]) {
  if (argc != 3) {
    fmt::print(stderr, "usage: mkq_flux_health EXPRS.yaml OBJECTS.json\n");
    return 2;
  }
  const auto exprs = mkq::test_support::read_yaml_file(argv[1]);
  if (!exprs.errors.empty() || exprs.documents.size() != 1) {
    fmt::print(stderr, "{}: not one YAML document\n", argv[1]);
    return 2;
  }
  const auto checks = mkq::testing::flux_health_checks(exprs.documents[0]);
  std::ifstream in(argv[2]);
  const nlohmann::json list = nlohmann::json::parse(in, nullptr, false);
  if (list.is_discarded() || !list.contains("items")) {
    fmt::print(stderr, "{}: not a JSON List\n", argv[2]);
    return 2;
  }
  for (const nlohmann::json& object : list["items"]) {
    const mkq::testing::FluxHealthCheck* check = mkq::testing::flux_check_for(checks, object);
    if (check == nullptr) continue;
    const nlohmann::json& meta = object["metadata"];
    const auto verdict = mkq::testing::flux_health(*check, object);
    fmt::print("{} {}/{} {}{}{}\n", object["kind"].get<std::string>(), meta.value("namespace", ""),
               meta["name"].get<std::string>(), mkq::testing::flux_status_name(verdict.status),
               verdict.error.empty() ? "" : ": ", verdict.error);
  }
  return 0;
}
