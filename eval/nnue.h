#pragma once
// The neural-network evaluation (NNUE): 1,152 piece-square inputs per perspective
// (own and enemy pieces of all nine kinds on 64 squares, the board flipped for Black),
// a shared feature transformer into `Hidden` int16 accumulators, SCReLU, and one of
// eight output buckets chosen by the number of men on the board. scripts/nnue/README.md
// describes the training and the file format; the loader here checks every field.
//
// The accumulators are updated incrementally: the search pushes each move onto an
// AccumulatorStack, and an evaluation brings the top entry up to date from the nearest
// computed one (or refreshes it from the board), lazily, only where a node evaluates.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "board/position.h"

namespace maharajah::nnue {

// King buckets: each perspective's 1,152 features are those of the bucket its own king
// stands in, so the net can weigh the pieces around a king castled short, castled long,
// in the centre or out in the open apart. The built-in net's input count fixes how
// many (CMake reads it like the width); the layouts are those of scripts/nnue/nnue_format.py.
#ifndef MAHARAJAH_NNUE_KING_BUCKETS
#error "MAHARAJAH_NNUE_KING_BUCKETS is set by CMakeLists.txt from the built-in net's header"
#endif
inline constexpr int KingBuckets = MAHARAJAH_NNUE_KING_BUCKETS;
static_assert(KingBuckets == 1 || KingBuckets == 4, "king buckets: 1 or 4 (the layouts below)");
inline constexpr int FeaturesPerBucket = 2 * 9 * 64;
inline constexpr int Inputs = KingBuckets * FeaturesPerBucket;
// The width is the built-in net's: CMake reads it from the net file (eval/nets/default.nnue
// unless MAHARAJAH_EVALFILE names another), so all objects of a build agree on it.
#ifndef MAHARAJAH_NNUE_HIDDEN
#error "MAHARAJAH_NNUE_HIDDEN is set by CMakeLists.txt from the built-in net's header"
#endif
inline constexpr int Hidden = MAHARAJAH_NNUE_HIDDEN;
// The SIMD paths take 16 neurons at a time; a 32-bit lane of the WebAssembly output sum
// adds Hidden / 2 products of up to 255 * 127 * 255, which fits below 2^31 up to 512.
static_assert(Hidden >= 16 && Hidden % 16 == 0 && Hidden <= 512, "hidden size: a multiple of 16 from 16 to 512");
inline constexpr int Buckets = 8;
inline constexpr int QA = 255, QB = 256, Scale = 400;
inline constexpr std::uint32_t FormatVersion = 1;

struct Network {
    alignas(64) std::int16_t feature_weights[Inputs * Hidden];
    alignas(64) std::int16_t feature_bias[Hidden];
    alignas(64) std::int16_t output_weights[Buckets][2 * Hidden];
    std::int32_t output_bias[Buckets];
    std::uint64_t hash = 0;
    std::string description;
};

// Reads a net file's bytes. Returns an empty string on success, else what is wrong
// (magic, version, dimensions, size, hash, weights out of range); `net` is then unset.
std::string load(const std::string& bytes, Network& net);

// Nets are shared read-only: every engine (a UCI loop, a library handle, a datagen run)
// holds the one it evaluates with, and a search holds it for as long as it runs, so one
// engine replacing its net never touches another's, nor a running search.
using NetPtr = std::shared_ptr<const Network>;
inline constexpr const char* BuiltinName = "<built-in>";
// The net built into the binary (never freed), and its file as built in.
const Network& builtin();
std::string builtin_bytes();
// Loads a net file into *out. Returns an empty string on success, else why not (*out
// unchanged).
std::string load_file(const std::string& path, NetPtr& out);

// The bucket of perspective p's king on ksq (squares from p's side: rank 1 its back rank).
// Four buckets: the back two ranks split a-c (castled long), d-e (centre), f-h
// (castled short); anywhere else.
constexpr int king_bucket(Color p, Square ksq) {
    if constexpr (KingBuckets == 1) {
        (void)p, (void)ksq;
        return 0;
    } else {
        const int s = p == WHITE ? int(ksq) : int(ksq) ^ 56;
        const int rank = s / 8, file = s % 8;
        return rank >= 2 ? 3 : file <= 2 ? 0 : file <= 4 ? 1 : 2;
    }
}

// The feature of a piece on a square, from perspective p whose king is in bucket kb.
constexpr int feature(Color p, Piece pc, Square s, int kb) {
    return kb * FeaturesPerBucket + ((color_of(pc) != p) * 9 + (type_of(pc) - 1)) * 64 + (p == WHITE ? s : s ^ 56);
}
constexpr int bucket_of(int men) { return std::min((men - 2) / 8, Buckets - 1); }

struct alignas(64) Accumulator {
    std::int16_t values[COLOR_NB][Hidden];
    bool computed[COLOR_NB] = {false, false};
};

// Computes both perspectives from the board.
void refresh(const Position& pos, const Network& net, Accumulator& acc);

// The output layer: the side to move's view, in centipawns. `vectorised` false forces
// the portable path (tests compare the two).
Value output(const Network& net, const Accumulator& acc, Color stm, int bucket, bool vectorised = true);
bool simd_compiled();     // whether this build has vectorised kernels (eval/nnue_simd.h)
const char* simd_name();  // which: "avx2", "sse2", "neon", "wasm-simd128" or "scalar"

// Evaluates from scratch (no stack): for `eval`, tests and callers outside the search.
Value evaluate(const Position& pos, const Network& net = builtin());

// What a move changed on the board: up to two men removed and two added.
struct Delta {
    int removed = 0, added = 0;
    Piece removed_piece[2], added_piece[2];
    Square removed_square[2], added_square[2];
};
// The change made by m, read from the position after m was made.
Delta delta_of(const Position& after, Move m);

class AccumulatorStack {
public:
    AccumulatorStack();
    // The root: nothing computed yet.
    void reset();
    // After pos.do_move(m): one entry more, computed when first needed.
    void push(const Position& after, Move m);
    void push_null();
    void pop() { --top_; }
    // The evaluation of pos, which must be the position the stack's top describes.
    Value evaluate(const Position& pos, const Network& net = builtin());
    // The top entry brought up to date (tests compare it with a refresh).
    const Accumulator& update(const Position& pos, const Network& net);

private:
    struct Entry {
        Accumulator acc;
        Delta delta;
        int king_bucket[COLOR_NB] = {0, 0};  // each perspective's, set by push (the root's by a refresh)
    };
    // A refresh starts from the accumulator this stack last computed for the same
    // perspective and king bucket, and adds and removes only the men that differ from
    // the board it was computed for: a king stepping into another bucket costs a few
    // rows instead of one per man (with one bucket, refreshes only follow long paths).
    struct CachedRefresh {
        alignas(64) std::int16_t values[Hidden];
        Bitboard by_piece[COLOR_NB][PIECE_TYPE_NB];
        const Network* net = nullptr;  // none yet (or reset): a full refresh fills it
    };
    void refresh_cached(const Position& pos, const Network& net, Accumulator& acc, Color p, int kb);

    std::vector<Entry> entries_;
    std::vector<CachedRefresh> cache_;  // [perspective * KingBuckets + bucket]
    int top_ = 0;
};

}  // namespace maharajah::nnue
