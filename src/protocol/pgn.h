#pragma once
// Games as text: lines of moves in SAN, and PGN (export of a Game, import of the first
// game of a PGN text) for standard chess, Chess960 and Maharajah army games.

#include <string>
#include <utility>
#include <vector>

#include "protocol/game.h"

namespace maharajah {

// The moves `uci` played in order from `start` (which is not changed), written in SAN
// into *san. Returns an empty string, or the error naming the move (and *san is empty).
std::string line_to_san(const Position& start, const std::vector<std::string>& uci, std::vector<std::string>* san);
// The reverse: SAN moves to UCI moves in the position's mode (Chess960 castling as the
// king taking its rook). Same contract.
std::string line_from_san(const Position& start, const std::vector<std::string>& san, std::vector<std::string>* uci);

// A `movelist` line: "<uci> <san>" and the facts that apply (capture, enpassant,
// castle <rook-from><rook-to>, promotion, check, mate), in that order.
std::string movelist_line(const Position& pos, Move m);

// The Variant tag of a game's rules: "maharajah39", "maharajah39-cv", "maharajah39-vc"
// (the names of scripts/variants/variants.ini), "Chess960" (any Chess960 game, compound
// pieces or not: the FEN tag then carries the sides' rules), or "" for standard chess.
std::string pgn_variant(const Game& game);

// How a game ended, for its Result and Termination tags.
struct PgnOutcome {
    std::string result = "*";  // "1-0", "0-1", "1/2-1/2", "*"
    std::string termination = "unterminated";
};
// From the referee's status (Game::status); "ongoing claim ..." stays unterminated.
PgnOutcome outcome_of(const Game& game);
// From a flag fall (Game::flag's answer for the side that ran out of time).
PgnOutcome outcome_of_flag(const std::string& flag_result);

// The game as PGN: the Seven Tag Roster (unknown values "?"), then `extra` tags (name,
// value), Variant when not standard chess, SetUp and FEN when the start is not the
// standard one, Termination; then the moves in SAN, wrapped before 80 columns, and the
// result. Ends with a newline.
std::string write_pgn(const Game& game, const PgnOutcome& outcome,
                      const std::vector<std::pair<std::string, std::string>>& extra = {});

// The first game of a PGN text: its tags, and the game (start and moves). Comments
// ({...} and ;...), NAGs ($1, !?), variations (nested parentheses), move numbers and
// "%" escape lines are skipped. Returns an empty string on success; else the error
// (naming the move number and token for a bad move) and *game is unchanged.
struct PgnGame {
    std::vector<std::pair<std::string, std::string>> tags;
    std::string result = "*";  // the result token ending the movetext, "*" when none
};
std::string read_pgn(const std::string& text, Game* game, PgnGame* info = nullptr);

// The position text of a game, as the `position` command and the C library's direct
// calls read it: "[chess960 ]fen <start FEN> [moves <uci>...]".
std::string position_text(const Game& game);

}  // namespace maharajah
