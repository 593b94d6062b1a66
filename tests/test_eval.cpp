// The evaluation: colour symmetry on many positions, and the material-only baseline.

#include <catch2/catch.hpp>
#include <deque>
#include <sstream>

#include "eval/evaluate.h"
#include "movegen/movegen.h"
#include "protocol/bench_positions.h"
#include "protocol/game.h"
#include "support/random_armies.h"

using namespace maharajah;

namespace {

std::string flip_square(const std::string& sq) { return {sq[0], char('1' + ('8' - sq[1]))}; }

// The colour-flipped FEN: ranks mirrored, colours and every per-side field swapped.
std::string flip_fen(const std::string& fen) {
    std::istringstream is(fen);
    std::vector<std::string> f;
    for (std::string w; is >> w;) f.push_back(w);
    std::vector<std::string> ranks;
    std::string r;
    for (char c : f[0] + "/") {
        if (c == '/')
            ranks.insert(ranks.begin(), r), r.clear();
        else
            r += char(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
    }
    std::string board;
    for (std::size_t i = 0; i < ranks.size(); ++i) board += (i ? "/" : "") + ranks[i];
    std::string castling;
    for (char c : f[2])
        castling +=
            c == '-' ? '-' : char(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
    // Castling letters must stay in KQkq order.
    std::string ordered;
    for (char c : std::string("KQkq"))
        if (castling.find(c) != std::string::npos) ordered += c;
    if (ordered.empty()) ordered = "-";
    std::string out = board + (f[1] == "w" ? " b " : " w ") + ordered + ' ' + (f[3] == "-" ? "-" : flip_square(f[3])) +
                      ' ' + f[4] + ' ' + f[5];
    if (f.size() >= 7) {
        std::string sides;
        if (f[6].find('v') != std::string::npos) sides += 'V';
        if (f[6].find('V') != std::string::npos) sides += 'v';
        out += ' ' + (sides.empty() ? std::string("-") : sides);
    }
    if (f.size() == 8) {
        std::string list;
        if (f[7] != "-")
            for (std::size_t i = 0; i < f[7].size(); i += 2) list += flip_square(f[7].substr(i, 2));
        out += ' ' + (list.empty() ? std::string("-") : list);
    }
    return out;
}

void check_symmetry(const std::string& fen, int& checked) {
    Position a, b;
    StateInfo sa, sb;
    REQUIRE(a.set(fen, sa) == "");
    std::string flipped = flip_fen(a.fen());
    INFO(a.fen() << "  flipped: " << flipped);
    REQUIRE(b.set(flipped, sb) == "");
    for (eval::Mode mode : {eval::Mode::CLASSICAL, eval::Mode::NNUE, eval::Mode::HYBRID})
        REQUIRE(eval::evaluate(a, eval::Options{mode}) == eval::evaluate(b, eval::Options{mode}));
    eval::Options material{eval::Mode::MATERIAL};
    REQUIRE(eval::evaluate(a, material) == eval::evaluate(b, material));
    ++checked;
}

}  // namespace

TEST_CASE("the evaluation is colour-symmetric", "[eval]") {
    Position::init();
    int checked = 0;
    for (const char* fen : BenchFens) check_symmetry(fen, checked);
    // Positions along random playouts from random armies and the bench positions.
    std::uint64_t rng = 12345;
    auto next = [&rng] {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        return rng;
    };
    std::vector<std::string> starts(std::begin(BenchFens), std::end(BenchFens));
    for (std::uint64_t seed = 1; seed <= 60; ++seed)
        starts.push_back(testsupport::random_army_fen(seed, int(seed % 4)));
    for (const std::string& start : starts) {
        std::deque<StateInfo> states(1);
        Position pos;
        REQUIRE(pos.set(start, states.back()) == "");
        for (int ply = 0; ply < 40; ++ply) {
            MoveList<LEGAL> moves(pos);
            if (!moves.size()) break;
            Move m = *(moves.begin() + next() % moves.size());
            states.emplace_back();
            pos.do_move(m, states.back());
            if (ply % 4 == 0) check_symmetry(pos.fen(), checked);
        }
    }
    REQUIRE(checked > 500);
}

TEST_CASE("material-only evaluation counts material and nothing else", "[eval]") {
    Position pos;
    StateInfo st;
    eval::Options material{eval::Mode::MATERIAL};
    REQUIRE(pos.set(StartFen, st) == "");
    REQUIRE(eval::evaluate(pos, material) == 0);
    // The same material on other squares gives the same value.
    REQUIRE(pos.set("4k3/8/8/8/8/8/8/A3K3 w - - 0 1", st) == "");
    Value a = eval::evaluate(pos, material);
    REQUIRE(pos.set("4k3/8/8/3A4/8/8/8/4K3 w - - 0 1", st) == "");
    REQUIRE(eval::evaluate(pos, material) == a);
    REQUIRE(a > 0);
    // The hand-written evaluation does see the difference (a centralised archbishop is better).
    const eval::Options classical{eval::Mode::CLASSICAL};
    Value corner, centre;
    REQUIRE(pos.set("4k3/8/8/8/8/8/8/A3K3 w - - 0 1", st) == "");
    corner = eval::evaluate(pos, classical);
    REQUIRE(pos.set("4k3/8/8/3A4/8/8/8/4K3 w - - 0 1", st) == "");
    centre = eval::evaluate(pos, classical);
    REQUIRE(centre > corner);
}

TEST_CASE("compound pieces are valued by their parts, not their army cost", "[eval]") {
    Position pos;
    StateInfo st;
    auto value_of = [&](const char* fen) {
        REQUIRE(pos.set(fen, st) == "");
        return eval::evaluate(pos, eval::Options{eval::Mode::MATERIAL});
    };
    Value knight = value_of("4k3/8/8/8/8/8/8/N3K3 w - - 0 1"), bishop = value_of("4k3/8/8/8/8/8/8/B3K3 w - - 0 1"),
          rook = value_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), queen = value_of("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    Value archbishop = value_of("4k3/8/8/8/8/8/8/A3K3 w - - 0 1"),
          chancellor = value_of("4k3/8/8/8/8/8/8/C3K3 w - - 0 1"),
          maharaja = value_of("4k3/8/8/8/8/8/8/M3K3 w - - 0 1");
    REQUIRE(archbishop > rook);
    REQUIRE(archbishop < knight + bishop + rook);
    REQUIRE(chancellor > archbishop);
    REQUIRE(maharaja > queen);
    REQUIRE(maharaja < queen + rook);
    (void)bishop;
}

TEST_CASE("the eval trace adds up to the evaluation and mirrors with the colours", "[eval]") {
    for (const char* fen : BenchFens) {
        Position pos, flipped;
        StateInfo st, st2;
        REQUIRE(pos.set(fen, st) == "");
        REQUIRE(flipped.set(flip_fen(fen), st2) == "");
        eval::Trace t, tf;
        const eval::Options classical{eval::Mode::CLASSICAL};
        Value v = eval::evaluate(pos, classical, &t);
        REQUIRE(v == eval::evaluate(pos, classical));  // tracing changes nothing
        eval::evaluate(flipped, classical, &tf);
        // Every term of White is the flipped position's Black term, and vice versa.
        eval::Score sum;
        for (int term = 0; term < eval::TERM_NB; ++term) {
            INFO(fen << " term " << eval::TermName[term]);
            REQUIRE(t.terms[WHITE][term] == tf.terms[BLACK][term]);
            REQUIRE(t.terms[BLACK][term] == tf.terms[WHITE][term]);
            sum += t.terms[WHITE][term] - t.terms[BLACK][term];
        }
        // The terms, tapered, are the evaluation before scale and tempo.
        REQUIRE((sum.mg * t.phase + sum.eg * (eval::PhaseFull - t.phase)) / eval::PhaseFull == t.unscaled);
        Value white = t.drawish ? t.unscaled / 8 : t.unscaled;
        REQUIRE(v == (pos.side_to_move() == WHITE ? white : -white) + t.tempo);
    }
}
