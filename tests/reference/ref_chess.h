// Reference move generator for Maharajah (chess + Maharaja/Archbishop/Chancellor).
//
// Why this exists: the engine's bitboard move generator is checked move-list by
// move-list against this one on many positions. So this file favours being
// obviously correct over being fast: a plain 64-square mailbox, pseudo-legal
// generation piece by piece, and legality by "play the move on a copy and see
// whether the own king is attacked". It shares no code with the engine on purpose.
//
// Rules: /work/shared/the rules in README.md (shared/the rules in README.md in the project).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace refchess {

// Square index = rank * 8 + file, with a1 = 0, h1 = 7, a8 = 56, h8 = 63.
struct Board {
    // Piece letters as in FEN (KQRBNPMAC, lower case = Black); '.' = empty.
    char sq[64];
    bool white_to_move = true;
    // variant[0]: White plays variant rules, variant[1]: Black does. Fixed for the game.
    bool variant[2] = {false, false};
    // Castling rights in FEN order: K, Q, k, q. Always false for a variant side.
    bool castle[4] = {false, false, false, false};
    // En-passant target square (the square passed over by the last double step), or -1.
    int ep = -1;
    // unmoved[s]: the pawn on s still has its own first move, so it may double-step
    // (a classic side's pawn additionally only from rank 2/7). Resolved explicitly
    // at parse time from FEN field 8 and its defaults, then only ever cleared.
    bool unmoved[64] = {};
    int halfmove = 0;
    int fullmove = 1;

    Board() {
        for (char& c : sq) c = '.';
    }
};

// Parses the Maharajah FEN dialect:
//   <board> <side> <castling> <ep> <halfmove> <fullmove> [<variant sides> [<unmoved pawns>]]
// Returns false and sets *err (if non-null) on malformed input.
bool parse_fen(const std::string& fen, Board& out, std::string* err);

// Every legal move in UCI notation (e2e4, e1g1 for castling, e7e8q / b2b1c for
// promotions, lower-case promotion letter), sorted ascending.
std::vector<std::string> legal_moves(const Board& b);

// Plays a legal move given in UCI notation. Precondition: it is legal in b.
void play(Board& b, const std::string& uci);

// Number of leaf nodes of the legal move tree of the given depth (draw rules ignored).
std::uint64_t perft(const Board& b, int depth);

// True if the side to move is in check.
bool in_check(const Board& b);

}  // namespace refchess
