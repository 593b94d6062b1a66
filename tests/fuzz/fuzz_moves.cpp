// "position fen|startpos ... moves ..." through Game::set: a refused setup leaves the
// game unchanged; an accepted one holds exactly the moves given, and the moves it
// holds, written back in UCI notation, replay to the same position.
// Input: the FEN (or "startpos") on the first line, the moves (any words) after it.

#include <cstdint>
#include <sstream>
#include <vector>

#include "fuzz_check.h"
#include "movegen/movegen.h"
#include "protocol/game.h"

using namespace maharajah;
using fuzzcheck::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool init = (Position::init(), true);
    (void)init;
    if (size > 4096) return -1;
    std::istringstream in(fuzzcheck::text(data, size));
    std::string fen;
    std::getline(in, fen);
    if (fen == "startpos") fen = StartFen;
    std::vector<std::string> moves;
    for (std::string w; in >> w && moves.size() < 512;) moves.push_back(w);

    // A game with a history, so that "unchanged" covers the move list too.
    Game game;
    require(game.set(StartFen, {"e2e4", "c7c5", "g1f3"}).empty(), "the fixed opening is legal");
    const std::string before_fen = game.position().fen();
    const Key before_key = game.position().key();
    const std::size_t before_moves = game.moves().size();

    const std::string error = game.set(fen, moves);
    if (!error.empty()) {
        require(game.position().fen() == before_fen && game.position().key() == before_key &&
                    game.moves().size() == before_moves,
                "a refused position command changed the game", fen + " : " + error);
        return 0;
    }
    const std::string context = fen + " moves ...";
    require(game.moves().size() == moves.size(), "accepted game holds another number of moves", context);
    require(game.position().check_invariants().empty(), "invariants after the moves",
            context + " : " + game.position().check_invariants());

    std::vector<std::string> written;
    for (Move m : game.moves()) written.push_back(move_to_uci(m));
    Game replay;
    const std::string replay_error = replay.set(fen, written);
    require(replay_error.empty(), "the game's own moves do not replay", context + " : " + replay_error);
    require(replay.position().key() == game.position().key(), "replayed moves give another position", context);
    (void)game.status();
    (void)game.flag(WHITE);
    (void)game.flag(BLACK);
    return 0;
}
