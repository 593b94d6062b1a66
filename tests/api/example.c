/* The example of docs/embedding.md, "C library": the rules calls, then one engine search.
 * Also the program the install test builds against an installed libmaharajah. */
#include <maharajah.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static char best[64];

/* Called for every line the engine writes (here from its search thread too). */
static void on_line(void* user, const char* line) {
    (void)user;
    if (strncmp(line, "bestmove ", 9) != 0) return;
    pthread_mutex_lock(&mutex);
    snprintf(best, sizeof best, "%s", line + 9);
    pthread_cond_signal(&done);
    pthread_mutex_unlock(&mutex);
}

int main(void) {
    printf("%s, API %s\n", mh_engine_version(), mh_library_version());

    /* Rules calls: no engine needed. Returned strings are freed with mh_free. */
    char* text = NULL;
    if (mh_army_suggest(MH_WHITE, 1, &text) == MH_OK) printf("suggested army: %s\n", text);
    mh_free(text);
    if (mh_legal_moves("startpos moves e2e4 e7e5", "g1", &text) == MH_OK) printf("knight moves: %s\n", text);
    mh_free(text);
    if (mh_legal_moves("startpos moves e2e5", NULL, &text) != MH_OK) printf("error: %s\n", text);
    mh_free(text);

    /* An engine: lines in, lines out through the callback. */
    mh_engine* engine = mh_engine_create(on_line, NULL);
    mh_engine_send(engine, "setoption name UCI_LimitStrength value true");
    mh_engine_send(engine, "setoption name UCI_Elo value 1500");
    mh_engine_send(engine, "position army RNBCKBNR/PPPPPPPP/3P4 rnbqkbnr/pppppppp moves e2e4");
    mh_engine_send(engine, "go movetime 200"); /* returns at once; the search runs */
    pthread_mutex_lock(&mutex);
    while (!best[0]) pthread_cond_wait(&done, &mutex);
    pthread_mutex_unlock(&mutex);
    printf("engine plays: %s\n", best);
    mh_engine_destroy(engine);
    return best[0] ? 0 : 1;
}
