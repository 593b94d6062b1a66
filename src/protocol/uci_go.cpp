// "go" (search and perft), the info lines, and "bench".

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/number.h"
#include "movegen/movegen.h"
#include "movegen/perft.h"
#include "protocol/bench_positions.h"
#include "protocol/uci.h"

namespace maharajah {

std::string uci_score(Value v) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return "mate " + std::to_string((VALUE_MATE - v + 1) / 2);
    if (v <= VALUE_MATED_IN_MAX_PLY) return "mate " + std::to_string(-(VALUE_MATE + v) / 2);
    return "cp " + std::to_string(v);
}

namespace {

// Win/draw/loss per mille from a centipawn score: a logistic model whose draw band
// narrows as the score grows (a rough fit to engine self-play; docs/protocol.md, UCI_ShowWDL, mentions the model).
std::string wdl(Value v) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return "1000 0 0";
    if (v <= VALUE_MATED_IN_MAX_PLY) return "0 0 1000";
    auto win = [](double x) { return 1000.0 / (1.0 + std::exp((110.0 - x) / 55.0)); };
    int w = int(std::lround(win(v))), l = int(std::lround(win(-v)));
    return std::to_string(w) + ' ' + std::to_string(1000 - w - l) + ' ' + std::to_string(l);
}

// The moves of a line from `root` in UCI notation. In Chess960 a castling move is
// written with its rook's square, which depends on the position: the line is replayed.
std::string line_to_uci(const Position& root, const std::vector<Move>& line) {
    const bool replay = root.chess960();
    Position pos = root;
    std::vector<StateInfo> states(replay ? line.size() : 0);
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (i) text += ' ';
        text += move_to_uci(pos, line[i]);
        if (replay) pos.do_move(line[i], states[i]);
    }
    return text;
}

// `shown`: the evaluation the search used, whose unit the score is converted from.
std::string format_report(const search::Report& r, bool show_wdl, const Position& root, eval::Mode shown) {
    const Value score = eval::to_reported(r.score, shown);
    std::ostringstream os;
    os << "info depth " << r.depth << " seldepth " << r.seldepth << " multipv " << r.multipv << " score "
       << uci_score(score);
    if (r.bound == search::BOUND_LOWER) os << " lowerbound";
    if (r.bound == search::BOUND_UPPER) os << " upperbound";
    if (show_wdl) os << " wdl " << wdl(score);
    os << " nodes " << r.nodes << " nps " << (r.time_ms > 0 ? r.nodes * 1000 / std::uint64_t(r.time_ms) : r.nodes)
       << " hashfull " << r.hashfull << " time " << r.time_ms;
    if (!r.pv.empty()) os << " pv " << line_to_uci(root, r.pv);
    return os.str();
}

}  // namespace

// Every number "go" takes, clamped to a range the time planning can add and multiply
// without overflow: a huge clock means "lots of time", a huge depth the maximum.
constexpr long long MaxGoTime = 1LL << 40;  // about 35 years in milliseconds

void Uci::cmd_go(std::istringstream& is) {
    search::Limits limits;
    std::string token;
    // Reads the number after `name`: false (with one error line) when it is missing or
    // not a number, or below `lo` (unless `clamp_low`: then it is `lo`); values above `hi`
    // are taken as `hi`.
    auto number = [&](const std::string& name, long long lo, long long hi, long long& out, bool clamp_low = false) {
        std::string word;
        if (!(is >> word)) return error("go: '" + clip(name) + "' needs a number"), false;
        long long v = 0;
        if (!parse_number(word, LLONG_MIN, LLONG_MAX, v, OutOfRange::CLAMP).empty() || (v < lo && !clamp_low)) {
            error("go: '" + clip(name) + "' needs a number" + (lo > 0 ? " >= " + std::to_string(lo) : "") + ", got '" +
                  clip(word) + "'");
            return false;
        }
        out = std::clamp(v, lo, hi);
        return true;
    };
    long long v = 0;
    while (is >> token) {
        // Clocks may be negative (a GUI's late report): they count as "no time left".
        if (token == "wtime" || token == "btime") {
            if (number(token, -MaxGoTime, MaxGoTime, v, true)) {
                (token == "wtime" ? limits.wtime : limits.btime) = v;
                limits.time_given = true;
            }
        } else if (token == "winc" || token == "binc") {
            if (number(token, 0, MaxGoTime, v, true)) (token == "winc" ? limits.winc : limits.binc) = v;
        } else if (token == "movestogo") {
            if (number(token, 0, 1000, v)) limits.movestogo = int(v);
        } else if (token == "depth") {
            if (number(token, 1, MAX_PLY - 12, v)) limits.depth = int(v);
        } else if (token == "nodes") {
            if (number(token, 1, LLONG_MAX / 4, v)) limits.nodes = std::uint64_t(v);
        } else if (token == "mate") {
            if (number(token, 1, 100, v)) limits.mate = int(v);
        } else if (token == "movetime") {
            if (number(token, 1, MaxGoTime, v)) limits.movetime = v;
        } else if (token == "infinite")
            limits.infinite = true;
        else if (token == "ponder")
            limits.ponder = true;
        else if (token == "perft") {
            std::string word;
            if (!(is >> word) || !parse_number(word, 1LL, 20LL, v).empty()) {
                error("go perft: expected a depth from 1 to 20" + (word.empty() ? "" : ", got '" + clip(word) + "'"));
                return;
            }
            std::ostringstream os;
            print_perft(game_.position(), int(v), os);
            std::string text = os.str();
            send(text.substr(0, text.size() - 1));
            return;
        } else if (token == "searchmoves") {
            while (is >> token) {
                Move m = parse_uci_move(game_.position(), token);
                if (m == MOVE_NONE)
                    error("go searchmoves: '" + clip(token) + "' is not a legal move here; ignored");
                else
                    limits.searchmoves.push_back(m);
            }
        } else
            error("go: unknown parameter '" + clip(token) + "'; ignored");
    }

    // A search with no limit at all runs until "stop", like "go infinite" (but it may
    // answer on its own at the maximum depth).
    const bool unlimited = !limits.time_given && !limits.depth && !limits.nodes && !limits.mate && !limits.movetime;
    infinite_search_ = limits.infinite || limits.ponder || unlimited;
    search::Settings settings = settings_;
    // A level (UCI_LimitStrength with any UCI_Elo, or a Skill Level below 20) decides
    // how it searches and chooses (search/skill.h); full strength otherwise.
    settings.skill = search::skill_from_options(limit_strength_, uci_elo_, skill_level_, skill_seed_);
    search::Listener listener;
    const bool show_wdl = show_wdl_;
    // The search's root, to write its moves (its history is the game's, unchanged
    // until the search has ended).
    const Position root = game_.position();
    // Scores are reported in the unit of the evaluation the search resolves to.
    const eval::Mode shown = eval::resolve(search::skill_eval(settings.skill, settings.eval.mode), root);
    listener.on_report = [this, show_wdl, root, shown](const search::Report& r) {
        if (r.depth == 0)
            send("info depth 0 score " + uci_score(eval::to_reported(r.score, shown)));
        else
            send(format_report(r, show_wdl, root, shown));
    };
    listener.on_bestmove = [this, root](Move best, Move ponder) {
        if (best == MOVE_NONE)
            send("bestmove (none)");
        else {
            std::istringstream both(
                line_to_uci(root, ponder ? std::vector<Move>{best, ponder} : std::vector<Move>{best}));
            std::string b, p;
            both >> b >> p;
            send("bestmove " + b + (p.empty() ? "" : " ponder " + p));
        }
    };
    engine_.start(game_.position(), limits, settings, std::move(listener));
}

// bench [hash] [threads] [limit] [fenfile] [limittype], Stockfish's arguments:
// hash in MB (16), threads (1), limit (11), fenfile "default" (the 24 bench positions),
// "current" (the current position) or a file with one FEN per line, limittype "depth",
// "nodes", "movetime" (ms) or "perft". The defaults give the signature commits quote.
void Uci::cmd_bench(std::istringstream& is) {
    std::vector<std::string> args;
    for (std::string w; is >> w;) args.push_back(w);
    const std::string usage =
        "expected 'bench [hash 1-65536] [threads 1-256] [limit] [default|current|<file>] "
        "[depth|nodes|movetime|perft]'";
    if (args.size() > 5) return error("bench: " + usage);
    long long hash = 16, threads = 1, limit = BenchDepth;
    std::string fenfile = args.size() > 3 ? args[3] : "default", type = args.size() > 4 ? args[4] : "depth";
    // A limit of nodes or milliseconds beyond the range is the largest one.
    auto number = [&](std::size_t i, long long lo, long long hi, long long& out, bool clamp_high = false) {
        if (i >= args.size()) return true;
        long long v = 0;
        if (!parse_number(args[i], LLONG_MIN, LLONG_MAX, v, OutOfRange::CLAMP).empty() || v < lo ||
            (v > hi && !clamp_high))
            return false;
        out = std::min(v, hi);
        return true;
    };
    if (type != "depth" && type != "nodes" && type != "movetime" && type != "perft")
        return error("bench: unknown limit type '" + clip(type) + "'; " + usage);
    const bool by_count = type == "depth" || type == "perft";
    const long long max_limit = type == "depth" ? 64 : type == "perft" ? 20 : LLONG_MAX / 4;
    if (!number(0, 1, 65536, hash) || !number(1, 1, 256, threads) || !number(2, 1, max_limit, limit, !by_count))
        return error("bench: " + usage);

    std::vector<std::string> fens;
    if (fenfile == "default")
        fens.assign(std::begin(BenchFens), std::end(BenchFens));
    else if (fenfile == "current")
        fens.push_back(game_.position().fen());
    else {
        std::ifstream file(fenfile);
        if (!file) return error("bench: cannot read '" + clip(fenfile) + "'");
        for (std::string line; std::getline(file, line);)
            if (line.find_first_not_of(" \t\r") != std::string::npos && line[0] != '#') fens.push_back(line);
    }

    // A fresh engine (its own hash, clean histories) so the node count is the same on
    // every run and every machine for the same code with one thread. Only the
    // developer options (EvalMode, Ablate) carry over, to see what they do to the tree.
    search::Engine bench_engine;
    try {
        bench_engine.resize_hash(std::size_t(hash));
    } catch (const std::bad_alloc&) {
        return error("bench: not enough memory for a " + std::to_string(hash) + " MB hash");
    }
    bench_engine.set_threads(int(threads));
    search::Settings settings;
    settings.eval = settings_.eval;
    settings.disabled = settings_.disabled;
    std::uint64_t total_nodes = 0;
    auto start = std::chrono::steady_clock::now();
    int index = 0;
    for (const std::string& fen : fens) {
        ++index;
        Game game;
        std::string problem = game.set(fen, {});
        if (!problem.empty()) return error("bench: position " + std::to_string(index) + ": " + problem);
        std::cerr << "Position: " << index << '/' << fens.size() << " (" << fen << ")" << std::endl;
        if (type == "perft") {
            for (auto [m, n] : perft_divide(game.position(), int(limit))) total_nodes += n;
            continue;
        }
        search::Limits limits;
        if (type == "depth")
            limits.depth = int(limit);
        else if (type == "nodes")
            limits.nodes = std::uint64_t(limit);
        else
            limits.movetime = limit;
        search::Listener listener;
        const eval::Mode shown = eval::resolve(settings.eval.mode, game.position());
        listener.on_report = [this, &game, shown](const search::Report& r) {
            if (r.depth > 0) send(format_report(r, false, game.position(), shown));
        };
        bench_engine.start(game.position(), limits, settings, listener);
        bench_engine.wait();
        total_nodes += bench_engine.nodes();
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream os;
    os << "\n===========================\n"
       << "Total time (ms) : " << ms << "\nNodes searched  : " << total_nodes
       << "\nNodes/second    : " << total_nodes * 1000 / std::uint64_t(std::max<long long>(ms, 1));
    send(os.str());
}

}  // namespace maharajah
