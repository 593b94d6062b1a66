// WebAssembly glue (scripts/wasm/build): routes each engine's output lines to the JS
// module (scripts/wasm/maharajah.js) and gives a searching engine the JS event loop.
// The search runs on the JS thread; every ~40 ms it yields: emscripten_sleep (Asyncify)
// lets the worker's message handler run, and the lines it set aside for this engine
// ("stop", "ponderhit", "isready") are executed before the search goes on.

#include <emscripten.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include "api/maharajah.h"

// The EM_JS bodies are JavaScript, which clang-format would mangle (=== to == =).
// clang-format off
// Defined by scripts/wasm/maharajah.js on the module object.
EM_JS(void, mhw_deliver, (int id, const char* line), { Module["mhLine"](id, UTF8ToString(line)); });
// A malloc'ed copy of the next line set aside for engine `id`, or 0.
EM_JS(char*, mhw_take_urgent, (int id), {
    var line = Module["mhTakeUrgent"](id);
    if (line === null || line === undefined) return 0;
    var size = lengthBytesUTF8(line) + 1;
    var p = _malloc(size);
    stringToUTF8(line, p, size);
    return p;
});
// clang-format on

namespace {

struct Host {
    int id;
    mh_engine* engine;
};

void on_line(void* user, const char* line) { mhw_deliver(static_cast<Host*>(user)->id, line); }

void on_yield(void* user) {
    Host* host = static_cast<Host*>(user);
    emscripten_sleep(1);
    while (char* line = mhw_take_urgent(host->id)) {
        mh_engine_send(host->engine, line);
        std::free(line);
    }
}

}  // namespace

extern "C" {

// A new engine whose lines go to Module.mhLine(id, line). Returns its host record
// (the handle JS passes back below), or 0.
EMSCRIPTEN_KEEPALIVE Host* mhw_engine_create(int id) {
    Host* host = new (std::nothrow) Host{id, nullptr};
    if (!host) return nullptr;
    host->engine = mh_engine_create(on_line, host);
    if (!host->engine || mh_engine_set_yield(host->engine, on_yield, host, 40) != MH_OK) {
        mh_engine_destroy(host->engine);
        delete host;
        return nullptr;
    }
    return host;
}

// mh_engine_send: with "go", returns (a Promise in JS) after the bestmove.
EMSCRIPTEN_KEEPALIVE int mhw_engine_send(Host* host, const char* line) {
    return host ? mh_engine_send(host->engine, line) : MH_ERR_ARGUMENT;
}

EMSCRIPTEN_KEEPALIVE void mhw_engine_destroy(Host* host) {
    if (!host) return;
    mh_engine_destroy(host->engine);
    delete host;
}

// The seed in two 32-bit halves (JS numbers cannot carry 64 bits).
EMSCRIPTEN_KEEPALIVE int mhw_army_suggest(int color, std::uint32_t seed_low, std::uint32_t seed_high, char** out) {
    return mh_army_suggest(color, (std::uint64_t(seed_high) << 32) | seed_low, out);
}

}  // extern "C"
