// The whole UCI command handler, many lines per input (one per '\n'). Anything that
// could run long is bounded before it is executed: every "go" gets a 400-node limit and
// loses infinite/ponder, "go perft" is capped at depth 2, Threads at 2, Hash at 4 MB,
// and "bench" is skipped. Checks: every bestmove line names a move in UCI notation
// (or "(none)"), and there is exactly one bestmove per search started.

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "protocol/uci.h"

using namespace maharajah;
using fuzzcheck::require;

namespace {

constexpr std::size_t MaxLines = 64;
constexpr int MaxSearches = 6;

std::vector<std::string> words(const std::string& line) {
    std::istringstream is(line);
    std::vector<std::string> v;
    for (std::string w; is >> w;) v.push_back(w);
    return v;
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& w : v) s += (s.empty() ? "" : " ") + w;
    return s;
}

// The number at the start of `w` (as std::stoll reads it), or `fallback`.
long long leading_number(const std::string& w, long long fallback) {
    try {
        return std::stoll(w);
    } catch (...) {
        return fallback;
    }
}

// A "go" line with bounded cost: a node limit first (before any searchmoves, which
// swallow the rest of the line), no infinite/ponder, no own nodes/depth/movetime, perft
// depth at most 2.
std::string bounded_go(const std::vector<std::string>& w) {
    std::vector<std::string> out = {"go", "nodes", "400"};
    bool moves = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
        if (moves) {
            out.push_back(w[i]);
            continue;
        }
        if (w[i] == "infinite" || w[i] == "ponder") continue;
        if (w[i] == "nodes" || w[i] == "depth" || w[i] == "movetime") {
            ++i;  // and its value
            continue;
        }
        out.push_back(w[i]);
        if (w[i] == "searchmoves") moves = true;
        if (w[i] == "perft" && i + 1 < w.size() && leading_number(w[i + 1], 0) > 2) out.push_back("2"), ++i;
    }
    return join(out);
}

// A "setoption" line with Threads at most 2 and Hash at most 4 MB.
std::string bounded_setoption(const std::vector<std::string>& w) {
    std::size_t v = 2;
    std::vector<std::string> name;
    while (v < w.size() && w[v] != "value") name.push_back(w[v++]);
    if (w.size() < 2 || w[1] != "name" || v + 1 >= w.size()) return join(w);
    const std::string id = lower(join(name));
    const long long cap = id == "threads" ? 2 : id == "hash" ? 4 : 0;
    if (!cap || leading_number(w[v + 1], 0) <= cap) return join(w);
    return "setoption name " + join(name) + " value " + std::to_string(cap);
}

bool uci_move(const std::string& m) {
    auto file = [](char c) { return c >= 'a' && c <= 'h'; };
    auto rank = [](char c) { return c >= '1' && c <= '8'; };
    if (m.size() != 4 && m.size() != 5) return false;
    if (!file(m[0]) || !rank(m[1]) || !file(m[2]) || !rank(m[3])) return false;
    return m.size() == 4 || std::string("qrbnmac").find(m[4]) != std::string::npos;
}

// The engine's state from earlier inputs is reset so that each input replays alone.
// Threads and Hash reallocate, so they are reset only after an input that set an option
// (`options_changed`); the hash and histories are cleared every time.
void reset(Uci& uci, bool options_changed) {
    if (options_changed)
        for (const char* line : {"setoption name Threads value 1", "setoption name Hash value 1"}) uci.execute(line);
    for (const char* line : {"setoption name MultiPV value 1", "setoption name Move Overhead value 10",
                             "setoption name UCI_ShowWDL value false", "setoption name EvalMode value full",
                             "setoption name Ablate value none", "setoption name UCI_Variant value chess", "ucinewgame",
                             "position startpos"})
        uci.execute(line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static std::ostringstream out;
    static Uci uci(out);
    static bool options_changed = true;
    if (size > 4096) return -1;
    reset(uci, options_changed);
    options_changed = false;
    out.str("");

    std::istringstream in(fuzzcheck::text(data, size));
    std::size_t lines = 0;
    int gos = 0, sure_searches = 0;
    for (std::string line; std::getline(in, line) && lines < MaxLines; ++lines) {
        auto w = words(line);
        if (w.empty()) continue;
        if (w[0] == "bench") continue;
        if (w[0] == "go") {
            if (gos == MaxSearches) continue;
            ++gos;
            line = bounded_go(w);
            // Without a "perft" word anywhere, the go certainly starts a search.
            if (line.find("perft") == std::string::npos) ++sure_searches;
        } else if (w[0] == "setoption") {
            line = bounded_setoption(w);
            options_changed = true;
        }
        if (!uci.execute(line)) break;
    }
    uci.execute("stop");
    uci.wait_for_search();

    std::istringstream printed(out.str());
    int bestmoves = 0;
    for (std::string line; std::getline(printed, line);) {
        auto w = words(line);
        if (w.empty() || w[0] != "bestmove") continue;
        ++bestmoves;
        require(w.size() == 2 || w.size() == 4, "bestmove line with a wrong number of words", line);
        require(w[1] == "(none)" || uci_move(w[1]), "bestmove is not a move", line);
        if (w.size() == 4) require(w[1] != "(none)" && w[2] == "ponder" && uci_move(w[3]), "bad ponder move", line);
    }
    require(bestmoves <= gos, "more bestmove lines than go commands", out.str());
    require(bestmoves >= sure_searches, "a search ended without a bestmove", out.str());
    return 0;
}
