// Random Maharajah start positions for tests (shared/the rules in README.md).
//
// Why: the engine's move generator is compared with the reference generator
// (tests/reference) on many positions; custom-army start positions exercise the
// unusual rules (pawns on rank 1, variant double steps, compound pieces, mixed
// classic/variant games) far more than positions from ordinary chess.
#pragma once

#include <cstdint>
#include <string>

namespace testsupport {

// A random legal Maharajah start position as an 8-field FEN (White to move,
// halfmove 0, fullmove 1), built from two random armies:
//  - each side spends exactly 39 points (P1 N3 B3 R5 A6 C8 Q9 M13, king free on e1/e8),
//    at most 31 pieces besides the king;
//  - White fills ranks 1-4 from rank 1 outward (no piece on a farther rank while a
//    nearer rank has an empty square), Black ranks 8-5 likewise; pawns may stand on
//    any rank of the own half, including rank 1/8.
// mode 0: both armies random (each may or may not have a compound piece),
// mode 1: both armies contain a compound piece, mode 2: neither does,
// mode 3: exactly one side does (which one is random).
// Field 7: a side is variant iff its army has a compound piece. Field 8: every pawn of
// a variant side, and a classic side's pawns on rank 2/7. Castling: a classic side
// gets K/Q (k/q) for each rook on h1/a1 (h8/a8). Pairs where White is in check,
// Black's king is attacked, or White has no legal move are redrawn.
// Deterministic for a given (seed, mode).
std::string random_army_fen(std::uint64_t seed, int mode);

}  // namespace testsupport
