#pragma once
// The search worker, shared by search.cpp (the tree search, one worker's iterative
// deepening) and engine.cpp (the thread pool that runs the workers). Internal to the
// search library: hosts use search.h.

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "eval/evaluate.h"
#include "eval/nnue.h"
#include "search/movepick.h"
#include "search/search.h"
#include "search/timeman.h"

namespace maharajah::search {

using Clock = std::chrono::steady_clock;

enum NodeType { NON_PV, PV, ROOT };

struct Stack;  // one ply of the search's stack (search.cpp)

struct RootMove {
    Move move;
    Value score = -VALUE_INFINITE, previous_score = -VALUE_INFINITE;
    Bound bound = BOUND_EXACT;
    int seldepth = 0;
    std::vector<Move> pv;
    std::uint64_t effort = 0;                  // nodes searched below this move, every iteration so far
    bool operator<(const RootMove& o) const {  // sorts best first
        return score != o.score ? score > o.score : previous_score > o.previous_score;
    }
};

class Worker {
public:
    Worker(Engine& engine, int id) : engine_(engine), id_(id) {}

    void prepare(const Position& root, const Limits& limits, const Settings& settings, TimeBudget budget,
                 Clock::time_point start);
    void iterative_deepening();
    void clear() { history_.clear(); }

    // The search's final report: when the best line comes from an iteration that was
    // stopped before it printed (or a playing level chose another candidate), it is
    // printed now, so that the bestmove and the ponder move are always the first two
    // moves of the last PV printed.
    void report_final();
    // A playing level's choice among its candidates, moved to the front of root_moves.
    void choose_skill_move();
    const Position& root() const { return root_; }

    std::atomic<std::uint64_t> nodes{0};
    std::vector<RootMove> root_moves;
    int completed_depth = 0;
    std::function<void(const Report&)> report;

private:
    template <NodeType NT>
    Value search(Position& pos, Stack* ss, Value alpha, Value beta, int depth, bool cut_node);
    template <NodeType NT>
    Value qsearch(Position& pos, Stack* ss, Value alpha, Value beta, int depth);
    bool is_draw(const Position& pos, int ply) const;
    // Moves made and unmade in the tree also move the network's accumulator stack.
    void make_move(Position& pos, Move m, StateInfo& st) {
        // The child's hash entry is fetched from memory while the move is made.
        engine_.tt().prefetch(pos.key_after(m));
        pos.do_move(m, st);
        nnue_.push(pos, m);
    }
    void unmake_move(Position& pos, Move m) {
        pos.undo_move(m);
        nnue_.pop();
    }
    Value evaluate(const Position& pos) {
        Value v;
        switch (settings_.eval.mode) {
            case eval::Mode::NNUE:
                v = nnue_.evaluate(pos, settings_.eval.network());
                break;
            case eval::Mode::HYBRID:
                v = eval::hybrid(nnue_.evaluate(pos, settings_.eval.network()),
                                 eval::evaluate(pos, eval::Options{eval::Mode::CLASSICAL}));
                break;
            default:
                v = eval::evaluate(pos, settings_.eval);
        }
        // Fifty-move damping: an advantage that has made no capture or pawn move for a
        // while is worth less (the fifty-move rule draws it eventually), so the search
        // prefers lines that make progress over shuffling. Full at a capture or pawn
        // move, half when the draw can be claimed.
        if (settings_.on(FIFTY_DAMPING))
            v = Value(v * (FiftyDampSpan - std::min(pos.rule50_count(), 100)) / FiftyDampSpan);
        return v;
    }
    static constexpr int FiftyDampSpan = 200;
    // Counts the node, looks at the clock every 1024 nodes, starts a PV node's line.
    template <bool PvNode>
    void enter_node(Stack* ss);
    void check_time();
    // True once the search must unwind. The main worker finishes its first iteration
    // whatever happens (a few dozen nodes), so there is always a printed PV to play.
    bool stopping() const { return engine_.stop_.load(std::memory_order_relaxed) && (!main() || completed_depth > 0); }
    void update_quiet_stats(const Position& pos, Stack* ss, Move m, int bonus);
    void emit(int depth, Value alpha, Value beta, int pv_index);
    std::int64_t elapsed_ms() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_).count();
    }
    bool main() const { return id_ == 0; }

    Engine& engine_;
    int id_;
    Position root_;
    Limits limits_;
    Settings settings_;
    TimeBudget budget_;
    Clock::time_point start_;
    History history_;
    PieceToHistory sentinel_{};  // continuation history of "no move" (root, null move)
    nnue::AccumulatorStack nnue_;
    int seldepth_ = 0, root_depth_ = 0, pv_index_ = 0;
    int nmp_min_ply_ = 0;
    Color nmp_color_ = WHITE;
    std::uint64_t next_check_ = 0;
    int search_multipv_ = 1;           // lines searched as PVs (more than reported for a playing level)
    std::vector<Move> last_reported_;  // the last first-line PV printed (main worker)
};

}  // namespace maharajah::search
