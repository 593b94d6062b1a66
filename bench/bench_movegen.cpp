// Google Benchmark cases for perft, move generation and make/unmake on a fixed set
// of standard and compound-heavy positions. Run: build/maharajah_bench

#include <benchmark/benchmark.h>

#include <vector>

#include "movegen/movegen.h"
#include "movegen/perft.h"

using namespace maharajah;

namespace {

struct BenchPosition {
    const char* name;
    const char* fen;
    int perft_depth;
};

// Standard torture positions and Maharajah positions heavy in compound pieces.
const BenchPosition Positions[] = {
    {"startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4},
    {"endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5},
    {"compound_army", "m1rbk1rm/8/8/8/8/8/8/MPQPKQ1A w - - 0 1 Vv b1d1", 4},
    {"compound_mixed", "aacckcpp/3p4/8/8/8/8/8/MBBAKC1A w - - 0 1 Vv d7g8h8", 4},
    {"compound_middlegame", "nbqrkbcn/p1p1p3/M2p4/5Bp1/8/8/8/2MPKC1P w - - 0 3 Vv d1h1a7c7e7", 4},
    {"pawn_wall", "ppppkppp/pppppppp/pppppppp/pnnpppnn/8/8/PPPPNBRP/BNPQKPRP w - - 0 1", 5},
};

Position setup(const BenchPosition& bp, StateInfo& st) {
    Position pos;
    if (!pos.set(bp.fen, st).empty()) std::abort();
    return pos;
}

void BM_Perft(benchmark::State& state) {
    const BenchPosition& bp = Positions[state.range(0)];
    StateInfo st;
    Position pos = setup(bp, st);
    std::uint64_t nodes = 0;
    for (auto _ : state) nodes += perft(pos, bp.perft_depth);
    state.SetLabel(bp.name);
    state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}

void BM_GenerateLegal(benchmark::State& state) {
    const BenchPosition& bp = Positions[state.range(0)];
    StateInfo st;
    Position pos = setup(bp, st);
    std::size_t moves = 0;
    for (auto _ : state) {
        MoveList<LEGAL> list(pos);
        moves += list.size();
        benchmark::DoNotOptimize(list.begin());
    }
    state.SetLabel(bp.name);
    state.counters["moves/s"] = benchmark::Counter(double(moves), benchmark::Counter::kIsRate);
}

void BM_MakeUnmake(benchmark::State& state) {
    const BenchPosition& bp = Positions[state.range(0)];
    StateInfo st, next;
    Position pos = setup(bp, st);
    MoveList<LEGAL> list(pos);
    std::vector<Move> moves(list.begin(), list.end());
    for (auto _ : state)
        for (Move m : moves) {
            pos.do_move(m, next);
            pos.undo_move(m);
        }
    state.SetLabel(bp.name);
    state.counters["moves/s"] =
        benchmark::Counter(double(state.iterations() * moves.size()), benchmark::Counter::kIsRate);
}

constexpr int PositionCount = int(sizeof(Positions) / sizeof(Positions[0]));

}  // namespace

BENCHMARK(BM_Perft)->DenseRange(0, PositionCount - 1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateLegal)->DenseRange(0, PositionCount - 1);
BENCHMARK(BM_MakeUnmake)->DenseRange(0, PositionCount - 1);

int main(int argc, char** argv) {
    Position::init();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
