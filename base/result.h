// The runtime's one error convention: a call that can fail returns Result<T>,
// a value or an Error. An expected answer -- a Kubernetes API server's 404,
// 409, 422, 429 after retries, a kubeconfig that names a missing file, a
// secret source that cannot be read -- is an Error value the caller branches
// on, never an exception and never a bool beside an out-parameter.
//
// An Error says what went wrong (status, reason, message) and, when the
// runtime knows it, which object it is about (address). It is rendered for a
// reader once: describe() where the address is already on the line (a plan's
// or an apply report's row), render() where it is not.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <variant>

namespace mkq::base {

struct Error {
  int status = 0;        // HTTP status; 0 when no response came (connection refused, TLS, timeout) or none was asked
  std::string reason;    // metav1.Status reason ("NotFound", "Conflict", "Invalid", ...) or, for status 0,
                         // "ConnectionFailed", "Timeout", "TLSError", "ConfigError"
  std::string message;   // the server's message, or the transport's, lower-case, no secrets
  nlohmann::ordered_json details;  // metav1.Status details when present (causes with field paths), else null
  // The object the failure is about, as the plan and the state write it:
  // CLUSTER/KIND/NAME or CLUSTER/KIND/NAMESPACE/NAME. Empty: no object in particular.
  std::string address;

  Error() = default;
  Error(int status_code, std::string why, std::string text, nlohmann::ordered_json status_details = nullptr,
        std::string object_address = {})
      : status(status_code),
        reason(std::move(why)),
        message(std::move(text)),
        details(std::move(status_details)),
        address(std::move(object_address)) {}

  // A refusal of what mkq was given (a kubeconfig, a secret source, a plan file), before any server was asked.
  static Error config(std::string text) { return {0, "ConfigError", std::move(text)}; }

  bool not_found() const { return status == 404; }
  bool conflict() const { return status == 409; }
  bool transport() const { return status == 0; }

  // The same error, about the object at `object_address` (kept when it already names one).
  Error about(const std::string& object_address) && {
    if (address.empty()) address = object_address;
    return std::move(*this);
  }
};

// What went wrong, without the address: the message, else the status and reason.
std::string describe(const Error& error);
// The error for a line that does not name the object already: "ADDRESS: what", or what.
std::string render(const Error& error);

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
  // By value: `for (const auto& x : f().value())` must not refer into the
  // temporary Result, which dies before the loop's first turn.
  T value() && { return std::get<0>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  const Error& error() const { return std::get<1>(state_); }
  Error& error() { return std::get<1>(state_); }

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
  Error& error() { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace mkq::base
