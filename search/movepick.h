#pragma once
// Move ordering: static exchange evaluation, history tables, and a picker that hands
// out the legal moves best-first (TT move, good captures and promotions, killers,
// quiets by butterfly + continuation history, bad captures last). There is no
// countermove slot: an ablation match showed it lost Elo next to continuation history,
// which already scores replies to the previous move (scripts/results/RESULTS.md, "Ablation").

#include <array>
#include <cstdint>

#include "movegen/movegen.h"

namespace maharajah::search {

// Exchange values for SEE (centipawns); only their order and rough size matter.
constexpr std::array<Value, PIECE_TYPE_NB> SeeValue = {0, 100, 320, 330, 500, 950, 20000, 1250, 780, 860};

// True when the exchange sequence started by m on its destination square gains at
// least `threshold` for the mover (both sides may stop capturing when it suits them).
bool see_ge(const Position& pos, Move m, Value threshold);

// A compact piece index for history tables: colour * 9 + type - 1 (0..17).
constexpr int PieceIndexNb = 18;
inline int piece_index(Piece pc) { return color_of(pc) * 9 + type_of(pc) - 1; }

// Butterfly history has four slots per from/to pair, one for each answer to "does the
// opponent attack the from square, the to square?": a quiet move that escapes a threat
// or steps into one is judged apart from the same move in a quiet position.
using ButterflyHistory = std::array<std::array<std::array<std::int16_t, SQUARE_NB * SQUARE_NB>, 4>, COLOR_NB>;
// The slot of m given `threats`, the squares the opponent attacks (0 when the threat
// index is switched off: every move then shares one table).
inline int threat_slot(Bitboard threats, Move m) {
    return 2 * int(threats >> from_sq(m) & 1) + int(threats >> to_sq(m) & 1);
}
// The butterfly entry of quiet move m (read or updated, as H is const or not); the
// index from * 64 + to is the move's low 12 bits.
template <class H>
auto& butterfly(H& h, Color us, Bitboard threats, Move m) {
    return h[us][threat_slot(threats, m)][m & 4095];
}
using PieceToHistory = std::array<std::array<std::int16_t, SQUARE_NB>, PieceIndexNb>;
using ContinuationHistory = std::array<std::array<PieceToHistory, SQUARE_NB>, PieceIndexNb>;
using CaptureHistory = std::array<std::array<std::array<std::int16_t, PIECE_TYPE_NB>, SQUARE_NB>, PieceIndexNb>;

constexpr int HistoryMax = 16384;
// Gravity update: moves the entry toward +-HistoryMax in proportion to the bonus.
inline void update_history(std::int16_t& entry, int bonus) {
    bonus = bonus > HistoryMax ? HistoryMax : bonus < -HistoryMax ? -HistoryMax : bonus;
    entry = std::int16_t(entry + bonus - entry * (bonus < 0 ? -bonus : bonus) / HistoryMax);
}

struct History {
    ButterflyHistory main{};
    ContinuationHistory continuation{};
    CaptureHistory captures{};
    void clear() { *this = History(); }
};

// Hands out moves best-first in stages, so that a node that cuts early pays little:
//   1. the hash move, checked with is_legal and nothing generated;
//   2. then every move is generated and scored into bands, best first: good captures
//      and promotions (MVV and capture history), killers, quiets by butterfly +
//      continuation history, losing captures (the same capture score);
//   3. a selection sort picks from the list (ties: the earlier entry), and a capture's
//      exchange (SEE), which only decides its band, is computed when it would be picked:
//      until then it is scored as good.
// Histories are read in step 2, once the hash move has been searched: the tree depends
// on that moment, so lazy scoring is kept to SEE, which reads only the position.
class MovePicker {
public:
    // Main search: every legal move. cont[0], cont[1]: continuation histories of the
    // moves one and two plies back (may be null); threats: the squares the opponent
    // attacks, which choose the butterfly slot (threat_slot).
    MovePicker(const Position& pos, Move tt_move, const History& h, const Move killers[2], const PieceToHistory* cont0,
               const PieceToHistory* cont1, Bitboard threats);
    // Quiescence: captures and promotions (every evasion when in check).
    MovePicker(const Position& pos, Move tt_move, const History& h, Bitboard threats);

    // The next move, MOVE_NONE at the end.
    Move next();

private:
    void generate_and_score();

    const Position& pos_;
    const History& history_;
    Move tt_move_;
    const bool quiescence_;
    const Move* killers_ = nullptr;
    const PieceToHistory* cont0_ = nullptr;
    const PieceToHistory* cont1_ = nullptr;
    const Bitboard threats_;
    enum class Stage { TT_MOVE, GENERATE, PICK } stage_ = Stage::TT_MOVE;
    bool tt_returned_ = false;
    int cur_ = 0, end_ = 0;
    // Moves and scores apart: the scan for the best score reads a dense int array.
    Move moves_[MAX_MOVES];
    int scores_[MAX_MOVES];
};

}  // namespace maharajah::search
