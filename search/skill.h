#pragma once
// Playing levels (UCI_LimitStrength + UCI_Elo, Skill Level): how a weaker level
// searches and how it chooses. A level searches a smaller tree (a node budget that
// grows exponentially with the Elo) for several candidate moves, then picks among
// them with noise that shrinks as the level rises, never a move that its own search
// scores far below the best. So it errs like a weaker player (it overlooks what its
// small search cannot see, and prefers a reasonable second move now and then) rather
// than playing random moves or giving material away.
//
// The formulas' settings come from calibration tables in skill.cpp, measured by
// scripts/match/calibrate against Stockfish's UCI_Elo and in level-versus-level ladders.

#include <cstdint>
#include <vector>

#include "core/types.h"
#include "eval/evaluate.h"
#include "search/techniques.h"

namespace maharajah::search {

// The UCI_Elo range. Its top is the hand-written evaluation's whole search with no
// budget, which measures about 2200 on Stockfish's UCI_Elo scale at 10+0.1
// (scripts/match/calibrate); the levels below it (but the standard ones above
// WholeSearchFloor) search without the techniques that came after their calibration
// (SkillPlan::without), as their tables were measured (that search with no budget
// scored 34.5% against Stockfish 2200, too weak for the top). The top level's strength
// follows the machine's speed (it searches by the clock), Stockfish's levels do not
// (they pick at a fixed depth). Full strength (UCI_LimitStrength false, Skill Level 20)
// is above the scale, as Stockfish's is above its UCI_Elo range: the network makes it
// stronger.
inline constexpr int SkillMinElo = 600;
inline constexpr int SkillMaxElo = 2200;

// A playing level; disabled means full strength.
struct Skill {
    bool enabled = false;
    int elo = SkillMaxElo;
    std::uint64_t seed = 0;  // 0: a different choice each time; else repeatable
};

// The level the UCI options ask for: UCI_LimitStrength with its UCI_Elo, else a Skill
// Level below 20 at its Elo (skill_level_elo); otherwise full strength (disabled).
Skill skill_from_options(bool limit_strength, int uci_elo, int skill_level, std::uint64_t seed);

// Everything a level decides: its evaluation, the techniques it searches without, its
// search budget and its choice rule.
struct SkillPlan {
    // The levels' tables were measured with the hand-written evaluation; another
    // evaluation would shift every label, so a level uses it whatever EvalMode says.
    eval::Mode eval = eval::Mode::CLASSICAL;
    std::uint32_t without = 0;  // bit t set: the level searches without Technique t
    std::uint64_t nodes = 0;    // at most this many nodes per search (0: no budget, the clock's)
    int candidates = 1;         // root moves searched as principal variations (1: no choice)
    double temperature = 0;     // centipawns: softmax temperature of the choice
    Value max_loss = 0;         // never choose a move scored this far below the best
};

// The techniques that came after the playing levels were calibrated: a level searches
// without them, as it did when its table was measured, except the top level and the
// standard levels above WholeSearchFloor, which search with every technique.
inline constexpr std::uint32_t LevelCalibratedWithout =
    1u << SINGULAR | 1u << NODE_TIME | 1u << PROBCUT | 1u << FIFTY_DAMPING | 1u << THREAT_HISTORY;

// `compound`: the position has compound pieces. Such games have a calibration of their
// own (the variant's ladder), because the same search budget gains more there.
// Standard chess above WholeSearchFloor searches like the top level (every technique,
// no budget) and is handicapped only in its choice: the reduced search saturates near
// 2090 there, and a budget costs the whole search more than its label allows. The top
// level (SkillMaxElo) is the hand-written evaluation's full search: no budget, no choice.
inline constexpr int WholeSearchFloor = 2000;
SkillPlan skill_plan(int elo, bool compound = false);

// The evaluation a search uses: the level's (when `skill` is enabled), else `requested`.
eval::Mode skill_eval(const Skill& skill, eval::Mode requested);

int skill_level_elo(int level);

// Index of the chosen move among candidate scores (best first, from the level's own
// search), drawn with the given random state.
int skill_pick(const std::vector<Value>& scores, const SkillPlan& plan, std::uint64_t& rng);

}  // namespace maharajah::search
