#pragma once
// The network's vector kernels, one instruction set per build, side by side: AVX2
// (x86-64-v3 and native builds on such CPUs), SSE2 (x86-64, x86-64-v2), NEON (AArch64),
// WebAssembly SIMD, and the portable loops every path must match exactly (tests compare
// them). The build's arch (CMake's MAHARAJAH_ARCH) decides through the compiler's own
// macros; MAHARAJAH_NNUE_SCALAR (the "generic" arch) keeps the portable loops only.
// Used by eval/nnue.cpp; tests call both paths of each kernel.

#include <algorithm>
#include <cstdint>

#if !defined(MAHARAJAH_NNUE_SCALAR)
#if defined(__AVX2__)
#include <immintrin.h>
#define MAHARAJAH_SIMD_AVX2 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#define MAHARAJAH_SIMD_SSE2 1
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#define MAHARAJAH_SIMD_NEON 1
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define MAHARAJAH_SIMD_WASM 1
#endif
#endif

namespace maharajah::nnue::simd {

#if defined(MAHARAJAH_SIMD_AVX2)
inline constexpr const char* Name = "avx2";
#elif defined(MAHARAJAH_SIMD_SSE2)
inline constexpr const char* Name = "sse2";
#elif defined(MAHARAJAH_SIMD_NEON)
inline constexpr const char* Name = "neon";
#elif defined(MAHARAJAH_SIMD_WASM)
inline constexpr const char* Name = "wasm-simd128";
#else
inline constexpr const char* Name = "scalar";
#endif
inline constexpr bool Compiled = Name[0] != 's' || Name[1] != 'c';

// Sixteen int16 lanes: one AVX2 register or two 128-bit ones. Additions wrap in 16 bits,
// exactly as the portable loop's casts do.
struct Vec16 {
#if defined(MAHARAJAH_SIMD_AVX2)
    __m256i v;
    static Vec16 load(const std::int16_t* p) { return {_mm256_load_si256(reinterpret_cast<const __m256i*>(p))}; }
    void store(std::int16_t* p) const { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
    Vec16 operator+(Vec16 o) const { return {_mm256_add_epi16(v, o.v)}; }
    Vec16 operator-(Vec16 o) const { return {_mm256_sub_epi16(v, o.v)}; }
#elif defined(MAHARAJAH_SIMD_SSE2)
    __m128i lo, hi;
    static Vec16 load(const std::int16_t* p) {
        const __m128i* q = reinterpret_cast<const __m128i*>(p);
        return {_mm_load_si128(q), _mm_load_si128(q + 1)};
    }
    void store(std::int16_t* p) const {
        __m128i* q = reinterpret_cast<__m128i*>(p);
        _mm_store_si128(q, lo);
        _mm_store_si128(q + 1, hi);
    }
    Vec16 operator+(Vec16 o) const { return {_mm_add_epi16(lo, o.lo), _mm_add_epi16(hi, o.hi)}; }
    Vec16 operator-(Vec16 o) const { return {_mm_sub_epi16(lo, o.lo), _mm_sub_epi16(hi, o.hi)}; }
#elif defined(MAHARAJAH_SIMD_NEON)
    int16x8_t lo, hi;
    static Vec16 load(const std::int16_t* p) { return {vld1q_s16(p), vld1q_s16(p + 8)}; }
    void store(std::int16_t* p) const {
        vst1q_s16(p, lo);
        vst1q_s16(p + 8, hi);
    }
    Vec16 operator+(Vec16 o) const { return {vaddq_s16(lo, o.lo), vaddq_s16(hi, o.hi)}; }
    Vec16 operator-(Vec16 o) const { return {vsubq_s16(lo, o.lo), vsubq_s16(hi, o.hi)}; }
#elif defined(MAHARAJAH_SIMD_WASM)
    v128_t lo, hi;
    static Vec16 load(const std::int16_t* p) { return {wasm_v128_load(p), wasm_v128_load(p + 8)}; }
    void store(std::int16_t* p) const {
        wasm_v128_store(p, lo);
        wasm_v128_store(p + 8, hi);
    }
    Vec16 operator+(Vec16 o) const { return {wasm_i16x8_add(lo, o.lo), wasm_i16x8_add(hi, o.hi)}; }
    Vec16 operator-(Vec16 o) const { return {wasm_i16x8_sub(lo, o.lo), wasm_i16x8_sub(hi, o.hi)}; }
#endif
};

// out[i] = in[i] - sum of removed rows + sum of added rows, for i < n (n a multiple of
// 16, every pointer 64-byte aligned). `out` may be `in`. Each block of 16 stays in
// registers while all the rows pass over it.
inline void update_rows(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* removed,
                        int removed_count, const std::int16_t* const* added, int added_count, int n,
                        bool vectorised = true) {
#if defined(MAHARAJAH_SIMD_AVX2) || defined(MAHARAJAH_SIMD_SSE2) || defined(MAHARAJAH_SIMD_NEON) || \
    defined(MAHARAJAH_SIMD_WASM)
    if (vectorised) {
        for (int i = 0; i < n; i += 16) {
            Vec16 v = Vec16::load(in + i);
            for (int k = 0; k < removed_count; ++k) v = v - Vec16::load(removed[k] + i);
            for (int k = 0; k < added_count; ++k) v = v + Vec16::load(added[k] + i);
            v.store(out + i);
        }
        return;
    }
#endif
    (void)vectorised;
    for (int i = 0; i < n; ++i) {
        std::int16_t v = in[i];
        for (int k = 0; k < removed_count; ++k) v = std::int16_t(v - removed[k][i]);
        for (int k = 0; k < added_count; ++k) v = std::int16_t(v + added[k][i]);
        out[i] = v;
    }
}

// The output layer's sum: over both perspectives' n accumulators a (us, then them),
// clamp(a, 0, qa)^2 * w, with w the 2n output weights. Contract (the loader checks it):
// |w| <= 127 and qa <= 255, so c * w fits 16 bits and a 32-bit lane adds at most n / 2
// products (c * w) * c: below 2^31 for n <= 512.
inline std::int64_t output_sum(const std::int16_t* us, const std::int16_t* them, const std::int16_t* w, int n,
                               std::int16_t qa, bool vectorised = true) {
    const std::int16_t* sides[2] = {us, them};
    std::int64_t sum = 0;
#if defined(MAHARAJAH_SIMD_AVX2)
    if (vectorised) {
        const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(qa);
        __m256i total = _mm256_setzero_si256();
        for (int s = 0; s < 2; ++s)
            for (int i = 0; i < n; i += 16) {
                __m256i c = _mm256_load_si256(reinterpret_cast<const __m256i*>(sides[s] + i));
                c = _mm256_min_epi16(_mm256_max_epi16(c, zero), top);
                const __m256i wv = _mm256_load_si256(reinterpret_cast<const __m256i*>(w + s * n + i));
                total = _mm256_add_epi32(total, _mm256_madd_epi16(_mm256_mullo_epi16(c, wv), c));
            }
        alignas(32) std::int32_t lanes[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), total);
        for (std::int32_t lane : lanes) sum += lane;
        return sum;
    }
#elif defined(MAHARAJAH_SIMD_SSE2)
    if (vectorised) {
        const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(qa);
        __m128i total = _mm_setzero_si128();
        for (int s = 0; s < 2; ++s)
            for (int i = 0; i < n; i += 8) {
                __m128i c = _mm_load_si128(reinterpret_cast<const __m128i*>(sides[s] + i));
                c = _mm_min_epi16(_mm_max_epi16(c, zero), top);
                const __m128i wv = _mm_load_si128(reinterpret_cast<const __m128i*>(w + s * n + i));
                total = _mm_add_epi32(total, _mm_madd_epi16(_mm_mullo_epi16(c, wv), c));
            }
        alignas(16) std::int32_t lanes[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), total);
        for (std::int32_t lane : lanes) sum += lane;
        return sum;
    }
#elif defined(MAHARAJAH_SIMD_NEON)
    if (vectorised) {
        const int16x8_t zero = vdupq_n_s16(0), top = vdupq_n_s16(qa);
        int32x4_t total = vdupq_n_s32(0);
        for (int s = 0; s < 2; ++s)
            for (int i = 0; i < n; i += 8) {
                const int16x8_t c = vminq_s16(vmaxq_s16(vld1q_s16(sides[s] + i), zero), top);
                const int16x8_t cw = vmulq_s16(c, vld1q_s16(w + s * n + i));
                total = vmlal_s16(total, vget_low_s16(cw), vget_low_s16(c));
                total = vmlal_high_s16(total, cw, c);
            }
        return vaddlvq_s32(total);  // widened: the four lanes together may pass 2^31
    }
#elif defined(MAHARAJAH_SIMD_WASM)
    if (vectorised) {
        const v128_t zero = wasm_i16x8_splat(0), top = wasm_i16x8_splat(qa);
        v128_t total = wasm_i32x4_splat(0);
        for (int s = 0; s < 2; ++s)
            for (int i = 0; i < n; i += 8) {
                v128_t c = wasm_v128_load(sides[s] + i);
                c = wasm_i16x8_min(wasm_i16x8_max(c, zero), top);
                const v128_t wv = wasm_v128_load(w + s * n + i);
                total = wasm_i32x4_add(total, wasm_i32x4_dot_i16x8(wasm_i16x8_mul(c, wv), c));
            }
        return std::int64_t(wasm_i32x4_extract_lane(total, 0)) + wasm_i32x4_extract_lane(total, 1) +
               wasm_i32x4_extract_lane(total, 2) + wasm_i32x4_extract_lane(total, 3);
    }
#endif
    (void)vectorised;
    for (int s = 0; s < 2; ++s)
        for (int i = 0; i < n; ++i) {
            const std::int64_t c = std::clamp<int>(sides[s][i], 0, qa);
            sum += c * c * w[s * n + i];
        }
    return sum;
}

}  // namespace maharajah::nnue::simd
