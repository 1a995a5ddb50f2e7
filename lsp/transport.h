// The byte stream between an editor and `mkq lsp`: JSON-RPC messages framed
// by a `Content-Length` header (LSP's base protocol). The server reads and
// writes only through Transport, so that tests drive it in-process.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace mkq::lsp {

// What reading one frame gave.
struct Incoming {
  enum class Kind { Message, Malformed, End };
  Kind kind = Kind::End;
  std::string body;   // Message: the JSON text, not yet parsed
  std::string error;  // Malformed: what was wrong with the frame (the server answers it with a parse error)
};

class Transport {
 public:
  virtual ~Transport() = default;
  // True as soon as read() would answer without waiting; false when
  // `timeout` passed first. No timeout: waits until read() can answer.
  virtual bool wait(std::optional<std::chrono::milliseconds> timeout) = 0;
  // The next frame (waits for it); End once the input is closed and drained.
  virtual Incoming read() = 0;
  // Sends one message (its JSON text), framed.
  virtual void write(const std::string& body) = 0;
};

// The largest header block and body taken. A larger body is skipped as it
// arrives (and answered with a parse error), never held.
inline constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
inline constexpr std::size_t kMaxBodyBytes = 64u << 20;

// `body` with its header: "Content-Length: N\r\n\r\n" then the body.
std::string frame(std::string_view body);

// Splits a byte stream into frames, however the bytes arrive. Never throws and
// never waits for bytes that cannot come: a header block without a valid
// Content-Length, an over-long header or body, or input that ends inside a
// frame each give one Malformed frame, and reading goes on after it.
class FrameReader {
 public:
  void feed(std::string_view bytes);
  void finish() { finished_ = true; }  // the input is closed
  // The next frame; nullopt while more bytes are needed. After finish() and
  // once every frame is out, End (again and again).
  std::optional<Incoming> next();

 private:
  std::string buffer_;
  std::size_t skipping_ = 0;  // bytes of an over-long body still to drop
  bool finished_ = false;
};

// The process's stdin and stdout (file descriptors, so that wait() can poll).
class StdioTransport final : public Transport {
 public:
  StdioTransport(int in, int out) : in_(in), out_(out) {}
  bool wait(std::optional<std::chrono::milliseconds> timeout) override;
  Incoming read() override;
  void write(const std::string& body) override;

 private:
  // Reads what is there (waiting at most `timeout_ms`, -1 forever) into the reader.
  void fill(int timeout_ms);

  int in_;
  int out_;
  FrameReader reader_;
  std::deque<Incoming> ready_;
};

}  // namespace mkq::lsp
