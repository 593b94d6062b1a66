#pragma once
// Bitboard helpers: one bit per square, a1 = bit 0, h8 = bit 63.

#include <bit>
#include <cstdint>

#include "core/types.h"

namespace maharajah {

using Bitboard = std::uint64_t;

constexpr Bitboard FileABB = 0x0101010101010101ULL;
constexpr Bitboard Rank1BB = 0xFFULL;

constexpr Bitboard file_bb(File f) { return FileABB << f; }
constexpr Bitboard rank_bb(Rank r) { return Rank1BB << (8 * r); }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }

// The four ranks of `c`'s own half of the board (White ranks 1-4, Black 5-8).
constexpr Bitboard own_half_bb(Color c) { return c == WHITE ? 0x00000000FFFFFFFFULL : 0xFFFFFFFF00000000ULL; }

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}

template <int D>
constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == NORTH)
        return b << 8;
    else if constexpr (D == SOUTH)
        return b >> 8;
    else if constexpr (D == EAST)
        return (b & ~file_bb(FILE_H)) << 1;
    else if constexpr (D == WEST)
        return (b & ~file_bb(FILE_A)) >> 1;
    else if constexpr (D == NORTH + EAST)
        return (b & ~file_bb(FILE_H)) << 9;
    else if constexpr (D == NORTH + WEST)
        return (b & ~file_bb(FILE_A)) << 7;
    else if constexpr (D == SOUTH + EAST)
        return (b & ~file_bb(FILE_H)) >> 7;
    else if constexpr (D == SOUTH + WEST)
        return (b & ~file_bb(FILE_A)) >> 9;
    else
        static_assert(D == NORTH, "unsupported direction");
}

// Squares attacked by pawns of colour C standing on `b`.
template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard b) {
    return C == WHITE ? shift<NORTH + WEST>(b) | shift<NORTH + EAST>(b)
                      : shift<SOUTH + WEST>(b) | shift<SOUTH + EAST>(b);
}

}  // namespace maharajah
