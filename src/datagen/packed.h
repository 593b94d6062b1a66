#pragma once
// The training-data record: one position in 64 bytes, with its search score, the best
// move and the game's final result (docs/training.md, "The 64-byte record"). Files of records
// simply concatenate. All fields are little-endian.
//
//   bytes  0- 7  occupied squares (bit s = square s, a1 = 0)
//   bytes  8-47  a 5-bit code per occupied square, in square order, packed from the
//                lowest bit: colour * 16 + piece type (1 pawn .. 9 chancellor), and
//                type 15 for a pawn that still has its double-step right
//   byte  48     bit 0 Black to move, bit 1 White plays variant rules, bit 2 Black
//                does, bits 4-7 castling rights (1 K, 2 Q, 4 k, 8 q)
//   byte  49     en-passant square, 64 for none
//   byte  50     halfmove clock (capped at 255)
//   byte  51     result for White: 0 loss, 1 draw, 2 win
//   bytes 52-53  search score in centipawns, side to move's view (int16)
//   bytes 54-55  best move (the engine's 16-bit encoding, src/core/types.h)
//   bytes 56-57  fullmove number (capped at 65535)
//   bytes 58-63  zero

#include <array>
#include <cstdint>
#include <string>

#include "board/position.h"

namespace maharajah::datagen {

inline constexpr int RecordSize = 64;
using Record = std::array<std::uint8_t, RecordSize>;

enum Result : std::uint8_t { BLACK_WINS = 0, DRAWN = 1, WHITE_WINS = 2 };

// A standard-castling position (no Chess960 rook squares) with a score from the
// side to move's view.
Record pack(const Position& pos, Value score, Move best, Result result);

// The record as a FEN in the engine's dialect (all 8 fields), plus its other fields.
struct Unpacked {
    std::string fen;
    Value score = 0;
    Move best = MOVE_NONE;
    Result result = DRAWN;
};
// Empty fen when the record is malformed (bad codes, counts or squares).
Unpacked unpack(const Record& r);

}  // namespace maharajah::datagen
