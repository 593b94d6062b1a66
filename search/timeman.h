#pragma once
// Time management: how long to think on this move (a soft target, checked between
// iterations) and how long at most (a hard limit, checked during the search).

#include <cstdint>

#include "core/types.h"

namespace maharajah::search {

struct Limits;

struct TimeBudget {
    std::int64_t optimum_ms = 0;  // stop starting new iterations after about this
    std::int64_t maximum_ms = 0;  // never search longer than this
    bool enabled = false;         // false: no clock (depth, nodes, infinite...)
};

// move_overhead_ms: the GUI's and the pipe's latency per move (UCI "Move Overhead").
// Any input is safe: clocks, increments and movetime are clamped to 2^40 ms.
TimeBudget plan_time(const Limits& limits, Color us, int game_ply, std::int64_t move_overhead_ms);

// How much the soft target stretches for where the nodes went: a best move that took
// nearly all of them is settled (stop sooner), one that took few is contested (think
// longer). best_nodes: nodes spent below the best root move; total: all nodes searched.
double node_time_factor(std::uint64_t best_nodes, std::uint64_t total);

}  // namespace maharajah::search
