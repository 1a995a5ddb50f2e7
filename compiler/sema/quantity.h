// Exact Kubernetes quantities and durations.
//
// A Quantity is an exact decimal: an integer count of nano-units (10^-9) held in
// 128 bits, plus the notation it should be printed in. Arithmetic never rounds:
// a result that does not fit, or a division that is not exact to 1n, is an
// error the caller reports. Printing follows Kubernetes' canonical form
// (resource.Quantity.String()): 36Gi, 1.5Gi -> "1536Mi", 500m, 1.5 -> "1500m",
// 1000 -> "1k", 2e3 -> "2e3" (a decimal exponent keeps its notation).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mkq::sema {

enum class QuantityFormat {
  DecimalSI,        // 500m, 9, 2k, 1M
  BinarySI,         // 36Gi, 512Mi
  DecimalExponent,  // 2e3, 1e-3
};

enum class QuantityError { None, Syntax, Overflow, TooPrecise, DivisionByZero, Inexact };

// What went wrong, lower-case, for a diagnostic ("quantity overflows", ...).
const char* describe(QuantityError error);

class Quantity {
 public:
  Quantity() = default;
  static Quantity from_int(std::int64_t value);

  // Parses Kubernetes notation ("36Gi", "1.5", "500m", "2e3", "-1"). Fails with
  // Syntax, Overflow (beyond ±10^29 units) or TooPrecise (finer than 1n).
  static std::optional<Quantity> parse(std::string_view text, QuantityError* error = nullptr);

  // Arithmetic. The result's format is BinarySI if either operand is BinarySI,
  // else DecimalSI if either is DecimalSI, else DecimalExponent.
  static std::optional<Quantity> add(const Quantity& a, const Quantity& b, QuantityError* error);
  static std::optional<Quantity> subtract(const Quantity& a, const Quantity& b, QuantityError* error);
  static std::optional<Quantity> multiply(const Quantity& a, const Quantity& b, QuantityError* error);
  // Exact to 1n, else Inexact; b == 0 is DivisionByZero.
  static std::optional<Quantity> divide(const Quantity& a, const Quantity& b, QuantityError* error);
  // Remainder of two whole numbers; anything else is Inexact.
  static std::optional<Quantity> modulo(const Quantity& a, const Quantity& b, QuantityError* error);
  Quantity negated() const;

  int compare(const Quantity& other) const;  // <0, 0, >0 by value (format ignored)
  bool operator==(const Quantity& other) const { return compare(other) == 0; }

  bool is_integer() const;                   // no fractional part
  bool is_negative() const { return nanos_ < 0; }
  bool is_zero() const { return nanos_ == 0; }
  std::optional<std::int64_t> to_int64() const;  // when integral and in range
  // The value in units of 10^exponent (exponent a multiple of 3 in [-9, 27]:
  // 1n, 1u, 1m, 1, 1k, ...), rounded toward negative infinity; nullopt when the
  // count does not fit in 64 bits or the exponent is not one of those.
  std::optional<std::int64_t> floor_units(int exponent) const;
  // count x 10^exponent (exponent as for floor_units), printed in `format`;
  // nullopt beyond the range of a Quantity.
  static std::optional<Quantity> from_units(std::int64_t count, int exponent, QuantityFormat format);
  QuantityFormat format() const { return format_; }

  // Kubernetes' canonical string.
  std::string to_string() const;

 private:
  // A 128-bit integer kept as two 64-bit halves: aligned to 8 bytes rather than
  // 16, a Quantity is 24 bytes, not 32 (every number value and every quota of
  // a policy holds one). Reads and writes convert; the arithmetic is __int128.
  class Nanos {
   public:
    __extension__ using Int = __int128;
    Nanos() = default;
    Nanos(Int value)  // NOLINT(google-explicit-constructor): stands for the integer it holds
        : low_(static_cast<std::uint64_t>(value)), high_(static_cast<std::uint64_t>(value >> 64)) {}
    operator Int() const {  // NOLINT(google-explicit-constructor)
      __extension__ using UInt = unsigned __int128;
      return static_cast<Int>((static_cast<UInt>(high_) << 64) | low_);
    }

   private:
    std::uint64_t low_ = 0;
    std::uint64_t high_ = 0;
  };

  Nanos nanos_;  // |nanos_| <= 10^38
  QuantityFormat format_ = QuantityFormat::DecimalSI;
};

// A length of time, in milliseconds. Written in the language as 30d, 12h,
// 5min, 90s, 250ms and sums of them (1h30min).
class Duration {
 public:
  Duration() = default;
  static Duration from_millis(std::int64_t ms) { Duration d; d.millis_ = ms; return d; }
  // The longest duration Go's time.Duration (int64 nanoseconds) can hold, in
  // whole milliseconds: about 292 years. parse() refuses anything longer.
  static constexpr std::int64_t kMaxMillis = 9'223'372'036'854;

  // Parses the language's notation; nullopt on syntax error or overflow
  // (beyond ±kMaxMillis). Units d, h, min, s, ms, each at most once, largest
  // first; an optional leading '-' makes to_string() round-trip.
  static std::optional<Duration> parse(std::string_view text);

  std::int64_t millis() const { return millis_; }
  int compare(const Duration& other) const { return millis_ < other.millis_ ? -1 : millis_ > other.millis_; }
  bool operator==(const Duration& other) const { return millis_ == other.millis_; }

  // The language's notation, largest units first: "30d", "1h30min", "0s".
  std::string to_string() const;
  // Go's time.Duration notation, as Kueue's configuration expects: "15m0s", "720h0m0s", "1m0s", "500ms".
  std::string to_go_string() const;

 private:
  std::int64_t millis_ = 0;
};

}  // namespace mkq::sema
