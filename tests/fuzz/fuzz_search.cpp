// A node-limited search on a position decoded from the input: it reports exactly one
// bestmove, legal in the position, or MOVE_NONE exactly when there is no legal move.
// Input: one settings byte, then a FEN, or "army <white> <black>", then optionally a
// newline and moves to play first. Settings byte: bits 0-1 MultiPV - 1, bit 2
// material-only evaluation, else bit 3 the hybrid (otherwise the hand-written one),
// bits 3-7 the node limit in steps of 100 (500 to 3600).

#include <cstdint>
#include <sstream>
#include <vector>

#include "fuzz_check.h"
#include "movegen/movegen.h"
#include "protocol/game.h"
#include "search/search.h"

using namespace maharajah;
using fuzzcheck::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool init = (Position::init(), true);
    (void)init;
    static search::Engine engine;
    static const bool sized = (engine.resize_hash(1), true);
    (void)sized;
    if (size < 1 || size > 1024) return -1;
    const std::uint8_t settings_byte = data[0];
    std::istringstream in(fuzzcheck::text(data + 1, size - 1));
    std::string setup;
    std::getline(in, setup);
    std::vector<std::string> moves;
    for (std::string w; in >> w && moves.size() < 256;) moves.push_back(w);

    Game game;
    std::string error;
    if (setup.rfind("army ", 0) == 0) {
        std::istringstream words(setup.substr(5));
        std::string white, black;
        words >> white >> black;
        error = game.set_armies(white, black, moves);
    } else
        error = game.set(setup == "startpos" ? StartFen : setup, moves);
    if (!error.empty()) return 0;

    const Position& pos = game.position();
    const std::string fen = pos.fen();
    const Key key = pos.key();
    search::Limits limits;
    limits.nodes = 500 + 100 * std::uint64_t(settings_byte >> 3);
    search::Settings settings;
    settings.multipv = 1 + (settings_byte & 3);
    settings.eval.mode = settings_byte & 4   ? eval::Mode::MATERIAL
                         : settings_byte & 8 ? eval::Mode::HYBRID
                                             : eval::Mode::CLASSICAL;

    int calls = 0;
    Move best = MOVE_NONE, ponder = MOVE_NONE;
    search::Listener listener;
    listener.on_bestmove = [&](Move b, Move p) { ++calls, best = b, ponder = p; };
    engine.clear();
    engine.start(pos, limits, settings, listener);
    engine.wait();

    require(calls == 1, "not exactly one bestmove", fen + " calls " + std::to_string(calls));
    MoveList<LEGAL> legal(pos);
    if (legal.size() == 0) {
        require(best == MOVE_NONE, "a bestmove where there is no legal move", fen + " " + move_to_uci(best));
    } else {
        require(legal.contains(best), "bestmove is not legal", fen + " bestmove " + move_to_uci(best));
        if (ponder != MOVE_NONE) {
            Position after = pos;
            StateInfo st;
            after.do_move(best, st);
            require(MoveList<LEGAL>(after).contains(ponder), "ponder move is not legal after the bestmove",
                    fen + " bestmove " + move_to_uci(best) + " ponder " + move_to_uci(ponder));
        }
    }
    require(pos.key() == key && pos.fen() == fen, "the search changed the root position", fen);
    return 0;
}
