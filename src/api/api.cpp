// libmaharajah: the C interface of maharajah.h over the protocol layer. The engine
// handle is a Uci object writing into a stream whose buffer hands each finished line
// to the app's callback; the direct calls parse a position like the `position`
// command and answer like the referee commands, so there is one implementation of
// every rule. No exception leaves this file.

#include "api/maharajah.h"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <new>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "board/army.h"
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

// Stores the answer (or error message) in *out and returns `code`, or MH_ERR_MEMORY.
int answer(char** out, int code, const std::string& text) {
    *out = copy_out(text);
    return *out ? code : MH_ERR_MEMORY;
}

// Runs a direct call with its argument checks and exception barrier.
template <typename F>
int guarded(char** out, F&& body) {
    if (!out) return MH_ERR_ARGUMENT;
    *out = nullptr;
    try {
        return body();
    } catch (const std::bad_alloc&) {
        std::free(*out);
        *out = nullptr;
        return MH_ERR_MEMORY;
    } catch (...) {
        std::free(*out);
        return answer(out, MH_ERR_ARGUMENT, "internal error");
    }
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
int with_position(const char* position, char** out, F&& body) {
    return guarded(out, [&] {
        Game game;
        int code = MH_OK;
        if (!load(position, game, out, code)) return code;
        return body(game);
    });
}

bool valid_color(int c) { return c == MH_WHITE || c == MH_BLACK; }

}  // namespace

struct mh_engine {
    mh_engine(mh_line_callback callback, void* user) : buffer(callback, user), stream(&buffer), uci(stream) {}
    // Destroyed in reverse: the Uci (its search stopped, threads joined) goes first.
    LineBuffer buffer;
    std::ostream stream;
    Uci uci;
};

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

int mh_engine_send(mh_engine* engine, const char* line) {
    if (!engine || !line) return MH_ERR_ARGUMENT;
    try {
        std::string text(line);
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
        // One line per call: embedded newlines would smuggle in several commands.
        if (text.find_first_of("\r\n") != std::string::npos) {
            engine->uci.send("info string error: one line per call (the text has a line break)");
            return MH_ERR_COMMAND;
        }
        if (!engine->uci.execute(text)) return MH_QUIT;
        return engine->uci.last_failed() ? MH_ERR_COMMAND : MH_OK;
    } catch (const std::bad_alloc&) {
        return MH_ERR_MEMORY;
    } catch (...) {
        return MH_ERR_ARGUMENT;
    }
}

int mh_engine_set_yield(mh_engine* engine, mh_yield_callback yield, void* user, int interval_ms) {
    if (!engine || interval_ms < 0) return MH_ERR_ARGUMENT;
    try {
        std::function<void()> hook;
        if (yield) hook = [yield, user] { yield(user); };
        engine->uci.set_yield_hook(std::move(hook), interval_ms);
        return MH_OK;
    } catch (...) {
        return MH_ERR_MEMORY;
    }
}

void mh_engine_destroy(mh_engine* engine) {
    try {
        delete engine;
    } catch (...) {
    }
}

int mh_legal_moves(const char* position, const char* square, char** out) {
    return with_position(position, out, [&](const Game& game) {
        Square only = SQ_NONE;
        if (square && *square) {
            if (!parse_square(square, only))
                return answer(out, MH_ERR_SQUARE, "square: '" + clip(square) + "' is not a square");
            if (game.position().empty(only)) return answer(out, MH_ERR_SQUARE, std::string("square: no piece on ") + square);
        }
        std::string text;
        for (const std::string& m : sorted_moves(game.position(), only)) text += (text.empty() ? "" : " ") + m;
        return answer(out, MH_OK, text);
    });
}

int mh_game_status(const char* position, char** out) {
    return with_position(position, out, [&](const Game& game) { return answer(out, MH_OK, game.status()); });
}

int mh_fen(const char* position, char** out) {
    return with_position(position, out, [&](const Game& game) { return answer(out, MH_OK, game.position().fen()); });
}

int mh_flag(const char* position, int flagged, char** out) {
    if (out && !valid_color(flagged))
        return guarded(out, [&] { return answer(out, MH_ERR_ARGUMENT, "flag: colour must be MH_WHITE or MH_BLACK"); });
    return with_position(position, out,
                         [&](const Game& game) { return answer(out, MH_OK, game.flag(flagged == MH_WHITE ? WHITE : BLACK)); });
}

int mh_army_check(int color, const char* army, char** out) {
    return guarded(out, [&] {
        if (!valid_color(color)) return answer(out, MH_ERR_ARGUMENT, "army check: colour must be MH_WHITE or MH_BLACK");
        if (!army) return answer(out, MH_ERR_ARGUMENT, "army check: NULL army");
        ArmyCheck r = check_army(color == MH_WHITE ? WHITE : BLACK, army);
        if (!r.ok()) return answer(out, MH_ERR_ARMY, r.error);
        return answer(out, MH_OK,
                      "ok points " + std::to_string(r.points) + " pieces " + std::to_string(r.pieces) + " rules " +
                          (r.variant ? "variant" : "classic"));
    });
}

int mh_army_suggest(int color, uint64_t seed, char** out) {
    return guarded(out, [&] {
        if (!valid_color(color)) return answer(out, MH_ERR_ARGUMENT, "army suggest: colour must be MH_WHITE or MH_BLACK");
        return answer(out, MH_OK, suggest_army(color == MH_WHITE ? WHITE : BLACK, seed));
    });
}

}  // extern "C"
