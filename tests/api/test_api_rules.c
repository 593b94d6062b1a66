/* The C interface's typed answers (interface 1.1): result codes and mh_last_error,
 * SAN and PGN calls, the move list with flags, game state and army structs, the
 * queued engine read with mh_engine_read_line, and handles that change EvalFile while
 * another handle searches (run under ThreadSanitizer by scripts/sanitize). */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maharajah.h"

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, mh_last_error()); \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

/* Checks an answer (pass &out: the call has filled it by then). */
static void expect_text(mh_result r, char** answer, const char* expected) {
    char* out = *answer;
    CHECK(r == MH_OK);
    CHECK(out != NULL);
    if (strcmp(out, expected) != 0) fprintf(stderr, "got '%s', expected '%s'\n", out, expected);
    CHECK(strcmp(out, expected) == 0);
    mh_free(out);
}

static void test_codes(void) {
    CHECK(strcmp(mh_library_version(), "1.1.0") == 0);
    CHECK(strcmp(mh_errstr(MH_OK), "ok") == 0);
    CHECK(strcmp(mh_errstr(MH_TIMEOUT), "timeout") == 0);
    CHECK(strcmp(mh_errstr(MH_ERR_NOTATION), "bad notation") == 0);
    CHECK(strcmp(mh_errstr(12345), "unknown result") == 0);
    /* The answer and the error are apart: *out stays NULL, the message is separate. */
    char* out = (char*)1;
    CHECK(mh_to_san("startpos", "e2e5", &out) == MH_ERR_POSITION);
    CHECK(out == NULL);
    CHECK(strstr(mh_last_error(), "illegal move 'e2e5'") != NULL);
    CHECK(mh_from_san("startpos", "e4 Ke7", &out) == MH_ERR_NOTATION);
    CHECK(out == NULL);
    CHECK(strstr(mh_last_error(), "'Ke7' (move 2 of the list)") != NULL);
    CHECK(mh_to_san("fen nonsense", "", &out) == MH_ERR_POSITION);
    CHECK(strstr(mh_last_error(), "bad FEN") != NULL);
    CHECK(mh_to_san("startpos", "", NULL) == MH_ERR_ARGUMENT);
    /* The 1.0 calls keep their message in *out, and set mh_last_error too. */
    CHECK(mh_fen("startpos moves e2e5", &out) == MH_ERR_POSITION);
    CHECK(out != NULL && strstr(out, "illegal move") != NULL);
    CHECK(strcmp(out, mh_last_error()) == 0);
    mh_free(out);
}

static void test_notation(void) {
    char* out = NULL;
    expect_text(mh_to_san("startpos", "e2e4 e7e5 g1f3 b8c6 f1b5", &out), &out, "e4 e5 Nf3 Nc6 Bb5");
    expect_text(mh_from_san("startpos", "e4 e5 Nf3 Nc6 Bb5 a6", &out), &out, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6");
    /* A PV from an army position, with a compound promotion and mate. */
    expect_text(mh_to_san("fen 2k5/P7/8/8/8/8/8/4K3 w - - 0 1 V", "a7a8m", &out), &out, "a8=M+");
    expect_text(mh_from_san("fen 2k5/P7/8/8/8/8/8/4K3 w - - 0 1 V", "a8c", &out), &out, "a7a8c");
    expect_text(mh_to_san("chess960 fen r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1", "b1a1 g8h8", &out), &out, "O-O-O O-O");

    /* The move list: flags and castling rooks. */
    mh_move* moves = NULL;
    int count = -1;
    CHECK(mh_move_list("fen r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2", &moves, &count) == MH_OK);
    int seen = 0;
    for (int i = 0; i < count; ++i) {
        const mh_move* m = &moves[i];
        if (strcmp(m->uci, "e5d6") == 0) {
            CHECK(strcmp(m->san, "exd6") == 0);
            CHECK(m->flags == (MH_MOVE_CAPTURE | MH_MOVE_EN_PASSANT));
            ++seen;
        } else if (strcmp(m->uci, "e1c1") == 0) {
            CHECK(strcmp(m->san, "O-O-O") == 0);
            CHECK(m->flags == MH_MOVE_CASTLE);
            CHECK(strcmp(m->rook_from, "a1") == 0 && strcmp(m->rook_to, "d1") == 0);
            ++seen;
        } else if (strcmp(m->uci, "a1a8") == 0) {
            CHECK(strcmp(m->san, "Rxa8+") == 0);
            CHECK(m->flags == (MH_MOVE_CAPTURE | MH_MOVE_CHECK));
            ++seen;
        } else {
            CHECK(!(m->flags & MH_MOVE_CASTLE) || strcmp(m->uci, "e1g1") == 0);
        }
        if (i) CHECK(strcmp(moves[i - 1].uci, m->uci) < 0);
    }
    CHECK(seen == 3);
    mh_free_moves(moves);
    /* The same as text, and its line count. */
    CHECK(mh_move_list_text("fen r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2", &out) == MH_OK);
    int lines = 0;
    for (const char* c = out; *c; ++c) lines += *c == '\n';
    CHECK(lines == count);
    CHECK(strstr(out, "e5d6 exd6 capture enpassant\n") != NULL);
    CHECK(strstr(out, "e1g1 O-O castle h1f1\n") != NULL);
    mh_free(out);
    /* Mate in the list, and no moves at all after it. */
    CHECK(mh_move_list("startpos moves f2f3 e7e5 g2g4", &moves, &count) == MH_OK);
    int mates = 0;
    for (int i = 0; i < count; ++i)
        if (moves[i].flags & MH_MOVE_MATE) {
            CHECK(strcmp(moves[i].san, "Qh4#") == 0);
            CHECK(moves[i].flags & MH_MOVE_CHECK);
            ++mates;
        }
    CHECK(mates == 1);
    mh_free_moves(moves);
    CHECK(mh_move_list("startpos moves f2f3 e7e5 g2g4 d8h4", &moves, &count) == MH_OK);
    CHECK(moves == NULL && count == 0);
}

static void test_state(void) {
    mh_game_state s;
    CHECK(mh_game_state_of("startpos moves f2f3 e7e5 g2g4 d8h4", &s) == MH_OK);
    CHECK(s.status == MH_STATUS_CHECKMATE && s.claim == MH_CLAIM_NONE && s.side_to_move == MH_WHITE && s.in_check);
    CHECK(mh_game_state_of("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", &s) == MH_OK);
    CHECK(s.status == MH_STATUS_ONGOING && s.claim == MH_CLAIM_THREEFOLD && !s.in_check);
    CHECK(mh_game_state_of("fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1", &s) == MH_OK);
    CHECK(s.status == MH_STATUS_DRAW_INSUFFICIENT);
    CHECK(mh_game_state_of("fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &s) == MH_OK);
    CHECK(s.status == MH_STATUS_STALEMATE && s.side_to_move == MH_BLACK);
    int check = -1;
    CHECK(mh_incheck("startpos moves e2e4 f7f6 d1h5", &check) == MH_OK && check == 1);
    CHECK(mh_incheck("startpos", &check) == MH_OK && check == 0);
    CHECK(mh_incheck("startpos", NULL) == MH_ERR_ARGUMENT);

    mh_army_info a;
    CHECK(mh_army_info_of(MH_WHITE, "RNBMKBNR/PPPP4", &a) == MH_OK);
    CHECK(a.points == 39 && a.pieces == 11 && a.variant == 1);
    CHECK(mh_army_info_of(MH_BLACK, "rnbqkbnr/ppppppp1", &a) == MH_ERR_ARMY);
    CHECK(strstr(mh_last_error(), "points 38") != NULL);
}

static void test_pgn(void) {
    char* pgn = NULL;
    CHECK(mh_pgn("army RNBMKBNR/PPPP4 RNBQKBNR/PPPPPPPP moves a2a4 e7e5", MH_NO_FLAG,
                 "[White \"Ann\"] [Black \"Bob\"] [Event \"Club \\\"night\\\"\"]", &pgn) == MH_OK);
    CHECK(strstr(pgn, "[White \"Ann\"]\n[Black \"Bob\"]\n") != NULL);
    CHECK(strstr(pgn, "[Event \"Club \\\"night\\\"\"]\n") != NULL);
    CHECK(strstr(pgn, "[Variant \"maharajah39-vc\"]\n") != NULL);
    CHECK(strstr(pgn, "\n1. a4 e5 *\n") != NULL);
    /* Read back: the same game as a position text. */
    char* position = NULL;
    CHECK(mh_pgn_read(pgn, &position) == MH_OK);
    char *fen1 = NULL, *fen2 = NULL;
    CHECK(mh_fen(position, &fen1) == MH_OK);
    CHECK(mh_fen("army RNBMKBNR/PPPP4 RNBQKBNR/PPPPPPPP moves a2a4 e7e5", &fen2) == MH_OK);
    CHECK(strcmp(fen1, fen2) == 0);
    mh_free(fen1);
    mh_free(fen2);
    mh_free(position);
    mh_free(pgn);
    /* A flag fall ends it. */
    CHECK(mh_pgn("startpos moves e2e4 e7e5", MH_BLACK, NULL, &pgn) == MH_OK);
    CHECK(strstr(pgn, "[Result \"1-0\"]") != NULL && strstr(pgn, "[Termination \"time forfeit\"]") != NULL);
    mh_free(pgn);
    CHECK(mh_pgn("startpos", 7, NULL, &pgn) == MH_ERR_ARGUMENT && pgn == NULL);
    /* A bad move names its number and token. */
    CHECK(mh_pgn_read("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf4 *", &position) == MH_ERR_NOTATION);
    CHECK(position == NULL);
    CHECK(strstr(mh_last_error(), "move 3... 'Nf4'") != NULL);
}

/* ---- The poll-style line API: a game between two queued engines ------------- */

/* Reads lines until one starts with `prefix`; copies it to `line`. */
static void read_until(mh_engine* e, const char* prefix, char* line, size_t size) {
    for (;;) {
        mh_result r = mh_engine_read_line(e, 60000, line, size);
        CHECK(r == MH_OK);
        if (strncmp(line, prefix, strlen(prefix)) == 0) return;
    }
}

static void test_queued(void) {
    mh_engine* e[2] = {mh_engine_create_queued(), mh_engine_create_queued()};
    CHECK(e[0] && e[1]);
    char line[4096], moves[8192] = "startpos moves", position[8192];
    /* Nothing queued yet: a timeout. */
    CHECK(mh_engine_read_line(e[0], 0, line, sizeof line) == MH_TIMEOUT);
    CHECK(mh_engine_read_line(e[0], 10, line, 0) == MH_ERR_ARGUMENT);
    mh_engine* callback_engine = mh_engine_create(NULL, NULL);
    CHECK(mh_engine_read_line(callback_engine, 0, line, sizeof line) == MH_ERR_ARGUMENT);
    mh_engine_destroy(callback_engine);
    /* A line too long for the buffer stays queued. */
    CHECK(mh_engine_send(e[0], "isready") == MH_OK);
    CHECK(mh_engine_read_line(e[0], 1000, line, 4) == MH_ERR_BUFFER);
    CHECK(mh_engine_read_line(e[0], 1000, line, sizeof line) == MH_OK && strcmp(line, "readyok") == 0);
    int plies = 0;
    for (; plies < 40; ++plies) {
        mh_game_state s;
        CHECK(mh_game_state_of(moves, &s) == MH_OK);
        if (s.status != MH_STATUS_ONGOING) break;
        mh_engine* side = e[plies % 2];
        snprintf(position, sizeof position, "position %s", moves);
        CHECK(mh_engine_send(side, position) == MH_OK);
        CHECK(mh_engine_send(side, "go nodes 2000") == MH_OK);
        read_until(side, "bestmove ", line, sizeof line);
        char best[16];
        CHECK(sscanf(line + 9, "%15s", best) == 1);
        char* legal = NULL;
        CHECK(mh_legal_moves(moves, NULL, &legal) == MH_OK);
        CHECK(strstr(legal, best) != NULL);
        mh_free(legal);
        strcat(moves, " ");
        strcat(moves, best);
    }
    CHECK(plies > 10);
    /* The game's PGN through the handle: lines up to endpgn. */
    snprintf(position, sizeof position, "position %s", moves);
    CHECK(mh_engine_send(e[0], position) == MH_OK);
    CHECK(mh_engine_send(e[0], "pgn") == MH_OK);
    read_until(e[0], "[Event ", line, sizeof line);
    int movetext = 0;
    for (;;) {
        CHECK(mh_engine_read_line(e[0], 1000, line, sizeof line) == MH_OK);
        if (strcmp(line, "endpgn") == 0) break;
        movetext += strncmp(line, "1. ", 3) == 0;
    }
    CHECK(movetext == 1);
    /* An error line through the queue, with the same message in mh_last_error. */
    CHECK(mh_engine_send(e[1], "tosan e2e5") == MH_ERR_COMMAND);
    CHECK(strstr(mh_last_error(), "tosan: illegal move 'e2e5'") != NULL);
    read_until(e[1], "info string error: ", line, sizeof line);
    CHECK(strcmp(line + 19, mh_last_error()) == 0);
    mh_engine_destroy(e[0]);
    mh_engine_destroy(e[1]);
}

/* ---- Handles own their nets: one changes EvalFile while another searches ---- */

typedef struct {
    mh_engine* engine;
    int rounds;
} Searcher;

static void* search_loop(void* arg) {
    Searcher* s = (Searcher*)arg;
    char line[4096];
    for (int i = 0; i < s->rounds; ++i) {
        CHECK(mh_engine_send(s->engine, i % 2 ? "position startpos moves e2e4" : "position startpos") == MH_OK);
        CHECK(mh_engine_send(s->engine, "go nodes 20000") == MH_OK);
        read_until(s->engine, "bestmove ", line, sizeof line);
    }
    return NULL;
}

static void test_nets_per_handle(void) {
    Searcher s = {mh_engine_create_queued(), 6};
    mh_engine* changer = mh_engine_create_queued();
    CHECK(s.engine && changer);
    CHECK(mh_engine_send(s.engine, "setoption name EvalMode value nnue") == MH_OK);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, search_loop, &s) == 0);
    char line[4096];
    for (int i = 0; i < 12; ++i) {
        CHECK(mh_engine_send(changer, i % 2 ? "setoption name EvalFile value <built-in>"
                                            : "setoption name EvalFile value " MAHARAJAH_TEST_NET) == MH_OK);
        read_until(changer, "info string EvalFile ", line, sizeof line);
        CHECK(mh_engine_send(changer, "go nodes 3000") == MH_OK);
        read_until(changer, "bestmove ", line, sizeof line);
    }
    pthread_join(t, NULL);
    /* The searcher kept the built-in net all along. */
    CHECK(mh_engine_send(s.engine, "eval") == MH_OK);
    read_until(s.engine, "EvalMode nnue: net ", line, sizeof line);
    CHECK(strstr(line, "net <built-in>") != NULL);
    mh_engine_destroy(changer);
    mh_engine_destroy(s.engine);
}

int main(void) {
    test_codes();
    test_notation();
    test_state();
    test_pgn();
    test_queued();
    test_nets_per_handle();
    printf("C API rules calls: all checks passed (%s)\n", mh_library_version());
    return 0;
}
