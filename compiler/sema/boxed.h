// Boxed<T>: an optional value held out of line.
//
// For the model's rarely set parts (a queue's preemption block, a quota's
// borrowing limit): unset, it costs one pointer where std::optional<T> costs
// sizeof(T); set, one allocation. It reads like std::optional (contextual
// bool, has_value(), *, ->) and copies deeply, so a model that holds it
// behaves as one holding std::optional. Invariant: the box is empty exactly
// when it has no value.
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace mkq::sema {

template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(std::nullopt_t) {}
  Boxed(const T& value) : value_(std::make_unique<T>(value)) {}
  Boxed(T&& value) : value_(std::make_unique<T>(std::move(value))) {}
  Boxed(std::optional<T> value) {
    if (value) value_ = std::make_unique<T>(std::move(*value));
  }
  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  ~Boxed() = default;

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  // Like std::optional's: the value must be set.
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  void reset() { value_.reset(); }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace mkq::sema
