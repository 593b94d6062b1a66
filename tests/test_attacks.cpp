// Every fast attack table against its slow ray-walking twin.

#include <catch2/catch.hpp>

#include "movegen/attacks.h"
#include "movegen/magic_numbers.h"

using namespace maharajah;
using namespace maharajah::attacks;

namespace {

// A small deterministic generator so failures reproduce.
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
};

}  // namespace

TEST_CASE("every piece type's attacks equal the slow twin on random occupancies", "[attacks]") {
    init();
    Rng rng{0x1234567ULL};
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        for (int sq = SQ_A1; sq <= SQ_H8; ++sq)
            for (int i = 0; i < 300; ++i) {
                // Vary density: sparse, medium and dense boards.
                Bitboard occ = rng.next();
                if (i % 3 == 0) occ &= rng.next() & rng.next();
                if (i % 3 == 1) occ &= rng.next();
                for (Color c : {WHITE, BLACK}) {
                    Bitboard fast = piece_attacks(PieceType(pt), c, Square(sq), occ);
                    Bitboard slow = slow_attacks(PieceType(pt), c, Square(sq), occ);
                    if (fast != slow) {
                        INFO("piece type " << pt << " square " << sq << " occupancy " << occ);
                        REQUIRE(fast == slow);
                    }
                }
            }
}

TEST_CASE("compile-time attacks_bb agrees with the data-driven attacks()", "[attacks]") {
    init();
    Rng rng{99};
    for (int sq = SQ_A1; sq <= SQ_H8; ++sq)
        for (int i = 0; i < 50; ++i) {
            Square s = Square(sq);
            Bitboard occ = rng.next() & rng.next();
            REQUIRE(attacks_bb<KNIGHT>(s, occ) == piece_attacks(KNIGHT, WHITE, s, occ));
            REQUIRE(attacks_bb<QUEEN>(s, occ) == piece_attacks(QUEEN, WHITE, s, occ));
            REQUIRE(attacks_bb<MAHARAJA>(s, occ) == piece_attacks(MAHARAJA, WHITE, s, occ));
            REQUIRE(attacks_bb<ARCHBISHOP>(s, occ) == piece_attacks(ARCHBISHOP, WHITE, s, occ));
            REQUIRE(attacks_bb<CHANCELLOR>(s, occ) == piece_attacks(CHANCELLOR, WHITE, s, occ));
            REQUIRE(attacks_bb<KING>(s, occ) == piece_attacks(KING, WHITE, s, occ));
        }
}

TEST_CASE("compound pieces attack as the union of their parts", "[attacks]") {
    init();
    // An empty board, Maharaja on d4: 27 queen squares + 8 knight squares.
    REQUIRE(popcount(piece_attacks(MAHARAJA, WHITE, SQ_D4, 0)) == 35);
    REQUIRE(popcount(piece_attacks(ARCHBISHOP, WHITE, SQ_D4, 0)) == 13 + 8);
    REQUIRE(popcount(piece_attacks(CHANCELLOR, WHITE, SQ_D4, 0)) == 14 + 8);
    // The knight part jumps over blockers; the slider part is blocked.
    Bitboard ring = king_attacks(SQ_D4);
    REQUIRE(piece_attacks(CHANCELLOR, WHITE, SQ_D4, ring) == ((ring & rook_attacks(SQ_D4, 0)) | knight_attacks(SQ_D4)));
    REQUIRE(piece_attacks(MAHARAJA, BLACK, SQ_A1, 0) ==
            (rook_attacks(SQ_A1, 0) | bishop_attacks(SQ_A1, 0) | knight_attacks(SQ_A1)));
}

TEST_CASE("between and line tables", "[attacks]") {
    init();
    REQUIRE(between_bb(SQ_A1, SQ_H8) == (bishop_attacks(SQ_A1, 0) & bishop_attacks(SQ_H8, 0)));
    REQUIRE(between_bb(SQ_E1, SQ_H1) == (square_bb(SQ_F1) | square_bb(SQ_G1)));
    REQUIRE(between_bb(SQ_E1, SQ_F3) == 0);  // a knight's distance is no line
    REQUIRE(line_bb(SQ_E1, SQ_E4) == file_bb(FILE_E));
    REQUIRE(line_bb(SQ_B2, SQ_C4) == 0);
    REQUIRE(aligned(SQ_A1, SQ_C3, SQ_H8));
    REQUIRE_FALSE(aligned(SQ_A1, SQ_C3, SQ_H7));
}

TEST_CASE("the stored magic numbers are the ones the finder produces", "[attacks]") {
    for (int sq = SQ_A1; sq <= SQ_H8; ++sq) {
        Square s = Square(sq);
        REQUIRE(find_magic(true, s, magic_seed(true, s)) == RookMagicNumbers[s]);
        REQUIRE(find_magic(false, s, magic_seed(false, s)) == BishopMagicNumbers[s]);
    }
}
