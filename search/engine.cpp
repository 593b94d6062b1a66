// The thread pool around the workers: threads, jobs, stop and ponderhit, and the main
// worker's report of the bestmove.
#include <algorithm>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "movegen/movegen.h"
#include "search/worker.h"

namespace maharajah::search {

Engine::Engine() { set_threads(1); }

Engine::~Engine() {
    stop();
    wait();
    join_threads();
}

void Engine::join_threads() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        quit_ = true;
    }
    job_cv_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
    quit_ = false;
}

void Engine::set_threads(int n) {
    stop();
    wait();
    join_threads();
    n = SingleThreaded ? 1 : std::clamp(n, 1, 256);
    workers_.clear();
    for (int i = 0; i < n; ++i) workers_.push_back(std::make_unique<Worker>(*this, i));
    if (SingleThreaded) return;
    for (int i = 0; i < n; ++i) threads_.emplace_back(&Engine::thread_loop, this, i, job_);
    if (n > 1) warm_up();
}

// New threads search a few plies once, so that each has touched its memory (stack,
// accumulators, tables) before the first "go": first touches by many threads at once
// queue on the process's memory map, and the first search on the clock would pay for
// it (seconds with 64 threads on 2 busy cores). Then hash and histories are cleared.
void Engine::warm_up() {
    StateInfo si;
    Position pos;
    pos.set("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", si);
    Limits limits;
    limits.depth = 3;
    start(pos, limits, Settings{}, Listener{});
    wait();
    clear();
}

void Engine::set_yield_hook(std::function<void()> hook, int interval_ms) {
    yield_hook_ = std::move(hook);
    yield_interval_ms_ = std::max(0, interval_ms);
    last_yield_ = Clock::now();
}

void Engine::yield_now() {
    const auto now = Clock::now();
    if (now - last_yield_ < std::chrono::milliseconds(yield_interval_ms_)) return;
    yield_hook_();
    last_yield_ = Clock::now();
}

// A pool thread: sleeps until a search starts (the job number moves past `seen`, the
// one current when the thread was made), runs its worker's part, and sleeps again.
void Engine::thread_loop(int id, std::uint64_t seen) {
#ifdef __linux__
    // More threads than cores: the extra helpers take the lowest scheduling priority.
    // Otherwise hundreds of busy threads starve the protocol thread (a "stop" would
    // wait its turn behind them) and every other program on the machine; the first
    // threads, one per core, keep theirs, so the search keeps the whole machine.
    if (id > 0 && unsigned(id) >= std::max(1u, std::thread::hardware_concurrency()))
        setpriority(PRIO_PROCESS, pid_t(syscall(SYS_gettid)), 19);
#endif
    while (true) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            job_cv_.wait(lock, [&] { return quit_ || job_ != seen; });
            if (quit_) return;
            seen = job_;
        }
        // The job stays as it is until every worker has left it (start() waits for
        // that), so it is read in place: no copy under the lock, where a helper of
        // the lowest priority, preempted, would hold up the main worker.
        const Job& job = current_;
        // Each worker sets itself up on its own thread: the thread that called start()
        // must not spend CPU time on hundreds of workers (a scheduler then makes it wait
        // its turn behind them, and "stop" would wait with it). A helper that wakes
        // after the search has ended has nothing to do.
        if (id == 0 || !stop_.load(std::memory_order_relaxed)) {
            workers_[id]->prepare(job.root, job.limits, job.settings, job.budget, job.start);
            if (id == 0)
                run_main(job.limits, job.listener);
            else
                workers_[id]->iterative_deepening();
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            --running_;
        }
        state_cv_.notify_all();
    }
}

void Engine::resize_hash(std::size_t mb) {
    stop();
    wait();
    tt_.resize(mb);
}

void Engine::clear() {
    stop();
    wait();
    tt_.clear();
    for (auto& w : workers_) w->clear();
}

std::uint64_t Engine::nodes() const {
    std::uint64_t n = 0;
    for (const auto& w : workers_) n += w->nodes.load(std::memory_order_relaxed);
    return n;
}

void Engine::start(const Position& root, const Limits& limits, const Settings& settings, Listener listener) {
    stop();
    wait();
    stop_ = false;
    pondering_ = limits.ponder;
    tt_.new_search();
    // Counted afresh here, not by each worker as it joins: a helper that joins late (or
    // not at all, when the search has already ended) must not add its last search's nodes.
    for (auto& w : workers_) w->nodes = 0;
    // Each worker's first node comes before its first look at the limit (next_check_ is 1).
    nodes_granted_ = workers_.size();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        current_ = Job{root,
                       limits,
                       settings,
                       std::move(listener),
                       plan_time(limits, root.side_to_move(), root.game_ply(), settings.move_overhead_ms),
                       Clock::now()};
        running_ = int(workers_.size());
        ++job_;
    }
#ifdef MAHARAJAH_SINGLE_THREAD
    // No pool: the one worker searches here and now; "stop" comes through the yield hook.
    last_yield_ = Clock::now();
    Job job = current_;
    workers_[0]->prepare(job.root, job.limits, job.settings, job.budget, job.start);
    run_main(job.limits, job.listener);
    running_ = 0;
#else
    job_cv_.notify_all();
#endif
}

void Engine::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    state_cv_.notify_all();
}

void Engine::ponderhit() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        pondering_ = false;
    }
    state_cv_.notify_all();
}

void Engine::wait() {
    // Single-threaded, a search has always ended when anyone else can call this (the
    // yield hook must not start or wait for searches).
    if (SingleThreaded) return;
    std::unique_lock<std::mutex> lock(mutex_);
    state_cv_.wait(lock, [&] { return running_ == 0; });
}

bool Engine::searching() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return running_ > 0;
}

// The main worker's part of a search: it searches, waits under "go infinite" or
// "go ponder" for stop or ponderhit, stops the helpers, and reports the bestmove.
void Engine::run_main(const Limits& limits, const Listener& listener) {
    Worker& main = *workers_[0];
    Move best = MOVE_NONE, ponder = MOVE_NONE;
    if (main.root_moves.empty()) {
        // No legal move (or none of the searchmoves): mated or stalemated.
        if (listener.on_report) {
            Report r;
            r.score = main.root().in_check() && MoveList<LEGAL>(main.root()).size() == 0 ? mated_in(0) : VALUE_DRAW;
            listener.on_report(r);
        }
    } else {
        main.report = listener.on_report;
        main.iterative_deepening();
    }
    if (SingleThreaded) {
        // The same wait, by yielding to the host (without a hook nothing could end it).
        while (yield_hook_ && !stop_ && (limits.infinite || pondering_)) {
            yield_hook_();
            last_yield_ = Clock::now();
        }
        stop_ = true;
    } else {
        // Under "go infinite" or "go ponder" the answer waits for stop or ponderhit.
        std::unique_lock<std::mutex> lock(mutex_);
        state_cv_.wait(lock, [&] { return stop_ || (!limits.infinite && !pondering_); });
        stop_ = true;
        state_cv_.wait(lock, [&] { return running_ == 1; });  // the helpers have left their search
    }
    if (!main.root_moves.empty()) {
        main.choose_skill_move();
        main.report_final();
        main.report = nullptr;
        best = main.root_moves[0].move;
        if (main.root_moves[0].pv.size() > 1) ponder = main.root_moves[0].pv[1];
    }
    if (listener.on_bestmove) listener.on_bestmove(best, ponder);
}

}  // namespace maharajah::search
