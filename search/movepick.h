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

using ButterflyHistory = std::array<std::array<std::int16_t, SQUARE_NB * SQUARE_NB>, COLOR_NB>;
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

class MovePicker {
public:
    // Main search: every legal move. cont[0], cont[1]: continuation histories of the
    // moves one and two plies back (may be null).
    MovePicker(const Position& pos, Move tt_move, const History& h, const Move killers[2], const PieceToHistory* cont0,
               const PieceToHistory* cont1);
    // Quiescence: captures and promotions (every evasion when in check).
    MovePicker(const Position& pos, Move tt_move, const History& h);

    // The next move, MOVE_NONE at the end.
    Move next();
    int size() const { return int(end_ - moves_); }

private:
    void score_all(const Position& pos, Move tt_move, const Move* killers, const PieceToHistory* cont0,
                   const PieceToHistory* cont1);

    struct Scored {
        Move move;
        int score;
    };
    const History& history_;
    Scored moves_[MAX_MOVES];
    Scored* cur_ = moves_;
    Scored* end_ = moves_;
    // Scoring waits until the TT move (tried first) has failed to cut: most cut nodes
    // never pay for it.
    enum class Stage { TT_MOVE, SCORE, PICK } stage_ = Stage::TT_MOVE;
    const Position& pos_;
    Move tt_move_;
    const Move* killers_ = nullptr;
    const PieceToHistory* cont0_ = nullptr;
    const PieceToHistory* cont1_ = nullptr;
};

}  // namespace maharajah::search
