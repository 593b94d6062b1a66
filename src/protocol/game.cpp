#include "protocol/game.h"

#include "board/army.h"
#include "movegen/movegen.h"

namespace maharajah {

std::string clip(const std::string& text, std::size_t max) {
    if (text.size() <= max) return text;
    return text.substr(0, max) + "... (" + std::to_string(text.size()) + " characters)";
}

Game::Game() {
    std::string error = set(StartFen, {});
    (void)error;  // the start FEN is a constant known to be valid
}

std::string Game::set(const std::string& fen, const std::vector<std::string>& moves, bool chess960) {
    // Build the new game aside and swap it in only when every step succeeded.
    auto states = std::make_unique<std::deque<StateInfo>>(1);
    Position pos;
    std::string error = pos.set(fen, states->back(), chess960);
    if (!error.empty()) return "bad FEN: " + error;
    std::string start_fen = pos.fen();
    std::vector<Move> played;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        Move m = parse_uci_move(pos, moves[i]);
        if (m == MOVE_NONE)
            return "illegal move '" + clip(moves[i]) + "' (move " + std::to_string(i + 1) + " of the list) in " +
                   pos.fen();
        states->emplace_back();
        pos.do_move(m, states->back());
        played.push_back(m);
    }
    states_ = std::move(states);
    start_side_ = moves.size() % 2 ? ~pos.side_to_move() : pos.side_to_move();
    pos_ = pos;
    moves_ = std::move(played);
    start_fen_ = std::move(start_fen);
    return {};
}

std::string Game::set_armies(const std::string& white, const std::string& black, const std::vector<std::string>& moves,
                             bool chess960) {
    ArmyCheck w = check_army(WHITE, white);
    if (!w.ok()) return "White army: " + w.error;
    ArmyCheck b = check_army(BLACK, black);
    if (!b.ok()) return "Black army: " + b.error;
    std::string fen = army_start_fen(w.army, b.army);
    // The start checks of the rules in README.md, each with its own message.
    Position pos;
    StateInfo st;
    std::string error = pos.set(fen, st, chess960);
    if (!error.empty()) {
        if (error.find("not to move) is in check") != std::string::npos)
            return "Black's king is attacked in the start position";
        return "start position: " + error;
    }
    if (pos.in_check()) return "White is in check in the start position";
    if (!MoveList<LEGAL>(pos).size()) return "White has no legal move in the start position";
    return set(fen, moves, chess960);
}

void Game::play(Move m) {
    states_->emplace_back();
    pos_.do_move(m, states_->back());
    moves_.push_back(m);
}

GameStatus Game::status() const {
    if (!MoveList<LEGAL>(pos_).size()) return pos_.in_check() ? GameStatus::CHECKMATE : GameStatus::STALEMATE;
    if (pos_.insufficient_material()) return GameStatus::DRAW_INSUFFICIENT;
    int repetitions = pos_.repetition_count();
    if (repetitions >= 5) return GameStatus::DRAW_FIVEFOLD;
    if (pos_.rule50_count() >= 150) return GameStatus::DRAW_SEVENTYFIVE;
    if (repetitions >= 3) return GameStatus::CLAIM_THREEFOLD;
    if (pos_.rule50_count() >= 100) return GameStatus::CLAIM_FIFTY;
    return GameStatus::ONGOING;
}

const char* status_name(GameStatus s) {
    static constexpr const char* Names[] = {
        "ongoing",   "ongoing claim threefold", "ongoing claim fifty", "checkmate",
        "stalemate", "draw insufficient",       "draw fivefold",       "draw seventyfive"};  // in GameStatus order
    return Names[int(s)];
}

std::string Game::flag(Color flagged) const {
    // Plies by `flagged` since the start: the start side moved on plies 1, 3, 5...
    std::size_t own = flagged == start_side_ ? (moves_.size() + 1) / 2 : moves_.size() / 2;
    if (own == 0) return "aborted";
    if (!pos_.has_mating_material(~flagged)) return "1/2-1/2 time";
    return flagged == WHITE ? "0-1 time" : "1-0 time";
}

}  // namespace maharajah
