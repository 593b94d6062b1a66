#pragma once
// The search techniques by name, for the developer option "Ablate" and for the playing
// levels (search/skill.h), which search without some of them.

#include <array>
#include <cstdint>

namespace maharajah::search {

// Search techniques that can be switched off one at a time, so that a match can
// measure what each one gains (the developer option "Ablate"; all are on by default).
// Switching off a move-ordering statistic means never learning it: the table stays
// empty, which removes it from ordering and from the reductions alike.
enum Technique : unsigned {
    ASPIRATION,
    PVS,
    TT_CUTOFF,
    REVERSE_FUTILITY,
    NULL_MOVE,
    NULL_VERIFY,
    LMP,
    FUTILITY,
    SEE_PRUNING,
    LMR,
    MATE_DISTANCE,
    KILLERS,
    HISTORY,
    CONT_HISTORY,
    CAPTURE_HISTORY,
    QS_SEE,
    SINGULAR,
    NODE_TIME,
    PROBCUT,
    FIFTY_DAMPING,
    THREAT_HISTORY,
    TECHNIQUE_NB
};
inline constexpr std::array<const char*, TECHNIQUE_NB> TechniqueName = {
    "aspiration", "pvs",      "ttcut",    "rfp",      "nmp",     "nmpverify", "lmp",
    "futility",   "seeprune", "lmr",      "mdp",      "killers", "history",   "conthist",
    "capthist",   "qsee",     "singular", "nodetime", "probcut", "fiftydamp", "threathist",
};

}  // namespace maharajah::search
