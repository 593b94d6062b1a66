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

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& h, const Move killers[2],
                       const PieceToHistory* cont0, const PieceToHistory* cont1)
    : pos_(pos), history_(h), tt_move_(tt_move), quiescence_(false), killers_(killers), cont0_(cont0), cont1_(cont1) {}

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& h)
    : pos_(pos), history_(h), tt_move_(tt_move), quiescence_(true) {}

namespace {
constexpr int GoodCapture = 1 << 28, Killer = 1 << 27, BadCapture = -(1 << 20);
}

void MovePicker::generate_and_score() {
    Move raw[MAX_MOVES];
    Move* end = !quiescence_      ? generate<LEGAL>(pos_, raw)
                : pos_.in_check() ? generate<EVASIONS>(pos_, raw)
                                  : generate<CAPTURES>(pos_, raw);
    Move* begin = raw;
    if (tt_returned_) {
        // The list as the one-list picker leaves it after taking the hash move to the
        // front: the first move fills the hash move's slot. The search's tree depends
        // on the order of equal scores, so it is kept exactly.
        Move* tt = std::find(raw, end, tt_move_);
        *tt = raw[0];
        ++begin;
    }
    const Color us = pos_.side_to_move();
    for (Move* p = begin; p != end; ++p) {
        const Move m = *p;
        const Square from = from_sq(m), to = to_sq(m);
        const Piece pc = pos_.piece_on(from);
        Scored& s = *end_++;
        s.move = m;
        s.see_pending = false;
        if (pos_.is_capture(m) || is_promotion(m)) {
            PieceType victim = is_en_passant(m) ? PAWN : type_of(pos_.piece_on(to));
            s.score = GoodCapture + 8 * SeeValue[victim] + (is_promotion(m) ? SeeValue[promotion_type(m)] : 0) +
                      history_.captures[piece_index(pc)][to][victim] / 16;
            s.see_pending = true;
        } else if (killers_ && m == killers_[0])
            s.score = Killer + 2;
        else if (killers_ && m == killers_[1])
            s.score = Killer + 1;
        else {
            const int pi = piece_index(pc);
            s.score =
                history_.main[us][from * 64 + to] + (cont0_ ? (*cont0_)[pi][to] : 0) + (cont1_ ? (*cont1_)[pi][to] : 0);
        }
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
    while (cur_ != end_) {
        // Selection sort step: bring the best remaining move to the front.
        Scored* best = cur_;
        for (Scored* s = cur_ + 1; s != end_; ++s)
            if (s->score > best->score) best = s;
        if (best->see_pending) {
            // Every pending score is an upper bound, so a best move whose score holds is
            // the best of the final scores too; a losing one drops to its band and the
            // search goes on.
            best->see_pending = false;
            if (!see_ge(pos_, best->move, 0)) {
                best->score += BadCapture - GoodCapture;
                continue;
            }
        }
        std::swap(*best, *cur_);
        return (cur_++)->move;
    }
    return MOVE_NONE;
}

}  // namespace maharajah::search
