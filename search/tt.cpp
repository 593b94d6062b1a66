#include "search/tt.h"

#include <cstring>

namespace maharajah::search {

void TTEntry::save(Key k, Value v, bool pv, Bound b, int d, Move m, Value ev, std::uint8_t generation) {
    std::uint16_t k16 = std::uint16_t(k >> 48);
    // Keep the old move when the new search has none for the same position.
    if (m || k16 != key16) move16 = m;
    // Overwrite unless the entry holds information about the same position that is more
    // than four plies deeper (PV nodes count two plies more). The new result is usually
    // the better one: it saw more of the tree's current bounds.
    if (b == BOUND_EXACT || k16 != key16 || d + 2 * pv > depth() - 4 || (genbound & 0xF8) != generation) {
        key16 = k16;
        value16 = std::int16_t(v);
        eval16 = std::int16_t(ev);
        depth8 = std::uint8_t(d + DepthOffset);
        genbound = std::uint8_t(generation | (pv ? 4 : 0) | b);
    }
}

void TranspositionTable::resize(std::size_t mb) {
    mb = mb < 1 ? 1 : mb;
    const std::size_t clusters = mb * 1024 * 1024 / sizeof(Cluster);
    table_ = make_large_array<Cluster>(clusters);  // on bad_alloc the old table stays
    clusters_ = clusters;
    clear();
}

void TranspositionTable::clear() {
    std::memset(static_cast<void*>(table_.get()), 0, clusters_ * sizeof(Cluster));
    generation_ = 0;
}

TTEntry* TranspositionTable::probe(Key key, bool& found) const {
    Cluster& c = table_[index(key)];
    std::uint16_t k16 = std::uint16_t(key >> 48);
    for (TTEntry& e : c.entry)
        if (e.key16 == k16 && e.depth8) {
            // Refresh the generation so the entry survives this search.
            e.genbound = std::uint8_t(generation_ | (e.genbound & 7));
            return found = true, &e;
        }
    found = false;
    // Replace the shallowest entry, preferring ones from older searches.
    TTEntry* replace = &c.entry[0];
    auto worth = [this](const TTEntry& e) {
        return int(e.depth8) - 8 * ((263 + generation_ - (e.genbound & 0xF8)) & 0xF8) / 8;
    };
    for (TTEntry& e : c.entry)
        if (worth(e) < worth(*replace)) replace = &e;
    return replace;
}

int TranspositionTable::hashfull() const {
    int used = 0;
    std::size_t n = clusters_ < 334 ? clusters_ : 334;
    for (std::size_t i = 0; i < n; ++i)
        for (const TTEntry& e : table_[i].entry) used += e.depth8 && (e.genbound & 0xF8) == generation_;
    return int(used * 1000 / (n * 3));
}

}  // namespace maharajah::search
