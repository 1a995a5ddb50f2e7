// The outcome of one call to a Kubernetes API server: a value, or an error that
// says what the server answered (a metav1.Status) or why no answer came.
//
// An expected answer (404, 409, 422, 429 after retries) is an Error value, never
// an exception: callers branch on status/reason.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <variant>

namespace mkq::kube {

using Json = nlohmann::ordered_json;

struct Error {
  int status = 0;        // HTTP status; 0 when no response came (connection refused, TLS, timeout)
  std::string reason;    // metav1.Status reason ("NotFound", "Conflict", "Invalid", ...) or, for status 0,
                         // "ConnectionFailed", "Timeout", "TLSError", "ConfigError"
  std::string message;   // the server's message, or the transport's, lower-case, no secrets
  Json details;          // metav1.Status details when present (causes with field paths), else null

  bool not_found() const { return status == 404; }
  bool conflict() const { return status == 409; }
  bool transport() const { return status == 0; }
};

// A value or an Error. Result<void> carries only the error.
template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Error error) : state_(std::move(error)) {}  // NOLINT
  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<0>(state_); }
  T& value() & { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

template <>
class Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace mkq::kube
