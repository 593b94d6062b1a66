// A thread stress test for ThreadSanitizer (scripts/sanitize): the UCI loop driven
// with go/stop/isready/ponderhit/setoption while searches run, in random interleavings
// (fixed seed) with short sleeps. Hidden from the default run; it lasts
// MAHARAJAH_STRESS_SECONDS (default 10) seconds.
//
// Checks at every quiet point: exactly one bestmove per go, each legal in the position
// the go searched, and one readyok per isready.

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <random>
#include <sstream>
#include <thread>

#include "movegen/movegen.h"
#include "protocol/uci.h"

using namespace maharajah;

namespace {

const char* const Setups[] = {
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "position fen 8/8/8/8/8/8/6k1/4K2R w K - 0 1",
    "position army RNBQKBNR/PPPPPPPP rnbqkbnr/pppppppp",
    "position army RAANKBBC/P2PPP1P cabbkaap/pppppp2 moves e2e4",
    "position fen ppppkppp/pppppppp/r2rqr2/8/8/8/PPPPPPPP/RQNBKNBR w KQ - 0 1",
};

const char* const Gos[] = {
    "go infinite",
    "go ponder wtime 200 btime 200",
    "go depth 3",
    "go nodes 3000",
    "go movetime 20",
    "go wtime 100 btime 100 winc 10 binc 10",
    "go wtime 30 btime 30 movestogo 1",
    "go mate 2 nodes 5000",
    "go",  // no limit: runs until stop
};

const char* const Others[] = {
    "isready",
    "stop",
    "ponderhit",
    "d",
    "fen",
    "moves",
    "status",
    "rules",
    "legalmoves",
    "ucinewgame",
    "setoption name Clear Hash",
    "setoption name UCI_ShowWDL value true",
    "setoption name UCI_ShowWDL value false",
    "army check white RNBQKBNR/PPPPPPPP",
};

struct Checker {
    std::vector<std::string> go_fens;  // the position each go searched, in order
    int isready = 0;

    // Reads the output since the last quiet point; the search must be idle.
    void verify(const std::string& output) {
        std::istringstream is(output);
        std::size_t best = 0;
        int ready = 0;
        for (std::string line; std::getline(is, line);) {
            if (line == "readyok") ++ready;
            if (line.rfind("bestmove ", 0) != 0) continue;
            INFO(line);
            REQUIRE(best < go_fens.size());
            std::istringstream w(line);
            std::string word, move;
            w >> word >> move;
            Position pos;
            StateInfo st;
            REQUIRE(pos.set(go_fens[best], st).empty());
            if (move == "(none)")
                REQUIRE(MoveList<LEGAL>(pos).size() == 0);
            else
                REQUIRE(parse_uci_move(pos, move) != MOVE_NONE);
            ++best;
        }
        REQUIRE(best == go_fens.size());
        REQUIRE(ready == isready);
        go_fens.clear();
        isready = 0;
    }
};

}  // namespace

TEST_CASE("the UCI loop survives go, stop, ponderhit and option changes in random interleavings", "[.stress]") {
    const char* env = std::getenv("MAHARAJAH_STRESS_SECONDS");
    const double seconds = env ? std::atof(env) : 10.0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);

    std::ostringstream out;
    Uci uci(out);
    std::mt19937 rng(20261201);
    auto pick = [&](int n) { return int(rng() % unsigned(n)); };
    Checker checker;
    int commands = 0, quiet_points = 0;

    while (std::chrono::steady_clock::now() < deadline) {
        std::string line;
        switch (pick(10)) {
            case 0:
                line = Setups[pick(std::size(Setups))];
                break;
            case 1:
            case 2:
                line = Gos[pick(std::size(Gos))];
                break;
            case 3:
                line = "setoption name Threads value " + std::to_string(1 + pick(8));
                break;
            case 4:
                line = "setoption name Hash value " + std::to_string(1 + pick(8));
                break;
            case 5:
                line = "setoption name MultiPV value " + std::to_string(1 + pick(4));
                break;
            default:
                line = Others[pick(std::size(Others))];
                break;
        }
        if (line.rfind("go", 0) == 0) checker.go_fens.push_back(uci.game().position().fen());
        if (line == "isready") ++checker.isready;
        uci.execute(line);
        ++commands;
        std::this_thread::sleep_for(std::chrono::microseconds(pick(3000)));

        // Now and then a quiet point: stop, wait, and check what was printed.
        if (pick(20) == 0) {
            uci.execute("stop");
            uci.wait_for_search();
            checker.verify(out.str());
            out.str("");
            ++quiet_points;
        }
    }
    uci.execute("stop");
    uci.wait_for_search();
    checker.verify(out.str());
    INFO(commands << " commands, " << quiet_points << " quiet points");
    REQUIRE(commands > 100);
}
