// Content-Length framing (lsp/transport.h): frames however the bytes arrive,
// and one Malformed frame for each kind of broken input, never a hang.
#include <catch2/catch.hpp>

#include "lsp/transport.h"

using mkq::lsp::FrameReader;
using mkq::lsp::Incoming;

namespace {

std::vector<Incoming> drain(FrameReader& reader) {
  std::vector<Incoming> frames;
  while (auto frame = reader.next()) {
    if (frame->kind == Incoming::Kind::End) break;
    frames.push_back(std::move(*frame));
  }
  return frames;
}

}  // namespace

TEST_CASE("frames are read whole however the bytes are split", "[lsp][framing]") {
  const std::string stream = mkq::lsp::frame(R"({"a":1})") + "content-length:  10\r\nContent-Type: x\r\n\r\n{\"b\":\"é\"}";
  FrameReader reader;
  std::vector<Incoming> frames;
  for (const char c : stream) {  // one byte at a time
    reader.feed(std::string_view(&c, 1));
    while (auto frame = reader.next()) frames.push_back(std::move(*frame));
  }
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].body == R"({"a":1})");
  CHECK(frames[1].body == "{\"b\":\"é\"}");
  reader.finish();
  CHECK(reader.next()->kind == Incoming::Kind::End);
}

TEST_CASE("a header block without a usable Content-Length is one malformed frame", "[lsp][framing]") {
  FrameReader reader;
  reader.feed("Content-Type: x\r\n\r\nbroken\r\n\r\nContent-Length: ab\r\n\r\n" + mkq::lsp::frame("{}"));
  reader.finish();
  const auto frames = drain(reader);
  REQUIRE(frames.size() == 4);
  CHECK(frames[0].kind == Incoming::Kind::Malformed);
  CHECK(frames[0].error == "no Content-Length header");
  CHECK(frames[1].error == "a header line without ':'");
  CHECK(frames[2].error == "Content-Length is not a number");
  CHECK(frames[3].kind == Incoming::Kind::Message);
  CHECK(frames[3].body == "{}");
}

TEST_CASE("an over-long body is skipped as it arrives, never held", "[lsp][framing]") {
  FrameReader reader;
  const std::size_t size = mkq::lsp::kMaxBodyBytes + 10;
  reader.feed("Content-Length: " + std::to_string(size) + "\r\n\r\n");
  auto frame = reader.next();
  REQUIRE(frame);
  CHECK(frame->kind == Incoming::Kind::Malformed);
  const std::string chunk(1 << 20, 'x');
  for (std::size_t sent = 0; sent < size; sent += chunk.size()) {
    reader.feed(std::string_view(chunk).substr(0, std::min(chunk.size(), size - sent)));
    CHECK_FALSE(reader.next());
  }
  reader.feed(mkq::lsp::frame("{}"));
  frame = reader.next();
  REQUIRE(frame);
  CHECK(frame->body == "{}");
}

TEST_CASE("input that ends inside a frame gives a malformed frame, then the end", "[lsp][framing]") {
  FrameReader headers;
  headers.feed("Content-Len");
  CHECK_FALSE(headers.next());
  headers.finish();
  CHECK(headers.next()->error == "the input ended inside a header block");
  CHECK(headers.next()->kind == Incoming::Kind::End);

  FrameReader body;
  body.feed("Content-Length: 10\r\n\r\n{}");
  CHECK_FALSE(body.next());
  body.finish();
  CHECK(body.next()->error == "the input ended inside a message body");
  CHECK(body.next()->kind == Incoming::Kind::End);

  FrameReader endless;
  endless.feed(std::string(mkq::lsp::kMaxHeaderBytes + 1, 'h'));
  CHECK(endless.next()->error == "a header block over 8192 bytes");
}
