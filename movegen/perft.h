#pragma once
// Perft: counts the leaf nodes of the legal move tree (draw rules ignored). The last
// ply is counted in bulk from the size of the legal move list.

#include <cstdint>
#include <utility>
#include <vector>

#include "board/position.h"

namespace maharajah {

std::uint64_t perft(Position& pos, int depth);

// Per-root-move counts ("divide"), in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace maharajah
