#include "search/params.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

namespace maharajah::search {

void init_reductions();  // search.cpp: the late-move reduction table reads LmrBase and LmrDivisor

std::vector<ParamInfo> params() {
#define MAHARAJAH_PARAM_ROW(name, value, lo, hi) {#name, param::name, lo, hi},
    return {MAHARAJAH_SEARCH_PARAMS(MAHARAJAH_PARAM_ROW)};
#undef MAHARAJAH_PARAM_ROW
}

bool set_param(const std::string& name, [[maybe_unused]] int value) {
#ifdef MAHARAJAH_TUNE
    struct Slot {
        const char* name;
        int* value;
        int min, max;
    };
#define MAHARAJAH_PARAM_SLOT(p, v, lo, hi) {#p, &param::p, lo, hi},
    static const Slot slots[] = {MAHARAJAH_SEARCH_PARAMS(MAHARAJAH_PARAM_SLOT)};
#undef MAHARAJAH_PARAM_SLOT
    auto lower = [](std::string s) {
        for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    for (const Slot& s : slots)
        if (lower(s.name) == lower(name)) {
            if (value < s.min || value > s.max) return false;
            *s.value = value;
            init_reductions();
            return true;
        }
#endif
    (void)name;
    return false;
}

std::string spsa_input() {
    // OpenBench's SPSA defaults: the perturbation (step, c_end) about a twentieth of the
    // range, at least 1; the learning rate (r_end) 0.002.
    std::string out;
    for (const ParamInfo& p : params()) {
        const double step = std::max(1.0, (p.max - p.min) / 20.0);
        char line[160];
        std::snprintf(line, sizeof line, "%s, int, %d, %d, %d, %.1f, 0.002\n", p.name, p.value, p.min, p.max, step);
        out += line;
    }
    return out;
}

}  // namespace maharajah::search
