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

TEST_CASE("base64url: unpadded, the url alphabet, strict on the rest", "[base][encoding]") {
  using mkq::base::base64url_decode;
  using mkq::base::base64url_encode;
  CHECK(base64url_encode("") == "");
  CHECK(base64url_encode("f") == "Zg");
  CHECK(base64url_encode("fo") == "Zm8");
  CHECK(base64url_encode("foo") == "Zm9v");
  CHECK(base64url_encode("\xfb\xff\xbf") == "-_-_");  // '+' and '/' in the standard alphabet
  for (const std::string text : {"", "f", "fo", "foo", "foob", "\xfb\xff\xbf\x01"}) {
    const auto decoded = base64url_decode(base64url_encode(text));
    REQUIRE(decoded);
    CHECK(*decoded == text);
  }
  CHECK_FALSE(base64url_decode("Zg=="));  // padding
  CHECK_FALSE(base64url_decode("+/+/"));  // the standard alphabet
  CHECK_FALSE(base64url_decode("Zm 9v"));  // whitespace
  CHECK_FALSE(base64url_decode("Zm9vY"));  // a lone sextet
}
