// Exact quantities and durations (compiler/sema/quantity.h).
//
// Where an expected canonical string comes from: Kubernetes'
// k8s.io/apimachinery/pkg/api/resource — the Quantity doc comment ("1.5 will be
// serialized as 1500m", "1.5Gi will be serialized as 1536Mi"), CanonicalizeBytes
// (BinarySI only for integers with |v| >= 1024, else DecimalSI; zero is "0"),
// AsCanonicalBytes (strip factors of ten, lower the exponent to a multiple of
// three), the suffix table (n u m "" k M G T P E, Ki..Ei) and the tables of
// quantity_test.go (TestQuantityString, TestQuantityParseEmit, TestQuantityParse).
// Cases marked "mkq" are our own extensions or deliberate differences.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "compiler/sema/quantity.h"

namespace {

using mkq::sema::Duration;
using mkq::sema::Quantity;
using mkq::sema::QuantityError;
using mkq::sema::QuantityFormat;

Quantity q(const std::string& text) {
  QuantityError error = QuantityError::None;
  auto parsed = Quantity::parse(text, &error);
  INFO("parsing " << text << ": " << mkq::sema::describe(error));
  REQUIRE(parsed.has_value());
  return *parsed;
}

std::string canon(const std::string& text) { return q(text).to_string(); }

QuantityError parse_error(const std::string& text) {
  QuantityError error = QuantityError::None;
  const auto parsed = Quantity::parse(text, &error);
  INFO("parsing " << text);
  CHECK_FALSE(parsed.has_value());
  return error;
}

using BinaryOp = std::optional<Quantity> (*)(const Quantity&, const Quantity&, QuantityError*);

std::string apply(BinaryOp op, const std::string& a, const std::string& b) {
  QuantityError error = QuantityError::None;
  const auto result = op(q(a), q(b), &error);
  INFO(a << " op " << b << ": " << mkq::sema::describe(error));
  REQUIRE(result.has_value());
  CHECK(error == QuantityError::None);
  return result->to_string();
}

QuantityError apply_error(BinaryOp op, const std::string& a, const std::string& b) {
  QuantityError error = QuantityError::None;
  const auto result = op(q(a), q(b), &error);
  INFO(a << " op " << b);
  CHECK_FALSE(result.has_value());
  return error;
}

std::int64_t ms(const std::string& text) {
  const auto d = Duration::parse(text);
  INFO("parsing duration " << text);
  REQUIRE(d.has_value());
  return d->millis();
}

}  // namespace

TEST_CASE("quantity prints the examples of the brief canonically", "[sema][quantity]") {
  CHECK(canon("36Gi") == "36Gi");
  CHECK(canon("1.5Gi") == "1536Mi");  // Quantity doc comment
  CHECK(canon("500m") == "500m");
  CHECK(canon("1.5") == "1500m");  // Quantity doc comment
  CHECK(canon("9") == "9");
  CHECK(canon("0.5Gi") == "512Mi");
  CHECK(canon("1024") == "1024");  // DecimalSI: 1024 has no factor of ten
  CHECK(canon("1Ki") == "1Ki");
  CHECK(canon("2e3") == "2e3");  // DecimalExponent keeps e-notation (TestQuantityString: 1e3, 3e3)
  CHECK(canon("1000") == "1k");  // TestNewSet: 1000 DecimalSI -> "1k"
  CHECK(canon("0") == "0");
}

TEST_CASE("quantity canonical forms follow Kubernetes' tables", "[sema][quantity]") {
  // TestQuantityParseEmit
  CHECK(canon("1Mi") == "1Mi");
  CHECK(canon("1Gi") == "1Gi");
  CHECK(canon("1024Mi") == "1Gi");
  CHECK(canon("1000M") == "1G");
  CHECK(canon(".001Ki") == "1024m");
  CHECK(canon(".000001Ki") == "1024u");
  CHECK(canon(".000000001Ki") == "1024n");
  // TestQuantityString (the "expect" column, reached through the "alternate" spelling)
  CHECK(canon("307200Ki") == "300Mi");
  CHECK(canon("1025024Mi") == "1001Gi");
  CHECK(canon("1024Gi") == "1Ti");
  CHECK(canon("0.001T") == "1G");
  CHECK(canon("1000u") == "1m");
  CHECK(canon("1.08") == "1080m");
  CHECK(canon("1080000000n") == "1080m");
  CHECK(canon("1234567M") == "1234567M");
  CHECK(canon("3k") == "3k");
  CHECK(canon(".001e12") == "1e9");
  CHECK(canon("0.001e0") == "1e-3");
  CHECK(canon("1000e-12") == "1e-9");
  CHECK(canon("80e-3") == "80e-3");
  CHECK(canon("300e6") == "300e6");
  CHECK(canon("00") == "0");
  CHECK(canon("1n") == "1n");
  CHECK(canon("80n") == "80n");
  CHECK(canon("1080n") == "1080n");
  CHECK(canon("1080u") == "1080u");
  // TestQuantityParse inputs, printed by the canonical rules
  CHECK(canon("1.2e3") == "1200");     // 12e2 -> exponent lowered to 0
  CHECK(canon("1.3E+6") == "1300e3");  // 13e5 -> 1300e3
  CHECK(canon("0.5e-1") == "50e-3");   // 5e-2 -> 50e-3
  CHECK(canon("1.01E") == "1010P");    // E alone is exa: 101e16 -> 1010e15
  CHECK(canon("12E") == "12E");
  CHECK(canon("100.035k") == "100035");
  CHECK(canon("10.035M") == "10035k");
  CHECK(canon("0.0005k") == "500m");
  CHECK(canon("1.") == "1");
  CHECK(canon("1.G") == "1G");
  CHECK(canon("0.5Mi") == "512Ki");
  CHECK(canon("9.01") == "9010m");
  CHECK(canon("-9.01") == "-9010m");  // TestQuantityNeg
}

TEST_CASE("quantity keeps BinarySI only for integers of at least 1024", "[sema][quantity]") {
  // CanonicalizeBytes: |v| < 1024 or a fraction prints as DecimalSI.
  CHECK(canon("1.0009765625Ki") == "1025");  // 1025, BinarySI: no factor of 1024 (TestQuantityString)
  CHECK(canon("0.0048828125Ki") == "5");     // 5, BinarySI (TestQuantityString: "5")
  CHECK(canon("0.5Ki") == "512");
  CHECK(canon("1.5Ki") == "1536");
  CHECK(canon("1.0001Ki") == "1024102400u");  // 1024.1024: not an integer
  CHECK(canon("-1Ki") == "-1Ki");             // -1024 is not strictly inside (-1024, 1024)
  CHECK(canon("0Gi") == "0");
  CHECK(q("0.5Ki").format() == QuantityFormat::BinarySI);
  // ParseQuantity: a binary value strictly between -1 and 1 becomes DecimalSI.
  CHECK(q(".0001Ki").format() == QuantityFormat::DecimalSI);  // 0.1024
  CHECK(q("-.0001Ki").format() == QuantityFormat::DecimalSI);
  CHECK(q(".001Ki").format() == QuantityFormat::BinarySI);         // 1.024
  CHECK(q(".0009765625Ki").format() == QuantityFormat::BinarySI);  // exactly 1
}

TEST_CASE("quantity parsing remembers the notation", "[sema][quantity]") {
  CHECK(q("36Gi").format() == QuantityFormat::BinarySI);
  CHECK(q("500m").format() == QuantityFormat::DecimalSI);
  CHECK(q("9").format() == QuantityFormat::DecimalSI);
  CHECK(q("2e3").format() == QuantityFormat::DecimalExponent);
  CHECK(q("1E-3").format() == QuantityFormat::DecimalExponent);
  CHECK(q("1E").format() == QuantityFormat::DecimalSI);
  CHECK(Quantity::from_int(7).format() == QuantityFormat::DecimalSI);
  CHECK(Quantity().format() == QuantityFormat::DecimalSI);
  CHECK(Quantity().to_string() == "0");
}

TEST_CASE("quantity parses every suffix to its exact value", "[sema][quantity]") {
  CHECK(q("1n") == q("0.000000001"));
  CHECK(q("1u") == q("0.000001"));
  CHECK(q("1m") == q("0.001"));
  CHECK(q("1k") == Quantity::from_int(1000));
  CHECK(q("1M") == Quantity::from_int(1000000));
  CHECK(q("1G") == Quantity::from_int(1000000000));
  CHECK(q("1T") == Quantity::from_int(1000000000000));
  CHECK(q("1P") == Quantity::from_int(1000000000000000));
  CHECK(q("1E") == Quantity::from_int(1000000000000000000));
  CHECK(q("1Ki") == Quantity::from_int(1024));
  CHECK(q("1Mi") == Quantity::from_int(1048576));
  CHECK(q("1Gi") == Quantity::from_int(1073741824));
  CHECK(q("1Ti") == Quantity::from_int(1099511627776));
  CHECK(q("1Pi") == Quantity::from_int(1125899906842624));
  CHECK(q("1Ei") == Quantity::from_int(1152921504606846976));
  CHECK(q("2e3") == Quantity::from_int(2000));
  CHECK(q("2E+3") == Quantity::from_int(2000));
  CHECK(q("1E-3") == q("1m"));
  CHECK(q("+5") == Quantity::from_int(5));
  CHECK(q("-5") == Quantity::from_int(-5));
  CHECK(q(".5") == q("500m"));
  CHECK(q("0000000000000000000000000000000000000000000001") == Quantity::from_int(1));
  CHECK(q("1.000000000000000000000000000000000000000") == Quantity::from_int(1));
  CHECK(q("1" + std::string(100, '0') + "e-100") == Quantity::from_int(1));  // mkq: exact, any length
  CHECK(q("0e999999999999") == Quantity());
  CHECK(q("-0").to_string() == "0");
  CHECK(q("-0").is_negative() == false);
}

TEST_CASE("quantity rejects malformed text", "[sema][quantity][errors]") {
  // quantity_test.go "invalid", plus shapes the mkq lexer can hand over (2e3k, 36GB).
  for (const char* text :
       {"",      "-",      "+",       ".",    "-.",   "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu",  ".5i",
        "1i",    "-3.01i", "-3.01e-", " 1",   "1 ",   "36GB",  "1K",     "1e",    "1e+",   "1E-",   "1e3k",
        "2e3Ki", "1kk",    "Ki",      "1..5", "1.5.", "--1",   "1m30s",  "1h",    "0x10",  "1e1.5", "1\n"}) {
    CHECK(parse_error(text) == QuantityError::Syntax);
  }
  CHECK_FALSE(Quantity::parse("1GB").has_value());  // the error out-parameter is optional
}

TEST_CASE("quantity holds 1n and refuses anything finer", "[sema][quantity][errors]") {
  CHECK(canon("1n") == "1n");
  CHECK(canon("0.000000001") == "1n");
  CHECK(canon("1.000000001") == "1000000001n");
  CHECK(canon("1e-9") == "1e-9");
  CHECK(canon("0.0000000010000") == "1n");  // trailing zeros are not precision
  // Kubernetes rounds these up (0.1n -> 1n); mkq is exact and refuses them.
  CHECK(parse_error("0.1n") == QuantityError::TooPrecise);
  CHECK(parse_error("3.001n") == QuantityError::TooPrecise);
  CHECK(parse_error("1.0000000001") == QuantityError::TooPrecise);
  CHECK(parse_error("1e-10") == QuantityError::TooPrecise);
  CHECK(parse_error("1e-999999999999") == QuantityError::TooPrecise);
  CHECK(parse_error("0.000000000001Ki") == QuantityError::TooPrecise);
  CHECK(parse_error("-0.5n") == QuantityError::TooPrecise);
}

TEST_CASE("quantity range is 10^29 units in magnitude, bound included", "[sema][quantity][errors]") {
  const std::string max = "1" + std::string(29, '0');
  CHECK(canon(max) == "100000000000E");  // mkq: E is the largest suffix
  CHECK(canon("-" + max) == "-100000000000E");
  CHECK(canon("1e29") == "100e27");
  CHECK(canon("99999999999999999999999999999.999999999") == "99999999999999999999999999999999999999n");
  CHECK(parse_error(max + "1") == QuantityError::Overflow);
  CHECK(parse_error("100000000000000000000000000000.000000001") == QuantityError::Overflow);
  CHECK(parse_error("-100000000000000000000000000000.000000001") == QuantityError::Overflow);
  CHECK(parse_error("1e30") == QuantityError::Overflow);
  CHECK(parse_error("2e29") == QuantityError::Overflow);
  CHECK(parse_error("1e999999999999999999999") == QuantityError::Overflow);
  CHECK(parse_error(std::string(200, '9')) == QuantityError::Overflow);
  CHECK(parse_error("100000000000Ei") == QuantityError::Overflow);  // 1.15e29
  CHECK(canon("10000000000Ei") == "10000000000Ei");                 // 1.15e28
  CHECK(parse_error("1e30.5") == QuantityError::Syntax);            // an exponent is an integer
  // Both too large and too fine: too large wins.
  CHECK(parse_error(std::string(40, '9') + ".0000000001") == QuantityError::Overflow);
}

// Whole numbers of at most 18 digits take a shorter path (no digit strings);
// the same values written with more digits take the general one: both agree.
TEST_CASE("quantity reads whole numbers the same on both sides of 18 digits", "[sema][quantity]") {
  const std::string eighteen(18, '9');
  CHECK(q(eighteen) == q("0" + eighteen));
  CHECK(canon(eighteen) == canon("0" + eighteen));
  CHECK(canon("0" + eighteen) == "999999999999999999");
  CHECK(q("100000000000000000G") == q("0100000000000000000G"));  // 10^26
  CHECK(canon("100000000000000000G") == canon("0100000000000000000G"));
  CHECK(q("99999999999999999Ki") == q("099999999999999999Ki"));
  CHECK(q("3Gi").format() == QuantityFormat::BinarySI);
  CHECK(q("0Gi").format() == QuantityFormat::BinarySI);
  CHECK(canon("0Gi") == "0");
  CHECK(q("1e-9") == q("0001e-9"));
  CHECK(q("1e-9").format() == QuantityFormat::DecimalExponent);
  CHECK(q("-5").is_negative());
  CHECK(canon("-999999999999999999k") == "-999999999999999999k");
  CHECK(parse_error("999999999999999999Ei") == QuantityError::Overflow);  // checked product
  CHECK(parse_error("999999999999999999E") == QuantityError::Overflow);
}

TEST_CASE("quantity prints beyond E and Ei with the largest suffix", "[sema][quantity]") {
  // mkq: Kubernetes values stop at 2^63-1, so its suffix tables end at E and Ei.
  CHECK(canon("1000000000000000000000") == "1000E");
  CHECK(canon("1000000E") == "1000000E");
  CHECK(canon("1024Ei") == "1024Ei");
  CHECK(canon("1048576Ei") == "1048576Ei");
  CHECK(canon("1e21") == "1e21");
  CHECK(canon("123456789e20") == "12345678900e18");
}

TEST_CASE("quantity arithmetic is exact and keeps the notation", "[sema][quantity]") {
  CHECK(apply(Quantity::multiply, "100m", "10") == "1");
  CHECK(apply(Quantity::multiply, "2", "16Gi") == "32Gi");
  CHECK(apply(Quantity::add, "8", "500m") == "8500m");
  CHECK(apply(Quantity::add, "1Gi", "512Mi") == "1536Mi");
  CHECK(apply(Quantity::subtract, "1Gi", "1Gi") == "0");
  CHECK(apply(Quantity::add, "1Gi", "1") == "1073741825");
  CHECK(apply(Quantity::subtract, "1Ki", "1") == "1023");
  CHECK(apply(Quantity::add, "2e3", "2e3") == "4e3");
  CHECK(apply(Quantity::add, "2e3", "1") == "2001");
  CHECK(apply(Quantity::multiply, "1e3", "1e3") == "1e6");
  CHECK(apply(Quantity::multiply, "1e3", "2k") == "2M");
  CHECK(apply(Quantity::multiply, "2", "1.5") == "3");
  CHECK(apply(Quantity::multiply, "-3", "2") == "-6");
  CHECK(apply(Quantity::multiply, "-3", "-2") == "6");
  CHECK(apply(Quantity::multiply, "0", "-2") == "0");
  CHECK(apply(Quantity::subtract, "1", "1.5") == "-500m");
  CHECK(apply(Quantity::multiply, "1m", "1m") == "1u");
  CHECK(apply(Quantity::multiply, "1u", "1m") == "1n");
  CHECK(apply(Quantity::multiply, "3", "33333333333333333333333333333") == "99999999999999999999999999999");
  CHECK(apply(Quantity::add, "0.1", "0.2") == "300m");  // no binary floating point anywhere
  CHECK(Quantity::add(q("36Gi"), q("1"), nullptr)->format() == QuantityFormat::BinarySI);
  CHECK(Quantity::add(q("2e3"), q("1"), nullptr)->format() == QuantityFormat::DecimalSI);
  CHECK(Quantity::add(q("2e3"), q("1e3"), nullptr)->format() == QuantityFormat::DecimalExponent);
  CHECK(q("36Gi").negated().to_string() == "-36Gi");
  CHECK(q("-500m").negated().to_string() == "500m");
  CHECK(q("36Gi").negated().format() == QuantityFormat::BinarySI);
}

TEST_CASE("quantity arithmetic reports overflow and lost precision", "[sema][quantity][errors]") {
  const std::string max = "1" + std::string(29, '0');
  CHECK(apply(Quantity::add, max, "-1n") == "99999999999999999999999999999999999999n");
  CHECK(apply_error(Quantity::add, max, "1n") == QuantityError::Overflow);
  CHECK(apply_error(Quantity::subtract, "-" + max, "1n") == QuantityError::Overflow);
  CHECK(apply_error(Quantity::subtract, max, "-" + max) == QuantityError::Overflow);
  CHECK(apply_error(Quantity::add, "-" + max, "-" + max) == QuantityError::Overflow);
  CHECK(apply(Quantity::multiply, "1P", "100T") == "100000000000E");
  CHECK(apply(Quantity::multiply, "-1P", "100T") == "-100000000000E");
  CHECK(apply_error(Quantity::multiply, "1P", "1P") == QuantityError::Overflow);
  CHECK(apply_error(Quantity::multiply, max, max) == QuantityError::Overflow);
  CHECK(apply_error(Quantity::multiply, "-" + max, max) == QuantityError::Overflow);
  CHECK(apply_error(Quantity::multiply, "1n", "1n") == QuantityError::TooPrecise);
  CHECK(apply_error(Quantity::multiply, "1u", "1u") == QuantityError::TooPrecise);
  CHECK(apply_error(Quantity::multiply, "1.5", "1n") == QuantityError::TooPrecise);
}

TEST_CASE("quantity division is exact to 1n or refused", "[sema][quantity]") {
  CHECK(apply(Quantity::divide, "1", "4") == "250m");
  CHECK(apply(Quantity::divide, "1", "8") == "125m");
  CHECK(apply(Quantity::divide, "10", "4") == "2500m");
  CHECK(apply(Quantity::divide, "-10", "4") == "-2500m");
  CHECK(apply(Quantity::divide, "-10", "-4") == "2500m");
  CHECK(apply(Quantity::divide, "36Gi", "2") == "18Gi");
  CHECK(apply(Quantity::divide, "1Gi", "1Ki") == "1Mi");  // BinarySI wins, even for a ratio
  CHECK(apply(Quantity::divide, "1", "1n") == "1G");
  CHECK(apply(Quantity::divide, "1n", "1") == "1n");
  CHECK(apply(Quantity::divide, "1", "512") == "1953125n");
  CHECK(apply(Quantity::divide, "0", "7") == "0");
  CHECK(apply(Quantity::divide, "1" + std::string(29, '0'), "1" + std::string(29, '0')) == "1");
  CHECK(apply(Quantity::divide, "1e20", "1n") == "100000000000E");  // 1n is DecimalSI: it wins over 1e20
  CHECK(apply(Quantity::divide, "1e20", "1e-9") == "100e27");
  CHECK(apply_error(Quantity::divide, "1", "3") == QuantityError::Inexact);
  CHECK(apply_error(Quantity::divide, "1", "1024") == QuantityError::Inexact);  // 0.0009765625
  CHECK(apply_error(Quantity::divide, "1n", "2") == QuantityError::Inexact);
  CHECK(apply_error(Quantity::divide, "1", "0") == QuantityError::DivisionByZero);
  CHECK(apply_error(Quantity::divide, "0", "0") == QuantityError::DivisionByZero);
  CHECK(apply_error(Quantity::divide, "1", "0Gi") == QuantityError::DivisionByZero);
  CHECK(apply_error(Quantity::divide, "1" + std::string(29, '0'), "1n") == QuantityError::Overflow);
  CHECK(apply_error(Quantity::divide, "1e21", "1n") == QuantityError::Overflow);
}

TEST_CASE("quantity modulo takes whole numbers", "[sema][quantity]") {
  CHECK(apply(Quantity::modulo, "7", "3") == "1");
  CHECK(apply(Quantity::modulo, "-7", "3") == "-1");  // truncated, like Go and C++
  CHECK(apply(Quantity::modulo, "7", "-3") == "1");
  CHECK(apply(Quantity::modulo, "6", "3") == "0");
  CHECK(apply(Quantity::modulo, "4Gi", "3") == "1");
  CHECK(apply(Quantity::modulo, "5Gi", "2Gi") == "1Gi");
  CHECK(apply(Quantity::modulo, "2e3", "7") == "5");
  CHECK(apply_error(Quantity::modulo, "7.5", "2") == QuantityError::Inexact);
  CHECK(apply_error(Quantity::modulo, "7", "500m") == QuantityError::Inexact);
  CHECK(apply_error(Quantity::modulo, "7", "0") == QuantityError::DivisionByZero);
  CHECK(apply_error(Quantity::modulo, "0", "0") == QuantityError::DivisionByZero);
}

TEST_CASE("quantity compares by value across notations", "[sema][quantity]") {
  CHECK(q("1Ki") == q("1024"));
  CHECK(q("1Ki") == q("1.024k"));
  CHECK(q("2e3") == q("2k"));
  CHECK(q("1000m") == q("1"));
  CHECK(q("1.5Gi") == q("1536Mi"));
  CHECK(q("1k").compare(q("1Ki")) < 0);
  CHECK(q("1Ki").compare(q("1k")) > 0);
  CHECK(q("1Gi").compare(q("1G")) > 0);
  CHECK(q("-1").compare(q("0")) < 0);
  CHECK(q("0").compare(q("1n")) < 0);
  CHECK(q("-1Ei").compare(q("1n")) < 0);
  CHECK(q("999999999n").compare(q("1")) < 0);
  CHECK(q("1e29").compare(q("99999999999999999999999999999.999999999")) > 0);
  CHECK(q("0Gi") == q("0"));
  CHECK_FALSE(q("1") == q("1.000000001"));
}

TEST_CASE("quantity integer queries", "[sema][quantity]") {
  CHECK(q("3").is_integer());
  CHECK(q("1Gi").is_integer());
  CHECK(q("2e3").is_integer());
  CHECK(q("0").is_integer());
  CHECK_FALSE(q("1.5").is_integer());
  CHECK_FALSE(q("1n").is_integer());
  CHECK(q("-1.5").is_negative());
  CHECK_FALSE(q("1.5").is_negative());
  CHECK(q("0m").is_zero());
  CHECK_FALSE(q("1n").is_zero());
  CHECK(q("-5").to_int64() == std::optional<std::int64_t>(-5));
  CHECK(q("36Gi").to_int64() == std::optional<std::int64_t>(38654705664));
  CHECK(q("9223372036854775807").to_int64() == std::optional<std::int64_t>(INT64_MAX));
  CHECK(q("-9223372036854775808").to_int64() == std::optional<std::int64_t>(INT64_MIN));
  CHECK_FALSE(q("9223372036854775808").to_int64().has_value());
  CHECK_FALSE(q("1e29").to_int64().has_value());
  CHECK_FALSE(q("1.5").to_int64().has_value());
  CHECK(Quantity::from_int(INT64_MIN).to_string() == "-9223372036854775808");
  CHECK(Quantity::from_int(INT64_MAX).to_int64() == std::optional<std::int64_t>(INT64_MAX));
}

TEST_CASE("quantity canonical strings parse back to the same value", "[sema][quantity]") {
  for (const char* text : {"36Gi",
                           "1.5Gi",
                           "500m",
                           "1.5",
                           "9",
                           "0.5Gi",
                           "1024",
                           "1Ki",
                           "2e3",
                           "1000",
                           "0",
                           "-1.5Gi",
                           "1.3E+6",
                           "0.5e-1",
                           "1.01E",
                           "123456789012345678901234567890n",
                           "1e29",
                           "-7.25Ti",
                           "1.0009765625Ki",
                           "1n",
                           "999999999n",
                           "1048576Ei",
                           "1e-9",
                           "80e-3"}) {
    const Quantity original = q(text);
    const std::string printed = original.to_string();
    INFO(text << " printed as " << printed);
    const Quantity again = q(printed);
    CHECK(again == original);
    CHECK(again.to_string() == printed);
  }
}

TEST_CASE("quantity errors describe themselves in lower case", "[sema][quantity][errors]") {
  for (QuantityError e : {QuantityError::None, QuantityError::Syntax, QuantityError::Overflow,
                          QuantityError::TooPrecise, QuantityError::DivisionByZero, QuantityError::Inexact}) {
    const std::string text = mkq::sema::describe(e);
    REQUIRE_FALSE(text.empty());
    CHECK(text.front() >= 'a');
    CHECK(text.front() <= 'z');
    CHECK(text.back() != '.');
  }
  QuantityError error = QuantityError::Syntax;
  CHECK(Quantity::parse("1", &error).has_value());
  CHECK(error == QuantityError::None);  // reset on success
  CHECK(Quantity::divide(q("1"), q("0"), nullptr) == std::nullopt);
}

TEST_CASE("duration parses integer/unit pairs, largest first", "[sema][duration]") {
  CHECK(ms("30d") == 30LL * 86400000);
  CHECK(ms("12h") == 12LL * 3600000);
  CHECK(ms("5min") == 300000);
  CHECK(ms("90s") == 90000);
  CHECK(ms("250ms") == 250);
  CHECK(ms("1h30min") == 5400000);
  CHECK(ms("1d2h3min4s5ms") == 86400000 + 2 * 3600000 + 3 * 60000 + 4000 + 5);
  CHECK(ms("0s") == 0);
  CHECK(ms("1h0min") == 3600000);
  CHECK(ms("90min") == 5400000);
  CHECK(ms("007s") == 7000);
  CHECK(ms("-1h30min") == -5400000);
  CHECK(ms("9223372036854ms") == Duration::kMaxMillis);
  CHECK(ms("106751d") == 106751LL * 86400000);
  CHECK(ms("106751d23h") == 106751LL * 86400000 + 23LL * 3600000);
}

TEST_CASE("duration rejects bad notation and overflow", "[sema][duration][errors]") {
  for (const char* text : {"",
                           "-",
                           "30",
                           "h",
                           "1h1h",
                           "30min1h",
                           "1s1min",
                           "1ms1s",
                           "1m",
                           "1H",
                           "1hour",
                           "1 h",
                           "1.5h",
                           "1h-30min",
                           "1h30",
                           "+1h",
                           "1d 2h",
                           "1min1min",
                           "1sec",
                           "1mins",
                           "h1",
                           "9223372036855ms",
                           "106752d",
                           "99999999999999999999d",
                           "9223372036854ms1ms",
                           "106751d23h48min"}) {
    INFO("duration " << text);
    CHECK_FALSE(Duration::parse(text).has_value());
  }
}

TEST_CASE("duration prints in the language's notation", "[sema][duration]") {
  CHECK(Duration::from_millis(5400000).to_string() == "1h30min");
  CHECK(Duration().to_string() == "0s");
  CHECK(Duration::from_millis(30LL * 86400000).to_string() == "30d");
  CHECK(Duration::from_millis(86400001).to_string() == "1d1ms");
  CHECK(Duration::from_millis(250).to_string() == "250ms");
  CHECK(Duration::from_millis(90000).to_string() == "1min30s");
  CHECK(Duration::from_millis(-5400000).to_string() == "-1h30min");
  CHECK(Duration::from_millis(INT64_MIN).to_string().front() == '-');
  for (const char* text : {"30d", "12h", "5min", "90s", "250ms", "1h30min", "1d2h3min4s5ms", "0s", "-7d"}) {
    const Duration d = *Duration::parse(text);
    CHECK(Duration::parse(d.to_string()) == d);
  }
}

TEST_CASE("duration prints like Go's time.Duration.String", "[sema][duration]") {
  CHECK(Duration::from_millis(15 * 60000).to_go_string() == "15m0s");
  CHECK(Duration::from_millis(30LL * 86400000).to_go_string() == "720h0m0s");
  CHECK(Duration::from_millis(60000).to_go_string() == "1m0s");
  CHECK(Duration::from_millis(500).to_go_string() == "500ms");
  CHECK(Duration::from_millis(5400000).to_go_string() == "1h30m0s");
  CHECK(Duration().to_go_string() == "0s");
  CHECK(Duration::from_millis(1000).to_go_string() == "1s");
  CHECK(Duration::from_millis(1500).to_go_string() == "1.5s");
  CHECK(Duration::from_millis(61250).to_go_string() == "1m1.25s");
  CHECK(Duration::from_millis(3600000 + 120000 + 300).to_go_string() == "1h2m0.3s");  // Go's doc example
  CHECK(Duration::from_millis(3600001).to_go_string() == "1h0m0.001s");
  CHECK(Duration::from_millis(-500).to_go_string() == "-500ms");
  CHECK(Duration::from_millis(-90000).to_go_string() == "-1m30s");
  CHECK(Duration::from_millis(Duration::kMaxMillis).to_go_string() == "2562047h47m16.854s");
}

TEST_CASE("duration compares by length", "[sema][duration]") {
  CHECK(*Duration::parse("90min") == *Duration::parse("1h30min"));
  CHECK(Duration::parse("1h")->compare(*Duration::parse("59min")) > 0);
  CHECK(Duration::parse("1s")->compare(*Duration::parse("1001ms")) < 0);
  CHECK(Duration::parse("1s")->compare(*Duration::parse("1000ms")) == 0);
}
