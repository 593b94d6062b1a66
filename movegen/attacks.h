#pragma once
// Attack tables: leaper tables, the two magic slider tables (rook, bishop), and
// one attacks() that combines them by movement part. Compound pieces need no table
// of their own: their attacks are unions of their parts.

#include "core/bitboard.h"
#include "core/pieces.h"
#include "core/types.h"

namespace maharajah::attacks {

// Builds every table. Idempotent and thread-safe (a static initialiser); call it
// before any lookup. Takes a few milliseconds.
void init();

struct Magic {
    Bitboard mask;
    Bitboard magic;
    Bitboard* table;
    unsigned shift;
    unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};

extern Magic RookMagics[SQUARE_NB];
extern Magic BishopMagics[SQUARE_NB];
extern Bitboard KnightAttacks[SQUARE_NB];
extern Bitboard KingAttacks[SQUARE_NB];
extern Bitboard PawnAttacks[COLOR_NB][SQUARE_NB];
extern Bitboard BetweenBB[SQUARE_NB][SQUARE_NB];
extern Bitboard LineBB[SQUARE_NB][SQUARE_NB];

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
    const Magic& m = RookMagics[s];
    return m.table[m.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
    const Magic& m = BishopMagics[s];
    return m.table[m.index(occupied)];
}
inline Bitboard knight_attacks(Square s) { return KnightAttacks[s]; }
inline Bitboard king_attacks(Square s) { return KingAttacks[s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return PawnAttacks[c][s]; }

// Squares strictly between a and b when they share a rank, file or diagonal; else 0.
inline Bitboard between_bb(Square a, Square b) { return BetweenBB[a][b]; }
// The whole line through a and b (edge to edge) when aligned; else 0.
inline Bitboard line_bb(Square a, Square b) { return LineBB[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

// Attacks of a non-pawn piece type, known at compile time (the hot paths).
template <PieceType Pt>
inline Bitboard attacks_bb(Square s, Bitboard occupied) {
    static_assert(Pt != PAWN && Pt != NO_PIECE_TYPE);
    Bitboard b = 0;
    if constexpr (has_part(Pt, ORTH_SLIDER)) b |= rook_attacks(s, occupied);
    if constexpr (has_part(Pt, DIAG_SLIDER)) b |= bishop_attacks(s, occupied);
    if constexpr (has_part(Pt, KNIGHT_LEAP)) b |= knight_attacks(s);
    if constexpr (has_part(Pt, KING_STEP)) b |= king_attacks(s);
    return b;
}

// Attacks of any piece type of colour c from s (pawns: their capture squares).
Bitboard piece_attacks(PieceType pt, Color c, Square s, Bitboard occupied);

// Searches a magic number for a slider on s (a fixed seed gives a fixed answer). The
// engine uses stored numbers (movegen/magic_numbers.h) so that it starts at once;
// scripts/tools/find-magics prints them again, and a test checks every stored one.
Bitboard find_magic(bool orthogonal, Square s, std::uint64_t seed);
// The seed each stored number was found with.
constexpr std::uint64_t magic_seed(bool orthogonal, Square s) { return 0x6D61676963ULL + 64 * orthogonal + s; }

// The slow twins: ray walking, used to build the tables and by the tests.
Bitboard slow_slider_attacks(bool orthogonal, Square s, Bitboard occupied);
Bitboard slow_attacks(PieceType pt, Color c, Square s, Bitboard occupied);

}  // namespace maharajah::attacks
