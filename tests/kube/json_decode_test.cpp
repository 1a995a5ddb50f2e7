// decode_json (json_decode.h) gives what Json::parse gives, or declines.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "runtime/kube/json_decode.h"

namespace mkq::kube {
namespace {

// Equal values of equal types all the way down, members in the same order.
bool identical(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    auto i = a.items().begin();
    auto j = b.items().begin();
    for (; i != a.items().end(); ++i, ++j) {
      if (i.key() != j.key() || !identical(i.value(), j.value())) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k) {
      if (!identical(a[k], b[k])) return false;
    }
    return true;
  }
  return a == b;
}

// What decode_json may return for `text`: nlohmann's value, or nothing.
void agrees(const std::string& text) {
  INFO(text);
  const std::optional<Json> fast = decode_json(text);
  const Json slow = Json::parse(text, nullptr, false);
  if (fast) {
    REQUIRE_FALSE(slow.is_discarded());
    CHECK(identical(*fast, slow));
  }
}

TEST_CASE("decode_json: a LIST answer decodes as Json::parse decodes it", "[kube][json]") {
  const std::string list = R"({"apiVersion":"kueue.x-k8s.io/v1beta2","items":[{"apiVersion":"kueue.x-k8s.io/v1beta2",)"
                           R"("kind":"ClusterQueue","metadata":{"generation":1,"labels":{"mkq.dev/policy":"a"},)"
                           R"("managedFields":[{"fieldsV1":{"f:spec":{"f:cohortName":{}}},"manager":"mkq"}],)"
                           R"("name":"q-0","resourceVersion":"121"},"spec":{"resourceGroups":[{"flavors":[{"name":)"
                           R"("cpu","resources":[{"name":"memory","nominalQuota":12165114007},{"name":"cpu",)"
                           R"("nominalQuota":-3}]}]}],"x":0.0015,"y":true,"z":null,"w":[]}}],"kind":"ClusterQueueList",)"
                           R"("metadata":{"resourceVersion":"4200"}})";
  const std::optional<Json> fast = decode_json(list);
  REQUIRE(fast);
  CHECK(identical(*fast, Json::parse(list)));
  CHECK(fast->dump() == list);
  CHECK((*fast)["items"][0]["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"].is_number_unsigned());
  CHECK((*fast)["items"][0]["spec"]["resourceGroups"][0]["flavors"][0]["resources"][1]["nominalQuota"].is_number_integer());
}

TEST_CASE("decode_json: escapes, UTF-8, numbers and repeated keys as nlohmann reads them", "[kube][json]") {
  for (const std::string text : {
           R"("a\"b\\c\/d\b\f\n\r\t")", R"("\u0041\u00e9\u20ac\u0000")", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
           R"({"a":1,"b":2,"a":3})", R"({"a":{"x":1},"a":[2]})", "0", "-0", "-1", "123456789012345678",
           "-123456789012345678", "1.0", "-0.0", "1e5", "1E+5", "2.5e-3", " \t\r\n[ 1 , 2 ]\n", "{}", "[]",
           "[{},[],\"\",0]", "true", "false", "null"}) {
    agrees(text);
    CHECK(decode_json(text));
  }
}

TEST_CASE("decode_json: declines what it leaves to nlohmann, never accepts what nlohmann refuses", "[kube][json]") {
  for (const std::string& text : std::vector<std::string>{
           "", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "[1 2]", "01", "-", "1.", ".5", "1e", "+1", "tru", "nul",
           "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\\ude00\"", "\"\\udc00\"", "\"a\x01\"", "\"\xc3\"", "\"\xc0\xaf\"",
           "\"\xed\xa0\x80\"", "\"\xf5\x80\x80\x80\"", "\xef\xbb\xbf{}", "1234567890123456789", "18446744073709551616",
           "-9223372036854775809", "1e400", "1e-400", "[1]x", "{} {}", "NaN", "[" + std::string(300, '[') + std::string(300, ']') + "]"}) {
    agrees(text);
  }
  CHECK_FALSE(decode_json("\"\\ud83d\\ude00\""));  // left to nlohmann, which joins the pair
  CHECK_FALSE(decode_json("1234567890123456789"));
  CHECK_FALSE(decode_json("{\"a\":1} x"));
}

TEST_CASE("decode_json: mutated documents agree with Json::parse", "[kube][json]") {
  const std::string seed = "{\"a\":[1,-2,3.5e1,\"x\\ny\\u00e9\",true,false,null,{\"b\":{}}],\"c\":\"caf\xc3\xa9\"}";
  const std::string alphabet = "{}[]\",:\\-+.eE0123456789 \nabnutrfl\xc3\xa9\x80";
  std::mt19937 random(19);
  for (int round = 0; round < 20000; ++round) {
    std::string text = seed;
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % (text.size() + 1);
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        case 1: if (at < text.size()) text.erase(at, 1); break;
        default: if (at < text.size()) text[at] = c; break;
      }
    }
    agrees(text);
  }
}

}  // namespace
}  // namespace mkq::kube
