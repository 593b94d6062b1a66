#pragma once
// What the fuzz targets share: a check that reports what failed, with the input's
// context, and stops the run so that libFuzzer saves the input as a crash file.

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace fuzzcheck {

// Stops the run when `ok` is false; `what` and `context` go to stderr first.
inline void require(bool ok, const char* what, const std::string& context = {}) {
    if (ok) return;
    std::fprintf(stderr, "fuzz check failed: %s\n  %s\n", what, context.c_str());
    __builtin_trap();
}

// True when the environment variable is set to something other than "" or "0".
inline bool env_flag(const char* name) {
    const char* v = std::getenv(name);
    return v && *v && std::string(v) != "0";
}

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace fuzzcheck
