// Tests of the reference move generator (refchess) and the random-army position
// generator (testsupport). The reference generator is the yardstick for the
// engine's move generator, so it is itself checked against the published perft
// tables in tests/data and against hand-picked positions for each special rule
// of shared/the rules in README.md.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../support/random_armies.h"
#include "ref_chess.h"

#ifndef MAHARAJAH_TEST_DATA_DIR
#error "MAHARAJAH_TEST_DATA_DIR must name the folder holding standard.tsv and variant.tsv"
#endif

namespace {

struct PerftLine {
    std::string fen;
    int depth;
    std::uint64_t nodes;
};

// Reads fen<TAB>depth<TAB>nodes lines, skipping '#' comments and blank lines.
std::vector<PerftLine> read_tsv(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<PerftLine> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        std::string fen, depth, nodes;
        std::getline(ls, fen, '\t');
        std::getline(ls, depth, '\t');
        std::getline(ls, nodes, '\t');
        out.push_back({fen, std::stoi(depth), std::stoull(nodes)});
    }
    return out;
}

refchess::Board parse(const std::string& fen) {
    refchess::Board b;
    std::string err;
    INFO(fen << " : " << err);
    REQUIRE(refchess::parse_fen(fen, b, &err));
    return b;
}

bool contains(const std::vector<std::string>& v, const std::string& m) {
    return std::find(v.begin(), v.end(), m) != v.end();
}

int sq(const char* name) { return (name[1] - '1') * 8 + (name[0] - 'a'); }

std::vector<std::string> split_ws(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

int cost(char p) {
    switch (std::tolower(static_cast<unsigned char>(p))) {
        case 'p':
            return 1;
        case 'n':
        case 'b':
            return 3;
        case 'r':
            return 5;
        case 'a':
            return 6;
        case 'c':
            return 8;
        case 'q':
            return 9;
        case 'm':
            return 13;
        default:
            return 0;  // king (free) or empty
    }
}

bool is_compound(char p) {
    char k = static_cast<char>(std::tolower(static_cast<unsigned char>(p)));
    return k == 'm' || k == 'a' || k == 'c';
}

// Perft through the public string API (legal_moves + play), so that the path the
// engine comparison uses is checked against the internal perft.
std::uint64_t perft_via_api(const refchess::Board& b, int depth) {
    if (depth == 0) return 1;
    std::uint64_t n = 0;
    for (const std::string& m : refchess::legal_moves(b)) {
        refchess::Board c = b;
        refchess::play(c, m);
        n += perft_via_api(c, depth - 1);
    }
    return n;
}

}  // namespace

// Perft against the shared tables. Lines below 300,000 nodes keep the run short
// even in an unoptimised build; the full tables (all lines below 20 million
// nodes, and more) were checked by hand when this file was written.
TEST_CASE("reference perft matches the tsv tables", "[reference]") {
    const std::uint64_t kMaxNodes = 300000;
    int checked = 0;
    for (const char* name : {"/standard.tsv", "/variant.tsv"}) {
        for (const PerftLine& l : read_tsv(std::string(MAHARAJAH_TEST_DATA_DIR) + name)) {
            if (l.nodes >= kMaxNodes) continue;
            refchess::Board b = parse(l.fen);
            INFO(l.fen << " depth " << l.depth);
            CHECK(refchess::perft(b, l.depth) == l.nodes);
            ++checked;
        }
    }
    CHECK(checked >= 150);
}

TEST_CASE("reference: legal_moves + play agree with perft", "[reference]") {
    for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "r3k3/1P6/8/8/8/8/6p1/4K2A w q - 0 1 V -", "4k2r/6pp/8/8/8/1p6/8/P1A1K3 w k - 0 1 V a1"}) {
        INFO(fen);
        refchess::Board b = parse(fen);
        CHECK(perft_via_api(b, 3) == refchess::perft(b, 3));
    }
    for (int mode = 0; mode < 4; ++mode) {
        for (std::uint64_t seed = 1000; seed < 1005; ++seed) {
            const std::string fen = testsupport::random_army_fen(seed, mode);
            INFO(fen);
            refchess::Board b = parse(fen);
            CHECK(perft_via_api(b, 2) == refchess::perft(b, 2));
        }
    }
}

TEST_CASE("reference: start position and basic API", "[reference]") {
    refchess::Board b = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    auto moves = refchess::legal_moves(b);
    CHECK(moves.size() == 20);
    CHECK(std::is_sorted(moves.begin(), moves.end()));
    CHECK(contains(moves, "e2e4"));
    CHECK(contains(moves, "g1f3"));
    CHECK_FALSE(refchess::in_check(b));

    refchess::play(b, "e2e4");
    CHECK(b.ep == sq("e3"));
    CHECK_FALSE(b.white_to_move);
    CHECK(b.fullmove == 1);
    refchess::play(b, "g8f6");
    CHECK(b.ep == -1);
    CHECK(b.fullmove == 2);
    CHECK(b.halfmove == 1);

    refchess::Board bad;
    std::string err;
    CHECK_FALSE(refchess::parse_fen("not a fen", bad, &err));
    CHECK_FALSE(err.empty());
    CHECK_FALSE(refchess::parse_fen("8/8/8/8/8/8/8/8 w - - 0 1", bad, &err));  // no kings
}

TEST_CASE("reference: variant double step from rank 1 and en passant", "[reference]") {
    // White variant pawn on a1 may go a1-a3; Black's b3 pawn may then take on a2.
    refchess::Board b = parse("4k2r/6pp/8/8/8/1p6/8/P1A1K3 w k - 0 1 V a1");
    auto moves = refchess::legal_moves(b);
    CHECK(contains(moves, "a1a2"));
    CHECK(contains(moves, "a1a3"));
    refchess::play(b, "a1a3");
    CHECK(b.ep == sq("a2"));
    CHECK(contains(refchess::legal_moves(b), "b3a2"));
    refchess::play(b, "b3a2");
    CHECK(b.sq[sq("a3")] == '.');
    CHECK(b.sq[sq("a2")] == 'p');
    CHECK(b.halfmove == 0);

    // Variant pawn starting on rank 4 goes to rank 6 with the ep square on rank 5.
    refchess::Board c = parse("4k3/2p5/4p3/8/3P4/8/8/1M2K3 w - - 0 1 V d4");
    CHECK(contains(refchess::legal_moves(c), "d4d6"));
    refchess::play(c, "d4d6");
    CHECK(c.ep == sq("d5"));
    auto replies = refchess::legal_moves(c);
    CHECK(contains(replies, "e6d5"));  // en passant
    CHECK(contains(replies, "c7d6"));  // ordinary capture
    CHECK(contains(replies, "c7c5"));  // classic Black pawn on rank 7 still double-steps

    // Once a variant pawn has moved it has no double step any more.
    refchess::Board d = parse("4k3/8/8/8/8/8/8/P1A1K3 w - - 0 1 V a1");
    refchess::play(d, "a1a2");
    refchess::play(d, "e8d8");
    auto later = refchess::legal_moves(d);
    CHECK(contains(later, "a2a3"));
    CHECK_FALSE(contains(later, "a2a4"));
}

TEST_CASE("reference: classic pawns double-step only from rank 2/7", "[reference]") {
    // Listed, but classic: a rank-1 pawn never double-steps, not even from rank 2 later.
    refchess::Board b = parse("4k3/8/8/8/8/8/8/P3K3 w - - 0 1 - a1");
    auto moves = refchess::legal_moves(b);
    CHECK(contains(moves, "a1a2"));
    CHECK_FALSE(contains(moves, "a1a3"));
    refchess::play(b, "a1a2");
    refchess::play(b, "e8d8");
    CHECK_FALSE(contains(refchess::legal_moves(b), "a2a4"));

    // A classic side listed in field 8: the list is exact, so unlisted h2 cannot double-step.
    refchess::Board c = parse("4k3/8/8/8/8/8/P6P/4K3 w - - 0 1 - a2");
    auto cm = refchess::legal_moves(c);
    CHECK(contains(cm, "a2a4"));
    CHECK_FALSE(contains(cm, "h2h4"));

    // No field 8, variant White: every White pawn on ranks 1-4 is unmoved.
    refchess::Board d = parse("4k3/8/8/8/2P5/8/8/P3K2A w - - 0 1 V");
    auto dm = refchess::legal_moves(d);
    CHECK(contains(dm, "a1a3"));
    CHECK(contains(dm, "c4c6"));

    // No fields 7/8: a compound piece makes its side variant.
    refchess::Board e = parse("4k3/8/8/8/2P5/8/8/P3K2A w - - 0 1");
    CHECK(e.variant[0]);
    CHECK_FALSE(e.variant[1]);
    CHECK(contains(refchess::legal_moves(e), "c4c6"));
}

TEST_CASE("reference: promotion choices follow the promoting side", "[reference]") {
    refchess::Board b = parse("r3k3/1P6/8/8/8/8/6p1/4K2A w q - 0 1 V -");
    CHECK(b.castle[3]);
    auto moves = refchess::legal_moves(b);
    for (const char* m : {"b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7b8m", "b7b8a", "b7b8c", "b7a8m", "b7a8n"})
        CHECK(contains(moves, m));
    CHECK_FALSE(contains(moves, "b7b8"));
    refchess::play(b, "b7a8n");
    CHECK(b.sq[sq("a8")] == 'N');
    CHECK_FALSE(b.castle[3]);  // rook captured on a8
    // Black is classic: only q r b n.
    auto black = refchess::legal_moves(b);
    CHECK(contains(black, "g2g1q"));
    CHECK(contains(black, "g2h1n"));
    CHECK_FALSE(contains(black, "g2g1m"));
    CHECK_FALSE(contains(black, "g2g1a"));
}

TEST_CASE("reference: castling is for classic sides only", "[reference]") {
    refchess::Board b = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    auto moves = refchess::legal_moves(b);
    CHECK(contains(moves, "e1g1"));
    CHECK(contains(moves, "e1c1"));
    refchess::play(b, "e1g1");
    CHECK(b.sq[sq("f1")] == 'R');
    CHECK(b.sq[sq("h1")] == '.');
    CHECK_FALSE(b.castle[0]);
    CHECK_FALSE(b.castle[1]);
    CHECK(contains(refchess::legal_moves(b), "e8c8"));

    // Same position, White variant: no castling for White, Black still castles.
    refchess::Board v = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 V -");
    auto vm = refchess::legal_moves(v);
    CHECK_FALSE(contains(vm, "e1g1"));
    CHECK_FALSE(contains(vm, "e1c1"));

    // Not through an attacked square: the Black rook on f8 covers f1.
    refchess::Board t = parse("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    auto tm = refchess::legal_moves(t);
    CHECK_FALSE(contains(tm, "e1g1"));
    CHECK(contains(tm, "e1c1"));
}

TEST_CASE("reference: compound pieces move and give check", "[reference]") {
    // Lone Maharaja on d4: 27 queen moves + 8 knight moves.
    refchess::Board m = parse("k7/8/8/8/3M4/8/8/7K w - - 0 1");
    std::vector<std::string> from_d4;
    for (const auto& mv : refchess::legal_moves(m))
        if (mv.substr(0, 2) == "d4") from_d4.push_back(mv);
    CHECK(from_d4.size() == 35);
    // An Archbishop gives check with its knight part.
    refchess::Board a = parse("4k3/8/3A4/8/8/8/8/4K3 b - - 0 1");
    CHECK(refchess::in_check(a));
    // A Chancellor checks along the file but not through a blocker.
    CHECK(refchess::in_check(parse("4k3/8/8/8/8/8/8/2K1C3 b - - 0 1")));
    CHECK_FALSE(refchess::in_check(parse("4k3/4p3/8/8/8/8/8/2K1C3 b - - 0 1")));
}

// Checks every rule random_army_fen promises, reading the FEN text directly.
TEST_CASE("random armies obey the army rules", "[reference]") {
    for (int mode = 0; mode < 4; ++mode) {
        std::set<std::string> distinct;
        int pawns_rank1 = 0, big_armies = 0;
        for (std::uint64_t seed = 0; seed < 300; ++seed) {
            const std::string fen = testsupport::random_army_fen(seed, mode);
            INFO("mode " << mode << " seed " << seed << ": " << fen);
            CHECK(fen == testsupport::random_army_fen(seed, mode));  // deterministic
            distinct.insert(fen);

            const auto f = split_ws(fen);
            REQUIRE(f.size() == 8);
            CHECK(f[1] == "w");
            CHECK(f[3] == "-");
            CHECK(f[4] == "0");
            CHECK(f[5] == "1");
            refchess::Board b = parse(fen);

            // Kings, halves, points, piece counts, compound pieces.
            CHECK(b.sq[sq("e1")] == 'K');
            CHECK(b.sq[sq("e8")] == 'k');
            int points[2] = {0, 0}, pieces[2] = {0, 0};
            bool compound[2] = {false, false};
            for (int s = 0; s < 64; ++s) {
                const char p = b.sq[s];
                if (p == '.') continue;
                const bool white = std::isupper(static_cast<unsigned char>(p)) != 0;
                CHECK((white ? s < 32 : s >= 32));  // own half only
                const int side = white ? 0 : 1;
                points[side] += cost(p);
                if (p != 'K' && p != 'k') ++pieces[side];
                if (is_compound(p)) compound[side] = true;
            }
            CHECK(points[0] == 39);
            CHECK(points[1] == 39);
            CHECK(pieces[0] <= 31);
            CHECK(pieces[1] <= 31);
            if (b.sq[sq("a1")] == 'P' || b.sq[sq("h1")] == 'P') ++pawns_rank1;
            if (pieces[0] >= 24) ++big_armies;

            // Placement: a piece on a farther rank needs every nearer rank full.
            for (int side = 0; side < 2; ++side) {
                bool seen_gap = false;
                for (int step = 0; step < 4; ++step) {
                    const int rank = side == 0 ? step : 7 - step;
                    int filled = 0;
                    for (int file = 0; file < 8; ++file)
                        if (b.sq[rank * 8 + file] != '.') ++filled;
                    if (filled > 0) CHECK_FALSE(seen_gap);
                    if (filled < 8) seen_gap = true;
                }
            }

            // Mode constraints and field 7.
            if (mode == 1) CHECK((compound[0] && compound[1]));
            if (mode == 2) CHECK((!compound[0] && !compound[1]));
            if (mode == 3) CHECK(compound[0] != compound[1]);
            CHECK(b.variant[0] == compound[0]);
            CHECK(b.variant[1] == compound[1]);
            CHECK((f[6].find('V') != std::string::npos) == compound[0]);
            CHECK((f[6].find('v') != std::string::npos) == compound[1]);

            // Field 8: all pawns of a variant side, rank-2/7 pawns of a classic side.
            std::string expect_unmoved;
            for (int s = 0; s < 64; ++s) {
                const int rank = s / 8;
                const bool listed =
                    (b.sq[s] == 'P' && (compound[0] || rank == 1)) || (b.sq[s] == 'p' && (compound[1] || rank == 6));
                if (listed)
                    expect_unmoved += std::string(1, static_cast<char>('a' + s % 8)) + static_cast<char>('1' + rank);
                CHECK(b.unmoved[s] == listed);
            }
            CHECK(f[7] == (expect_unmoved.empty() ? "-" : expect_unmoved));

            // Castling: a classic side's rooks on their corners.
            std::string expect_castle;
            if (!compound[0] && b.sq[sq("h1")] == 'R') expect_castle += 'K';
            if (!compound[0] && b.sq[sq("a1")] == 'R') expect_castle += 'Q';
            if (!compound[1] && b.sq[sq("h8")] == 'r') expect_castle += 'k';
            if (!compound[1] && b.sq[sq("a8")] == 'r') expect_castle += 'q';
            CHECK(f[2] == (expect_castle.empty() ? "-" : expect_castle));

            // the rules in README.md start checks.
            CHECK_FALSE(refchess::in_check(b));
            refchess::Board flipped = b;
            flipped.white_to_move = false;
            CHECK_FALSE(refchess::in_check(flipped));
            CHECK_FALSE(refchess::legal_moves(b).empty());
        }
        // Variety: different seeds give different positions, with pawn-heavy
        // armies and pawns on the home rank showing up regularly.
        CHECK(distinct.size() >= 290);
        CHECK(pawns_rank1 >= 30);
        CHECK(big_armies >= 10);
    }
}
