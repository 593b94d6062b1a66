// The army the engine fields for itself (`army suggest`).
//
// How it is chosen: every mix of up to seven non-pawn pieces whose cost leaves the
// rest of the 39 points to pawns that fit on ranks 1-2 is scored by an estimate of
// playing value: material (compound pieces valued above their cost where games
// suggest so: the archbishop is the bargain), a pawn shield in front of the king
// (a variant army cannot castle), a penalty for pawns left on the home rank (they
// block development) and for piling up one piece type. The home rank need not be
// full when few pawns are left. The seed then picks among the
// mixes within a small margin of the best, and places each piece on one of its three
// most preferred free files (the seed's choice: this is where the variety comes from,
// without weaker mixes): rook movers toward the corners, knight movers on b/g, bishops
// on opposite colours, queen movers near the king, pawns in front with any gap on an
// edge file, never in front of a rook mover (an open file there invites a heavy-piece
// trade on move one). Nothing but the seed
// and the colour is read: the opponent's army stays hidden (README, "The rules it enforces", 7).

#include <algorithm>
#include <vector>

#include "board/army.h"
#include "core/pieces.h"
#include "core/random.h"

namespace maharajah {

namespace {

std::uint64_t splitmix(std::uint64_t& s) { return splitmix64(s); }

// Playing value estimates in pawns for choosing a mix: the search's own tuned piece
// values (eval/weights.h, middlegame and endgame averaged, over a pawn of 1.05), with
// the pawn lower still. 400 games of suggested against random valid armies showed the
// old estimates losing (47.0%, -20.9 +/- 32.4 Elo), a fit of those games' results on
// the armies' contents valued archbishops highest and pawns lowest per point, and these
// values score 56.9% (+48.1 +/- 33.9) with a choice margin of 1.2 (scripts/results/RESULTS.md).
double value_estimate(PieceType pt) {
    switch (pt) {
        case PAWN:
            return 0.75;
        case KNIGHT:
            return 3.1;
        case BISHOP:
            return 3.3;
        case ROOK:
            return 4.9;
        case ARCHBISHOP:
            return 8.2;
        case CHANCELLOR:
            return 9.0;
        case QUEEN:
            return 9.4;
        case MAHARAJA:
            return 13.0;
        default:
            return 0;
    }
}

struct Mix {
    std::vector<PieceType> pieces;  // non-pawn pieces, strongest first
    int pawns_home = 0;             // pawns that must stand on the home rank
    int pawns_front = 0;            // pawns on the second rank
    double score = 0;
};

constexpr PieceType Kinds[] = {MAHARAJA, QUEEN, CHANCELLOR, ARCHBISHOP, ROOK, BISHOP, KNIGHT};

double score_mix(const Mix& m) {
    double s = 0;
    int count[PIECE_TYPE_NB] = {};
    for (PieceType pt : m.pieces) {
        s += value_estimate(pt);
        ++count[pt];
    }
    s += value_estimate(PAWN) * (m.pawns_home + m.pawns_front);
    s -= 0.5 * m.pawns_home;                // blocked development
    s += 0.3 * std::min(m.pawns_front, 3);  // d-e-f shield
    if (count[BISHOP] >= 2) s += 0.4;       // the bishop pair
    for (PieceType pt : Kinds)
        if (count[pt] > 4) s -= 0.8 * (count[pt] - 4);  // redundancy
    return s;
}

void enumerate(std::size_t kind, int slots, int points, std::vector<PieceType>& cur, std::vector<Mix>& out) {
    if (kind == std::size(Kinds)) {
        int pawns = points;  // what is left is spent on pawns
        int home = 7 - int(cur.size());
        if (pawns - home > 8) return;  // rank 1 full, rank 2 holds the rest
        // Few pawns: they all stand on the home rank, which may keep empty squares.
        Mix m = pawns < home ? Mix{cur, pawns, 0, 0} : Mix{cur, home, pawns - home, 0};
        m.score = score_mix(m);
        out.push_back(m);
        return;
    }
    int cost = PieceTable[Kinds[kind]].army_cost;
    for (int n = 0; n <= slots && n * cost <= points; ++n) {
        for (int i = 0; i < n; ++i) cur.push_back(Kinds[kind]);
        enumerate(kind + 1, slots - n, points - n * cost, cur, out);
        for (int i = 0; i < n; ++i) cur.pop_back();
    }
}

const std::vector<Mix>& candidate_mixes() {
    static const std::vector<Mix> mixes = [] {
        std::vector<Mix> all;
        std::vector<PieceType> cur;
        enumerate(0, 7, ArmyPoints, cur, all);
        std::stable_sort(all.begin(), all.end(), [](const Mix& a, const Mix& b) { return a.score > b.score; });
        // Keep the mixes close to the best: the seed chooses among these.
        std::vector<Mix> best;
        for (const Mix& m : all)
            if (m.score >= all.front().score - 1.2) best.push_back(m);
        return best;
    }();
    return mixes;
}

// Preferred home-rank files per piece type (index into a..h, the king's e excluded).
std::vector<int> preferred_files(PieceType pt) {
    switch (pt) {
        case ROOK:
        case CHANCELLOR:
            return {0, 7, 5, 3, 1, 6, 2};
        case KNIGHT:
        case ARCHBISHOP:
            return {1, 6, 2, 5, 3, 0, 7};
        case BISHOP:
            return {2, 5, 1, 6, 3, 0, 7};
        case QUEEN:
        case MAHARAJA:
            return {3, 5, 2, 1, 6, 0, 7};
        default:
            return {0, 7, 1, 6, 2, 5, 3};  // pawns on the home rank: out of the way
    }
}

}  // namespace

std::string suggest_army(Color c, std::uint64_t seed) {
    std::uint64_t state = seed * 2 + std::uint64_t(c) + 0x41726D79ULL;  // "Army"
    const auto& mixes = candidate_mixes();
    const Mix& mix = mixes[splitmix(state) % mixes.size()];

    Army army;
    army.ranks = mix.pawns_front ? 2 : 1;
    army.pieces[0][4] = KING;
    // Place pieces strongest first; the seed picks each one's file among its three most
    // preferred free ones, evenly (150 seeds give over 50 distinct armies per colour;
    // the mixes alone give about 20).
    std::vector<PieceType> order = mix.pieces;
    for (int i = 0; i < mix.pawns_home; ++i) order.push_back(PAWN);
    bool bishop_light_taken = false, bishop_placed = false;
    for (PieceType pt : order) {
        std::vector<int> free;
        for (int f : preferred_files(pt))
            if (army.pieces[0][f] == NO_PIECE_TYPE) free.push_back(f);
        if (pt == BISHOP && bishop_placed) {
            // The second bishop goes to the other square colour when one is free.
            auto other = std::find_if(free.begin(), free.end(), [&](int f) {
                bool light = (f + (c == WHITE ? 0 : 7)) % 2 == 1;
                return light != bishop_light_taken;
            });
            if (other != free.end()) std::rotate(free.begin(), other, other + 1);
        }
        std::size_t pick = std::min<std::size_t>(free.size() - 1, splitmix(state) % 3);
        int f = free[pick];
        army.pieces[0][f] = pt;
        if (pt == BISHOP && !bishop_placed) {
            bishop_placed = true;
            bishop_light_taken = (f + (c == WHITE ? 0 : 7)) % 2 == 1;
        }
    }
    // Pawns in front; any gaps go to edge files first, but never in front of a rook
    // mover (an open file there invites a trade of heavy pieces on move one) and not in
    // the king's d-e-f shield while another file is free. The seed picks the edge.
    std::vector<int> gap_order =
        splitmix(state) % 2 ? std::vector<int>{0, 7, 1, 6, 2, 5, 3} : std::vector<int>{7, 0, 6, 1, 5, 2, 3};
    std::stable_partition(gap_order.begin(), gap_order.end(),
                          [&](int f) { return !has_part(army.pieces[0][f], ORTH_SLIDER) && (f < 3 || f > 5); });
    std::stable_partition(gap_order.begin(), gap_order.end(),
                          [&](int f) { return !has_part(army.pieces[0][f], ORTH_SLIDER); });
    for (int f = 0; f < 8; ++f) army.pieces[1][f] = mix.pawns_front ? PAWN : NO_PIECE_TYPE;
    for (int i = 0; i < 8 - mix.pawns_front && mix.pawns_front; ++i) army.pieces[1][gap_order[i]] = NO_PIECE_TYPE;
    return army_to_string(c, army);
}

}  // namespace maharajah
