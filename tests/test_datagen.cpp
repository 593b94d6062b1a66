// Training data: the 64-byte record keeps everything a position needs (a round trip
// through the record gives the same Zobrist key, which covers pieces, side, castling,
// en passant and double-step rights), random armies obey the army rules in every
// classic/variant mix, and a datagen run is the same for a seed whatever the threads.

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
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
        for (int ply = 0; ply < 120 && std::string(status_name(g.status())).rfind("ongoing", 0) == 0; ++ply) {
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

namespace {

std::vector<datagen::GameRecord> read_games(const std::string& bytes) {
    std::istringstream in(bytes);
    std::vector<datagen::GameRecord> games;
    datagen::GameRecord g;
    std::string error;
    while (datagen::read_game(in, g, error)) games.push_back(g);
    REQUIRE(error.empty());
    return games;
}

datagen::Config small_run(std::vector<std::string> extra = {}) {
    datagen::Config config;
    std::vector<std::string> args = {"games", "6", "nodes", "600", "seed", "3", "verifynodes", "1000"};
    args.insert(args.end(), extra.begin(), extra.end());
    REQUIRE(datagen::parse_config(args, config).empty());
    return config;
}

}  // namespace

TEST_CASE("Chess960 starts: 960 distinct legal back ranks, 518 the ordinary start", "[datagen][chess960]") {
    Position::init();
    REQUIRE(datagen::chess960_fen(518) == StartFen);
    std::set<std::string> seen;
    for (int n = 0; n < 960; ++n) {
        std::string fen = datagen::chess960_fen(n);
        seen.insert(fen);
        const std::string rank = fen.substr(fen.rfind('/') + 1, 8);
        INFO(n << " " << fen);
        const auto b1 = rank.find('B'), b2 = rank.rfind('B'), k = rank.find('K');
        REQUIRE((b1 + b2) % 2 == 1);  // bishops on opposite colours
        REQUIRE(rank.find('R') < k);  // the king between its rooks
        REQUIRE(rank.rfind('R') > k);
        Game g;
        REQUIRE(g.set(fen, {}, true).empty());
        REQUIRE(MoveList<LEGAL>(g.position()).size() >= 18);
    }
    REQUIRE(seen.size() == 960);
}

TEST_CASE("starts cover standard chess, Chess960, suggested and random army pairs in every mix", "[datagen]") {
    Position::init();
    datagen::Config config;
    std::map<int, int> kinds;
    std::set<std::pair<bool, bool>> mixes;
    std::set<int> army_plies_parity;
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        std::uint64_t rng = seed;
        datagen::Start s = datagen::make_start(config, {}, rng);
        ++kinds[s.kind];
        Game g;
        INFO(s.fen);
        REQUIRE(g.set(s.fen, {}, s.kind == datagen::START_CHESS960).empty());
        REQUIRE(status_name(g.status()) == std::string("ongoing"));
        if (s.kind == datagen::START_RANDOM_ARMIES) {
            mixes.insert({g.position().rules(WHITE).variant, g.position().rules(BLACK).variant});
            army_plies_parity.insert(g.position().side_to_move());
        }
        if (s.kind == datagen::START_STANDARD) REQUIRE(g.position().game_ply() >= 8);
    }
    for (int k = 0; k < datagen::START_KIND_NB; ++k) REQUIRE(kinds[k] > 15);
    REQUIRE(mixes.size() == 4);
    REQUIRE(army_plies_parity.size() == 2);  // army starts with either side to move
}

TEST_CASE("the shares of the start kinds can be set", "[datagen]") {
    Position::init();
    datagen::Config config;
    REQUIRE(datagen::parse_config({"standard", "0", "chess960", "0", "suggested", "100"}, config).empty());
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        std::uint64_t rng = seed;
        REQUIRE(datagen::make_start(config, {}, rng).kind == datagen::START_SUGGESTED);
    }
    REQUIRE(datagen::parse_config({"standard", "20", "chess960", "10", "suggested", "30"}, config).empty());
    std::map<int, int> kinds;
    for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
        std::uint64_t rng = seed;
        ++kinds[datagen::make_start(config, {}, rng).kind];
    }
    REQUIRE(kinds[datagen::START_STANDARD] > 150);
    REQUIRE(kinds[datagen::START_STANDARD] < 250);
    REQUIRE(kinds[datagen::START_CHESS960] > 60);
    REQUIRE(kinds[datagen::START_CHESS960] < 140);
    REQUIRE(kinds[datagen::START_SUGGESTED] > 250);
    REQUIRE(kinds[datagen::START_SUGGESTED] < 350);
    REQUIRE(kinds[datagen::START_RANDOM_ARMIES] > 350);
    REQUIRE(kinds[datagen::START_RANDOM_ARMIES] < 450);
}

TEST_CASE("a game record round-trips and bad bytes are refused", "[datagen]") {
    datagen::GameRecord g;
    g.kind = datagen::START_CHESS960;
    g.result = 2;
    g.termination = datagen::END_WIN_ADJUDICATED;
    g.seed = 0x0123456789ABCDEFULL;
    g.index = 77;
    g.fen = datagen::chess960_fen(0);
    g.plies = {{Move(0x1234), -31990}, {Move(0x0FFF), VALUE_NONE}, {MOVE_NONE, 17}};
    const std::string bytes = datagen::encode_game(g);
    REQUIRE(bytes.size() == 22 + g.fen.size() + 12);
    auto back = read_games(bytes + bytes);
    REQUIRE(back.size() == 2);
    REQUIRE(back[1].kind == g.kind);
    REQUIRE(back[1].result == g.result);
    REQUIRE(back[1].termination == g.termination);
    REQUIRE(back[1].seed == g.seed);
    REQUIRE(back[1].index == g.index);
    REQUIRE(back[1].fen == g.fen);
    REQUIRE(back[1].plies.size() == 3);
    REQUIRE(back[1].plies[0].score == -31990);
    REQUIRE(back[1].plies[1].score == VALUE_NONE);
    REQUIRE(back[1].plies[1].move == Move(0x0FFF));

    auto refused = [](const std::string& b, const std::string& what) {
        std::istringstream in(b);
        datagen::GameRecord r;
        std::string error;
        REQUIRE_FALSE(datagen::read_game(in, r, error));
        INFO(error);
        REQUIRE(error.find(what) != std::string::npos);
    };
    refused(bytes.substr(0, bytes.size() - 1), "truncated");
    refused(bytes.substr(0, 10), "truncated");
    std::string bad = bytes;
    bad[0] = 'X';
    refused(bad, "magic");
    bad = bytes;
    bad[2] = 9;
    refused(bad, "version");
    bad = bytes;
    bad[4] = 3;
    refused(bad, "header");
}

TEST_CASE("datagen is deterministic for a seed whatever the thread count, and every game replays", "[datagen]") {
    Position::init();
    const std::string a = "datagen_test_a.games", b = "datagen_test_b.games";
    std::remove(a.c_str());
    std::remove(b.c_str());
    std::ostringstream log;
    datagen::Config config = small_run({"threads", "1", "out", a});
    REQUIRE(datagen::run(config, log) == 0);
    config = small_run({"threads", "2", "out", b});
    REQUIRE(datagen::run(config, log) == 0);
    std::string da = read_file(a), db = read_file(b);
    std::remove(a.c_str());
    std::remove(b.c_str());
    REQUIRE(da == db);
    REQUIRE(log.str().find("positions") != std::string::npos);
    auto games = read_games(da);
    REQUIRE(games.size() == 6);

    // Expanded: one record per ply, each the replayed position with its move and score.
    std::istringstream in(da);
    std::ostringstream out;
    std::string error;
    const std::uint64_t n = datagen::expand_games(in, out, error);
    REQUIRE(error.empty());
    const std::string records = out.str();
    REQUIRE(records.size() == n * datagen::RecordSize);
    std::size_t at = 0, plies = 0;
    for (std::size_t i = 0; i < games.size(); ++i) {
        const auto& g = games[i];
        REQUIRE(g.index == i);
        REQUIRE(g.seed == 3);
        Game game;
        REQUIRE(game.set(g.fen, {}, g.chess960()).empty());
        for (std::size_t p = 0; p < g.plies.size(); ++p, at += datagen::RecordSize) {
            datagen::Record r;
            std::copy(records.begin() + long(at), records.begin() + long(at + datagen::RecordSize), r.begin());
            datagen::Unpacked u = datagen::unpack(r);
            Position pos;
            StateInfo st;
            REQUIRE(pos.set(u.fen, st).empty());
            if (!g.chess960()) REQUIRE(pos.key() == game.position().key());
            REQUIRE(u.best == g.plies[p].move);
            REQUIRE(u.result == g.result);
            REQUIRE(bool(r[58] & datagen::EXP_IN_CHECK) == game.position().in_check());
            REQUIRE(r[59] == g.kind);
            REQUIRE(r[60] + 256 * r[61] == int(p));
            REQUIRE(r[62] + 256 * r[63] == int(g.plies.size() - p));
            if (g.plies[p].score != VALUE_NONE) REQUIRE(u.score == g.plies[p].score);
            game.play(g.plies[p].move);
            ++plies;
        }
        // The recorded end agrees with the final position.
        const std::string status = status_name(game.status());
        if (g.termination == datagen::END_CHECKMATE) REQUIRE(status == "checkmate");
        if (g.termination == datagen::END_STALEMATE) REQUIRE(status == "stalemate");
        if (g.termination == datagen::END_DRAW_RULE)
            REQUIRE((status.rfind("draw ", 0) == 0 || status.rfind("ongoing claim", 0) == 0));
        if (g.termination == datagen::END_CHECKMATE)
            REQUIRE(g.result == (game.position().side_to_move() == WHITE ? 0 : 2));
    }
    REQUIRE(plies == n);
    REQUIRE(n > 100);
}

TEST_CASE("adjudication follows its settings", "[datagen]") {
    Position::init();
    const std::string a = "datagen_test_adj.games";
    std::remove(a.c_str());
    std::ostringstream log;
    datagen::Config config = small_run({"games", "10", "wincp", "300", "winplies", "4", "drawcp", "30", "drawplies",
                                        "6", "drawfrom", "20", "maxplies", "150", "out", a});
    REQUIRE(datagen::run(config, log) == 0);
    auto games = read_games(read_file(a));
    std::remove(a.c_str());
    REQUIRE(games.size() == 10);
    int adjudicated = 0;
    for (const auto& g : games) {
        REQUIRE(g.plies.size() <= 150);
        auto white = [&](std::size_t p) {
            Game game;
            REQUIRE(game.set(g.fen, {}, g.chess960()).empty());
            for (std::size_t i = 0; i < p; ++i) game.play(g.plies[i].move);
            return std::pair<Value, int>{game.position().side_to_move() == WHITE ? g.plies[p].score : -g.plies[p].score,
                                         game.position().game_ply()};
        };
        const std::size_t last = g.plies.size() - 1;
        if (g.termination == datagen::END_WIN_ADJUDICATED) {
            ++adjudicated;
            const int sign = g.result == 2 ? 1 : -1;
            REQUIRE(g.result != 1);
            auto [v, ply] = white(last);
            if (std::abs(v) < VALUE_MATE_IN_MAX_PLY)
                for (std::size_t p = last - 3; p <= last; ++p) REQUIRE(sign * white(p).first >= 300);
            else
                REQUIRE(sign * v > 0);
        }
        if (g.termination == datagen::END_DRAW_ADJUDICATED) {
            ++adjudicated;
            REQUIRE(g.result == 1);
            for (std::size_t p = last - 5; p <= last; ++p) {
                auto [v, ply] = white(p);
                REQUIRE(std::abs(v) <= 30);
                REQUIRE(ply >= 20);
            }
        }
        if (g.termination == datagen::END_PLY_CAP) REQUIRE(g.plies.size() == 150);
    }
    REQUIRE(adjudicated >= 5);
}

TEST_CASE("an interrupted run resumes to the same bytes; another seed's file is refused", "[datagen]") {
    Position::init();
    const std::string a = "datagen_test_full.games", b = "datagen_test_part.games";
    std::remove(a.c_str());
    std::remove(b.c_str());
    std::ostringstream log;
    datagen::Config full = small_run({"out", a});
    REQUIRE(datagen::run(full, log) == 0);
    const std::string whole = read_file(a);
    datagen::Config part = small_run({"games", "3", "out", b});
    REQUIRE(datagen::run(part, log) == 0);
    // A game cut in the middle, as a killed run leaves it.
    std::string cut = read_file(b) + whole.substr(read_file(b).size(), 30);
    {
        std::ofstream out(b, std::ios::binary | std::ios::trunc);
        out << cut;
    }
    datagen::Config resume = small_run({"out", b});
    std::ostringstream rlog;
    REQUIRE(datagen::run(resume, rlog) == 0);
    REQUIRE(rlog.str().find("resuming") != std::string::npos);
    REQUIRE(read_file(b) == whole);
    // Complete: nothing to do, nothing changed.
    REQUIRE(datagen::run(resume, rlog) == 0);
    REQUIRE(read_file(b) == whole);
    // Another seed on the same file: refused, file untouched.
    datagen::Config other = small_run({"seed", "4", "out", b});
    std::ostringstream olog;
    REQUIRE(datagen::run(other, olog) == 1);
    REQUIRE(olog.str().find("not a run of this seed") != std::string::npos);
    REQUIRE(read_file(b) == whole);
    std::remove(a.c_str());
    std::remove(b.c_str());
}

TEST_CASE("expand refuses a game whose moves do not replay", "[datagen]") {
    Position::init();
    datagen::GameRecord g;
    g.fen = StartFen;
    g.index = 0;
    Game game;
    g.plies = {{parse_uci_move(game.position(), "e2e4"), 20}, {parse_uci_move(game.position(), "e2e4"), 20}};
    std::istringstream in(datagen::encode_game(g));
    std::ostringstream out;
    std::string error;
    REQUIRE(datagen::expand_games(in, out, error) == 1);
    REQUIRE(error.find("ply 2 is not a legal move") != std::string::npos);
    std::ostringstream log, sink;
    REQUIRE(datagen::expand({"/nonexistent.games"}, sink, log) == 1);
    REQUIRE(log.str().find("cannot read") != std::string::npos);
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
    REQUIRE(!datagen::parse_config({"standard", "50", "chess960", "30", "suggested", "30"}, config).empty());
    REQUIRE(!datagen::parse_config({"nodes", "5000", "hardnodes", "100"}, config).empty());
    std::ostringstream log;
    config = datagen::Config();
    REQUIRE(datagen::parse_config({"book", "/nonexistent/book.txt"}, config).empty());
    REQUIRE(datagen::run(config, log) == 1);
    REQUIRE(log.str().find("error: cannot read the book") != std::string::npos);
}

TEST_CASE("datagen numeric options: each sets its own field, bounds included", "[datagen]") {
    // Written out here, apart from the parser's table, so that a wrong row fails.
    struct Row {
        const char* name;
        std::uint64_t lo, hi;
        std::function<std::uint64_t(const datagen::Config&)> get;
    };
    const Row rows[] = {
        {"games", 1, 1'000'000'000, [](auto& c) { return c.games; }},
        {"nodes", 0, 100'000'000, [](auto& c) { return c.nodes; }},
        {"hardnodes", 0, 1'000'000'000, [](auto& c) { return c.hard_nodes; }},
        {"depth", 0, 60, [](auto& c) { return std::uint64_t(c.depth); }},
        {"threads", 1, 256, [](auto& c) { return std::uint64_t(c.threads); }},
        {"seed", 0, ~0ULL, [](auto& c) { return c.seed; }},
        {"hash", 1, 4096, [](auto& c) { return std::uint64_t(c.hash_mb); }},
        {"standard", 0, 100, [](auto& c) { return std::uint64_t(c.standard_share); }},
        {"chess960", 0, 100, [](auto& c) { return std::uint64_t(c.chess960_share); }},
        {"suggested", 0, 100, [](auto& c) { return std::uint64_t(c.suggested_share); }},
        {"verify", 0, 32000, [](auto& c) { return std::uint64_t(c.verify_cp); }},
        {"verifynodes", 1, 100'000'000, [](auto& c) { return c.verify_nodes; }},
        {"wincp", 1, 32000, [](auto& c) { return std::uint64_t(c.win_cp); }},
        {"winplies", 1, 1000, [](auto& c) { return std::uint64_t(c.win_plies); }},
        {"drawcp", 0, 32000, [](auto& c) { return std::uint64_t(c.draw_cp); }},
        {"drawplies", 1, 1000, [](auto& c) { return std::uint64_t(c.draw_plies); }},
        {"drawfrom", 0, 10000, [](auto& c) { return std::uint64_t(c.draw_from); }},
        {"maxplies", 1, 10000, [](auto& c) { return std::uint64_t(c.max_plies); }},
    };
    for (const Row& row : rows) {
        INFO(row.name);
        // Shares at 0 and a 1-node, 1-ply budget first, so that no joint check refuses a bound.
        const std::vector<std::string> base = {"standard", "0",     "chess960", "0",     "suggested",
                                               "0",        "nodes", "1",        "depth", "1"};
        for (std::uint64_t v : {row.lo, row.hi, (row.lo + row.hi) / 2}) {
            datagen::Config config;
            std::vector<std::string> args = base;
            args.insert(args.end(), {row.name, std::to_string(v)});
            REQUIRE(datagen::parse_config(args, config).empty());
            REQUIRE(row.get(config) == v);
        }
        datagen::Config config;
        if (row.lo > 0) REQUIRE(!datagen::parse_config({row.name, std::to_string(row.lo - 1)}, config).empty());
        if (row.hi < ~0ULL) REQUIRE(!datagen::parse_config({row.name, std::to_string(row.hi + 1)}, config).empty());
        REQUIRE(!datagen::parse_config({row.name, "x"}, config).empty());
    }
}

TEST_CASE("datagen evalfile: the players use that net; a bad file is refused", "[datagen][nnue]") {
    Position::init();
    const std::string net = "datagen_test.nnue", a = "datagen_test_c.games", b = "datagen_test_d.games";
    {
        std::ofstream out(net, std::ios::binary);
        out << nnue::builtin_bytes();
    }
    std::remove(a.c_str());
    std::remove(b.c_str());
    std::ostringstream log;
    datagen::Config config;
    REQUIRE(datagen::parse_config({"games", "4", "nodes", "600", "seed", "9", "verify", "0", "eval", "nnue", "out", a},
                                  config)
                .empty());
    REQUIRE(datagen::run(config, log) == 0);
    REQUIRE(datagen::parse_config({"evalfile", net, "out", b}, config).empty());
    REQUIRE(datagen::run(config, log) == 0);
    REQUIRE(log.str().find("datagen: net " + net) != std::string::npos);
    std::string da = read_file(a), db = read_file(b);
    REQUIRE(read_games(da).size() == 4);
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
    std::remove(b.c_str());  // an existing file of the same seed would be resumed, not replayed
    REQUIRE(datagen::run(config, log) == 0);
    REQUIRE(read_file(b) != da);

    // A truncated net: an error, nothing written.
    std::string bytes = nnue::builtin_bytes();
    {
        std::ofstream out(net, std::ios::binary | std::ios::trunc);
        out << bytes.substr(0, bytes.size() / 2);
    }
    std::remove(b.c_str());
    std::ostringstream bad;
    REQUIRE(datagen::run(config, bad) == 1);
    REQUIRE(bad.str().find("error: evalfile") != std::string::npos);
    REQUIRE(read_file(b).empty());
    std::remove(net.c_str());
    std::remove(a.c_str());
}
