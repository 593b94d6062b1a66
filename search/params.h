#pragma once
// The search's tunable numbers, one table: each a named integer with its range. A normal
// build compiles them as constants; a tuning build (CMake -DMAHARAJAH_TUNE=ON) makes
// them variables that UCI sets (`setoption name <Name> value <n>`, listed by `uci`), so
// an SPSA tuner (OpenBench) can move them. `maharajah spsa` prints the table in
// OpenBench's SPSA input format. Fractions are integers over 100.

#include <string>
#include <vector>

namespace maharajah::search {

// X(name, default, min, max)
#define MAHARAJAH_SEARCH_PARAMS(X)                                                          \
    X(LmrBase, 43, 0, 150)              /* late-move reduction: base, in 1/100 plies */     \
    X(LmrDivisor, 186, 100, 400)        /* log(depth) * log(moves) / (this / 100) */        \
    X(LmrHistoryDiv, 8649, 3000, 30000) /* a quiet's history per ply of reduction */        \
    X(LmpBase, 6, 1, 10)                /* late-move pruning: (base + depth^2) moves */     \
    X(HistoryBonusMul, 187, 50, 400)    /* history bonus: min(mul * depth - sub, max) */    \
    X(HistoryBonusSub, 97, 0, 300)                                                          \
    X(HistoryBonusMax, 1668, 500, 4000)                                                     \
    X(AspirationDelta, 15, 5, 40) /* first aspiration half-window */                        \
    X(RfpMargin, 84, 30, 200)     /* reverse futility: margin per ply */                    \
    X(RfpDepth, 6, 4, 14)         /* ... below this depth */                                \
    X(NmpEvalBase, 156, 0, 400)   /* null move: static eval >= beta - d * mul + base */     \
    X(NmpEvalDepthMul, 21, 0, 60)                                                           \
    X(NmpReductionBase, 4, 2, 5) /* R = base + depth / div + min((eval-beta)/ediv, 3) */    \
    X(NmpReductionDepthDiv, 4, 2, 8)                                                        \
    X(NmpReductionEvalDiv, 202, 80, 400)                                                    \
    X(NmpVerifyDepth, 12, 6, 20)   /* verify the null move from this depth */               \
    X(ProbcutMargin, 206, 80, 400) /* ProbCut: beta + margin */                             \
    X(ProbcutDepth, 4, 3, 8)       /* ... from this depth */                                \
    X(FutilityBase, 106, 30, 300)  /* futility: eval + base + mul * lmr_depth + hist/div */ \
    X(FutilityMul, 96, 40, 250)                                                             \
    X(FutilityHistoryDiv, 105, 32, 512)                                                     \
    X(FutilityDepth, 10, 4, 14)                                                             \
    X(SeeQuietMul, 22, 5, 80) /* quiet SEE pruning: -mul * lmr_depth^2 */                   \
    X(SeeQuietDepth, 9, 3, 14)                                                              \
    X(SeeCaptureMul, 96, 30, 250) /* capture SEE pruning: -mul * depth */                   \
    X(SeeCaptureDepth, 7, 3, 12)                                                            \
    X(SingularDepth, 7, 4, 10) /* singular extension from this depth */                     \
    X(SingularMargin, 2, 1, 6) /* ... margin per ply */

#ifdef MAHARAJAH_TUNE
#define MAHARAJAH_DECLARE_PARAM(name, value, lo, hi) inline int name = value;
#else
#define MAHARAJAH_DECLARE_PARAM(name, value, lo, hi) inline constexpr int name = value;
#endif
namespace param {
MAHARAJAH_SEARCH_PARAMS(MAHARAJAH_DECLARE_PARAM)
}
#undef MAHARAJAH_DECLARE_PARAM

inline constexpr bool Tunable =
#ifdef MAHARAJAH_TUNE
    true;
#else
    false;
#endif

struct ParamInfo {
    const char* name;
    int value, min, max;  // value: the current one (the default in a normal build)
};
// The table, in declaration order.
std::vector<ParamInfo> params();
// Tuning build: sets a parameter by name (case-insensitive). Returns false for an unknown
// name, a value out of range, or a normal build.
bool set_param(const std::string& name, int value);
// The table as OpenBench SPSA input: `name, int, value, min, max, step, lr` per line.
std::string spsa_input();

}  // namespace maharajah::search
