// The sandbox's CEL subset (sandbox/cel): parsing, checking against a
// structural schema, and evaluation -- macros, has(), strings, numbers with
// CEL's overflow errors, errors absorbed by && and ||, the format library.
#include <catch2/catch.hpp>

#include "sandbox/cel/formats.h"
#include "sandbox/cel/program.h"

namespace mkq::sandbox::cel {
namespace {

using nlohmann::json;

// A schema for `self` with the usual shapes: an object with scalar, list,
// map and nested object fields, one int-or-string.
const json& schema() {
  static const json s = json::parse(R"({"type": "object", "properties": {
    "name": {"type": "string"}, "count": {"type": "integer"}, "ratio": {"type": "number"}, "on": {"type": "boolean"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "items": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "n": {"type": "integer"}}}},
    "port": {"x-kubernetes-int-or-string": true},
    "inner": {"type": "object", "properties": {"a": {"type": "string"}}}}})");
  return s;
}

const json& object() {
  static const json o = json::parse(R"({"name": "gpu-a", "count": 3, "ratio": 0.5, "on": true,
    "tags": ["x", "y", "x"], "labels": {"zone": "a", "pool": "b"},
    "items": [{"key": "a", "n": 1}, {"key": "b", "n": 2}], "port": 8080, "inner": {}})");
  return o;
}

// The value of `text` on object(); a compile error fails the test.
Value run(const std::string& text, const json& self = object()) {
  auto program = Program::compile(text, schema(), false);
  INFO(text << ": " << (program ? "" : program.error().message));
  REQUIRE(program.ok());
  const Value s = Value::of_json(self, &schema());
  return program->evaluate(s, &s);
}

bool holds(const std::string& text) {
  const Value v = run(text);
  INFO(text << " -> " << v.type_name() << " " << v.text());
  REQUIRE(v.kind() == Value::Kind::Bool);
  return v.as_bool();
}

std::string error_of(const std::string& text) {
  const Value v = run(text);
  INFO(text);
  REQUIRE(v.is_error());
  return v.text();
}

std::string compile_error(const std::string& text) {
  auto program = Program::compile(text, schema(), false);
  INFO(text);
  REQUIRE_FALSE(program.ok());
  return program.error().message;
}

TEST_CASE("cel: literals, operators and precedence", "[sandbox][cel]") {
  CHECK(holds("1 + 2 * 3 == 7"));
  CHECK(holds("(1 + 2) * 3 == 9"));
  CHECK(holds("-9223372036854775808 < 0"));
  CHECK(holds("7 / 2 == 3 && 7 % 2 == 1 && -7 / 2 == -3"));
  CHECK(holds("1.5 + 1.5 == 3.0"));
  CHECK(holds("2u + 3u == 5u"));
  CHECK(holds("'ab' + 'c' == 'abc'"));
  CHECK(holds("\"a\\tb\" == 'a\\x09b'"));
  CHECK(holds("r'\\d' == '\\\\d'"));
  CHECK(holds("[1, 2] + [3] == [1, 2, 3]"));
  CHECK(holds("!false && !(1 > 2)"));
  CHECK(holds("true ? 1 == 1 : false"));
  CHECK(holds("false || true ? true : false"));
  CHECK(holds("1 < 2.5 && 3u > 2 && 2.0 >= 2"));  // numbers of different types are ordered by value
  CHECK(holds("'a' < 'b' && false < true"));
  CHECK(holds("null == null"));
  CHECK(holds("{'a': 1}['a'] == 1 && 'a' in {'a': 1}"));
}

TEST_CASE("cel: self, fields, has() and size()", "[sandbox][cel]") {
  CHECK(holds("self.name == 'gpu-a' && self.count == 3 && self.ratio == 0.5 && self.on"));
  CHECK(holds("has(self.name) && !has(self.inner.a)"));
  CHECK(holds("size(self.tags) == 3 && self.tags.size() == 3 && size(self.labels) == 2 && size('héllo') == 5"));
  CHECK(holds("self.labels.zone == 'a' && self.labels['pool'] == 'b' && 'zone' in self.labels"));
  CHECK(holds("self.items[1].key == 'b' && self.tags[size(self.tags) - 1] == 'x'"));
  CHECK(holds("self.port == 8080"));
  CHECK(error_of("self.inner.a == 'x'") == "no such key: a");
  CHECK(error_of("self.labels.missing == 'x'") == "no such key: missing");
  CHECK(error_of("self.tags[3] == 'x'") == "index out of bounds: 3");
  CHECK(error_of("self.tags[-1] == 'x'") == "index out of bounds: -1");
}

TEST_CASE("cel: the comprehension macros", "[sandbox][cel]") {
  CHECK(holds("self.items.all(i, i.n > 0)"));
  CHECK_FALSE(holds("self.items.all(i, i.n > 1)"));
  CHECK(holds("self.items.exists(i, i.key == 'b')"));
  CHECK_FALSE(holds("self.items.exists(i, i.key == 'c')"));
  CHECK(holds("self.items.exists_one(i, i.n == 2)"));
  CHECK_FALSE(holds("self.tags.exists_one(t, t == 'x')"));
  CHECK(holds("self.tags.filter(t, t == 'x').size() == 2"));
  CHECK(holds("self.items.map(i, i.n * 10) == [10, 20]"));
  CHECK(holds("self.items.map(i, i.n > 1, i.key) == ['b']"));
  CHECK(holds("self.labels.all(k, k in ['zone', 'pool'])"));
  CHECK(holds("size(self.tags.filter(i, size(self.tags.filter(j, j == i)) > 1)) == 2"));
  CHECK(holds("[has(self.name), has(self.inner.a)].filter(x, x == true).size() == 1"));
  CHECK(holds("self.tags.all(x, self.tags.exists(y, x == y))"));
}

TEST_CASE("cel: errors are values that && and || absorb", "[sandbox][cel]") {
  CHECK_FALSE(holds("false && self.inner.a == 'x'"));
  CHECK_FALSE(holds("self.inner.a == 'x' && false"));
  CHECK(holds("true || self.inner.a == 'x'"));
  CHECK(holds("self.inner.a == 'x' || true"));
  CHECK(error_of("self.inner.a == 'x' && true") == "no such key: a");
  CHECK(holds("self.items.exists(i, i.key == 'a' || self.inner.a == 'x')"));
  CHECK(holds("has(self.inner.a) ? self.inner.a == 'x' : true"));
}

TEST_CASE("cel: integer arithmetic fails on overflow and division by zero", "[sandbox][cel]") {
  CHECK(error_of("9223372036854775807 + 1 > 0") == "integer overflow");
  CHECK(error_of("-9223372036854775808 - 1 < 0") == "integer overflow");
  CHECK(error_of("4611686018427387904 * 2 > 0") == "integer overflow");
  CHECK(error_of("-9223372036854775808 / -1 > 0") == "integer overflow");
  CHECK(error_of("self.count / 0 == 1") == "division by zero");
  CHECK(error_of("self.count % 0 == 1") == "modulus by zero");
  CHECK(error_of("0u - 1u == 0u") == "unsigned integer overflow");
  CHECK(error_of("18446744073709551615u + 1u == 0u") == "unsigned integer overflow");
  CHECK(holds("1.0 / 0.0 > 1000000.0"));  // doubles follow IEEE 754
  CHECK(holds("int('42') == 42 && uint(7) == 7u && double(1) == 1.0 && string(12) == '12'"));
  CHECK(error_of("int(1e19) == 0") == "integer overflow");
}

TEST_CASE("cel: string functions and matches", "[sandbox][cel]") {
  CHECK(holds("self.name.startsWith('gpu') && self.name.endsWith('-a') && self.name.contains('u-')"));
  CHECK(holds("self.name.matches('^[a-z]+-[a-z]$') && !self.name.matches('^[0-9]+$')"));
  CHECK(holds("'1.5e3'.matches(r'^[+]?([0-9]*\\.?[0-9]+)([eE][+-]?[0-9]+)?$')"));
  CHECK(holds("'A b'.lowerAscii() == 'a b' && 'a'.upperAscii() == 'A' && '  x '.trim() == 'x'"));
  CHECK(holds("'a,b'.split(',') == ['a', 'b'] && ['a', 'b'].join('-') == 'a-b' && 'abcb'.lastIndexOf('b') == 3"));
}

TEST_CASE("cel: Kubernetes' format library", "[sandbox][cel]") {
  CHECK(holds("!format.dns1123Label().validate('gpu-a').hasValue()"));
  CHECK(holds("format.dns1123Label().validate('GPU').hasValue()"));
  CHECK(holds("!format.dns1123Subdomain().validate('gpu.nvidia.com').hasValue()"));
  CHECK(holds("format.dns1123Subdomain().validate('-x.com').hasValue()"));
  CHECK(holds("!format.qualifiedName().validate('nvidia.com/gpu').hasValue()"));
  CHECK(holds("format.qualifiedName().validate('a/b/c').hasValue()"));
  CHECK(holds("format.qualifiedName().validate('nvidia.com/').value()[0] == 'name part must be non-empty'"));
  CHECK(holds("optional.none().orValue(1) == 1 && optional.of(2).value() == 2"));
  CHECK(qualified_name_errors("Example.com/x") ==
        std::vector<std::string>{"prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                                 "characters, '-' or '.', and must start and end with an alphanumeric character "
                                 "(e.g. 'example.com', regex used for validation is "
                                 "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"});
}

TEST_CASE("cel: oldSelf makes a transition rule", "[sandbox][cel]") {
  auto transition = Program::compile("self.count >= oldSelf.count", schema(), false);
  REQUIRE(transition.ok());
  CHECK(transition->uses_old_self());
  auto plain = Program::compile("self.count >= 0", schema(), false);
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->uses_old_self());
  json before = object();
  before["count"] = 5;
  const Value now = Value::of_json(object(), &schema());
  const Value then = Value::of_json(before, &schema());
  CHECK_FALSE(transition->evaluate(now, &then).as_bool());
  CHECK(transition->evaluate(then, &now).as_bool());
}

TEST_CASE("cel: what does not compile, with cel-go's messages", "[sandbox][cel]") {
  CHECK(compile_error("self.nmae == 'x'") == "ERROR: <input>:1:5: undefined field 'nmae'\n | self.nmae == 'x'\n | ....^");
  CHECK(compile_error("selff.name == 'x'") ==
        "ERROR: <input>:1:1: undeclared reference to 'selff' (in container '')\n | selff.name == 'x'\n | ^");
  CHECK(compile_error("self.name.frobnicate()") ==
        "ERROR: <input>:1:10: undeclared reference to 'frobnicate' (in container '')\n | self.name.frobnicate()\n | .........^");
  CHECK(compile_error("size(self.count) == 1") ==
        "ERROR: <input>:1:1: found no matching overload for 'size' applied to '(int)'\n | size(self.count) == 1\n | ^");
  CHECK(compile_error("self.name == 1") ==
        "ERROR: <input>:1:11: found no matching overload for '_==_' applied to '(string, int)'\n | self.name == 1\n | ..........^");
  CHECK(compile_error("self.count.x == 1") ==
        "ERROR: <input>:1:11: type 'int' does not support field selection\n | self.count.x == 1\n | ..........^");
  CHECK(compile_error("self.name ==") == "ERROR: <input>:1:13: Syntax error: mismatched input '<EOF>'\n | self.name ==\n | ............^");
  CHECK(compile_error("self.name") == "cel expression must evaluate to a bool");
  CHECK(compile_error("quantity('1Gi').isGreaterThan(quantity('1'))").rfind("ERROR: <input>:1:1: undeclared reference to 'quantity'", 0) == 0);
  CHECK(compile_error("format.nope().validate(self.name).hasValue()").rfind("ERROR: <input>:1:7: undeclared reference to 'format.nope'", 0) == 0);
  CHECK(compile_error("has(self)").rfind("ERROR: <input>:1:1: invalid argument to has() macro", 0) == 0);
}

}  // namespace
}  // namespace mkq::sandbox::cel
