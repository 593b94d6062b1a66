#pragma once
// `maharajah datagen`: self-play games of the engine at a fixed node (or depth) budget
// from varied starts, written as training records (packed.h). README.md, "Training
// data", documents the command line.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace maharajah::datagen {

struct Config {
    std::uint64_t games = 1000;
    std::uint64_t nodes = 5000;  // per move; 0: depth only
    int depth = 0;               // per move; 0: nodes only
    int threads = 1;
    std::uint64_t seed = 1;
    int hash_mb = 16;            // per thread
    std::string out = "maharajah.data";
    std::string book;            // standard openings, one per line ("startpos moves ..." or "fen ... [moves ...]")
    std::string eval = "default";  // EvalMode of the players: default, classical, nnue or hybrid
    std::string evalfile;          // a .nnue file for the players' net (empty: the built-in net)
    // Shares of the start kinds, in percent: standard chess, suggested army pairs, and
    // random army pairs (the rest).
    int standard_share = 40, suggested_share = 15;
};

extern const char* const Usage;

// Parses the arguments after "datagen" (name value pairs). Empty on success.
std::string parse_config(const std::vector<std::string>& args, Config& config);

// Plays the games and writes the file; progress and errors go to `log`. Returns a
// process exit code.
int run(const Config& config, std::ostream& log);

// One game's start: a FEN and the random plies played from it, chosen by the game's
// seed (exposed for tests).
struct Start {
    std::string kind;  // "standard", "suggested" or "random <cc|cv|vc|vv>"
    std::string white_army, black_army;  // army starts only
    std::string fen;   // after the random plies
};
Start make_start(const Config& config, const std::vector<std::string>& book, std::uint64_t game_seed);

// A random valid 39-point army for c: with a compound piece when `variant`, else only
// classic pieces. Deterministic for the generator state.
std::string random_army(int color, bool variant, std::uint64_t& rng);

}  // namespace maharajah::datagen
