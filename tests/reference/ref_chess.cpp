// Reference move generator for Maharajah. See ref_chess.h for the why.
//
// Everything here works on one square at a time with file/rank coordinates;
// there are no bitboards and no incremental state, so each rule can be read off
// the code directly and compared with shared/the rules in README.md.
#include "ref_chess.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace refchess {
namespace {

// ---------------------------------------------------------------- helpers

int file_of(int s) { return s % 8; }
int rank_of(int s) { return s / 8; }  // 0 = rank 1, 7 = rank 8
bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }
int square(int f, int r) { return r * 8 + f; }

bool is_white(char p) { return p >= 'A' && p <= 'Z'; }
bool is_black(char p) { return p >= 'a' && p <= 'z'; }
bool is_empty(char p) { return p == '.'; }
// Piece kind in lower case ('p','n','b','r','q','k','m','a','c'), '.' for empty.
char kind(char p) { return is_empty(p) ? '.' : static_cast<char>(std::tolower(static_cast<unsigned char>(p))); }
bool belongs_to(char p, bool white) { return white ? is_white(p) : is_black(p); }

// Which movement components each piece has. Compound pieces are simply unions:
// Maharaja = queen + knight, Archbishop = bishop + knight, Chancellor = rook + knight.
bool jumps_like_knight(char k) { return k == 'n' || k == 'm' || k == 'a' || k == 'c'; }
bool slides_diagonally(char k) { return k == 'b' || k == 'q' || k == 'm' || k == 'a'; }
bool slides_orthogonally(char k) { return k == 'r' || k == 'q' || k == 'm' || k == 'c'; }

const int kKnight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
const int kKing[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
const int kDiag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
const int kOrth[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

std::string square_name(int s) {
    std::string n;
    n += static_cast<char>('a' + file_of(s));
    n += static_cast<char>('1' + rank_of(s));
    return n;
}

// Parses "e4" etc.; returns -1 if it is not a square name.
int parse_square(const std::string& t, size_t pos = 0) {
    if (pos + 2 > t.size()) return -1;
    char f = t[pos], r = t[pos + 1];
    if (f < 'a' || f > 'h' || r < '1' || r > '8') return -1;
    return square(f - 'a', r - '1');
}

// A move as the generator produces it. Special moves (castling, en passant,
// double step) are recognised in apply() from the board itself, so a move is
// fully described by from, to and the promotion piece.
struct Move {
    int from;
    int to;
    char promo;  // lower-case promotion piece, or 0
};

std::string to_uci(const Move& m) {
    std::string s = square_name(m.from) + square_name(m.to);
    if (m.promo) s += m.promo;
    return s;
}

// ---------------------------------------------------------------- attacks

// Is square s attacked by a piece of the given colour? Looks outward from s
// for every way a piece could reach it (the "superpiece" method).
bool attacked(const Board& b, int s, bool by_white) {
    const int f = file_of(s), r = rank_of(s);
    // Pawns capture one step diagonally forward: a White pawn attacking s stands
    // one rank below it, a Black pawn one rank above.
    const int pr = by_white ? r - 1 : r + 1;
    for (int df : {-1, 1}) {
        if (on_board(f + df, pr)) {
            char p = b.sq[square(f + df, pr)];
            if (kind(p) == 'p' && belongs_to(p, by_white)) return true;
        }
    }
    for (const auto& d : kKnight) {
        if (!on_board(f + d[0], r + d[1])) continue;
        char p = b.sq[square(f + d[0], r + d[1])];
        if (belongs_to(p, by_white) && jumps_like_knight(kind(p))) return true;
    }
    for (const auto& d : kKing) {
        if (!on_board(f + d[0], r + d[1])) continue;
        char p = b.sq[square(f + d[0], r + d[1])];
        if (belongs_to(p, by_white) && kind(p) == 'k') return true;
    }
    // Sliders: walk each ray to the first occupied square.
    for (int pass = 0; pass < 2; ++pass) {
        const auto& dirs = pass == 0 ? kDiag : kOrth;
        for (const auto& d : dirs) {
            int x = f + d[0], y = r + d[1];
            while (on_board(x, y)) {
                char p = b.sq[square(x, y)];
                if (!is_empty(p)) {
                    if (belongs_to(p, by_white)) {
                        char k = kind(p);
                        if (pass == 0 ? slides_diagonally(k) : slides_orthogonally(k)) return true;
                    }
                    break;
                }
                x += d[0];
                y += d[1];
            }
        }
    }
    return false;
}

int find_king(const Board& b, bool white) {
    const char k = white ? 'K' : 'k';
    for (int s = 0; s < 64; ++s)
        if (b.sq[s] == k) return s;
    return -1;
}

bool king_attacked(const Board& b, bool white) {
    int k = find_king(b, white);
    return k >= 0 && attacked(b, k, !white);
}

// ---------------------------------------------------------------- generation

// Pseudo-legal moves: every move obeying the piece movement rules, ignoring
// whether the mover's own king is left in check (castling excepted: its
// "not out of / through check" conditions are checked here).
std::vector<Move> pseudo_moves(const Board& b) {
    std::vector<Move> out;
    const bool white = b.white_to_move;
    const int side = white ? 0 : 1;

    for (int from = 0; from < 64; ++from) {
        const char p = b.sq[from];
        if (!belongs_to(p, white)) continue;
        const char k = kind(p);
        const int f = file_of(from), r = rank_of(from);

        if (k == 'p') {
            const int dir = white ? 1 : -1;
            const int last_rank = white ? 7 : 0;
            // A pawn reaching the last rank must promote; the choices follow the
            // promoting side (classic: q r b n, variant: also m a c).
            auto add_pawn_move = [&](int to) {
                if (rank_of(to) == last_rank) {
                    const char* choices = b.variant[side] ? "qrbnmac" : "qrbn";
                    for (const char* c = choices; *c; ++c) out.push_back({from, to, *c});
                } else {
                    out.push_back({from, to, 0});
                }
            };
            // Single step.
            if (on_board(f, r + dir) && is_empty(b.sq[square(f, r + dir)])) {
                add_pawn_move(square(f, r + dir));
                // Double step: only on the pawn's own first move, both squares empty.
                // Classic side: additionally only from rank 2 (White) / 7 (Black).
                // Variant side: from wherever the pawn started (tracked by unmoved[]).
                const bool classic_rank_ok = white ? r == 1 : r == 6;
                if (b.unmoved[from] && (b.variant[side] || classic_rank_ok) && on_board(f, r + 2 * dir) &&
                    rank_of(square(f, r + 2 * dir)) != last_rank && is_empty(b.sq[square(f, r + 2 * dir)])) {
                    out.push_back({from, square(f, r + 2 * dir), 0});
                }
            }
            // Captures, including en passant.
            for (int df : {-1, 1}) {
                if (!on_board(f + df, r + dir)) continue;
                const int to = square(f + df, r + dir);
                const char target = b.sq[to];
                if (belongs_to(target, !white)) {
                    add_pawn_move(to);
                } else if (is_empty(target) && to == b.ep) {
                    // The double-stepped pawn stands beside the capturer: same rank as
                    // the capturer, file of the target square.
                    const char victim = b.sq[square(f + df, r)];
                    if (kind(victim) == 'p' && belongs_to(victim, !white)) out.push_back({from, to, 0});
                }
            }
            continue;
        }

        if (jumps_like_knight(k)) {
            for (const auto& d : kKnight) {
                if (!on_board(f + d[0], r + d[1])) continue;
                const int to = square(f + d[0], r + d[1]);
                if (!belongs_to(b.sq[to], white)) out.push_back({from, to, 0});
            }
        }
        if (k == 'k') {
            for (const auto& d : kKing) {
                if (!on_board(f + d[0], r + d[1])) continue;
                const int to = square(f + d[0], r + d[1]);
                if (!belongs_to(b.sq[to], white)) out.push_back({from, to, 0});
            }
        }
        for (int pass = 0; pass < 2; ++pass) {
            if (pass == 0 ? !slides_diagonally(k) : !slides_orthogonally(k)) continue;
            const auto& dirs = pass == 0 ? kDiag : kOrth;
            for (const auto& d : dirs) {
                int x = f + d[0], y = r + d[1];
                while (on_board(x, y)) {
                    const int to = square(x, y);
                    if (belongs_to(b.sq[to], white)) break;
                    out.push_back({from, to, 0});
                    if (!is_empty(b.sq[to])) break;  // capture ends the ray
                    x += d[0];
                    y += d[1];
                }
            }
        }
    }

    // Castling: classic sides only, king on e1/e8, rook on its corner, right still
    // held, squares between empty, king not in check and not passing through an
    // attacked square (the destination is covered by the general legality test).
    if (!b.variant[side]) {
        const int rank = white ? 0 : 7;
        const int e = square(4, rank);
        const char king = white ? 'K' : 'k', rook = white ? 'R' : 'r';
        const bool short_right = b.castle[white ? 0 : 2], long_right = b.castle[white ? 1 : 3];
        if (b.sq[e] == king && (short_right || long_right) && !attacked(b, e, !white)) {
            if (short_right && b.sq[square(7, rank)] == rook && is_empty(b.sq[square(5, rank)]) &&
                is_empty(b.sq[square(6, rank)]) && !attacked(b, square(5, rank), !white)) {
                out.push_back({e, square(6, rank), 0});
            }
            if (long_right && b.sq[square(0, rank)] == rook && is_empty(b.sq[square(1, rank)]) &&
                is_empty(b.sq[square(2, rank)]) && is_empty(b.sq[square(3, rank)]) &&
                !attacked(b, square(3, rank), !white)) {
                out.push_back({e, square(2, rank), 0});
            }
        }
    }
    return out;
}

// Plays a (pseudo-legal) move. All side effects are derived from the board.
void apply(Board& b, const Move& m) {
    const bool white = b.white_to_move;
    const char piece = b.sq[m.from];
    const char k = kind(piece);
    bool capture = !is_empty(b.sq[m.to]);

    // En passant: a pawn moving diagonally onto an empty square. The captured pawn
    // stands on the capturer's rank, on the target's file.
    if (k == 'p' && file_of(m.from) != file_of(m.to) && is_empty(b.sq[m.to])) {
        const int victim = square(file_of(m.to), rank_of(m.from));
        b.sq[victim] = '.';
        b.unmoved[victim] = false;
        capture = true;
    }
    // Castling: the king moves two files; bring the rook to the other side.
    if (k == 'k' && std::abs(file_of(m.to) - file_of(m.from)) == 2) {
        const int rank = rank_of(m.from);
        const bool short_side = file_of(m.to) == 6;
        const int rook_from = square(short_side ? 7 : 0, rank);
        const int rook_to = square(short_side ? 5 : 3, rank);
        b.sq[rook_to] = b.sq[rook_from];
        b.sq[rook_from] = '.';
    }

    b.sq[m.to] = piece;
    b.sq[m.from] = '.';
    if (m.promo) b.sq[m.to] = white ? static_cast<char>(std::toupper(m.promo)) : m.promo;

    // A pawn that moves or is captured has used up / lost its first move.
    b.unmoved[m.from] = false;
    b.unmoved[m.to] = false;

    // The en-passant square is set after every double step (whether or not a
    // capture is possible) and cleared after any other move.
    if (k == 'p' && std::abs(rank_of(m.to) - rank_of(m.from)) == 2)
        b.ep = square(file_of(m.from), (rank_of(m.from) + rank_of(m.to)) / 2);
    else
        b.ep = -1;

    // Castling rights: lost when the king moves, or when anything moves from or to
    // a rook's corner (the rook moved or was captured there).
    if (piece == 'K') b.castle[0] = b.castle[1] = false;
    if (piece == 'k') b.castle[2] = b.castle[3] = false;
    for (int s : {m.from, m.to}) {
        if (s == 7) b.castle[0] = false;   // h1
        if (s == 0) b.castle[1] = false;   // a1
        if (s == 63) b.castle[2] = false;  // h8
        if (s == 56) b.castle[3] = false;  // a8
    }

    b.halfmove = (k == 'p' || capture) ? 0 : b.halfmove + 1;
    if (!white) ++b.fullmove;
    b.white_to_move = !white;
}

std::vector<Move> legal(const Board& b) {
    std::vector<Move> out;
    for (const Move& m : pseudo_moves(b)) {
        Board c = b;
        apply(c, m);
        if (!king_attacked(c, b.white_to_move)) out.push_back(m);
    }
    return out;
}

bool fail(std::string* err, const std::string& msg) {
    if (err) *err = msg;
    return false;
}

bool parse_int(const std::string& t, int& v) {
    if (t.empty() || t.size() > 9) return false;
    for (char c : t)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = std::stoi(t);
    return true;
}

}  // namespace

// ---------------------------------------------------------------- public API

bool parse_fen(const std::string& fen, Board& out, std::string* err) {
    std::istringstream in(fen);
    std::vector<std::string> f;
    for (std::string t; in >> t;) f.push_back(t);
    if (f.size() < 4 || f.size() > 8) return fail(err, "expected 4 to 8 fields");

    Board b;
    // Field 1: board, rank 8 first.
    {
        int r = 7, fi = 0;
        for (char c : f[0]) {
            if (c == '/') {
                if (fi != 8 || r == 0) return fail(err, "bad rank in board field");
                --r;
                fi = 0;
            } else if (c >= '1' && c <= '8') {
                fi += c - '0';
                if (fi > 8) return fail(err, "rank too long");
            } else if (std::string("KQRBNPMACkqrbnpmac").find(c) != std::string::npos) {
                if (fi >= 8) return fail(err, "rank too long");
                b.sq[square(fi, r)] = c;
                ++fi;
            } else {
                return fail(err, std::string("bad board character '") + c + "'");
            }
        }
        if (r != 0 || fi != 8) return fail(err, "board must have 8 ranks of 8 squares");
    }
    int kings_w = 0, kings_b = 0;
    for (int s = 0; s < 64; ++s) {
        if (b.sq[s] == 'K') ++kings_w;
        if (b.sq[s] == 'k') ++kings_b;
        // A pawn on its own last rank would have had to promote.
        if (b.sq[s] == 'P' && rank_of(s) == 7) return fail(err, "White pawn on rank 8");
        if (b.sq[s] == 'p' && rank_of(s) == 0) return fail(err, "Black pawn on rank 1");
    }
    if (kings_w != 1 || kings_b != 1) return fail(err, "need exactly one king per side");

    // Field 2: side to move.
    if (f[1] == "w")
        b.white_to_move = true;
    else if (f[1] == "b")
        b.white_to_move = false;
    else
        return fail(err, "side to move must be w or b");

    // Field 3: castling rights.
    if (f[2] != "-") {
        for (char c : f[2]) {
            size_t i = std::string("KQkq").find(c);
            if (i == std::string::npos) return fail(err, "bad castling field");
            b.castle[i] = true;
        }
    }

    // Field 4: en-passant square. Variant double steps put it on ranks 2..7, so
    // any square is accepted; generation checks that a pawn can really be taken.
    if (f[3] != "-") {
        if (f[3].size() != 2 || parse_square(f[3]) < 0) return fail(err, "bad en-passant square");
        b.ep = parse_square(f[3]);
    }

    // Fields 5 and 6: counters (optional here for convenience).
    if (f.size() >= 5 && !parse_int(f[4], b.halfmove)) return fail(err, "bad halfmove clock");
    if (f.size() >= 6 && !parse_int(f[5], b.fullmove)) return fail(err, "bad fullmove number");

    // Field 7: which sides play variant rules. Absent: a side is variant iff it has
    // a compound piece on the board.
    if (f.size() >= 7) {
        for (char c : f[6]) {
            if (c == 'V')
                b.variant[0] = true;
            else if (c == 'v')
                b.variant[1] = true;
            else if (c != '-')
                return fail(err, "bad variant-sides field");
        }
    } else {
        for (int s = 0; s < 64; ++s) {
            char k = kind(b.sq[s]);
            if (k == 'm' || k == 'a' || k == 'c') b.variant[is_white(b.sq[s]) ? 0 : 1] = true;
        }
    }

    // Field 8: unmoved pawns. Resolve it once into an explicit per-square set.
    bool listed[64] = {};
    const bool have_list = f.size() >= 8;
    if (have_list && f[7] != "-") {
        const std::string& t = f[7];
        if (t.size() % 2 != 0) return fail(err, "bad unmoved-pawns field");
        for (size_t i = 0; i < t.size(); i += 2) {
            int s = parse_square(t, i);
            if (s < 0) return fail(err, "bad square in unmoved-pawns field");
            listed[s] = true;
        }
    }
    for (int side = 0; side < 2; ++side) {
        const bool white = side == 0;
        const char pawn = white ? 'P' : 'p', king = white ? 'K' : 'k';
        bool any_listed = false;  // the side's king listed also makes its list exact
        for (int s = 0; s < 64; ++s)
            if ((b.sq[s] == pawn || b.sq[s] == king) && listed[s]) any_listed = true;
        for (int s = 0; s < 64; ++s) {
            if (b.sq[s] != pawn) continue;
            const int r = rank_of(s);
            const bool own_half = white ? r <= 3 : r >= 4;
            const bool start_rank = white ? r == 1 : r == 6;
            if (b.variant[side]) {
                // Variant: exactly the listed pawns; without field 8, every pawn on the own half.
                b.unmoved[s] = have_list ? listed[s] : own_half;
            } else {
                // Classic: the list is exact for this side if it names any of its pawns
                // or its king, otherwise the pawns on rank 2/7 are the unmoved ones.
                b.unmoved[s] = any_listed ? listed[s] : start_rank;
            }
        }
    }

    // A variant side never castles, whatever the castling field says.
    if (b.variant[0]) b.castle[0] = b.castle[1] = false;
    if (b.variant[1]) b.castle[2] = b.castle[3] = false;

    out = b;
    return true;
}

std::vector<std::string> legal_moves(const Board& b) {
    std::vector<std::string> out;
    for (const Move& m : legal(b)) out.push_back(to_uci(m));
    std::sort(out.begin(), out.end());
    return out;
}

void play(Board& b, const std::string& uci) {
    Move m{parse_square(uci, 0), parse_square(uci, 2), 0};
    if (uci.size() >= 5) m.promo = static_cast<char>(std::tolower(static_cast<unsigned char>(uci[4])));
    apply(b, m);
}

std::uint64_t perft(const Board& b, int depth) {
    if (depth <= 0) return 1;
    std::uint64_t n = 0;
    for (const Move& m : pseudo_moves(b)) {
        Board c = b;
        apply(c, m);
        if (king_attacked(c, b.white_to_move)) continue;  // illegal: own king left attacked
        n += depth == 1 ? 1 : perft(c, depth - 1);
    }
    return n;
}

bool in_check(const Board& b) { return king_attacked(b, b.white_to_move); }

}  // namespace refchess
