/* libmaharajah: the Maharajah chess engine as a C library (C99; usable from C++).
 *
 * Two parts:
 *  - An engine handle that speaks the engine's text protocol (UCI plus the referee,
 *    army and notation commands of docs/protocol.md): send it one line at a time; every line
 *    the engine writes reaches a callback, or waits in a queue for mh_engine_read_line.
 *    `go` searches on the engine's own thread, so mh_engine_send returns at once and
 *    the bestmove arrives later. Each handle has its own options, hash table and
 *    network (EvalFile); the built-in network is shared read-only.
 *  - Direct calls for rules screens (legal moves, game state, army check and suggest,
 *    FEN after moves, flag fall, SAN, move facts, PGN) that need no engine handle and
 *    no text parsing.
 *
 * Positions in the direct calls are written like the arguments of the `position`
 * command: "startpos", "startpos moves e2e4 e7e5", "fen <FEN> [moves ...]",
 * "army <white-army> <black-army> [moves ...]", any of them after "chess960 " for
 * Chess960 castling.
 *
 * Every call that can fail returns an mh_result; mh_errstr(code) names the code, and
 * mh_last_error() gives the message of the calling thread's last failed call (one line,
 * no trailing newline), so the answer and the error never share a string.
 *
 * Strings returned through a `char** out` parameter are allocated by the library and
 * belong to the caller, who frees them with mh_free(). On success *out holds the
 * answer. On failure the calls of interface 1.0 (mh_legal_moves, mh_game_status,
 * mh_fen, mh_flag, mh_army_check, mh_army_suggest) also put the message into *out, as
 * they always did; every later call sets *out to NULL on failure. *out is NULL for
 * MH_ERR_ARGUMENT when `out` itself is NULL, and for MH_ERR_MEMORY. Strings returned
 * directly (the version strings, mh_errstr, mh_last_error) are the library's: never
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

#include <stddef.h>
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
#define MH_API_VERSION_MINOR 1
#define MH_API_VERSION_PATCH 0

/* Results of every call that can fail. */
typedef enum mh_result {
    MH_OK = 0,
    MH_QUIT = 1,          /* mh_engine_send: the line was `quit` (the handle stays usable) */
    MH_ERR_ARGUMENT = -1, /* a NULL pointer or a value out of range */
    MH_ERR_POSITION = -2, /* the position text: a bad FEN or army, or an illegal move */
    MH_ERR_SQUARE = -3,   /* a square that is not a1..h8, or one without a piece */
    MH_ERR_ARMY = -4,     /* mh_army_check: the army breaks a rule (the reason in *out) */
    MH_ERR_COMMAND = -5,  /* mh_engine_send: the engine answered "info string error: ..." */
    MH_ERR_MEMORY = -6,   /* out of memory */
    MH_TIMEOUT = 2,       /* mh_engine_read_line: no line within the time given (since 1.1) */
    MH_ERR_NOTATION = -7, /* a SAN move or a PGN text that does not read (since 1.1) */
    MH_ERR_BUFFER = -8    /* mh_engine_read_line: the line does not fit (it stays queued) (since 1.1) */
} mh_result;

/* The name of a result code ("ok", "bad argument", ...). Static; "unknown result" for
 * any other value. */
MH_EXPORT const char* mh_errstr(int code);
/* The message of this thread's last call that failed ("" when none has): valid until
 * this thread's next library call. */
MH_EXPORT const char* mh_last_error(void);

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
MH_EXPORT mh_result mh_engine_send(mh_engine* engine, const char* line);

/* For builds without threads (WebAssembly without pthreads) only: there `go` searches
 * inside mh_engine_send, which returns after the bestmove. During the search `yield`
 * is called about every `interval_ms` milliseconds (and repeatedly while `go infinite`
 * or `go ponder` waits): the host's chance to run its event loop and to call
 * mh_engine_send(engine, ...) with "stop", "ponderhit" or "isready", the only lines
 * allowed inside it. Threaded builds may set it too (it then runs on the search
 * thread). NULL removes it. */
typedef void (*mh_yield_callback)(void* user);
MH_EXPORT mh_result mh_engine_set_yield(mh_engine* engine, mh_yield_callback yield, void* user, int interval_ms);

/* Stops a running search (its bestmove is still delivered), frees everything. No
 * callback happens after this returns. NULL is allowed. */
MH_EXPORT void mh_engine_destroy(mh_engine* engine);

/* A new engine whose output lines wait in a queue until mh_engine_read_line takes them:
 * for hosts that cannot receive a callback on a foreign thread (Dart, Kotlin, Swift,
 * Python ctypes) and poll from their own thread instead. NULL when out of memory. */
MH_EXPORT mh_engine* mh_engine_create_queued(void);

/* Takes the oldest queued output line of a queued engine into `buffer` (NUL-terminated,
 * no newline), waiting up to `timeout_ms` milliseconds for one (0: do not wait; a
 * negative value: wait until one comes). Returns MH_OK, MH_TIMEOUT when no line came,
 * MH_ERR_BUFFER when the line needs more than `size` bytes (it stays queued; PGN and
 * `d` lines are short, 4096 bytes hold any line but a very long PV), or MH_ERR_ARGUMENT
 * (NULL handle or buffer, size 0, or an engine made by mh_engine_create). May be called
 * from another thread than mh_engine_send, but by one thread at a time, and never while
 * or after mh_engine_destroy runs (lines still queued then are freed with the engine). */
MH_EXPORT mh_result mh_engine_read_line(mh_engine* engine, int timeout_ms, char* buffer, size_t size);

/* ---- Direct rules calls (no handle, no engine thread) ------------------------- */

/* The legal moves of `position` in UCI notation, sorted, separated by single spaces
 * ("" when there are none). With `square` ("e2"), only the moves of the piece there
 * (MH_ERR_SQUARE when it is not a square or is empty); NULL or "" for all moves. */
MH_EXPORT mh_result mh_legal_moves(const char* position, const char* square, char** out);

/* The game's status in the words of the `status` command: "ongoing", "checkmate",
 * "stalemate", "draw insufficient", "draw fivefold", "draw seventyfive",
 * "ongoing claim threefold", "ongoing claim fifty". */
MH_EXPORT mh_result mh_game_status(const char* position, char** out);

/* The FEN of `position` after its moves (the `fen` command's answer without "fen "). */
MH_EXPORT mh_result mh_fen(const char* position, char** out);

/* The result when `flagged` runs out of time in `position`: "1-0 time", "0-1 time",
 * "1/2-1/2 time" (the other side cannot mate), or "aborted" (the flagged side has not
 * moved yet). */
MH_EXPORT mh_result mh_flag(const char* position, int flagged, char** out);

/* Checks one army (home ranks from the player's side, e.g. "RNBQKBNR/PPPPPPPP").
 * MH_OK with "ok points 39 pieces 16 rules variant" (or "... rules classic"), or
 * MH_ERR_ARMY with the reason (the words of `army check`). */
MH_EXPORT mh_result mh_army_check(int color, const char* army, char** out);

/* The engine's suggested army for `color` (the same as `army suggest <color> seed
 * <seed>`; seed 0 is a seed like any other). MH_OK with the army text. */
MH_EXPORT mh_result mh_army_suggest(int color, uint64_t seed, char** out);

/* ---- Typed answers and notation (since 1.1) ------------------------------------- */

/* The game state, as mh_game_status says it in words. */
typedef enum mh_status {
    MH_STATUS_ONGOING = 0,
    MH_STATUS_CHECKMATE = 1, /* the side to move is mated */
    MH_STATUS_STALEMATE = 2,
    MH_STATUS_DRAW_INSUFFICIENT = 3, /* insufficient material */
    MH_STATUS_DRAW_FIVEFOLD = 4,
    MH_STATUS_DRAW_SEVENTYFIVE = 5
} mh_status;

/* A draw the side to move may claim in an ongoing game. */
typedef enum mh_claim { MH_CLAIM_NONE = 0, MH_CLAIM_THREEFOLD = 1, MH_CLAIM_FIFTY = 2 } mh_claim;

typedef struct mh_game_state {
    mh_status status;
    mh_claim claim;
    int side_to_move; /* MH_WHITE or MH_BLACK */
    int in_check;     /* 1 when the side to move is in check */
} mh_game_state;

/* The state of `position` after its moves. */
MH_EXPORT mh_result mh_game_state_of(const char* position, mh_game_state* state);

/* Whether the side to move is in check: *in_check 1 or 0. */
MH_EXPORT mh_result mh_incheck(const char* position, int* in_check);

typedef struct mh_army_info {
    int points;  /* 39 for a valid army */
    int pieces;  /* the king not counted */
    int variant; /* 1: a compound piece, the side plays the variant rules */
} mh_army_info;

/* Checks one army like mh_army_check: MH_OK and *info, or MH_ERR_ARMY with the reason
 * in mh_last_error(). */
MH_EXPORT mh_result mh_army_info_of(int color, const char* army, mh_army_info* info);

/* The moves `uci_moves` (UCI, separated by spaces) played in order from `position`, in
 * SAN separated by single spaces ("e4 e5 Nf3"); for hints, a PV. MH_ERR_POSITION when
 * a move is illegal. */
MH_EXPORT mh_result mh_to_san(const char* position, const char* uci_moves, char** out);

/* The reverse: SAN moves to UCI moves. MH_ERR_NOTATION when one does not read (illegal,
 * ambiguous, or not a move). */
MH_EXPORT mh_result mh_from_san(const char* position, const char* san_moves, char** out);

/* Facts of a move (mh_move.flags). */
enum {
    MH_MOVE_CAPTURE = 1, /* en passant included */
    MH_MOVE_EN_PASSANT = 2,
    MH_MOVE_CASTLE = 4, /* rook_from and rook_to say where the rook goes */
    MH_MOVE_PROMOTION = 8,
    MH_MOVE_CHECK = 16,
    MH_MOVE_MATE = 32
};

typedef struct mh_move {
    char uci[8];       /* "e7e8m"; Chess960 castling as the king taking its rook */
    char san[16];      /* "e8=M+" */
    char rook_from[3]; /* castling only, else "" */
    char rook_to[3];
    unsigned flags; /* MH_MOVE_* */
} mh_move;

/* The legal moves of `position`, sorted by their UCI text, in an array of *count
 * moves that the caller frees with mh_free_moves (NULL with *count 0 when there are
 * none). */
MH_EXPORT mh_result mh_move_list(const char* position, mh_move** moves, int* count);
MH_EXPORT void mh_free_moves(mh_move* moves);

/* The same as text, the `movelist` command's lines without `endmoves`:
 * "<uci> <san> [capture] [enpassant] [castle <from><to>] [promotion] [check] [mate]",
 * one per line, each ended by a newline. */
MH_EXPORT mh_result mh_move_list_text(const char* position, char** out);

/* No flag fall (mh_pgn's `flagged`). */
#define MH_NO_FLAG (-1)

/* The game of `position` (its start and moves) as PGN (the `pgn` command's text).
 * `flagged` MH_WHITE or MH_BLACK ends it by that side's flag fall, MH_NO_FLAG by its
 * status. `tags` (NULL or "") adds or fills tags, written as in PGN:
 * "[White \"Ann\"] [Black \"Bob\"] [Event \"Club\"]" (Result stays the game's). */
MH_EXPORT mh_result mh_pgn(const char* position, int flagged, const char* tags, char** out);

/* The first game of a PGN text as a position text for the calls above (and for the
 * `position` command): "fen <start> moves <uci>...", "chess960 fen ..." for Chess960.
 * MH_ERR_NOTATION with the reason (the move number and token of a bad move). */
MH_EXPORT mh_result mh_pgn_read(const char* pgn, char** out);

#ifdef __cplusplus
}
#endif

#endif /* MAHARAJAH_H */
