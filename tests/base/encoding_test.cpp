// base/encoding.h: the one base64 codec and hex.
#include <catch2/catch.hpp>

#include <string>

#include "base/encoding.h"

using mkq::base::base64_decode;
using mkq::base::base64_encode;

TEST_CASE("base64 round trip and rejection", "[base][encoding]") {
  for (const std::string text : {"", "a", "ab", "abc", "abcd", "hello world\n\x01\xff"}) {
    const auto decoded = base64_decode(base64_encode(text));
    REQUIRE(decoded);
    CHECK(*decoded == text);
  }
  CHECK(base64_encode("hello") == "aGVsbG8=");
  CHECK(base64_encode("hell") == "aGVsbA==");
  CHECK(*base64_decode("aGVs\nbG8=") == "hello");
  CHECK(*base64_decode("aGVsbG8") == "hello");  // padding optional
  CHECK_FALSE(base64_decode("aGV*bG8="));
  CHECK_FALSE(base64_decode("aGVs=bG8"));  // data after padding
  CHECK_FALSE(base64_decode("a"));
}

TEST_CASE("hex is two lower-case digits per byte", "[base][encoding]") {
  CHECK(mkq::base::hex_encode("") == "");
  CHECK(mkq::base::hex_encode(std::string("\x00\x0f\xa0\xff", 4)) == "000fa0ff");
}
