#pragma once
// A UCI loop over string streams for tests: commands in, output lines out.

#include <sstream>
#include <string>
#include <vector>

#include "protocol/uci.h"

namespace testsupport {

// The lines that start with `prefix`.
inline std::vector<std::string> starting_with(const std::vector<std::string>& lines, const std::string& prefix) {
    std::vector<std::string> v;
    for (const auto& l : lines)
        if (l.rfind(prefix, 0) == 0) v.push_back(l);
    return v;
}

// The node count of an `info ... nodes N ...` line ("" when it has none).
inline std::string nodes_of(const std::string& info) {
    const auto at = info.find(" nodes ");
    if (at == std::string::npos) return "";
    std::istringstream is(info.substr(at + 7));
    std::string n;
    is >> n;
    return n;
}

// The centipawn score of an `info ... score cp N ...` line (`none` when it has none).
inline int score_cp_of(const std::string& info, int none) {
    const auto at = info.find(" score cp ");
    return at == std::string::npos ? none : std::stoi(info.substr(at + 10));
}

struct UciSession {
    std::ostringstream out;
    maharajah::Uci uci{out};

    // Runs the commands (a finite search still running at the end is waited for) and
    // returns the lines written meanwhile.
    std::vector<std::string> run(const std::string& commands) {
        {
            const auto lock = uci.lock_output();
            out.str("");
        }
        std::istringstream in(commands);
        uci.run_script(in);
        return lines();
    }
    // Every line written since the last run().
    std::vector<std::string> lines() {
        std::vector<std::string> v;
        std::string text;
        {
            const auto lock = uci.lock_output();
            text = out.str();
        }
        std::istringstream o(text);
        for (std::string l; std::getline(o, l);) v.push_back(l);
        return v;
    }
};

}  // namespace testsupport
