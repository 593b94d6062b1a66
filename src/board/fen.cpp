// FEN in the Maharajah dialect (docs/protocol.md, "FEN dialect"):
//   <board> <side> <castling> <ep> <halfmove> <fullmove> [<variant sides> [<unmoved pawns>]]
// Reading validates everything and refuses bad input with a message naming the field;
// writing gives 6 fields for a standard position and all 8 otherwise.

#include <sstream>
#include <vector>

#include "board/position.h"
#include "core/number.h"

namespace maharajah {

using namespace attacks;

namespace {

const char* color_name(Color c) { return c == WHITE ? "White" : "Black"; }

// Squares from which a classic side's pawns double-step, i.e. its default unmoved pawns.
Bitboard classic_home_rank(Color c) { return rank_bb(relative_rank(c, RANK_2)); }

bool parse_square(const std::string& s, std::size_t at, Square& out) {
    if (at + 2 > s.size() || s[at] < 'a' || s[at] > 'h' || s[at + 1] < '1' || s[at + 1] > '8') return false;
    out = make_square(File(s[at] - 'a'), Rank(s[at + 1] - '1'));
    return true;
}

// A field as quoted in an error message: long input is cut, not echoed whole.
std::string clip(const std::string& s) { return s.size() <= 40 ? s : s.substr(0, 40) + "..."; }

}  // namespace

std::string Position::set(const std::string& fen, StateInfo& si, bool chess960) {
    Position p;
    StateInfo tmp;
    p.st_ = &tmp;
    std::string error = p.parse(fen, chess960);
    if (!error.empty()) return error;
    si = tmp;
    *this = p;
    st_ = &si;
    st_->previous = nullptr;
    return {};
}

std::string Position::parse(const std::string& fen, bool chess960) {
    init();
    chess960_ = chess960;
    std::vector<std::string> f;
    {
        std::istringstream in(fen);
        for (std::string w; in >> w;) f.push_back(w);
    }
    if (f.size() < 6 || f.size() > 8)
        return "FEN has " + std::to_string(f.size()) +
               " fields, expected 6 to 8: board side castling en-passant halfmove fullmove [variant-sides "
               "[unmoved-pawns]]";

    // Field 1: the board, rank 8 first.
    {
        int rank = RANK_8, file = 0, ranks_seen = 1;
        for (char ch : f[0]) {
            if (ch == '/') {
                if (file != 8)
                    return "board: rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                           " files, expected 8";
                if (--rank < RANK_1) return "board: more than 8 ranks";
                ++ranks_seen;
                file = 0;
            } else if (ch >= '0' && ch <= '9') {
                if (ch == '0') return "board: rank " + std::to_string(rank + 1) + " has an empty-square count of 0";
                file += ch - '0';
                if (file > 8) return "board: rank " + std::to_string(rank + 1) + " has more than 8 files";
            } else {
                PieceType pt = piece_type_from_char(ch);
                if (pt == NO_PIECE_TYPE) return std::string("board: unknown piece letter '") + ch + "'";
                if (file >= 8) return "board: rank " + std::to_string(rank + 1) + " has more than 8 files";
                Color c = (ch >= 'a' && ch <= 'z') ? BLACK : WHITE;
                put_piece(make_piece(c, pt), make_square(File(file), Rank(rank)));
                ++file;
            }
        }
        if (file != 8)
            return "board: rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " files, expected 8";
        if (ranks_seen != 8) return "board: " + std::to_string(ranks_seen) + " ranks, expected 8";
    }
    for (Color c : {WHITE, BLACK}) {
        if (count(c, KING) != 1)
            return std::string("board: ") + color_name(c) + " has " + std::to_string(count(c, KING)) +
                   " kings, expected exactly one";
        if (popcount(pieces(c)) > 32)
            return std::string("board: ") + color_name(c) + " has " + std::to_string(popcount(pieces(c))) +
                   " men, at most 32 are allowed";
        Bitboard bad = pieces(c, PAWN) & rank_bb(relative_rank(c, RANK_8));
        if (bad)
            return std::string("board: ") + color_name(c) + " pawn on " + square_name(lsb(bad)) +
                   ", its promotion rank";
    }

    // Field 2: side to move.
    if (f[1] == "w")
        side_ = WHITE;
    else if (f[1] == "b")
        side_ = BLACK;
    else
        return "side to move: '" + clip(f[1]) + "' is not w or b";

    // Field 7: which sides play variant rules (absent: those with a compound piece).
    bool variant[COLOR_NB];
    if (f.size() >= 7) {
        variant[WHITE] = variant[BLACK] = false;
        for (char ch : f[6]) {
            if (ch == 'V')
                variant[WHITE] = true;
            else if (ch == 'v')
                variant[BLACK] = true;
            else if (ch != '-')
                return std::string("variant sides: unknown character '") + ch + "' (use V, v or -)";
        }
    } else
        for (Color c : {WHITE, BLACK}) variant[c] = pieces(c) & compounds();
    for (Color c : {WHITE, BLACK}) rules_[c] = SideRules::make(c, variant[c]);

    // Field 3: castling rights; only a classic side with king and rook at home.
    st_->castling = NO_CASTLING;
    if (f[2] != "-") {
        std::string error = parse_castling(f[2], variant);
        if (!error.empty()) return error;
    }

    // Fields 5 and 6: counters. The bound keeps every later move count inside an int;
    // the writer saturates at it, so a written FEN always reads back.
    if (!parse_number(f[4], 0, MaxFenCounter, st_->rule50).empty())
        return "halfmove clock: '" + clip(f[4]) + "' is not a number from 0 to " + std::to_string(MaxFenCounter);
    int fullmove = 1;
    if (!parse_number(f[5], 0, MaxFenCounter, fullmove).empty())
        return "fullmove number: '" + clip(f[5]) + "' is not a number from 0 to " + std::to_string(MaxFenCounter);
    game_ply_ = 2 * (std::max(fullmove, 1) - 1) + (side_ == BLACK);

    // Field 8: unmoved pawns. A side's own king square in the list marks that side's
    // list as exact even when it names none of its pawns (a classic side whose rank-2/7
    // pawns have all lost the double step).
    Bitboard listed = 0;
    bool exact[COLOR_NB] = {false, false};
    if (f.size() == 8 && f[7] != "-") {
        const std::string& u = f[7];
        if (u.size() % 2) return "unmoved pawns: '" + clip(u) + "' is not a list of squares";
        for (std::size_t i = 0; i < u.size(); i += 2) {
            Square s;
            if (!parse_square(u, i, s)) return "unmoved pawns: '" + u.substr(i, 2) + "' is not a square";
            if (listed & square_bb(s)) return "unmoved pawns: " + square_name(s) + " listed twice";
            Piece pc = piece_on(s);
            if (type_of(pc) == KING) {
                exact[color_of(pc)] = true;
                continue;
            }
            if (type_of(pc) != PAWN) return "unmoved pawns: " + square_name(s) + " has no pawn or king";
            if (!(own_half_bb(color_of(pc)) & square_bb(s)))
                return "unmoved pawns: the " + std::string(color_name(color_of(pc))) + " pawn on " + square_name(s) +
                       " is outside its own half, so it cannot be unmoved";
            listed |= square_bb(s);
        }
    }
    st_->double_step = 0;
    for (Color c : {WHITE, BLACK}) {
        Bitboard pawns = pieces(c, PAWN), unmoved;
        if (variant[c])
            unmoved = f.size() == 8 ? listed & pawns : pawns & own_half_bb(c);
        else
            unmoved = (exact[c] || (listed & pawns)) ? listed & pawns : pawns & classic_home_rank(c);
        st_->double_step |= unmoved & rules_[c].double_step_from;
    }

    // Field 4: en passant; must be the passed-over square of a possible double step.
    st_->ep_square = SQ_NONE;
    if (f[3] != "-") {
        Square ep;
        if (f[3].size() != 2 || !parse_square(f[3], 0, ep)) return "en passant: '" + clip(f[3]) + "' is not a square";
        Color mover = ~side_;
        int push = pawn_push(mover);
        Square landing = Square(ep + push), origin = Square(ep - push);
        const std::string why = "en passant: no double step could have produced " + f[3] + ": ";
        if (!is_ok(landing) || !is_ok(origin)) return why + "it is on an edge rank";
        if (piece_on(landing) != make_piece(mover, PAWN))
            return why + "no " + color_name(mover) + " pawn on " + square_name(landing);
        if (!empty(ep) || !empty(origin))
            return why + "the squares " + square_name(ep) + " and " + square_name(origin) + " must be empty";
        Bitboard from_ok = own_half_bb(mover) & rules_[mover].double_step_from;
        if (!(from_ok & square_bb(origin)))
            return why + std::string(color_name(mover)) + " pawns cannot double-step from " + square_name(origin);
        if (st_->double_step & square_bb(landing))
            return why + "the pawn on " + square_name(landing) + " is listed as unmoved";
        // Kept only when a pawn could capture there, as do_move does, so keys agree.
        if (pawn_attacks(mover, ep) & pieces(side_, PAWN)) st_->ep_square = ep;
    }

    // The side not to move must not be in check.
    if (attackers_to(king_square(~side_)) & pieces(side_))
        return std::string("position: ") + color_name(~side_) + " (not to move) is in check";

    st_->checkers = attackers_to(king_square(side_)) & pieces(~side_);
    st_->plies_from_null = 0;
    st_->captured = NO_PIECE;
    st_->key = compute_key();
    return {};
}

// Castling field: K Q k q, and in Chess960 also the rook's file (Shredder-FEN A-H,
// a-h). In Chess960, K/Q name the outermost rook on that side of the king (X-FEN).
std::string Position::parse_castling(const std::string& field, const bool (&variant)[COLOR_NB]) {
    for (char ch : field) {
        const Color c = (ch >= 'a' && ch <= 'z') ? BLACK : WHITE;
        const char up = c == BLACK ? char(ch - 'a' + 'A') : ch;
        const bool letter = up >= 'A' && up <= 'H';
        if (up != 'K' && up != 'Q' && !(letter && chess960_))
            return std::string("castling: unknown character '") + ch + "' (use K, Q, k, q or -" +
                   (chess960_ ? ", or a rook's file A-H, a-h" : "") + ")";
        if (variant[c])
            return std::string("castling: '") + ch + "' but " + color_name(c) +
                   " plays variant rules, which never castle";
        const Square ksq = king_square(c);
        const Rank home = relative_rank(c, RANK_1);
        const Bitboard rooks = pieces(c, ROOK) & rank_bb(home);
        Square rsq = SQ_NONE;
        int cr = 0;
        if (!chess960_) {
            cr = up == 'K' ? (c == WHITE ? WHITE_OO : BLACK_OO) : (c == WHITE ? WHITE_OOO : BLACK_OOO);
            Square home_king = c == WHITE ? SQ_E1 : SQ_E8;
            if (ksq != home_king)
                return std::string("castling: '") + ch + "' needs " + color_name(c) + "'s king on " +
                       square_name(home_king);
            rsq = make_square(up == 'K' ? FILE_H : FILE_A, home);
            if (!(rooks & square_bb(rsq)))
                return std::string("castling: '") + ch + "' needs a " + color_name(c) + " rook on " + square_name(rsq);
        } else {
            if (rank_of(ksq) != home)
                return std::string("castling: '") + ch + "' needs " + color_name(c) + "'s king on its home rank";
            const Bitboard kingside = rooks & ~((square_bb(ksq) << 1) - 1), queenside = rooks & (square_bb(ksq) - 1);
            if (up == 'K' || up == 'Q') {
                Bitboard side = up == 'K' ? kingside : queenside;
                if (!side)
                    return std::string("castling: '") + ch + "' needs a " + color_name(c) + " rook on the " +
                           (up == 'K' ? "h" : "a") + "-side of the king";
                rsq = up == 'K' ? Square(63 - std::countl_zero(side)) : lsb(side);
            } else {
                rsq = make_square(File(up - 'A'), home);
                if (!(rooks & square_bb(rsq)))
                    return std::string("castling: '") + ch + "' needs a " + color_name(c) + " rook on " +
                           square_name(rsq);
            }
            const bool oo = file_of(rsq) > file_of(ksq);
            cr = oo ? (c == WHITE ? WHITE_OO : BLACK_OO) : (c == WHITE ? WHITE_OOO : BLACK_OOO);
        }
        if (st_->castling & cr) return std::string("castling: '") + ch + "' given twice";
        add_castling_right(c, cr, rsq);
    }
    return {};
}

std::string Position::fen() const {
    std::string s;
    for (int r = RANK_8; r >= RANK_1; --r) {
        int empty_run = 0;
        for (int fl = FILE_A; fl <= FILE_H; ++fl) {
            Piece pc = piece_on(make_square(File(fl), Rank(r)));
            if (!pc) {
                ++empty_run;
                continue;
            }
            if (empty_run) s += char('0' + empty_run);
            empty_run = 0;
            s += piece_char(pc);
        }
        if (empty_run) s += char('0' + empty_run);
        if (r > RANK_1) s += '/';
    }
    s += side_ == WHITE ? " w " : " b ";
    if (!st_->castling) s += '-';
    for (int cr : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
        if (!can_castle(cr)) continue;
        const bool white = cr & (WHITE_OO | WHITE_OOO), oo = cr & (WHITE_OO | BLACK_OO);
        char letter = oo ? 'K' : 'Q';
        if (chess960_) {
            // X-FEN: K/Q for the outermost rook on that side, else the rook's file.
            const Square rsq = castling_rook_square(cr);
            Bitboard beyond = (oo ? ~((square_bb(rsq) << 1) - 1) : (square_bb(rsq) - 1)) & rank_bb(rank_of(rsq)) &
                              pieces(white ? WHITE : BLACK, ROOK);
            if (beyond) letter = char('A' + file_of(rsq));
        }
        s += white ? letter : char(letter - 'A' + 'a');
    }
    s += ' ' + (st_->ep_square == SQ_NONE ? std::string("-") : square_name(st_->ep_square));
    s += ' ' + std::to_string(std::min(st_->rule50, MaxFenCounter)) + ' ' +
         std::to_string(std::min(fullmove_number(), MaxFenCounter));

    // Six fields say "each side is variant exactly when it has a compound piece, with
    // the default pawn rights"; anything else needs fields 7 and 8. Field 8 lists a
    // variant side's rights always, a classic side's only when they differ from its
    // rank-2/7 pawns (with its king's square when it has none left, so the list is
    // still read as exact for that side).
    Bitboard list = 0;
    bool standard = true;
    for (Color c : {WHITE, BLACK}) {
        Bitboard rights = st_->double_step & pieces(c);
        if (rules_[c].variant) {
            standard = false;
            list |= rights;
        } else {
            if (pieces(c) & compounds()) standard = false;
            if (rights != (pieces(c, PAWN) & classic_home_rank(c))) {
                standard = false;
                list |= rights ? rights : square_bb(king_square(c));
            }
        }
    }
    if (standard) return s;
    s += ' ';
    if (rules_[WHITE].variant) s += 'V';
    if (rules_[BLACK].variant) s += 'v';
    if (!rules_[WHITE].variant && !rules_[BLACK].variant) s += '-';
    s += ' ';
    if (!list) s += '-';
    for (Bitboard b = list; b;) s += square_name(pop_lsb(b));
    return s;
}

}  // namespace maharajah
