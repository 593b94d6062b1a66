#pragma once
// Large allocations for the tables the search reads at random places: the transposition
// table and the net's feature rows. They are aligned to 2 MiB and, on Linux, marked for
// transparent huge pages, so a random probe misses the TLB far less often (with 4 KiB
// pages a 16 MiB table spans 4,096 pages, more than the TLB holds). Elsewhere, or when
// the kernel declines, they are ordinary memory: only the speed differs.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#if defined(MADV_HUGEPAGE)
#define MAHARAJAH_HUGE_PAGES 1
#endif
#endif

namespace maharajah {

inline constexpr std::size_t LargePageSize = std::size_t(2) << 20;

// Uninitialised memory for `bytes`; throws std::bad_alloc when there is none.
inline void* large_alloc(std::size_t bytes) {
#ifdef MAHARAJAH_HUGE_PAGES
    const std::size_t align = bytes >= LargePageSize ? LargePageSize : 64;
#else
    const std::size_t align = 64;  // no huge pages to ask for: do not pad to 2 MiB
#endif
    const std::size_t size = (bytes + align - 1) / align * align;  // aligned_alloc needs a multiple
    void* p = std::aligned_alloc(align, size == 0 ? align : size);
    if (!p) throw std::bad_alloc();
#ifdef MAHARAJAH_HUGE_PAGES
    if (align == LargePageSize) madvise(p, size, MADV_HUGEPAGE);  // a hint: failure is harmless
#endif
    return p;
}

inline void large_free(void* p) { std::free(p); }

template <class T>
struct LargeDelete {
    void operator()(T* p) const {
        p->~T();
        large_free(p);
    }
};
template <class T>
struct LargeDelete<T[]> {
    static_assert(std::is_trivially_destructible_v<T>);
    void operator()(T* p) const { large_free(p); }
};

template <class T>
using LargePtr = std::unique_ptr<T, LargeDelete<T>>;

// One T, value-initialised, in large memory.
template <class T>
LargePtr<T> make_large() {
    void* m = large_alloc(sizeof(T));
    try {
        return LargePtr<T>(::new (m) T());
    } catch (...) {
        large_free(m);
        throw;
    }
}

// n trivially constructible Ts in large memory (contents unspecified: callers clear them).
template <class T>
LargePtr<T[]> make_large_array(std::size_t n) {
    static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>);
    return LargePtr<T[]>(static_cast<T*>(large_alloc(n * sizeof(T))));
}

}  // namespace maharajah
