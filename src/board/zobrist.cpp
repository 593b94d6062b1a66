#include "board/zobrist.h"

#include "core/random.h"

namespace maharajah::zobrist {

Key Psq[PIECE_NB][SQUARE_NB];
Key EnPassant[FILE_NB];
Key Castling[CASTLING_RIGHT_NB];
Key DoubleStep[SQUARE_NB];
Key Side;

namespace {

// A fixed seed, so keys (and any stored hashes) are the same everywhere.
std::uint64_t next(std::uint64_t& s) { return splitmix64(s); }

void init_all() {
    std::uint64_t s = 0x4D61686172616A61ULL;  // "Maharaja"
    for (auto& row : Psq)
        for (Key& k : row) k = next(s);
    for (Key& k : EnPassant) k = next(s);
    // Castling keys are XORs of one key per right, so each subset has its own key.
    Key right[4];
    for (Key& k : right) k = next(s);
    for (int cr = 0; cr < CASTLING_RIGHT_NB; ++cr) {
        Castling[cr] = 0;
        for (int i = 0; i < 4; ++i)
            if (cr & (1 << i)) Castling[cr] ^= right[i];
    }
    for (Key& k : DoubleStep) k = next(s);
    Side = next(s);
}

}  // namespace

void init() {
    static const bool done = (init_all(), true);
    (void)done;
}

}  // namespace maharajah::zobrist
