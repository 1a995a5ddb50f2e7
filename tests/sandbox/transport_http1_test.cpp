// HTTP/1.1 on the wire (sandbox/http1.h): request heads, the query and path
// as Go decodes them, chunk sizes, gzip, status texts and the Date header.
#include <zlib.h>

#include <catch2/catch.hpp>

#include "sandbox/http1.h"

namespace http1 = mkq::sandbox::http1;

namespace {

std::string gunzip(const std::string& packed) {
  z_stream stream{};
  REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
  std::string out(1 << 22, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
  stream.avail_in = static_cast<uInt>(packed.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = inflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  inflateEnd(&stream);
  REQUIRE(result == Z_STREAM_END);
  return out;
}

}  // namespace

TEST_CASE("http1: a request head is parsed once it is complete", "[sandbox][transport]") {
  const std::string text =
      "PATCH /api/v1/namespaces/a%20b/configmaps/x?fieldManager=m&dryRun=All HTTP/1.1\r\n"
      "Host: 127.0.0.1:6443\r\n"
      "Content-Type:  application/apply-patch+yaml \r\n"
      "Accept: application/json\r\n"
      "accept: application/yaml\r\n"
      "Content-Length: 2\r\n"
      "\r\n"
      "{}";
  for (std::size_t cut = 0; cut < text.size() - 2; ++cut) {
    http1::RequestHead head;
    std::size_t consumed = 0;
    INFO(cut);
    CHECK(http1::parse_head(std::string_view(text).substr(0, cut), &head, &consumed) == http1::HeadStatus::kIncomplete);
  }
  http1::RequestHead head;
  std::size_t consumed = 0;
  REQUIRE(http1::parse_head(text, &head, &consumed) == http1::HeadStatus::kComplete);
  CHECK(consumed == text.size() - 2);
  CHECK(head.method == "PATCH");
  CHECK(head.target == "/api/v1/namespaces/a%20b/configmaps/x?fieldManager=m&dryRun=All");
  CHECK(head.path == "/api/v1/namespaces/a b/configmaps/x");
  CHECK(head.minor_version == 1);
  CHECK(head.header("content-type") == "application/apply-patch+yaml");
  CHECK(head.header("accept") == "application/json,application/yaml");
  CHECK(head.header("content-length") == "2");
  CHECK(head.header("x-absent").empty());
  CHECK(head.keep_alive());
}

TEST_CASE("http1: bare LF line ends, HTTP/1.0 and Connection decide keep-alive", "[sandbox][transport]") {
  http1::RequestHead head;
  std::size_t consumed = 0;
  REQUIRE(http1::parse_head("GET /version HTTP/1.0\n\n", &head, &consumed) == http1::HeadStatus::kComplete);
  CHECK(consumed == 23);
  CHECK_FALSE(head.keep_alive());
  http1::RequestHead kept;
  REQUIRE(http1::parse_head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &kept, &consumed) ==
          http1::HeadStatus::kComplete);
  CHECK(kept.keep_alive());
  http1::RequestHead closed;
  REQUIRE(http1::parse_head("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", &closed, &consumed) ==
          http1::HeadStatus::kComplete);
  CHECK_FALSE(closed.keep_alive());
}

TEST_CASE("http1: what is not a request head is refused, a head over 1 MiB too", "[sandbox][transport][limits]") {
  for (const std::string bad : {"GET /\r\n\r\n", "GET / HTTP/2.0\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
                                "GET / HTTP/1.1\r\nno colon\r\n\r\n", "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
                                "GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", "GET  HTTP/1.1\r\n\r\n"}) {
    http1::RequestHead head;
    std::size_t consumed = 0;
    INFO(bad);
    CHECK(http1::parse_head(bad, &head, &consumed) == http1::HeadStatus::kBad);
  }
  const std::string huge = "GET / HTTP/1.1\r\nX-Big: " + std::string(http1::kMaxHeadBytes, 'a');
  http1::RequestHead head;
  std::size_t consumed = 0;
  CHECK(http1::parse_head(huge, &head, &consumed) == http1::HeadStatus::kTooLarge);
  CHECK(http1::parse_head(huge + "\r\n\r\n", &head, &consumed) == http1::HeadStatus::kTooLarge);
  const std::string at_limit = "GET / HTTP/1.1\r\nX-Big: ";
  const std::string fits = at_limit + std::string(http1::kMaxHeadBytes - at_limit.size() - 4, 'a') + "\r\n\r\n";
  CHECK(fits.size() == http1::kMaxHeadBytes);
  CHECK(http1::parse_head(fits, &head, &consumed) == http1::HeadStatus::kComplete);
}

TEST_CASE("http1: the query as Go's url.ParseQuery reads it", "[sandbox][transport]") {
  std::multimap<std::string, std::string> query;
  http1::parse_query("/api/v1/pods?labelSelector=app%3Dweb%2Ctier%21%3Ddb&fieldSelector=metadata.name=a&&x&a+b=c+d%2B",
                     query);
  REQUIRE(query.size() == 4);
  CHECK(query.find("labelSelector")->second == "app=web,tier!=db");
  CHECK(query.find("fieldSelector")->second == "metadata.name=a");  // all after the first '='
  CHECK(query.find("x")->second.empty());
  CHECK(query.find("a b")->second == "c d+");
  std::multimap<std::string, std::string> none;
  http1::parse_query("/api", none);
  CHECK(none.empty());
  CHECK(http1::percent_decode("%zz%4", false) == "%zz%4");  // invalid escapes kept
  CHECK(http1::percent_decode("a+b%2f", false) == "a+b/");
}

TEST_CASE("http1: chunk sizes, Content-Length and Accept-Encoding", "[sandbox][transport]") {
  CHECK(http1::parse_chunk_size("1a") == 26);
  CHECK(http1::parse_chunk_size("FF;name=value") == 255);
  CHECK(http1::parse_chunk_size("0") == 0);
  CHECK_FALSE(http1::parse_chunk_size("").has_value());
  CHECK_FALSE(http1::parse_chunk_size("xyz").has_value());
  CHECK_FALSE(http1::parse_chunk_size("11111111111111111").has_value());  // 17 digits: over 64 bits
  CHECK(http1::parse_content_length(" 3145728") == 3145728);
  CHECK_FALSE(http1::parse_content_length("-1").has_value());
  CHECK_FALSE(http1::parse_content_length("12a").has_value());
  CHECK(http1::accepts_gzip("gzip"));
  CHECK(http1::accepts_gzip("deflate, GZIP;q=0.5"));
  CHECK_FALSE(http1::accepts_gzip("gzip;q=0"));
  CHECK_FALSE(http1::accepts_gzip("br, deflate"));
  CHECK_FALSE(http1::accepts_gzip(""));
}

TEST_CASE("http1: gzip round-trips, status texts are Go's, the Date header is RFC 1123 in GMT",
          "[sandbox][transport]") {
  std::string body;
  for (int i = 0; i < 20000; ++i) body += "{\"kind\":\"ConfigMap\",\"n\":" + std::to_string(i) + "}";
  const std::string packed = http1::gzip(body);
  CHECK(packed.size() < body.size() / 4);
  CHECK(gunzip(packed) == body);
  CHECK(http1::reason_phrase(200) == "OK");
  CHECK(http1::reason_phrase(422) == "Unprocessable Entity");
  CHECK(http1::reason_phrase(429) == "Too Many Requests");
  CHECK(http1::reason_phrase(413) == "Request Entity Too Large");
  CHECK(http1::http_date(0) == "Thu, 01 Jan 1970 00:00:00 GMT");
  CHECK(http1::http_date(1136214245) == "Mon, 02 Jan 2006 15:04:05 GMT");
}
