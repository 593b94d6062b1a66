// SAN: every legal move of random positions (all army mixes, standard chess, Chess960)
// written and read back to the same move, unique among the legal moves; hand-checked
// notation (compound-piece disambiguation, promotions, en passant, castling, suffixes);
// the lenient reader; the movelist facts and `incheck` against independent checks.

#include <algorithm>
#include <catch2/catch.hpp>
#include <deque>
#include <set>

#include "core/random.h"
#include "movegen/movegen.h"
#include "movegen/san.h"
#include "protocol/uci.h"
#include "support/random_armies.h"
#include "support/uci_session.h"

using namespace maharajah;

namespace {

struct Board {
    std::deque<StateInfo> states{1};
    Position pos;
    explicit Board(const std::string& fen, bool chess960 = false) {
        Position::init();
        REQUIRE(pos.set(fen, states.back(), chess960) == "");
    }
    Move uci(const std::string& text) const {
        Move m = parse_uci_move(pos, text);
        REQUIRE(m != MOVE_NONE);
        return m;
    }
    std::string san(const std::string& text) const { return move_to_san(pos, uci(text)); }
    std::string read(const std::string& san) const {
        Move m = parse_san(pos, san);
        return m == MOVE_NONE ? "none" : move_to_uci(pos, m);
    }
    void play(Move m) { pos.do_move(m, states.emplace_back()); }
};

// Every legal move to SAN and back; the SANs are distinct. Returns the move count.
std::size_t check_round_trip(const Position& pos) {
    std::set<std::string> seen;
    MoveList<LEGAL> legal(pos);
    for (Move m : legal) {
        const std::string san = move_to_san(pos, m);
        INFO(pos.fen() << " " << move_to_uci(pos, m) << " " << san);
        REQUIRE(parse_san(pos, san) == m);
        REQUIRE(seen.insert(san).second);
        // Without its suffix it still reads back (the reader tolerates missing +/#).
        std::string bare = san;
        while (bare.back() == '+' || bare.back() == '#') bare.pop_back();
        REQUIRE(parse_san(pos, bare) == m);
    }
    return legal.size();
}

void playout(const std::string& fen, bool chess960, int plies, std::uint64_t& rng, std::size_t& moves) {
    Board b(fen, chess960);
    for (int ply = 0; ply < plies; ++ply) {
        moves += check_round_trip(b.pos);
        MoveList<LEGAL> legal(b.pos);
        if (!legal.size()) return;
        b.play(*(legal.begin() + splitmix64(rng) % legal.size()));
    }
}

}  // namespace

TEST_CASE("SAN round trip: every legal move of random army, standard and Chess960 positions", "[san]") {
    std::uint64_t rng = 48;
    std::size_t moves = 0;
    for (std::uint64_t seed = 1; seed <= 80; ++seed)
        playout(testsupport::random_army_fen(seed, int(seed % 4)), false, 40, rng, moves);
    for (int i = 0; i < 6; ++i) playout(StartFen, false, 60, rng, moves);
    for (const char* fen : {"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
                            "r5kr/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"})
        for (int i = 0; i < 4; ++i) playout(fen, true, 60, rng, moves);
    REQUIRE(moves > 50000);
}

TEST_CASE("SAN disambiguates only among pieces of the same letter, by file, rank, then both", "[san]") {
    // Archbishops c1 and g1 both leap to e2; the knight on c3 also reaches e2 but has
    // another letter. Chancellors a1 and a5 share the a-file: their rank tells them apart.
    Board b("4k3/8/8/C7/8/2N5/8/C1A1K1A1 w - - 0 1");
    REQUIRE(b.san("c1e2") == "Ace2");
    REQUIRE(b.san("g1e2") == "Age2");
    REQUIRE(b.san("c3e2") == "Ne2");
    REQUIRE(b.san("a1a3") == "C1a3");
    REQUIRE(b.san("a5a3") == "C5a3");
    // The knight part alone: a1 leaps to b3, a5 leaps to b3 too.
    REQUIRE(b.san("a1b3") == "C1b3");
    REQUIRE(b.read("Ce2") == "none");  // c1-e2 is an archbishop's move, not a chancellor's
    REQUIRE(b.read("Ae2") == "none");  // ambiguous
    REQUIRE(b.read("Ace2") == "c1e2");
    REQUIRE(b.read("A1e2") == "none");  // still ambiguous: both on rank 1

    // Maharajas a1, a3, c1 all reach c3: a1 shares a file and a rank with the others.
    Board m("4k3/8/8/8/8/M7/8/M1M1K3 w - - 0 1");
    REQUIRE(m.san("a1c3") == "Ma1c3");
    REQUIRE(m.san("a3c3") == "M3c3");  // its file is shared, its rank is not
    REQUIRE(m.san("c1c3") == "Mcc3");  // its file is its own
    REQUIRE(m.read("Ma1c3") == "a1c3");
    REQUIRE(m.read("Mac3") == "none");  // a1 or a3
}

TEST_CASE("SAN of promotions to compound pieces, en passant, castling and check suffixes", "[san]") {
    // A variant side promotes to M, A and C as well; M and C check along the rank, A does not.
    Board p("2k5/P7/8/8/8/8/8/4K3 w - - 0 1 V");
    REQUIRE(p.san("a7a8m") == "a8=M+");
    REQUIRE(p.san("a7a8a") == "a8=A");
    REQUIRE(p.san("a7a8c") == "a8=C+");
    REQUIRE(p.san("a7a8n") == "a8=N");
    REQUIRE(p.read("a8=M") == "a7a8m");
    REQUIRE(p.read("a8M") == "a7a8m");
    REQUIRE(p.read("a8=m+") == "a7a8m");
    REQUIRE(p.read("a8c") == "a7a8c");
    REQUIRE(p.read("a8") == "none");  // a promotion must say its piece
    REQUIRE(p.read("a8=K") == "none");

    // En passant: exd6 after d7-d5.
    Board e("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    e.play(e.uci("d7d5"));
    REQUIRE(e.san("e5d6") == "exd6");
    REQUIRE(move_facts(e.pos, e.uci("e5d6")).en_passant);
    REQUIRE(e.read("exd6") == "e5d6");
    REQUIRE(e.read("ed6") == "e5d6");
    REQUIRE(e.read("exd6e.p.") == "e5d6");

    // Both castlings, standard and Chess960 (king b1, rooks a1 and h1).
    Board c("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    REQUIRE(c.san("e1g1") == "O-O");
    REQUIRE(c.san("e1c1") == "O-O-O");
    REQUIRE(c.read("0-0") == "e1g1");
    REQUIRE(c.read("O-O-O+") == "e1c1");
    Board c960("r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1", true);
    REQUIRE(c960.san("b1a1") == "O-O-O");
    REQUIRE(c960.san("b1h1") == "O-O");
    REQUIRE(c960.read("O-O") == "b1h1");
    REQUIRE(c960.read("0-0-0") == "b1a1");
    const MoveFacts f = move_facts(c960.pos, c960.uci("b1a1"));
    REQUIRE((f.castling && f.rook_from == SQ_A1 && f.rook_to == SQ_D1 && !f.capture));

    // Check and mate: the scholar's mate.
    Board s("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4");
    REQUIRE(s.san("h5f7") == "Qxf7#");
    REQUIRE(s.san("c4f7") == "Bxf7+");
    REQUIRE(s.read("Qxf7") == "h5f7");
    REQUIRE(s.read("Qf7#") == "h5f7");
    REQUIRE(s.read("Qh5xf7#") == "h5f7");
    REQUIRE(s.read("Qxf7!!") == "h5f7");
    const MoveFacts mate = move_facts(s.pos, s.uci("h5f7"));
    REQUIRE((mate.capture && mate.check && mate.mate));
}

TEST_CASE("SAN reader: a lower-case piece letter only where no pawn move is meant", "[san]") {
    // The b-pawn and the bishop on a5 both capture on c3.
    Board b("4k3/8/8/B7/8/2p5/1P6/4K1N1 w - - 0 1");
    REQUIRE(b.read("nf3") == "g1f3");
    REQUIRE(b.read("bxc3") == "b2c3");  // the pawn's capture, as SAN means it (not the bishop's)
    REQUIRE(b.read("bb6") == "a5b6");   // no pawn goes there: the bishop
    REQUIRE(b.read("bb4") == "b2b4");   // the pawn's double step, not Bb4
    REQUIRE(b.read("Bxc3") == "a5c3");
    REQUIRE(b.read("b2xc3") == "b2c3");
    REQUIRE(b.read("kd1") == "e1d1");
    REQUIRE(b.read("b3") == "b2b3");
    for (const char* junk : {"", "x", "Qxx3", "Ng1f3g", "O-O-O-O", "N@f3", "e9", "Z3", "==Q", "+", "a8=", "\xff"})
        REQUIRE(b.read(junk) == "none");
    // Two knights reach d2: "Nd2" is ambiguous, and the message lists both.
    Board n("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    std::string why;
    REQUIRE(parse_san(n.pos, "Nd2", &why) == MOVE_NONE);
    REQUIRE(why == "ambiguous: Nbd2 Nfd2");
}

TEST_CASE("tosan and fromsan through the protocol leave the position as it was", "[san][uci]") {
    testsupport::UciSession s;
    auto out = s.run("position startpos moves e2e4\ntosan e7e5 g1f3 b8c6 f1b5\nfen\n");
    REQUIRE(out.size() == 2);
    REQUIRE(out[0] == "san e5 Nf3 Nc6 Bb5");
    REQUIRE(out[1] == "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    REQUIRE(s.run("fromsan e5 Nf3 Nc6 Bb5 a6\n") == std::vector<std::string>{"line e7e5 g1f3 b8c6 f1b5 a7a6"});
    REQUIRE(s.run("tosan\nfromsan\n") == std::vector<std::string>{"san", "line"});
    out = s.run("fromsan e5 Nf3 Ke7 Qxf7\nfen\n");
    REQUIRE(out.size() == 2);
    REQUIRE(out[0].rfind("info string error: fromsan: 'Qxf7' (move 4 of the list): no legal move", 0) == 0);
    REQUIRE(out[1] == "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    out = s.run("tosan e7e5 e1e3 x\n");
    REQUIRE(out.size() == 1);
    REQUIRE(out[0].rfind("info string error: tosan: illegal move 'e1e3' (move 2 of the list)", 0) == 0);
}

TEST_CASE("movelist facts agree with the move kinds, incheck with d's checkers", "[san][uci]") {
    testsupport::UciSession s;
    std::uint64_t rng = 4848;
    int positions = 0, checks = 0, captures = 0, castles = 0, promotions = 0, en_passant = 0;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        Board b(seed % 6 == 0 ? std::string(StartFen) : testsupport::random_army_fen(seed, int(seed % 4)));
        std::string moves;
        for (int ply = 0; ply < 30; ++ply) {
            MoveList<LEGAL> legal(b.pos);
            if (!legal.size()) break;
            auto out = s.run("position fen " + b.pos.fen() + "\nmovelist\nincheck\nd\n");
            // One line per legal move, then endmoves; then incheck; then the diagram.
            REQUIRE(out.size() > legal.size() + 1);
            REQUIRE(out[legal.size()] == "endmoves");
            const std::string incheck = out[legal.size() + 1];
            const auto checkers = testsupport::starting_with(out, "Checkers:");
            REQUIRE(checkers.size() == 1);
            REQUIRE(incheck == (checkers[0] == "Checkers:" ? "incheck no" : "incheck yes"));
            checks += incheck == "incheck yes";
            for (std::size_t i = 0; i < legal.size(); ++i) {
                std::istringstream is(out[i]);
                std::string uci, san, word;
                is >> uci >> san;
                const Move m = b.uci(uci);
                std::set<std::string> flags;
                std::string rook;
                while (is >> word) {
                    flags.insert(word);
                    if (word == "castle") is >> rook;
                }
                INFO(b.pos.fen() << " " << out[i]);
                REQUIRE(parse_san(b.pos, san) == m);
                const bool capture = is_en_passant(m) || (!is_castling(m) && !b.pos.empty(to_sq(m)));
                REQUIRE(flags.count("capture") == capture);
                REQUIRE(flags.count("enpassant") == is_en_passant(m));
                REQUIRE(flags.count("promotion") == is_promotion(m));
                REQUIRE(flags.count("castle") == is_castling(m));
                if (is_castling(m)) {
                    const int cr = Position::castling_right_of(m);
                    REQUIRE(rook ==
                            square_name(b.pos.castling_rook_square(cr)) + square_name(Position::castling_rook_to(cr)));
                }
                // Check and mate from the position after the move.
                Board after(b.pos.fen());
                after.play(m);
                REQUIRE(flags.count("check") == after.pos.in_check());
                REQUIRE(flags.count("mate") == (after.pos.in_check() && !MoveList<LEGAL>(after.pos).size()));
                REQUIRE(san.back() == (flags.count("mate") ? '#' : flags.count("check") ? '+' : san.back()));
                captures += capture, castles += is_castling(m), promotions += is_promotion(m),
                    en_passant += is_en_passant(m);
            }
            ++positions;
            b.play(*(legal.begin() + splitmix64(rng) % legal.size()));
        }
    }
    // The sample covers every kind (the counts make a silent no-op impossible).
    REQUIRE(positions > 500);
    REQUIRE(checks > 0);
    REQUIRE(captures > 0);
    REQUIRE(castles > 0);
    REQUIRE(promotions > 0);
    REQUIRE(en_passant > 0);
}
