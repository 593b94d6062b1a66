#include "search/timeman.h"

#include <algorithm>

#include "search/search.h"

namespace maharajah::search {

TimeBudget plan_time(const Limits& limits, Color us, int game_ply, std::int64_t move_overhead_ms) {
    TimeBudget b;
    if (limits.movetime > 0) {
        b.enabled = true;
        b.optimum_ms = b.maximum_ms =
            std::max<std::int64_t>(1, std::min<std::int64_t>(limits.movetime, std::int64_t(1) << 40) -
                                          std::clamp<std::int64_t>(move_overhead_ms, 0, 5000));
        return b;
    }
    std::int64_t time = us == WHITE ? limits.wtime : limits.btime;
    std::int64_t inc = us == WHITE ? limits.winc : limits.binc;
    if (time < 0 && !limits.time_given) return b;  // no clock for us: depth/nodes/infinite
    b.enabled = true;
    // Clocks beyond 2^40 ms (35 years) are "lots of time"; the arithmetic below then
    // stays far inside 64 bits whatever the GUI sent.
    constexpr std::int64_t MaxTime = std::int64_t(1) << 40;
    time = std::clamp<std::int64_t>(time, 0, MaxTime);
    inc = std::clamp<std::int64_t>(inc, 0, MaxTime);
    move_overhead_ms = std::clamp<std::int64_t>(move_overhead_ms, 0, MaxTime);

    // What we may spend at all: the clock minus the overhead of every move still to
    // come before the next time control (or a horizon of 40 moves), and a margin.
    int moves_to_go = limits.movestogo > 0 ? std::min(limits.movestogo, 50) : 40 - std::min(game_ply / 4, 15);
    std::int64_t reserve = move_overhead_ms * std::min(moves_to_go, 10) + std::min<std::int64_t>(time / 20, 100);
    std::int64_t usable = std::max<std::int64_t>(time - reserve, 1);
    b.optimum_ms = usable / moves_to_go + inc * 3 / 4;
    b.maximum_ms = std::min<std::int64_t>(usable * 7 / 10, b.optimum_ms * 5);
    if (limits.movestogo == 1) b.maximum_ms = usable * 9 / 10;
    b.optimum_ms = std::clamp<std::int64_t>(b.optimum_ms, 1, std::max<std::int64_t>(b.maximum_ms, 1));
    b.maximum_ms = std::max<std::int64_t>(b.maximum_ms, b.optimum_ms);
    return b;
}

double node_time_factor(std::uint64_t best_nodes, std::uint64_t total) {
    if (!total) return 1.0;
    const double fraction = std::min(1.0, double(best_nodes) / double(total));
    return (1.5 - fraction) * 1.4;  // 0.7 when all went to the best move, 2.1 when none did
}

}  // namespace maharajah::search
