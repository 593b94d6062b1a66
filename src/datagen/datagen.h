#pragma once
// `maharajah datagen`: self-play games of the engine from varied starts (standard
// openings, Chess960, suggested and random army pairs) at a soft node budget per move,
// written as game records (games.h) that `maharajah expand` turns into training
// positions. docs/training.md documents the command line.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "datagen/games.h"

namespace maharajah::datagen {

struct Config {
    std::uint64_t games = 10000;
    std::uint64_t nodes = 5000;    // soft budget per move: the iteration under way finishes
    std::uint64_t hard_nodes = 0;  // hard cap per move; 0: 8 x nodes
    int depth = 0;                 // per move, instead of or beside nodes; 0: none
    int threads = 1;
    std::uint64_t seed = 1;
    int hash_mb = 16;  // per thread
    std::string out = "maharajah.games";
    std::string book;              // standard openings, one per line ("startpos moves ..." or "fen ... [moves ...]")
    std::string eval = "default";  // EvalMode of the players: default, classical, nnue or hybrid
    std::string evalfile;          // a .nnue file for the players' net (empty: the built-in net)
    // Shares of the start kinds, in percent: standard chess, Chess960, suggested army
    // pairs, and random army pairs (the rest).
    int standard_share = 50, chess960_share = 10, suggested_share = 10;
    // A start whose verification search (verify_nodes) scores beyond verify_cp is
    // dropped as already decided; 0 keeps every start.
    int verify_cp = 500;
    std::uint64_t verify_nodes = 20000;
    // Adjudication: a win once the score stays at or beyond win_cp for one side over
    // win_plies plies in a row (or at once on a mate score); a draw once it stays within
    // draw_cp over draw_plies plies after ply draw_from; a draw at max_plies.
    int win_cp = 1500, win_plies = 6;
    int draw_cp = 10, draw_plies = 12, draw_from = 80;
    int max_plies = 400;

    std::uint64_t hard_cap() const { return hard_nodes ? hard_nodes : 8 * nodes; }
};

extern const char* const Usage;

// Parses the arguments after "datagen" (name value pairs). Empty on success.
std::string parse_config(const std::vector<std::string>& args, Config& config);

// Plays the games and writes (or resumes) the file; progress and errors go to `log`.
// Returns a process exit code.
int run(const Config& config, std::ostream& log);

// One game's start (exposed for tests), drawn from the generator state.
struct Start {
    StartKind kind = START_STANDARD;
    std::string white_army, black_army;  // army starts only
    std::string fen;                     // after the random plies
};
Start make_start(const Config& config, const std::vector<std::string>& book, std::uint64_t& rng);

// The Chess960 start position number n (0-959, the standard numbering; 518 is the
// ordinary start) as a FEN with X-FEN castling rights.
std::string chess960_fen(int n);

// A random valid 39-point army for c: with a compound piece when `variant`, else only
// classic pieces. Deterministic for the generator state.
std::string random_army(int color, bool variant, std::uint64_t& rng);

// `maharajah expand [out FILE] FILE...`: game files to 64-byte position records
// (standard output without `out`). Returns a process exit code.
int expand(const std::vector<std::string>& args, std::ostream& out, std::ostream& log);

}  // namespace maharajah::datagen
