#include "board/position.h"

#include <algorithm>
#include <cstdlib>

namespace maharajah {

using namespace attacks;

void Position::init() {
    attacks::init();
    zobrist::init();
}

int Position::castling_right_of(Move m) {
    const bool white = rank_of(from_sq(m)) == RANK_1, kingside = file_of(to_sq(m)) == FILE_G;
    return white ? (kingside ? WHITE_OO : WHITE_OOO) : (kingside ? BLACK_OO : BLACK_OOO);
}

void Position::add_castling_right(Color c, int cr, Square rook) {
    const Square ksq = king_square(c), kto = castling_king_to(cr), rto = castling_rook_to(cr);
    const int i = right_index(cr);
    st_->castling |= cr;
    castling_rook_[i] = rook;
    castling_path_[i] = (between_bb(ksq, kto) | square_bb(kto) | between_bb(rook, rto) | square_bb(rto)) &
                        ~(square_bb(ksq) | square_bb(rook));
    // The destination always counts, even when the king stays put (Chess960): with the
    // rook gone the king may stand in check there.
    castling_king_path_[i] = between_bb(ksq, kto) | square_bb(kto);
    castling_mask_[ksq] |= c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
    castling_mask_[rook] |= cr;
}

Square Position::castling_rook_to(int cr) {
    return cr == WHITE_OO ? SQ_F1 : cr == WHITE_OOO ? SQ_D1 : cr == BLACK_OO ? SQ_F8 : SQ_D8;
}
Square Position::castling_king_to(int cr) {
    return cr == WHITE_OO ? SQ_G1 : cr == WHITE_OOO ? SQ_C1 : cr == BLACK_OO ? SQ_G8 : SQ_C8;
}

void Position::put_piece(Piece pc, Square s) {
    Bitboard b = square_bb(s);
    board_[s] = pc;
    by_type_[NO_PIECE_TYPE] |= b;
    by_type_[type_of(pc)] |= b;
    by_color_[color_of(pc)] |= b;
}

void Position::remove_piece(Square s) {
    Piece pc = board_[s];
    Bitboard b = square_bb(s);
    by_type_[NO_PIECE_TYPE] ^= b;
    by_type_[type_of(pc)] ^= b;
    by_color_[color_of(pc)] ^= b;
    board_[s] = NO_PIECE;
}

void Position::move_piece(Square from, Square to) {
    Piece pc = board_[from];
    Bitboard b = square_bb(from) | square_bb(to);
    by_type_[NO_PIECE_TYPE] ^= b;
    by_type_[type_of(pc)] ^= b;
    by_color_[color_of(pc)] ^= b;
    board_[from] = NO_PIECE;
    board_[to] = pc;
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) |
           (knight_attacks(s) & pieces_with<KNIGHT_LEAP>()) | (king_attacks(s) & pieces_with<KING_STEP>()) |
           (rook_attacks(s, occupied) & pieces_with<ORTH_SLIDER>()) |
           (bishop_attacks(s, occupied) & pieces_with<DIAG_SLIDER>());
}

Bitboard Position::attacks_by(Color c) const {
    Bitboard attacked = 0;
    for (Bitboard b = pieces(c); b;) {
        const Square s = pop_lsb(b);
        attacked |= piece_attacks(type_of(board_[s]), c, s, pieces());
    }
    return attacked;
}

Bitboard Position::blockers_for_king(Color c) const {
    Square ksq = king_square(c);
    Bitboard snipers =
        ((rook_attacks(ksq, 0) & pieces_with<ORTH_SLIDER>()) | (bishop_attacks(ksq, 0) & pieces_with<DIAG_SLIDER>())) &
        pieces(~c);
    Bitboard occupancy = pieces() ^ snipers;
    Bitboard blockers = 0;
    while (snipers) {
        Square s = pop_lsb(snipers);
        Bitboard b = between_bb(ksq, s) & occupancy;
        if (b && !more_than_one(b)) blockers |= b;
    }
    return blockers;
}

Key Position::key_after(Move m) const {
    const Square from = from_sq(m), to = to_sq(m);
    const Piece pc = board_[from];
    Key k = st_->key ^ zobrist::Side ^ zobrist::Psq[pc][from] ^ zobrist::Psq[pc][to];
    if (st_->ep_square != SQ_NONE) k ^= zobrist::EnPassant[file_of(st_->ep_square)];
    if (is_en_passant(m))
        k ^= zobrist::Psq[make_piece(~side_, PAWN)][to - pawn_push(side_)];
    else if (board_[to] && !is_castling(m))
        k ^= zobrist::Psq[board_[to]][to];
    if (is_promotion(m)) k ^= zobrist::Psq[pc][to] ^ zobrist::Psq[make_piece(side_, promotion_type(m))][to];
    if (int lost = st_->castling & (castling_mask_[from] | castling_mask_[to]))
        k ^= zobrist::Castling[st_->castling] ^ zobrist::Castling[st_->castling ^ lost];
    for (Bitboard b = st_->double_step & (square_bb(from) | square_bb(to)); b;) k ^= zobrist::DoubleStep[pop_lsb(b)];
    return k;
}

void Position::do_move(Move m, StateInfo& ns) {
    // Copy the fields that carry over; the rest is recomputed below.
    ns.key = st_->key ^ zobrist::Side;
    ns.double_step = st_->double_step;
    ns.castling = st_->castling;
    ns.ep_square = st_->ep_square;
    ns.rule50 = st_->rule50 + 1;
    ns.plies_from_null = st_->plies_from_null + 1;
    ns.previous = st_;
    st_ = &ns;
    ++game_ply_;

    const Color us = side_, them = ~us;
    const Square from = from_sq(m), to = to_sq(m);
    const Piece pc = board_[from];
    Piece captured = is_en_passant(m) ? make_piece(them, PAWN) : board_[to];
    Key k = ns.key;

    if (ns.ep_square != SQ_NONE) {
        k ^= zobrist::EnPassant[file_of(ns.ep_square)];
        ns.ep_square = SQ_NONE;
    }

    if (is_castling(m)) {
        // King and rook lift off together, then land: in Chess960 either may land on
        // the other's square.
        int cr = castling_right_of(m);
        Square rook_from = castling_rook_square(cr);
        Square rto = castling_rook_to(cr);
        Piece rook = board_[rook_from];
        remove_piece(from);
        remove_piece(rook_from);
        put_piece(pc, to);
        put_piece(rook, rto);
        k ^= zobrist::Psq[rook][rook_from] ^ zobrist::Psq[rook][rto] ^ zobrist::Psq[pc][from] ^ zobrist::Psq[pc][to];
        captured = NO_PIECE;
    } else {
        if (captured) {
            Square capsq = is_en_passant(m) ? Square(to - pawn_push(us)) : to;
            remove_piece(capsq);
            k ^= zobrist::Psq[captured][capsq];
            ns.rule50 = 0;
        }
        move_piece(from, to);
        k ^= zobrist::Psq[pc][from] ^ zobrist::Psq[pc][to];
    }

    if (ns.castling) {
        int lost = ns.castling & (castling_mask_[from] | castling_mask_[to]);
        if (lost) {
            k ^= zobrist::Castling[ns.castling] ^ zobrist::Castling[ns.castling ^ lost];
            ns.castling ^= lost;
        }
    }

    if (type_of(pc) == PAWN) {
        ns.rule50 = 0;
        if (std::abs(to - from) == 16) {
            Square passed = Square(to - pawn_push(us));
            if (pawn_attacks(us, passed) & pieces(them, PAWN)) {
                ns.ep_square = passed;
                k ^= zobrist::EnPassant[file_of(passed)];
            }
        } else if (is_promotion(m)) {
            Piece promoted = make_piece(us, promotion_type(m));
            remove_piece(to);
            put_piece(promoted, to);
            k ^= zobrist::Psq[pc][to] ^ zobrist::Psq[promoted][to];
        }
    }

    // A pawn that moves, or is captured on its square, loses its double-step right.
    Bitboard lost_steps = ns.double_step & (square_bb(from) | square_bb(to));
    if (lost_steps) {
        ns.double_step ^= lost_steps;
        while (lost_steps) k ^= zobrist::DoubleStep[pop_lsb(lost_steps)];
    }

    ns.key = k;
    ns.captured = captured;
    side_ = them;
    ns.checkers = attackers_to(king_square(them)) & pieces(us);
}

void Position::undo_move(Move m) {
    side_ = ~side_;
    const Color us = side_;
    const Square from = from_sq(m), to = to_sq(m);

    if (is_promotion(m)) {
        remove_piece(to);
        put_piece(make_piece(us, PAWN), to);
    }
    if (is_castling(m)) {
        int cr = castling_right_of(m);
        Square rto = castling_rook_to(cr);
        Piece king = board_[to], rook = board_[rto];
        remove_piece(to);
        remove_piece(rto);
        put_piece(king, from);
        put_piece(rook, castling_rook_square(cr));
    } else
        move_piece(to, from);
    if (!is_castling(m) && st_->captured) {
        Square capsq = is_en_passant(m) ? Square(to - pawn_push(us)) : to;
        put_piece(st_->captured, capsq);
    }
    st_ = st_->previous;
    --game_ply_;
}

void Position::do_null_move(StateInfo& ns) {
    ns = *st_;
    ns.previous = st_;
    st_ = &ns;
    if (ns.ep_square != SQ_NONE) {
        ns.key ^= zobrist::EnPassant[file_of(ns.ep_square)];
        ns.ep_square = SQ_NONE;
    }
    ns.key ^= zobrist::Side;
    ++ns.rule50;
    ns.plies_from_null = 0;
    ns.captured = NO_PIECE;
    side_ = ~side_;
    ns.checkers = 0;  // a null move is only made when not in check
}

void Position::undo_null_move() {
    st_ = st_->previous;
    side_ = ~side_;
}

int Position::repetition_count() const {
    int count = 1;
    // Only positions since the last capture or pawn move can repeat, and only every
    // second ply has the same side to move.
    const StateInfo* p = st_;
    for (int back = 1; back <= st_->rule50; ++back) {
        p = p->previous;
        if (!p) break;
        if (back % 2 == 0 && p->key == st_->key) ++count;
    }
    return count;
}

bool Position::is_search_repetition(int ply) const {
    int end = std::min(st_->rule50, st_->plies_from_null);
    if (end < 4) return false;
    const StateInfo* p = st_->previous;
    if (!p) return false;
    int seen = 0;
    for (int back = 2; back <= end; back += 2) {
        p = p->previous;
        if (!p) return false;
        if (p->key == st_->key && (back < ply || ++seen == 2)) return true;
        p = p->previous;
        if (!p) return false;
    }
    return false;
}

namespace {
constexpr Bitboard DarkSquares = 0xAA55AA55AA55AA55ULL;
}

bool Position::insufficient_material() const {
    Bitboard heavy =
        pieces(PAWN) | pieces(ROOK) | pieces(QUEEN) | pieces(MAHARAJA) | pieces(ARCHBISHOP) | pieces(CHANCELLOR);
    if (heavy) return false;
    Bitboard minors = pieces(KNIGHT) | pieces(BISHOP);
    if (popcount(minors) <= 1) return true;
    Bitboard bishops = pieces(BISHOP);
    return !pieces(KNIGHT) && (!(bishops & DarkSquares) || !(bishops & ~DarkSquares));
}

bool Position::has_mating_material(Color c) const {
    Bitboard own = pieces(c) & ~pieces(KING);
    if (own & ~(pieces(KNIGHT) | pieces(BISHOP))) return true;
    if (popcount(own) <= 1) return false;
    Bitboard bishops = pieces(c, BISHOP);
    return pieces(c, KNIGHT) || ((bishops & DarkSquares) && (bishops & ~DarkSquares));
}

Key Position::compute_key() const {
    Key k = 0;
    for (Bitboard b = pieces(); b;) {
        Square s = pop_lsb(b);
        k ^= zobrist::Psq[board_[s]][s];
    }
    for (Bitboard b = st_->double_step; b;) k ^= zobrist::DoubleStep[pop_lsb(b)];
    if (st_->ep_square != SQ_NONE) k ^= zobrist::EnPassant[file_of(st_->ep_square)];
    k ^= zobrist::Castling[st_->castling];
    if (side_ == BLACK) k ^= zobrist::Side;
    return k;
}

std::string Position::check_invariants() const {
    Bitboard all = 0;
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
        if (all & by_type_[pt]) return "piece-type bitboards overlap";
        all |= by_type_[pt];
    }
    if (all != pieces() || (pieces(WHITE) | pieces(BLACK)) != all || (pieces(WHITE) & pieces(BLACK)))
        return "colour or occupancy bitboards inconsistent";
    for (int s = 0; s < SQUARE_NB; ++s) {
        Piece pc = board_[s];
        bool in_bb = all & square_bb(Square(s));
        if (bool(pc) != in_bb) return "mailbox disagrees with occupancy at " + square_name(Square(s));
        if (pc && !(pieces(color_of(pc), type_of(pc)) & square_bb(Square(s))))
            return "mailbox piece missing from its bitboard at " + square_name(Square(s));
    }
    if (count(WHITE, KING) != 1 || count(BLACK, KING) != 1) return "not one king per side";
    if (st_->double_step & ~pieces(PAWN)) return "double-step right on a square without a pawn";
    if (st_->key != compute_key()) return "incremental key differs from the computed key";
    if (st_->checkers != (attackers_to(king_square(side_)) & pieces(~side_))) return "stale checkers";
    return {};
}

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

std::string move_to_uci(const Position& pos, Move m) {
    if (!pos.chess960() || !is_castling(m)) return move_to_uci(m);
    return square_name(from_sq(m)) + square_name(pos.castling_rook_square(Position::castling_right_of(m)));
}

std::string move_to_uci(Move m) {
    if (m == MOVE_NONE || m == MOVE_NULL) return "0000";
    std::string s = square_name(from_sq(m)) + square_name(to_sq(m));
    if (is_promotion(m)) s += char(PieceTable[promotion_type(m)].letter - 'A' + 'a');
    return s;
}

}  // namespace maharajah
