#include "datagen/datagen.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>
#include <type_traits>
#include <variant>

#include "board/army.h"
#include "core/number.h"
#include "core/random.h"
#include "eval/nnue.h"
#include "movegen/movegen.h"
#include "protocol/game.h"
#include "search/search.h"

namespace maharajah::datagen {

namespace {

std::uint64_t below(std::uint64_t& rng, std::uint64_t n) { return splitmix64(rng) % n; }

template <typename T>
void shuffle(std::vector<T>& v, std::uint64_t& rng) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(rng, i)]);
}

// Plays `count` uniformly random legal moves; false when the game ends on the way.
bool random_plies(Game& game, int count, std::uint64_t& rng) {
    for (int i = 0; i < count; ++i) {
        MoveList<LEGAL> moves(game.position());
        if (!moves.size()) return false;
        game.play(moves.begin()[below(rng, moves.size())]);
    }
    return game.status() == GameStatus::ONGOING;
}

std::vector<std::string> read_book(const std::string& path, std::string& error) {
    std::vector<std::string> lines;
    if (path.empty()) return lines;
    std::ifstream in(path);
    if (!in) {
        error = "cannot read the book '" + path + "'";
        return lines;
    }
    for (std::string line; std::getline(in, line);) {
        auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        lines.push_back(line.substr(first));
    }
    if (lines.empty()) error = "the book '" + path + "' has no openings";
    return lines;
}

// "startpos [moves ...]" or "fen <fields> [moves ...]" into a game.
std::string set_from_line(Game& game, const std::string& line) {
    std::istringstream is(line);
    std::string token, fen;
    std::vector<std::string> moves;
    is >> token;
    if (token == "startpos")
        fen = StartFen;
    else if (token == "fen")
        while (is >> token && token != "moves") {
            if (!fen.empty()) fen += ' ';
            fen += token;
        }
    else
        return "a book line starts with 'startpos' or 'fen': " + clip(line);
    if (token == "moves" || (is >> token && token == "moves"))
        while (is >> token) moves.push_back(token);
    return game.set(fen, moves);
}

}  // namespace

std::string random_army(int color, bool variant, std::uint64_t& rng) {
    struct Kind {
        PieceType type;
        int cost;
    };
    static const Kind kinds[] = {{PAWN, 1},  {KNIGHT, 3},     {BISHOP, 3},     {ROOK, 5},
                                 {QUEEN, 9}, {ARCHBISHOP, 6}, {CHANCELLOR, 8}, {MAHARAJA, 13}};
    const Color c = Color(color);
    for (;;) {
        // Composition: pieces drawn with a style's weights until the 39 points are spent.
        std::vector<PieceType> pieces;
        int remaining = ArmyPoints;
        if (variant) {
            const Kind& k = kinds[5 + below(rng, 3)];
            pieces.push_back(k.type);
            remaining -= k.cost;
        }
        const int pawn_weight = 2 + int(below(rng, 10));  // from few pawns to pawn walls
        while (remaining > 0) {
            std::vector<const Kind*> options;
            std::vector<int> weights;
            for (const Kind& k : kinds) {
                bool compound = k.type >= MAHARAJA;
                if (k.cost > remaining || (compound && !variant)) continue;
                options.push_back(&k);
                weights.push_back(k.type == PAWN ? pawn_weight : compound ? 2 : 3);
            }
            int total = 0;
            for (int w : weights) total += w;
            int pick = int(below(rng, total));
            std::size_t i = 0;
            while (pick >= weights[i]) pick -= weights[i++];
            pieces.push_back(options[i]->type);
            remaining -= options[i]->cost;
        }
        if (int(pieces.size()) > MaxArmyPieces) continue;

        // Placement: home rank first (the king keeps e1/e8), then outward; pieces
        // usually behind the pawns, sometimes in any order.
        if (below(rng, 10) < 7) {
            std::vector<PieceType> officers, pawns;
            for (PieceType pt : pieces) (pt == PAWN ? pawns : officers).push_back(pt);
            shuffle(officers, rng);
            pieces = officers;
            pieces.insert(pieces.end(), pawns.begin(), pawns.end());
        } else {
            shuffle(pieces, rng);
        }
        Army army;
        army.pieces[0][FILE_E] = KING;
        std::size_t next = 0;
        for (int rank = 0; rank < 4 && next < pieces.size(); ++rank) {
            std::vector<int> files;
            for (int f = 0; f < 8; ++f)
                if (!(rank == 0 && f == FILE_E)) files.push_back(f);
            shuffle(files, rng);
            for (int f : files)
                if (next < pieces.size()) army.pieces[rank][f] = pieces[next++];
            army.ranks = rank + 1;
        }
        std::string text = army_to_string(c, army);
        if (check_army(c, text).ok()) return text;
    }
}

std::string chess960_fen(int n) {
    char rank[8] = {};
    auto place = [&](char piece, int nth_empty) {  // the nth empty square, from a
        for (int f = 0; f < 8; ++f)
            if (!rank[f] && nth_empty-- == 0) return void(rank[f] = piece);
    };
    rank[2 * (n % 4) + 1] = 'B';  // light-squared bishop on b, d, f or h
    n /= 4;
    rank[2 * (n % 4)] = 'B';  // dark-squared bishop on a, c, e or g
    n /= 4;
    place('Q', n % 6);
    n /= 6;
    // The two knights among the five squares left: the ten pairs in order.
    static const int knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    place('N', knights[n][1]);  // the later one first, so the earlier index still counts right
    place('N', knights[n][0]);
    place('R', 0);
    place('K', 0);
    place('R', 0);
    std::string white(rank, 8), black = white;
    for (char& c : black) c = char(c - 'A' + 'a');
    return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w KQkq - 0 1";
}

Start make_start(const Config& config, const std::vector<std::string>& book, std::uint64_t& rng) {
    for (;;) {
        Start start;
        Game game;
        int plies = 0;
        const std::uint64_t kind = below(rng, 100);
        const std::uint64_t standard = config.standard_share, c960 = standard + config.chess960_share,
                            suggested = c960 + config.suggested_share;
        if (kind < standard) {
            start.kind = START_STANDARD;
            if (!book.empty()) {
                if (!set_from_line(game, book[below(rng, book.size())]).empty()) continue;
                plies = 2 + int(below(rng, 3));
            } else {
                plies = 8 + int(below(rng, 2));
            }
        } else if (kind < c960) {
            start.kind = START_CHESS960;
            if (!game.set(chess960_fen(int(below(rng, 960))), {}, true).empty()) continue;
            plies = 4 + int(below(rng, 5));
        } else {
            // Army pairs: each side's army and rules (classic or variant) drawn alone,
            // so all four mixes and both colours of every army occur.
            if (kind < suggested) {
                start.kind = START_SUGGESTED;
                start.white_army = suggest_army(WHITE, splitmix64(rng));
                start.black_army = suggest_army(BLACK, splitmix64(rng));
            } else {
                start.kind = START_RANDOM_ARMIES;
                const int mix = int(below(rng, 4));
                start.white_army = random_army(WHITE, mix & 2, rng);
                start.black_army = random_army(BLACK, mix & 1, rng);
            }
            if (!game.set_armies(start.white_army, start.black_army, {}).empty()) continue;
            plies = int(below(rng, 7));
        }
        if (!random_plies(game, plies, rng)) continue;
        start.fen = game.position().fen();
        return start;
    }
}

const char* const Usage =
    "Usage: maharajah datagen [games N] [nodes N] [hardnodes N] [depth N] [threads N] [seed N]\n"
    "         [hash MB] [out FILE] [book FILE] [eval default|classical|nnue|hybrid] [evalfile FILE]\n"
    "         [standard PERCENT] [chess960 PERCENT] [suggested PERCENT] [verify CP] [verifynodes N]\n"
    "         [wincp CP] [winplies N] [drawcp CP] [drawplies N] [drawfrom PLY] [maxplies N]\n"
    "       maharajah expand [out FILE] GAMEFILE...";

namespace {

// The numeric options: name, range and field. A field is an int or a 64-bit count.
struct NumberOption {
    const char* name;
    std::uint64_t lo, hi;
    std::variant<std::uint64_t Config::*, int Config::*> field;
};

constexpr NumberOption NumberOptions[] = {
    {"games", 1, 1'000'000'000, &Config::games},
    {"nodes", 0, 100'000'000, &Config::nodes},
    {"hardnodes", 0, 1'000'000'000, &Config::hard_nodes},
    {"depth", 0, 60, &Config::depth},
    {"threads", 1, 256, &Config::threads},
    {"seed", 0, ~0ULL, &Config::seed},
    {"hash", 1, 4096, &Config::hash_mb},
    {"standard", 0, 100, &Config::standard_share},
    {"chess960", 0, 100, &Config::chess960_share},
    {"suggested", 0, 100, &Config::suggested_share},
    {"verify", 0, 32000, &Config::verify_cp},
    {"verifynodes", 1, 100'000'000, &Config::verify_nodes},
    {"wincp", 1, 32000, &Config::win_cp},
    {"winplies", 1, 1000, &Config::win_plies},
    {"drawcp", 0, 32000, &Config::draw_cp},
    {"drawplies", 1, 1000, &Config::draw_plies},
    {"drawfrom", 0, 10000, &Config::draw_from},
    {"maxplies", 1, 10000, &Config::max_plies},
};

}  // namespace

std::string parse_config(const std::vector<std::string>& args, Config& config) {
    for (std::size_t i = 0; i < args.size(); i += 2) {
        const std::string& name = args[i];
        if (i + 1 >= args.size()) return clip(name) + " needs a value";
        const std::string& value = args[i + 1];
        const auto option = std::find_if(std::begin(NumberOptions), std::end(NumberOptions),
                                         [&](const NumberOption& o) { return name == o.name; });
        if (option != std::end(NumberOptions)) {
            std::uint64_t v = 0;
            if (std::string e = parse_number(value, option->lo, option->hi, v); !e.empty())
                return name + " " + e + ", not '" + clip(value) + "'";
            std::visit(
                [&](auto field) { config.*field = static_cast<std::remove_reference_t<decltype(config.*field)>>(v); },
                option->field);
        } else if (name == "out")
            config.out = value;
        else if (name == "book")
            config.book = value;
        else if (name == "eval") {
            if (value != "default" && value != "classical" && value != "nnue" && value != "hybrid")
                return "eval must be default, classical, nnue or hybrid, not '" + clip(value) + "'";
            config.eval = value;
        } else if (name == "evalfile")
            config.evalfile = value;
        else
            return "unknown datagen option '" + clip(name) + "'";
    }
    if (!config.nodes && !config.depth) return "give a nodes or a depth budget";
    if (config.standard_share + config.chess960_share + config.suggested_share > 100)
        return "standard, chess960 and suggested shares add up to more than 100 percent";
    if (config.hard_nodes && config.hard_nodes < config.nodes) return "hardnodes is below nodes";
    return {};
}

namespace {

// Finished games wait here until every earlier game is written, so the file's content
// depends only on the seed, not on which thread finished first.
struct Writer {
    std::mutex mutex;
    std::ofstream out;
    std::map<std::uint64_t, GameRecord> done;
    std::uint64_t next = 0, games = 0, positions = 0, session_positions = 0;
    std::uint64_t ends[6] = {};
    std::string error;

    void submit(std::uint64_t index, GameRecord game) {
        std::lock_guard<std::mutex> lock(mutex);
        done.emplace(index, std::move(game));
        for (auto it = done.begin(); it != done.end() && it->first == next; it = done.erase(it), ++next) {
            out << encode_game(it->second);
            positions += it->second.plies.size();
            session_positions += it->second.plies.size();
            ++ends[it->second.termination];
            ++games;
        }
        out.flush();  // a stopped run loses at most the games in flight
        if (!out && error.empty()) error = "write failed";
    }
};

// One search from the game's position with the run's budget; the score is the last
// exact one reported (VALUE_NONE if none was).
std::pair<Move, Value> think(search::Engine& engine, const Position& pos, const search::Settings& settings,
                             std::uint64_t soft, std::uint64_t hard, int depth) {
    search::Limits limits;
    limits.nodes = hard;
    limits.soft_nodes = soft;
    limits.depth = depth;
    Value score = VALUE_NONE;
    Move best = MOVE_NONE;
    search::Listener listener;
    listener.on_report = [&](const search::Report& r) {
        if (r.bound == search::BOUND_EXACT && r.multipv == 1 && !r.pv.empty()) score = r.score;
    };
    listener.on_bestmove = [&](Move m, Move) { best = m; };
    engine.start(pos, limits, settings, listener);
    engine.wait();
    return {best, score};
}

GameRecord play_game(search::Engine& engine, const search::Settings& settings, const Config& config,
                     const Start& start) {
    GameRecord record;
    record.kind = start.kind;
    record.fen = start.fen;
    Game game;
    game.set(start.fen, {}, record.chess960());  // the start was made by the same rules
    int win_run = 0, draw_run = 0;
    for (;;) {
        const GameStatus status = game.status();
        if (status != GameStatus::ONGOING) {
            // A claimable draw (threefold, fifty moves) ends the game as a draw.
            record.termination = status == GameStatus::CHECKMATE   ? END_CHECKMATE
                                 : status == GameStatus::STALEMATE ? END_STALEMATE
                                                                   : END_DRAW_RULE;
            record.result = status == GameStatus::CHECKMATE ? (game.position().side_to_move() == WHITE ? 0 : 2) : 1;
            return record;
        }
        if (int(record.plies.size()) >= config.max_plies) {
            record.termination = END_PLY_CAP, record.result = 1;
            return record;
        }
        const Position& pos = game.position();
        auto [best, score] = think(engine, pos, settings, config.nodes, config.hard_cap(), config.depth);
        if (best == MOVE_NONE) {  // cannot happen in an ongoing game; end it as drawn
            record.termination = END_DRAW_RULE, record.result = 1;
            return record;
        }
        record.plies.push_back({best, score});
        if (score != VALUE_NONE) {
            const Value white = pos.side_to_move() == WHITE ? score : -score;
            if (std::abs(white) >= VALUE_MATE_IN_MAX_PLY)
                win_run = white > 0 ? config.win_plies : -config.win_plies;
            else if (white >= config.win_cp)
                win_run = win_run > 0 ? win_run + 1 : 1;
            else if (white <= -config.win_cp)
                win_run = win_run < 0 ? win_run - 1 : -1;
            else
                win_run = 0;
            draw_run = pos.game_ply() >= config.draw_from && std::abs(white) <= config.draw_cp ? draw_run + 1 : 0;
            if (std::abs(win_run) >= config.win_plies) {
                record.termination = END_WIN_ADJUDICATED, record.result = win_run > 0 ? 2 : 0;
                return record;
            }
            if (draw_run >= config.draw_plies) {
                record.termination = END_DRAW_ADJUDICATED, record.result = 1;
                return record;
            }
        }
        game.play(best);
    }
}

// Reads what an earlier run of the same seed left in `path`: the number of whole games,
// in index order, and the file size they take (a partial last game is cut off).
std::string scan_existing(const std::string& path, std::uint64_t seed, std::uint64_t& games, std::uint64_t& bytes) {
    games = bytes = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    GameRecord g;
    std::string error;
    while (read_game(in, g, error)) {
        if (g.seed != seed || g.index != games)
            return "'" + path + "' holds game " + std::to_string(g.index) + " of seed " + std::to_string(g.seed) +
                   " where game " + std::to_string(games) + " of seed " + std::to_string(seed) +
                   " belongs: not a run of this seed (pick another out file)";
        ++games;
        bytes = std::uint64_t(in.tellg());
    }
    if (!error.empty() && error.find("truncated") == std::string::npos)
        return "'" + path + "' is not a game file: " + error;
    return {};
}

}  // namespace

int run(const Config& config, std::ostream& log) {
    std::string error;
    std::vector<std::string> book = read_book(config.book, error);
    if (!error.empty()) {
        log << "error: " << error << std::endl;
        return 1;
    }
    // The players' net: the built-in one, or the file's.
    nnue::NetPtr net;
    if (!config.evalfile.empty()) {
        if (std::string e = nnue::load_file(config.evalfile, net); !e.empty()) {
            log << "error: evalfile " << e << std::endl;
            return 1;
        }
        log << "datagen: net " << config.evalfile << std::endl;
    }
    std::uint64_t first = 0, keep_bytes = 0;
    if (std::string e = scan_existing(config.out, config.seed, first, keep_bytes); !e.empty()) {
        log << "error: " << e << std::endl;
        return 1;
    }
    if (first >= config.games) {
        log << "datagen: '" << config.out << "' already holds all " << first << " games of seed " << config.seed
            << std::endl;
        return 0;
    }
    Writer writer;
    if (first || keep_bytes) {
        std::error_code ec;
        std::filesystem::resize_file(config.out, keep_bytes, ec);
        if (ec) {
            log << "error: cannot resume '" << config.out << "': " << ec.message() << std::endl;
            return 1;
        }
        log << "datagen: resuming '" << config.out << "' at game " << first << std::endl;
    }
    writer.out.open(config.out, std::ios::binary | (first ? std::ios::app : std::ios::trunc));
    if (!writer.out) {
        log << "error: cannot write '" << config.out << "'" << std::endl;
        return 1;
    }
    writer.next = first;
    search::Settings settings;
    if (config.eval != "default") eval::parse_mode(config.eval, settings.eval.mode);
    settings.eval.net = net;

    std::atomic<std::uint64_t> next_game{first};
    std::atomic<std::uint64_t> dropped{0};
    std::atomic<int> running{config.threads};
    std::mutex done_mutex;
    std::condition_variable done_cv;
    auto worker = [&] {
        search::Engine engine;
        engine.resize_hash(std::size_t(config.hash_mb));
        for (std::uint64_t g; (g = next_game++) < config.games;) {
            // Everything about game g follows from (seed, g): a resumed or multi-threaded
            // run writes the same bytes.
            std::uint64_t mix = config.seed * 0x9E3779B97F4A7C15ULL + g;
            std::uint64_t rng = splitmix64(mix);
            Start start;
            for (;;) {
                start = make_start(config, book, rng);
                if (!config.verify_cp) break;
                engine.clear();
                Game check;
                check.set(start.fen, {}, start.kind == START_CHESS960);
                Value v =
                    think(engine, check.position(), settings, config.verify_nodes, 8 * config.verify_nodes, 0).second;
                if (v != VALUE_NONE && std::abs(v) <= config.verify_cp) break;
                ++dropped;
            }
            engine.clear();
            GameRecord record = play_game(engine, settings, config, start);
            record.seed = config.seed;
            record.index = std::uint32_t(g);
            writer.submit(g, std::move(record));
        }
        std::lock_guard<std::mutex> lock(done_mutex);
        --running;
        done_cv.notify_all();
    };
    const auto begin = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int i = 0; i < config.threads; ++i) threads.emplace_back(worker);

    auto progress = [&] {
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        std::lock_guard<std::mutex> lock(writer.mutex);
        const auto* e = writer.ends;
        log << "datagen: games " << writer.games + first << "/" << config.games << " positions " << writer.positions
            << " positions/s " << std::uint64_t(writer.session_positions / std::max(seconds, 1e-3)) << " elapsed "
            << std::uint64_t(seconds) << "s ends mate " << e[END_CHECKMATE] << " stalemate " << e[END_STALEMATE]
            << " rule " << e[END_DRAW_RULE] << " win-adj " << e[END_WIN_ADJUDICATED] << " draw-adj "
            << e[END_DRAW_ADJUDICATED] << " cap " << e[END_PLY_CAP] << " starts dropped " << dropped << std::endl;
    };
    {
        std::unique_lock<std::mutex> lock(done_mutex);
        while (running > 0)
            if (!done_cv.wait_for(lock, std::chrono::seconds(30), [&] { return running == 0; })) {
                lock.unlock();
                progress();
                lock.lock();
            }
    }
    for (auto& t : threads) t.join();
    progress();
    if (!writer.error.empty()) {
        log << "error: " << writer.error << " on '" << config.out << "'" << std::endl;
        return 1;
    }
    return 0;
}

int expand(const std::vector<std::string>& args, std::ostream& out, std::ostream& log) {
    std::vector<std::string> inputs;
    std::string out_path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "out") {
            if (i + 1 >= args.size()) return log << "error: out needs a file name\n" << Usage << std::endl, 1;
            out_path = args[++i];
        } else {
            inputs.push_back(args[i]);
        }
    }
    if (inputs.empty()) return log << "error: name at least one game file\n" << Usage << std::endl, 1;
    std::ofstream file;
    if (!out_path.empty()) {
        file.open(out_path, std::ios::binary | std::ios::trunc);
        if (!file) return log << "error: cannot write '" << out_path << "'" << std::endl, 1;
    }
    std::ostream& sink = out_path.empty() ? out : file;
    std::uint64_t total = 0;
    for (const std::string& path : inputs) {
        std::ifstream in(path, std::ios::binary);
        if (!in) return log << "error: cannot read '" << path << "'" << std::endl, 1;
        std::string error;
        total += expand_games(in, sink, error);
        if (!error.empty()) return log << "error: '" << path << "': " << error << std::endl, 1;
    }
    sink.flush();
    if (!sink) return log << "error: write failed" << std::endl, 1;
    log << "expand: " << total << " positions" << std::endl;
    return 0;
}

}  // namespace maharajah::datagen
