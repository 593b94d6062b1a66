// The FEN reader: any input is either refused (with the position unchanged) or gives a
// consistent position whose FEN reads back the same, and every legal move is undone
// exactly. Every FEN the engine writes (after set() and after each legal move) reads
// back to the same position, rules, rights and key.

#include <cstdint>

#include "fuzz_check.h"
#include "movegen/movegen.h"

using namespace maharajah;
using fuzzcheck::require;

namespace {

// fen() reads back to the same FEN, key, rules and rights.
void require_reads_back(const Position& pos, const std::string& context) {
    const std::string written = pos.fen();
    Position again;
    StateInfo st;
    const std::string error = again.set(written, st, pos.chess960());
    require(error.empty(), "fen() does not read back", context + " -> " + written + " : " + error);
    require(again.fen() == written, "fen() reads back as a different FEN", written + " -> " + again.fen());
    require(again.key() == pos.key(), "fen() reads back with another key", written);
    require(again.double_step_pawns() == pos.double_step_pawns() && again.castling_rights() == pos.castling_rights() &&
                again.ep_square() == pos.ep_square() && again.rules(WHITE).variant == pos.rules(WHITE).variant &&
                again.rules(BLACK).variant == pos.rules(BLACK).variant,
            "fen() reads back with other rules or rights", written);
}

}  // namespace

namespace {

// One FEN in one mode (standard or Chess960).
void check_fen(const std::string& fen, bool chess960) {
    Position pos;
    StateInfo start, st;
    (void)pos.set("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", start, chess960);
    const std::string before = pos.fen();
    if (!pos.set(fen, st, chess960).empty()) {
        require(pos.fen() == before, "a refused FEN changed the position", fen);
        return;
    }
    require(pos.check_invariants().empty(), "invariants after set()", fen + " : " + pos.check_invariants());

    const std::string written = pos.fen();
    require_reads_back(pos, fen);
    const Key key = pos.key();
    for (Move m : MoveList<LEGAL>(pos)) {
        StateInfo next;
        const std::string uci = move_to_uci(pos, m);
        require(parse_uci_move(pos, uci) == m, "a legal move does not parse back", written + " move " + uci);
        pos.do_move(m, next);
        require(pos.check_invariants().empty(), "invariants after do_move",
                written + " move " + uci + " : " + pos.check_invariants());
        require_reads_back(pos, written + " move " + uci);
        pos.undo_move(m);
        require(pos.key() == key, "undo_move did not restore the key", written + " move " + uci);
    }
    require(pos.fen() == written, "moves made and undone changed the FEN", written + " -> " + pos.fen());
    require(pos.check_invariants().empty(), "invariants after the moves were undone", written);
}

}  // namespace

// Each input is read as a standard FEN and as a Chess960 one.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool init = (Position::init(), true);
    (void)init;
    if (size > 512) return -1;  // a FEN is short; longer inputs only slow the search down
    const std::string fen = fuzzcheck::text(data, size);
    check_fen(fen, false);
    check_fen(fen, true);
    return 0;
}
