#include "protocol/game.h"

#include "movegen/movegen.h"

namespace maharajah {

Game::Game() {
    std::string error = set(StartFen, {});
    (void)error;  // the start FEN is a constant known to be valid
}

std::string Game::set(const std::string& fen, const std::vector<std::string>& moves) {
    // Build the new game aside and swap it in only when every step succeeded.
    auto states = std::make_unique<std::deque<StateInfo>>(1);
    Position pos;
    std::string error = pos.set(fen, states->back());
    if (!error.empty()) return "bad FEN: " + error;
    std::vector<Move> played;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        Move m = parse_uci_move(pos, moves[i]);
        if (m == MOVE_NONE)
            return "illegal move '" + moves[i] + "' (move " + std::to_string(i + 1) + " of the list) in " +
                   pos.fen();
        states->emplace_back();
        pos.do_move(m, states->back());
        played.push_back(m);
    }
    states_ = std::move(states);
    pos_ = pos;
    moves_ = std::move(played);
    return {};
}

}  // namespace maharajah
