// The one integer reader of commands, options, FENs and seeds (src/core/number.h).

#include <catch2/catch.hpp>
#include <climits>
#include <cstdint>

#include "core/number.h"

using namespace maharajah;

TEST_CASE("parse_number reads a whole word of digits inside the range", "[number]") {
    int v = -7;
    REQUIRE(parse_number("42", 0, 100, v).empty());
    REQUIRE(v == 42);
    REQUIRE(parse_number("+5", 0, 100, v).empty());
    REQUIRE(v == 5);
    REQUIRE(parse_number("-0", 0, 100, v).empty());
    REQUIRE(v == 0);
    REQUIRE(parse_number("-3", -10, 10, v).empty());
    REQUIRE(v == -3);
    long long ll = 0;
    REQUIRE(parse_number("-9223372036854775808", LLONG_MIN, LLONG_MAX, ll).empty());
    REQUIRE(ll == LLONG_MIN);
    REQUIRE(parse_number("9223372036854775807", LLONG_MIN, LLONG_MAX, ll).empty());
    REQUIRE(ll == LLONG_MAX);
    std::uint64_t u = 0;
    REQUIRE(parse_number("18446744073709551615", std::uint64_t(0), ~std::uint64_t(0), u).empty());
    REQUIRE(u == ~std::uint64_t(0));
}

TEST_CASE("parse_number refuses junk and, unless clamping, numbers out of range", "[number]") {
    int v = 9;
    for (const char* bad : {"", "-", "+", "1x", "x1", " 1", "1 ", "0x10", "1.5", "1e3", "--1", "+-1"}) {
        INFO(bad);
        REQUIRE(parse_number(bad, -100, 100, v) == "must be a number from -100 to 100");
        REQUIRE(parse_number(bad, -100, 100, v, OutOfRange::CLAMP) == "must be a number from -100 to 100");
    }
    for (const char* out : {"101", "-101", "99999999999999999999999", "-99999999999999999999999"}) {
        INFO(out);
        REQUIRE(!parse_number(out, -100, 100, v).empty());
    }
    REQUIRE(v == 9);  // unchanged by every refusal
    std::uint64_t u = 3;
    REQUIRE(parse_number("18446744073709551616", std::uint64_t(0), ~std::uint64_t(0), u) ==
            "must be a number from 0 to 18446744073709551615");
    REQUIRE(!parse_number("-1", std::uint64_t(0), ~std::uint64_t(0), u).empty());
    REQUIRE(u == 3);
}

TEST_CASE("parse_number with CLAMP takes the nearest bound", "[number]") {
    long long v = 0;
    REQUIRE(parse_number("99999999999999999999999", -5LL, 5LL, v, OutOfRange::CLAMP).empty());
    REQUIRE(v == 5);
    REQUIRE(parse_number("-99999999999999999999999", -5LL, 5LL, v, OutOfRange::CLAMP).empty());
    REQUIRE(v == -5);
    REQUIRE(parse_number("-6", -5LL, 5LL, v, OutOfRange::CLAMP).empty());
    REQUIRE(v == -5);
    REQUIRE(parse_number("-1", 2LL, 5LL, v, OutOfRange::CLAMP).empty());
    REQUIRE(v == 2);
    REQUIRE(parse_number("1", 2LL, 5LL, v, OutOfRange::CLAMP).empty());
    REQUIRE(v == 2);
    REQUIRE(parse_number("-1", -9LL, -3LL, v, OutOfRange::CLAMP).empty());
    REQUIRE(v == -3);
    REQUIRE(parse_number("4", -9LL, -3LL, v, OutOfRange::CLAMP).empty());
    REQUIRE(v == -3);
    REQUIRE(parse_number("-4", -9LL, -3LL, v).empty());
    REQUIRE(v == -4);
}
