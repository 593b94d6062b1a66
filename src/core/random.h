#pragma once
// splitmix64: a small, fixed, portable generator. Zobrist keys and suggested armies use
// it so that their values are the same on every machine (no std::rand, no
// implementation-defined distributions).

#include <cstdint>

namespace maharajah {

inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace maharajah
