#include "search/movepick.h"

#include <algorithm>

namespace maharajah::search {

using namespace attacks;

bool see_ge(const Position& pos, Move m, Value threshold) {
    if (is_castling(m)) return 0 >= threshold;
    const Square from = from_sq(m), to = to_sq(m);
    // Value gained by the first capture, minus what the mover risks on `to`.
    Value swap = (is_en_passant(m) ? SeeValue[PAWN] : SeeValue[type_of(pos.piece_on(to))]) - threshold;
    if (is_promotion(m)) swap += SeeValue[promotion_type(m)] - SeeValue[PAWN];
    if (swap < 0) return false;
    PieceType moved = is_promotion(m) ? promotion_type(m) : type_of(pos.piece_on(from));
    swap = SeeValue[moved] - swap;
    if (swap <= 0) return true;

    Bitboard occ = pos.pieces() ^ square_bb(from) ^ square_bb(to);
    if (is_en_passant(m)) occ ^= square_bb(Square(to - pawn_push(pos.side_to_move())));
    Color stm = pos.side_to_move();
    Bitboard attackers = pos.attackers_to(to, occ) & occ;
    const Bitboard orth = pos.pieces_with<ORTH_SLIDER>(), diag = pos.pieces_with<DIAG_SLIDER>();
    // Least valuable first; compound pieces sit between the rook and the queen
    // or above it, by their exchange value.
    constexpr PieceType Order[] = {PAWN, KNIGHT, BISHOP, ROOK, ARCHBISHOP, CHANCELLOR, QUEEN, MAHARAJA, KING};
    bool result = true;
    while (true) {
        stm = ~stm;
        attackers &= occ;
        Bitboard mine = attackers & pos.pieces(stm);
        if (!mine) break;
        // (Pinned pieces are not excluded: a small inaccuracy accepted for speed.)
        result = !result;
        PieceType pt = NO_PIECE_TYPE;
        Bitboard b = 0;
        for (PieceType t : Order)
            if ((b = mine & pos.pieces(t))) {
                pt = t;
                break;
            }
        if (pt == KING) {
            // The king may take only if the other side has nothing left to recapture.
            return (attackers & ~pos.pieces(stm)) ? !result : result;
        }
        if ((swap = SeeValue[pt] - swap) < result) break;
        occ ^= square_bb(lsb(b));
        // Uncover sliders behind the piece that just captured.
        attackers |= (bishop_attacks(to, occ) & diag) | (rook_attacks(to, occ) & orth);
    }
    return result;
}

namespace {

// No continuation history (quiescence): reads as zero, so scoring needs no branch.
const PieceToHistory NoHistory{};

// Score bands, best first. A capture's score above its band's base is at least -1024
// (capture history / 16), so every score from SeePending up is a good capture's whose
// SEE is still to be computed (a capture found good is handed out at once).
constexpr int GoodCapture = 1 << 28, Killer = 1 << 27, BadCapture = -(1 << 20);
constexpr int SeePending = GoodCapture - 2048;

}  // namespace

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& h, const Move killers[2],
                       const PieceToHistory* cont0, const PieceToHistory* cont1, Bitboard threats)
    : pos_(pos),
      history_(h),
      tt_move_(tt_move),
      quiescence_(false),
      killers_(killers),
      cont0_(cont0 ? cont0 : &NoHistory),
      cont1_(cont1 ? cont1 : &NoHistory),
      threats_(threats) {}

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& h, Bitboard threats)
    : pos_(pos),
      history_(h),
      tt_move_(tt_move),
      quiescence_(true),
      cont0_(&NoHistory),
      cont1_(&NoHistory),
      threats_(threats) {}

void MovePicker::generate_and_score() {
    Move* end = !quiescence_      ? generate<LEGAL>(pos_, moves_)
                : pos_.in_check() ? generate<EVASIONS>(pos_, moves_)
                                  : generate<CAPTURES>(pos_, moves_);
    end_ = int(end - moves_);
    if (tt_returned_) {
        // The list as the one-list picker leaves it after taking the hash move to the
        // front: the first move fills the hash move's slot. The search's tree depends
        // on the order of equal scores, so it is kept exactly.
        *std::find(moves_, end, tt_move_) = moves_[0];
        cur_ = 1;
    }
    const Color us = pos_.side_to_move();
    // A capture lands on an enemy piece or is en passant (castling never does: its
    // destination is empty or holds the king's own rook in Chess960).
    const Bitboard enemies = pos_.pieces(~us);
    const Move killer0 = killers_ ? killers_[0] : MOVE_NONE, killer1 = killers_ ? killers_[1] : MOVE_NONE;
    for (int i = cur_; i < end_; ++i) {
        const Move m = moves_[i];
        const Square to = to_sq(m);
        const int pi = piece_index(pos_.piece_on(from_sq(m)));
        int score;
        if ((enemies & square_bb(to)) || is_promotion(m) || is_en_passant(m)) {
            PieceType victim = is_en_passant(m) ? PAWN : type_of(pos_.piece_on(to));
            score = GoodCapture + 8 * SeeValue[victim] + (is_promotion(m) ? SeeValue[promotion_type(m)] : 0) +
                    history_.captures[pi][to][victim] / 16;
        } else if (m == killer0)
            score = Killer + 2;
        else if (m == killer1)
            score = Killer + 1;
        else
            score = butterfly(history_.main, us, threats_, m) + (*cont0_)[pi][to] + (*cont1_)[pi][to];
        scores_[i] = score;
    }
}

Move MovePicker::next() {
    if (stage_ == Stage::TT_MOVE) {
        stage_ = Stage::GENERATE;
        // Quiescence takes the hash move only where its generator would have it.
        if (tt_move_ != MOVE_NONE && is_legal(pos_, tt_move_) &&
            (!quiescence_ || pos_.in_check() || pos_.is_capture(tt_move_) || is_promotion(tt_move_))) {
            tt_returned_ = true;
            return tt_move_;
        }
    }
    if (stage_ == Stage::GENERATE) {
        stage_ = Stage::PICK;
        generate_and_score();
    }
    while (cur_ < end_) {
        // Selection sort step: the first of the best remaining moves goes to the front.
        int best = cur_;
        for (int i = cur_ + 1; i < end_; ++i)
            if (scores_[i] > scores_[best]) best = i;
        if (scores_[best] >= SeePending && !see_ge(pos_, moves_[best], 0)) {
            // A pending score is an upper bound of the final one, so a best move whose
            // score holds is the best of the final scores too; a losing capture drops
            // to its band and the search goes on.
            scores_[best] += BadCapture - GoodCapture;
            continue;
        }
        std::swap(moves_[best], moves_[cur_]);
        std::swap(scores_[best], scores_[cur_]);
        return moves_[cur_++];
    }
    return MOVE_NONE;
}

}  // namespace maharajah::search
