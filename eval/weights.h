#pragma once
// Every evaluation weight, in one place. Each term is a named middlegame/endgame
// pair (Score) or a table indexed by piece type, so compound pieces get their own
// values, mobility and placement terms. Units: centipawns.
//
// The compound piece values come from Texel tuning on game positions with the full
// evaluation (scripts/tuning/tune_piece_values.py; scripts/results/RESULTS.md, "Evaluation tuning"), not from the
// army point costs.

#include <array>

#include "core/types.h"

namespace maharajah::eval {

struct Score {
    int mg = 0, eg = 0;
    constexpr Score() = default;
    constexpr Score(int m, int e) : mg(m), eg(e) {}
    constexpr Score operator+(Score o) const { return {mg + o.mg, eg + o.eg}; }
    constexpr Score operator-(Score o) const { return {mg - o.mg, eg - o.eg}; }
    constexpr Score operator-() const { return {-mg, -eg}; }
    constexpr Score operator*(int k) const { return {mg * k, eg * k}; }
    constexpr Score& operator+=(Score o) { return mg += o.mg, eg += o.eg, *this; }
    constexpr Score& operator-=(Score o) { return mg -= o.mg, eg -= o.eg, *this; }
    constexpr bool operator==(const Score&) const = default;
};

using PieceScores = std::array<Score, PIECE_TYPE_NB>;

// Material. Index: NO_PIECE_TYPE, P, N, B, R, Q, K, M, A, C.
constexpr PieceScores PieceValue = {{
    {0, 0},
    {90, 120},
    {330, 310},
    {345, 330},
    {480, 540},
    {980, 1000},
    {0, 0},
    {1277, 1477},
    {795, 925},
    {901, 978},
}};

// Game phase weight per piece type (the middlegame share falls as these leave).
constexpr std::array<int, PIECE_TYPE_NB> PhaseWeight = {0, 0, 1, 1, 2, 4, 0, 6, 3, 4};
constexpr int PhaseFull = 24;  // an orthodox army pair: 4 minors, 4 rooks, 2 queens

// Placement: centralisation per piece type (per step toward the centre), and
// advancement (per rank forward) for pieces that like to come forward.
constexpr PieceScores Centralisation = {{
    {0, 0},
    {0, 0},
    {10, 6},
    {5, 4},
    {1, 2},
    {2, 5},
    {0, 0},
    {4, 6},
    {8, 6},
    {4, 5},
}};
constexpr PieceScores Advancement = {{
    {0, 0},
    {0, 0},
    {3, 0},
    {1, 0},
    {0, 2},
    {0, 2},
    {0, 0},
    {1, 2},
    {3, 1},
    {1, 2},
}};
// Rook movers on the 7th rank, on open and half-open files.
constexpr Score RookOnSeventh{10, 25};
constexpr Score RookOpenFile{28, 10};
constexpr Score RookHalfOpenFile{12, 6};

// Mobility: per safe reachable square, around a per-type baseline count.
constexpr PieceScores MobilityPerSquare = {{
    {0, 0},
    {0, 0},
    {7, 7},
    {6, 6},
    {3, 6},
    {2, 4},
    {0, 0},
    {2, 3},
    {4, 5},
    {3, 5},
}};
constexpr std::array<int, PIECE_TYPE_NB> MobilityBaseline = {0, 0, 4, 6, 6, 12, 0, 16, 10, 12};

// King safety. Attack weight of each piece type reaching the king zone; the sum grows
// quadratically (a lone attacker is not dangerous, a crowd is).
constexpr std::array<int, PIECE_TYPE_NB> KingAttackWeight = {0, 0, 20, 20, 30, 50, 0, 70, 45, 55};
// Extra weight for a safe check square of the knight part: knight checks cannot be
// blocked, and a compound piece that gives one often forks as well.
constexpr int SafeLeaperCheck = 40;
constexpr int SafeSliderCheck = 25;
constexpr int KingDangerDivisor = 300;     // mg penalty = danger^2 / divisor
constexpr Score PawnShield{14, 0};         // per own pawn in front of the king
constexpr Score KingOpenFile{-20, 0};      // no own pawn on the king's file
constexpr Score CastlingRight{12, 0};      // a classic side that may still castle
constexpr Score KingCentreEndgame{0, 12};  // per step toward the centre in the endgame

// Pawn structure.
constexpr Score Doubled{-10, -22};
constexpr Score Isolated{-8, -12};
constexpr std::array<Score, RANK_NB> Passed = {{
    {0, 0},
    {0, 8},
    {4, 14},
    {10, 28},
    {24, 52},
    {50, 95},
    {90, 150},
    {0, 0},
}};
// A variant side promotes to compound pieces: its passed pawns are worth more.
constexpr int VariantPassedPercent = 125;
constexpr Score PassedFreePath{6, 20};  // per passed pawn whose next square is empty
constexpr int PassedKingDistance = 6;   // eg, per step of king distance difference
constexpr Score DoubleStepRight{2, 2};  // an unmoved pawn keeps its tempo option

// Imbalance: knight movers gain, rook movers lose with many own pawns (per pawn
// above five), and the bishop pair.
constexpr Score LeaperPerPawn{3, 3};
constexpr Score RookMoverPerPawn{-4, -4};
constexpr Score BishopPair{30, 50};

constexpr int Tempo = 12;

}  // namespace maharajah::eval
