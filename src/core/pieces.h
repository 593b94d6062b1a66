#pragma once
// Pieces described as data. A piece type is a set of movement parts; the attack
// code only knows the parts, so a new compound piece is a new row here.

#include <array>

#include "core/types.h"

namespace maharajah {

// Movement parts. Pawns are handled apart (they move and capture differently).
enum MovePart : int {
    ORTH_SLIDER,  // rook-like rays
    DIAG_SLIDER,  // bishop-like rays
    KNIGHT_LEAP,
    KING_STEP,
    MOVE_PART_NB
};

constexpr unsigned part_bit(MovePart p) { return 1u << p; }

struct PieceInfo {
    char letter;     // upper-case FEN letter ('\0' for NO_PIECE_TYPE)
    unsigned parts;  // bit set of MovePart
    int army_cost;   // points in a custom army (the rules in README.md); the king is free
};

constexpr unsigned ORTH = part_bit(ORTH_SLIDER), DIAG = part_bit(DIAG_SLIDER), LEAP = part_bit(KNIGHT_LEAP),
                   STEP = part_bit(KING_STEP);

constexpr std::array<PieceInfo, PIECE_TYPE_NB> PieceTable = {{
    {'\0', 0, 0},                   // NO_PIECE_TYPE
    {'P', 0, 1},                    // PAWN (special moves)
    {'N', LEAP, 3},                 // KNIGHT
    {'B', DIAG, 3},                 // BISHOP
    {'R', ORTH, 5},                 // ROOK
    {'Q', ORTH | DIAG, 9},          // QUEEN
    {'K', STEP, 0},                 // KING
    {'M', ORTH | DIAG | LEAP, 13},  // MAHARAJA
    {'A', DIAG | LEAP, 6},          // ARCHBISHOP
    {'C', ORTH | LEAP, 8},          // CHANCELLOR
}};

constexpr bool has_part(PieceType pt, MovePart p) { return PieceTable[pt].parts & part_bit(p); }
constexpr bool is_compound(PieceType pt) { return pt >= MAHARAJA; }

// Returns the piece type for an upper- or lower-case letter, NO_PIECE_TYPE if unknown.
constexpr PieceType piece_type_from_char(char ch) {
    char up = (ch >= 'a' && ch <= 'z') ? char(ch - 'a' + 'A') : ch;
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        if (PieceTable[pt].letter == up) return PieceType(pt);
    return NO_PIECE_TYPE;
}

// FEN letter of a piece: upper case for White, lower case for Black.
constexpr char piece_char(Piece pc) {
    char up = PieceTable[type_of(pc)].letter;
    return color_of(pc) == WHITE ? up : char(up - 'A' + 'a');
}

}  // namespace maharajah
