// The engine's generator against the independent reference generator (tests/reference)
// on random playouts from random armies and standard positions; the incremental key,
// the generation modes and make/unmake checked after every move.

#include <algorithm>
#include <catch2/catch.hpp>
#include <deque>
#include <fstream>
#include <map>

#include "core/random.h"
#include "movegen/movegen.h"
#include "protocol/game.h"
#include "reference/ref_chess.h"
#include "support/random_armies.h"

using namespace maharajah;

namespace {

struct Rng {
    std::uint64_t s;
    std::size_t below(std::size_t n) { return std::size_t(splitmix64(s) % n); }
};

std::vector<std::string> sorted_uci(const Move* begin, const Move* end) {
    std::vector<std::string> v;
    for (const Move* m = begin; m != end; ++m) v.push_back(move_to_uci(*m));
    std::sort(v.begin(), v.end());
    return v;
}

// What the playouts exercised, so the test can prove it covered the special rules.
struct Coverage {
    std::map<int, int> double_steps_from_rank;  // relative rank 1..4
    std::map<int, int> en_passant_after_rank;   // origin rank of the pawn taken en passant
    int en_passant = 0, castling = 0, promotions = 0, compound_promotions = 0, evasions = 0;
    int positions = 0;
    int exact_key_predictions = 0;
    int variant_sides = 0, classic_sides = 0;
};

bool is_capture(const Position& pos, Move m) { return is_en_passant(m) || !pos.empty(to_sq(m)); }

void check_position(const Position& pos, const refchess::Board& ref, Coverage& cov) {
    MoveList<LEGAL> legal(pos);
    auto engine_moves = sorted_uci(legal.begin(), legal.end());
    auto ref_moves = refchess::legal_moves(ref);
    INFO("FEN " << pos.fen());
    REQUIRE(engine_moves == ref_moves);

    // The FEN the engine writes, read by the reference, gives the same moves.
    refchess::Board reread;
    std::string err;
    REQUIRE(refchess::parse_fen(pos.fen(), reread, &err));
    REQUIRE(refchess::legal_moves(reread) == ref_moves);
    // And the engine reads its own FEN back to the same position, key and FEN.
    Position again;
    StateInfo st;
    REQUIRE(again.set(pos.fen(), st) == "");
    REQUIRE(again.key() == pos.key());
    REQUIRE(again.fen() == pos.fen());

    REQUIRE(pos.key() == pos.compute_key());
    REQUIRE(pos.check_invariants() == "");
    REQUIRE(pos.in_check() == refchess::in_check(ref));

    // Modes: captures (with every promotion) and quiets split the legal moves exactly.
    MoveList<CAPTURES> caps(pos);
    MoveList<QUIETS> quiets(pos);
    REQUIRE(caps.size() + quiets.size() == legal.size());
    for (Move m : caps) REQUIRE((is_capture(pos, m) || is_promotion(m)));
    for (Move m : quiets) REQUIRE_FALSE((is_capture(pos, m) || is_promotion(m)));
    std::vector<Move> both(caps.begin(), caps.end());
    both.insert(both.end(), quiets.begin(), quiets.end());
    auto merged = sorted_uci(both.data(), both.data() + both.size());
    REQUIRE(merged == engine_moves);
    MoveList<EVASIONS> evasions(pos);
    REQUIRE(evasions.size() == (pos.in_check() ? legal.size() : 0));
    cov.evasions += pos.in_check();
    ++cov.positions;
}

// Prefers the rare moves (double steps, en passant, castling, promotions) now and then,
// so that the playouts reach them often.
Move pick_move(const Position& pos, const MoveList<LEGAL>& moves, Rng& rng) {
    std::vector<Move> special;
    for (Move m : moves) {
        bool dbl = type_of(pos.piece_on(from_sq(m))) == PAWN && std::abs(to_sq(m) - from_sq(m)) == 16;
        if (dbl || is_en_passant(m) || is_castling(m) || is_promotion(m)) special.push_back(m);
    }
    if (!special.empty() && rng.below(3) == 0) return special[rng.below(special.size())];
    return *(moves.begin() + rng.below(moves.size()));
}

void playout(const std::string& fen, int plies, Rng& rng, Coverage& cov) {
    std::deque<StateInfo> states(1);
    Position pos;
    REQUIRE(pos.set(fen, states.back()) == "");
    refchess::Board ref;
    std::string err;
    INFO("start " << fen);
    REQUIRE(refchess::parse_fen(fen, ref, &err));
    for (Color c : {WHITE, BLACK}) (pos.rules(c).variant ? cov.variant_sides : cov.classic_sides)++;

    std::vector<Move> played;
    int last_double_rank = 0;
    for (int ply = 0; ply < plies; ++ply) {
        check_position(pos, ref, cov);
        MoveList<LEGAL> moves(pos);
        if (!moves.size()) break;
        Move m = pick_move(pos, moves, rng);
        Color us = pos.side_to_move();
        if (is_en_passant(m)) cov.en_passant_after_rank[last_double_rank]++;
        last_double_rank = 0;
        if (type_of(pos.piece_on(from_sq(m))) == PAWN && std::abs(to_sq(m) - from_sq(m)) == 16) {
            last_double_rank = relative_rank(us, from_sq(m)) + 1;
            cov.double_steps_from_rank[last_double_rank]++;
        }
        cov.en_passant += is_en_passant(m);
        cov.castling += is_castling(m);
        cov.promotions += is_promotion(m);
        cov.compound_promotions += is_promotion(m) && is_compound(promotion_type(m));
        refchess::play(ref, move_to_uci(m));
        const Key predicted = pos.key_after(m);
        states.emplace_back();
        pos.do_move(m, states.back());
        played.push_back(m);
        // The prefetch key is exact except for castling and a double step that grants en passant.
        if (!is_castling(m) && pos.ep_square() == SQ_NONE) {
            REQUIRE(predicted == pos.key());
            ++cov.exact_key_predictions;
        }
    }
    // Unmaking everything restores the start exactly.
    Position start;
    StateInfo st;
    REQUIRE(start.set(fen, st) == "");
    while (!played.empty()) {
        pos.undo_move(played.back());
        played.pop_back();
    }
    REQUIRE(pos.fen() == start.fen());
    REQUIRE(pos.key() == start.key());
}

}  // namespace

TEST_CASE("engine and reference generators agree on more than 10000 playout positions", "[movegen][reference]") {
    Position::init();
    Coverage cov;
    Rng rng{20261129};
    // Random legal armies in all four mixes of classic and variant sides.
    for (std::uint64_t seed = 1; seed <= 240; ++seed)
        playout(testsupport::random_army_fen(seed, int(seed % 4)), 60, rng, cov);
    // Standard chess positions, including the usual perft torture positions.
    const char* standard[] = {
        StartFen,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    };
    for (int round = 0; round < 12; ++round)
        for (const char* fen : standard) playout(fen, 50, rng, cov);
    // Every distinct position of the variant perft suite (odd statuses, en passant).
    std::ifstream suite(std::string(MAHARAJAH_TEST_DATA_DIR) + "/variant.tsv");
    std::string last;
    for (std::string line; std::getline(suite, line);) {
        std::string fen = line.substr(0, line.find('\t'));
        if (line.empty() || line[0] == '#' || fen == last) continue;
        last = fen;
        for (int round = 0; round < 3; ++round) playout(fen, 40, rng, cov);
    }

    INFO("positions " << cov.positions);
    REQUIRE(cov.positions >= 10000);
    for (int r = 1; r <= 4; ++r) {
        INFO("double steps from relative rank " << r);
        REQUIRE(cov.double_steps_from_rank[r] > 0);
        REQUIRE(cov.en_passant_after_rank[r] > 0);
    }
    REQUIRE(cov.en_passant > 20);
    REQUIRE(cov.castling > 20);
    REQUIRE(cov.promotions > 20);
    REQUIRE(cov.compound_promotions > 5);
    REQUIRE(cov.evasions > 100);
    REQUIRE(cov.variant_sides > 50);
    REQUIRE(cov.classic_sides > 50);
    REQUIRE(cov.exact_key_predictions > cov.positions / 2);
}
