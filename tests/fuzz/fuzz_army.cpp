// Armies: check_army for both colours on any text, army_to_string round trips for
// every valid army, and Game::set_armies (what "position army <w> <b>" runs) either
// refuses with the game unchanged or gives a legal start position.
// Input: the White army, a newline, the Black army (both texts are also checked for
// the other colour).

#include <cstdint>

#include "board/army.h"
#include "fuzz_check.h"
#include "movegen/movegen.h"
#include "protocol/game.h"

using namespace maharajah;
using fuzzcheck::require;

namespace {

void check_one(Color c, const std::string& text) {
    ArmyCheck a = check_army(c, text);
    if (!a.ok()) {
        require(!a.error.empty(), "refused army without a reason", text);
        return;
    }
    require(a.points == ArmyPoints, "valid army without 39 points", text);
    require(a.pieces >= 0 && a.pieces <= MaxArmyPieces, "valid army with a bad piece count", text);
    require(a.army.ranks >= 1 && a.army.ranks <= 4, "valid army with a bad rank count", text);
    const std::string written = army_to_string(c, a.army);
    ArmyCheck b = check_army(c, written);
    require(b.ok(), "army_to_string does not read back", text + " -> " + written + " : " + b.error);
    require(army_to_string(c, b.army) == written, "army_to_string changes on a second round", written);
    require(b.points == a.points && b.pieces == a.pieces && b.variant == a.variant,
            "army reads back with other numbers", text + " -> " + written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool init = (Position::init(), true);
    (void)init;
    if (size > 256) return -1;
    const std::string input = fuzzcheck::text(data, size);
    const std::size_t nl = input.find('\n');
    const std::string white = input.substr(0, nl);
    const std::string black = nl == std::string::npos ? std::string() : input.substr(nl + 1);
    for (Color c : {WHITE, BLACK}) {
        check_one(c, white);
        check_one(c, black);
    }

    Game game;
    const std::string fen = game.position().fen();
    const Key key = game.position().key();
    const std::string error = game.set_armies(white, black, {});
    if (!error.empty()) {
        require(game.position().fen() == fen && game.position().key() == key, "a refused army pair changed the game",
                input + " : " + error);
        return 0;
    }
    const Position& pos = game.position();
    require(check_army(WHITE, white).ok() && check_army(BLACK, black).ok(), "set_armies accepted an invalid army",
            input);
    require(pos.check_invariants().empty(), "invariants of an army start position", pos.fen());
    require(!pos.in_check() && pos.side_to_move() == WHITE, "army start: White to move, not in check", pos.fen());
    require(MoveList<LEGAL>(pos).size() > 0, "army start without a legal move", pos.fen());
    require(game.moves().empty(), "army start with moves", pos.fen());
    return 0;
}
