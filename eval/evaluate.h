#pragma once
// Static evaluation, variant-aware and tapered between middlegame and endgame.

#include <string>

#include "board/position.h"
#include "eval/nnue.h"
#include "eval/weights.h"

namespace maharajah::eval {

// Which evaluation the search uses (the option EvalMode): the network, the
// hand-written evaluation, HYBRID (the mean of the two, see hybrid() below), material
// only (a baseline for measuring the others), or AUTO: whichever measured strongest
// for the kind of position.
enum class Mode { NNUE, CLASSICAL, HYBRID, MATERIAL, AUTO };

struct Options {
    Options(Mode m = Mode::AUTO, nnue::NetPtr n = {}) : mode(m), net(std::move(n)) {}
    Mode mode;
    // The network (EvalFile); null: the one built into the binary. Shared, read-only.
    nnue::NetPtr net;

    const nnue::Network& network() const { return net ? *net : nnue::builtin(); }
};

// "auto", "nnue", "hybrid", "classical" (also "full", its older name) or "material";
// false otherwise.
bool parse_mode(const std::string& name, Mode& out);
const char* mode_name(Mode mode);

// The evaluation AUTO stands for in a position: the network without compound pieces on
// the board, HYBRID with them (measured in games, scripts/results/RESULTS.md: in
// standard chess the net alone is strongest; with the armies' compound pieces the net
// alone is only level with the hand-written evaluation, but their mean beats both).
// A search decides once, at its root, so one tree never mixes two scales. Other modes
// stand for themselves.
Mode resolve(Mode mode, const Position& pos);

// A score as reported (UCI "score cp", `eval`), from a search or evaluation in the
// `resolved` mode. The network's unit is smaller than the hand-written evaluation's: on
// held-out games the same expected result takes about 1.6 times as many of its units
// (scripts/results/RESULTS.md, "Reported scores"), so its scores are reported times
// NetReportNum / NetReportDen, on the hand-written evaluation's footing, and a score
// does not jump when `auto` switches evaluations. The search works in the evaluation's
// own units (its margins were measured so). Mate scores pass unchanged.
inline constexpr int NetReportNum = 5, NetReportDen = 8;
Value to_reported(Value v, Mode resolved);

// HYBRID: the net's score brought onto the hand-written evaluation's footing, then
// averaged with it. The two make different mistakes in army positions (the net has
// seen few of them; the hand-written terms know nothing of their tactics), and the
// mean measured stronger than either alone. Its scores are on the hand-written
// footing, so they are reported unchanged.
inline Value hybrid(Value net, Value classical) { return Value((net * NetReportNum / NetReportDen + classical) / 2); }

// The named terms of the evaluation, for `eval` (each a middlegame/endgame pair).
enum Term { MATERIAL, PLACEMENT, MOBILITY, ROOK_FILES, IMBALANCE, PAWNS, KING_SAFETY, KING_ATTACK, TERM_NB };
inline constexpr const char* TermName[TERM_NB] = {"Material",  "Placement", "Mobility",    "Rook files",
                                                  "Imbalance", "Pawns",     "King safety", "King attack"};

// What evaluate() added up, term by term, each side's own contribution.
struct Trace {
    Score terms[COLOR_NB][TERM_NB];
    int phase = 0;         // 0 (endgame) .. PhaseFull (middlegame)
    Value unscaled = 0;    // White's point of view, tapered, before the drawish scale
    bool drawish = false;  // the stronger side's advantage was divided by 8
    Value tempo = 0;       // added for the side to move
};

// The evaluation of pos from the side to move's point of view, in centipawns. With a
// trace, also fills it in (the full evaluation only).
Value evaluate(const Position& pos, const Options& options = {}, Trace* trace = nullptr);

// Material on the board for c (middlegame values, pawns excluded): the search uses it
// to decide when a null move is too risky.
int non_pawn_material(const Position& pos, Color c);

}  // namespace maharajah::eval
