// The SAN and PGN readers: any input is either refused (a PGN refusal leaves the game
// unchanged) or gives legal moves; every move read writes back to SAN that reads to
// the same move, and every game read writes to PGN that reads back to the same game.
// The first byte picks the reader and, for SAN, the position the moves start from.

#include <cstdint>
#include <deque>
#include <sstream>

#include "fuzz_check.h"
#include "movegen/movegen.h"
#include "movegen/san.h"
#include "protocol/pgn.h"
#include "protocol/uci.h"

using namespace maharajah;
using fuzzcheck::require;

namespace {

// Positions for SAN lines: standard, two armies with compound pieces (promotions to
// M/A/C, doubled compound pieces), Chess960 castling both ways, en passant at once.
const char* const Starts[] = {
    "startpos",
    "fen 2k5/P7/8/8/8/8/8/4K3 w - - 0 1 V",
    "fen 4k3/8/8/C7/8/2N5/8/C1A1K1A1 w - - 0 1",
    "chess960 fen r5kr/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
    "fen rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "army AAAAKAAN rnbqkbnr/pppppppp",
};

void check_san(const std::string& start, const std::string& text) {
    Game game;
    std::istringstream is(start);
    require(parse_position(is, game).empty(), "a start position does not read", start);
    std::istringstream words(text);
    for (std::string word; words >> word;) {
        const Position& pos = game.position();
        std::string why;
        const Move m = parse_san(pos, word, &why);
        if (m == MOVE_NONE) {
            require(!why.empty(), "a refused SAN move has no reason", word);
            continue;
        }
        require(MoveList<LEGAL>(pos).contains(m), "parse_san gave an illegal move", pos.fen() + " " + word);
        const std::string san = move_to_san(pos, m);
        require(parse_san(pos, san) == m, "the SAN written does not read back", pos.fen() + " " + word + " -> " + san);
        game.play(m);
    }
}

void check_pgn(const std::string& text) {
    Game game;
    const std::string before = position_text(game);
    PgnGame info;
    if (!read_pgn(text, &game, &info).empty()) {
        require(position_text(game) == before, "a refused PGN changed the game");
        return;
    }
    require(game.position().check_invariants().empty(), "invariants after a PGN import");
    const std::string written = write_pgn(game, outcome_of(game), info.tags);
    Game again;
    const std::string error = read_pgn(written, &again);
    require(error.empty(), "a PGN written does not read back", written + " : " + error);
    require(position_text(again) == position_text(game), "a PGN reads back as another game", written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool init = (Position::init(), true);
    (void)init;
    if (size < 1 || size > 4096) return -1;
    const std::string text = fuzzcheck::text(data + 1, size - 1);
    const unsigned pick = data[0];
    if (pick & 1)
        check_pgn(text);
    else
        check_san(Starts[(pick >> 1) % (sizeof Starts / sizeof *Starts)], text);
    return 0;
}
