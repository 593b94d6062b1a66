/* libmaharajah: the Maharajah chess engine as a C library (C99; usable from C++).
 *
 * Two parts:
 *  - An engine handle that speaks the engine's text protocol (UCI plus the referee and
 *    army commands of docs/protocol.md): send it one line at a time; every line the engine
 *    writes reaches a callback. `go` searches on the engine's own thread, so
 *    mh_engine_send returns at once and the bestmove arrives later through the callback.
 *  - Direct calls for rules screens (legal moves, game status, army check and suggest,
 *    FEN after moves, flag fall) that need no engine handle and no text parsing.
 *
 * Positions in the direct calls are written like the arguments of the `position`
 * command: "startpos", "startpos moves e2e4 e7e5", "fen <FEN> [moves ...]",
 * "army <white-army> <black-army> [moves ...]".
 *
 * Strings returned through a `char** out` parameter are allocated by the library and
 * belong to the caller, who frees them with mh_free(). On success *out holds the
 * answer; on failure it holds the error message (one line, no trailing newline).
 * *out is set to NULL only for MH_ERR_ARGUMENT when `out` itself is NULL, and for
 * MH_ERR_MEMORY. Strings returned directly (the version strings) are static: never
 * free them.
 *
 * Threads: the direct calls and the version calls may be called from any thread at
 * any time (they share no state). One engine handle must not be used by two threads
 * at once (serialise mh_engine_send and mh_engine_destroy on it); separate handles are
 * independent and may be used from different threads. The callback of a handle is
 * called on the thread that called mh_engine_send, or on that handle's search thread;
 * never twice at the same time for one handle. Inside the callback, do not call
 * mh_engine_send or mh_engine_destroy on the same handle (it would wait for itself);
 * copy the line and act on it after the callback has returned. No exception crosses
 * this interface.
 */
#ifndef MAHARAJAH_H
#define MAHARAJAH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define MH_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define MH_EXPORT __attribute__((visibility("default")))
#else
#define MH_EXPORT
#endif

/* The version of this interface (semantic versioning: a new major breaks callers). */
#define MH_API_VERSION_MAJOR 1
#define MH_API_VERSION_MINOR 0
#define MH_API_VERSION_PATCH 0

/* Results of every call that can fail. */
typedef enum mh_result {
    MH_OK = 0,
    MH_QUIT = 1,           /* mh_engine_send: the line was `quit` (the handle stays usable) */
    MH_ERR_ARGUMENT = -1,  /* a NULL pointer or a value out of range */
    MH_ERR_POSITION = -2,  /* the position text: a bad FEN or army, or an illegal move */
    MH_ERR_SQUARE = -3,    /* a square that is not a1..h8, or one without a piece */
    MH_ERR_ARMY = -4,      /* mh_army_check: the army breaks a rule (the reason in *out) */
    MH_ERR_COMMAND = -5,   /* mh_engine_send: the engine answered "info string error: ..." */
    MH_ERR_MEMORY = -6     /* out of memory */
} mh_result;

/* Colours, passed as int (any other value is MH_ERR_ARGUMENT). */
enum { MH_WHITE = 0, MH_BLACK = 1 };

/* "1.0.0": the version of this interface (MH_API_VERSION_*). Static string. */
MH_EXPORT const char* mh_library_version(void);
/* "Maharajah 0.3-1a2b3c4d": the engine's name and version, as `uci` reports it. Static. */
MH_EXPORT const char* mh_engine_version(void);

/* Frees a string the library returned through `char** out`. NULL is allowed. */
MH_EXPORT void mh_free(char* text);

/* ---- Engine handles ----------------------------------------------------------- */

typedef struct mh_engine mh_engine;

/* Receives one output line (no newline). `line` is valid only during the call. */
typedef void (*mh_line_callback)(void* user, const char* line);

/* A new engine (its own position, options, hash table and threads). `on_line` may be
 * NULL (output is dropped). Returns NULL when out of memory. */
MH_EXPORT mh_engine* mh_engine_create(mh_line_callback on_line, void* user);

/* Executes one protocol line (e.g. "uci", "position startpos moves e2e4",
 * "go movetime 1000", "stop", "army suggest white"); a trailing newline is allowed.
 * Output lines reach the callback, some before this call returns, search output
 * later from the search thread. Returns MH_OK, MH_QUIT for `quit` (a running search
 * stops and its bestmove is delivered before the return), MH_ERR_COMMAND when the
 * engine reported an error for the line (the engine's state is then unchanged), or
 * MH_ERR_ARGUMENT for a NULL handle or line. */
MH_EXPORT int mh_engine_send(mh_engine* engine, const char* line);

/* For builds without threads (WebAssembly without pthreads) only: there `go` searches
 * inside mh_engine_send, which returns after the bestmove. During the search `yield`
 * is called about every `interval_ms` milliseconds (and repeatedly while `go infinite`
 * or `go ponder` waits): the host's chance to run its event loop and to call
 * mh_engine_send(engine, ...) with "stop", "ponderhit" or "isready", the only lines
 * allowed inside it. Threaded builds may set it too (it then runs on the search
 * thread). NULL removes it. */
typedef void (*mh_yield_callback)(void* user);
MH_EXPORT int mh_engine_set_yield(mh_engine* engine, mh_yield_callback yield, void* user, int interval_ms);

/* Stops a running search (its bestmove is still delivered), frees everything. No
 * callback happens after this returns. NULL is allowed. */
MH_EXPORT void mh_engine_destroy(mh_engine* engine);

/* ---- Direct rules calls (no handle, no engine thread) ------------------------- */

/* The legal moves of `position` in UCI notation, sorted, separated by single spaces
 * ("" when there are none). With `square` ("e2"), only the moves of the piece there
 * (MH_ERR_SQUARE when it is not a square or is empty); NULL or "" for all moves. */
MH_EXPORT int mh_legal_moves(const char* position, const char* square, char** out);

/* The game's status in the words of the `status` command: "ongoing", "checkmate",
 * "stalemate", "draw insufficient", "draw fivefold", "draw seventyfive",
 * "ongoing claim threefold", "ongoing claim fifty". */
MH_EXPORT int mh_game_status(const char* position, char** out);

/* The FEN of `position` after its moves (the `fen` command's answer without "fen "). */
MH_EXPORT int mh_fen(const char* position, char** out);

/* The result when `flagged` runs out of time in `position`: "1-0 time", "0-1 time",
 * "1/2-1/2 time" (the other side cannot mate), or "aborted" (the flagged side has not
 * moved yet). */
MH_EXPORT int mh_flag(const char* position, int flagged, char** out);

/* Checks one army (home ranks from the player's side, e.g. "RNBQKBNR/PPPPPPPP").
 * MH_OK with "ok points 39 pieces 16 rules variant" (or "... rules classic"), or
 * MH_ERR_ARMY with the reason (the words of `army check`). */
MH_EXPORT int mh_army_check(int color, const char* army, char** out);

/* The engine's suggested army for `color` (the same as `army suggest <color> seed
 * <seed>`; seed 0 is a seed like any other). MH_OK with the army text. */
MH_EXPORT int mh_army_suggest(int color, uint64_t seed, char** out);

#ifdef __cplusplus
}
#endif

#endif /* MAHARAJAH_H */
