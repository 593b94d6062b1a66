#include "search/movepick.h"

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
    : history_(h), pos_(pos), tt_move_(tt_move), killers_(killers), cont0_(cont0), cont1_(cont1) {
    Move raw[MAX_MOVES];
    Move* end = generate<LEGAL>(pos, raw);
    for (Move* m = raw; m != end; ++m) *end_++ = {*m, 0};
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& h)
    : history_(h), pos_(pos), tt_move_(tt_move) {
    Move raw[MAX_MOVES];
    Move* end = pos.in_check() ? generate<EVASIONS>(pos, raw) : generate<CAPTURES>(pos, raw);
    for (Move* m = raw; m != end; ++m) *end_++ = {*m, 0};
}

void MovePicker::score_all(const Position& pos, Move tt_move, const Move* killers, const PieceToHistory* cont0,
                           const PieceToHistory* cont1) {
    const Color us = pos.side_to_move();
    for (Scored* s = cur_; s != end_; ++s) {
        Move m = s->move;
        Square from = from_sq(m), to = to_sq(m);
        Piece pc = pos.piece_on(from);
        bool capture = pos.is_capture(m);
        if (m == tt_move)
            s->score = 1 << 30;
        else if (capture || is_promotion(m)) {
            PieceType victim = is_en_passant(m) ? PAWN : type_of(pos.piece_on(to));
            int v = 8 * SeeValue[victim] + (is_promotion(m) ? SeeValue[promotion_type(m)] : 0) +
                    history_.captures[piece_index(pc)][to][victim] / 16;
            // Winning or even exchanges first; losing ones after the quiet moves.
            s->score = see_ge(pos, m, 0) ? (1 << 28) + v : -(1 << 20) + v;
        } else {
            if (killers && m == killers[0])
                s->score = (1 << 27) + 2;
            else if (killers && m == killers[1])
                s->score = (1 << 27) + 1;
            else {
                int pi = piece_index(pc);
                s->score =
                    history_.main[us][from * 64 + to] + (cont0 ? (*cont0)[pi][to] : 0) + (cont1 ? (*cont1)[pi][to] : 0);
            }
        }
    }
}

Move MovePicker::next() {
    if (stage_ == Stage::TT_MOVE) {
        stage_ = Stage::SCORE;
        // The TT move first, unscored; it is legal only if the generated list has it.
        if (tt_move_ != MOVE_NONE)
            for (Scored* s = cur_; s != end_; ++s)
                if (s->move == tt_move_) {
                    std::swap(*s, *cur_);
                    return (cur_++)->move;
                }
    }
    if (stage_ == Stage::SCORE) {
        stage_ = Stage::PICK;
        score_all(pos_, MOVE_NONE, killers_, cont0_, cont1_);
    }
    if (cur_ == end_) return MOVE_NONE;
    // Selection sort step: bring the best remaining move to the front.
    Scored* best = cur_;
    for (Scored* s = cur_ + 1; s != end_; ++s)
        if (s->score > best->score) best = s;
    std::swap(*best, *cur_);
    return (cur_++)->move;
}

}  // namespace maharajah::search
