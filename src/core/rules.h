#pragma once
// The per-side rules record (the rules in README.md). Decided once from the starting
// armies and never changed during a game; move generation reads it.

#include <array>

#include "core/bitboard.h"
#include "core/types.h"

namespace maharajah {

struct SideRules {
    bool variant = false;
    // Promotion choices in the order the generator emits them (strongest first).
    std::array<PieceType, 7> promotions{QUEEN, ROOK, BISHOP, KNIGHT};
    int promotion_count = 4;
    // Squares from which an unmoved pawn of this side may double-step.
    Bitboard double_step_from = 0;

    bool can_castle() const { return !variant; }

    static SideRules classic(Color c) {
        SideRules r;
        r.double_step_from = rank_bb(relative_rank(c, RANK_2));
        return r;
    }
    static SideRules variant_rules(Color) {
        SideRules r;
        r.variant = true;
        r.promotions = {QUEEN, MAHARAJA, CHANCELLOR, ARCHBISHOP, ROOK, BISHOP, KNIGHT};
        r.promotion_count = 7;
        r.double_step_from = ~Bitboard(0);
        return r;
    }
    static SideRules make(Color c, bool variant) { return variant ? variant_rules(c) : classic(c); }
};

using Rules = std::array<SideRules, COLOR_NB>;

}  // namespace maharajah
