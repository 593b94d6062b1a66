// Hostile input, limits and threads: each case here once went wrong (overflowing
// clocks, a search that outlived its input, a node limit overshot by a thousand nodes,
// error lines echoing huge tokens, a valid seed refused).

#include <algorithm>
#include <catch2/catch.hpp>
#include <climits>
#include <iostream>
#include <sstream>

#include "movegen/movegen.h"
#include "protocol/uci.h"
#include "search/timeman.h"
#include "support/uci_session.h"

using namespace maharajah;

namespace {

using Session = testsupport::UciSession;

std::vector<std::string> matching(const std::vector<std::string>& lines, const std::string& prefix) {
    return testsupport::starting_with(lines, prefix);
}

// The number after `key` in an info line (-1 when absent).
long long field(const std::string& line, const std::string& key) {
    std::istringstream is(line);
    for (std::string w; is >> w;)
        if (w == key && is >> w) return std::stoll(w);
    return -1;
}

// One bestmove, and its move is the first move of the last PV printed.
void require_bestmove_is_pv_head(const std::vector<std::string>& lines) {
    auto best = matching(lines, "bestmove ");
    auto infos = matching(lines, "info depth");
    REQUIRE(best.size() == 1);
    REQUIRE(!infos.empty());
    const std::string& last = infos.back();
    std::istringstream pv(last.substr(last.find(" pv ") + 4)), bm(best[0]);
    std::string head, word, move;
    pv >> head;
    bm >> word >> move;
    REQUIRE(move == head);
}

// The lines the real loop writes for `input`, which ends without "quit".
std::vector<std::string> loop_lines(const std::string& input) {
    std::ostringstream out;
    {
        Uci uci(out);
        std::istringstream in(input);
        uci.loop(in);
    }
    std::vector<std::string> v;
    std::istringstream o(out.str());
    for (std::string l; std::getline(o, l);) v.push_back(l);
    return v;
}

}  // namespace

TEST_CASE("huge go numbers mean lots of time, never an overflow", "[hardening][time]") {
    search::Limits limits;
    limits.time_given = true;
    limits.wtime = limits.btime = 1000;
    limits.winc = LLONG_MAX / 4;  // what the protocol layer passes for 9223372036854775807
    for (int movestogo : {0, 1, 30}) {
        limits.movestogo = movestogo;
        auto b = search::plan_time(limits, WHITE, 20, 10);
        REQUIRE(b.enabled);
        REQUIRE(b.optimum_ms >= 1);
        REQUIRE(b.optimum_ms <= b.maximum_ms);
        REQUIRE(b.maximum_ms < 1000);  // never more than the clock holds
    }
    limits.winc = 0;
    limits.wtime = LLONG_MAX / 4;
    auto b = search::plan_time(limits, WHITE, 20, 5000);
    REQUIRE(b.optimum_ms > 1000000);
    REQUIRE(b.maximum_ms >= b.optimum_ms);

    // Through the protocol: no error, a legal move, and a real search (the clock is
    // 1 s: the huge increment must not make it an instant depth-1 move).
    Session s;
    auto lines =
        s.run("position startpos\ngo wtime 1000 btime 1000 winc 9223372036854775807 binc 99999999999999999999\n");
    REQUIRE(matching(lines, "info string error").empty());
    REQUIRE(matching(lines, "bestmove ").size() == 1);
    REQUIRE(field(matching(lines, "info depth").back(), "depth") >= 4);
    lines = s.run("go wtime 99999999999999999999999 btime 1 movetime 30\n");
    REQUIRE(matching(lines, "info string error").empty());
    REQUIRE(matching(lines, "bestmove ").size() == 1);
}

TEST_CASE("end of input during a fixed-limit search quits at once", "[hardening][search]") {
    // "go depth 100" and "go mate 20" would run for ages; end of input is quit.
    for (const char* go : {"go depth 100", "go mate 20", "go nodes 2000000000"}) {
        INFO(go);
        auto lines = loop_lines(std::string("position startpos\n") + go + "\n");
        REQUIRE(matching(lines, "bestmove ").size() == 1);
        REQUIRE(field(matching(lines, "info depth").back(), "depth") < 40);
    }
}

TEST_CASE("the bestmove is the first move of the last PV printed", "[hardening][search]") {
    const char* setups[] = {"position startpos", "position startpos moves e2e4 c7c5 g1f3 d7d6",
                            "position army MNBQKBNR/PPPPPPPP rnbqkbnr/pppppppp"};
    const char* gos[] = {"go nodes 1",    "go nodes 300",         "go nodes 4000",
                         "go movetime 5", "go wtime 40 btime 40", "go depth 3"};
    int searches = 0;
    for (const char* setup : setups)
        for (const char* go : gos)
            for (int threads : {1, 3}) {
                Session s;
                auto lines =
                    s.run("setoption name Threads value " + std::to_string(threads) + "\n" + setup + "\n" + go + "\n");
                INFO(setup << " / " << go << " / threads " << threads);
                require_bestmove_is_pv_head(lines);
                ++searches;
            }
    REQUIRE(searches == 36);
    // And over many short clock and movetime searches on one engine (its hash and
    // histories carry over, as in a game), where stops fall at every point of an iteration.
    Session s;
    std::uint64_t rng = 7;
    for (int i = 0; i < 120; ++i) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        const int ms = 1 + int(rng >> 59);  // 1-32 ms
        const std::string go =
            (i % 2 ? "go movetime " : "go wtime " + std::to_string(40 * ms) + " btime ") + std::to_string(ms);
        auto lines = s.run(std::string(setups[i % 3]) + "\n" + go + "\n");
        INFO(setups[i % 3] << " / " << go);
        require_bestmove_is_pv_head(lines);
    }
}

TEST_CASE("a node limit holds to within a few nodes", "[hardening][search]") {
    Session s;
    // go nodes 1 still completes the first iteration (a PV to play), a handful of nodes.
    auto infos = matching(s.run("position startpos\ngo nodes 1\n"), "info depth");
    REQUIRE(field(infos.back(), "nodes") <= 40);
    for (long long limit : {100LL, 1000LL, 5000LL}) {
        infos = matching(s.run("position startpos moves e2e4\ngo nodes " + std::to_string(limit) + "\n"), "info depth");
        INFO(limit);
        REQUIRE(field(infos.back(), "nodes") <= limit + 40);
    }
    REQUIRE(s.run("setoption name Threads value 4\n").empty());
    infos = matching(s.run("position startpos moves e2e4\ngo nodes 5000\n"), "info depth");
    REQUIRE(field(infos.back(), "nodes") <= 5000 + 4 * 40);
}

TEST_CASE("one bad go argument gives one error line", "[hardening][errors]") {
    Session s;
    auto lines = s.run("position startpos\ngo depth 3 perft x\n");
    REQUIRE(matching(lines, "info string error").size() == 1);
    lines = s.run("go perft 30\n");
    REQUIRE(lines == std::vector<std::string>{"info string error: go perft: expected a depth from 1 to 20, got '30'"});
    lines = s.run("go depth -5 nodes zero\n");
    REQUIRE(matching(lines, "info string error").size() == 2);
    REQUIRE(matching(lines, "bestmove ").size() == 1);
}

TEST_CASE("an error line never echoes a huge token whole", "[hardening][errors]") {
    Session s;
    const std::string huge(10 * 1000 * 1000, 'x');
    for (const std::string& cmd : {huge, "position startpos moves " + huge, "go " + huge, "setoption name " + huge,
                                   "setoption name Hash value " + huge, "position fen " + huge,
                                   "position fen 8/8/8/8/8/8/8/8 w - - " + huge + " 1", "army check white " + huge}) {
        auto lines = s.run(cmd + "\n");
        REQUIRE((matching(lines, "info string error: ").size() + matching(lines, "army error ").size()) == 1);
        for (const auto& l : lines) REQUIRE(l.size() < 1200);
    }
    REQUIRE(s.run("d\n").size() > 5);  // the position is still there and printable
}

TEST_CASE("army suggest takes every 64-bit seed", "[hardening][army]") {
    Session s;
    for (const char* seed : {"0", "1", "18446744073709551615"}) {
        auto lines = s.run(std::string("army suggest white seed ") + seed + "\n");
        REQUIRE(lines.size() == 1);
        REQUIRE(lines[0].rfind("army ", 0) == 0);
        REQUIRE(lines[0].find("error") == std::string::npos);
    }
    for (const char* seed : {"18446744073709551616", "-1", "12x", ""}) {
        auto lines = s.run(std::string("army suggest white seed ") + seed + "\n");
        REQUIRE(lines.size() == 1);
        REQUIRE(lines[0].rfind("info string error: army suggest", 0) == 0);
    }
}

TEST_CASE("threads beyond the cores keep the limits and answer stop", "[hardening][threads]") {
    Session s;
    REQUIRE(s.run("setoption name Threads value 32\n").empty());
    // Every worker watches the node limit, not only the main one.
    auto infos = matching(s.run("position startpos\ngo nodes 20000\n"), "info depth");
    REQUIRE(field(infos.back(), "nodes") <= 20000 + 32 * 40);
    REQUIRE(matching(s.run("go infinite\nstop\n"), "bestmove ").size() == 1);
    auto lines = s.run("go depth 2\n");
    REQUIRE(matching(lines, "bestmove ").size() == 1);
}

TEST_CASE("standard input and error are not tied to standard output", "[hardening][threads]") {
    // A tie makes every line read (and every cerr write) flush cout without the output
    // lock, racing with a search thread's info lines.
    untie_standard_streams();
    REQUIRE(std::cin.tie() == nullptr);
    REQUIRE(std::cerr.tie() == nullptr);
}
