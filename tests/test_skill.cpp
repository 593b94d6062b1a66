// Playing levels: UCI_LimitStrength + UCI_Elo and Skill Level. Options and ranges, a
// legal move under every go form, repeatable play for a seed, and choices that differ
// from full strength where a weaker level should (measured on many positions, not on
// hand-picked ones).

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "movegen/movegen.h"
#include "protocol/bench_positions.h"
#include "search/search.h"
#include "search/skill.h"
#include "support/uci_session.h"

using namespace maharajah;

namespace {

using Session = testsupport::UciSession;

std::vector<std::string> matching(const std::vector<std::string>& lines, const std::string& prefix) {
    return testsupport::starting_with(lines, prefix);
}

// The two evaluations a level must not depend on.
const std::string EvalNnue = "setoption name EvalMode value nnue\n";
const std::string EvalClassical = "setoption name EvalMode value classical\n";

// "setoption name Ablate value ..." naming every technique in `set` (bit t: Technique t).
std::string ablate(std::uint32_t set) {
    std::string names;
    for (int t = 0; t < int(search::TECHNIQUE_NB); ++t)
        if (set >> t & 1u) names += std::string(names.empty() ? "" : ",") + search::TechniqueName[t];
    return "setoption name Ablate value " + names + "\n";
}

std::string best_of(const std::vector<std::string>& lines) {
    auto b = matching(lines, "bestmove ");
    REQUIRE(b.size() == 1);
    std::istringstream is(b[0]);
    std::string w, m;
    is >> w >> m;
    return m;
}

bool legal_after(const std::string& fen, const std::string& move) {
    Game g;
    REQUIRE(g.set(fen, {}) == "");
    return parse_uci_move(g.position(), move) != MOVE_NONE;
}

const char* Level(int elo) {
    static std::string s;
    s = "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value " + std::to_string(elo) + "\n";
    return s.c_str();
}

}  // namespace

TEST_CASE("level options: names, ranges, errors", "[skill][uci]") {
    Session s;
    auto lines = s.run("uci\n");
    for (const char* opt : {"option name UCI_LimitStrength type check default false",
                            "option name UCI_Elo type spin default 2200 min 600 max 2200",
                            "option name Skill Level type spin default 20 min 0 max 20",
                            "option name Skill Seed type spin default 0 min 0 max 2147483647"}) {
        INFO(opt);
        REQUIRE(std::find(lines.begin(), lines.end(), opt) != lines.end());
    }
    for (const char* bad : {"setoption name UCI_Elo value 599", "setoption name UCI_Elo value 2201",
                            "setoption name Skill Level value 21", "setoption name Skill Level value -1",
                            "setoption name UCI_LimitStrength value maybe", "setoption name Skill Seed value x"}) {
        INFO(bad);
        auto out = s.run(std::string(bad) + "\n");
        REQUIRE(out.size() == 1);
        REQUIRE(out[0].rfind("info string error: setoption: ", 0) == 0);
    }
}

TEST_CASE("a level gives one legal move under every go form", "[skill][search]") {
    const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    const char* gos[] = {"go depth 8", "go nodes 3000", "go movetime 30", "go wtime 2000 btime 2000 winc 20 binc 20",
                         "go depth 4 searchmoves d2d4 b1c3"};
    for (int elo : {600, 1400, 2100, 2200})
        for (const char* go : gos) {
            Session s;
            auto lines = s.run(std::string(Level(elo)) + "setoption name Skill Seed value 3\nposition fen " + fen +
                               "\n" + go + "\n");
            INFO(elo << " " << go);
            REQUIRE(legal_after(fen, best_of(lines)));
        }
    // Infinite and ponder: the answer waits for stop / ponderhit.
    Session s;
    s.run(std::string(Level(1000)) + "position fen " + fen + "\n");
    s.uci.execute("go infinite");
    s.uci.execute("isready");
    s.uci.execute("stop");
    s.uci.wait_for_search();
    REQUIRE(legal_after(fen, best_of(s.lines())));
    s.run("position fen " + fen + "\n");
    s.uci.execute("go ponder wtime 1000 btime 1000");
    s.uci.execute("ponderhit");
    s.uci.wait_for_search();
    REQUIRE(legal_after(fen, best_of(s.lines())));
    // MultiPV: the lines asked for are reported; the level still answers one move.
    auto lines = s.run("setoption name MultiPV value 3\nposition fen " + fen + "\ngo nodes 20000\n");
    REQUIRE(!matching(lines, "info depth").empty());
    REQUIRE(std::any_of(lines.begin(), lines.end(),
                        [](const std::string& l) { return l.find(" multipv 3 ") != std::string::npos; }));
    REQUIRE(legal_after(fen, best_of(lines)));
}

TEST_CASE("a seed makes a level's play repeat exactly", "[skill][search]") {
    auto play = [](std::uint64_t seed) {
        Session s;
        s.run(std::string(Level(900)) + "setoption name Skill Seed value " + std::to_string(seed) + "\n");
        std::vector<std::string> moves;
        for (const char* fen : BenchFens)
            moves.push_back(best_of(s.run(std::string("position fen ") + fen + "\ngo depth 30\n")));
        return moves;
    };
    auto a = play(11), b = play(11), c = play(12);
    REQUIRE(a == b);
    REQUIRE(a != c);  // another seed chooses differently somewhere in 24 positions
}

TEST_CASE("weaker levels leave the full-strength move more often", "[skill][search]") {
    // Over the 24 bench positions: how often a level's move differs from the move of a
    // full-strength search with the same seed-free settings (depth 8). The levels search
    // with the hand-written evaluation, so their reference does too: against the default
    // (the net in standard chess) a level would differ by the evaluation, whatever its noise.
    auto depth8_moves = [](const std::string& setup) {  // a fresh session with these options
        Session s;
        s.run(setup);
        std::vector<std::string> moves;
        for (const char* fen : BenchFens)
            moves.push_back(best_of(s.run(std::string("position fen ") + fen + "\ngo depth 8\n")));
        return moves;
    };
    const std::vector<std::string> full = depth8_moves("");
    const std::vector<std::string> full_classical = depth8_moves(EvalClassical);
    auto differs = [&](int elo) {
        int n = 0;
        for (std::uint64_t seed : {1, 2}) {
            const auto moves = depth8_moves(std::string(Level(elo)) + "setoption name Skill Seed value " +
                                            std::to_string(seed) + "\n");
            for (std::size_t i = 0; i < moves.size(); ++i) n += moves[i] != full_classical[i];
        }
        return n;
    };
    const int low = differs(600), high = differs(2100);
    INFO("differs from full strength: Elo 600 " << low << "/48, Elo 2100 " << high << "/48");
    REQUIRE(low >= 16);
    REQUIRE(high < low);
    // UCI_Elo counts only while UCI_LimitStrength is true: then play is full strength.
    Session s;
    s.run("setoption name UCI_Elo value 600\n");
    for (std::size_t i = 0; i < 6; ++i)
        REQUIRE(best_of(s.run(std::string("position fen ") + BenchFens[i] + "\ngo depth 8\n")) == full[i]);
    // The top of the UCI_Elo range is the hand-written evaluation's whole search with no
    // budget, whatever EvalMode says (fresh sessions: the hash and histories of earlier
    // searches may change a depth-8 choice).
    const std::string top_setup = std::string(Level(search::SkillMaxElo)) + EvalNnue;
    REQUIRE(depth8_moves(top_setup) == full_classical);
    // Skill Level 20 is full strength (Stockfish's convention), above the UCI_Elo range:
    // the default evaluation (in standard chess the network), not the top level's.
    REQUIRE(depth8_moves("setoption name Skill Level value 20\n") == full);
    REQUIRE(depth8_moves("setoption name Skill Level value 20\n") != full_classical);
}

TEST_CASE("a level never chooses a move its own search scores far below the best", "[skill]") {
    std::uint64_t rng = 5;
    for (int elo : {600, 1000, 1500, 2000, 2100}) {
        const search::SkillPlan plan = search::skill_plan(elo);
        // Candidates 0, 30, 120, 300 and 700 centipawns below the best.
        const std::vector<Value> scores = {100, 70, -20, -200, -600};
        int counts[5] = {};
        for (int i = 0; i < 4000; ++i) ++counts[search::skill_pick(scores, plan, rng)];
        INFO("Elo " << elo);
        for (int i = 0; i < 5; ++i)
            if (100 - scores[i] > plan.max_loss) REQUIRE(counts[i] == 0);
        REQUIRE(counts[0] >= counts[1]);  // the best move is the likeliest
        // A queen's worth (700 cp) is beyond every level's cap, a minor piece's (300 cp)
        // beyond it from 1500 up; a beginner's level may hang one, as beginners do.
        REQUIRE(counts[4] == 0);
        if (elo >= 1500) REQUIRE(counts[3] == 0);
        if (elo == 600) REQUIRE(counts[3] > 0);
    }
    // Mate scores are not gambled with: the best of them is kept.
    const std::vector<Value> mates = {VALUE_MATE - 3, 50, 40};
    for (int i = 0; i < 100; ++i) REQUIRE(search::skill_pick(mates, search::skill_plan(600), rng) == 0);
    // Higher levels search more and choose more sharply.
    REQUIRE(search::skill_plan(600).nodes < search::skill_plan(1500).nodes);
    REQUIRE(search::skill_plan(1500).nodes < search::skill_plan(2000).nodes);
    REQUIRE(search::skill_plan(600).temperature > search::skill_plan(2100).temperature);
    // Standard chess above 2000 searches like the top level, with no budget, and only
    // chooses more loosely, less so as the label rises; positions with compound pieces
    // keep their own ladder's budget.
    REQUIRE(search::skill_plan(search::WholeSearchFloor).without != 0);
    for (int elo : {2001, 2100, 2199}) {
        INFO("Elo " << elo);
        const search::SkillPlan plan = search::skill_plan(elo);
        REQUIRE(plan.without == 0);
        REQUIRE(plan.nodes == 0);
        REQUIRE(plan.candidates >= 2);
        REQUIRE(search::skill_plan(elo, true).without != 0);
        REQUIRE(search::skill_plan(elo, true).nodes > 0);
    }
    REQUIRE(search::skill_plan(2050).temperature > search::skill_plan(2150).temperature);
    REQUIRE(search::skill_plan(2050).max_loss > search::skill_plan(2150).max_loss);
    // Skill Level maps onto the same scale: 0 the floor, 19 just under the top.
    REQUIRE(search::skill_level_elo(0) == search::SkillMinElo);
    REQUIRE(search::skill_level_elo(19) < search::SkillMaxElo);
}

// Each of the first `count` bench positions searched to `depth` by a fresh session after
// `setup` (options; a level at `elo` with a fixed seed unless elo is 0): the best move
// and the nodes of the last info line.
static std::vector<std::string> search_trace(const std::string& setup, int elo, std::size_t count, int depth) {
    Session s;
    if (!setup.empty()) s.run(setup);
    if (elo) s.run(std::string(Level(elo)) + "setoption name Skill Seed value 5\n");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i) {
        auto lines = s.run(std::string("position fen ") + BenchFens[i] + "\ngo depth " + std::to_string(depth) + "\n");
        auto infos = matching(lines, "info depth");
        REQUIRE(!infos.empty());
        out.push_back(best_of(lines) + " nodes " + testsupport::nodes_of(infos.back()));
    }
    return out;
}

TEST_CASE("a level searches with the evaluation it was calibrated with", "[skill][search]") {
    // The levels' tables were measured with the hand-written evaluation, so EvalMode
    // does not move a level: the same seed gives the same moves and node counts under
    // either mode, while full strength searches a different tree with the network.
    REQUIRE(search_trace(EvalNnue, 1500, 8, 6) == search_trace(EvalClassical, 1500, 8, 6));
    REQUIRE(search_trace(EvalNnue, 0, 8, 6) != search_trace(EvalClassical, 0, 8, 6));
}

TEST_CASE("a level searches without the search techniques its calibration did not have", "[skill][search]") {
    // Depth 9 at 2000: deep enough for singular extensions (from depth 7 below the root).
    const std::uint32_t without = search::skill_plan(2000).without;
    REQUIRE((without >> search::SINGULAR & 1u));
    const std::string off = ablate(without);
    REQUIRE(search_trace("", 2000, 6, 9) == search_trace(off, 2000, 6, 9));
    REQUIRE(search_trace("", 0, 6, 9) != search_trace(off, 0, 6, 9));  // at full strength they take part
    // Standard levels above 2000 search with them (their handicap is the choice), with
    // the hand-written evaluation like every level.
    const auto upper = search_trace(EvalNnue, 2100, 6, 9);
    REQUIRE(upper == search_trace(EvalClassical, 2100, 6, 9));
    REQUIRE(upper != search_trace(EvalClassical + off, 2100, 6, 9));
    // The top level (no budget) searches with them: it is the hand-written evaluation's
    // full-strength search, moves and node counts alike, whatever EvalMode says.
    const auto top = search_trace(EvalNnue, search::SkillMaxElo, 6, 9);
    REQUIRE(top == search_trace(EvalClassical, 0, 6, 9));
    REQUIRE(top != search_trace(EvalClassical + off, 0, 6, 9));
}

TEST_CASE("a level's search is the plain search its plan describes", "[skill][search]") {
    // The level's plan (search/skill.h) against a full-strength search set up by hand
    // from that plan: its evaluation, Ablate of its techniques, its node budget and its
    // candidates as MultiPV lines. With one thread both search the same tree (the same
    // node count), and the level's move is one of the candidates that search reports.
    struct Case {
        int elo;
        const char* fen;
        int depth;
    };
    const Case cases[] = {
        {800, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 20},
        {1400, "rnbakabr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBCKCBR b - - 0 1 Vv", 20},
        {1800, "nbqrkbcn/p1p1p3/M2p4/5Bp1/8/8/8/2MPKC1P w - - 0 3 Vv d1h1a7c7e7", 20},
        {2100, "r2q1rk1/pp1nbppp/2p1pn2/3p1b2/2PP4/1PN1PN2/PB3PPP/R2QKB1R w KQ - 1 9", 8},
        {search::SkillMaxElo, "r2q1rk1/pp1nbppp/2p1pn2/3p1b2/2PP4/1PN1PN2/PB3PPP/R2QKB1R w KQ - 1 9", 8},
    };
    for (const Case& c : cases) {
        Game game;
        REQUIRE(game.set(c.fen, {}) == "");
        const Position& pos = game.position();
        const search::Skill skill = search::skill_from_options(true, c.elo, 20, 9);
        const search::SkillPlan plan = search::skill_plan(skill.elo, pos.compounds() != 0);
        INFO("Elo " << c.elo << " " << c.fen << ": budget " << plan.nodes << ", candidates " << plan.candidates);
        REQUIRE(skill.enabled);
        search::Limits limits;
        limits.depth = c.depth;
        // The level, as the protocol hands it over (the network asked for: the level
        // must search with its own evaluation anyway).
        search::Settings level;
        level.eval.mode = eval::Mode::NNUE;
        level.skill = skill;
        Move level_move = MOVE_NONE;
        search::Listener level_listener;
        level_listener.on_bestmove = [&](Move best, Move) { level_move = best; };
        search::Engine level_engine;
        level_engine.start(pos, limits, level, level_listener);
        level_engine.wait();
        // The plain search the plan describes.
        search::Settings plain;
        plain.eval.mode = plan.eval;
        plain.disabled = plan.without;
        plain.multipv = plan.candidates;
        search::Limits plain_limits = limits;
        plain_limits.nodes = plan.nodes;
        std::vector<Move> lines(std::size_t(plan.candidates), MOVE_NONE);
        Move plain_move = MOVE_NONE;
        search::Listener plain_listener;
        plain_listener.on_report = [&](const search::Report& r) {
            if (r.multipv >= 1 && r.multipv <= plan.candidates && !r.pv.empty()) lines[r.multipv - 1] = r.pv[0];
        };
        plain_listener.on_bestmove = [&](Move best, Move) { plain_move = best; };
        search::Engine plain_engine;
        plain_engine.start(pos, plain_limits, plain, plain_listener);
        plain_engine.wait();
        REQUIRE(level_engine.nodes() == plain_engine.nodes());
        REQUIRE(level_move != MOVE_NONE);
        REQUIRE(std::find(lines.begin(), lines.end(), level_move) != lines.end());
        if (plan.candidates == 1) REQUIRE(level_move == plain_move);
    }
}
