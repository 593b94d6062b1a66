// The FEN dialect: reading, writing, round trips and every refusal.

#include <catch2/catch.hpp>
#include <deque>
#include <sstream>

#include "core/random.h"
#include "movegen/movegen.h"
#include "protocol/game.h"
#include "support/random_armies.h"

using namespace maharajah;

namespace {

// Returns the error message ("" when the FEN is accepted).
std::string fen_error(const std::string& fen) {
    Position pos;
    StateInfo st;
    return pos.set(fen, st);
}

std::string round_trip(const std::string& fen) {
    Position pos;
    StateInfo st;
    std::string error = pos.set(fen, st);
    REQUIRE(error == "");
    return pos.fen();
}

bool has_move(const std::string& fen, const std::string& uci) {
    Position pos;
    StateInfo st;
    REQUIRE(pos.set(fen, st) == "");
    return parse_uci_move(pos, uci) != MOVE_NONE;
}

}  // namespace

TEST_CASE("standard positions are written as plain 6-field FENs", "[fen]") {
    REQUIRE(round_trip(StartFen) == StartFen);
    const std::string kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    REQUIRE(round_trip(kiwi) == kiwi);
    // Explicit fields 7 and 8 that say the default collapse to 6 fields.
    REQUIRE(round_trip(std::string(StartFen) + " - -") == StartFen);
}

TEST_CASE("non-standard positions are written with all 8 fields", "[fen]") {
    // A compound piece makes its side variant when field 7 is absent.
    REQUIRE(round_trip("4k3/8/8/8/8/8/PP6/M3K3 w - - 0 1") == "4k3/8/8/8/8/8/PP6/M3K3 w - - 0 1 V a2b2");
    // Field 7 given without field 8: a variant side's pawns in its own half are unmoved.
    REQUIRE(round_trip("4k3/p7/8/8/3P4/8/8/P3K3 w - - 0 1 Vv") == "4k3/p7/8/8/3P4/8/8/P3K3 w - - 0 1 Vv a1d4a7");
    // A classic side listed only where its rights are not its rank-2/7 pawns.
    REQUIRE(round_trip("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1 - b2") == "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1 - b2");
    REQUIRE(round_trip("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1 - b2a7b7") == "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1 - b2");
    // Unmoved pawns are written in a1..h8 order whatever order they were read in.
    REQUIRE(round_trip("4k3/8/8/8/8/8/2P5/P3K3 w - - 0 1 V c2a1") == "4k3/8/8/8/8/8/2P5/P3K3 w - - 0 1 V a1c2");
}

TEST_CASE("reading what was written gives back the same position", "[fen]") {
    const char* fens[] = {
        "1pnbkppq/2arpb2/1Pp1P3/3P4/r1P2PP1/PP2PPPP/PPPPAPPP/PAPPKPPP b - b5 0 5 Vv "
        "a1c1d1f1g1h1a2b2c2d2f2g2h2a3b3e3f3g3h3f4g4e7b8f8g8",
        "r3k3/2p5/4p3/8/3P4/7P/8/1M2K3 w q - 0 1 V h3d4",
        "ar1b1kbn/1p2nq2/3p4/P1p1p2p/4pp2/BP1B2P1/2PPN2P/RN1QK2R w KQ - 2 12 v b7",
        "4k2r/6pp/8/8/8/Pp6/8/2A1K3 b k a2 0 1 V -",
    };
    for (const char* f : fens) {
        std::string once = round_trip(f);
        REQUIRE(round_trip(once) == once);
        Position a, b;
        StateInfo sa, sb;
        REQUIRE(a.set(f, sa) == "");
        REQUIRE(b.set(once, sb) == "");
        REQUIRE(a.key() == b.key());
    }
}

TEST_CASE("double-step rights follow the per-side rules", "[fen][rules]") {
    // Variant White pawn on a1 double-steps to a3; the classic Black pawn may not.
    REQUIRE(has_move("4k3/8/8/8/8/8/8/P2MK3 w - - 0 1 V a1", "a1a3"));
    REQUIRE_FALSE(has_move("4k3/8/8/8/8/8/8/P2MK3 w - - 0 1 V -", "a1a3"));
    // A variant pawn on rank 4 may go to rank 6.
    REQUIRE(has_move("4k3/8/8/8/3P4/8/8/3MK3 w - - 0 1 V d4", "d4d6"));
    // A classic pawn that reached rank 2 from rank 1 is not unmoved.
    REQUIRE_FALSE(has_move("4k3/8/8/8/8/8/3P4/P3K3 w - - 0 1 - a1", "d2d4"));
    REQUIRE(has_move("4k3/8/8/8/8/8/3P4/P3K3 w - - 0 1 - d2", "d2d4"));
    // A classic side never double-steps from rank 1, even when listed.
    REQUIRE_FALSE(has_move("4k3/8/8/8/8/8/8/P3K3 w - - 0 1 - a1", "a1a3"));
    // Two positions differing only in which pawn may still double-step differ in key.
    Position a, b;
    StateInfo sa, sb;
    REQUIRE(a.set("4k3/8/8/8/8/8/PP6/M3K3 w - - 0 1 V a2", sa) == "");
    REQUIRE(b.set("4k3/8/8/8/8/8/PP6/M3K3 w - - 0 1 V b2", sb) == "");
    REQUIRE(a.key() != b.key());
}

TEST_CASE("variant sides promote to seven pieces, classic sides to four", "[rules]") {
    Position pos;
    StateInfo st;
    REQUIRE(pos.set("8/P3k3/8/8/8/8/p7/4K2M w - - 0 1 V -", st) == "");
    int promos = 0;
    for (Move m : MoveList<LEGAL>(pos)) promos += is_promotion(m);
    REQUIRE(promos == 7);
    REQUIRE(has_move("8/P3k3/8/8/8/8/p7/4K2M w - - 0 1 V -", "a7a8m"));
    REQUIRE(pos.set("8/P3k3/8/8/8/8/p7/4K2M b - - 0 1 V -", st) == "");
    promos = 0;
    for (Move m : MoveList<LEGAL>(pos)) promos += is_promotion(m);
    REQUIRE(promos == 4);
}

TEST_CASE("variant sides never castle; classic sides castle in a mixed game", "[rules]") {
    REQUIRE(has_move("r3k2r/8/8/8/8/8/8/R3K2R w KQ - 0 1 v -", "e1g1"));
    REQUIRE(fen_error("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 v -").find("Black plays variant") != std::string::npos);
    REQUIRE(fen_error("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 V -").find("variant") != std::string::npos);
    REQUIRE_FALSE(has_move("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1 V -", "e1g1"));
}

TEST_CASE("bad FENs are refused with a message naming the field", "[fen][errors]") {
    struct Case {
        const char* fen;
        const char* expected;  // a piece of the message
    } cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Vv - extra", "fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter 'X'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 has 7 files"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 files"},
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks"},
        {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks"},
        {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "Black has 0 kings"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "White has 2 kings"},
        {"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "White pawn on a8"},
        {"4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "Black pawn on a1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling: unknown character 'x'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "given twice"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "rook on h1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "White has 0 kings"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w K - 0 1", "king on e1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR w KQkq - 0 1", "variant rules"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "no Black pawn on e2"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", "not a square"},
        {"rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq e2 0 1", "e2 and e1 must be empty"},
        {"4k3/8/8/8/8/P7/8/4K3 b - a2 0 1", "cannot double-step from a1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", "fullmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 X", "variant sides: unknown character 'X'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - e4", "e4 has no pawn"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - e2e", "not a list of squares"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - z2", "not a square"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - e2e2", "listed twice"},
        {"4k3/8/8/4P3/8/8/8/4K3 w - - 0 1 V e5", "outside its own half"},
        {"4k3/8/8/8/4p3/8/8/4K3 w - - 0 1 v e4", "outside its own half"},
        {"4k3/8/8/8/8/8/8/4K2r b - - 0 1", "White (not to move) is in check"},
        {"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "Black (not to move) is in check"},
    };
    for (const auto& c : cases) {
        std::string error = fen_error(c.fen);
        INFO(c.fen << " -> " << error);
        REQUIRE(error.find(c.expected) != std::string::npos);
    }
}

TEST_CASE("an en-passant square needs a double step that could have produced it", "[fen][errors]") {
    // Variant pawns may double-step from rank 1: a2 is then a valid en-passant square.
    REQUIRE(fen_error("4k2r/6pp/8/8/8/Pp6/8/2A1K3 b k a2 0 1 V -") == "");
    // The same for a classic mover is refused.
    REQUIRE(fen_error("4k2r/6pp/8/8/8/Pp6/8/2B1K3 b k a2 0 1 - -").find("cannot double-step from a1") !=
            std::string::npos);
    // A pawn still listed as unmoved cannot just have double-stepped.
    REQUIRE(fen_error("4k3/8/8/8/Pp6/8/8/3MK3 b - a3 0 1 V a4").find("listed as unmoved") != std::string::npos);
    // An en-passant square nobody can capture on is dropped, as after the move itself.
    REQUIRE(round_trip("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") ==
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    REQUIRE(round_trip("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") ==
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
}

TEST_CASE("a refused FEN leaves the position unchanged", "[fen][errors]") {
    Position pos;
    StateInfo st;
    REQUIRE(pos.set(StartFen, st) == "");
    Key before = pos.key();
    REQUIRE(pos.set("garbage", st) != "");
    REQUIRE(pos.fen() == StartFen);
    REQUIRE(pos.key() == before);
}

namespace {

std::vector<std::string> split_fields(const std::string& fen) {
    std::istringstream in(fen);
    std::vector<std::string> f;
    for (std::string w; in >> w;) f.push_back(w);
    return f;
}

// Everything a FEN must carry, compared between a position and its re-read FEN.
void require_same_state(const Position& a, const Position& b) {
    REQUIRE(a.key() == b.key());
    for (Color c : {WHITE, BLACK}) REQUIRE(a.rules(c).variant == b.rules(c).variant);
    REQUIRE(a.double_step_pawns() == b.double_step_pawns());
    REQUIRE(a.castling_rights() == b.castling_rights());
    REQUIRE(a.ep_square() == b.ep_square());
    REQUIRE(std::min(a.rule50_count(), MaxFenCounter) == b.rule50_count());
    REQUIRE(std::min(a.fullmove_number(), MaxFenCounter) == b.fullmove_number());
    REQUIRE(a.fen() == b.fen());
}

}  // namespace

TEST_CASE("FENs that once failed to read back", "[fen]") {
    // A classic side holding a compound piece (field 7 '-') keeps fields 7 and 8, so it
    // stays classic and keeps its castling right.
    const std::string chancellor = "r3k2c/8/8/8/8/8/8/4K3 b q - 0 1 -";
    REQUIRE(round_trip(chancellor) == "r3k2c/8/8/8/8/8/8/4K3 b q - 0 1 - -");
    REQUIRE(round_trip(round_trip(chancellor)) == round_trip(chancellor));
    Position pos;
    StateInfo st;
    REQUIRE(pos.set(round_trip("4k3/8/8/8/8/8/8/3CK3 w - - 0 1 -"), st) == "");
    REQUIRE_FALSE(pos.rules(WHITE).variant);
    // Counters grow past the bound the reader takes: the writer saturates.
    Game g;
    REQUIRE(g.set("4k3/8/8/8/8/8/8/4K2R w - - 0 100000000", {"h1h2", "e8e7"}) == "");
    REQUIRE(round_trip(g.position().fen()) == "8/4k3/8/8/8/8/7R/4K3 w - - 2 100000000");
    REQUIRE(fen_error("4k3/8/8/8/8/8/8/4K2R w - - 0 100000001").find("from 0 to 100000000") != std::string::npos);
    // A classic side whose rank-2 pawns came from rank 1 and may not double-step, with
    // no other pawn to list: its king's square marks the (empty) list as exact.
    REQUIRE(g.set("4k3/8/8/8/8/8/8/PP2K3 w - - 0 1 - a1b1", {"a1a2", "e8e7", "b1b2", "e7e8"}) == "");
    REQUIRE(g.position().fen() == "4k3/8/8/8/8/8/PP6/4K3 w - - 1 3 - e1");
    REQUIRE_FALSE(has_move(g.position().fen(), "a2a4"));
    REQUIRE(has_move("4k3/8/8/8/8/8/PP6/4K3 w - - 4 3 - -", "a2a4"));
}

TEST_CASE("every FEN the engine writes reads back the same (random playouts, random fields 7 and 8)",
          "[fen][property]") {
    std::uint64_t rng = 2024;
    auto next = [&] { return splitmix64(rng); };
    int checked = 0, starts = 0;
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        // A random army position with its fields 7 and 8 (and counters) rewritten at random.
        std::vector<std::string> f = split_fields(testsupport::random_army_fen(seed, int(seed % 4)));
        static const char* const Sides[] = {"-", "V", "v", "Vv"};
        f[6] = Sides[next() % 4];
        std::string listed;
        Position probe;
        StateInfo probe_st;
        REQUIRE(probe.set(f[0] + " w - - 0 1 - -", probe_st) == "");
        for (Bitboard b = probe.pieces(PAWN) | probe.pieces(KING); b;) {
            Square s = pop_lsb(b);
            if (next() % 3 == 0) listed += square_name(s);
        }
        f[7] = listed.empty() ? "-" : listed;
        if (next() % 4 == 0) f[2] = "-";
        if (next() % 5 == 0) f[4] = std::to_string(MaxFenCounter - next() % 3);
        if (next() % 5 == 0) f[5] = std::to_string(MaxFenCounter - next() % 3);
        std::string fen;
        for (std::size_t i = 0; i < f.size() - (next() % 3 == 0); ++i) fen += (i ? " " : "") + f[i];

        std::deque<StateInfo> states(1);
        Position pos;
        if (pos.set(fen, states.back()) != "") continue;  // e.g. castling for a side made variant
        ++starts;
        for (int ply = 0; ply < 60; ++ply) {
            INFO("start " << fen << " ply " << ply << " fen " << pos.fen());
            Position again;
            StateInfo st;
            REQUIRE(again.set(pos.fen(), st) == "");
            require_same_state(pos, again);
            ++checked;
            MoveList<LEGAL> moves(pos);
            if (!moves.size()) break;
            states.emplace_back();
            pos.do_move(*(moves.begin() + next() % moves.size()), states.back());
        }
    }
    INFO("starts " << starts << ", positions " << checked);
    REQUIRE(starts > 200);
    REQUIRE(checked > 10000);
}
