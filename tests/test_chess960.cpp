// Chess960 (UCI_Chess960): FEN castling fields (Shredder-FEN, X-FEN), castling moves
// as the king taking its rook, both sides, the king staying put, and the rook that
// shields the king's destination. Perft of the reference positions is in test_perft.

#include <algorithm>
#include <catch2/catch.hpp>

#include "movegen/movegen.h"
#include "protocol/uci.h"
#include "support/uci_session.h"

using namespace maharajah;

namespace {

std::vector<std::string> legal(const std::string& fen, bool chess960 = true) {
    Game g;
    REQUIRE(g.set(fen, {}, chess960) == "");
    std::vector<std::string> v;
    for (Move m : MoveList<LEGAL>(g.position())) v.push_back(move_to_uci(g.position(), m));
    return v;
}

bool has(const std::vector<std::string>& v, const std::string& m) {
    return std::find(v.begin(), v.end(), m) != v.end();
}

}  // namespace

TEST_CASE("Chess960 castling is written and read as the king taking its rook", "[chess960]") {
    // King b1, rooks a1 and h1; Black king g8, rooks a8 and h8 (double Chess960).
    const std::string fen = "r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1";
    auto moves = legal(fen);
    REQUIRE(has(moves, "b1a1"));  // queenside: king to c1, rook to d1
    REQUIRE(has(moves, "b1h1"));  // kingside: king to g1, rook to f1
    Game g;
    REQUIRE(g.set(fen, {"b1a1", "g8h8"}, true) == "");  // Black's king stays on g8, rook h8 to f8
    REQUIRE(g.position().fen() == "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");
    REQUIRE(g.set(fen, {"b1h1", "g8h8"}, true) == "");
    REQUIRE(g.position().fen() == "r4rk1/8/8/8/8/8/8/R4RK1 w - - 2 2");
    // Black's queenside castling would take its king across f8, attacked from f1.
    REQUIRE(g.set(fen, {"b1h1", "g8a8"}, true).find("illegal move 'g8a8'") != std::string::npos);
    // In standard mode neither the FEN's geometry nor the notation is Chess960's.
    REQUIRE(g.set(fen, {}, false) != "");
}

TEST_CASE("Chess960 FEN castling fields: X-FEN and Shredder-FEN", "[chess960][fen]") {
    Game g;
    // Shredder letters name the rook's file; the writer uses K/Q for the outermost rook.
    REQUIRE(g.set("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", {}, true) == "");
    REQUIRE(g.position().fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // An inner rook keeps its letter (X-FEN), and reads back the same.
    REQUIRE(g.set("4k3/8/8/8/8/8/8/RR2K2R w BH - 0 1", {}, true) == "");
    REQUIRE(g.position().fen() == "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    Game again;
    REQUIRE(again.set(g.position().fen(), {}, true) == "");
    REQUIRE(again.position().key() == g.position().key());
    REQUIRE(has(legal("4k3/8/8/8/8/8/8/RR2K2R w BH - 0 1"), "e1b1"));
    REQUIRE_FALSE(has(legal("4k3/8/8/8/8/8/8/RR2K2R w BH - 0 1"), "e1a1"));
    // Refusals: letters outside Chess960, a missing rook, a variant side, a king off its rank.
    REQUIRE(g.set("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", {}, false).find("castling") !=
            std::string::npos);
    REQUIRE(g.set("4k3/8/8/8/8/8/8/R3K3 w G - 0 1", {}, true).find("rook on g1") != std::string::npos);
    REQUIRE(g.set("4k3/8/8/8/8/8/8/4KM1R w H - 0 1 V -", {}, true).find("variant") != std::string::npos);
    REQUIRE(g.set("4k3/8/8/8/8/8/4K3/7R w K - 0 1", {}, true).find("home rank") != std::string::npos);
}

TEST_CASE("Chess960 castling is refused when the rook shielded the king's destination", "[chess960]") {
    // King c1 and rook b1: queenside castling leaves the king on c1 and the rook goes to
    // d1, opening the rank to the queen on a1.
    REQUIRE_FALSE(has(legal("4k3/8/8/8/8/8/8/qRK5 w Q - 0 1"), "c1b1"));
    // With a knight there instead of the queen, it is legal.
    REQUIRE(has(legal("4k3/8/8/8/8/8/8/nRK5 w Q - 0 1"), "c1b1"));
}

TEST_CASE("UCI_Chess960 through the protocol: position, go and bestmove", "[chess960][uci]") {
    testsupport::UciSession s;
    REQUIRE(s.run("setoption name UCI_Chess960 value true\n").empty());
    auto lines = s.run("position fen r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1 moves b1h1\ngo depth 4\n");
    REQUIRE(lines.back().rfind("bestmove ", 0) == 0);
    REQUIRE(s.run("fen\n").front() == "fen r5kr/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // Black may castle kingside (the king stays on g8) but not queenside: the king
    // would cross f8, which the rook on f1 attacks.
    lines = s.run("moves g8\n");
    REQUIRE(lines.front().find("g8h8") != std::string::npos);
    REQUIRE(lines.front().find("g8a8") == std::string::npos);
    lines = s.run("go depth 3 searchmoves g8h8\n");
    REQUIRE(lines.back().rfind("bestmove g8h8", 0) == 0);
    REQUIRE(s.run("uci\n").size() > 5);
}

TEST_CASE("is_capture: en passant and taking are captures, castling never is", "[chess960][capture]") {
    auto find = [](const Position& pos, const std::string& uci) {
        Move m = parse_uci_move(pos, uci);
        REQUIRE(m != MOVE_NONE);
        return m;
    };
    Game g;
    // En passant lands on an empty square; a plain pawn push does not capture.
    REQUIRE(g.set("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", {}) == "");
    const Move ep = find(g.position(), "e5f6");
    REQUIRE(is_en_passant(ep));
    REQUIRE(g.position().empty(to_sq(ep)));
    REQUIRE(g.position().is_capture(ep));
    REQUIRE(!g.position().is_capture(find(g.position(), "e5e6")));
    REQUIRE(!g.position().is_capture(find(g.position(), "g1f3")));
    // A capture by a piece, and one that promotes.
    REQUIRE(g.set("r3k3/1P6/8/8/8/7b/8/4K1N1 w - - 0 1", {}) == "");
    REQUIRE(g.position().is_capture(find(g.position(), "g1h3")));
    REQUIRE(g.position().is_capture(find(g.position(), "b7a8q")));
    REQUIRE(!g.position().is_capture(find(g.position(), "b7b8q")));
    // Chess960: the king on f1 castles with its rook on g1 and lands on that rook's square.
    REQUIRE(g.set("k7/8/8/8/8/8/8/5KR1 w G - 0 1", {}, true) == "");
    const Move castle = find(g.position(), "f1g1");
    REQUIRE(is_castling(castle));
    REQUIRE(g.position().piece_on(to_sq(castle)) == make_piece(WHITE, ROOK));
    REQUIRE(!g.position().is_capture(castle));
    // Standard castling.
    REQUIRE(g.set("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {}) == "");
    REQUIRE(!g.position().is_capture(find(g.position(), "e1g1")));
    REQUIRE(!g.position().is_capture(find(g.position(), "e1c1")));
}
