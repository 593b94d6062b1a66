#pragma once
// Zobrist keys. The position key covers pieces, side to move, castling rights,
// the en-passant file and the double-step right of every pawn that still has it.

#include <cstdint>

#include "core/types.h"

namespace maharajah {

using Key = std::uint64_t;

namespace zobrist {

extern Key Psq[PIECE_NB][SQUARE_NB];
extern Key EnPassant[FILE_NB];
extern Key Castling[CASTLING_RIGHT_NB];
extern Key DoubleStep[SQUARE_NB];
extern Key Side;

// Fills the tables from a fixed seed; idempotent.
void init();

}  // namespace zobrist
}  // namespace maharajah
