// The options table of docs/protocol.md against what `uci` lists: the same options in
// the same order, with the same types, defaults, ranges and combo values.

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "support/uci_session.h"

using namespace maharajah;

namespace {

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" `"), b = s.find_last_not_of(" `");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// "name|type|default|min|max|vars..." from one `option name ...` line of `uci`.
std::string from_uci(const std::string& line) {
    const auto type_at = line.find(" type ");
    std::string text = line.substr(type_at + 6), name = line.substr(12, type_at - 12);
    std::istringstream is(text);
    std::string type, word, def, min, max, vars;
    is >> type;
    while (is >> word) {
        if (word == "default") {
            // A default runs to the next keyword (a string's may hold spaces).
            std::string w;
            while (is >> w && w != "min" && w != "var") def += (def.empty() ? "" : " ") + w;
            if (w == "min") is >> min >> word >> max;
            if (w == "var") is >> w, vars += "/" + w;
        } else if (word == "var") {
            is >> word;
            vars += "/" + word;
        }
    }
    return name + "|" + type + "|" + def + "|" + min + "|" + max + "|" + vars;
}

// The same from one row of the docs' table: | `Name` | spin 1-65536 | 16 | meaning |.
std::string from_docs(const std::string& row) {
    std::vector<std::string> cells;
    std::istringstream is(row.substr(1));
    for (std::string cell; std::getline(is, cell, '|') && cells.size() < 3;) cells.push_back(trim(cell));
    std::istringstream spec(cells.at(1));
    std::string type, range, min, max, vars;
    spec >> type >> range;
    if (type == "spin") {
        const auto dash = range.find('-', 1);
        min = range.substr(0, dash), max = range.substr(dash + 1);
    } else if (type == "combo") {
        vars = "/" + range;
    }
    return cells[0] + "|" + type + "|" + cells[2] + "|" + min + "|" + max + "|" + vars;
}

}  // namespace

TEST_CASE("docs/protocol.md lists the options uci lists", "[uci][docs]") {
    std::ifstream file(MAHARAJAH_DOCS_DIR "/protocol.md");
    REQUIRE(file);
    std::vector<std::string> documented;
    bool in_section = false;
    for (std::string line; std::getline(file, line);) {
        if (line.rfind("## ", 0) == 0) in_section = line == "## UCI options";
        if (in_section && line.rfind("| `", 0) == 0) documented.push_back(from_docs(line));
    }
    testsupport::UciSession s;
    s.uci.show_dev_options(true);  // the docs list the developer option Ablate too
    std::vector<std::string> listed;
    for (const std::string& line : testsupport::starting_with(s.run("uci\n"), "option name "))
        listed.push_back(from_uci(line));
    REQUIRE(listed.size() >= 15);
    REQUIRE(documented == listed);
}

TEST_CASE("setoption refuses a value outside what uci lists with one error line", "[uci]") {
    testsupport::UciSession s;
    s.uci.show_dev_options(true);
    int spins = 0, checks = 0;
    for (const std::string& line : testsupport::starting_with(s.run("uci\n"), "option name ")) {
        std::istringstream is(from_uci(line));
        std::string name, type, def, min, max;
        std::getline(is, name, '|'), std::getline(is, type, '|'), std::getline(is, def, '|');
        std::getline(is, min, '|'), std::getline(is, max, '|');
        INFO(line);
        if (type == "spin") {
            ++spins;
            const std::string error =
                "info string error: setoption: " + name + " must be a number from " + min + " to " + max + ", got '";
            for (const std::string& bad : {std::to_string(std::stoll(min) - 1), std::to_string(std::stoll(max) + 1),
                                           def + "x", std::string("")}) {
                const auto out = s.run("setoption name " + name + " value " + bad + "\n");
                REQUIRE(out == std::vector<std::string>{error + bad + "'"});
            }
        } else if (type == "check") {
            ++checks;
            REQUIRE(s.run("setoption name " + name + " value maybe\n") ==
                    std::vector<std::string>{"info string error: setoption: " + name +
                                             " must be true or false, got 'maybe'"});
        }
    }
    REQUIRE(spins >= 7);
    REQUIRE(checks >= 4);
}
