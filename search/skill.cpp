#include "search/skill.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "core/random.h"

namespace maharajah::search {

namespace {

// The calibrations: a level's label (the Elo it should play at) -> the setting of the
// formulas below that plays there, linear in between; scripts/results/RESULTS.md has
// the measurements (scripts/match/calibrate) behind each point.
// Standard chess: below 1400 a ladder of levels 200 apart hanging from the 1400 anchor;
// from 1400 up Stockfish's UCI_Elo alone (levels of one engine overrate each other's
// gaps there: 2000 v 1800 scored 99% where Stockfish puts them 225 apart).
constexpr double Calibration[][2] = {{600, 1120},  {800, 1185},  {1000, 1253}, {1200, 1298}, {1400, 1350},
                                     {1600, 1500}, {1800, 1650}, {2000, 1940}, {2200, 2200}};

// Positions with compound pieces: the army ladder (levels 200 apart should score 76%),
// anchored at the top level (2200, no budget), the one level both scales share. The same
// budget gains more here: the army ladder measured 1600 v 1400 at 93.5% and 2000 v 1800
// at 86% with the standard settings, so each label gets a stronger setting.
constexpr double CompoundCalibration[][2] = {{600, 1248},  {800, 1333},  {1000, 1389}, {1200, 1474}, {1400, 1559},
                                             {1600, 1704}, {1800, 1853}, {2000, 1990}, {2200, 2200}};

// The whole-search band's choice at its floor (WholeSearchFloor), in centipawns; it
// shrinks linearly to nothing at the top.
constexpr double WholeSearchTemperature = 24;
constexpr double WholeSearchMaxLoss = 60;

template <std::size_t N>
double setting_of(const double (&table)[N][2], int elo) {
    if (elo <= table[0][0]) return table[0][1];
    for (std::size_t i = 1; i < N; ++i)
        if (elo <= table[i][0]) {
            const double t = (elo - table[i - 1][0]) / (table[i][0] - table[i - 1][0]);
            return table[i - 1][1] + t * (table[i][1] - table[i - 1][1]);
        }
    return table[N - 1][1];
}

}  // namespace

Skill skill_from_options(bool limit_strength, int uci_elo, int skill_level, std::uint64_t seed) {
    Skill skill;
    skill.seed = seed;
    if (limit_strength || skill_level < 20) {
        skill.enabled = true;
        skill.elo = std::clamp(limit_strength ? uci_elo : skill_level_elo(skill_level), SkillMinElo, SkillMaxElo);
    }
    return skill;
}

eval::Mode skill_eval(const Skill& skill, eval::Mode requested) {
    return skill.enabled ? skill_plan(skill.elo).eval : requested;
}

SkillPlan skill_plan(int label, bool compound) {
    // The top: the hand-written evaluation's whole search, by the clock, one line.
    if (label >= SkillMaxElo) return SkillPlan{};
    if (!compound && label > WholeSearchFloor && label < SkillMaxElo) {
        // h: 1 at the floor, 0 at the top (full strength with one line). Two lines, the
        // second chosen when it is close: the handicap of a strong player who now and
        // then prefers a nearly equal move.
        const double h = double(SkillMaxElo - label) / (SkillMaxElo - WholeSearchFloor);
        SkillPlan p;
        p.candidates = 2;
        p.temperature = WholeSearchTemperature * h;
        p.max_loss = Value(std::lround(WholeSearchMaxLoss * h));
        return p;
    }
    const double elo = compound ? setting_of(CompoundCalibration, label) : setting_of(Calibration, label);
    // f: 0 at the floor, 1 at the top of the range.
    const double f = std::clamp(double(elo - SkillMinElo) / (SkillMaxElo - SkillMinElo), 0.0, 1.0);
    // g: how far below 1400 (the bottom of Stockfish's scale). Down there a smaller tree
    // alone makes little difference (40 or 135 nodes both see one move deep), so the
    // weakest levels also look at more candidates, choose with more noise and accept
    // bigger losses: a beginner overlooks what a club player would not.
    const double g = std::clamp((1400.0 - elo) / 800.0, 0.0, 1.0);
    SkillPlan p;
    p.without = LevelCalibratedWithout;
    p.nodes = std::uint64_t(40.0 * std::pow(2.0, 15.0 * f));  // 40 nodes .. about 1.3 million (f = 1 is never used)
    p.candidates = 4 + int(std::lround(8 * g));
    p.temperature = 160.0 * (1 - f) * (1 - f) + 6.0 + 200.0 * g;
    p.max_loss = Value(520.0 * std::pow(1 - f, 1.5) + 25.0 + 400.0 * g);
    return p;
}

int skill_level_elo(int level) {
    level = std::clamp(level, 0, 20);
    return SkillMinElo + level * (SkillMaxElo - SkillMinElo) / 20;
}

int skill_pick(const std::vector<Value>& scores, const SkillPlan& plan, std::uint64_t& rng) {
    if (scores.size() < 2) return 0;
    const Value best = scores[0];
    std::vector<double> weight(scores.size(), 0.0);
    double total = 0;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        // Mate scores and losses beyond the cap are never chosen over the best move.
        if (std::abs(scores[i]) >= VALUE_MATE_IN_MAX_PLY || std::abs(best) >= VALUE_MATE_IN_MAX_PLY) {
            if (i == 0) weight[i] = 1;
        } else if (best - scores[i] <= plan.max_loss)
            weight[i] = std::exp(-double(best - scores[i]) / plan.temperature);
        total += weight[i];
    }
    const double r = double(splitmix64(rng) >> 11) * (1.0 / 9007199254740992.0) * total;
    double acc = 0;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        acc += weight[i];
        if (r < acc) return int(i);
    }
    return 0;
}

}  // namespace maharajah::search
