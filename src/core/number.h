#pragma once
// The one reader of the integers that commands, options, FENs and army seeds carry: a
// whole word of decimal digits after an optional sign, nothing before or after it.

#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

namespace maharajah {

// What a number outside the range does: STRICT refuses it; CLAMP takes the nearest
// bound (however many digits it has), so that only a word that is no number is refused.
enum class OutOfRange { STRICT, CLAMP };

// Reads `text` as an integer from `lo` to `hi` into `out` (unchanged on failure).
// Returns an empty string, or the reason: "must be a number from <lo> to <hi>", which
// callers put after the name of what they read.
template <std::integral T>
std::string parse_number(std::string_view text, T lo, T hi, T& out, OutOfRange range = OutOfRange::STRICT) {
    const std::string refused = "must be a number from " + std::to_string(lo) + " to " + std::to_string(hi);
    std::size_t i = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
    if (i == text.size()) return refused;
    bool negative = text[0] == '-', overflow = false;
    std::uint64_t magnitude = 0;
    constexpr std::uint64_t Max = std::numeric_limits<std::uint64_t>::max();
    for (; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') return refused;
        const unsigned digit = unsigned(text[i] - '0');
        if (magnitude > (Max - digit) / 10)
            overflow = true;
        else
            magnitude = magnitude * 10 + digit;
    }
    if (magnitude == 0 && !overflow) negative = false;  // "-0"
    // |x| of a negative bound, without overflowing at the type's minimum.
    auto magnitude_of = [](T bound) { return std::uint64_t(-(bound + 1)) + 1; };
    bool below, above;
    if (negative) {
        below = std::cmp_greater_equal(lo, 0) || overflow || magnitude > magnitude_of(lo);
        above = std::cmp_less(hi, 0) && !overflow && magnitude < magnitude_of(hi);
    } else {
        below = std::cmp_greater(lo, 0) && !overflow && magnitude < std::uint64_t(lo);
        above = std::cmp_less(hi, 0) || overflow || magnitude > std::uint64_t(hi);
    }
    if ((below || above) && range == OutOfRange::STRICT) return refused;
    if (below)
        out = lo;
    else if (above)
        out = hi;
    else if (negative)
        out = T(-T(magnitude - 1) - 1);
    else
        out = T(magnitude);
    return {};
}

}  // namespace maharajah
