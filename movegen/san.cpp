#include "movegen/san.h"

#include "movegen/movegen.h"

namespace maharajah {

namespace {

// "+", "#" or "" for the position after m.
const char* check_suffix(const Position& pos, Move m) {
    Position after = pos;  // shares the history; do_move only links a new record to it
    StateInfo st;
    after.do_move(m, st);
    if (!after.in_check()) return "";
    return MoveList<LEGAL>(after).size() ? "+" : "#";
}

// The SAN without its check suffix; `legal` is pos's legal move list.
std::string san_body(const Position& pos, Move m, const MoveList<LEGAL>& legal) {
    if (is_castling(m)) return file_of(to_sq(m)) == FILE_G ? "O-O" : "O-O-O";
    const Square from = from_sq(m), to = to_sq(m);
    const PieceType pt = type_of(pos.piece_on(from));
    std::string s;
    if (pt == PAWN) {
        if (pos.is_capture(m)) s += char('a' + file_of(from)), s += 'x';
        s += square_name(to);
        if (is_promotion(m)) s += '=', s += PieceTable[promotion_type(m)].letter;
        return s;
    }
    s += PieceTable[pt].letter;
    // Other pieces of the same letter that can go to the same square.
    bool clash = false, same_file = false, same_rank = false;
    for (Move x : legal) {
        const Square f = from_sq(x);
        if (f == from || to_sq(x) != to || is_castling(x) || type_of(pos.piece_on(f)) != pt) continue;
        clash = true;
        same_file |= file_of(f) == file_of(from);
        same_rank |= rank_of(f) == rank_of(from);
    }
    if (clash) {
        if (!same_file)
            s += char('a' + file_of(from));
        else if (!same_rank)
            s += char('1' + rank_of(from));
        else
            s += square_name(from);
    }
    if (pos.is_capture(m)) s += 'x';
    return s + square_name(to);
}

bool is_file_char(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank_char(char c) { return c >= '1' && c <= '8'; }

// One reading of a SAN token: which piece, what the disambiguation says, where to.
struct Reading {
    PieceType pt = PAWN;
    int from_file = -1, from_rank = -1;
    bool capture = false;
    Square to = SQ_NONE;
    PieceType promotion = NO_PIECE_TYPE;
};

bool matches(const Position& pos, Move m, const Reading& r) {
    if (is_castling(m) || to_sq(m) != r.to) return false;
    const Square from = from_sq(m);
    if (type_of(pos.piece_on(from)) != r.pt) return false;
    if (r.from_file >= 0 && file_of(from) != r.from_file) return false;
    if (r.from_rank >= 0 && rank_of(from) != r.from_rank) return false;
    if (r.capture && !pos.is_capture(m)) return false;
    if (is_promotion(m) != (r.promotion != NO_PIECE_TYPE)) return false;
    return !is_promotion(m) || promotion_type(m) == r.promotion;
}

// Reads the disambiguation part ("", "e", "2", "e2") into r; false if it is none.
bool read_origin(std::string_view s, Reading& r) {
    if (s.size() > 2) return false;
    std::size_t i = 0;
    if (i < s.size() && is_file_char(s[i])) r.from_file = s[i++] - 'a';
    if (i < s.size() && is_rank_char(s[i])) r.from_rank = s[i++] - '1';
    return i == s.size();
}

}  // namespace

std::string move_to_san(const Position& pos, Move m) {
    MoveList<LEGAL> legal(pos);
    return san_body(pos, m, legal) + check_suffix(pos, m);
}

Move parse_san(const Position& pos, std::string_view san, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error) *error = why;
        return MOVE_NONE;
    };
    std::string_view s = san;
    // Suffixes: check, mate, annotations; an "e.p." some tools append.
    if (s.size() > 4 && s.substr(s.size() - 4) == "e.p.") s.remove_suffix(4);
    while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?')) s.remove_suffix(1);
    if (s.empty() || s.size() > 12) return fail("not a move");
    MoveList<LEGAL> legal(pos);

    // Castling, with letter O or digit zero.
    std::string norm;
    for (char c : s) norm += c == '0' || c == 'o' ? 'O' : c;
    if (norm == "O-O" || norm == "O-O-O") {
        const File king_to = norm == "O-O" ? FILE_G : FILE_C;
        for (Move m : legal)
            if (is_castling(m) && file_of(to_sq(m)) == king_to) return m;
        return fail("no legal move");
    }

    // Promotion at the end: "=Q", "=q", or a letter right after the rank ("e8Q", "e8q").
    Reading base;
    if (s.size() >= 3 && !is_rank_char(s.back())) {
        const PieceType promo = piece_type_from_char(s.back());
        const char before = s[s.size() - 2];
        if (promo == NO_PIECE_TYPE || promo == PAWN || promo == KING || (before != '=' && !is_rank_char(before)))
            return fail("not a move");
        base.promotion = promo;
        s.remove_suffix(before == '=' ? 2 : 1);
    }
    // The destination square.
    if (s.size() < 2 || !is_file_char(s[s.size() - 2]) || !is_rank_char(s.back())) return fail("not a move");
    base.to = make_square(File(s[s.size() - 2] - 'a'), Rank(s.back() - '1'));
    s.remove_suffix(2);
    if (!s.empty() && (s.back() == 'x' || s.back() == ':' || s.back() == '-')) {
        base.capture = s.back() != '-';
        s.remove_suffix(1);
    }

    // The prefix is [piece letter] [origin]. Standard readings first: an upper-case
    // letter is a piece, no letter or a file letter a pawn. Only when they find no move
    // is a lower-case letter read as a piece ("nf3", "bb5", but "bxc3" stays a pawn's).
    Reading standard = base, lowered = base;
    bool has_standard = false, has_lowered = false;
    if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') {
        standard.pt = piece_type_from_char(s[0]);
        has_standard = standard.pt != NO_PIECE_TYPE && read_origin(s.substr(1), standard);
    } else {
        has_standard = read_origin(s, standard);  // a pawn
        lowered.pt = s.empty() ? NO_PIECE_TYPE : piece_type_from_char(s[0]);
        has_lowered = lowered.pt != NO_PIECE_TYPE && read_origin(s.substr(1), lowered);
    }
    if (!has_standard && !has_lowered) return fail("not a move");

    Move found = MOVE_NONE;
    int count = 0;
    std::string candidates;
    for (const Reading* r : {has_standard ? &standard : nullptr, has_lowered ? &lowered : nullptr}) {
        if (!r || count) continue;
        for (Move m : legal) {
            if (!matches(pos, m, *r)) continue;
            found = m, ++count;
            candidates += (candidates.empty() ? "" : " ") + san_body(pos, m, legal);
        }
    }
    if (count == 0) return fail("no legal move");
    if (count > 1) return fail("ambiguous: " + candidates);
    return found;
}

MoveFacts move_facts(const Position& pos, Move m) {
    MoveFacts f;
    f.capture = pos.is_capture(m);
    f.en_passant = is_en_passant(m);
    f.promotion = is_promotion(m);
    if (is_castling(m)) {
        const int cr = Position::castling_right_of(m);
        f.castling = true;
        f.rook_from = pos.castling_rook_square(cr);
        f.rook_to = Position::castling_rook_to(cr);
    }
    const std::string suffix = check_suffix(pos, m);
    f.check = !suffix.empty();
    f.mate = suffix == "#";
    return f;
}

}  // namespace maharajah
