// base/result.h: the runtime's one error convention -- a value or an Error,
// the object address an Error may carry, and how it is rendered once.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "base/result.h"

using mkq::base::Error;
using mkq::base::Result;

TEST_CASE("result: a value or an error, move-only values included", "[base][result]") {
  Result<std::unique_ptr<int>> value = std::make_unique<int>(7);
  REQUIRE(value.ok());
  CHECK(**value == 7);
  const std::unique_ptr<int> taken = std::move(value).value();
  CHECK(*taken == 7);

  const Result<std::string> failed = Error(404, "NotFound", "secrets \"x\" not found");
  REQUIRE_FALSE(failed);
  CHECK(failed.error().not_found());
  CHECK_FALSE(failed.error().transport());

  const Result<void> done;
  CHECK(done.ok());
  const Result<void> refused = Error::config("the client key is not a PEM private key");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().transport());  // no server was asked
  CHECK(refused.error().reason == "ConfigError");
}

TEST_CASE("result: describe says what went wrong, render adds the object once", "[base][result]") {
  CHECK(mkq::base::describe(Error(409, "Conflict", "the object has been modified")) == "the object has been modified");
  CHECK(mkq::base::describe(Error(500, "InternalError", "")) == "500 InternalError");
  CHECK(mkq::base::describe(Error(0, "Timeout", "")) == "Timeout");
  CHECK(mkq::base::describe(Error()) == "no answer from the server");

  Error error(422, "Invalid", "spec.cohortName: Invalid value");
  CHECK(mkq::base::render(error) == "spec.cohortName: Invalid value");  // no object known
  error = std::move(error).about("manager/ClusterQueue/cq");
  CHECK(error.address == "manager/ClusterQueue/cq");
  CHECK(mkq::base::describe(error) == "spec.cohortName: Invalid value");
  CHECK(mkq::base::render(error) == "manager/ClusterQueue/cq: spec.cohortName: Invalid value");
  // The first object named is the one the failure is about.
  error = std::move(error).about("worker1/ClusterQueue/cq");
  CHECK(error.address == "manager/ClusterQueue/cq");
}

namespace {
Result<std::vector<std::string>> names() { return std::vector<std::string>{"a", "b", "c"}; }
}  // namespace

TEST_CASE("result: a temporary's value outlives it in a range-for", "[base][result]") {
  // value() of a temporary Result is a value, not a reference into the
  // Result: the loop below would otherwise read freed memory.
  static_assert(std::is_same_v<decltype(names().value()), std::vector<std::string>>);
  std::string seen;
  for (const std::string& name : names().value()) seen += name;
  CHECK(seen == "abc");
}
