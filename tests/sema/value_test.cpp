// Run-time values (compiler/sema/value.h): construction, type names,
// structural equality and display.
#include <catch2/catch.hpp>

#include <string>

#include "compiler/sema/value.h"

namespace {

using mkq::sema::BuiltinRef;
using mkq::sema::Duration;
using mkq::sema::List;
using mkq::sema::Map;
using mkq::sema::ModuleRef;
using mkq::sema::Quantity;
using mkq::sema::SecretRef;
using mkq::sema::TemplateRef;
using mkq::sema::Value;
using mkq::sema::ValueKind;

Value num(const char* text) { return Value::number(*Quantity::parse(text)); }
Value str(const char* text) { return Value::string(text); }

Value reference(ValueKind kind, Value::Storage data) {
  Value v;
  v.kind = kind;
  v.data = std::move(data);
  return v;
}

mkq::diag::SourceRange range_at(std::uint32_t offset) {
  mkq::diag::SourceRange r;
  r.file = 0;
  r.begin.offset = offset;
  r.end.offset = offset + 1;
  return r;
}

}  // namespace

TEST_CASE("value constructors set kind, payload and origin", "[sema][value]") {
  CHECK(Value().is(ValueKind::Null));
  CHECK(Value::null().is(ValueKind::Null));
  CHECK(Value::boolean(true).as_bool());
  CHECK(num("36Gi").as_number() == *Quantity::parse("36Gi"));
  CHECK(num("36Gi").is(ValueKind::Number));
  CHECK(Value::duration(Duration::from_millis(5)).as_duration().millis() == 5);
  CHECK(str("x").as_string() == "x");
  CHECK(Value::all().is(ValueKind::All));
  CHECK(Value::list({num("1"), num("2")}).as_list().size() == 2);
  CHECK(Value::map({{"a", num("1")}}).as_map().at("a").as_number() == Quantity::from_int(1));
  CHECK(Value::secret(SecretRef{"env:TOKEN"}).as_secret().source == "env:TOKEN");
  CHECK(Value::string("s", range_at(7)).origin == range_at(7));
  CHECK_FALSE(Value::null().origin.valid());
}

TEST_CASE("value lists and maps share their storage when copied", "[sema][value]") {
  const Value list = Value::list({num("1")});
  const Value copy = list;  // NOLINT(performance-unnecessary-copy-initialization)
  CHECK(&list.as_list() == &copy.as_list());
  const Value map = Value::map({{"k", num("1")}});
  const Value map_copy = map;  // NOLINT(performance-unnecessary-copy-initialization)
  CHECK(&map.as_map() == &map_copy.as_map());
}

TEST_CASE("value type names are the language's", "[sema][value]") {
  using mkq::sema::type_name;
  CHECK(std::string(type_name(ValueKind::Null)) == "null");
  CHECK(std::string(type_name(ValueKind::Bool)) == "bool");
  CHECK(std::string(type_name(ValueKind::Number)) == "number");
  CHECK(std::string(type_name(ValueKind::Duration)) == "duration");
  CHECK(std::string(type_name(ValueKind::String)) == "string");
  CHECK(std::string(type_name(ValueKind::All)) == "all");
  CHECK(std::string(type_name(ValueKind::List)) == "list");
  CHECK(std::string(type_name(ValueKind::Map)) == "map");
  CHECK(std::string(type_name(ValueKind::Secret)) == "secret");
  CHECK(std::string(type_name(ValueKind::Template)) == "template");
  CHECK(std::string(type_name(ValueKind::Module)) == "module");
  CHECK(std::string(type_name(ValueKind::Builtin)) == "function");
}

TEST_CASE("value equality is structural", "[sema][value]") {
  using mkq::sema::equal;
  CHECK(equal(Value::null(), Value::null()));
  CHECK(equal(Value::all(), Value::all()));
  CHECK_FALSE(equal(Value::null(), Value::all()));
  CHECK(equal(Value::boolean(true), Value::boolean(true)));
  CHECK_FALSE(equal(Value::boolean(true), Value::boolean(false)));
  // numbers by value, whatever their notation
  CHECK(equal(num("1Ki"), num("1024")));
  CHECK(equal(num("2e3"), num("2k")));
  CHECK(equal(num("1.5Gi"), num("1536Mi")));
  CHECK_FALSE(equal(num("1k"), num("1Ki")));
  CHECK(equal(Value::duration(*Duration::parse("90min")), Value::duration(*Duration::parse("1h30min"))));
  CHECK_FALSE(equal(Value::duration(*Duration::parse("1s")), num("1")));
  CHECK(equal(str("a"), str("a")));
  CHECK_FALSE(equal(str("a"), str("b")));
  CHECK_FALSE(equal(str("1"), num("1")));
  // origin does not matter
  CHECK(equal(Value::string("a", range_at(1)), Value::string("a", range_at(9))));
  // lists: order and length matter; nested values compare structurally
  CHECK(equal(Value::list({num("1"), Value::list({num("1Ki")})}),
              Value::list({num("1"), Value::list({num("1024")})})));
  CHECK_FALSE(equal(Value::list({num("1"), num("2")}), Value::list({num("2"), num("1")})));
  CHECK_FALSE(equal(Value::list({num("1")}), Value::list({num("1"), num("1")})));
  CHECK(equal(Value::list({}), Value::list({})));
  CHECK_FALSE(equal(Value::list({}), Value::map({})));
  // maps: same keys, equal values
  CHECK(equal(Value::map({{"a", num("1")}, {"b", str("x")}}),
              Value::map({{"b", str("x")}, {"a", num("1000m")}})));
  CHECK_FALSE(equal(Value::map({{"a", num("1")}}), Value::map({{"b", num("1")}})));
  CHECK_FALSE(equal(Value::map({{"a", num("1")}}), Value::map({{"a", num("2")}})));
  CHECK_FALSE(equal(Value::map({{"a", num("1")}}), Value::map({{"a", num("1")}, {"b", num("1")}})));
  // secrets by source; references by identity
  CHECK(equal(Value::secret({"env:A"}), Value::secret({"env:A"})));
  CHECK_FALSE(equal(Value::secret({"env:A"}), Value::secret({"env:B"})));
  int decl = 0;
  int other = 0;
  CHECK(equal(reference(ValueKind::Template, TemplateRef{&decl, "team"}),
              reference(ValueKind::Template, TemplateRef{&decl, "team"})));
  CHECK_FALSE(equal(reference(ValueKind::Template, TemplateRef{&decl, "team"}),
                    reference(ValueKind::Template, TemplateRef{&other, "team"})));
  CHECK(equal(reference(ValueKind::Module, ModuleRef{&decl, "std/gpu"}),
              reference(ValueKind::Module, ModuleRef{&decl, "std/gpu"})));
  CHECK(equal(reference(ValueKind::Builtin, BuiltinRef{"len"}),
              reference(ValueKind::Builtin, BuiltinRef{"len"})));
  CHECK_FALSE(equal(reference(ValueKind::Builtin, BuiltinRef{"len"}),
                    reference(ValueKind::Builtin, BuiltinRef{"sum"})));
}

TEST_CASE("value display reads like the language", "[sema][value]") {
  using mkq::sema::to_display;
  CHECK(to_display(str("hello \"world\"")) == "hello \"world\"");  // top-level strings as is
  CHECK(to_display(num("1.5")) == "1500m");
  CHECK(to_display(num("1.5Gi")) == "1536Mi");
  CHECK(to_display(Value::duration(*Duration::parse("90min"))) == "1h30min");
  CHECK(to_display(Value::boolean(true)) == "true");
  CHECK(to_display(Value::boolean(false)) == "false");
  CHECK(to_display(Value::null()) == "null");
  CHECK(to_display(Value::all()) == "all");
  CHECK(to_display(Value::secret({"env:TOKEN"})) == "<secret>");
  CHECK(to_display(Value::list({})) == "[]");
  CHECK(to_display(Value::map({})) == "{}");
  CHECK(to_display(Value::list({num("1"), str("a"), Value::list({num("2e3")})})) == "[1, \"a\", [2e3]]");
  CHECK(to_display(Value::map({{"zone", str("a")}, {"gpu.type", str("t4")}, {"n", num("9")}})) ==
        "{ \"gpu.type\": \"t4\", \"n\": 9, \"zone\": \"a\" }");
  CHECK(to_display(Value::map({{"k", Value::list({Value::map({{"x", Value::null()}})})}})) ==
        "{ \"k\": [{ \"x\": null }] }");
  CHECK(to_display(Value::list({str("q\"\\\n\t${x} $y")})) == "[\"q\\\"\\\\\\n\\t\\${x} $y\"]");
  CHECK(to_display(Value::list({Value::secret({"env:TOKEN"})})) == "[<secret>]");
  CHECK(to_display(Value::list({Value::duration(Duration::from_millis(250)), Value::all()})) ==
        "[250ms, all]");
  CHECK(to_display(reference(ValueKind::Template, TemplateRef{nullptr, "team"})) == "<template team>");
  CHECK(to_display(reference(ValueKind::Module, ModuleRef{nullptr, "std/gpu"})) == "<module \"std/gpu\">");
  CHECK(to_display(reference(ValueKind::Builtin, BuiltinRef{"len"})) == "<builtin len>");
}

TEST_CASE("value equality and display survive very deep nesting", "[sema][value][robustness]") {
  // Far deeper than source nesting (200) allows. (Destroying a value still
  // recurses once per level, so this stays well within a debug build's stack.)
  constexpr int kDepth = 2000;
  Value a = num("1");
  Value b = num("1000m");
  for (int i = 0; i < kDepth; ++i) {
    a = Value::list({a});
    b = Value::list({b});
  }
  CHECK(mkq::sema::equal(a, b));
  const std::string shown = mkq::sema::to_display(a);
  CHECK(shown.size() == 2 * kDepth + 1);
  CHECK(shown.substr(kDepth - 1, 3) == "[1]");
  Value m = num("1");
  for (int i = 0; i < kDepth; ++i) m = Value::map({{"k", m}});
  CHECK(mkq::sema::to_display(m).size() > static_cast<std::size_t>(kDepth));
  CHECK_FALSE(mkq::sema::equal(a, m));
}
