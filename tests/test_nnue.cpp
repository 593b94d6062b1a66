// The network evaluation: incremental accumulators equal a refresh after every move,
// unmove and null move of random playouts (all classic/variant mixes, promotions to
// each of the seven pieces, castling, en passant); the vectorised kernels (accumulator
// rows, output layer) equal the portable loops; the kernels are the ones the build's arch
// names; a flipped position evaluates the same; bad net files are refused.

#include <catch2/catch.hpp>
#include <climits>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <set>
#include <sstream>

#include "core/random.h"
#include "eval/evaluate.h"
#include "eval/nnue.h"
#include "eval/nnue_simd.h"
#include "movegen/movegen.h"
#include "protocol/uci.h"
#include "support/random_armies.h"
#include "support/uci_session.h"

using namespace maharajah;

namespace {

// A net with large random weights: accumulators run far past the clipping bounds.
const nnue::Network& wild_net() {
    static std::unique_ptr<nnue::Network> net = [] {
        auto n = std::make_unique<nnue::Network>();
        std::uint64_t rng = 12345;
        auto r = [&](int lo, int hi) { return int(splitmix64(rng) % std::uint64_t(hi - lo + 1)) + lo; };
        for (auto& w : n->feature_weights) w = std::int16_t(r(-64, 64));
        for (auto& b : n->feature_bias) b = std::int16_t(r(-100, 300));
        for (auto& row : n->output_weights)
            for (auto& w : row) w = std::int16_t(r(-127, 127));
        for (auto& b : n->output_bias) b = r(-200000, 200000);
        return n;
    }();
    return *net;
}

std::vector<std::string> split(const std::string& s) {
    std::istringstream is(s);
    std::vector<std::string> out;
    for (std::string t; is >> t;) out.push_back(t);
    return out;
}

std::string flip_square(const std::string& sq) { return std::string(1, sq[0]) + char('1' + ('8' - sq[1])); }

std::string swap_case(std::string s) {
    for (char& c : s) c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
    return s;
}

// The same position with colours exchanged and the board mirrored top to bottom.
std::string flip_fen(const std::string& fen) {
    auto f = split(fen);
    std::vector<std::string> ranks;
    std::istringstream board(f[0]);
    for (std::string r; std::getline(board, r, '/');) ranks.insert(ranks.begin(), swap_case(r));
    std::string out;
    for (std::size_t i = 0; i < ranks.size(); ++i) out += (i ? "/" : "") + ranks[i];
    out += f[1] == "w" ? " b " : " w ";
    std::string castling;
    for (char c : std::string("KQkq"))
        if (swap_case(f[2]).find(c) != std::string::npos) castling += c;
    out += castling.empty() ? "-" : castling;
    out += " " + (f[3] == "-" ? f[3] : flip_square(f[3])) + " " + f[4] + " " + f[5];
    if (f.size() > 6) {
        std::string sides;
        if (f[6].find('v') != std::string::npos) sides += 'V';
        if (f[6].find('V') != std::string::npos) sides += 'v';
        out += " " + (sides.empty() ? std::string("-") : sides);
    }
    if (f.size() > 7) {
        std::string squares;
        if (f[7] != "-")
            for (std::size_t i = 0; i < f[7].size(); i += 2) squares += flip_square(f[7].substr(i, 2));
        out += " " + (squares.empty() ? std::string("-") : squares);
    }
    return out;
}

bool same(const nnue::Accumulator& a, const nnue::Accumulator& b) {
    return std::memcmp(a.values, b.values, sizeof(a.values)) == 0;
}

std::vector<std::string> start_fens() {
    std::vector<std::string> fens = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "4k3/pppppppp/8/P1P1P1P1/8/8/8/4K3 b - - 0 1",         // en passant chances
        "8/PPPPPPPP/8/k7/7K/8/pppppppp/8 w - - 0 1 Vv -",      // variant promotions
        "8/PPPPPPPP/8/k7/7K/8/pppppppp/8 w - - 0 1",           // classic promotions
        "r3k2r/pPpppppp/8/8/8/8/PPPPPPpP/R3K2R w KQ - 0 1 v",  // mixed, castling
    };
    // The special positions several times over (the playouts differ each time).
    const std::size_t special = fens.size();
    for (int copy = 0; copy < 5; ++copy)
        for (std::size_t i = 0; i < special; ++i) fens.push_back(fens[i]);
    for (int i = 0; i < 40; ++i) fens.push_back(testsupport::random_army_fen(500 + i, i % 4));
    return fens;
}

}  // namespace

TEST_CASE("the built-in net loads and evaluates the start position", "[nnue]") {
    Position::init();
    nnue::Network net;
    REQUIRE(nnue::load(nnue::builtin_bytes(), net) == "");
    REQUIRE(net.hash == nnue::builtin().hash);
    REQUIRE(net.hash != 0);
    Position pos;
    StateInfo st;
    REQUIRE(pos.set("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", st).empty());
    Value v = nnue::evaluate(pos, nnue::builtin());
    REQUIRE(std::abs(v) < 200);
}

TEST_CASE("incremental accumulators equal a refresh after every move of random playouts", "[nnue]") {
    Position::init();
    std::uint64_t rng = 7;
    std::set<PieceType> promotions;
    int castlings = 0, en_passants = 0, nulls = 0, unmoves = 0, checked = 0, bucket_changes = 0;
    for (const nnue::Network* net : {&nnue::builtin(), &wild_net()})
        for (const std::string& fen : start_fens()) {
            Position pos;
            std::deque<StateInfo> states(1);
            INFO(fen);
            REQUIRE(pos.set(fen, states.back()).empty());
            nnue::AccumulatorStack stack;
            stack.reset();
            std::vector<Move> line;  // MOVE_NULL for a null move
            for (int step = 0; step < 160; ++step) {
                std::uint64_t action = splitmix64(rng) % 12;
                MoveList<LEGAL> moves(pos);
                if ((action == 0 || !moves.size()) && !line.empty()) {
                    Move m = line.back();
                    line.pop_back();
                    if (m == MOVE_NULL)
                        pos.undo_null_move();
                    else
                        pos.undo_move(m);
                    states.pop_back();
                    stack.pop();
                    ++unmoves;
                } else if (!moves.size()) {
                    break;
                } else if (action == 1 && !pos.in_check() && line.size() + 2 < MAX_PLY) {
                    states.emplace_back();
                    pos.do_null_move(states.back());
                    stack.push_null();
                    line.push_back(MOVE_NULL);
                    ++nulls;
                } else if (line.size() + 2 < MAX_PLY) {
                    Move m = moves.begin()[splitmix64(rng) % moves.size()];
                    if (is_promotion(m)) promotions.insert(promotion_type(m));
                    castlings += is_castling(m);
                    en_passants += is_en_passant(m);
                    const Color us = pos.side_to_move();
                    const int bucket_before = nnue::king_bucket(us, pos.king_square(us));
                    states.emplace_back();
                    pos.do_move(m, states.back());
                    bucket_changes += nnue::king_bucket(us, pos.king_square(us)) != bucket_before;
                    stack.push(pos, m);
                    line.push_back(m);
                }
                // Compare now and then, so that lazy updates also span several moves.
                if (splitmix64(rng) % 3 == 0) {
                    nnue::Accumulator fresh;
                    nnue::refresh(pos, *net, fresh);
                    INFO(pos.fen());
                    REQUIRE(same(stack.update(pos, *net), fresh));
                    REQUIRE(stack.evaluate(pos, *net) == nnue::evaluate(pos, *net));
                    ++checked;
                }
            }
        }
    CHECK(checked > 4000);
    CHECK(unmoves > 200);
    CHECK(nulls > 200);
    CHECK(castlings > 5);
    CHECK(en_passants > 5);
    // A king that steps into another bucket changes every feature of its perspective:
    // the stack then refreshes from its cache of the bucket's last accumulator.
    if (nnue::KingBuckets > 1) CHECK(bucket_changes > 100);
    REQUIRE(promotions == std::set<PieceType>{QUEEN, ROOK, BISHOP, KNIGHT, MAHARAJA, ARCHBISHOP, CHANCELLOR});
}

TEST_CASE("the vectorised output layer equals the portable one", "[nnue]") {
    Position::init();
    if (!nnue::simd_compiled()) WARN("this build has no vectorised output layer; only the portable path runs");
    std::uint64_t rng = 11;
    int compared = 0;
    for (const nnue::Network* net : {&nnue::builtin(), &wild_net()})
        for (const std::string& fen : start_fens()) {
            Position pos;
            std::deque<StateInfo> states(1);
            REQUIRE(pos.set(fen, states.back()).empty());
            for (int ply = 0; ply < 60; ++ply) {
                nnue::Accumulator acc;
                nnue::refresh(pos, *net, acc);
                for (int bucket = 0; bucket < nnue::Buckets; ++bucket)
                    for (Color stm : {WHITE, BLACK}) {
                        REQUIRE(nnue::output(*net, acc, stm, bucket, true) ==
                                nnue::output(*net, acc, stm, bucket, false));
                        ++compared;
                    }
                MoveList<LEGAL> moves(pos);
                if (!moves.size()) break;
                states.emplace_back();
                pos.do_move(moves.begin()[splitmix64(rng) % moves.size()], states.back());
            }
        }
    REQUIRE(compared > 10000);
}

TEST_CASE("the vectorised accumulator kernel equals the portable loop, wrapping included", "[nnue]") {
    if (!nnue::simd_compiled()) WARN("this build has no vectorised kernels; only the portable path runs");
    constexpr int N = nnue::Hidden, Rows = 40;
    struct alignas(64) Block {
        std::int16_t v[N];
    };
    std::vector<Block> rows(Rows), in(1), fast(1), slow(1);
    std::uint64_t rng = 77;
    int compared = 0;
    for (int round = 0; round < 300; ++round) {
        // Full 16-bit range half of the time, so that sums wrap; small values otherwise.
        const int range = round % 2 ? 65536 : 200;
        auto value = [&] { return std::int16_t(int(splitmix64(rng) % range) - range / 2); };
        for (Block& r : rows)
            for (std::int16_t& x : r.v) x = value();
        for (std::int16_t& x : in[0].v) x = value();
        const std::int16_t* removed[Rows];
        const std::int16_t* added[Rows];
        const int removed_count = int(splitmix64(rng) % 4), added_count = int(splitmix64(rng) % 33);
        for (int k = 0; k < removed_count; ++k) removed[k] = rows[splitmix64(rng) % Rows].v;
        for (int k = 0; k < added_count; ++k) added[k] = rows[splitmix64(rng) % Rows].v;
        nnue::simd::update_rows(fast[0].v, in[0].v, removed, removed_count, added, added_count, N, true);
        nnue::simd::update_rows(slow[0].v, in[0].v, removed, removed_count, added, added_count, N, false);
        REQUIRE(std::memcmp(fast[0].v, slow[0].v, sizeof(fast[0].v)) == 0);
        // The portable loop is what it says: in - removed + added, modulo 2^16.
        for (int i = 0; i < N; ++i) {
            std::int32_t expect = in[0].v[i];
            for (int k = 0; k < removed_count; ++k) expect -= removed[k][i];
            for (int k = 0; k < added_count; ++k) expect += added[k][i];
            REQUIRE(slow[0].v[i] == std::int16_t(expect));
        }
        // In place, as the refresh cache uses it.
        nnue::simd::update_rows(in[0].v, in[0].v, removed, removed_count, added, added_count, N, true);
        REQUIRE(std::memcmp(in[0].v, slow[0].v, sizeof(in[0].v)) == 0);
        ++compared;
    }
    REQUIRE(compared == 300);
}

TEST_CASE("the vectorised output sum equals the portable one at its extremes", "[nnue]") {
    constexpr int N = nnue::Hidden;
    struct alignas(64) Block {
        std::int16_t v[2 * N];
    };
    std::vector<Block> acc(1), w(1);
    std::uint64_t rng = 5;
    for (int round = 0; round < 200; ++round) {
        // Rounds 0 and 1: every activation clipped to QA and every weight +127 or -127, the
        // largest sums a lane can hold; then random mixes around the clipping bounds.
        for (int i = 0; i < 2 * N; ++i) {
            acc[0].v[i] = round < 2 ? std::int16_t(400) : std::int16_t(int(splitmix64(rng) % 700) - 200);
            w[0].v[i] =
                round < 2 ? std::int16_t(round == 0 ? 127 : -127) : std::int16_t(int(splitmix64(rng) % 255) - 127);
        }
        const std::int64_t fast = nnue::simd::output_sum(acc[0].v, acc[0].v + N, w[0].v, N, nnue::QA, true);
        const std::int64_t slow = nnue::simd::output_sum(acc[0].v, acc[0].v + N, w[0].v, N, nnue::QA, false);
        REQUIRE(fast == slow);
        if (round < 2) REQUIRE(slow == (round == 0 ? 1 : -1) * std::int64_t(2 * N) * nnue::QA * nnue::QA * 127);
    }
}

TEST_CASE("the network kernels are the ones the build's arch names", "[nnue]") {
#ifdef MAHARAJAH_EXPECTED_SIMD
    REQUIRE(std::string(nnue::simd_name()) == MAHARAJAH_EXPECTED_SIMD);
#else
    // A native build: whatever this CPU offers; the other arch choices are pinned.
    WARN("native build: network kernels " << nnue::simd_name());
#endif
    REQUIRE(nnue::simd_compiled() == (std::string(nnue::simd_name()) != "scalar"));
}

TEST_CASE("a position and its colour-flipped mirror evaluate the same", "[nnue]") {
    Position::init();
    std::uint64_t rng = 3;
    int compared = 0;
    for (const std::string& fen : start_fens()) {
        Position pos;
        std::deque<StateInfo> states(1);
        REQUIRE(pos.set(fen, states.back()).empty());
        for (int ply = 0; ply < 40; ++ply) {
            Position flipped;
            StateInfo st;
            const std::string mirror = flip_fen(pos.fen());
            INFO(pos.fen() << " / " << mirror);
            REQUIRE(flipped.set(mirror, st).empty());
            Position back;  // flipping twice gives the position back
            StateInfo st2;
            REQUIRE(back.set(flip_fen(flipped.fen()), st2).empty());
            REQUIRE(back.fen() == pos.fen());
            for (const nnue::Network* net : {&nnue::builtin(), &wild_net()})
                REQUIRE(nnue::evaluate(pos, *net) == nnue::evaluate(flipped, *net));
            ++compared;
            MoveList<LEGAL> moves(pos);
            if (!moves.size()) break;
            states.emplace_back();
            pos.do_move(moves.begin()[splitmix64(rng) % moves.size()], states.back());
        }
    }
    REQUIRE(compared > 1000);
}

TEST_CASE("truncated, corrupt or foreign net files are refused", "[nnue]") {
    const std::string good = nnue::builtin_bytes();
    nnue::Network net;
    REQUIRE(nnue::load(good, net).empty());
    auto refused = [&](const std::string& bytes, const std::string& why) {
        nnue::Network n;
        std::string e = nnue::load(bytes, n);
        INFO(e);
        CHECK(e.find(why) != std::string::npos);
    };
    refused(good.substr(0, good.size() - 1), "truncated");
    refused(good.substr(0, 20), "truncated header");
    refused(good + "x", "trailing bytes");
    refused("", "magic");
    std::string corrupt = good;
    corrupt[corrupt.size() / 2] ^= 0x10;
    refused(corrupt, "hash mismatch");
    std::string version = good;
    version[4] = 9;
    refused(version, "format version 9");
    std::string hidden = good;
    hidden[12] = 1;  // the hidden size's low byte
    refused(hidden, "architecture");
}

TEST_CASE("EvalFile refuses a bad file with one error line and keeps the net", "[nnue]") {
    Position::init();
    const std::string path = "nnue_test_truncated.nnue";
    {
        std::ofstream out(path, std::ios::binary);
        const std::string good = nnue::builtin_bytes();
        out << good.substr(0, good.size() / 3);
    }
    std::ostringstream out;
    Uci uci(out);
    uci.execute("setoption name EvalMode value nnue");
    uci.execute("position startpos moves e2e4 c7c5");
    uci.execute("eval");
    const std::string before = out.str().substr(out.str().rfind("Final evaluation"));
    out.str("");
    uci.execute("setoption name EvalFile value " + path);
    const std::string reply = out.str();
    std::remove(path.c_str());
    REQUIRE(reply.rfind("info string error: setoption: EvalFile", 0) == 0);
    REQUIRE(reply.find("truncated") != std::string::npos);
    REQUIRE(std::count(reply.begin(), reply.end(), '\n') == 1);
    out.str("");
    uci.execute("eval");
    REQUIRE(out.str().find("net <built-in>") != std::string::npos);
    REQUIRE(out.str().substr(out.str().rfind("Final evaluation")) == before);
}

TEST_CASE("EvalMode auto searches with the net without compound pieces, the hybrid with them", "[nnue][search]") {
    // The whole tree of a search uses the evaluation its root resolves to: the same
    // move and node count as the explicit mode, on standard and army positions.
    auto search = [](const std::string& mode, const std::string& fen) {
        testsupport::UciSession s;
        if (!mode.empty()) s.run("setoption name EvalMode value " + mode + "\n");
        auto lines = s.run("position fen " + fen + "\ngo depth 7\n");
        auto infos = testsupport::starting_with(lines, "info depth 7 ");
        auto best = testsupport::starting_with(lines, "bestmove ");
        REQUIRE(!infos.empty());
        REQUIRE(best.size() == 1);
        return testsupport::nodes_of(infos.back()) + " " + best[0];
    };
    const std::string standard[] = {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                                    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"};
    const std::string army[] = {"rnbakabr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKCBR w - - 0 1 Vv",
                                "nbqrkbcn/p1p1p3/M2p4/5Bp1/8/8/8/2MPKC1P w - - 0 3 Vv d1h1a7c7e7"};
    for (const auto& fen : standard) {
        INFO(fen);
        REQUIRE(search("", fen) == search("nnue", fen));
        REQUIRE(search("auto", fen) != search("classical", fen));
    }
    for (const auto& fen : army) {
        INFO(fen);
        REQUIRE(search("", fen) == search("hybrid", fen));
        REQUIRE(search("auto", fen) != search("nnue", fen));
        REQUIRE(search("auto", fen) != search("classical", fen));
    }
}

TEST_CASE("network scores are reported on the hand-written evaluation's footing", "[nnue][uci]") {
    Position::init();
    using eval::Mode;
    for (Value v : {-1000, -9, -8, 0, 7, 8, 1000}) {
        CHECK(eval::to_reported(v, Mode::NNUE) == v * eval::NetReportNum / eval::NetReportDen);
        CHECK(eval::to_reported(v, Mode::CLASSICAL) == v);
        CHECK(eval::to_reported(v, Mode::HYBRID) == v);
        CHECK(eval::to_reported(v, Mode::MATERIAL) == v);
    }
    for (Value v : {mate_in(3), mated_in(6), VALUE_MATE_IN_MAX_PLY, VALUE_MATED_IN_MAX_PLY})
        CHECK(eval::to_reported(v, Mode::NNUE) == v);

    // `eval`: the net's value, converted.
    Position pos;
    StateInfo st;
    const std::string fen = "r1bqkbnr/pp1ppppp/2n5/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    REQUIRE(pos.set(fen, st).empty());
    const Value net = nnue::evaluate(pos, nnue::builtin());
    REQUIRE(std::abs(net) >= 16);  // a value whose conversion shows in two decimals
    char expected[64];
    std::snprintf(expected, sizeof expected, "Final evaluation %+.2f (white side)",
                  (net * eval::NetReportNum / eval::NetReportDen) / 100.0);
    testsupport::UciSession s;
    auto lines = s.run("setoption name EvalMode value nnue\nposition fen " + fen + "\neval\n");
    REQUIRE(lines.back() == expected);

    // A search: the same tree searched through the engine's own interface gives the
    // unconverted score; the protocol reports it converted.
    auto last_cp = [](const std::vector<std::string>& out) {
        auto infos = testsupport::starting_with(out, "info depth 9 ");
        REQUIRE(!infos.empty());
        const int cp = testsupport::score_cp_of(infos.back(), INT_MIN);
        REQUIRE(cp != INT_MIN);
        return cp;
    };
    lines = s.run("ucinewgame\nposition fen " + fen + "\ngo depth 9\n");
    const int reported = last_cp(lines);
    search::Engine engine;
    search::Limits limits;
    limits.depth = 9;
    search::Settings settings;
    settings.eval.mode = Mode::NNUE;
    Value raw = VALUE_NONE;
    search::Listener listener;
    listener.on_report = [&](const search::Report& r) {
        if (r.depth == 9 && r.multipv == 1) raw = r.score;
    };
    engine.start(pos, limits, settings, listener);
    engine.wait();
    REQUIRE(raw != VALUE_NONE);
    REQUIRE(std::abs(raw) < VALUE_MATE_IN_MAX_PLY);
    CHECK(reported == raw * eval::NetReportNum / eval::NetReportDen);
    CHECK((raw == 0 || reported != raw));
    // The hand-written evaluation's scores pass as they are.
    lines = s.run("setoption name EvalMode value classical\nucinewgame\nposition fen " + fen + "\ngo depth 9\n");
    const int classical_reported = last_cp(lines);
    search::Engine engine2;
    settings.eval.mode = Mode::CLASSICAL;
    raw = VALUE_NONE;
    engine2.start(pos, limits, settings, listener);
    engine2.wait();
    CHECK(classical_reported == raw);
}

TEST_CASE("the hybrid is the mean of the converted net and the hand-written evaluation", "[nnue][eval]") {
    Position::init();
    using eval::Mode;
    CHECK(eval::hybrid(80, 10) == 30);  // (80 * 5/8 + 10) / 2
    CHECK(eval::hybrid(-80, 10) == -20);
    CHECK(eval::hybrid(0, 0) == 0);
    const std::string fens[] = {"nbqrkbcn/p1p1p3/M2p4/5Bp1/8/8/8/2MPKC1P w - - 0 3 Vv d1h1a7c7e7",
                                "rnbakabr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBCKCBR b - - 0 1 Vv",
                                "r1bqkbnr/pp1ppppp/2n5/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"};
    for (const auto& fen : fens) {
        INFO(fen);
        Position pos;
        StateInfo st;
        REQUIRE(pos.set(fen, st).empty());
        const Value net = nnue::evaluate(pos), classical = eval::evaluate(pos, eval::Options{Mode::CLASSICAL});
        REQUIRE(net != classical);  // two different opinions, or the test shows nothing
        const Value mean = eval::hybrid(net, classical);
        REQUIRE(eval::evaluate(pos, eval::Options{Mode::HYBRID}) == mean);

        // `eval` shows both halves from White's side and the mean as the final value.
        const int sign = pos.side_to_move() == WHITE ? 1 : -1;
        char halves[96], final_line[64];
        std::snprintf(halves, sizeof halves, "the mean of net <built-in> %+.2f and classical %+.2f",
                      sign * (net * eval::NetReportNum / eval::NetReportDen) / 100.0, sign * classical / 100.0);
        std::snprintf(final_line, sizeof final_line, "Final evaluation %+.2f (white side)", sign * mean / 100.0);
        testsupport::UciSession s;
        auto lines = s.run("setoption name EvalMode value hybrid\nposition fen " + fen + "\neval\n");
        REQUIRE(lines.front().rfind("EvalMode hybrid, ", 0) == 0);
        REQUIRE(lines.front().find(halves) != std::string::npos);
        REQUIRE(lines.back() == final_line);
    }
}

TEST_CASE("EvalFile is per engine: one loop's net never changes another's", "[nnue][uci]") {
    Position::init();
    // Another valid net: every feature row zeroed, the hash recomputed (FNV-1a 64).
    std::string other = nnue::builtin_bytes();
    std::uint32_t description_size = 0;
    std::memcpy(&description_size, other.data() + 48, 4);
    const std::size_t payload = 52 + description_size;
    std::fill(other.begin() + long(payload),
              other.begin() + long(payload + std::size_t(nnue::Inputs) * nnue::Hidden * 2), '\0');
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    for (std::size_t i = payload; i < other.size(); ++i) hash = (hash ^ (unsigned char)other[i]) * 0x100000001B3ULL;
    std::memcpy(other.data() + 32, &hash, 8);
    const std::string path = "nnue_test_per_engine.nnue";
    std::ofstream(path, std::ios::binary) << other;

    testsupport::UciSession a, b;
    const std::string setup = "setoption name EvalMode value nnue\nposition startpos moves e2e4 c7c5 g1f3\neval\n";
    auto final_line = [](const std::vector<std::string>& lines) {
        return testsupport::starting_with(lines, "Final")[0];
    };
    const std::string builtin_a = final_line(a.run(setup)), builtin_b = final_line(b.run(setup));
    REQUIRE(builtin_a == builtin_b);
    auto loaded = a.run("setoption name EvalFile value " + path + "\n");
    std::remove(path.c_str());
    REQUIRE(loaded.size() == 1);
    REQUIRE(loaded[0].rfind("info string EvalFile " + path, 0) == 0);
    const auto after_a = a.run("eval\n"), after_b = b.run("eval\n");
    REQUIRE(after_a[0].find("net " + path) != std::string::npos);
    REQUIRE(final_line(after_a) != builtin_a);  // a evaluates with the file's net
    REQUIRE(after_b[0].find("net <built-in>") != std::string::npos);
    REQUIRE(final_line(after_b) == builtin_b);  // b still with the built-in one
    // Back to the built-in net.
    a.run("setoption name EvalFile value <built-in>\n");
    REQUIRE(final_line(a.run("eval\n")) == builtin_a);
}
