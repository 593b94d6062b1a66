// Google Benchmark cases for evaluation and move ordering (SEE, the move picker) on
// the bench positions. Run: build/maharajah_bench --benchmark_filter='Eval|See|Pick'

#include <benchmark/benchmark.h>

#include <deque>
#include <memory>
#include <vector>

#include "eval/evaluate.h"
#include "movegen/movegen.h"
#include "protocol/bench_positions.h"
#include "search/movepick.h"

using namespace maharajah;

namespace {

// Positions along a fixed line of each bench position, so that the set mixes openings,
// middlegames and endgames of both kinds.
struct Corpus {
    std::deque<StateInfo> states;
    std::vector<Position> positions;
    Corpus() {
        Position::init();
        for (const char* fen : BenchFens) {
            states.emplace_back();
            Position pos;
            if (!pos.set(fen, states.back()).empty()) std::abort();
            for (int ply = 0; ply < 12; ++ply) {
                positions.push_back(pos);
                MoveList<LEGAL> moves(pos);
                if (!moves.size()) break;
                states.emplace_back();
                pos.do_move(*(moves.begin() + (ply * 7) % moves.size()), states.back());
            }
        }
    }
};

const Corpus& corpus() {
    static const Corpus c;
    return c;
}

void BM_Evaluate(benchmark::State& state) {
    const auto& positions = corpus().positions;
    // 0 the hand-written evaluation, 1 material only, 2 the network from scratch (no
    // incremental accumulator: the search's cost is lower).
    const eval::Mode modes[] = {eval::Mode::CLASSICAL, eval::Mode::MATERIAL, eval::Mode::NNUE};
    eval::Options options{modes[state.range(0)]};
    std::size_t n = 0;
    for (auto _ : state)
        for (const Position& pos : positions) {
            benchmark::DoNotOptimize(eval::evaluate(pos, options));
            ++n;
        }
    state.SetLabel(eval::mode_name(options.mode));
    state.counters["evals/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
}

void BM_SeeAllCaptures(benchmark::State& state) {
    const auto& positions = corpus().positions;
    std::size_t n = 0;
    for (auto _ : state)
        for (const Position& pos : positions)
            for (Move m : MoveList<CAPTURES>(pos)) {
                benchmark::DoNotOptimize(search::see_ge(pos, m, 0));
                ++n;
            }
    state.counters["see/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
}

void BM_PickAllMoves(benchmark::State& state) {
    const auto& positions = corpus().positions;
    auto history = std::make_unique<search::History>();
    Move killers[2] = {MOVE_NONE, MOVE_NONE};
    std::size_t n = 0;
    for (auto _ : state)
        for (const Position& pos : positions) {
            search::MovePicker mp(pos, MOVE_NONE, *history, killers, nullptr, nullptr,
                                  pos.attacks_by(~pos.side_to_move()));
            for (Move m; (m = mp.next()) != MOVE_NONE;) ++n;
        }
    state.counters["moves/s"] = benchmark::Counter(double(n), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_Evaluate)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(BM_SeeAllCaptures);
BENCHMARK(BM_PickAllMoves);
