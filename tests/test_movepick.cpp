// The staged move picker against its specification. is_legal (which lets the picker try
// the hash move before generating anything) must accept exactly the generator's moves,
// tried over every 16-bit value; and the picker must hand out exactly the sequence of
// the one-list picker it replaced (generate everything, hash move first, score, then a
// selection sort), since the search's tree, and so the bench signature, depends on the
// order of equal scores too.

#include <algorithm>
#include <catch2/catch.hpp>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>

#include "core/random.h"
#include "movegen/movegen.h"
#include "search/movepick.h"
#include "support/random_armies.h"

using namespace maharajah;
using namespace maharajah::search;

namespace {

struct Rng {
    std::uint64_t s;
    std::uint64_t next() { return splitmix64(s); }
    std::size_t below(std::size_t n) { return std::size_t(next() % n); }
};

struct Start {
    std::string fen;
    bool chess960;
};

std::vector<std::string> suite_fens(const std::string& name) {
    std::ifstream in(std::string(MAHARAJAH_TEST_DATA_DIR) + "/" + name);
    std::vector<std::string> fens;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::string fen = line.substr(0, line.find('\t'));
        if (std::find(fens.begin(), fens.end(), fen) == fens.end()) fens.push_back(fen);
    }
    return fens;
}

// Random armies in all four mixes of classic and variant sides, the standard and
// variant perft suites' positions, and the Chess960 suite (castling with the king or
// rook anywhere on the home rank).
std::vector<Start> starts(int armies) {
    std::vector<Start> v;
    // Hand-made corners: double check; en passant that would expose the king along
    // its rank; compound pieces pinned on a file and a diagonal; a pinned pawn and en
    // passant against a check by the pawn itself.
    for (const char* fen :
         {"4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1", "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2", "4k3/4c3/8/8/8/8/4A3/4K3 w - - 0 1",
          "4k3/8/8/8/7m/8/5C2/4K3 w - - 0 1", "4k3/8/8/8/7m/8/5C2/4K3 b - - 0 1", "4k3/6b1/8/3pP3/8/2K5/8/8 w - d6 0 2",
          "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"})
        v.push_back({fen, false});
    for (int seed = 1; seed <= armies; ++seed) v.push_back({testsupport::random_army_fen(seed, seed % 4), false});
    for (const char* name : {"standard.tsv", "variant.tsv"})
        for (const std::string& fen : suite_fens(name)) v.push_back({fen, false});
    for (const std::string& fen : suite_fens("chess960.tsv")) v.push_back({fen, true});
    return v;
}

// Random playouts from every start, visiting each position; the rare moves (double
// steps, en passant, castling, promotions) are preferred now and then so that the
// positions after them, and the choice of them, are reached often.
void walk(const std::vector<Start>& from, int plies, Rng& rng, const std::function<void(const Position&)>& visit) {
    for (const Start& start : from) {
        std::deque<StateInfo> states(1);
        Position pos;
        INFO("start " << start.fen);
        REQUIRE(pos.set(start.fen, states.back(), start.chess960) == "");
        for (int ply = 0; ply < plies; ++ply) {
            visit(pos);
            MoveList<LEGAL> moves(pos);
            if (!moves.size()) break;
            std::vector<Move> special;
            for (Move m : moves)
                if (is_en_passant(m) || is_castling(m) || is_promotion(m) ||
                    (type_of(pos.piece_on(from_sq(m))) == PAWN && std::abs(to_sq(m) - from_sq(m)) == 16))
                    special.push_back(m);
            Move m = !special.empty() && rng.below(3) == 0 ? special[rng.below(special.size())]
                                                           : *(moves.begin() + rng.below(moves.size()));
            states.emplace_back();
            pos.do_move(m, states.back());
        }
    }
}

// The one-list picker, written out as the specification: every move generated at once,
// the hash move (when the list has it) swapped to the front and returned first, then
// every other move scored into bands and picked by a selection sort that swaps the best
// to the front, ties going to the earlier entry. `h` is read after the hash move.
// `unstable` tells whether that order differs from a stable sort by score (the swaps
// reorder equal scores), so that the test can show it met such lists.
std::vector<Move> reference_order(const Position& pos, Move tt, const History& h, const Move* killers,
                                  const PieceToHistory* cont0, const PieceToHistory* cont1, Bitboard threats,
                                  bool quiescence, bool& unstable) {
    Move list[MAX_MOVES];
    Move* end = !quiescence      ? generate<LEGAL>(pos, list)
                : pos.in_check() ? generate<EVASIONS>(pos, list)
                                 : generate<CAPTURES>(pos, list);
    std::vector<std::pair<Move, int>> v;
    for (Move* m = list; m != end; ++m) v.push_back({*m, 0});
    std::vector<Move> out;
    std::size_t cur = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (tt != MOVE_NONE && v[i].first == tt) {
            std::swap(v[0], v[i]);
            out.push_back(v[0].first);
            cur = 1;
            break;
        }
    const Color us = pos.side_to_move();
    for (std::size_t i = cur; i < v.size(); ++i) {
        const Move m = v[i].first;
        const Square from = from_sq(m), to = to_sq(m);
        const Piece pc = pos.piece_on(from);
        int& score = v[i].second;
        if (pos.is_capture(m) || is_promotion(m)) {
            PieceType victim = is_en_passant(m) ? PAWN : type_of(pos.piece_on(to));
            int s = 8 * SeeValue[victim] + (is_promotion(m) ? SeeValue[promotion_type(m)] : 0) +
                    h.captures[piece_index(pc)][to][victim] / 16;
            score = see_ge(pos, m, 0) ? (1 << 28) + s : -(1 << 20) + s;
        } else if (killers && m == killers[0])
            score = (1 << 27) + 2;
        else if (killers && m == killers[1])
            score = (1 << 27) + 1;
        else {
            // The butterfly slot: is the from square attacked (2), the to square (1)?
            const int slot = 2 * ((threats & square_bb(from)) != 0) + ((threats & square_bb(to)) != 0);
            score = h.main[us][slot][from * 64 + to] + (cont0 ? (*cont0)[piece_index(pc)][to] : 0) +
                    (cont1 ? (*cont1)[piece_index(pc)][to] : 0);
        }
    }
    auto stable = std::vector<std::pair<Move, int>>(v.begin() + cur, v.end());
    std::stable_sort(stable.begin(), stable.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (; cur < v.size(); ++cur) {
        std::size_t best = cur;
        for (std::size_t i = cur + 1; i < v.size(); ++i)
            if (v[i].second > v[best].second) best = i;
        std::swap(v[cur], v[best]);
        out.push_back(v[cur].first);
    }
    unstable = false;
    for (std::size_t i = 0; i < stable.size(); ++i) unstable |= stable[i].first != out[out.size() - stable.size() + i];
    return out;
}

// History values from a small set give many equal scores (where the order of the list
// decides), values from the whole range give few.
void randomise(std::int16_t* entries, std::size_t n, Rng& rng, bool few_values) {
    static constexpr std::int16_t Few[] = {-300, 0, 0, 0, 0, 120, 120, 2000};
    for (std::size_t i = 0; i < n; ++i)
        entries[i] =
            few_values ? Few[rng.below(std::size(Few))] : std::int16_t(int(rng.below(2 * HistoryMax + 1)) - HistoryMax);
}

void randomise(History& h, Rng& rng, bool few_values) {
    randomise(&h.main[0][0][0], sizeof(h.main) / 2, rng, few_values);
    randomise(&h.captures[0][0][0], sizeof(h.captures) / 2, rng, few_values);
}

}  // namespace

TEST_CASE("is_legal accepts exactly the generator's moves among all 65536 move values", "[movegen][movepick]") {
    Position::init();
    Rng rng{20261207};
    int positions = 0, accepted = 0, en_passant = 0, castling960 = 0, compound_moves = 0, compound_promotions = 0,
        in_check = 0, double_check = 0;
    int castling[COLOR_NB] = {}, promotions_by_rules[2] = {};  // by side; by classic (0) or variant (1) rules
    walk(starts(120), 24, rng, [&](const Position& pos) {
        MoveList<LEGAL> legal(pos);
        std::vector<bool> listed(65536, false);
        for (Move m : legal) listed[m] = true;
        for (int v = 0; v < 65536; ++v) {
            const Move m = Move(v);
            if (is_legal(pos, m) != listed[v]) {
                INFO("FEN " << pos.fen() << " move " << move_to_uci(m) << " kind " << (v >> 12) << " listed "
                            << listed[v]);
                REQUIRE(is_legal(pos, m) == listed[v]);
            }
        }
        ++positions;
        accepted += int(legal.size());
        in_check += pos.in_check();
        double_check += more_than_one(pos.checkers());
        const Color us = pos.side_to_move();
        for (Move m : legal) {
            en_passant += is_en_passant(m);
            castling[us] += is_castling(m);
            castling960 += is_castling(m) && pos.chess960();
            compound_moves += is_compound(type_of(pos.piece_on(from_sq(m))));
            promotions_by_rules[pos.rules(us).variant] += is_promotion(m);
            compound_promotions += is_promotion(m) && is_compound(promotion_type(m));
        }
    });
    INFO("positions " << positions << ", castling " << castling[WHITE] << "/" << castling[BLACK] << ", promotions "
                      << promotions_by_rules[0] << "/" << promotions_by_rules[1] << ", en passant " << en_passant);
    REQUIRE(positions > 2000);
    REQUIRE(accepted > 50000);
    REQUIRE(en_passant > 20);
    REQUIRE(castling[WHITE] > 50);
    REQUIRE(castling[BLACK] > 50);
    REQUIRE(castling960 > 20);
    REQUIRE(compound_moves > 10000);
    REQUIRE(promotions_by_rules[0] > 20);
    REQUIRE(promotions_by_rules[1] > 20);
    REQUIRE(compound_promotions > 20);
    REQUIRE(in_check > 100);
    REQUIRE(double_check > 0);
}

TEST_CASE("the staged picker hands out the one-list picker's sequence", "[movepick][search]") {
    Position::init();
    Rng rng{77};
    auto h = std::make_unique<History>();
    randomise(&h->continuation[0][0][0][0], sizeof(h->continuation) / 2, rng, true);
    int positions = 0, tt_taken = 0, tt_refused = 0, bad_captures = 0, unstable_lists = 0;
    Move previous_moves[8] = {};
    walk(starts(60), 30, rng, [&](const Position& pos) {
        MoveList<LEGAL> legal(pos);
        std::vector<Move> moves(legal.begin(), legal.end());
        auto any_move = [&] { return moves.empty() ? MOVE_NONE : moves[rng.below(moves.size())]; };
        for (bool quiescence : {false, true}) {
            const bool few_values = rng.below(2);
            randomise(*h, rng, few_values);
            // Hash moves: none, a legal one, a move of an earlier position, any 16 bits.
            const Move tt_choices[] = {MOVE_NONE, any_move(), previous_moves[rng.below(8)], Move(rng.next())};
            const Move tt = tt_choices[rng.below(4)];
            const Move killers[2] = {any_move(), rng.below(2) ? any_move() : Move(rng.next())};
            const PieceToHistory* cont0 = quiescence ? nullptr : &h->continuation[rng.below(18)][rng.below(64)];
            const PieceToHistory* cont1 =
                quiescence || rng.below(4) == 0 ? nullptr : &h->continuation[rng.below(18)][rng.below(64)];

            // The opponent's attacks as the search passes them, none (the index switched
            // off), or any squares, so that every slot is read.
            const Bitboard threat_choices[] = {pos.attacks_by(~pos.side_to_move()), 0, Bitboard(rng.next())};
            const Bitboard threats = threat_choices[rng.below(3)];
            std::unique_ptr<MovePicker> mp =
                quiescence ? std::make_unique<MovePicker>(pos, tt, *h, threats)
                           : std::make_unique<MovePicker>(pos, tt, *h, killers, cont0, cont1, threats);
            std::vector<Move> staged;
            Move first = mp->next();
            if (first != MOVE_NONE) staged.push_back(first);
            // The search changes the histories while it searches the hash move; the
            // other moves are scored with what it leaves.
            if (first != MOVE_NONE && first == tt) {
                randomise(*h, rng, few_values);
                ++tt_taken;
            } else
                tt_refused += tt != MOVE_NONE;
            for (Move m; first != MOVE_NONE && (m = mp->next()) != MOVE_NONE;) staged.push_back(m);
            REQUIRE(mp->next() == MOVE_NONE);  // and stays at the end

            bool unstable = false;
            const auto expected = reference_order(pos, tt, *h, quiescence ? nullptr : killers, cont0, cont1, threats,
                                                  quiescence, unstable);
            INFO("FEN " << pos.fen() << " quiescence " << quiescence << " hash move " << move_to_uci(tt));
            REQUIRE(staged == expected);
            for (Move m : expected) bad_captures += (pos.is_capture(m) && !see_ge(pos, m, 0));
            unstable_lists += unstable;
        }
        ++positions;
        previous_moves[rng.below(8)] = any_move();
    });
    INFO("positions " << positions);
    REQUIRE(positions > 1500);
    REQUIRE(tt_taken > 500);
    REQUIRE(tt_refused > 500);
    REQUIRE(bad_captures > 1000);
    REQUIRE(unstable_lists > 500);
}

TEST_CASE("attacks_by holds exactly the squares that attackers_to finds attacked", "[movepick][board]") {
    // The threat-indexed history reads attacks_by; attackers_to (used by check detection
    // and SEE) looks from the target square back, so the two are independent ways in.
    Position::init();
    Rng rng{4621};
    int positions = 0, compound_attackers = 0;
    walk(starts(40), 24, rng, [&](const Position& pos) {
        for (Color c : {WHITE, BLACK}) {
            const Bitboard attacked = pos.attacks_by(c);
            for (int s = 0; s < SQUARE_NB; ++s) {
                const Bitboard from = pos.attackers_to(Square(s)) & pos.pieces(c);
                INFO("FEN " << pos.fen() << " colour " << int(c) << " square " << s);
                REQUIRE(bool(attacked & square_bb(Square(s))) == (from != 0));
                compound_attackers += (from & pos.compounds()) != 0;
            }
        }
        ++positions;
    });
    REQUIRE(positions > 500);
    REQUIRE(compound_attackers > 1000);
}
