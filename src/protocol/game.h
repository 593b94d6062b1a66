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

class Game {
public:
    Game();  // the standard start position

    // Replaces this game with `fen` followed by `moves` (UCI notation). Returns an empty
    // string on success; on error returns the message and leaves the game unchanged.
    std::string set(const std::string& fen, const std::vector<std::string>& moves);

    Position& position() { return pos_; }
    const Position& position() const { return pos_; }
    const std::vector<Move>& moves() const { return moves_; }

private:
    std::unique_ptr<std::deque<StateInfo>> states_;
    Position pos_;
    std::vector<Move> moves_;
};

}  // namespace maharajah
