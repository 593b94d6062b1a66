// The FEN reader: any input is either refused (with the position unchanged) or gives a
// consistent position whose FEN reads back the same, and every legal move is undone
// exactly.
//
// The round trip fen() -> set() is checked only when MAHARAJAH_FUZZ_STRICT_ROUNDTRIP is
// set: some FENs with field 7 '-' and a compound piece, and huge fullmove numbers, do
// not read back yet (a known bug being fixed separately).

#include <cstdint>

#include "fuzz_check.h"
#include "movegen/movegen.h"

using namespace maharajah;
using fuzzcheck::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool strict_roundtrip = fuzzcheck::env_flag("MAHARAJAH_FUZZ_STRICT_ROUNDTRIP");
    static const bool init = (Position::init(), true);
    (void)init;
    if (size > 512) return -1;  // a FEN is short; longer inputs only slow the search down
    const std::string fen = fuzzcheck::text(data, size);

    Position pos;
    StateInfo start, st;
    (void)pos.set("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", start);
    const std::string before = pos.fen();
    if (!pos.set(fen, st).empty()) {
        require(pos.fen() == before, "a refused FEN changed the position", fen);
        return 0;
    }
    require(pos.check_invariants().empty(), "invariants after set()", fen + " : " + pos.check_invariants());

    const std::string written = pos.fen();
    if (strict_roundtrip) {
        Position again;
        StateInfo st2;
        const std::string error = again.set(written, st2);
        require(error.empty(), "fen() does not read back", fen + " -> " + written + " : " + error);
        require(again.fen() == written, "fen() reads back as a different FEN", written + " -> " + again.fen());
        if (pos.fen_is_exact()) require(again.key() == pos.key(), "fen() reads back with another key", written);
    }

    const Key key = pos.key();
    for (Move m : MoveList<LEGAL>(pos)) {
        StateInfo next;
        pos.do_move(m, next);
        require(pos.check_invariants().empty(), "invariants after do_move",
                written + " move " + move_to_uci(m) + " : " + pos.check_invariants());
        (void)pos.fen();  // writing any reachable position must be safe
        pos.undo_move(m);
        require(pos.key() == key, "undo_move did not restore the key", written + " move " + move_to_uci(m));
    }
    require(pos.fen() == written, "moves made and undone changed the FEN", written + " -> " + pos.fen());
    require(pos.check_invariants().empty(), "invariants after the moves were undone", written);
    return 0;
}
