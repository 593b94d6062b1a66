// Perft against the reference data (tests/data, copied from the rule book's suite).

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "movegen/perft.h"

using namespace maharajah;

namespace {

struct PerftLine {
    std::string fen;
    int depth;
    std::uint64_t nodes;
};

std::vector<PerftLine> read_suite(const std::string& name) {
    std::ifstream in(std::string(MAHARAJAH_TEST_DATA_DIR) + "/" + name);
    std::vector<PerftLine> lines;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream is(line);
        PerftLine p;
        std::getline(is, p.fen, '\t');
        is >> p.depth >> p.nodes;
        lines.push_back(p);
    }
    return lines;
}

// Checks every line of the suite with at most `max_nodes` nodes.
void run_suite(const std::string& name, std::size_t expected_lines, std::uint64_t max_nodes = UINT64_MAX,
               bool chess960 = false) {
    auto suite = read_suite(name);
    REQUIRE(suite.size() == expected_lines);  // the file was read whole
    for (const auto& p : suite) {
        if (p.nodes > max_nodes) continue;
        Position pos;
        StateInfo st;
        std::string error = pos.set(p.fen, st, chess960);
        INFO(p.fen << " depth " << p.depth);
        REQUIRE(error.empty());
        REQUIRE(perft(pos, p.depth) == p.nodes);
        REQUIRE(pos.key() == pos.compute_key());  // make/unmake left it intact
    }
}

}  // namespace

TEST_CASE("perft matches every line of standard.tsv", "[perft][slow]") { run_suite("standard.tsv", 180); }

TEST_CASE("perft matches every line of variant.tsv", "[perft][slow]") { run_suite("variant.tsv", 308); }

// The small lines alone: the perft check the sanitizer builds run (scripts/sanitize),
// seconds there where the whole suites (3.7 billion nodes) would take hours.
TEST_CASE("perft matches the lines of both suites up to 2 million nodes", "[perft][small]") {
    run_suite("standard.tsv", 180, 2000000);
    run_suite("variant.tsv", 308, 2000000);
}

TEST_CASE("perft divide sums to perft and lists each root move once", "[perft]") {
    Position pos;
    StateInfo st;
    REQUIRE(pos.set("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", st).empty());
    auto divide = perft_divide(pos, 3);
    std::uint64_t sum = 0;
    for (auto& [m, n] : divide) sum += n;
    REQUIRE(divide.size() == 48);
    REQUIRE(sum == 97862);
}

TEST_CASE("perft matches the Chess960 positions of chess960.tsv", "[perft][chess960]") {
    run_suite("chess960.tsv", 71, UINT64_MAX, true);
}
