#pragma once
// The engine's name and version, from one place: CMake's project version plus the git
// commit when built from a git checkout ("0.3-1a2b3c4d", "-dirty" with local changes).
// `uci`, `--version` and the library API all read it here.

namespace maharajah {

inline constexpr const char* EngineName = "Maharajah";
inline constexpr const char* EngineAuthor = "the Maharajah developers";

// Defined in a file generated at build time (scripts/tools/version.cmake).
const char* engine_version();

}  // namespace maharajah
