#pragma once
// The position: bitboards + mailbox, make/unmake with a stack of StateInfo records,
// incremental Zobrist key, checkers, and the per-side rules record.

#include <bit>
#include <string>

#include "board/zobrist.h"
#include "core/bitboard.h"
#include "core/pieces.h"
#include "core/rules.h"
#include "core/types.h"
#include "movegen/attacks.h"

namespace maharajah {

// What do_move changes and undo_move must restore. The caller owns the records
// (on its stack in search and perft, in a deque for a game), Stockfish-style.
// The largest halfmove clock and fullmove number a FEN may give: far beyond any real
// game, and small enough that move counts stay inside an int for any input.
inline constexpr int MaxFenCounter = 100000000;

struct StateInfo {
    // Copied from the previous state, then updated by do_move.
    Key key = 0;
    Bitboard double_step = 0;  // pawns that still have the double-step right
    int castling = NO_CASTLING;
    Square ep_square = SQ_NONE;  // set only when an enemy pawn could capture there
    int rule50 = 0;
    int plies_from_null = 0;
    // Recomputed by do_move.
    Bitboard checkers = 0;
    Piece captured = NO_PIECE;
    StateInfo* previous = nullptr;
};

class Position {
public:
    // Initialises the attack and key tables; cheap after the first call.
    static void init();

    // Sets the position from a FEN in the Maharajah dialect (docs/protocol.md, "FEN dialect"). Returns an
    // empty string on success, else an error naming the field and the problem; on
    // error *this and `si` are left unchanged. With chess960, the castling field may
    // name any rook on the king's rank (X-FEN KQkq: the outermost one; Shredder-FEN
    // file letters A-H/a-h) and the king may stand on any square of its home rank.
    std::string set(const std::string& fen, StateInfo& si, bool chess960 = false);
    // The FEN in the dialect: 6 fields for a standard position, else all 8. Reading it
    // back gives the same position, rules, rights and key (counters above
    // MaxFenCounter are written as MaxFenCounter).
    std::string fen() const;

    // Board access.
    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s] == NO_PIECE; }
    // Whether m (pseudo-legal here) takes a piece: en passant, or a move to an occupied
    // square other than castling (whose king may land on its own rook's square in
    // Chess960).
    bool is_capture(Move m) const { return is_en_passant(m) || (!is_castling(m) && !empty(to_sq(m))); }
    Bitboard pieces() const { return by_type_[NO_PIECE_TYPE]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
    // The compound pieces (maharajas, archbishops, chancellors) of both sides.
    Bitboard compounds() const { return by_type_[MAHARAJA] | by_type_[ARCHBISHOP] | by_type_[CHANCELLOR]; }
    // Every piece (both colours) that has movement part p.
    template <MovePart P>
    Bitboard pieces_with() const {
        Bitboard b = 0;
        for (int pt = KNIGHT; pt < PIECE_TYPE_NB; ++pt)
            if (has_part(PieceType(pt), P)) b |= by_type_[pt];
        return b;
    }
    Square king_square(Color c) const { return lsb(pieces(c, KING)); }
    int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }

    // State.
    Color side_to_move() const { return side_; }
    const SideRules& rules(Color c) const { return rules_[c]; }
    const Rules& rules() const { return rules_; }
    Square ep_square() const { return st_->ep_square; }
    int castling_rights() const { return st_->castling; }
    bool can_castle(int cr) const { return st_->castling & cr; }
    Bitboard double_step_pawns() const { return st_->double_step; }
    int rule50_count() const { return st_->rule50; }
    int game_ply() const { return game_ply_; }
    int fullmove_number() const { return 1 + (game_ply_ - (side_ == BLACK)) / 2; }
    Key key() const { return st_->key; }
    Bitboard checkers() const { return st_->checkers; }
    bool in_check() const { return st_->checkers != 0; }
    const StateInfo* state() const { return st_; }

    // Attacks.
    Bitboard attackers_to(Square s, Bitboard occupied) const;
    Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
    // Every square that a piece of colour c attacks (through the current occupancy).
    Bitboard attacks_by(Color c) const;
    // Pieces of colour c that shield c's king from an enemy slider (pinned pieces when
    // they are c's own, discovered-check candidates when they are the enemy's).
    Bitboard blockers_for_king(Color c) const;

    // Making moves. The move must be legal.
    // The key after m, for prefetching the hash entry before making m: exact for
    // ordinary moves, captures and promotions (including lost castling and double-step
    // rights), only close for castling and a double step that grants en passant.
    Key key_after(Move m) const;
    void do_move(Move m, StateInfo& new_st);
    void undo_move(Move m);
    void do_null_move(StateInfo& new_st);
    void undo_null_move();

    // Draw rules (the rules in README.md), shared by the referee and the search.
    // How often the current position has occurred in the game so far, counting itself
    // (same side to move, pieces, castling, en-passant and double-step rights).
    int repetition_count() const;
    // For the search: true when the current position repeats one `ply` or fewer plies
    // back (inside the search tree), or occurred twice before (a threefold).
    bool is_search_repetition(int ply) const;
    // Insufficient material: K v K, K + one minor v K, or only bishops all on one colour.
    bool insufficient_material() const;
    // False when c has only a king, a king and one minor piece, or a king and bishops
    // all on one square colour (the rules in README.md, for flag falls).
    bool has_mating_material(Color c) const;

    // The key computed from scratch (the incremental one must always equal it).
    Key compute_key() const;
    // Internal consistency check for tests; returns an empty string when consistent.
    std::string check_invariants() const;

    // Castling. The rook of right cr (one bit) stands on castling_rook_square(cr):
    // a1/h1/a8/h8 in standard chess, any square of the king's rank in Chess960. King
    // and rook end on the usual squares (g/f or c/d files) either way.
    bool chess960() const { return chess960_; }
    Square castling_rook_square(int cr) const { return castling_rook_[right_index(cr)]; }
    // Squares that must be empty (both paths, the king and the rook themselves aside),
    // and the squares the king crosses (its destination included), which must not be
    // attacked.
    Bitboard castling_path(int cr) const { return castling_path_[right_index(cr)]; }
    Bitboard castling_king_path(int cr) const { return castling_king_path_[right_index(cr)]; }
    // The right a castling move m (king from -> king to) uses.
    static int castling_right_of(Move m);
    static Square castling_rook_to(int cr);
    static Square castling_king_to(int cr);

private:
    static int right_index(int cr) { return std::countr_zero(unsigned(cr)); }
    std::string parse(const std::string& fen, bool chess960);
    std::string parse_castling(const std::string& field, const bool (&variant)[COLOR_NB]);
    void add_castling_right(Color c, int cr, Square rook);
    void put_piece(Piece pc, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);

    Piece board_[SQUARE_NB] = {};
    Bitboard by_type_[PIECE_TYPE_NB] = {};  // [NO_PIECE_TYPE] holds all pieces
    Bitboard by_color_[COLOR_NB] = {};
    Color side_ = WHITE;
    int game_ply_ = 0;
    Rules rules_{SideRules::classic(WHITE), SideRules::classic(BLACK)};
    StateInfo* st_ = nullptr;
    bool chess960_ = false;
    Square castling_rook_[4] = {SQ_H1, SQ_A1, SQ_H8, SQ_A8};  // by right index: K Q k q
    Bitboard castling_path_[4] = {}, castling_king_path_[4] = {};
    int castling_mask_[SQUARE_NB] = {};  // rights lost when a move starts or ends on a square
};

// UCI long algebraic notation of a move ("e2e4", "e7e8m", "0000" for none/null);
// castling as the king's move (e1g1).
std::string move_to_uci(Move m);
// The same in the position's mode: in Chess960 castling is written as the king taking
// its own rook (e1h1, b1a1), as UCI_Chess960 GUIs expect.
std::string move_to_uci(const Position& pos, Move m);
std::string square_name(Square s);

}  // namespace maharajah
