// Training data: the 64-byte record keeps everything a position needs (a round trip
// through the record gives the same Zobrist key, which covers pieces, side, castling,
// en passant and double-step rights), random armies obey the army rules in every
// classic/variant mix, and a datagen run is the same for a seed whatever the threads.

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "board/army.h"
#include "core/random.h"
#include "datagen/datagen.h"
#include "datagen/packed.h"
#include "eval/nnue.h"
#include "movegen/movegen.h"
#include "protocol/game.h"
#include "support/random_armies.h"

using namespace maharajah;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

}  // namespace

TEST_CASE("a record round-trips every position of random playouts", "[datagen]") {
    Position::init();
    std::uint64_t rng = 99;
    int checked = 0;
    for (int game = 0; game < 60; ++game) {
        Game g;
        std::string fen = game % 5 == 0 ? StartFen : testsupport::random_army_fen(1000 + game, game % 4);
        REQUIRE(g.set(fen, {}).empty());
        for (int ply = 0; ply < 120 && g.status().rfind("ongoing", 0) == 0; ++ply) {
            const Position& pos = g.position();
            Value score = Value(splitmix64(rng) % 4001) - 2000;
            MoveList<LEGAL> moves(pos);
            Move m = moves.begin()[splitmix64(rng) % moves.size()];
            auto result = datagen::Result(splitmix64(rng) % 3);
            datagen::Unpacked u = datagen::unpack(datagen::pack(pos, score, m, result));
            REQUIRE(!u.fen.empty());
            Position back;
            StateInfo st;
            INFO(pos.fen() << " -> " << u.fen);
            REQUIRE(back.set(u.fen, st).empty());
            REQUIRE(back.key() == pos.key());
            REQUIRE(back.fen() == pos.fen());
            REQUIRE(u.score == score);
            REQUIRE(u.best == m);
            REQUIRE(u.result == result);
            ++checked;
            g.play(m);
        }
    }
    REQUIRE(checked > 3000);
}

TEST_CASE("a malformed record is refused", "[datagen]") {
    Position::init();
    Game g;
    datagen::Record r = datagen::pack(g.position(), 10, MOVE_NONE, datagen::DRAWN);
    datagen::Record bad_code = r;
    bad_code[8] = 0x1F;  // first occupied square: colour 0, type 15 is fine, so use type 12
    bad_code[8] = (bad_code[8] & 0xE0) | 12;
    REQUIRE(datagen::unpack(bad_code).fen.empty());
    datagen::Record bad_result = r;
    bad_result[51] = 3;
    REQUIRE(datagen::unpack(bad_result).fen.empty());
    datagen::Record bad_ep = r;
    bad_ep[49] = 65;
    REQUIRE(datagen::unpack(bad_ep).fen.empty());
}

TEST_CASE("random armies obey the army rules in each mix", "[datagen]") {
    std::uint64_t rng = 5;
    for (int i = 0; i < 400; ++i) {
        Color c = Color(i & 1);
        bool variant = i & 2;
        std::string text = datagen::random_army(c, variant, rng);
        ArmyCheck check = check_army(c, text);
        INFO(text);
        REQUIRE(check.ok());
        REQUIRE(check.points == ArmyPoints);
        REQUIRE(check.variant == variant);
    }
}

TEST_CASE("starts cover standard chess, suggested and random army pairs", "[datagen]") {
    Position::init();
    datagen::Config config;
    std::map<std::string, int> kinds;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        datagen::Start s = datagen::make_start(config, {}, seed);
        ++kinds[s.kind];
        Game g;
        REQUIRE(g.set(s.fen, {}).empty());
        REQUIRE(g.status() == "ongoing");
        if (s.kind.rfind("random", 0) == 0) {
            // The mix's letters say which side is classic (c) or variant (v).
            REQUIRE(g.position().rules(WHITE).variant == (s.kind[7] == 'v'));
            REQUIRE(g.position().rules(BLACK).variant == (s.kind[8] == 'v'));
        }
    }
    for (const char* k : {"standard", "suggested", "random cc", "random cv", "random vc", "random vv"})
        REQUIRE(kinds[k] > 10);
}

TEST_CASE("the shares of the start kinds can be set", "[datagen]") {
    Position::init();
    datagen::Config config;
    REQUIRE(datagen::parse_config({"standard", "0", "suggested", "100"}, config).empty());
    for (std::uint64_t seed = 1; seed <= 100; ++seed) REQUIRE(datagen::make_start(config, {}, seed).kind == "suggested");
    REQUIRE(datagen::parse_config({"standard", "20", "suggested", "30"}, config).empty());
    std::map<std::string, int> kinds;
    for (std::uint64_t seed = 1; seed <= 1000; ++seed) ++kinds[datagen::make_start(config, {}, seed).kind.substr(0, 6)];
    REQUIRE(kinds["standa"] > 150);
    REQUIRE(kinds["standa"] < 250);
    REQUIRE(kinds["sugges"] > 250);
    REQUIRE(kinds["sugges"] < 350);
    REQUIRE(kinds["random"] > 450);
    REQUIRE(kinds["random"] < 550);
}

TEST_CASE("datagen is deterministic for a seed whatever the thread count", "[datagen]") {
    Position::init();
    const std::string a = "datagen_test_a.data", b = "datagen_test_b.data";
    std::ostringstream log;
    datagen::Config config;
    REQUIRE(datagen::parse_config({"games", "6", "nodes", "800", "seed", "3", "threads", "1", "out", a}, config).empty());
    REQUIRE(datagen::run(config, log) == 0);
    REQUIRE(datagen::parse_config({"threads", "2", "out", b}, config).empty());
    REQUIRE(datagen::run(config, log) == 0);
    std::string da = read_file(a), db = read_file(b);
    std::remove(a.c_str());
    std::remove(b.c_str());
    REQUIRE(da.size() % datagen::RecordSize == 0);
    REQUIRE(da.size() / datagen::RecordSize > 100);
    REQUIRE(da == db);
    REQUIRE(log.str().find("positions") != std::string::npos);
    // Every record reads back to a legal, quiet position that is not in check.
    for (std::size_t at = 0; at < da.size(); at += datagen::RecordSize) {
        datagen::Record r;
        std::copy(da.begin() + long(at), da.begin() + long(at + datagen::RecordSize), r.begin());
        datagen::Unpacked u = datagen::unpack(r);
        Position pos;
        StateInfo st;
        REQUIRE(pos.set(u.fen, st).empty());
        REQUIRE(!pos.in_check());
        REQUIRE(parse_uci_move(pos, move_to_uci(u.best)) == u.best);
        REQUIRE(pos.empty(to_sq(u.best)));
        REQUIRE(std::abs(u.score) < VALUE_MATE_IN_MAX_PLY);
    }
}

TEST_CASE("datagen options are checked", "[datagen]") {
    datagen::Config config;
    REQUIRE(!datagen::parse_config({"games", "0"}, config).empty());
    REQUIRE(!datagen::parse_config({"nodes"}, config).empty());
    REQUIRE(!datagen::parse_config({"threads", "-1"}, config).empty());
    REQUIRE(!datagen::parse_config({"eval", "magic"}, config).empty());
    REQUIRE(!datagen::parse_config({"colour", "1"}, config).empty());
    REQUIRE(!datagen::parse_config({"nodes", "0", "depth", "0"}, config).empty());
    REQUIRE(!datagen::parse_config({"standard", "101"}, config).empty());
    REQUIRE(!datagen::parse_config({"standard", "60", "suggested", "50"}, config).empty());
    std::ostringstream log;
    config = datagen::Config();
    REQUIRE(datagen::parse_config({"book", "/nonexistent/book.txt"}, config).empty());
    REQUIRE(datagen::run(config, log) == 1);
    REQUIRE(log.str().find("error: cannot read the book") != std::string::npos);
}

TEST_CASE("datagen evalfile: the players use that net; a bad file is refused", "[datagen][nnue]") {
    Position::init();
    const std::string net = "datagen_test.nnue", a = "datagen_test_c.data", b = "datagen_test_d.data";
    {
        std::ofstream out(net, std::ios::binary);
        out << nnue::builtin_bytes();
    }
    std::ostringstream log;
    datagen::Config config;
    REQUIRE(datagen::parse_config({"games", "4", "nodes", "600", "seed", "9", "eval", "nnue", "out", a}, config).empty());
    REQUIRE(datagen::run(config, log) == 0);
    REQUIRE(datagen::parse_config({"evalfile", net, "out", b}, config).empty());
    REQUIRE(datagen::run(config, log) == 0);
    REQUIRE(log.str().find("datagen: net " + net) != std::string::npos);
    nnue::use_builtin();
    std::string da = read_file(a), db = read_file(b);
    REQUIRE(da.size() > 10 * datagen::RecordSize);
    REQUIRE(da == db);  // the same net from a file plays the same games

    // Another net (the own-pawn rows zeroed, hash recomputed) plays other games.
    std::string other = nnue::builtin_bytes();
    std::uint32_t description_size = 0;
    std::memcpy(&description_size, other.data() + 48, 4);
    const std::size_t payload = 52 + description_size;
    std::fill(other.begin() + long(payload), other.begin() + long(payload + 64 * 256 * 2), '\0');
    std::uint64_t hash = 0xCBF29CE484222325ULL;  // FNV-1a 64 of the payload
    for (std::size_t i = payload; i < other.size(); ++i) hash = (hash ^ (unsigned char)other[i]) * 0x100000001B3ULL;
    std::memcpy(other.data() + 32, &hash, 8);
    {
        std::ofstream out(net, std::ios::binary | std::ios::trunc);
        out << other;
    }
    REQUIRE(datagen::run(config, log) == 0);
    nnue::use_builtin();
    REQUIRE(read_file(b) != da);

    // A truncated net: an error, nothing written, the built-in net stays active.
    std::string bytes = nnue::builtin_bytes();
    {
        std::ofstream out(net, std::ios::binary | std::ios::trunc);
        out << bytes.substr(0, bytes.size() / 2);
    }
    std::remove(b.c_str());
    std::ostringstream bad;
    REQUIRE(datagen::run(config, bad) == 1);
    REQUIRE(bad.str().find("error: evalfile") != std::string::npos);
    REQUIRE(nnue::active_name() == nnue::BuiltinName);
    REQUIRE(read_file(b).empty());
    std::remove(net.c_str());
    std::remove(a.c_str());
}
