#include "datagen/datagen.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

#include "board/army.h"
#include "core/random.h"
#include "datagen/packed.h"
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
    return game.status() == "ongoing";
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
    if (token == "startpos") fen = StartFen;
    else if (token == "fen")
        while (is >> token && token != "moves") {
            if (!fen.empty()) fen += ' ';
            fen += token;
        }
    else return "a book line starts with 'startpos' or 'fen': " + clip(line);
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
    static const Kind kinds[] = {{PAWN, 1},   {KNIGHT, 3},     {BISHOP, 3},     {ROOK, 5},
                                 {QUEEN, 9},  {ARCHBISHOP, 6}, {CHANCELLOR, 8}, {MAHARAJA, 13}};
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

Start make_start(const Config& config, const std::vector<std::string>& book, std::uint64_t game_seed) {
    std::uint64_t rng = game_seed;
    for (;;) {
        Start start;
        Game game;
        int plies = 0;
        std::uint64_t kind = below(rng, 100);
        if (kind < std::uint64_t(config.standard_share)) {
            start.kind = "standard";
            if (!book.empty()) {
                if (!set_from_line(game, book[below(rng, book.size())]).empty()) continue;
                plies = 2 + int(below(rng, 3));
            } else {
                plies = 6 + int(below(rng, 4));
            }
        } else {
            bool suggested = kind < std::uint64_t(config.standard_share + config.suggested_share);
            if (suggested) {
                start.kind = "suggested";
                start.white_army = suggest_army(WHITE, splitmix64(rng));
                start.black_army = suggest_army(BLACK, splitmix64(rng));
                plies = 2 + int(below(rng, 4));
            } else {
                int mix = int(below(rng, 4));
                const char* names[] = {"random cc", "random cv", "random vc", "random vv"};
                start.kind = names[mix];
                start.white_army = random_army(WHITE, mix & 2, rng);
                start.black_army = random_army(BLACK, mix & 1, rng);
                plies = 1 + int(below(rng, 4));
            }
            if (!game.set_armies(start.white_army, start.black_army, {}).empty()) continue;
        }
        if (!random_plies(game, plies, rng)) continue;
        start.fen = game.position().fen();
        return start;
    }
}

const char* const Usage =
    "Usage: maharajah datagen [games N] [nodes N] [depth N] [threads N] [seed N] [hash MB]\n"
    "                         [out FILE] [book FILE] [eval default|classical|nnue] [evalfile FILE]\n"
    "                         [standard PERCENT] [suggested PERCENT]";

std::string parse_config(const std::vector<std::string>& args, Config& config) {
    for (std::size_t i = 0; i < args.size(); i += 2) {
        const std::string& name = args[i];
        if (i + 1 >= args.size()) return clip(name) + " needs a value";
        const std::string& value = args[i + 1];
        auto number = [&](std::uint64_t lo, std::uint64_t hi, std::uint64_t& out) -> std::string {
            try {
                std::size_t used = 0;
                unsigned long long v = std::stoull(value, &used);
                if (used == value.size() && value[0] != '-' && v >= lo && v <= hi) {
                    out = v;
                    return {};
                }
            } catch (...) {
            }
            return name + " must be a number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" +
                   clip(value) + "'";
        };
        std::uint64_t v = 0;
        std::string error;
        if (name == "games") error = number(1, 1'000'000'000, config.games);
        else if (name == "nodes") error = number(0, 100'000'000, config.nodes);
        else if (name == "seed") error = number(0, ~0ULL, config.seed);
        else if (name == "standard" || name == "suggested") {
            error = number(0, 100, v);
            (name == "standard" ? config.standard_share : config.suggested_share) = int(v);
        } else if (name == "depth" || name == "threads" || name == "hash") {
            error = number(name == "depth" ? 0 : 1, name == "depth" ? 60 : name == "threads" ? 256 : 4096, v);
            (name == "depth" ? config.depth : name == "threads" ? config.threads : config.hash_mb) = int(v);
        } else if (name == "out") config.out = value;
        else if (name == "book") config.book = value;
        else if (name == "eval") {
            if (value != "default" && value != "classical" && value != "nnue" && value != "hybrid")
                error = "eval must be default, classical, nnue or hybrid, not '" + clip(value) + "'";
            config.eval = value;
        } else if (name == "evalfile") config.evalfile = value;
        else return "unknown datagen option '" + clip(name) + "'";
        if (!error.empty()) return error;
    }
    if (!config.nodes && !config.depth) return "give a nodes or a depth budget";
    if (config.standard_share + config.suggested_share > 100)
        return "standard and suggested shares add up to more than 100 percent";
    return {};
}

namespace {

// Finished games wait here until every earlier game is written, so the file's content
// depends only on the seed, not on which thread finished first.
struct Writer {
    std::mutex mutex;
    std::ofstream out;
    std::map<std::uint64_t, std::vector<Record>> done;
    std::uint64_t next = 0, games = 0, positions = 0;
    std::string error;

    void submit(std::uint64_t index, std::vector<Record> records) {
        std::lock_guard<std::mutex> lock(mutex);
        done.emplace(index, std::move(records));
        for (auto it = done.begin(); it != done.end() && it->first == next; it = done.erase(it), ++next) {
            for (const Record& r : it->second) out.write(reinterpret_cast<const char*>(r.data()), RecordSize);
            positions += it->second.size();
            ++games;
        }
        out.flush();
        if (!out && error.empty()) error = "write failed";
    }
};

std::vector<Record> play_game(search::Engine& engine, const search::Settings& settings, const Config& config,
                              const Start& start) {
    Game game;
    if (!game.set(start.fen, {}).empty()) return {};
    engine.clear();
    std::vector<Record> records;
    std::string status;
    while ((status = game.status()) == "ongoing") {
        search::Limits limits;
        limits.nodes = config.nodes;
        limits.depth = config.depth;
        Value score = VALUE_NONE;
        Move best = MOVE_NONE;
        search::Listener listener;
        listener.on_report = [&](const search::Report& r) {
            if (r.bound == search::BOUND_EXACT && r.multipv == 1 && !r.pv.empty()) score = r.score;
        };
        listener.on_bestmove = [&](Move m, Move) { best = m; };
        engine.start(game.position(), limits, settings, listener);
        engine.wait();
        if (best == MOVE_NONE) break;
        const Position& pos = game.position();
        // Kept: quiet positions with a centipawn score. A position in check or whose
        // best move captures or promotes is not quiet, and a mate score is no
        // evaluation to learn.
        bool tactical = is_promotion(best) || is_en_passant(best) ||
                        (!is_castling(best) && pos.piece_on(to_sq(best)) != NO_PIECE);
        if (!pos.in_check() && !tactical && score != VALUE_NONE && std::abs(score) < VALUE_MATE_IN_MAX_PLY)
            records.push_back(pack(pos, score, best, DRAWN));
        game.play(best);
    }
    Result result = DRAWN;
    if (status == "checkmate") result = game.position().side_to_move() == WHITE ? BLACK_WINS : WHITE_WINS;
    for (Record& r : records) r[51] = result;
    return records;
}

}  // namespace

int run(const Config& config, std::ostream& log) {
    std::string error;
    std::vector<std::string> book = read_book(config.book, error);
    if (!error.empty()) {
        log << "error: " << error << std::endl;
        return 1;
    }
    // The net is loaded before any thread starts: replacing it is not thread-safe.
    if (!config.evalfile.empty()) {
        if (std::string e = nnue::load_file(config.evalfile); !e.empty()) {
            log << "error: evalfile " << e << std::endl;
            return 1;
        }
        log << "datagen: net " << nnue::active_name() << std::endl;
    }
    Writer writer;
    writer.out.open(config.out, std::ios::binary | std::ios::trunc);
    if (!writer.out) {
        log << "error: cannot write '" << config.out << "'" << std::endl;
        return 1;
    }
    search::Settings settings;
    if (config.eval != "default") eval::parse_mode(config.eval, settings.eval.mode);

    std::atomic<std::uint64_t> next_game{0};
    std::atomic<int> running{config.threads};
    std::mutex done_mutex;
    std::condition_variable done_cv;
    auto worker = [&] {
        search::Engine engine;
        engine.resize_hash(std::size_t(config.hash_mb));
        for (std::uint64_t g; (g = next_game++) < config.games;) {
            std::uint64_t seed = config.seed * 0x9E3779B97F4A7C15ULL + g;
            Start start = make_start(config, book, splitmix64(seed));
            writer.submit(g, play_game(engine, settings, config, start));
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
        log << "datagen: games " << writer.games << "/" << config.games << " positions " << writer.positions
            << " positions/s " << std::uint64_t(writer.positions / std::max(seconds, 1e-3)) << " elapsed "
            << std::uint64_t(seconds) << "s" << std::endl;
    };
    {
        std::unique_lock<std::mutex> lock(done_mutex);
        while (running > 0)
            if (!done_cv.wait_for(lock, std::chrono::seconds(10), [&] { return running == 0; })) {
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

}  // namespace maharajah::datagen
