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

// What split_list may return for `text`: the answer decode_json decodes,
// cut into items each of which decodes to that answer's item.
void splits_as_decoded(const std::string& text) {
  INFO(text);
  const std::optional<ListPageText> split = split_list(text);
  if (!split) return;
  const std::optional<Json> whole = decode_json(text);
  REQUIRE(whole);
  REQUIRE(whole->is_object());
  const Json& items = (*whole)["items"];
  REQUIRE(items.is_array());
  REQUIRE(items.size() == split->items.size());
  const auto string_of = [](const Json& object, const char* key) {
    const Json meta = object.is_object() && object.contains("metadata") ? object["metadata"] : Json();
    return meta.is_object() && meta.contains(key) && meta[key].is_string() ? meta[key].get<std::string>() : "";
  };
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::optional<Json> item = decode_json(split->items[i].text);
    REQUIRE(item);
    CHECK(identical(*item, items[i]));
    CHECK(split->items[i].name == string_of(items[i], "name"));
    CHECK(split->items[i].namespace_name == string_of(items[i], "namespace"));
    CHECK(split->items[i].has_api_version == items[i].contains("apiVersion"));
    CHECK(split->items[i].has_kind == items[i].contains("kind"));
  }
  CHECK(split->resource_version == string_of(*whole, "resourceVersion"));
  CHECK(split->continue_token == string_of(*whole, "continue"));
}

// 20,000 copies of `text`, each with one to three bytes inserted, removed or
// replaced (bytes that matter to JSON), drawn from `seed`, each given to `check`.
template <typename Check>
void each_mutation(const std::string& text, unsigned seed, Check check) {
  const std::string alphabet = "{}[]\",:\\-+.eE0123456789 \nabnutrfl\xc3\xa9\x80";
  std::mt19937 random(seed);
  for (int round = 0; round < 20000; ++round) {
    std::string mutated = text;
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % (mutated.size() + 1);
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0: mutated.insert(mutated.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        case 1: if (at < mutated.size()) mutated.erase(at, 1); break;
        default: if (at < mutated.size()) mutated[at] = c; break;
      }
    }
    check(mutated);
  }
}

const std::string kList = R"({"apiVersion":"kueue.x-k8s.io/v1beta2","items":[{"apiVersion":"kueue.x-k8s.io/v1beta2",)"
                          R"("kind":"ClusterQueue","metadata":{"generation":1,"labels":{"mkq.dev/policy":"a"},)"
                          R"("managedFields":[{"fieldsV1":{"f:spec":{"f:cohortName":{}}},"manager":"mkq"}],)"
                          R"("name":"q-0","resourceVersion":"121"},"spec":{"resourceGroups":[{"flavors":[{"name":)"
                          R"("cpu","resources":[{"name":"memory","nominalQuota":12165114007},{"name":"cpu",)"
                          R"("nominalQuota":-3}]}]}],"x":0.0015,"y":true,"z":null,"w":[]}}],"kind":"ClusterQueueList",)"
                          R"("metadata":{"resourceVersion":"4200"}})";

TEST_CASE("decode_json: a LIST answer decodes as Json::parse decodes it", "[kube][json]") {
  const std::string& list = kList;
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

TEST_CASE("split_list: a LIST answer cut into items that decode as the answer's", "[kube][json]") {
  const std::optional<ListPageText> split = split_list(kList);
  REQUIRE(split);
  REQUIRE(split->items.size() == 1);
  CHECK(split->items[0].name == "q-0");
  CHECK(split->items[0].namespace_name.empty());
  CHECK(split->resource_version == "4200");
  CHECK(split->continue_token.empty());
  CHECK(split->items[0].text.rfind(R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue",)", 0) == 0);
  splits_as_decoded(kList);
  // Spaces, escapes, items without apiVersion and kind (as kube-apiserver
  // lists them), a continue token, a namespace; keys in any order.
  const std::string spaced = " {\n \"metadata\" : {\"continue\":\"c\\u0041\",\"resourceVersion\":\"7\"},\n"
                             " \"items\" : [ {\"metadata\":{\"namespace\":\"team-a\",\"name\":\"q\\\"1\"},\"spec\":{}} ,\n"
                             " { } , {\"kind\":\"X\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":1}} ] } ";
  const std::optional<ListPageText> more = split_list(spaced);
  REQUIRE(more);
  REQUIRE(more->items.size() == 3);
  CHECK(more->items[0].name == "q\"1");
  CHECK(more->items[0].namespace_name == "team-a");
  CHECK(more->items[0].text == R"({"metadata":{"namespace":"team-a","name":"q\"1"},"spec":{}})");
  CHECK(more->items[1].text == "{ }");
  CHECK(more->items[2].name.empty());  // not a string
  CHECK(more->continue_token == "cA");
  CHECK(more->resource_version == "7");
  splits_as_decoded(spaced);
  const std::optional<ListPageText> empty = split_list(R"({"items":[]})");
  REQUIRE(empty);
  CHECK(empty->items.empty());
}

TEST_CASE("split_list: declines what is no plain list, and what decode_json declines", "[kube][json]") {
  for (const std::string& text : std::vector<std::string>{
           "", "[]", "{}", R"({"items":{}})", R"({"items":[1]})", R"({"items":[[]]})", R"({"items":[],"items":[]})",
           R"({"metadata":{},"metadata":{},"items":[]})", R"({"items":[{"metadata":{},"metadata":{}}]})",
           R"({"metadata":{"resourceVersion":5},"items":[]})", R"({"metadata":{"continue":null},"items":[]})",
           R"({"items":[{"a":"\ud83d\ude00"}]})", R"({"items":[{"a":1234567890123456789}]})", R"({"items":[]} x)",
           R"({"items":[{"a":1,}]})", "{\"items\":[{\"a\":\"\xc3\"}]}"}) {
    INFO(text);
    CHECK_FALSE(split_list(text));
  }
}

TEST_CASE("split_list: mutated LIST answers split as they decode", "[kube][json]") {
  each_mutation(kList, 23, splits_as_decoded);
}

TEST_CASE("decode_json: mutated documents agree with Json::parse", "[kube][json]") {
  const std::string seed = "{\"a\":[1,-2,3.5e1,\"x\\ny\\u00e9\",true,false,null,{\"b\":{}}],\"c\":\"caf\xc3\xa9\"}";
  each_mutation(seed, 19, agrees);
}

}  // namespace
}  // namespace mkq::kube
