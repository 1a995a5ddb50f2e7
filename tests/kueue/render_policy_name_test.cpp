// The mkq.dev/policy label value a policy path gives.
#include <catch2/catch.hpp>

#include "compiler/kueue/policy_name.h"

using mkq::kueue::policy_name_for;
using mkq::kueue::to_label_value;

TEST_CASE("render: the policy name comes from the directory or file name", "[kueue][render]") {
  CHECK(policy_name_for("/work/examples/quickstart") == "quickstart");
  CHECK(policy_name_for("/work/examples/quickstart/") == "quickstart");
  CHECK(policy_name_for("/work/policies/fleet.mkq") == "fleet");
  CHECK(policy_name_for("/work/examples/tas/../gpu-fleet") == "gpu-fleet");
}

TEST_CASE("render: a policy name is made a valid label value", "[kueue][render]") {
  CHECK(to_label_value("My Policy") == "My-Policy");
  CHECK(to_label_value("_x_") == "x");
  CHECK(to_label_value("...") == "policy");
  CHECK(to_label_value("") == "policy");
  CHECK(to_label_value("a.b_c-d") == "a.b_c-d");
  CHECK(to_label_value(std::string(80, 'a')).size() == 63);
  CHECK(to_label_value(std::string(62, 'a') + "-b") == std::string(62, 'a'));
  CHECK(to_label_value("équipe") == "quipe");
}
