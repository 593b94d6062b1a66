// libmaharajah: the C interface of maharajah.h over the protocol layer. The engine
// handle is a Uci object writing into a stream whose buffer hands each finished line
// to the app's callback; the direct calls parse a position like the `position`
// command and answer like the referee commands, so there is one implementation of
// every rule. No exception leaves this file.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "api/maharajah.h"
#include "board/army.h"
#include "movegen/movegen.h"
#include "movegen/san.h"
#include "protocol/pgn.h"
#include "protocol/uci.h"

namespace {

using namespace maharajah;

// An output buffer that calls back once per finished line. Uci writes whole lines
// under its own lock; the mutex here keeps the buffer consistent regardless.
class LineBuffer : public std::streambuf {
public:
    LineBuffer(mh_line_callback callback, void* user) : callback_(callback), user_(user) {}

protected:
    int_type overflow(int_type ch) override {
        if (ch == traits_type::eof()) return traits_type::not_eof(ch);
        put(char(ch));
        return ch;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        for (std::streamsize i = 0; i < n; ++i) put(s[i]);
        return n;
    }

private:
    void put(char c) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (c != '\n') {
            line_ += c;
            return;
        }
        if (callback_) {
            try {
                callback_(user_, line_.c_str());
            } catch (...) {
                // A C++ callback that throws must not unwind through the engine.
            }
        }
        line_.clear();
    }

    mh_line_callback callback_;
    void* user_;
    std::mutex mutex_;
    std::string line_;
};

// A library-owned copy of `text` for the caller (freed with mh_free).
char* copy_out(const std::string& text) {
    char* p = static_cast<char*>(std::malloc(text.size() + 1));
    if (p) std::memcpy(p, text.c_str(), text.size() + 1);
    return p;
}

// The message of this thread's last failed call (mh_last_error).
thread_local std::string last_error;

// Records a failure's message and returns its code.
mh_result fail(int code, const std::string& message) {
    try {
        last_error = message;
    } catch (...) {
        last_error.clear();
    }
    return mh_result(code);
}

// Stores the answer (or, for the calls of interface 1.0, the error message) in *out and
// returns `code`, or MH_ERR_MEMORY.
mh_result answer(char** out, int code, const std::string& text) {
    if (code < 0) fail(code, text);
    *out = copy_out(text);
    return *out ? mh_result(code) : fail(MH_ERR_MEMORY, "out of memory");
}

// The calls since 1.1: the answer in *out on success; on failure *out stays NULL and
// the message goes to mh_last_error only.
mh_result reply(char** out, int code, const std::string& text) {
    if (code < 0) return fail(code, text);
    return answer(out, code, text);
}

// Runs a direct call with its argument checks and exception barrier.
template <typename F>
mh_result guarded(char** out, F&& body) {
    if (!out) return fail(MH_ERR_ARGUMENT, "NULL out pointer");
    *out = nullptr;
    try {
        return mh_result(body());
    } catch (const std::bad_alloc&) {
        std::free(*out);
        *out = nullptr;
        return fail(MH_ERR_MEMORY, "out of memory");
    } catch (...) {
        std::free(*out);
        return answer(out, MH_ERR_ARGUMENT, "internal error");
    }
}

// The exception barrier of the calls that answer through typed pointers.
template <typename F>
mh_result barrier(F&& body) {
    try {
        return mh_result(body());
    } catch (const std::bad_alloc&) {
        return fail(MH_ERR_MEMORY, "out of memory");
    } catch (...) {
        return fail(MH_ERR_ARGUMENT, "internal error");
    }
}

// Sets `game` from a position text; the error code, or MH_OK.
int load_game(const char* position, Game& game) {
    if (!position) return fail(MH_ERR_ARGUMENT, "position: NULL");
    std::istringstream is(position);
    std::string err = parse_position(is, game);
    return err.empty() ? MH_OK : fail(MH_ERR_POSITION, err);
}

std::vector<std::string> split_words(const char* text) {
    std::vector<std::string> v;
    std::istringstream is(text ? text : "");
    for (std::string w; is >> w;) v.push_back(w);
    return v;
}

std::string join_words(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& w : v) s += (s.empty() ? "" : " ") + w;
    return s;
}

// Sets `game` from a position text; false with the message in *out.
bool load(const char* position, Game& game, char** out, int& code) {
    if (!position) {
        code = answer(out, MH_ERR_ARGUMENT, "position: NULL");
        return false;
    }
    std::istringstream is(position);
    std::string err = parse_position(is, game);
    if (err.empty()) return true;
    code = answer(out, MH_ERR_POSITION, err);
    return false;
}

// A direct call on a position: the argument checks and exception barrier of guarded(),
// the position loaded (or its error answered), then body(game).
template <typename F>
mh_result with_position(const char* position, char** out, F&& body) {
    return guarded(out, [&]() -> int {
        Game game;
        int code = MH_OK;
        if (!load(position, game, out, code)) return code;
        return body(game);
    });
}

bool valid_color(int c) { return c == MH_WHITE || c == MH_BLACK; }

// The output queue of an engine made by mh_engine_create_queued.
struct LineQueue {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::string> lines;

    static void push(void* user, const char* line) {
        LineQueue* q = static_cast<LineQueue*>(user);
        {
            std::lock_guard<std::mutex> lock(q->mutex);
            q->lines.emplace_back(line);
        }
        q->ready.notify_one();
    }
};

}  // namespace

struct mh_engine {
    mh_engine(mh_line_callback callback, void* user) : buffer(callback, user), stream(&buffer), uci(stream) {}
    explicit mh_engine(std::unique_ptr<LineQueue> q)
        : queue(std::move(q)), buffer(&LineQueue::push, queue.get()), stream(&buffer), uci(stream) {}
    // Destroyed in reverse: the Uci (its search stopped, threads joined) goes first.
    std::unique_ptr<LineQueue> queue;  // queued engines only
    LineBuffer buffer;
    std::ostream stream;
    Uci uci;
};

namespace {

mh_status status_code(GameStatus s) {
    switch (s) {
        case GameStatus::CHECKMATE:
            return MH_STATUS_CHECKMATE;
        case GameStatus::STALEMATE:
            return MH_STATUS_STALEMATE;
        case GameStatus::DRAW_INSUFFICIENT:
            return MH_STATUS_DRAW_INSUFFICIENT;
        case GameStatus::DRAW_FIVEFOLD:
            return MH_STATUS_DRAW_FIVEFOLD;
        case GameStatus::DRAW_SEVENTYFIVE:
            return MH_STATUS_DRAW_SEVENTYFIVE;
        default:
            return MH_STATUS_ONGOING;  // the claims too: the game goes on unless claimed
    }
}

template <std::size_t N>
void copy_field(char (&dst)[N], const std::string& src) {
    std::size_t n = std::min(src.size(), N - 1);
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

}  // namespace

extern "C" {

const char* mh_library_version(void) {
#define MH_STR2(x) #x
#define MH_STR(x) MH_STR2(x)
    return MH_STR(MH_API_VERSION_MAJOR) "." MH_STR(MH_API_VERSION_MINOR) "." MH_STR(MH_API_VERSION_PATCH);
}

const char* mh_engine_version(void) {
    static const std::string version = std::string(EngineName) + " " + engine_version();
    return version.c_str();
}

void mh_free(char* text) { std::free(text); }

mh_engine* mh_engine_create(mh_line_callback on_line, void* user) {
    try {
        return new mh_engine(on_line, user);
    } catch (...) {
        return nullptr;
    }
}

mh_result mh_engine_send(mh_engine* engine, const char* line) {
    if (!engine || !line) return fail(MH_ERR_ARGUMENT, "mh_engine_send: NULL engine or line");
    try {
        std::string text(line);
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
        // One line per call: embedded newlines would smuggle in several commands.
        if (text.find_first_of("\r\n") != std::string::npos) {
            engine->uci.send("info string error: one line per call (the text has a line break)");
            return fail(MH_ERR_COMMAND, "one line per call (the text has a line break)");
        }
        if (!engine->uci.execute(text)) return MH_QUIT;
        return engine->uci.last_failed() ? fail(MH_ERR_COMMAND, engine->uci.last_error()) : MH_OK;
    } catch (const std::bad_alloc&) {
        return fail(MH_ERR_MEMORY, "out of memory");
    } catch (...) {
        return fail(MH_ERR_ARGUMENT, "internal error");
    }
}

mh_result mh_engine_set_yield(mh_engine* engine, mh_yield_callback yield, void* user, int interval_ms) {
    if (!engine || interval_ms < 0)
        return fail(MH_ERR_ARGUMENT, "mh_engine_set_yield: NULL engine or negative interval");
    try {
        std::function<void()> hook;
        if (yield) hook = [yield, user] { yield(user); };
        engine->uci.set_yield_hook(std::move(hook), interval_ms);
        return MH_OK;
    } catch (...) {
        return fail(MH_ERR_MEMORY, "out of memory");
    }
}

void mh_engine_destroy(mh_engine* engine) {
    try {
        delete engine;
    } catch (...) {
    }
}

mh_result mh_legal_moves(const char* position, const char* square, char** out) {
    return with_position(position, out, [&](const Game& game) -> int {
        Square only = SQ_NONE;
        if (square && *square) {
            if (!parse_square(square, only))
                return answer(out, MH_ERR_SQUARE, "square: '" + clip(square) + "' is not a square");
            if (game.position().empty(only))
                return answer(out, MH_ERR_SQUARE, std::string("square: no piece on ") + square);
        }
        std::string text;
        for (const std::string& m : sorted_moves(game.position(), only)) text += (text.empty() ? "" : " ") + m;
        return answer(out, MH_OK, text);
    });
}

mh_result mh_game_status(const char* position, char** out) {
    return with_position(position, out,
                         [&](const Game& game) -> int { return answer(out, MH_OK, status_name(game.status())); });
}

mh_result mh_fen(const char* position, char** out) {
    return with_position(position, out,
                         [&](const Game& game) -> int { return answer(out, MH_OK, game.position().fen()); });
}

mh_result mh_flag(const char* position, int flagged, char** out) {
    if (out && !valid_color(flagged))
        return guarded(
            out, [&]() -> int { return answer(out, MH_ERR_ARGUMENT, "flag: colour must be MH_WHITE or MH_BLACK"); });
    return with_position(position, out, [&](const Game& game) -> int {
        return answer(out, MH_OK, game.flag(flagged == MH_WHITE ? WHITE : BLACK));
    });
}

mh_result mh_army_check(int color, const char* army, char** out) {
    return guarded(out, [&]() -> int {
        if (!valid_color(color)) return answer(out, MH_ERR_ARGUMENT, "army check: colour must be MH_WHITE or MH_BLACK");
        if (!army) return answer(out, MH_ERR_ARGUMENT, "army check: NULL army");
        ArmyCheck r = check_army(color == MH_WHITE ? WHITE : BLACK, army);
        if (!r.ok()) return answer(out, MH_ERR_ARMY, r.error);
        return answer(out, MH_OK,
                      "ok points " + std::to_string(r.points) + " pieces " + std::to_string(r.pieces) + " rules " +
                          (r.variant ? "variant" : "classic"));
    });
}

mh_result mh_army_suggest(int color, uint64_t seed, char** out) {
    return guarded(out, [&]() -> int {
        if (!valid_color(color))
            return answer(out, MH_ERR_ARGUMENT, "army suggest: colour must be MH_WHITE or MH_BLACK");
        return answer(out, MH_OK, suggest_army(color == MH_WHITE ? WHITE : BLACK, seed));
    });
}

const char* mh_errstr(int code) {
    switch (code) {
        case MH_OK:
            return "ok";
        case MH_QUIT:
            return "quit";
        case MH_TIMEOUT:
            return "timeout";
        case MH_ERR_ARGUMENT:
            return "bad argument";
        case MH_ERR_POSITION:
            return "bad position";
        case MH_ERR_SQUARE:
            return "bad square";
        case MH_ERR_ARMY:
            return "invalid army";
        case MH_ERR_COMMAND:
            return "command failed";
        case MH_ERR_MEMORY:
            return "out of memory";
        case MH_ERR_NOTATION:
            return "bad notation";
        case MH_ERR_BUFFER:
            return "buffer too small";
        default:
            return "unknown result";
    }
}

const char* mh_last_error(void) { return last_error.c_str(); }

mh_engine* mh_engine_create_queued(void) {
    try {
        return new mh_engine(std::make_unique<LineQueue>());
    } catch (...) {
        return nullptr;
    }
}

mh_result mh_engine_read_line(mh_engine* engine, int timeout_ms, char* buffer, size_t size) {
    if (!engine || !engine->queue || !buffer || size == 0)
        return fail(MH_ERR_ARGUMENT, "mh_engine_read_line: NULL or callback engine, NULL buffer or size 0");
    return barrier([&]() -> int {
        LineQueue& q = *engine->queue;
        std::unique_lock<std::mutex> lock(q.mutex);
        auto has_line = [&]() -> int { return !q.lines.empty(); };
        if (timeout_ms < 0)
            q.ready.wait(lock, has_line);
        else if (!q.ready.wait_for(lock, std::chrono::milliseconds(timeout_ms), has_line))
            return MH_TIMEOUT;
        const std::string& line = q.lines.front();
        if (line.size() + 1 > size)
            return int(fail(MH_ERR_BUFFER,
                            "mh_engine_read_line: the line needs " + std::to_string(line.size() + 1) + " bytes"));
        std::memcpy(buffer, line.c_str(), line.size() + 1);
        q.lines.pop_front();
        return int(MH_OK);
    });
}

mh_result mh_game_state_of(const char* position, mh_game_state* state) {
    if (!state) return fail(MH_ERR_ARGUMENT, "mh_game_state_of: NULL state");
    return barrier([&]() -> int {
        Game game;
        if (int code = load_game(position, game)) return code;
        const GameStatus s = game.status();
        state->status = status_code(s);
        state->claim = s == GameStatus::CLAIM_THREEFOLD ? MH_CLAIM_THREEFOLD
                       : s == GameStatus::CLAIM_FIFTY   ? MH_CLAIM_FIFTY
                                                        : MH_CLAIM_NONE;
        state->side_to_move = game.position().side_to_move() == WHITE ? MH_WHITE : MH_BLACK;
        state->in_check = game.position().in_check() ? 1 : 0;
        return int(MH_OK);
    });
}

mh_result mh_incheck(const char* position, int* in_check) {
    if (!in_check) return fail(MH_ERR_ARGUMENT, "mh_incheck: NULL in_check");
    return barrier([&]() -> int {
        Game game;
        if (int code = load_game(position, game)) return code;
        *in_check = game.position().in_check() ? 1 : 0;
        return int(MH_OK);
    });
}

mh_result mh_army_info_of(int color, const char* army, mh_army_info* info) {
    if (!info || !army || !valid_color(color))
        return fail(MH_ERR_ARGUMENT, "mh_army_info_of: NULL army or info, or a colour not MH_WHITE/MH_BLACK");
    return barrier([&]() -> int {
        ArmyCheck r = check_army(color == MH_WHITE ? WHITE : BLACK, army);
        if (!r.ok()) return int(fail(MH_ERR_ARMY, r.error));
        *info = mh_army_info{r.points, r.pieces, r.variant ? 1 : 0};
        return int(MH_OK);
    });
}

mh_result mh_to_san(const char* position, const char* uci_moves, char** out) {
    return guarded(out, [&]() -> int {
        Game game;
        if (int code = load_game(position, game)) return code;
        std::vector<std::string> san;
        if (std::string err = line_to_san(game.position(), split_words(uci_moves), &san); !err.empty())
            return int(fail(MH_ERR_POSITION, "to_san: " + err));
        return int(reply(out, MH_OK, join_words(san)));
    });
}

mh_result mh_from_san(const char* position, const char* san_moves, char** out) {
    return guarded(out, [&]() -> int {
        Game game;
        if (int code = load_game(position, game)) return code;
        std::vector<std::string> uci;
        if (std::string err = line_from_san(game.position(), split_words(san_moves), &uci); !err.empty())
            return int(fail(MH_ERR_NOTATION, "from_san: " + err));
        return int(reply(out, MH_OK, join_words(uci)));
    });
}

mh_result mh_move_list(const char* position, mh_move** moves, int* count) {
    if (!moves || !count) return fail(MH_ERR_ARGUMENT, "mh_move_list: NULL moves or count");
    *moves = nullptr;
    *count = 0;
    return barrier([&]() -> int {
        Game game;
        if (int code = load_game(position, game)) return code;
        const Position& pos = game.position();
        std::vector<mh_move> list;
        for (Move m : MoveList<LEGAL>(pos)) {
            const MoveFacts f = move_facts(pos, m);
            mh_move x{};
            copy_field(x.uci, move_to_uci(pos, m));
            copy_field(x.san, move_to_san(pos, m));
            x.flags = (f.capture ? MH_MOVE_CAPTURE : 0) | (f.en_passant ? MH_MOVE_EN_PASSANT : 0) |
                      (f.castling ? MH_MOVE_CASTLE : 0) | (f.promotion ? MH_MOVE_PROMOTION : 0) |
                      (f.check ? MH_MOVE_CHECK : 0) | (f.mate ? MH_MOVE_MATE : 0);
            if (f.castling) {
                copy_field(x.rook_from, square_name(f.rook_from));
                copy_field(x.rook_to, square_name(f.rook_to));
            }
            list.push_back(x);
        }
        std::sort(list.begin(), list.end(),
                  [](const mh_move& a, const mh_move& b) { return std::strcmp(a.uci, b.uci) < 0; });
        if (list.empty()) return int(MH_OK);
        mh_move* array = static_cast<mh_move*>(std::malloc(list.size() * sizeof(mh_move)));
        if (!array) return int(fail(MH_ERR_MEMORY, "out of memory"));
        std::memcpy(array, list.data(), list.size() * sizeof(mh_move));
        *moves = array;
        *count = int(list.size());
        return int(MH_OK);
    });
}

void mh_free_moves(mh_move* moves) { std::free(moves); }

mh_result mh_move_list_text(const char* position, char** out) {
    return guarded(out, [&]() -> int {
        Game game;
        if (int code = load_game(position, game)) return code;
        const Position& pos = game.position();
        std::vector<std::pair<std::string, std::string>> lines;
        for (Move m : MoveList<LEGAL>(pos)) lines.emplace_back(move_to_uci(pos, m), movelist_line(pos, m));
        std::sort(lines.begin(), lines.end());
        std::string text;
        for (const auto& l : lines) text += l.second + '\n';
        return int(reply(out, MH_OK, text));
    });
}

mh_result mh_pgn(const char* position, int flagged, const char* tags, char** out) {
    return guarded(out, [&]() -> int {
        if (flagged != MH_NO_FLAG && !valid_color(flagged))
            return int(fail(MH_ERR_ARGUMENT, "pgn: flagged must be MH_WHITE, MH_BLACK or MH_NO_FLAG"));
        Game game;
        if (int code = load_game(position, game)) return code;
        PgnGame extra;
        if (tags && *tags) {
            Game scratch;
            if (std::string err = read_pgn(tags, &scratch, &extra); !err.empty())
                return int(fail(MH_ERR_NOTATION, "pgn tags: " + err));
        }
        const PgnOutcome outcome =
            flagged == MH_NO_FLAG ? outcome_of(game) : outcome_of_flag(game.flag(flagged == MH_WHITE ? WHITE : BLACK));
        return int(reply(out, MH_OK, write_pgn(game, outcome, extra.tags)));
    });
}

mh_result mh_pgn_read(const char* pgn, char** out) {
    return guarded(out, [&]() -> int {
        if (!pgn) return int(fail(MH_ERR_ARGUMENT, "pgn: NULL"));
        Game game;
        if (std::string err = read_pgn(pgn, &game); !err.empty()) return int(fail(MH_ERR_NOTATION, err));
        return int(reply(out, MH_OK, position_text(game)));
    });
}

}  // extern "C"
