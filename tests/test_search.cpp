// The search through the UCI loop: exactly one legal bestmove per go, mates and
// stalemates, infinite and ponder searches that wait for stop/ponderhit, limits,
// MultiPV, searchmoves, threads, and a deterministic bench.

#include <catch2/catch.hpp>
#include <chrono>
#include <climits>
#include <sstream>
#include <thread>

#include "movegen/movegen.h"
#include "protocol/uci.h"
#include "search/params.h"
#include "search/search.h"
#include "search/timeman.h"
#include "support/uci_session.h"

using namespace maharajah;

namespace {

using Session = testsupport::UciSession;

std::vector<std::string> bestmoves(const std::vector<std::string>& lines) {
    std::vector<std::string> v;
    for (const auto& l : lines)
        if (l.rfind("bestmove", 0) == 0) v.push_back(l);
    return v;
}

// The "Nodes searched  : N" line of a bench run (empty when missing).
std::string nodes_of(const std::vector<std::string>& lines) {
    for (const auto& l : lines)
        if (l.rfind("Nodes searched  : ", 0) == 0) return l;
    return std::string();
}

// The FEN and moves of a "position ..." command.
std::pair<std::string, std::vector<std::string>> parse_setup(const std::string& setup) {
    std::istringstream ss(setup);
    std::string cmd, kind;
    ss >> cmd >> kind;
    std::string fen = StartFen, token;
    std::vector<std::string> moves;
    if (kind == "fen") {
        fen.clear();
        while (ss >> token && token != "moves") fen += (fen.empty() ? "" : " ") + token;
    } else
        ss >> token;
    while (ss >> token) moves.push_back(token);
    return {fen, moves};
}

// The move of a "bestmove X [ponder Y]" line is legal in the position after `setup`.
bool legal_bestmove(const std::string& setup, const std::string& line) {
    std::istringstream is(line);
    std::string word, move;
    is >> word >> move;
    auto [fen, moves] = parse_setup(setup);
    Game g;
    REQUIRE(g.set(fen, moves) == "");
    return parse_uci_move(g.position(), move) != MOVE_NONE;
}

// Every "info ... pv m1 m2 ..." line holds a legal sequence of moves after `setup`.
void require_legal_pvs(const std::string& setup, const std::vector<std::string>& lines) {
    auto [fen, moves] = parse_setup(setup);
    for (const auto& l : lines) {
        auto at = l.find(" pv ");
        if (l.rfind("info ", 0) != 0 || at == std::string::npos) continue;
        std::istringstream pv(l.substr(at + 4));
        std::vector<std::string> line = moves;
        for (std::string m; pv >> m;) line.push_back(m);
        Game g;
        INFO(l);
        REQUIRE(g.set(fen, line) == "");
    }
}

}  // namespace

TEST_CASE("go depth gives one legal bestmove with info lines", "[search]") {
    const char* setups[] = {
        "position startpos",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5",
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "position fen m1rbk1rm/8/8/8/8/8/8/MPQPKQ1A w - - 0 1 Vv b1d1",
        "position fen 1pnbkppq/2arpb2/1Pp1P3/3P4/r1P2PP1/PP2PPPP/PPPPAPPP/PAPPKPPP b - b5 0 5 Vv "
        "a1c1d1f1g1h1a2b2c2d2f2g2h2a3b3e3f3g3h3f4g4e7b8f8g8",
    };
    for (const char* setup : setups) {
        Session s;
        auto lines = s.run(std::string(setup) + "\ngo depth 7\n");
        auto best = bestmoves(lines);
        INFO(setup);
        REQUIRE(best.size() == 1);
        REQUIRE(legal_bestmove(setup, best[0]));
        require_legal_pvs(setup, lines);
        REQUIRE(std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
                    return l.rfind("info depth 7 seldepth", 0) == 0 && l.find(" pv ") != std::string::npos;
                }) >= 1);
    }
}

TEST_CASE("mates are found and scored in moves", "[search]") {
    Session s;
    auto lines = s.run("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1\ngo depth 6\n");
    REQUIRE(bestmoves(lines) == std::vector<std::string>{"bestmove h1h8"});
    REQUIRE(lines[lines.size() - 2].find("score mate 1 ") != std::string::npos);
    // Mate in two with a compound piece (the archbishop's knight part).
    lines = s.run("position fen 1k6/8/1K6/8/8/8/8/5A2 w - - 0 1 V -\ngo depth 8\n");
    REQUIRE(lines[lines.size() - 2].find("score mate 2 ") != std::string::npos);
    require_legal_pvs("position fen 1k6/8/1K6/8/8/8/8/5A2 w - - 0 1 V -", lines);
    // Deeper, a PV node's scout fails high on the mate without a PV re-search: its
    // line must still be legal (it once ended in a stale tail from a sibling).
    lines = s.run("position fen 1k6/8/1K6/8/8/8/8/5A2 w - - 0 1 V -\ngo depth 10\n");
    REQUIRE(lines[lines.size() - 2].find("score mate 2 ") != std::string::npos);
    require_legal_pvs("position fen 1k6/8/1K6/8/8/8/8/5A2 w - - 0 1 V -", lines);
    // The side to move is mated: it says so.
    lines = s.run("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1 moves h1h8\ngo depth 3\n");
    REQUIRE(lines == std::vector<std::string>{"info depth 0 score mate 0", "bestmove (none)"});
    lines = s.run("position fen k7/8/1Q6/8/8/8/8/7K b - - 0 1\ngo depth 3\n");
    REQUIRE(lines == std::vector<std::string>{"info depth 0 score cp 0", "bestmove (none)"});
}

TEST_CASE("a mate is reported only when the fifty-move counter leaves room for it", "[search]") {
    // A game that comes back to the same position with ever higher counters: the hash
    // keeps the mates found before, whose distance was measured without the counter. A
    // mate in N moves is 2N - 1 plies away: the mated position's counter must stay at 100
    // or below (at 80, the mates in 11 or more the hash holds are draws).
    Session s;
    int mates = 0;
    for (int counter : {0, 50, 70, 80, 85}) {
        INFO("counter " << counter);
        auto lines = s.run("position fen 8/8/3k4/8/8/2K5/8/7Q w - - " + std::to_string(counter) + " 80\ngo depth 16\n");
        const auto infos = testsupport::starting_with(lines, "info depth 16 ");
        REQUIRE(!infos.empty());
        const std::string& last = infos.back();
        INFO(last);
        const auto at = last.find(" score mate ");
        if (at == std::string::npos) continue;
        const int moves = std::stoi(last.substr(at + 12));
        REQUIRE(moves > 0);
        REQUIRE(counter + 2 * moves - 1 <= 100);
        ++mates;
    }
    REQUIRE(mates >= 3);  // the hash did hold mates, from the first search on
}

TEST_CASE("go infinite and go ponder answer only after stop or ponderhit", "[search]") {
    Session s;
    s.uci.execute("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1");
    s.uci.execute("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    s.uci.execute("isready");
    auto lines = s.lines();
    REQUIRE(std::find(lines.begin(), lines.end(), "readyok") != lines.end());
    REQUIRE(bestmoves(lines).empty());  // a mate was found long ago, but no bestmove yet
    s.uci.execute("stop");
    s.uci.wait_for_search();
    REQUIRE(bestmoves(s.lines()) == std::vector<std::string>{"bestmove h1h8"});

    Session p;
    p.uci.execute("position startpos moves e2e4");
    p.uci.execute("go ponder wtime 50 btime 50");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // past its whole clock
    REQUIRE(bestmoves(p.lines()).empty());
    p.uci.execute("ponderhit");
    p.uci.wait_for_search();
    auto best = bestmoves(p.lines());
    REQUIRE(best.size() == 1);
    REQUIRE(legal_bestmove("position startpos moves e2e4", best[0]));
}

TEST_CASE("limits: nodes, movetime, tiny or negative clocks, searchmoves", "[search]") {
    const char* gos[] = {"go nodes 5000",
                         "go movetime 50",
                         "go wtime 0 btime 0",
                         "go wtime -200 btime 100 winc 0",
                         "go wtime 30 btime 30 movestogo 1",
                         "go depth 4 mate 2"};
    for (const char* go : gos) {
        Session s;
        auto best = bestmoves(s.run(std::string("position startpos moves d2d4\n") + go + "\n"));
        INFO(go);
        REQUIRE(best.size() == 1);
        REQUIRE(legal_bestmove("position startpos moves d2d4", best[0]));
    }
    Session s;
    auto lines = s.run("position startpos\ngo depth 5 searchmoves a2a3 h2h3\n");
    auto best = bestmoves(lines);
    REQUIRE(best.size() == 1);
    REQUIRE((best[0].rfind("bestmove a2a3", 0) == 0 || best[0].rfind("bestmove h2h3", 0) == 0));
    lines = s.run("position startpos\ngo depth 2 searchmoves e2e5\n");
    REQUIRE(lines.front() == "info string error: go searchmoves: 'e2e5' is not a legal move here; ignored");
    REQUIRE(bestmoves(lines).size() == 1);
    lines = s.run("go depth x\n");
    REQUIRE(lines.front().rfind("info string error: go: 'depth' needs a number", 0) == 0);
    REQUIRE(bestmoves(lines).size() == 1);
}

TEST_CASE("MultiPV reports several lines, Threads 2 searches, options are checked", "[search]") {
    Session s;
    REQUIRE(s.run("setoption name MultiPV value 3\nsetoption name Hash value 8\nsetoption name Threads value 2\n"
                  "setoption name UCI_ShowWDL value true\n")
                .empty());
    auto lines = s.run("position startpos\ngo depth 6\n");
    for (int pv = 1; pv <= 3; ++pv) {
        std::string tag = "info depth 6 seldepth";
        REQUIRE(std::count_if(lines.begin(), lines.end(), [&](const std::string& l) {
                    return l.rfind(tag, 0) == 0 &&
                           l.find(" multipv " + std::to_string(pv) + " ") != std::string::npos &&
                           l.find(" wdl ") != std::string::npos;
                }) >= 1);
    }
    REQUIRE(bestmoves(lines).size() == 1);
    REQUIRE(s.run("setoption name Threads value 0\n").front().rfind("info string error: setoption: Threads", 0) == 0);
    REQUIRE(s.run("setoption name Hash value lots\n").front().rfind("info string error: setoption: Hash", 0) == 0);
    REQUIRE(s.run("setoption name Clear Hash\nucinewgame\nisready\n") == std::vector<std::string>{"readyok"});
}

TEST_CASE("bench is deterministic", "[search][bench]") {
    Session a, b;
    std::string first = nodes_of(a.run("bench 16 1 4\n"));
    REQUIRE(!first.empty());
    REQUIRE(first == nodes_of(b.run("setoption name Threads value 2\nposition startpos moves e2e4\nbench 16 1 4\n")));
}

TEST_CASE("Ablate switches single search techniques off, for measuring them in matches", "[search][options]") {
    Session s;
    // Depth 8: singular extensions start at depth 7 below the root.
    const std::string full = nodes_of(s.run("bench 16 1 8\n"));
    REQUIRE(!full.empty());
    // Every technique, switched off alone, changes the searched tree (so the switch is
    // wired to something), and the engine still plays a legal, mating move.
    // (nodetime decides only when a search on a clock stops, so a depth-limited tree is
    // the same with it: the test of node_time_factor covers it.)
    for (const char* name : search::TechniqueName) {
        INFO(name);
        REQUIRE(s.run(std::string("setoption name Ablate value ") + name + "\n").empty());
        std::string off = nodes_of(s.run("bench 16 1 8\n"));
        REQUIRE(!off.empty());
        if (std::string(name) == "nodetime")
            REQUIRE(off == full);
        else
            REQUIRE(off != full);
        auto lines = s.run("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1\ngo depth 5\n");
        REQUIRE(bestmoves(lines) == std::vector<std::string>{"bestmove h1h8"});
    }
    REQUIRE(s.run("setoption name Ablate value nmp,LMR\n").empty());
    const std::string two = nodes_of(s.run("bench 16 1 8\n"));
    // A bad list is refused whole: the previous setting stays.
    auto err = s.run("setoption name Ablate value nmp,nonsense\n");
    REQUIRE(err.size() == 1);
    REQUIRE(err[0].rfind("info string error: setoption: Ablate: unknown technique 'nonsense'", 0) == 0);
    REQUIRE(nodes_of(s.run("bench 16 1 8\n")) == two);
    REQUIRE(s.run("setoption name Ablate value none\n").empty());
    REQUIRE(nodes_of(s.run("bench 16 1 8\n")) == full);
}

// The last "score cp N" of a search's info lines (INT_MIN when there is none).
static int last_cp(const std::vector<std::string>& lines) {
    int cp = INT_MIN;
    for (const auto& l : lines) cp = testsupport::score_cp_of(l, cp);
    return cp;
}

TEST_CASE("fifty-move damping: an advantage that makes no progress is worth less", "[search][options]") {
    Session s;
    // A queen up, no capture or pawn move possible for the stronger side: the counter
    // only rises along every line.
    const std::string fresh = "position fen 7k/8/8/8/8/8/8/K2Q4 w - - 0 70\ngo depth 3\n";
    const std::string stale = "position fen 7k/8/8/8/8/8/8/K2Q4 w - - 90 70\ngo depth 3\n";
    // (A new game between the two: the hash does not key the counter.)
    const int full = last_cp(s.run(fresh));
    REQUIRE(s.run("ucinewgame\n").empty());
    const int damped = last_cp(s.run(stale));
    REQUIRE(full > 500);
    // About (200 - 93) / 200 of the fresh score, still clearly winning.
    REQUIRE(damped < full * 3 / 4);
    REQUIRE(damped > full / 3);
    // Switched off, the counter changes nothing (the claim is still 7 plies away).
    REQUIRE(s.run("setoption name Ablate value fiftydamp\nucinewgame\n").empty());
    const int off_fresh = last_cp(s.run(fresh));
    REQUIRE(s.run("ucinewgame\n").empty());
    REQUIRE(last_cp(s.run(stale)) == off_fresh);
}

TEST_CASE("the node share of the best root move stretches or shrinks the time target", "[search][time]") {
    // Settled (nearly every node under the best move): stop sooner than the plan.
    REQUIRE(search::node_time_factor(95, 100) < 1.0);
    // Contested (the best move got a third of the nodes): think longer.
    REQUIRE(search::node_time_factor(33, 100) > 1.3);
    // Monotonic: the larger the best move's share, the shorter the thought.
    for (int share = 0; share < 100; share += 10)
        REQUIRE(search::node_time_factor(share, 100) > search::node_time_factor(share + 10, 100));
    // Bounded, and neutral before anything was searched.
    REQUIRE(search::node_time_factor(100, 100) >= 0.5);
    REQUIRE(search::node_time_factor(0, 100) <= 2.5);
    REQUIRE(search::node_time_factor(5, 0) == 1.0);
    REQUIRE(search::node_time_factor(500, 100) == search::node_time_factor(100, 100));
}

TEST_CASE("bench takes Stockfish's arguments: hash threads limit fenfile limittype", "[search][bench]") {
    Session s;
    // The defaults are the signature's settings: hash 16, 1 thread, depth 11, the bench set.
    REQUIRE(nodes_of(s.run("bench 16 1 5 default depth\n")) == nodes_of(s.run("bench 16 1 5\n")));
    // perft over the current position.
    REQUIRE(nodes_of(s.run("position startpos\nbench 16 1 3 current perft\n")) == "Nodes searched  : 8902");
    // A file of FENs, and a node limit per position.
    const std::string file = std::string(MAHARAJAH_TEST_DATA_DIR) + "/../fuzz/corpus/fuzz_fen/fen-00";
    auto lines = s.run("bench 16 1 2 " + file + " perft\n");
    REQUIRE(nodes_of(lines) == "Nodes searched  : 400");
    lines = s.run("bench 16 1 1000 current nodes\n");
    long long nodes = std::stoll(nodes_of(lines).substr(18));
    REQUIRE(nodes >= 1000);
    REQUIRE(nodes <= 1100);
    // Bad arguments: one error line each, nothing searched.
    for (const char* bad : {"bench 0", "bench 16 0", "bench 16 1 0", "bench 16 1 5 default plies",
                            "bench 16 1 5 /no/such/file", "bench 1 2 3 4 5 6"}) {
        INFO(bad);
        lines = s.run(std::string(bad) + "\n");
        REQUIRE(lines.size() == 1);
        REQUIRE(lines[0].rfind("info string error: bench: ", 0) == 0);
    }
}

TEST_CASE("the search parameters print as OpenBench SPSA input and are set only in a tuning build",
          "[search][params]") {
    const auto table = search::params();
    REQUIRE(table.size() >= 20);
    std::istringstream lines(search::spsa_input());
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
        INFO(line);
        const auto& p = table[count];
        REQUIRE(line.rfind(std::string(p.name) + ", int, " + std::to_string(p.value) + ", " + std::to_string(p.min) +
                               ", " + std::to_string(p.max) + ", ",
                           0) == 0);
        REQUIRE(line.substr(line.size() - 7) == ", 0.002");
        REQUIRE(p.min <= p.value);
        REQUIRE(p.value <= p.max);
    }
    REQUIRE(count == table.size());

    Session s;
    const std::string before = nodes_of(s.run("bench 16 1 8\n"));
    auto reply = s.run("setoption name LmrBase value 90\n");
    if constexpr (search::Tunable) {
        REQUIRE(reply.empty());
        REQUIRE(search::params()[0].value == 90);
        REQUIRE(nodes_of(s.run("bench 16 1 8\n")) != before);
        REQUIRE(s.run("setoption name LmrBase value 151\n").size() == 1);  // out of range: refused
        REQUIRE(s.run("setoption name LmrBase value 40\n").empty());
        REQUIRE(nodes_of(s.run("bench 16 1 8\n")) == before);
    } else {
        REQUIRE(reply.size() == 1);
        REQUIRE(reply[0].find("unknown option 'LmrBase'") != std::string::npos);
        REQUIRE_FALSE(search::set_param("LmrBase", 50));
    }
}
