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

}  // namespace maharajah::search
