// Custom armies: every rule of the rules in README.md and its error reason, the start
// position two armies make (section 6), and the engine's own suggested armies.

#include <catch2/catch.hpp>
#include <set>

#include "board/army.h"
#include "movegen/movegen.h"
#include "protocol/game.h"

using namespace maharajah;

namespace {

std::string army_error(Color c, const std::string& a) { return check_army(c, a).error; }

// The same army for Black: letters to lower case (ranks are listed home rank first
// for both colours, so the text is otherwise identical).
std::string lower(std::string s) {
    for (char& ch : s)
        if (ch >= 'A' && ch <= 'Z') ch = char(ch - 'A' + 'a');
    return s;
}

}  // namespace

TEST_CASE("valid armies report points, pieces and rules", "[army]") {
    for (Color c : {WHITE, BLACK}) {
        auto in_case = [c](const std::string& s) { return c == WHITE ? s : lower(s); };
        ArmyCheck r = check_army(c, in_case("RNBQKBNR/PPPPPPPP"));
        REQUIRE(r.ok());
        REQUIRE(r.points == 39);
        REQUIRE(r.pieces == 15);
        REQUIRE_FALSE(r.variant);
        // Exactly 31 pieces: four full ranks.
        r = check_army(c, in_case("NNNNKPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP"));
        REQUIRE(r.ok());
        REQUIRE(r.pieces == 31);
        // Three Maharajas on the home rank alone.
        r = check_army(c, in_case("MMM1K3"));
        REQUIRE(r.ok());
        REQUIRE(r.pieces == 3);
        REQUIRE(r.variant);
        // Pawns on the home rank (rank 1 for White, rank 8 for Black).
        REQUIRE(check_army(c, in_case("PPPPKPPP/QQQPPPPP")).ok());
        // A full home rank plus one piece on the next rank.
        r = check_army(c, in_case("RNBQKBNR/3C4"));
        REQUIRE(r.ok());
        REQUIRE(r.variant);
        // Letters in either case: the command says whose army it is.
        REQUIRE(check_army(c, "rnbqKBNR/PPPPpppp").ok());
    }
}

TEST_CASE("every army rule has its own error reason", "[army][errors]") {
    for (Color c : {WHITE, BLACK}) {
        auto e = [c](const std::string& s) { return army_error(c, c == WHITE ? s : lower(s)); };
        const std::string home = c == WHITE ? "1" : "8", next = c == WHITE ? "2" : "7";
        REQUIRE(e("RNBQKBNR/PPPPPPP1") == "points 38, must be exactly 39");
        REQUIRE(e("RNBQKBNR/PPPPPPPP/P7") == "points 40, must be exactly 39");
        REQUIRE(e("RNBQNBNR/PPPPPPPP") == "king missing (it must stand on e" + home + ")");
        REQUIRE(e("RNBKQBNR/PPPPPPPP") == "king on d" + home + ", it must stand on e" + home);
        REQUIRE(e("RNBKKBNR/PPPPPPPP") == "2 kings, exactly one allowed");
        REQUIRE(e("RNBQKBNX/PPPPPPPP") == (c == WHITE ? "unknown letter 'X'" : "unknown letter 'x'"));
        REQUIRE(e("RNBQKBN/PPPPPPPP") == "rank " + home + " has 7 files, expected 8");
        REQUIRE(e("RNBQKBNR/PPPPPPPPP") == "rank " + next + " has more than 8 files");
        REQUIRE(e("RNBQKBNR/PPPPPPPP/8/8/8") == "5 ranks, at most 4");
        REQUIRE(e("RNBQKBN1/PPPPPPPP") ==
                "piece on a" + next + " while h" + home + " is empty (nearer ranks must be full first)");
        REQUIRE(e("PPPPKPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/P7") == "too many pieces: 32, at most 31");
        REQUIRE(e("") == "rank " + home + " has 0 files, expected 8");
    }
}

TEST_CASE("two orthodox armies give exactly the standard start position", "[army]") {
    Game g;
    REQUIRE(g.set_armies("RNBQKBNR/PPPPPPPP", "rnbqkbnr/pppppppp", {}) == "");
    REQUIRE(g.position().fen() == StartFen);
    REQUIRE_FALSE(g.position().rules(WHITE).variant);
    REQUIRE(g.position().castling_rights() == ALL_CASTLING);
}

TEST_CASE("the start position follows the armies", "[army]") {
    Game g;
    // Black variant (an archbishop), White classic with one corner rook: castling Q only.
    REQUIRE(g.set_armies("RRBQKBRP/PPPPPPPP", "rnbakbnr/pppppppp/3ppp2", {}) == "");
    const Position& pos = g.position();
    REQUIRE(pos.rules(BLACK).variant);
    REQUIRE_FALSE(pos.rules(WHITE).variant);
    REQUIRE(pos.castling_rights() == WHITE_OOO);
    // Every pawn of the variant side is unmoved, d6 included; the classic side's rank-1
    // pawn (h1) never double-steps.
    REQUIRE(pos.double_step_pawns() & square_bb(SQ_D6));
    REQUIRE_FALSE(pos.double_step_pawns() & square_bb(SQ_H1));
    REQUIRE(g.set_armies("RRBQKBRP/PPPPPPPP", "rnbakbnr/pppppppp/3ppp2", {"e2e4", "d6d4"}) == "");
}

TEST_CASE("the start checks of the rules in README.md refuse bad armies and positions", "[army][errors]") {
    Game g;
    REQUIRE(g.set_armies("RNBQKBNR/PPPPPPP1", "rnbqkbnr/pppppppp", {}) == "White army: points 38, must be exactly 39");
    REQUIRE(g.set_armies("RNBQKBNR/PPPPPPPP", "rnbqkbnr/ppppppp", {}) == "Black army: rank 7 has 7 files, expected 8");
    // A queen on e7 with the e-file open checks White; a queen on e2 attacks Black's king.
    REQUIRE(g.set_armies("RNBQKBNR/PP1N1N2", "rnbnkbnr/ppppqp2", {}) == "White is in check in the start position");
    REQUIRE(g.set_armies("RNBNKBNR/PPPPQP2", "rnbqkbnr/pp1n1n2", {}) ==
            "Black's king is attacked in the start position");
    // An illegal move in the list is refused and nothing changes.
    REQUIRE(g.set_armies("RNBQKBNR/PPPPPPPP", "rnbqkbnr/pppppppp", {"e2e4"}) == "");
    std::string before = g.position().fen();
    REQUIRE(g.set_armies("RNBQKBNR/PPPPPPPP", "rnbqkbnr/pppppppp", {"e2e5"}).find("illegal move 'e2e5'") !=
            std::string::npos);
    REQUIRE(g.position().fen() == before);
}

TEST_CASE("suggested armies are valid, deterministic and varied", "[army][suggest]") {
    std::set<std::string> distinct[COLOR_NB];
    for (Color c : {WHITE, BLACK})
        for (std::uint64_t seed = 0; seed < 10000; ++seed) {
            std::string a = suggest_army(c, seed);
            ArmyCheck r = check_army(c, a);
            INFO(a << ": " << r.error);
            REQUIRE(r.ok());
            distinct[c].insert(a);
        }
    REQUIRE(suggest_army(WHITE, 42) == suggest_army(WHITE, 42));
    REQUIRE(distinct[WHITE].size() >= 20);
    REQUIRE(distinct[BLACK].size() >= 20);
    // A player who asks again and again meets real variety: 150 seeds, 50 armies or more.
    for (Color c : {WHITE, BLACK}) {
        std::set<std::string> first;
        for (std::uint64_t seed = 0; seed < 150; ++seed) first.insert(suggest_army(c, seed));
        REQUIRE(first.size() >= 50);
    }
    // Every suggested White army against every suggested Black army passes the start checks.
    Game g;
    for (const std::string& w : distinct[WHITE])
        for (const std::string& b : distinct[BLACK]) {
            INFO(w << " v " << b);
            REQUIRE(g.set_armies(w, b, {}) == "");
        }
}
