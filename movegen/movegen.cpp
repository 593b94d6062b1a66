#include "movegen/movegen.h"

namespace maharajah {

using namespace attacks;

namespace {

// True when a piece of colour `by` attacks s, given the occupancy `occ` (used for king
// moves, where the king itself must be left out of the occupancy).
template <Color By>
inline bool attacked(const Position& pos, Square s, Bitboard occ) {
    const Bitboard them = pos.pieces(By);
    return (pawn_attacks(~By, s) & pos.pieces(By, PAWN)) ||
           (knight_attacks(s) & them & pos.pieces_with<KNIGHT_LEAP>()) || (king_attacks(s) & pos.pieces(By, KING)) ||
           (rook_attacks(s, occ) & them & pos.pieces_with<ORTH_SLIDER>()) ||
           (bishop_attacks(s, occ) & them & pos.pieces_with<DIAG_SLIDER>());
}

inline Move* emit_from(Square from, Bitboard targets, Move* list) {
    while (targets) *list++ = make_move(from, pop_lsb(targets));
    return list;
}

inline Move* emit_promotions(const SideRules& r, Square from, Square to, Move* list) {
    for (int i = 0; i < r.promotion_count; ++i) *list++ = make_promotion(from, to, r.promotions[i]);
    return list;
}

template <PieceType Pt>
inline Move* generate_piece(const Position& pos, Color us, Square ksq, Bitboard target, Bitboard pinned, Move* list) {
    Bitboard bb = pos.pieces(us, Pt);
    const Bitboard occ = pos.pieces();
    while (bb) {
        Square from = pop_lsb(bb);
        Bitboard b = attacks_bb<Pt>(from, occ) & target;
        if (pinned & square_bb(from)) b &= line_bb(ksq, from);
        list = emit_from(from, b, list);
    }
    return list;
}

template <Color Us, GenType T>
Move* generate_pawns(const Position& pos, Square ksq, Bitboard target, Bitboard pinned, Move* list) {
    constexpr Color Them = ~Us;
    constexpr int Up = pawn_push(Us);
    constexpr int UpWest = Up + WEST, UpEast = Up + EAST;
    const SideRules& rules = pos.rules(Us);
    const Bitboard occ = pos.pieces();
    const Bitboard empty = ~occ;
    const Bitboard enemies = pos.pieces(Them) & target;
    const Bitboard seventh = rank_bb(relative_rank(Us, RANK_7));
    const Bitboard pawns = pos.pieces(Us, PAWN);
    const Bitboard free_pawns = pawns & ~pinned;
    const Bitboard plain = free_pawns & ~seventh;
    const Bitboard promoting = free_pawns & seventh;

    if constexpr (T != CAPTURES) {
        Bitboard single = shift<Up>(plain) & empty;
        Bitboard dbl = shift<Up>(shift<Up>(plain & pos.double_step_pawns()) & empty) & empty & target;
        single &= target;
        while (single) {
            Square to = pop_lsb(single);
            *list++ = make_move(Square(to - Up), to);
        }
        while (dbl) {
            Square to = pop_lsb(dbl);
            *list++ = make_move(Square(to - 2 * Up), to);
        }
    }
    if constexpr (T != QUIETS) {
        Bitboard west = shift<UpWest>(plain) & enemies, east = shift<UpEast>(plain) & enemies;
        while (west) {
            Square to = pop_lsb(west);
            *list++ = make_move(Square(to - UpWest), to);
        }
        while (east) {
            Square to = pop_lsb(east);
            *list++ = make_move(Square(to - UpEast), to);
        }
        if (promoting) {
            Bitboard push = shift<Up>(promoting) & empty & target;
            Bitboard pw = shift<UpWest>(promoting) & enemies, pe = shift<UpEast>(promoting) & enemies;
            while (push) {
                Square to = pop_lsb(push);
                list = emit_promotions(rules, Square(to - Up), to, list);
            }
            while (pw) {
                Square to = pop_lsb(pw);
                list = emit_promotions(rules, Square(to - UpWest), to, list);
            }
            while (pe) {
                Square to = pop_lsb(pe);
                list = emit_promotions(rules, Square(to - UpEast), to, list);
            }
        }
        // En passant: rare, so each candidate is checked by replaying it on the occupancy.
        Square ep = pos.ep_square();
        if (ep != SQ_NONE) {
            Square capsq = Square(ep - Up);
            for (Bitboard b = pawn_attacks(Them, ep) & pawns; b;) {
                Square from = pop_lsb(b);
                Bitboard after = (occ ^ square_bb(from) ^ square_bb(capsq)) | square_bb(ep);
                if (!(pos.attackers_to(ksq, after) & pos.pieces(Them) & ~square_bb(capsq)))
                    *list++ = make_special(from, ep, EN_PASSANT);
            }
        }
    }
    // Pinned pawns (rare): each may move only along the line through its king.
    for (Bitboard b = pawns & pinned; b;) {
        Square from = pop_lsb(b);
        Bitboard line = line_bb(ksq, from) & target;
        bool promotes = square_bb(from) & seventh;
        Bitboard moves = 0;
        if constexpr (T != QUIETS) moves |= pawn_attacks(Us, from) & enemies & line;
        if (T != QUIETS || !promotes) {
            Square one = Square(from + Up);
            if (empty & square_bb(one)) {
                if (T != CAPTURES || promotes) moves |= square_bb(one) & line;
                if constexpr (T != CAPTURES) {
                    Square two = Square(one + Up);
                    if ((pos.double_step_pawns() & square_bb(from)) && (empty & square_bb(two)))
                        moves |= square_bb(two) & line;
                }
            }
        }
        while (moves) {
            Square to = pop_lsb(moves);
            list = promotes ? emit_promotions(rules, from, to, list) : (*list++ = make_move(from, to), list);
        }
    }
    return list;
}

template <Color Us, GenType T>
Move* generate_all(const Position& pos, Move* list) {
    constexpr Color Them = ~Us;
    const Square ksq = pos.king_square(Us);
    const Bitboard occ = pos.pieces();
    const Bitboard checkers = pos.checkers();

    // Target squares for the king by mode; each is then tested against attacks with
    // the king lifted off the board (so it cannot hide behind itself from a slider).
    Bitboard king_target = T == CAPTURES ? pos.pieces(Them) : T == QUIETS ? ~occ : ~pos.pieces(Us);
    const Bitboard occ_without_king = occ ^ square_bb(ksq);
    for (Bitboard b = king_attacks(ksq) & king_target; b;) {
        Square to = pop_lsb(b);
        if (!attacked<Them>(pos, to, occ_without_king)) *list++ = make_move(ksq, to);
    }
    if (more_than_one(checkers)) return list;  // double check: only the king moves

    // Other pieces must capture the checker or block its ray when in check.
    Bitboard target = checkers ? between_bb(ksq, lsb(checkers)) | checkers : ~Bitboard(0);
    target &= T == CAPTURES ? pos.pieces(Them) : T == QUIETS ? ~occ : ~pos.pieces(Us);
    const Bitboard pinned = pos.blockers_for_king(Us) & pos.pieces(Us);

    // Pawns see the full check target: their promotions and en passant cut across modes.
    Bitboard pawn_target = checkers ? between_bb(ksq, lsb(checkers)) | checkers : ~Bitboard(0);
    list = generate_pawns<Us, T>(pos, ksq, pawn_target, pinned, list);
    list = generate_piece<KNIGHT>(pos, Us, ksq, target, pinned, list);
    list = generate_piece<BISHOP>(pos, Us, ksq, target, pinned, list);
    list = generate_piece<ROOK>(pos, Us, ksq, target, pinned, list);
    list = generate_piece<QUEEN>(pos, Us, ksq, target, pinned, list);
    list = generate_piece<MAHARAJA>(pos, Us, ksq, target, pinned, list);
    list = generate_piece<ARCHBISHOP>(pos, Us, ksq, target, pinned, list);
    list = generate_piece<CHANCELLOR>(pos, Us, ksq, target, pinned, list);

    if constexpr (T != CAPTURES) {
        constexpr int Rights[2] = {Us == WHITE ? WHITE_OO : BLACK_OO, Us == WHITE ? WHITE_OOO : BLACK_OOO};
        if (!checkers && pos.rules(Us).can_castle() && (pos.castling_rights() & (Rights[0] | Rights[1])))
            for (int cr : Rights) {
                if (!pos.can_castle(cr) || (pos.castling_path(cr) & occ)) continue;
                // The squares the king crosses, seen with king and rook lifted off (in
                // Chess960 the rook may shield the king's destination before it moves).
                const Bitboard lifted = occ ^ square_bb(ksq) ^ square_bb(pos.castling_rook_square(cr));
                bool safe = true;
                for (Bitboard path = pos.castling_king_path(cr); path && safe;)
                    safe = !attacked<Them>(pos, pop_lsb(path), lifted);
                if (safe) *list++ = make_special(ksq, Position::castling_king_to(cr), CASTLING);
            }
    }
    return list;
}

}  // namespace

template <GenType T>
Move* generate(const Position& pos, Move* list) {
    return pos.side_to_move() == WHITE ? generate_all<WHITE, T>(pos, list) : generate_all<BLACK, T>(pos, list);
}

template Move* generate<CAPTURES>(const Position&, Move*);
template Move* generate<QUIETS>(const Position&, Move*);
template Move* generate<LEGAL>(const Position&, Move*);

template <>
Move* generate<EVASIONS>(const Position& pos, Move* list) {
    return pos.in_check() ? generate<LEGAL>(pos, list) : list;
}

Move parse_uci_move(const Position& pos, const std::string& uci) {
    for (Move m : MoveList<LEGAL>(pos))
        if (move_to_uci(pos, m) == uci) return m;
    return MOVE_NONE;
}

}  // namespace maharajah
