// Exact Kubernetes quantities and durations (see quantity.h).
//
// Invariants:
// - Quantity::nanos_ is the value in units of 10^-9 and |nanos_| <= kMaxNanos
//   (10^38, i.e. ±10^29 units, bound included). 10^38 fits __int128 (max about
//   1.7e38) and the bound is symmetric, so negation never overflows; a sum of
//   two bounded values may exceed __int128 and is checked.
// - Intermediate products and the dividend of a division (up to 10^47) are
//   computed in 256 bits; no operation rounds.
// - Duration::millis_ is not bounded here (the evaluator may build any int64);
//   parse() refuses anything beyond ±Duration::kMaxMillis.
//
// Canonical printing follows the rules of Kubernetes' resource.Quantity
// (k8s.io/apimachinery/pkg/api/resource: CanonicalizeBytes, AsCanonicalBytes,
// AsCanonicalBase1024Bytes and the suffix table), extended to our larger range:
// - zero prints "0" in every format;
// - BinarySI is kept only for integers with |v| >= 1024; the value is divided
//   by 1024 while exact and printed with Ki..Ei (anything else prints as
//   DecimalSI);
// - DecimalSI and DecimalExponent strip factors of ten from the mantissa, then
//   lower the exponent to the multiple of three at or below it (the largest
//   exponent that keeps the mantissa an integer);
// - DecimalSI uses n u m "" k M G T P E. Kubernetes never needs more than E
//   (its values stop at 2^63-1); we cap at E and Ei, so 10^21 prints "1000E"
//   and 2^70 prints "1024Ei", which Kubernetes parses back to the same value.
#include "compiler/sema/quantity.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace mkq::sema {
namespace {

__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

constexpr Int128 kNanosPerUnit = 1'000'000'000;

constexpr UInt128 pow10_u128(int exponent) {
  UInt128 result = 1;
  for (int i = 0; i < exponent; ++i) {
    result *= 10;
  }
  return result;
}

constexpr Int128 kMaxNanos = static_cast<Int128>(pow10_u128(38));  // 10^29 units
constexpr int kMaxNanosDigits = 39;                                // digits of 10^38

UInt128 magnitude(Int128 v) { return v < 0 ? UInt128(0) - static_cast<UInt128>(v) : static_cast<UInt128>(v); }

QuantityFormat merge_formats(QuantityFormat a, QuantityFormat b) {
  if (a == QuantityFormat::BinarySI || b == QuantityFormat::BinarySI) {
    return QuantityFormat::BinarySI;
  }
  if (a == QuantityFormat::DecimalSI || b == QuantityFormat::DecimalSI) {
    return QuantityFormat::DecimalSI;
  }
  return QuantityFormat::DecimalExponent;
}

template <typename T>
std::optional<T> fail(QuantityError* error, QuantityError what) {
  if (error != nullptr) {
    *error = what;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// 256-bit unsigned arithmetic, just enough for exact multiply and divide.

struct U256 {
  std::array<std::uint64_t, 4> limb{};  // little-endian 64-bit limbs

  static U256 from(UInt128 v) {
    U256 r;
    r.limb[0] = static_cast<std::uint64_t>(v);
    r.limb[1] = static_cast<std::uint64_t>(v >> 64);
    return r;
  }
  [[nodiscard]] bool fits_u128() const { return limb[2] == 0 && limb[3] == 0; }
  [[nodiscard]] UInt128 low_u128() const { return (static_cast<UInt128>(limb[1]) << 64) | limb[0]; }
  [[nodiscard]] bool bit(int i) const {
    return ((limb[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1U) != 0;
  }
  void set_bit(int i) { limb[static_cast<std::size_t>(i / 64)] |= std::uint64_t{1} << (i % 64); }
};

U256 multiply_u128(UInt128 a, UInt128 b) {
  const std::array<std::uint64_t, 2> x{static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(a >> 64)};
  const std::array<std::uint64_t, 2> y{static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(b >> 64)};
  U256 r;
  for (std::size_t i = 0; i < 2; ++i) {
    UInt128 carry = 0;
    for (std::size_t j = 0; j < 2; ++j) {
      const UInt128 t = static_cast<UInt128>(x[i]) * y[j] + r.limb[i + j] + carry;
      r.limb[i + j] = static_cast<std::uint64_t>(t);
      carry = t >> 64;
    }
    r.limb[i + 2] = static_cast<std::uint64_t>(carry);
  }
  return r;
}

// Long division by a divisor below 2^127 (so the running remainder, shifted
// left once, still fits 128 bits).
void divide_u256(const U256& dividend, UInt128 divisor, U256* quotient, UInt128* remainder) {
  U256 q;
  UInt128 r = 0;
  for (int i = 255; i >= 0; --i) {
    r = (r << 1) | (dividend.bit(i) ? 1U : 0U);
    if (r >= divisor) {
      r -= divisor;
      q.set_bit(i);
    }
  }
  *quotient = q;
  *remainder = r;
}

// ---------------------------------------------------------------------------
// Parsing: scan the text into its parts, interpret the suffix, then scale the
// digits exactly to nanos.

// <quantity> ::= [sign] <number> <suffix>
// <number>   ::= digits | digits "." digits | digits "." | "." digits
struct Scanned {
  bool negative = false;
  std::string_view integer_digits;
  std::string_view fraction_digits;
  std::string_view suffix;  // everything after the number, checked by interpret_suffix
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::size_t skip_digits(std::string_view text, std::size_t pos) {
  while (pos < text.size() && is_digit(text[pos])) {
    ++pos;
  }
  return pos;
}

std::optional<Scanned> scan(std::string_view text) {
  Scanned out;
  std::size_t pos = 0;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    out.negative = text[pos] == '-';
    ++pos;
  }
  const std::size_t integer_end = skip_digits(text, pos);
  out.integer_digits = text.substr(pos, integer_end - pos);
  pos = integer_end;
  if (pos < text.size() && text[pos] == '.') {
    const std::size_t fraction_end = skip_digits(text, pos + 1);
    out.fraction_digits = text.substr(pos + 1, fraction_end - pos - 1);
    pos = fraction_end;
  }
  if (out.integer_digits.empty() && out.fraction_digits.empty()) {
    return std::nullopt;
  }
  out.suffix = text.substr(pos);
  return out;
}

// What a suffix multiplies by: base^exponent, and the notation it implies.
struct Scale {
  int base = 10;              // 10 or 2
  std::int64_t exponent = 0;  // for base 2 a multiple of 10 (Ki = 2^10)
  QuantityFormat format = QuantityFormat::DecimalSI;
};

struct NamedSuffix {
  std::string_view text;
  Scale scale;
};

constexpr std::array<NamedSuffix, 16> kSuffixes{{
    {"", {10, 0, QuantityFormat::DecimalSI}},
    {"n", {10, -9, QuantityFormat::DecimalSI}},
    {"u", {10, -6, QuantityFormat::DecimalSI}},
    {"m", {10, -3, QuantityFormat::DecimalSI}},
    {"k", {10, 3, QuantityFormat::DecimalSI}},
    {"M", {10, 6, QuantityFormat::DecimalSI}},
    {"G", {10, 9, QuantityFormat::DecimalSI}},
    {"T", {10, 12, QuantityFormat::DecimalSI}},
    {"P", {10, 15, QuantityFormat::DecimalSI}},
    {"E", {10, 18, QuantityFormat::DecimalSI}},  // "E" alone is exa; "E3" is an exponent
    {"Ki", {2, 10, QuantityFormat::BinarySI}},
    {"Mi", {2, 20, QuantityFormat::BinarySI}},
    {"Gi", {2, 30, QuantityFormat::BinarySI}},
    {"Ti", {2, 40, QuantityFormat::BinarySI}},
    {"Pi", {2, 50, QuantityFormat::BinarySI}},
    {"Ei", {2, 60, QuantityFormat::BinarySI}},
}};

// An SI suffix, or e/E followed by an optionally signed integer.
std::optional<Scale> interpret_suffix(std::string_view suffix) {
  for (const NamedSuffix& named : kSuffixes) {
    if (suffix == named.text) {
      return named.scale;
    }
  }
  if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) {
    return std::nullopt;
  }
  std::size_t pos = 1;
  const bool negative = suffix[pos] == '-';
  if (suffix[pos] == '+' || suffix[pos] == '-') {
    ++pos;
  }
  if (pos == suffix.size() || skip_digits(suffix, pos) != suffix.size()) {
    return std::nullopt;
  }
  std::int64_t exponent = 0;
  for (; pos < suffix.size(); ++pos) {
    // Saturate: an exponent beyond a million is out of range either way.
    exponent = std::min<std::int64_t>(exponent * 10 + (suffix[pos] - '0'), 1'000'000);
  }
  return Scale{10, negative ? -exponent : exponent, QuantityFormat::DecimalExponent};
}

// Multiplies a big-endian decimal digit string in place by a small factor.
void multiply_digits(std::string& digits, unsigned factor) {
  unsigned carry = 0;
  for (std::size_t i = digits.size(); i-- > 0;) {
    const unsigned t = (static_cast<unsigned>(digits[i] - '0') * factor) + carry;
    digits[i] = static_cast<char>('0' + (t % 10));
    carry = t / 10;
  }
  while (carry != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + (carry % 10)));
    carry /= 10;
  }
}

// The common case without building digit strings: a whole number of at most
// 18 digits whose value in nanos fits the range (10^18 * 2^60 * 10^9 does not
// fit 128 bits, so the products are checked). Anything else (a fraction, an
// exponent below nano, more digits, a value out of range) is left to the
// general path, which also reports the errors.
std::optional<UInt128> whole_number_nanos(const Scanned& number, const Scale& scale) {
  if (!number.fraction_digits.empty() || number.integer_digits.size() > 18) return std::nullopt;
  UInt128 value = 0;
  for (const char c : number.integer_digits) value = (value * 10) + static_cast<unsigned>(c - '0');
  UInt128 factor = static_cast<UInt128>(kNanosPerUnit);
  if (scale.base == 10) {
    if (scale.exponent < -9 || scale.exponent > 29) return std::nullopt;
    factor = pow10_u128(static_cast<int>(scale.exponent + 9));
  } else {
    factor <<= scale.exponent;  // binary exponents are 10..60: 10^9 * 2^60 < 2^90
  }
  UInt128 nanos = 0;
  if (__builtin_mul_overflow(value, factor, &nanos) || nanos > static_cast<UInt128>(kMaxNanos)) {
    return std::nullopt;
  }
  return nanos;
}

// The magnitude in nanos of integer.fraction * scale, exactly, or why not.
// Works on decimal digit strings so that any input length is handled exactly
// (whole numbers that fit take whole_number_nanos first).
UInt128 scale_to_nanos(const Scanned& number, const Scale& scale, QuantityError* error) {
  if (const auto nanos = whole_number_nanos(number, scale)) return *nanos;
  std::string digits;
  digits.reserve(number.integer_digits.size() + number.fraction_digits.size());
  digits.append(number.integer_digits);
  digits.append(number.fraction_digits);
  const std::size_t first_nonzero = digits.find_first_not_of('0');
  if (first_nonzero == std::string::npos) {
    return 0;
  }
  digits.erase(0, first_nonzero);

  // value in nanos = digits * 10^exponent10 (after the binary factor is multiplied in)
  std::int64_t exponent10 = 9 - static_cast<std::int64_t>(number.fraction_digits.size());
  if (scale.base == 10) {
    exponent10 += scale.exponent;
  } else {
    for (std::int64_t e = 0; e < scale.exponent; e += 10) {
      multiply_digits(digits, 1024);
    }
  }
  // Strip trailing zeros: afterwards the digits are not a multiple of ten, so
  // a negative exponent10 means the value is not a whole number of nanos.
  const std::size_t last_nonzero = digits.find_last_not_of('0');
  exponent10 += static_cast<std::int64_t>(digits.size() - 1 - last_nonzero);
  digits.erase(last_nonzero + 1);

  // Range first: a value both too large and too precise is reported as too large.
  const std::int64_t integer_digits = static_cast<std::int64_t>(digits.size()) + exponent10;
  if (integer_digits > kMaxNanosDigits || (integer_digits == kMaxNanosDigits && digits != "1")) {
    *error = QuantityError::Overflow;
    return 0;
  }
  if (exponent10 < 0) {
    *error = QuantityError::TooPrecise;
    return 0;
  }
  UInt128 value = 0;
  for (const char c : digits) {
    value = (value * 10) + static_cast<unsigned>(c - '0');
  }
  for (std::int64_t i = 0; i < exponent10; ++i) {
    value *= 10;  // bounded by the range check above
  }
  return value;
}

// ---------------------------------------------------------------------------
// Printing.

const char* decimal_suffix(int exponent) {
  switch (exponent) {
    case -9:
      return "n";
    case -6:
      return "u";
    case -3:
      return "m";
    case 0:
      return "";
    case 3:
      return "k";
    case 6:
      return "M";
    case 9:
      return "G";
    case 12:
      return "T";
    case 15:
      return "P";
    case 18:
      return "E";
    default:
      return "";
  }
}

const char* binary_suffix(int power_of_1024) {
  static constexpr std::array<const char*, 7> kNames{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  return kNames[static_cast<std::size_t>(power_of_1024)];
}

}  // namespace

const char* describe(QuantityError error) {
  switch (error) {
    case QuantityError::None:
      return "no error";
    case QuantityError::Syntax:
      return "invalid quantity";
    case QuantityError::Overflow:
      return "quantity out of range (magnitude above 10^29)";
    case QuantityError::TooPrecise:
      return "quantity finer than 1n";
    case QuantityError::DivisionByZero:
      return "division by zero";
    case QuantityError::Inexact:
      return "result is not exact (division must be exact to 1n, % needs whole numbers)";
  }
  return "invalid quantity";
}

Quantity Quantity::from_int(std::int64_t value) {
  Quantity q;
  q.nanos_ = static_cast<Int128>(value) * kNanosPerUnit;  // |value| * 10^9 < 10^28
  q.format_ = QuantityFormat::DecimalSI;
  return q;
}

std::optional<Quantity> Quantity::parse(std::string_view text, QuantityError* error) {
  if (error != nullptr) {
    *error = QuantityError::None;
  }
  const std::optional<Scanned> number = scan(text);
  if (!number) {
    return fail<Quantity>(error, QuantityError::Syntax);
  }
  const std::optional<Scale> scale = interpret_suffix(number->suffix);
  if (!scale) {
    return fail<Quantity>(error, QuantityError::Syntax);
  }
  QuantityError scale_error = QuantityError::None;
  const UInt128 value = scale_to_nanos(*number, *scale, &scale_error);
  if (scale_error != QuantityError::None) {
    return fail<Quantity>(error, scale_error);
  }
  Quantity q;
  q.nanos_ = number->negative ? -static_cast<Int128>(value) : static_cast<Int128>(value);
  q.format_ = scale->format;
  // Kubernetes turns a binary quantity strictly between -1 and 1 into DecimalSI when parsing.
  if (q.format_ == QuantityFormat::BinarySI && value != 0 && value < static_cast<UInt128>(kNanosPerUnit)) {
    q.format_ = QuantityFormat::DecimalSI;
  }
  return q;
}

std::optional<Quantity> Quantity::add(const Quantity& a, const Quantity& b, QuantityError* error) {
  if (error != nullptr) {
    *error = QuantityError::None;
  }
  Int128 sum = 0;  // 2 * 10^38 exceeds __int128, so the addition itself is checked too
  if (__builtin_add_overflow(static_cast<Int128>(a.nanos_), static_cast<Int128>(b.nanos_), &sum) || sum > kMaxNanos || sum < -kMaxNanos) {
    return fail<Quantity>(error, QuantityError::Overflow);
  }
  Quantity q;
  q.nanos_ = sum;
  q.format_ = merge_formats(a.format_, b.format_);
  return q;
}

std::optional<Quantity> Quantity::subtract(const Quantity& a, const Quantity& b, QuantityError* error) {
  return add(a, b.negated(), error);
}

std::optional<Quantity> Quantity::multiply(const Quantity& a, const Quantity& b, QuantityError* error) {
  if (error != nullptr) {
    *error = QuantityError::None;
  }
  // (a * 10^-9) * (b * 10^-9) = (a * b / 10^9) * 10^-9
  const U256 product = multiply_u128(magnitude(a.nanos_), magnitude(b.nanos_));
  U256 quotient;
  UInt128 remainder = 0;
  divide_u256(product, static_cast<UInt128>(kNanosPerUnit), &quotient, &remainder);
  if (!quotient.fits_u128() || quotient.low_u128() > static_cast<UInt128>(kMaxNanos)) {
    return fail<Quantity>(error, QuantityError::Overflow);
  }
  if (remainder != 0) {
    return fail<Quantity>(error, QuantityError::TooPrecise);
  }
  const auto value = static_cast<Int128>(quotient.low_u128());
  Quantity q;
  q.nanos_ = (a.nanos_ < 0) != (b.nanos_ < 0) ? -value : value;
  q.format_ = merge_formats(a.format_, b.format_);
  return q;
}

std::optional<Quantity> Quantity::divide(const Quantity& a, const Quantity& b, QuantityError* error) {
  if (error != nullptr) {
    *error = QuantityError::None;
  }
  if (b.nanos_ == 0) {
    return fail<Quantity>(error, QuantityError::DivisionByZero);
  }
  // (a * 10^-9) / (b * 10^-9) = (a * 10^9 / b) * 10^-9
  const U256 dividend = multiply_u128(magnitude(a.nanos_), static_cast<UInt128>(kNanosPerUnit));
  U256 quotient;
  UInt128 remainder = 0;
  divide_u256(dividend, magnitude(b.nanos_), &quotient, &remainder);
  if (!quotient.fits_u128() || quotient.low_u128() > static_cast<UInt128>(kMaxNanos)) {
    return fail<Quantity>(error, QuantityError::Overflow);
  }
  if (remainder != 0) {
    return fail<Quantity>(error, QuantityError::Inexact);
  }
  const auto value = static_cast<Int128>(quotient.low_u128());
  Quantity q;
  q.nanos_ = (a.nanos_ < 0) != (b.nanos_ < 0) ? -value : value;
  q.format_ = merge_formats(a.format_, b.format_);
  return q;
}

std::optional<Quantity> Quantity::modulo(const Quantity& a, const Quantity& b, QuantityError* error) {
  if (error != nullptr) {
    *error = QuantityError::None;
  }
  if (!a.is_integer() || !b.is_integer()) {
    return fail<Quantity>(error, QuantityError::Inexact);
  }
  if (b.nanos_ == 0) {
    return fail<Quantity>(error, QuantityError::DivisionByZero);
  }
  Quantity q;
  q.nanos_ = a.nanos_ % b.nanos_;  // truncated: the sign follows the dividend, as in Go and C++
  q.format_ = merge_formats(a.format_, b.format_);
  return q;
}

Quantity Quantity::negated() const {
  Quantity q = *this;
  q.nanos_ = -nanos_;
  return q;
}

int Quantity::compare(const Quantity& other) const {
  if (nanos_ < other.nanos_) {
    return -1;
  }
  return nanos_ > other.nanos_ ? 1 : 0;
}

bool Quantity::is_integer() const { return nanos_ % kNanosPerUnit == 0; }

std::optional<std::int64_t> Quantity::to_int64() const {
  if (!is_integer()) {
    return std::nullopt;
  }
  const Int128 units = nanos_ / kNanosPerUnit;
  if (units > INT64_MAX || units < INT64_MIN) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(units);
}

namespace {

// 10^(exponent + 9): the nanos in one unit of 10^exponent; 0 for an exponent
// floor_units/from_units do not take.
Int128 nanos_per(int exponent) {
  if (exponent < -9 || exponent > 27 || exponent % 3 != 0) return 0;
  return static_cast<Int128>(pow10_u128(exponent + 9));
}

}  // namespace

std::optional<std::int64_t> Quantity::floor_units(int exponent) const {
  const Int128 per = nanos_per(exponent);
  if (per == 0) return std::nullopt;
  Int128 count = nanos_ / per;
  if (nanos_ % per != 0 && nanos_ < 0) --count;  // toward negative infinity
  if (count > INT64_MAX || count < INT64_MIN) return std::nullopt;
  return static_cast<std::int64_t>(count);
}

std::optional<Quantity> Quantity::from_units(std::int64_t count, int exponent, QuantityFormat format) {
  const Int128 per = nanos_per(exponent);
  if (per == 0) return std::nullopt;
  Int128 nanos = 0;
  if (__builtin_mul_overflow(static_cast<Int128>(count), per, &nanos) || nanos > kMaxNanos ||
      nanos < -kMaxNanos) {
    return std::nullopt;
  }
  Quantity q;
  q.nanos_ = nanos;
  q.format_ = format;
  // As parse(): a binary quantity strictly between -1 and 1 prints as DecimalSI.
  if (format == QuantityFormat::BinarySI && nanos != 0 &&
      magnitude(nanos) < static_cast<UInt128>(kNanosPerUnit)) {
    q.format_ = QuantityFormat::DecimalSI;
  }
  return q;
}

std::string Quantity::to_string() const {
  if (nanos_ == 0) {
    return "0";
  }
  const std::string_view sign = nanos_ < 0 ? "-" : "";
  const UInt128 abs_nanos = magnitude(nanos_);
  const auto nanos_per_unit = static_cast<UInt128>(kNanosPerUnit);

  if (format_ == QuantityFormat::BinarySI && abs_nanos >= 1024 * nanos_per_unit &&
      abs_nanos % nanos_per_unit == 0) {
    UInt128 mantissa = abs_nanos / nanos_per_unit;
    int power = 0;
    while (power < 6 && mantissa % 1024 == 0) {
      mantissa /= 1024;
      ++power;
    }
    return fmt::format("{}{}{}", sign, mantissa, binary_suffix(power));
  }

  // Decimal: the largest exponent that is a multiple of three and keeps the
  // mantissa an integer.
  UInt128 mantissa = abs_nanos;
  int exponent = -9;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  const int rest = ((exponent % 3) + 3) % 3;  // lower to the multiple of 3 at or below
  for (int i = 0; i < rest; ++i) {
    mantissa *= 10;
  }
  exponent -= rest;

  if (format_ == QuantityFormat::DecimalExponent) {
    if (exponent == 0) return fmt::format("{}{}", sign, mantissa);
    return fmt::format("{}{}e{}", sign, mantissa, exponent);
  }
  // DecimalSI (and BinarySI values that are small or fractional): E is the largest suffix.
  for (; exponent > 18; exponent -= 3) {
    mantissa *= 1000;
  }
  return fmt::format("{}{}{}", sign, mantissa, decimal_suffix(exponent));
}

// ---------------------------------------------------------------------------
// Duration

namespace {

struct DurationUnit {
  std::string_view name;
  std::int64_t millis;
};

// Largest first: the order the language requires and to_string() prints.
constexpr std::array<DurationUnit, 5> kDurationUnits{{
    {"d", 86'400'000},
    {"h", 3'600'000},
    {"min", 60'000},
    {"s", 1'000},
    {"ms", 1},
}};

std::uint64_t magnitude_u64(std::int64_t v) {
  return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

}  // namespace

std::optional<Duration> Duration::parse(std::string_view text) {
  std::size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && text[pos] == '-') {
    negative = true;
    ++pos;
  }
  if (pos == text.size()) {
    return std::nullopt;
  }

  std::int64_t total = 0;
  std::size_t next_unit = 0;  // units must appear in kDurationUnits order, each at most once
  while (pos < text.size()) {
    std::int64_t count = 0;
    const std::size_t digits_begin = pos;
    for (; pos < text.size() && is_digit(text[pos]); ++pos) {
      count = count * 10 + (text[pos] - '0');
      if (count > kMaxMillis) {
        return std::nullopt;
      }
    }
    if (pos == digits_begin) {
      return std::nullopt;
    }
    const std::size_t unit_begin = pos;
    while (pos < text.size() && text[pos] >= 'a' && text[pos] <= 'z') {
      ++pos;
    }
    const std::string_view unit = text.substr(unit_begin, pos - unit_begin);

    std::size_t index = next_unit;
    while (index < kDurationUnits.size() && kDurationUnits[index].name != unit) {
      ++index;
    }
    if (index == kDurationUnits.size()) {
      return std::nullopt;  // unknown, repeated or out of order
    }
    next_unit = index + 1;

    const std::int64_t per = kDurationUnits[index].millis;
    if (count > (kMaxMillis - total) / per) {
      return std::nullopt;
    }
    total += count * per;
  }
  return from_millis(negative ? -total : total);
}

std::string Duration::to_string() const {
  if (millis_ == 0) {
    return "0s";
  }
  fmt::memory_buffer out;
  if (millis_ < 0) out.push_back('-');
  std::uint64_t rest = magnitude_u64(millis_);
  for (const DurationUnit& unit : kDurationUnits) {
    const auto per = static_cast<std::uint64_t>(unit.millis);
    const std::uint64_t count = rest / per;
    rest %= per;
    if (count != 0) fmt::format_to(std::back_inserter(out), "{}{}", count, unit.name);
  }
  return fmt::to_string(out);
}

std::string Duration::to_go_string() const {
  // Go's time.Duration.String(): "0s"; below one second the smallest unit
  // ("500ms"); otherwise [<h>h][<m>m]<s>[.<fraction>]s where hours appear from
  // one hour on, minutes from one minute on (so 1h prints "1h0m0s"), and the
  // fraction drops trailing zeros ("1.5s").
  if (millis_ == 0) {
    return "0s";
  }
  const std::string_view sign = millis_ < 0 ? "-" : "";
  const std::uint64_t ms = magnitude_u64(millis_);
  if (ms < 1000) {
    return fmt::format("{}{}ms", sign, ms);
  }

  fmt::memory_buffer out;
  const auto it = std::back_inserter(out);
  const std::uint64_t total_seconds = ms / 1000;
  const std::uint64_t hours = total_seconds / 3600;
  const std::uint64_t minutes = total_seconds / 60 % 60;
  const std::uint64_t seconds = total_seconds % 60;
  fmt::format_to(it, "{}", sign);
  if (hours != 0) {
    fmt::format_to(it, "{}h", hours);
  }
  if (total_seconds >= 60) {
    fmt::format_to(it, "{}m", minutes);
  }
  fmt::format_to(it, "{}", seconds);
  if (const std::uint64_t fraction = ms % 1000; fraction != 0) {
    // Three digits, trailing zeros dropped: 500 -> ".5", 50 -> ".05".
    std::string digits = fmt::format("{:03}", fraction);
    digits.erase(digits.find_last_not_of('0') + 1);
    fmt::format_to(it, ".{}", digits);
  }
  out.push_back('s');
  return fmt::to_string(out);
}

}  // namespace mkq::sema
