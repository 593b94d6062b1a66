#include "datagen/games.h"

#include <algorithm>
#include <istream>
#include <ostream>

#include "datagen/packed.h"
#include "movegen/movegen.h"
#include "protocol/game.h"

namespace maharajah::datagen {

namespace {

constexpr int HeaderSize = 22;
constexpr std::size_t MaxFenLength = 200;

void put(std::string& s, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) s += char(std::uint8_t(v >> (8 * i)));
}

std::uint64_t get(const unsigned char* p, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(p[i]) << (8 * i);
    return v;
}

}  // namespace

std::string encode_game(const GameRecord& game) {
    std::string s;
    s.reserve(HeaderSize + game.fen.size() + 4 * game.plies.size());
    s += "MG";
    put(s, GameFormatVersion, 1);
    put(s, game.kind, 1);
    put(s, game.result, 1);
    put(s, game.termination, 1);
    put(s, game.plies.size(), 2);
    put(s, game.seed, 8);
    put(s, game.index, 4);
    put(s, game.fen.size(), 2);
    s += game.fen;
    for (const GamePly& p : game.plies) {
        put(s, std::uint16_t(p.move), 2);
        put(s, std::uint16_t(std::int16_t(p.score)), 2);
    }
    return s;
}

bool read_game(std::istream& in, GameRecord& game, std::string& error) {
    error.clear();
    unsigned char h[HeaderSize];
    in.read(reinterpret_cast<char*>(h), HeaderSize);
    if (in.gcount() == 0) return false;
    if (in.gcount() < HeaderSize) return error = "truncated game header", false;
    if (h[0] != 'M' || h[1] != 'G') return error = "not a game record (bad magic)", false;
    if (h[2] != GameFormatVersion) return error = "unknown game format version " + std::to_string(h[2]), false;
    if (h[3] >= START_KIND_NB || h[4] > 2 || h[5] > END_PLY_CAP) return error = "bad game header field", false;
    game.kind = StartKind(h[3]);
    game.result = h[4];
    game.termination = Termination(h[5]);
    const std::size_t plies = get(h + 6, 2);
    game.seed = get(h + 8, 8);
    game.index = std::uint32_t(get(h + 16, 4));
    const std::size_t fen_length = get(h + 20, 2);
    if (fen_length == 0 || fen_length > MaxFenLength) return error = "bad start FEN length", false;
    game.fen.assign(fen_length, ' ');
    in.read(game.fen.data(), std::streamsize(fen_length));
    if (std::size_t(in.gcount()) < fen_length) return error = "truncated start FEN", false;
    std::string body(4 * plies, '\0');
    in.read(body.data(), std::streamsize(body.size()));
    if (std::size_t(in.gcount()) < body.size()) return error = "truncated moves", false;
    game.plies.resize(plies);
    const auto* b = reinterpret_cast<const unsigned char*>(body.data());
    for (std::size_t i = 0; i < plies; ++i) {
        game.plies[i].move = Move(get(b + 4 * i, 2));
        game.plies[i].score = Value(std::int16_t(get(b + 4 * i + 2, 2)));
    }
    return true;
}

std::uint64_t expand_games(std::istream& in, std::ostream& out, std::string& error) {
    std::uint64_t written = 0, games = 0;
    GameRecord g;
    while (read_game(in, g, error)) {
        ++games;
        auto fail = [&](const std::string& why) {
            error = "game " + std::to_string(games) + " (seed " + std::to_string(g.seed) + ", index " +
                    std::to_string(g.index) + "): " + why;
            return written;
        };
        Game game;
        if (std::string e = game.set(g.fen, {}, g.chess960()); !e.empty()) return fail("start FEN: " + e);
        const bool army = g.kind == START_SUGGESTED || g.kind == START_RANDOM_ARMIES;
        const bool adjudicated = g.termination == END_WIN_ADJUDICATED || g.termination == END_DRAW_ADJUDICATED;
        for (std::size_t i = 0; i < g.plies.size(); ++i) {
            const Position& pos = game.position();
            const Move m = g.plies[i].move;
            MoveList<LEGAL> legal(pos);
            if (std::find(legal.begin(), legal.end(), m) == legal.end())
                return fail("ply " + std::to_string(i + 1) + " is not a legal move");
            const bool no_score = g.plies[i].score == VALUE_NONE;
            Record r = pack(pos, no_score ? 0 : g.plies[i].score, m, Result(g.result));
            if (g.chess960()) r[48] &= 0x0F;  // the record's castling bits name standard rooks only
            const bool capture = pos.is_capture(m);
            r[58] = std::uint8_t((pos.in_check() ? EXP_IN_CHECK : 0) | (capture ? EXP_CAPTURE : 0) |
                                 (is_promotion(m) ? EXP_PROMOTION : 0) | (army ? EXP_ARMY : 0) |
                                 (g.chess960() ? EXP_CHESS960 : 0) | (adjudicated ? EXP_ADJUDICATED : 0) |
                                 (no_score ? EXP_NO_SCORE : 0));
            r[59] = g.kind;
            const std::size_t ply = std::min<std::size_t>(i, 65535),
                              left = std::min<std::size_t>(g.plies.size() - i, 65535);
            r[60] = std::uint8_t(ply), r[61] = std::uint8_t(ply >> 8);
            r[62] = std::uint8_t(left), r[63] = std::uint8_t(left >> 8);
            out.write(reinterpret_cast<const char*>(r.data()), RecordSize);
            ++written;
            game.play(m);
        }
        if (!out) return fail("write failed");
    }
    if (!error.empty()) error = "after " + std::to_string(games) + " games: " + error;
    return written;
}

}  // namespace maharajah::datagen
