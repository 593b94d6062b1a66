#pragma once
// Legal move generation. One templated generator serves every mode; all moves it
// emits are legal (pins, checks, en passant and castling are resolved here).

#include <string>

#include "board/position.h"

namespace maharajah {

enum GenType {
    CAPTURES,  // captures and every promotion (the "tactical" moves)
    QUIETS,    // everything else: non-capturing, non-promoting moves and castling
    EVASIONS,  // all legal moves when in check (same as LEGAL, asserted in check)
    LEGAL      // all legal moves
};

// Writes the legal moves of type T to `list` and returns the new end.
template <GenType T>
Move* generate(const Position& pos, Move* list);

template <>
Move* generate<EVASIONS>(const Position& pos, Move* list);

// Whether m is one of the moves generate<LEGAL> emits in pos, without generating them
// (for the hash move, tried before any generation). Any 16-bit value is accepted: a
// hash move may come from another position sharing the entry.
bool is_legal(const Position& pos, Move m);

template <GenType T>
struct MoveList {
    explicit MoveList(const Position& pos) : last(generate<T>(pos, moves)) {}
    const Move* begin() const { return moves; }
    const Move* end() const { return last; }
    std::size_t size() const { return std::size_t(last - moves); }
    bool contains(Move m) const {
        for (Move x : *this)
            if (x == m) return true;
        return false;
    }

private:
    Move moves[MAX_MOVES];
    Move* last;
};

// The legal move written as `uci` (e.g. "e7e8m", castling as "e1g1", in Chess960 as
// the king taking its rook, "e1h1"), or MOVE_NONE.
Move parse_uci_move(const Position& pos, const std::string& uci);

}  // namespace maharajah
