#include "movegen/movegen.h"

#include <algorithm>

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

constexpr bool is_normal(Move m) { return (m >> 12) == NORMAL; }

// Whether castling right cr (one of Us's) can be used now, the king not being in check
// and Us's rules allowing castling: the right is held, the path is empty and the
// squares the king crosses are safe.
template <Color Us>
bool castling_possible(const Position& pos, int cr, Square ksq, Bitboard occ) {
    if (!pos.can_castle(cr) || (pos.castling_path(cr) & occ)) return false;
    // The squares the king crosses, seen with king and rook lifted off (in Chess960 the
    // rook may shield the king's destination before it moves).
    const Bitboard lifted = occ ^ square_bb(ksq) ^ square_bb(pos.castling_rook_square(cr));
    for (Bitboard path = pos.castling_king_path(cr); path;)
        if (attacked<~Us>(pos, pop_lsb(path), lifted)) return false;
    return true;
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
            for (int cr : Rights)
                if (castling_possible<Us>(pos, cr, ksq, occ))
                    *list++ = make_special(ksq, Position::castling_king_to(cr), CASTLING);
    }
    return list;
}

// The pawn part of is_legal: whether a pawn of Us on `from` may make m, pins and checks
// aside (en passant is tested whole).
template <Color Us>
bool pawn_move_possible(const Position& pos, Move m, Square from, Square to) {
    constexpr int Up = pawn_push(Us);
    if (is_en_passant(m)) {
        if (to != pos.ep_square() || !(pawn_attacks(Us, from) & square_bb(to))) return false;
        // Replayed on the occupancy, as the generator does.
        const Square capsq = Square(to - Up);
        const Bitboard after = (pos.pieces() ^ square_bb(from) ^ square_bb(capsq)) | square_bb(to);
        return !(pos.attackers_to(pos.king_square(Us), after) & pos.pieces(~Us) & ~square_bb(capsq));
    }
    // A pawn on its seventh rank must promote, to one of its side's choices; no other may.
    const bool promoting = relative_rank(Us, from) == RANK_7;
    if (promoting != is_promotion(m)) return false;
    if (promoting) {
        const SideRules& r = pos.rules(Us);
        if (std::find(r.promotions.begin(), r.promotions.begin() + r.promotion_count, promotion_type(m)) ==
            r.promotions.begin() + r.promotion_count)
            return false;
    } else if (!is_normal(m))
        return false;
    if (pawn_attacks(Us, from) & pos.pieces(~Us) & square_bb(to)) return true;
    if (!pos.empty(to)) return false;
    const int step = int(to) - int(from);
    return step == Up || (step == 2 * Up && !promoting && (pos.double_step_pawns() & square_bb(from)) &&
                          pos.empty(Square(from + Up)));
}

template <Color Us>
bool legal_for(const Position& pos, Move m) {
    constexpr Color Them = ~Us;
    const Square from = from_sq(m), to = to_sq(m);
    const Piece pc = pos.piece_on(from);
    if (pc == NO_PIECE || color_of(pc) != Us) return false;
    const PieceType pt = type_of(pc);
    const Square ksq = pos.king_square(Us);
    const Bitboard occ = pos.pieces(), checkers = pos.checkers();

    if (is_castling(m)) {
        if (pt != KING || checkers || !pos.rules(Us).can_castle()) return false;
        for (int cr : {Us == WHITE ? WHITE_OO : BLACK_OO, Us == WHITE ? WHITE_OOO : BLACK_OOO})
            if (to == Position::castling_king_to(cr)) return castling_possible<Us>(pos, cr, ksq, occ);
        return false;
    }
    if (pos.pieces(Us) & square_bb(to)) return false;
    if (pt == KING)
        return is_normal(m) && (king_attacks(from) & square_bb(to)) && !attacked<Them>(pos, to, occ ^ square_bb(from));
    if (more_than_one(checkers)) return false;  // double check: only the king moves
    if (pt == PAWN) {
        if (!pawn_move_possible<Us>(pos, m, from, to)) return false;
        if (is_en_passant(m)) return true;  // tested whole above
    } else if (!is_normal(m) || !(piece_attacks(pt, Us, from, occ) & square_bb(to)))
        return false;
    // In check: capture the checker or block its ray.
    if (checkers && !((between_bb(ksq, lsb(checkers)) | checkers) & square_bb(to))) return false;
    // A pinned piece stays on the line through its king, as in the generator; the pins
    // are looked up only for a piece that leaves such a line.
    const Bitboard line = line_bb(ksq, from);
    return !line || (line & square_bb(to)) || !(pos.blockers_for_king(Us) & square_bb(from));
}

}  // namespace

bool is_legal(const Position& pos, Move m) {
    return pos.side_to_move() == WHITE ? legal_for<WHITE>(pos, m) : legal_for<BLACK>(pos, m);
}

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
