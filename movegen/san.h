#pragma once
// Standard algebraic notation (SAN) for both chess and Maharajah: piece letters
// K Q R B N M A C, pawn moves without a letter, disambiguation by file, then rank, then
// both (only among pieces of the same letter), "x" for captures, "=M" for promotions,
// "+" / "#" for check and mate, "O-O" / "O-O-O" for castling (Chess960 included).
// Also the per-move facts a board UI needs (capture, en passant, castling rook,
// promotion, check, mate).

#include <string>
#include <string_view>
#include <vector>

#include "board/position.h"

namespace maharajah {

// The SAN of legal move m in pos, with its check or mate suffix.
std::string move_to_san(const Position& pos, Move m);

// Reads one SAN move. Accepts what people and other tools write: a missing or extra
// "+" / "#", annotations ("!", "?", "!?"), "0-0" and "0-0-0", promotions with or
// without "=" (either case), "x" or ":" or nothing for captures, a "-" between origin and
// destination, a redundant disambiguation, and a lower-case piece letter where it
// cannot be read as a pawn's file. Returns the legal move, or MOVE_NONE with the reason
// in *error ("no legal move", "ambiguous: ...", "not a move").
Move parse_san(const Position& pos, std::string_view san, std::string* error = nullptr);

// What a legal move does, for highlights, sounds and animations.
struct MoveFacts {
    bool capture = false;  // a piece is taken (en passant included)
    bool en_passant = false;
    bool castling = false;  // then the rook goes rook_from -> rook_to
    Square rook_from = SQ_NONE, rook_to = SQ_NONE;
    bool promotion = false;
    bool check = false;  // the move gives check
    bool mate = false;   // ... and checkmate
};
MoveFacts move_facts(const Position& pos, Move m);

}  // namespace maharajah
