#pragma once
// Basic vocabulary of the engine: colours, squares, piece types, pieces and moves.

#include <cstdint>

namespace maharajah {

enum Color : int { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Piece types. The three compound pieces come after the king so that the orthodox
// six keep their usual numbers.
enum PieceType : int {
    NO_PIECE_TYPE,
    PAWN,
    KNIGHT,
    BISHOP,
    ROOK,
    QUEEN,
    KING,
    MAHARAJA,    // queen + knight
    ARCHBISHOP,  // bishop + knight
    CHANCELLOR,  // rook + knight
    PIECE_TYPE_NB
};

// A piece is (colour << 4) | type, so the board can hold it in one byte.
enum Piece : std::uint8_t { NO_PIECE = 0, PIECE_NB = 32 };

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 4) | pt); }
constexpr PieceType type_of(Piece pc) { return PieceType(pc & 15); }
constexpr Color color_of(Piece pc) { return Color(pc >> 4); }

// clang-format off
enum Square : int {
    SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
    SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
    SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
    SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
    SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
    SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
    SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
    SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
    SQ_NONE, SQUARE_NB = 64
};
// clang-format on

enum File : int { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H, FILE_NB };
enum Rank : int { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_NB };

constexpr Square make_square(File f, Rank r) { return Square((r << 3) | f); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
constexpr bool is_ok(Square s) { return s >= SQ_A1 && s <= SQ_H8; }
// Rank seen from `c`'s side: RANK_1 is the home rank of either colour.
constexpr Rank relative_rank(Color c, Rank r) { return Rank(r ^ (c * 7)); }
constexpr Rank relative_rank(Color c, Square s) { return relative_rank(c, rank_of(s)); }

enum Direction : int { NORTH = 8, SOUTH = -8, EAST = 1, WEST = -1 };
constexpr int pawn_push(Color c) { return c == WHITE ? NORTH : SOUTH; }

// Castling rights, one bit each.
enum CastlingRights : int {
    NO_CASTLING = 0,
    WHITE_OO = 1,
    WHITE_OOO = 2,
    BLACK_OO = 4,
    BLACK_OOO = 8,
    ALL_CASTLING = 15,
    CASTLING_RIGHT_NB = 16
};

/*
 * Move: 16 bits.
 *   bits  0- 5  destination square
 *   bits  6-11  origin square
 *   bits 12-15  kind: 0 normal, 1 castling (encoded king from -> king to),
 *               2 en passant, 8..15 promotion to piece type (kind - 6):
 *               8 N, 9 B, 10 R, 11 Q, 13 M, 14 A, 15 C.
 * MOVE_NONE (a1a1) and MOVE_NULL (b1b1) have from == to, so no real move equals them.
 */
enum Move : std::uint16_t { MOVE_NONE = 0, MOVE_NULL = 65 };

enum MoveKind : int { NORMAL = 0, CASTLING = 1, EN_PASSANT = 2, PROMOTION = 8 };

constexpr Square to_sq(Move m) { return Square(m & 63); }
constexpr Square from_sq(Move m) { return Square((m >> 6) & 63); }
constexpr bool is_promotion(Move m) { return (m >> 12) & 8; }
constexpr bool is_castling(Move m) { return (m >> 12) == CASTLING; }
constexpr bool is_en_passant(Move m) { return (m >> 12) == EN_PASSANT; }
constexpr PieceType promotion_type(Move m) { return PieceType((m >> 12) - 6); }

constexpr Move make_move(Square from, Square to) { return Move((from << 6) | to); }
constexpr Move make_special(Square from, Square to, MoveKind k) { return Move((k << 12) | (from << 6) | to); }
constexpr Move make_promotion(Square from, Square to, PieceType pt) {
    return Move(((pt + 6) << 12) | (from << 6) | to);
}

// Chess never exceeds 218 legal moves; a board full of compound pieces can go far
// higher, so the bound is generous (positions are limited to 32 men a side).
constexpr int MAX_MOVES = 1024;
constexpr int MAX_PLY = 246;

// Scores in centipawns from the side to move's point of view; mates near +-VALUE_MATE.
using Value = int;
constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;

constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }

}  // namespace maharajah
