#pragma once
// Static evaluation, variant-aware and tapered between middlegame and endgame.

#include "board/position.h"

namespace maharajah::eval {

struct Options {
    bool material_only = false;  // a baseline for measuring the full evaluation in games
};

// The evaluation of pos from the side to move's point of view, in centipawns.
Value evaluate(const Position& pos, const Options& options = {});

// Material on the board for c (middlegame values, pawns excluded): the search uses it
// to decide when a null move is too risky.
int non_pawn_material(const Position& pos, Color c);

}  // namespace maharajah::eval
