// Random Maharajah start positions. See random_armies.h for what and why.
#include "random_armies.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "../reference/ref_chess.h"

namespace testsupport {
namespace {

// splitmix64: tiny, well-mixed, and identical on every platform, so a failing
// seed reproduces everywhere (std::rand and the <random> distributions do not
// guarantee that).
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n); the modulo bias is irrelevant for test generation.
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

// Piece kinds (lower case) and their costs from the rules in README.md.
struct PieceType {
    char kind;
    int cost;
    bool compound;
};
const PieceType kTypes[] = {{'p', 1, false}, {'n', 3, false}, {'b', 3, false}, {'r', 5, false},
                            {'a', 6, true},  {'c', 8, true},  {'q', 9, false}, {'m', 13, true}};

enum class Compound { Need, Forbid, Any };

const int kBudget = 39;
const int kMaxPieces = 31;  // 32 squares of the own half minus the king's

// One army of exactly 39 points and at most 31 pieces, as a list of piece kinds.
// Several "styles" are mixed so the tests see pawn walls, a few big pieces, and
// everything between.
std::vector<char> make_army(Rng& rng, Compound policy) {
    bool allow_compound = policy != Compound::Forbid;
    // "Any": half the time the army is built from classic pieces only, so that
    // classic sides (with castling and rank-2 double steps) are common.
    if (policy == Compound::Any) allow_compound = rng.below(2) == 0;

    for (;;) {
        std::vector<char> army;
        int remaining = kBudget;
        if (policy == Compound::Need) {
            const char forced[3] = {'m', 'a', 'c'};
            const char k = forced[rng.below(3)];
            army.push_back(k);
            for (const auto& t : kTypes)
                if (t.kind == k) remaining -= t.cost;
        }

        // Style parameters: once at most `pawn_fill` points remain, the rest is
        // spent on pawns; before that, a type is picked with the given weights.
        int pawn_fill = 0;
        int pawn_weight = 1;
        int big_bonus = 0;  // extra weight for rooks and heavier
        switch (rng.below(4)) {
            case 0:
                pawn_fill = 18 + rng.below(13);
                pawn_weight = 0;
                break;  // many pawns (up to 31 pieces)
            case 1:
                pawn_fill = rng.below(4);
                pawn_weight = 1;
                big_bonus = 3;
                break;  // a few big pieces
            case 2:
                pawn_fill = 0;
                pawn_weight = 1;
                break;  // uniform over types
            default:
                pawn_fill = 4 + rng.below(12);
                pawn_weight = 2;
                break;  // balanced
        }

        while (remaining > 0) {
            if (remaining <= pawn_fill) {
                army.insert(army.end(), static_cast<size_t>(remaining), 'p');
                break;
            }
            std::vector<std::pair<char, int>> choices;  // kind, weight
            int total = 0;
            for (const auto& t : kTypes) {
                if (t.cost > remaining) continue;
                if (t.compound && !allow_compound) continue;
                int w = t.kind == 'p' ? pawn_weight : 1 + (t.cost >= 5 ? big_bonus : 0);
                if (w <= 0) continue;
                choices.push_back({t.kind, w});
                total += w;
            }
            if (total == 0) {  // only pawns fit (or pawns were weighted out): finish with pawns
                army.insert(army.end(), static_cast<size_t>(remaining), 'p');
                break;
            }
            int pick = rng.below(total);
            for (const auto& [k, w] : choices) {
                if (pick < w) {
                    army.push_back(k);
                    for (const auto& t : kTypes)
                        if (t.kind == k) remaining -= t.cost;
                    break;
                }
                pick -= w;
            }
        }
        if (static_cast<int>(army.size()) > kMaxPieces) continue;  // does not fit: redraw
        const bool has_compound =
            std::any_of(army.begin(), army.end(), [](char k) { return k == 'm' || k == 'a' || k == 'c'; });
        if (policy == Compound::Need && !has_compound) continue;
        return army;
    }
}

// Places an army on the board: nearer ranks are filled completely before any
// piece goes farther out; within a rank the squares are random.
void place_army(Rng& rng, std::vector<char> army, bool white, char board[64]) {
    // Ordering of the army decides which pieces land near the home rank:
    // 0 = fully random, 1 = pieces home / pawns in front (orthodox-like),
    // 2 = pawns on the home rank, pieces in front.
    const int order = rng.below(3);
    std::vector<std::pair<std::uint64_t, char>> keyed;
    for (char k : army) {
        std::uint64_t key = rng.next() >> 8;
        if (order == 1 && k == 'p') key |= 1ULL << 60;
        if (order == 2 && k != 'p') key |= 1ULL << 60;
        keyed.push_back({key, k});
    }
    std::sort(keyed.begin(), keyed.end());

    // Squares in filling order: home rank first (minus the king's e-square), then
    // outward; each rank shuffled, so a partly filled last rank gets random squares.
    std::vector<int> squares;
    for (int step = 0; step < 4; ++step) {
        const int rank = white ? step : 7 - step;
        std::vector<int> row;
        for (int f = 0; f < 8; ++f)
            if (!(step == 0 && f == 4)) row.push_back(rank * 8 + f);
        for (int i = static_cast<int>(row.size()) - 1; i > 0; --i) std::swap(row[i], row[rng.below(i + 1)]);
        squares.insert(squares.end(), row.begin(), row.end());
    }
    for (size_t i = 0; i < keyed.size(); ++i) {
        const char k = keyed[i].second;
        board[squares[i]] = white ? static_cast<char>(k - 'a' + 'A') : k;
    }
}

std::string build_fen(const char board[64], bool white_variant, bool black_variant) {
    std::string fen;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const char p = board[r * 8 + f];
            if (p == '.') {
                ++empty;
                continue;
            }
            if (empty) fen += static_cast<char>('0' + empty);
            empty = 0;
            fen += p;
        }
        if (empty) fen += static_cast<char>('0' + empty);
        if (r) fen += '/';
    }
    fen += " w ";
    // Castling: the king stands on e1/e8 by construction; a classic side may castle
    // with each rook standing on its corner.
    std::string castling;
    if (!white_variant && board[7] == 'R') castling += 'K';
    if (!white_variant && board[0] == 'R') castling += 'Q';
    if (!black_variant && board[63] == 'r') castling += 'k';
    if (!black_variant && board[56] == 'r') castling += 'q';
    fen += castling.empty() ? "-" : castling;
    fen += " - 0 1 ";
    std::string variant;
    if (white_variant) variant += 'V';
    if (black_variant) variant += 'v';
    fen += variant.empty() ? "-" : variant;
    // Unmoved pawns, a1..h1, a2..h2, ... : all pawns of a variant side, and a
    // classic side's pawns on rank 2 (White) / 7 (Black).
    std::string unmoved;
    for (int s = 0; s < 64; ++s) {
        const int r = s / 8;
        const bool listed =
            (board[s] == 'P' && (white_variant || r == 1)) || (board[s] == 'p' && (black_variant || r == 6));
        if (listed) {
            unmoved += static_cast<char>('a' + s % 8);
            unmoved += static_cast<char>('1' + r);
        }
    }
    fen += ' ';
    fen += unmoved.empty() ? "-" : unmoved;
    return fen;
}

bool has_compound(const std::vector<char>& army) {
    return std::any_of(army.begin(), army.end(), [](char k) { return k == 'm' || k == 'a' || k == 'c'; });
}

}  // namespace

std::string random_army_fen(std::uint64_t seed, int mode) {
    Rng rng{seed};
    for (;;) {
        Compound white_policy = Compound::Any, black_policy = Compound::Any;
        if (mode == 1) {
            white_policy = black_policy = Compound::Need;
        } else if (mode == 2) {
            white_policy = black_policy = Compound::Forbid;
        } else if (mode == 3) {
            const bool white_has = rng.below(2) == 0;
            white_policy = white_has ? Compound::Need : Compound::Forbid;
            black_policy = white_has ? Compound::Forbid : Compound::Need;
        }
        // Each army is drawn on its own (the rules in README.md: an army does not
        // depend on the opponent's).
        const std::vector<char> white_army = make_army(rng, white_policy);
        const std::vector<char> black_army = make_army(rng, black_policy);

        char board[64];
        std::fill(board, board + 64, '.');
        board[4] = 'K';
        board[60] = 'k';
        place_army(rng, white_army, true, board);
        place_army(rng, black_army, false, board);
        const std::string fen = build_fen(board, has_compound(white_army), has_compound(black_army));

        // the rules in README.md: White not in check, Black's king not attacked, and
        // White has a legal move. Otherwise draw a new pair.
        refchess::Board b;
        if (!refchess::parse_fen(fen, b, nullptr)) continue;  // cannot happen; be safe
        if (refchess::in_check(b)) continue;
        refchess::Board flipped = b;
        flipped.white_to_move = false;
        if (refchess::in_check(flipped)) continue;
        if (refchess::legal_moves(b).empty()) continue;
        return fen;
    }
}

}  // namespace testsupport
