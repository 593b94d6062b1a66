#include "board/army.h"

#include <algorithm>
#include <vector>

#include "core/pieces.h"

namespace maharajah {

namespace {

// The board rank of the i-th rank from c's home (0-based index -> 1..8).
int board_rank(Color c, int i) { return c == WHITE ? i + 1 : 8 - i; }
std::string square_text(Color c, int i, int file) {
    return std::string(1, char('a' + file)) + char('0' + board_rank(c, i));
}

}  // namespace

ArmyCheck check_army(Color c, const std::string& text) {
    ArmyCheck r;
    auto fail = [&r](std::string message) {
        r.error = std::move(message);
        return r;
    };
    // Syntax: ranks of 8 files each, known letters.
    std::vector<std::array<PieceType, 8>> ranks(1);
    int file = 0;
    for (char ch : text) {
        int i = int(ranks.size()) - 1;
        if (ch == '/') {
            if (file != 8)
                return fail("rank " + std::to_string(board_rank(c, i)) + " has " + std::to_string(file) +
                            " files, expected 8");
            ranks.emplace_back();
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            for (int k = 0; k < ch - '0' && file < 9; ++k, ++file)
                if (file < 8) ranks[i][file] = NO_PIECE_TYPE;
        } else {
            PieceType pt = piece_type_from_char(ch);
            if (pt == NO_PIECE_TYPE) return fail(std::string("unknown letter '") + ch + "'");
            if (file < 8) ranks[i][file] = pt;
            ++file;
        }
        if (file > 8) return fail("rank " + std::to_string(board_rank(c, i)) + " has more than 8 files");
    }
    if (file != 8)
        return fail("rank " + std::to_string(board_rank(c, int(ranks.size()) - 1)) + " has " + std::to_string(file) +
                    " files, expected 8");

    int kings = 0;
    std::string king_at;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        for (int f = 0; f < 8; ++f) {
            PieceType pt = ranks[i][f];
            if (pt == KING) {
                ++kings;
                if (king_at.empty()) king_at = square_text(c, int(i), f);
            } else if (pt != NO_PIECE_TYPE) {
                ++r.pieces;
                r.points += PieceTable[pt].army_cost;
                r.variant |= is_compound(pt);
            }
        }
    if (r.pieces > MaxArmyPieces)
        return fail("too many pieces: " + std::to_string(r.pieces) + ", at most " + std::to_string(MaxArmyPieces));
    if (ranks.size() > 4) return fail(std::to_string(ranks.size()) + " ranks, at most 4");
    const std::string home_king = c == WHITE ? "e1" : "e8";
    if (kings == 0) return fail("king missing (it must stand on " + home_king + ")");
    if (kings > 1) return fail(std::to_string(kings) + " kings, exactly one allowed");
    if (king_at != home_king) return fail("king on " + king_at + ", it must stand on " + home_king);

    // Placement: nothing on a farther rank while a nearer rank has an empty square.
    for (std::size_t i = 1; i < ranks.size(); ++i)
        for (int f = 0; f < 8; ++f)
            if (ranks[i][f] != NO_PIECE_TYPE)
                for (std::size_t j = 0; j < i; ++j)
                    for (int g = 0; g < 8; ++g)
                        if (ranks[j][g] == NO_PIECE_TYPE)
                            return fail("piece on " + square_text(c, int(i), f) + " while " +
                                        square_text(c, int(j), g) + " is empty (nearer ranks must be full first)");

    if (r.points != ArmyPoints)
        return fail("points " + std::to_string(r.points) + ", must be exactly " + std::to_string(ArmyPoints));

    r.army.ranks = int(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) r.army.pieces[i] = ranks[i];
    return r;
}

std::string army_to_string(Color c, const Army& army) {
    std::string s;
    for (int i = 0; i < army.ranks; ++i) {
        if (i) s += '/';
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            PieceType pt = army.pieces[i][f];
            if (pt == NO_PIECE_TYPE) {
                ++empty;
                continue;
            }
            if (empty) s += char('0' + empty);
            empty = 0;
            s += piece_char(make_piece(c, pt));
        }
        if (empty) s += char('0' + empty);
    }
    return s;
}

std::string army_start_fen(const Army& white, const Army& black) {
    PieceType grid[8][8] = {};  // [board rank][file]
    Color owner[8][8] = {};
    bool variant[COLOR_NB] = {false, false};
    for (Color c : {WHITE, BLACK}) {
        const Army& a = c == WHITE ? white : black;
        for (int i = 0; i < a.ranks; ++i)
            for (int f = 0; f < 8; ++f)
                if (a.pieces[i][f] != NO_PIECE_TYPE) {
                    int r = board_rank(c, i) - 1;
                    grid[r][f] = a.pieces[i][f];
                    owner[r][f] = c;
                    variant[c] |= is_compound(a.pieces[i][f]);
                }
    }
    std::string fen, castling, unmoved;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            if (grid[r][f] == NO_PIECE_TYPE) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += piece_char(make_piece(owner[r][f], grid[r][f]));
        }
        if (empty) fen += char('0' + empty);
        if (r) fen += '/';
    }
    // Castling for a classic side with a rook on a corner (its king is on e1/e8).
    auto rook_at = [&](int r, int f, Color c) { return grid[r][f] == ROOK && owner[r][f] == c; };
    if (!variant[WHITE] && rook_at(0, 7, WHITE)) castling += 'K';
    if (!variant[WHITE] && rook_at(0, 0, WHITE)) castling += 'Q';
    if (!variant[BLACK] && rook_at(7, 7, BLACK)) castling += 'k';
    if (!variant[BLACK] && rook_at(7, 0, BLACK)) castling += 'q';
    // Every pawn of a variant side is unmoved; classic sides take the default.
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f)
            if (grid[r][f] == PAWN && variant[owner[r][f]]) unmoved += std::string{char('a' + f), char('1' + r)};
    std::string sides = std::string(variant[WHITE] ? "V" : "") + (variant[BLACK] ? "v" : "");
    return fen + " w " + (castling.empty() ? "-" : castling) + " - 0 1 " + (sides.empty() ? "-" : sides) + ' ' +
           (unmoved.empty() ? "-" : unmoved);
}

}  // namespace maharajah
