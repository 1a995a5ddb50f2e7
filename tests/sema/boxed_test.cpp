// sema::Boxed<T>: an optional held out of line (compiler/sema/boxed.h).
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "compiler/sema/boxed.h"

namespace mkq::sema {
namespace {

TEST_CASE("Boxed: empty by default, from nullopt and from an empty optional") {
  CHECK_FALSE(Boxed<std::string>().has_value());
  CHECK_FALSE(Boxed<std::string>(std::nullopt));
  CHECK_FALSE(Boxed<std::string>(std::optional<std::string>()));
}

TEST_CASE("Boxed: holds a value, read like std::optional") {
  Boxed<std::string> boxed = std::string("cpu");
  REQUIRE(boxed);
  CHECK(*boxed == "cpu");
  CHECK(boxed->size() == 3);
  *boxed = "memory";
  CHECK(*boxed == "memory");
  boxed.reset();
  CHECK_FALSE(boxed);
  boxed = std::optional<std::string>("gpu");
  REQUIRE(boxed.has_value());
  CHECK(*boxed == "gpu");
}

TEST_CASE("Boxed: a copy is deep, a move leaves the source empty") {
  Boxed<std::string> original = std::string("a");
  Boxed<std::string> copy = original;
  *copy = "b";
  CHECK(*original == "a");
  CHECK(*copy == "b");
  copy = original;
  CHECK(*copy == "a");
  CHECK(&*copy != &*original);
  Boxed<std::string> empty;
  copy = empty;
  CHECK_FALSE(copy);
  Boxed<std::string> moved = std::move(original);
  CHECK(*moved == "a");
  CHECK_FALSE(original);  // NOLINT(bugprone-use-after-move): a moved-from box is empty
}

}  // namespace
}  // namespace mkq::sema
