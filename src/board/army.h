#pragma once
// Custom armies (the rules in README.md): the notation, the checks, the start position
// two armies make, and the army the engine fields for itself.
//
// Army notation: one side's half of the board written like FEN ranks, home rank
// first, files a to h, ranks separated by '/', at most four ranks. White's orthodox
// army is "RNBQKBNR/PPPPPPPP", Black's "rnbqkbnr/pppppppp" (rank 8, then rank 7).
// Letters may be in either case: the caller says whose army it is.

#include <array>
#include <cstdint>
#include <string>

#include "core/types.h"

namespace maharajah {

inline constexpr int ArmyPoints = 39;
inline constexpr int MaxArmyPieces = 31;  // 32 squares in a half, one is the king's

struct Army {
    // pieces[i][f]: piece type on the i-th rank from home (0 = home rank), file f.
    std::array<std::array<PieceType, 8>, 4> pieces{};
    int ranks = 0;
};

struct ArmyCheck {
    std::string error;  // empty when the army is valid
    int points = 0;
    int pieces = 0;        // the king not counted
    bool variant = false;  // has a compound piece
    Army army;
    bool ok() const { return error.empty(); }
};

// Checks an army against every rule of the rules in README.md; the error names the
// numbers or squares involved.
ArmyCheck check_army(Color c, const std::string& text);

// The army written in the notation, in c's letter case.
std::string army_to_string(Color c, const Army& army);

// The start position of two valid armies as a FEN in the engine's dialect (White to
// move; variant sides from compound pieces; castling for a classic side's rooks on
// the corners; every pawn unmoved). The position checks of section 6 are the caller's.
std::string army_start_fen(const Army& white, const Army& black);

// A valid army the engine would field, deterministic for a seed (same seed, same
// army everywhere) and independent of anything else, the opponent's army included.
std::string suggest_army(Color c, std::uint64_t seed);

}  // namespace maharajah
