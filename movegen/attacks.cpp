#include "attacks.h"

#include <vector>

#include "movegen/magic_numbers.h"

namespace maharajah::attacks {

Magic RookMagics[SQUARE_NB];
Magic BishopMagics[SQUARE_NB];
Bitboard KnightAttacks[SQUARE_NB];
Bitboard KingAttacks[SQUARE_NB];
Bitboard PawnAttacks[COLOR_NB][SQUARE_NB];
Bitboard BetweenBB[SQUARE_NB][SQUARE_NB];
Bitboard LineBB[SQUARE_NB][SQUARE_NB];

namespace {

// 0x19000 rook entries + 0x1480 bishop entries with "fancy" (variable size) magics.
Bitboard RookTable[0x19000];
Bitboard BishopTable[0x1480];

constexpr int OrthDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int DiagDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

// Squares reachable by single (dx, dy) offsets: the leaper tables come from this.
Bitboard leaper(Square s, const int (*offsets)[2], int n) {
    Bitboard b = 0;
    for (int i = 0; i < n; ++i) {
        int f = file_of(s) + offsets[i][0], r = rank_of(s) + offsets[i][1];
        if (on_board(f, r)) b |= square_bb(make_square(File(f), Rank(r)));
    }
    return b;
}

// The occupancy bits that matter for a slider on s: its rays without the board edge.
Bitboard relevant_mask(bool orthogonal, Square s) {
    Bitboard edges = ((rank_bb(RANK_1) | rank_bb(RANK_8)) & ~rank_bb(rank_of(s))) |
                     ((file_bb(FILE_A) | file_bb(FILE_H)) & ~file_bb(file_of(s)));
    return slow_slider_attacks(orthogonal, s, 0) & ~edges;
}

constexpr int KnightOffsets[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int KingOffsets[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

// Fills one slider table from stored magic numbers (movegen/magic_numbers.h).
void init_magics(bool orthogonal, Magic* magics, Bitboard* table, const Bitboard* numbers) {
    Bitboard* next_table = table;
    for (int sq = SQ_A1; sq <= SQ_H8; ++sq) {
        Square s = Square(sq);
        Magic& m = magics[s];
        m.mask = relevant_mask(orthogonal, s);
        m.shift = 64 - popcount(m.mask);
        m.magic = numbers[s];
        m.table = next_table;
        next_table += std::size_t(1) << popcount(m.mask);
        // Enumerate every subset of the mask (Carry-Rippler) with its attack set.
        Bitboard b = 0;
        do {
            m.table[m.index(b)] = slow_slider_attacks(orthogonal, s, b);
            b = (b - m.mask) & m.mask;
        } while (b);
    }
}

void init_all() {
    for (int sq = SQ_A1; sq <= SQ_H8; ++sq) {
        Square s = Square(sq);
        KnightAttacks[s] = leaper(s, KnightOffsets, 8);
        KingAttacks[s] = leaper(s, KingOffsets, 8);
        PawnAttacks[WHITE][s] = pawn_attacks_bb<WHITE>(square_bb(s));
        PawnAttacks[BLACK][s] = pawn_attacks_bb<BLACK>(square_bb(s));
    }
    init_magics(true, RookMagics, RookTable, RookMagicNumbers);
    init_magics(false, BishopMagics, BishopTable, BishopMagicNumbers);

    for (int a = SQ_A1; a <= SQ_H8; ++a)
        for (int b = SQ_A1; b <= SQ_H8; ++b) {
            Square s1 = Square(a), s2 = Square(b);
            BetweenBB[s1][s2] = LineBB[s1][s2] = 0;
            if (s1 == s2) continue;
            for (bool orth : {true, false})
                if (slow_slider_attacks(orth, s1, 0) & square_bb(s2)) {
                    LineBB[s1][s2] = (slow_slider_attacks(orth, s1, 0) & slow_slider_attacks(orth, s2, 0)) |
                                     square_bb(s1) | square_bb(s2);
                    BetweenBB[s1][s2] =
                        slow_slider_attacks(orth, s1, square_bb(s2)) & slow_slider_attacks(orth, s2, square_bb(s1));
                }
        }
}

}  // namespace

void init() {
    static const bool done = (init_all(), true);
    (void)done;
}

Bitboard slow_slider_attacks(bool orthogonal, Square s, Bitboard occupied) {
    const int(*dirs)[2] = orthogonal ? OrthDirs : DiagDirs;
    Bitboard b = 0;
    for (int d = 0; d < 4; ++d) {
        int f = file_of(s), r = rank_of(s);
        while (true) {
            f += dirs[d][0];
            r += dirs[d][1];
            if (!on_board(f, r)) break;
            Bitboard sqb = square_bb(make_square(File(f), Rank(r)));
            b |= sqb;
            if (occupied & sqb) break;
        }
    }
    return b;
}

Bitboard find_magic(bool orthogonal, Square s, std::uint64_t seed) {
    const Bitboard mask = relevant_mask(orthogonal, s);
    const unsigned bits = popcount(mask);
    std::vector<Bitboard> occupancy, reference;
    Bitboard b = 0;
    do {
        occupancy.push_back(b);
        reference.push_back(slow_slider_attacks(orthogonal, s, b));
        b = (b - mask) & mask;
    } while (b);

    // Random sparse candidates until one maps every occupancy without a harmful
    // collision (two occupancies may share an entry only if their attacks agree).
    std::vector<Bitboard> table(std::size_t(1) << bits);
    std::vector<unsigned> stamp(table.size(), 0);
    std::uint64_t state = seed;
    auto next = [&state] {  // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545F4914F6CDD1DULL;
    };
    for (unsigned attempt = 1;; ++attempt) {
        Bitboard magic = next() & next() & next();
        if (popcount((mask * magic) >> 56) < 6) continue;
        bool ok = true;
        for (std::size_t i = 0; i < occupancy.size() && ok; ++i) {
            unsigned idx = unsigned((occupancy[i] * magic) >> (64 - bits));
            if (stamp[idx] != attempt) {
                stamp[idx] = attempt;
                table[idx] = reference[i];
            } else
                ok = table[idx] == reference[i];
        }
        if (ok) return magic;
    }
}

Bitboard slow_attacks(PieceType pt, Color c, Square s, Bitboard occupied) {
    if (pt == PAWN) {
        constexpr int WhiteCaps[2][2] = {{-1, 1}, {1, 1}}, BlackCaps[2][2] = {{-1, -1}, {1, -1}};
        return leaper(s, c == WHITE ? WhiteCaps : BlackCaps, 2);
    }
    Bitboard b = 0;
    if (has_part(pt, ORTH_SLIDER)) b |= slow_slider_attacks(true, s, occupied);
    if (has_part(pt, DIAG_SLIDER)) b |= slow_slider_attacks(false, s, occupied);
    if (has_part(pt, KNIGHT_LEAP)) b |= leaper(s, KnightOffsets, 8);
    if (has_part(pt, KING_STEP)) b |= leaper(s, KingOffsets, 8);
    return b;
}

Bitboard piece_attacks(PieceType pt, Color c, Square s, Bitboard occupied) {
    if (pt == PAWN) return pawn_attacks(c, s);
    Bitboard b = 0;
    unsigned parts = PieceTable[pt].parts;
    if (parts & ORTH) b |= rook_attacks(s, occupied);
    if (parts & DIAG) b |= bishop_attacks(s, occupied);
    if (parts & LEAP) b |= knight_attacks(s);
    if (parts & STEP) b |= king_attacks(s);
    return b;
}

}  // namespace maharajah::attacks
