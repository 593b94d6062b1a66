#pragma once
// A game: the start position plus the moves played from it, with the StateInfo
// records the position links to (a deque, so their addresses never move).

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "board/position.h"

namespace maharajah {

inline constexpr const char* StartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// A piece of user input as quoted in an error message: long input is cut (an error
// line never echoes a huge token back whole).
std::string clip(const std::string& text, std::size_t max = 60);

// The referee's verdict on a position (docs/protocol.md, "Referee and army commands").
// The game is over from CHECKMATE on; the two claims are ongoing games in which the side
// to move may claim a draw.
enum class GameStatus {
    ONGOING,
    CLAIM_THREEFOLD,
    CLAIM_FIFTY,
    CHECKMATE,  // the side to move is mated
    STALEMATE,
    DRAW_INSUFFICIENT,
    DRAW_FIVEFOLD,
    DRAW_SEVENTYFIVE
};

constexpr bool is_over(GameStatus s) { return s >= GameStatus::CHECKMATE; }

// The protocol's words: "ongoing", "ongoing claim threefold|fifty", "checkmate",
// "stalemate", "draw insufficient|fivefold|seventyfive".
const char* status_name(GameStatus s);

class Game {
public:
    Game();  // the standard start position

    // Replaces this game with `fen` followed by `moves` (UCI notation). Returns an empty
    // string on success; on error returns the message and leaves the game unchanged.
    // With chess960 the FEN's castling field may name any rook (X-FEN, Shredder-FEN)
    // and castling moves are written as the king taking its rook.
    std::string set(const std::string& fen, const std::vector<std::string>& moves, bool chess960 = false);

    // Replaces this game with the start position of two armies (the rules in README.md)
    // followed by `moves`. Same contract as set().
    std::string set_armies(const std::string& white, const std::string& black, const std::vector<std::string>& moves,
                           bool chess960 = false);

    // Plays a move, which must be legal in the current position.
    void play(Move m);

    // The referee's verdict on the current position.
    GameStatus status() const;
    // The result when `flagged` runs out of time: "0-1 time", "1-0 time",
    // "1/2-1/2 time" or "aborted".
    std::string flag(Color flagged) const;

    Position& position() { return pos_; }
    const Position& position() const { return pos_; }
    const std::vector<Move>& moves() const { return moves_; }
    // The start position's FEN (as Position::fen() writes it) and its Chess960 mode.
    const std::string& start_fen() const { return start_fen_; }
    bool chess960() const { return pos_.chess960(); }

private:
    std::unique_ptr<std::deque<StateInfo>> states_;
    Position pos_;
    std::vector<Move> moves_;
    Color start_side_ = WHITE;
    std::string start_fen_;
};

}  // namespace maharajah
