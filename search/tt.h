#pragma once
// The transposition table, shared by all search threads (lock-free: a torn entry can
// only cost a wrong hint, since a stored move is used only if it is in the legal list).

#include <cstddef>
#include <cstdint>
#include <memory>

#include "board/position.h"
#include "core/memory.h"

namespace maharajah::search {

enum Bound : std::uint8_t { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = BOUND_UPPER | BOUND_LOWER };

/*
 * TTEntry: 10 bytes.
 *   key16    upper 16 bits of the position key (the index uses the lower bits)
 *   move     best or refutation move (0 if none)
 *   value    search value, mate scores made ply-relative to this node
 *   eval     static evaluation
 *   depth8   depth + DepthOffset (0 = empty)
 *   genbound generation (upper 6 bits, advanced per search) | pv flag (bit 2) | bound (2 bits)
 * Three entries and 2 padding bytes make a 32-byte cluster.
 */
struct TTEntry {
    Move move() const { return Move(move16); }
    Value value() const { return value16; }
    Value eval() const { return eval16; }
    int depth() const { return int(depth8) - DepthOffset; }
    Bound bound() const { return Bound(genbound & 3); }
    bool is_pv() const { return genbound & 4; }
    void save(Key k, Value v, bool pv, Bound b, int d, Move m, Value ev, std::uint8_t generation);

    static constexpr int DepthOffset = 8;

    std::uint16_t key16;
    std::uint16_t move16;
    std::int16_t value16;
    std::int16_t eval16;
    std::uint8_t depth8;
    std::uint8_t genbound;
};

class TranspositionTable {
public:
    TranspositionTable() { resize(16); }
    // Resizes to `mb` megabytes (cleared). Throws std::bad_alloc if memory is short.
    void resize(std::size_t mb);
    void clear();
    void new_search() { generation_ += 8; }
    // Returns the entry for key (found) or the one to replace.
    TTEntry* probe(Key key, bool& found) const;
    void prefetch(Key key) const { __builtin_prefetch(&table_[index(key)]); }
    // Permille of entries used by the current search (UCI hashfull).
    int hashfull() const;
    std::uint8_t generation() const { return generation_; }

private:
    std::size_t index(Key key) const {
        return std::size_t((unsigned __int128)(key & 0xFFFFFFFFFFFFULL) * clusters_ >> 48);
    }
    struct Cluster {
        TTEntry entry[3];
        char padding[2];
    };
    static_assert(sizeof(Cluster) == 32);
    LargePtr<Cluster[]> table_;  // huge pages where the system gives them (core/memory.h)
    std::size_t clusters_ = 0;
    std::uint8_t generation_ = 0;
};

// Mate scores are stored relative to the node, so they stay right at any depth.
inline Value value_to_tt(Value v, int ply) {
    return v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= VALUE_MATED_IN_MAX_PLY ? v - ply : v;
}
// The stored value seen from a node `ply` plies below the root whose fifty-move counter
// is `rule50`. The key leaves the counter out, so a mate stored from another visit may
// come too late here: a mate d plies away is sure only while rule50 + d <= 100 (the mated
// position may stand at 100, any position before it reaching 100 is a draw). A later
// one returns just inside the mate bounds: a won (or lost) position, no sure mate.
inline Value value_from_tt(Value v, int ply, int rule50) {
    if (v == VALUE_NONE) return v;
    if (v >= VALUE_MATE_IN_MAX_PLY) return VALUE_MATE - v > 100 - rule50 ? VALUE_MATE_IN_MAX_PLY - 1 : v - ply;
    if (v <= VALUE_MATED_IN_MAX_PLY) return VALUE_MATE + v > 100 - rule50 ? VALUE_MATED_IN_MAX_PLY + 1 : v + ply;
    return v;
}

}  // namespace maharajah::search
