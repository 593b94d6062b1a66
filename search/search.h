#pragma once
// The search: iterative deepening with aspiration windows, principal variation search,
// quiescence, and Lazy SMP threads sharing one transposition table. It never prints:
// progress and the final move go to the Listener's callbacks.

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "board/position.h"
#include "eval/evaluate.h"
#include "search/skill.h"
#include "search/techniques.h"
#include "search/timeman.h"
#include "search/tt.h"

namespace maharajah::search {

// What "go" asked for.
struct Limits {
    std::int64_t wtime = -1, btime = -1, winc = 0, binc = 0;
    bool time_given = false;  // wtime or btime was sent (a negative clock still counts)
    int movestogo = 0, depth = 0, mate = 0;
    std::uint64_t nodes = 0;
    std::uint64_t soft_nodes = 0;  // no new iteration once this many are spent (data generation)
    std::int64_t movetime = 0;
    bool infinite = false, ponder = false;
    std::vector<Move> searchmoves;
};

// Engine settings that come from UCI options.
struct Settings {
    int multipv = 1;
    std::int64_t move_overhead_ms = 10;
    eval::Options eval;
    std::uint32_t disabled = 0;  // bit t set: Technique t is switched off
    Skill skill;                 // a playing level (disabled: full strength)
    bool on(Technique t) const { return !(disabled >> t & 1u); }
};

// One line of progress for one principal variation.
struct Report {
    int depth = 0, seldepth = 0, multipv = 1;
    Value score = 0;
    Bound bound = BOUND_EXACT;  // BOUND_LOWER / BOUND_UPPER while an aspiration window fails
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

struct Listener {
    std::function<void(const Report&)> on_report;
    // Called exactly once per search: MOVE_NONE when there is no legal move.
    std::function<void(Move best, Move ponder)> on_bestmove;
};

class Worker;

// The search threads: a persistent pool (threads are created by set_threads, not per
// search) of Lazy SMP workers sharing one transposition table. Worker 0 is the main
// worker: it reports, decides when to stop and gives the bestmove. Every worker
// watches the clock and the node limit, so the limits hold however many threads
// share however few cores.
// Builds without threads (WebAssembly without pthreads): the search runs on the thread
// that calls start(), which returns after the bestmove; a yield hook set by the host
// runs now and then during the search, so that the host can deliver "stop".
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define MAHARAJAH_SINGLE_THREAD 1
inline constexpr bool SingleThreaded = true;
#else
inline constexpr bool SingleThreaded = false;
#endif

class Engine {
public:
    Engine();
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Waits for a running search first; the new threads have searched once before it
    // returns (see warm_up), so the first "go" finds them ready.
    void set_threads(int n);
    int threads() const { return int(workers_.size()); }
    void resize_hash(std::size_t mb);
    void clear();  // hash and histories (ucinewgame, Clear Hash)

    // Starts searching and returns at once (after a running search has ended). The
    // StateInfo chain behind `root` (the game history) must stay untouched until the
    // search has ended.
    void start(const Position& root, const Limits& limits, const Settings& settings, Listener listener);
    void stop();
    void ponderhit();
    void wait();  // until the search has ended, bestmove was reported and every worker is idle
    bool searching() const;

    std::uint64_t nodes() const;
    TranspositionTable& tt() { return tt_; }

    // Called from the search at most every `interval_ms` (and while "go infinite" waits
    // for stop): the host's chance to run. Needed by single-threaded builds, where a
    // search would otherwise never see "stop"; harmless elsewhere.
    void set_yield_hook(std::function<void()> hook, int interval_ms);
    void yield_now();

    // Internal state shared with the workers.
    std::atomic<bool> stop_{false};
    std::atomic<bool> pondering_{false};
    // Nodes handed out to the workers under a node limit (Worker::check_time).
    std::atomic<std::uint64_t> nodes_granted_{0};

private:
    friend class Worker;
    void thread_loop(int id, std::uint64_t seen);
    void run_main(const Limits& limits, const Listener& listener);
    void join_threads();
    void warm_up();

    TranspositionTable tt_;
    std::function<void()> yield_hook_;
    int yield_interval_ms_ = 50;
    std::chrono::steady_clock::time_point last_yield_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::vector<std::thread> threads_;
    // The pool's state, under mutex_: a job number that advances per search, how many
    // workers are still in the current job, and whether the pool is shutting down.
    // Idle workers wait on job_cv_ only; the main worker and callers of wait() wait on
    // state_cv_ (a finished helper must not wake hundreds of idle ones).
    mutable std::mutex mutex_;
    std::condition_variable job_cv_, state_cv_;
    std::uint64_t job_ = 0;
    int running_ = 0;
    bool quit_ = false;
    struct Job {
        Position root;
        Limits limits;
        Settings settings;
        Listener listener;
        TimeBudget budget;
        std::chrono::steady_clock::time_point start;
    } current_;
};

}  // namespace maharajah::search
