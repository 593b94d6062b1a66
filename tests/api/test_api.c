/* The C interface (src/api/maharajah.h) driven from C: two engine handles play full
 * games against each other (standard chess and suggested Maharajah armies), every move
 * checked against mh_legal_moves; destroy and quit during searches; every kind of bad
 * input answered with an error code and a message, the state unchanged. Built twice by
 * tests/CMakeLists.txt: against the static library and against the shared one (and run
 * under AddressSanitizer by scripts/sanitize). Exits non-zero on the first failure. */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "maharajah.h"

static int failures = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            ++failures;                                                              \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* ---- An engine handle with its output collected ---------------------------- */

typedef struct {
    mh_engine* engine;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    char bestmove[64];  /* the move of the last "bestmove" line, "" while waiting */
    char last_fen[512]; /* the last "fen ..." answer */
    int lines, errors, readyok, bestmoves;
    int destroyed; /* set after mh_engine_destroy returned: no callback may follow */
} Player;

static void on_line(void* user, const char* line) {
    Player* p = (Player*)user;
    pthread_mutex_lock(&p->mutex);
    CHECK(!p->destroyed);
    ++p->lines;
    if (strncmp(line, "bestmove ", 9) == 0) {
        sscanf(line + 9, "%63s", p->bestmove);
        ++p->bestmoves;
        pthread_cond_broadcast(&p->cond);
    } else if (strncmp(line, "info string error: ", 19) == 0) {
        ++p->errors;
    } else if (strcmp(line, "readyok") == 0) {
        ++p->readyok;
    } else if (strncmp(line, "fen ", 4) == 0) {
        snprintf(p->last_fen, sizeof p->last_fen, "%s", line + 4);
    }
    pthread_mutex_unlock(&p->mutex);
}

static void player_init(Player* p) {
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->mutex, NULL);
    pthread_cond_init(&p->cond, NULL);
    p->engine = mh_engine_create(on_line, p);
    CHECK(p->engine != NULL);
}

static void player_free(Player* p) {
    mh_engine_destroy(p->engine);
    pthread_mutex_lock(&p->mutex);
    p->destroyed = 1;
    pthread_mutex_unlock(&p->mutex);
    pthread_mutex_destroy(&p->mutex);
    pthread_cond_destroy(&p->cond);
}

static void send(Player* p, const char* line) { CHECK(mh_engine_send(p->engine, line) == MH_OK); }

/* Sends a go command and waits for its bestmove; copies the move to `move`. */
static void think(Player* p, const char* go, char* move, size_t size) {
    pthread_mutex_lock(&p->mutex);
    p->bestmove[0] = 0;
    pthread_mutex_unlock(&p->mutex);
    send(p, go);
    pthread_mutex_lock(&p->mutex);
    while (!p->bestmove[0]) pthread_cond_wait(&p->cond, &p->mutex);
    snprintf(move, size, "%s", p->bestmove);
    pthread_mutex_unlock(&p->mutex);
}

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Whether `move` is one of the space-separated moves in `list`. */
static int contains_move(const char* list, const char* move) {
    size_t n = strlen(move);
    for (const char* s = list; (s = strstr(s, move)) != NULL; s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == 0)) return 1;
    return 0;
}

/* ---- Games between two handles -------------------------------------------- */

/* Plays `start` ("startpos" or "army W B") to its end between two handles; returns
 * the final status. Every bestmove must be in mh_legal_moves of the position. */
static char* play_game(const char* start, int nodes) {
    Player white, black;
    player_init(&white);
    player_init(&black);
    Player* side[2] = {&white, &black};
    send(&white, "ucinewgame");
    send(&black, "ucinewgame");
    size_t cap = 16384;
    char* position = malloc(cap);
    CHECK(position != NULL);
    snprintf(position, cap, "%s moves", start);
    char go[64];
    snprintf(go, sizeof go, "go nodes %d", nodes);
    char* status = NULL;
    for (int ply = 0;; ++ply) {
        CHECK(mh_game_status(position, &status) == MH_OK);
        if (strcmp(status, "ongoing") != 0 && strncmp(status, "ongoing claim", 13) != 0) break;
        mh_free(status);
        status = NULL;
        CHECK(ply < 2000); /* the 75-move rule and fivefold repetition end every game first */

        char* legal = NULL;
        CHECK(mh_legal_moves(position, NULL, &legal) == MH_OK);
        CHECK(legal[0] != 0); /* an ongoing game has a legal move */
        char command[16500];
        snprintf(command, sizeof command, "position %s", position);
        Player* p = side[ply % 2];
        send(p, command);
        char move[64];
        think(p, go, move, sizeof move);
        CHECK(contains_move(legal, move));
        /* The same move among the moves of its from-square. */
        char from[3] = {move[0], move[1], 0};
        char* of_square = NULL;
        CHECK(mh_legal_moves(position, from, &of_square) == MH_OK);
        CHECK(contains_move(of_square, move));
        mh_free(of_square);
        mh_free(legal);

        size_t len = strlen(position);
        if (len + strlen(move) + 2 >= cap) {
            cap *= 2;
            position = realloc(position, cap);
            CHECK(position != NULL);
        }
        snprintf(position + len, cap - len, " %s", move);
    }
    /* The FEN after the game's moves equals the engine's own `fen` answer. */
    char* fen = NULL;
    CHECK(mh_fen(position, &fen) == MH_OK);
    char command[16500];
    snprintf(command, sizeof command, "position %s", position);
    send(&white, command);
    send(&white, "fen");
    CHECK(strcmp(white.last_fen, fen) == 0);
    printf("game from '%.60s': %s after %zu characters of moves\n", start, status, strlen(position));
    mh_free(fen);
    free(position);
    player_free(&white);
    player_free(&black);
    return status;
}

static int is_final_status(const char* s) {
    return strcmp(s, "checkmate") == 0 || strcmp(s, "stalemate") == 0 || strcmp(s, "draw insufficient") == 0 ||
           strcmp(s, "draw fivefold") == 0 || strcmp(s, "draw seventyfive") == 0;
}

static void test_games(void) {
    char* s = play_game("startpos", 3000);
    CHECK(is_final_status(s));
    mh_free(s);

    /* The variant: suggested armies (classic and variant rules per side are decided
     * by the armies). */
    char *w = NULL, *b = NULL;
    CHECK(mh_army_suggest(MH_WHITE, 7, &w) == MH_OK);
    CHECK(mh_army_suggest(MH_BLACK, 11, &b) == MH_OK);
    char start[256];
    snprintf(start, sizeof start, "army %s %s", w, b);
    s = play_game(start, 3000);
    CHECK(is_final_status(s));
    mh_free(s);
    mh_free(w);
    mh_free(b);
}

/* ---- Searches interrupted ------------------------------------------------- */

static void test_interrupts(void) {
    /* isready and stop during go infinite; the bestmove comes after stop. */
    Player p;
    player_init(&p);
    send(&p, "position startpos");
    send(&p, "go infinite");
    sleep_ms(50);
    send(&p, "isready");
    pthread_mutex_lock(&p.mutex);
    CHECK(p.readyok == 1);
    CHECK(p.bestmoves == 0);
    pthread_mutex_unlock(&p.mutex);
    send(&p, "stop");
    pthread_mutex_lock(&p.mutex);
    while (p.bestmoves == 0) pthread_cond_wait(&p.cond, &p.mutex);
    pthread_mutex_unlock(&p.mutex);

    /* quit during a search: the bestmove arrives before mh_engine_send returns. */
    send(&p, "go infinite");
    sleep_ms(20);
    CHECK(mh_engine_send(p.engine, "quit") == MH_QUIT);
    pthread_mutex_lock(&p.mutex);
    CHECK(p.bestmoves == 2);
    pthread_mutex_unlock(&p.mutex);
    player_free(&p);

    /* destroy during go infinite (two threads): the search stops, its bestmove is the
     * last callback, none comes after destroy returns (on_line checks). */
    Player q;
    player_init(&q);
    send(&q, "setoption name Threads value 2");
    send(&q, "position startpos moves e2e4");
    send(&q, "go infinite");
    sleep_ms(30);
    player_free(&q);
    CHECK(q.bestmoves == 1);

    /* destroy right after go, before the search has properly begun. */
    for (int i = 0; i < 20; ++i) {
        Player r;
        player_init(&r);
        send(&r, "go depth 30");
        player_free(&r);
        CHECK(r.bestmoves == 1);
    }
}

/* ---- Bad input ---------------------------------------------------------------- */

/* `out` is passed by address: its value is read only after the call has set it. */
static void expect_error(int code, int expected, char** out) {
    CHECK(code == expected);
    CHECK(*out != NULL && (*out)[0] != 0); /* a message */
    CHECK(strchr(*out, '\n') == NULL);     /* one line */
    mh_free(*out);
    *out = NULL;
}

static void test_bad_input(void) {
    char* out = NULL;
    expect_error(mh_legal_moves("fen 8/8/8 w - - 0 1", NULL, &out), MH_ERR_POSITION, &out);
    expect_error(mh_legal_moves("startpos moves e2e5", NULL, &out), MH_ERR_POSITION, &out);
    expect_error(mh_legal_moves("nonsense", NULL, &out), MH_ERR_POSITION, &out);
    expect_error(mh_legal_moves("army RNBQKBNR/PPPPPPPP", NULL, &out), MH_ERR_POSITION, &out);
    expect_error(mh_legal_moves("startpos", "z9", &out), MH_ERR_SQUARE, &out);
    expect_error(mh_legal_moves("startpos", "e4", &out), MH_ERR_SQUARE, &out);
    expect_error(mh_legal_moves(NULL, NULL, &out), MH_ERR_ARGUMENT, &out);
    CHECK(mh_legal_moves("startpos", NULL, NULL) == MH_ERR_ARGUMENT);
    expect_error(mh_game_status("startpos moves e2e4 e2e4", &out), MH_ERR_POSITION, &out);
    expect_error(mh_fen("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", &out), MH_ERR_POSITION, &out);
    expect_error(mh_flag("startpos", 5, &out), MH_ERR_ARGUMENT, &out);
    expect_error(mh_army_check(MH_WHITE, "RNBQKBNR/PPPPPPPP/PPPPPPPP", &out), MH_ERR_ARMY, &out);
    expect_error(mh_army_check(MH_WHITE, "MMMKMMMM", &out), MH_ERR_ARMY, &out);
    expect_error(mh_army_check(MH_BLACK, "", &out), MH_ERR_ARMY, &out);
    expect_error(mh_army_check(MH_WHITE, NULL, &out), MH_ERR_ARGUMENT, &out);
    expect_error(mh_army_suggest(-1, 1, &out), MH_ERR_ARGUMENT, &out);

    /* The engine handle: a bad line is one error line and changes nothing. */
    Player p;
    player_init(&p);
    send(&p, "position startpos moves e2e4");
    send(&p, "fen");
    char before[512];
    snprintf(before, sizeof before, "%s", p.last_fen);
    const char* bad[] = {"position startpos moves e7e5 e7e5",
                         "position fen nonsense",
                         "position army X Y",
                         "setoption name Hash value lots",
                         "setoption name NoSuchOption value 1",
                         "frobnicate",
                         "army check white QQQQQQQQ",
                         "moves z9",
                         "position startpos\nmoves e2e4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        int errors = p.errors, lines = p.lines;
        int code = mh_engine_send(p.engine, bad[i]);
        CHECK(code == MH_ERR_COMMAND);
        CHECK(p.lines == lines + 1); /* one line */
        CHECK(p.errors == errors + 1 || strncmp(bad[i], "army", 4) == 0);
        send(&p, "fen");
        CHECK(strcmp(p.last_fen, before) == 0);
    }
    CHECK(mh_engine_send(NULL, "uci") == MH_ERR_ARGUMENT);
    CHECK(mh_engine_send(p.engine, NULL) == MH_ERR_ARGUMENT);
    mh_engine_destroy(NULL);
    mh_free(NULL);
    player_free(&p);
}

/* ---- Direct calls --------------------------------------------------------- */

static void test_direct_calls(void) {
    char* out = NULL;
    CHECK(strcmp(mh_library_version(), "1.1.0") == 0);
    CHECK(strncmp(mh_engine_version(), "Maharajah ", 10) == 0);

    CHECK(mh_legal_moves("startpos", NULL, &out) == MH_OK);
    int count = 1;
    for (const char* s = out; *s; ++s) count += *s == ' ';
    CHECK(count == 20);
    mh_free(out);
    CHECK(mh_legal_moves("startpos", "g1", &out) == MH_OK);
    CHECK(strcmp(out, "g1f3 g1h3") == 0);
    mh_free(out);
    CHECK(mh_legal_moves("startpos", "", &out) == MH_OK); /* "" means every square */
    mh_free(out);

    CHECK(mh_game_status("startpos moves f2f3 e7e5 g2g4 d8h4", &out) == MH_OK);
    CHECK(strcmp(out, "checkmate") == 0);
    mh_free(out);
    CHECK(mh_legal_moves("startpos moves f2f3 e7e5 g2g4 d8h4", NULL, &out) == MH_OK);
    CHECK(strcmp(out, "") == 0);
    mh_free(out);

    CHECK(mh_fen("startpos moves e2e4", &out) == MH_OK);
    CHECK(strcmp(out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") == 0);
    mh_free(out);

    CHECK(mh_flag("startpos", MH_WHITE, &out) == MH_OK);
    CHECK(strcmp(out, "aborted") == 0);
    mh_free(out);
    CHECK(mh_flag("startpos moves e2e4 e7e5", MH_WHITE, &out) == MH_OK);
    CHECK(strcmp(out, "0-1 time") == 0);
    mh_free(out);
    CHECK(mh_flag("fen 4k3/8/8/8/8/8/8/4K2Q b - - 0 1 moves e8d7 e1e2", MH_BLACK, &out) == MH_OK);
    CHECK(strcmp(out, "1-0 time") == 0);
    mh_free(out);
    CHECK(mh_flag("fen 4k3/8/8/8/8/8/8/4K2Q w - - 0 1 moves e1e2 e8d7", MH_WHITE, &out) == MH_OK);
    CHECK(strcmp(out, "1/2-1/2 time") == 0);
    mh_free(out);

    CHECK(mh_army_check(MH_WHITE, "RNBQKBNR/PPPPPPPP", &out) == MH_OK);
    CHECK(strcmp(out, "ok points 39 pieces 15 rules classic") == 0);
    mh_free(out);
    /* Suggested armies pass the check, for both colours and many seeds. */
    for (uint64_t seed = 0; seed < 200; ++seed)
        for (int c = 0; c < 2; ++c) {
            CHECK(mh_army_suggest(c, seed * 0x9E3779B97F4A7C15ull, &out) == MH_OK);
            char* verdict = NULL;
            CHECK(mh_army_check(c, out, &verdict) == MH_OK);
            mh_free(verdict);
            mh_free(out);
        }
    /* Suggesting is deterministic for a seed. */
    char *a = NULL, *b = NULL;
    CHECK(mh_army_suggest(MH_BLACK, 42, &a) == MH_OK && mh_army_suggest(MH_BLACK, 42, &b) == MH_OK);
    CHECK(strcmp(a, b) == 0);
    mh_free(a);
    mh_free(b);
}

/* Direct calls from several threads at once (they share no state). */
static void* direct_worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 200; ++i) {
        char* out = NULL;
        CHECK(mh_legal_moves("startpos moves e2e4 e7e5 g1f3", NULL, &out) == MH_OK);
        mh_free(out);
        CHECK(mh_fen("army RNBQKBNR/PPPPPPPP rnbqkbnr/pppppppp moves e2e4", &out) == MH_OK);
        mh_free(out);
    }
    return NULL;
}

static void test_threads(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; ++i) CHECK(pthread_create(&t[i], NULL, direct_worker, NULL) == 0);
    for (int i = 0; i < 4; ++i) pthread_join(t[i], NULL);
}

int main(void) {
    test_direct_calls();
    test_bad_input();
    test_threads();
    test_interrupts();
    test_games();
    printf("C API: all checks passed (%s, %s)\n", mh_library_version(), mh_engine_version());
    return failures != 0;
}
