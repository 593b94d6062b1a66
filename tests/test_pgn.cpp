// PGN: export then import gives the same start, moves and final position for standard,
// Chess960 and army games; a PGN written by another tool (comments, NAGs, variations,
// clock comments) imports; tags follow the game's rules and end; bad files leave the
// position unchanged and name the move.

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "core/random.h"
#include "movegen/movegen.h"
#include "protocol/pgn.h"
#include "support/random_armies.h"
#include "support/uci_session.h"

using namespace maharajah;

namespace {

// A scratch file that is removed again.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& text) {
        static int counter = 0;
        path = "maharajah_test_pgn_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".pgn";
        std::ofstream(path, std::ios::binary) << text;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

// The lines of a `pgn` answer up to (without) "endpgn".
std::string pgn_of(testsupport::UciSession& s, const std::string& extra = "") {
    auto out = s.run("pgn" + extra + "\n");
    REQUIRE(!out.empty());
    REQUIRE(out.back() == "endpgn");
    std::string text;
    for (std::size_t i = 0; i + 1 < out.size(); ++i) text += out[i] + '\n';
    return text;
}

std::string tag(const std::string& pgn, const std::string& name) {
    const std::string head = "[" + name + " \"";
    const auto at = pgn.find(head);
    if (at == std::string::npos) return "(none)";
    return pgn.substr(at + head.size(), pgn.find("\"]", at) - at - head.size());
}

std::string fen_of(testsupport::UciSession& s) { return s.run("fen\n").at(0); }

// Plays `plies` random legal moves from `position` (a `position` command's words).
std::string random_game(const std::string& position, int plies, std::uint64_t& rng, bool chess960 = false) {
    Game g;
    std::istringstream is(position);
    REQUIRE(parse_position(is, g, chess960) == "");
    for (int i = 0; i < plies; ++i) {
        MoveList<LEGAL> legal(g.position());
        if (!legal.size() || g.status() != GameStatus::ONGOING) break;
        g.play(*(legal.begin() + splitmix64(rng) % legal.size()));
    }
    return position_text(g);
}

}  // namespace

TEST_CASE("PGN export then import: same start, moves and final position", "[pgn]") {
    std::uint64_t rng = 960;
    std::vector<std::pair<std::string, std::string>> games;  // position text, expected Variant tag
    for (int i = 0; i < 4; ++i) games.emplace_back(random_game("startpos", 120, rng), "(none)");
    for (int i = 0; i < 3; ++i)
        games.emplace_back(
            random_game("chess960 fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", 120, rng), "Chess960");
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
        const std::string fen = testsupport::random_army_fen(seed, int(seed % 4));
        Game g;
        REQUIRE(g.set(fen, {}) == "");
        const bool w = g.position().rules(WHITE).variant, b = g.position().rules(BLACK).variant;
        games.emplace_back(random_game("fen " + fen, 150, rng), w && b ? "maharajah39"
                                                                : b    ? "maharajah39-cv"
                                                                : w    ? "maharajah39-vc"
                                                                       : "(none)");
    }
    games.emplace_back("army RNBMKBNR/PPPP4 RNBQKBNR/PPPPPPPP moves a2a4 e7e5 d1h5", "maharajah39-vc");
    // Chess960 with compound pieces (one side or both): the Chess960 tag, the rules in the FEN.
    games.emplace_back("chess960 fen rnbqkbnr/pppppppp/8/8/8/8/PPPP4/RNBMKBNR w kq - 0 1 moves a2a4 e7e5 d1h5 b8c6",
                       "Chess960");
    for (int i = 0; i < 2; ++i)
        games.emplace_back(random_game("chess960 fen " + testsupport::random_army_fen(100 + i, i), 100, rng, true),
                           "Chess960");
    for (const auto& [position, variant] : games) {
        INFO(position);
        testsupport::UciSession s;
        REQUIRE(s.run("position " + position + "\n").empty());
        const std::string fen = fen_of(s);
        const std::string pgn = pgn_of(s);
        REQUIRE(tag(pgn, "Variant") == variant);
        REQUIRE(tag(pgn, "Result") != "(none)");
        TempFile file(pgn);
        testsupport::UciSession t;
        REQUIRE(t.run("position pgn " + file.path + "\n").empty());
        REQUIRE(fen_of(t) == fen);
        REQUIRE(pgn_of(t) == pgn);  // same start tags and the same moves
        // The game itself, not only its end: start and moves as position text.
        Game original, imported;
        std::istringstream is(position);
        REQUIRE(parse_position(is, original) == "");
        REQUIRE(read_pgn(pgn, &imported) == "");
        REQUIRE(position_text(imported) == position_text(original));
    }
}

TEST_CASE("PGN tags: Seven Tag Roster, SetUp/FEN only off the standard start, Result and Termination", "[pgn]") {
    testsupport::UciSession s;
    s.run("position startpos moves f2f3 e7e5 g2g4 d8h4\n");
    std::string pgn = pgn_of(s);
    REQUIRE(pgn ==
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
            "[Result \"0-1\"]\n[Termination \"checkmate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    // A flag fall named by the caller: White flags, Black can mate.
    s.run("position startpos moves e2e4 e7e5\n");
    pgn = pgn_of(s, " flag white");
    REQUIRE(tag(pgn, "Result") == "0-1");
    REQUIRE(tag(pgn, "Termination") == "time forfeit");
    REQUIRE(s.run("pgn flag green\n").at(0).rfind("info string error: pgn:", 0) == 0);
    // A start off the standard one, Black to move: SetUp, FEN, and "1..." first.
    s.run("position fen 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 moves e8d7 e2e4\n");
    pgn = pgn_of(s);
    REQUIRE(tag(pgn, "SetUp") == "1");
    REQUIRE(tag(pgn, "FEN") == "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    REQUIRE(pgn.find("\n1... Kd7 2. e4 *\n") != std::string::npos);
    REQUIRE(tag(pgn, "Termination") == "unterminated");
    // An army start: the variant's name and a 6-field FEN that variant tools read.
    s.run("position army RNBMKBNR/PPPP4 RNBQKBNR/PPPPPPPP\n");
    pgn = pgn_of(s);
    REQUIRE(tag(pgn, "Variant") == "maharajah39-vc");
    REQUIRE(tag(pgn, "FEN") == "rnbqkbnr/pppppppp/8/8/8/8/PPPP4/RNBMKBNR w kq - 0 1");
    // Insufficient material ends the game in a draw.
    s.run("position fen 4k3/8/8/8/8/8/3p4/4K3 w - - 0 1 moves e1d2\n");
    pgn = pgn_of(s);
    REQUIRE(tag(pgn, "Result") == "1/2-1/2");
    REQUIRE(tag(pgn, "Termination") == "insufficient material");
}

TEST_CASE("PGN written by another tool imports: comments, NAGs, variations, clocks", "[pgn]") {
    // The Opera game as a database exports it, with the usual decorations.
    const std::string pgn = R"([Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
[ECO "C41"]
[Annotator "Someone \"quoted\""]

% an escape line that readers ignore
{Philidor Defence} 1. e4 {[%clk 0:05:00]} e5 2. Nf3 d6 3. d4 Bg4?! $6 (3... exd4 4. Nxd4 (4. Qxd4 Nc6) Nf6)
4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5
11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 ; a rest-of-line comment
16.Qb8+ Nxb8 17.Rd8# 1-0

[Event "the next game is not read"]
1. d4 *
)";
    Game g;
    PgnGame info;
    REQUIRE(read_pgn(pgn, &g, &info) == "");
    REQUIRE(g.moves().size() == 33);
    REQUIRE(g.position().fen() == "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
    REQUIRE(g.status() == GameStatus::CHECKMATE);
    REQUIRE(info.result == "1-0");
    REQUIRE(info.tags.size() == 9);
    REQUIRE(info.tags[8] == std::make_pair(std::string("Annotator"), std::string("Someone \"quoted\"")));
    // Through the protocol (as a Windows tool saves it: a byte order mark, CRLF line
    // ends), and back out with the same moves.
    std::string windows = "\xEF\xBB\xBF";
    for (char c : pgn) windows += c == '\n' ? std::string("\r\n") : std::string(1, c);
    TempFile file(windows);
    testsupport::UciSession s;
    REQUIRE(s.run("position pgn " + file.path + "\n").empty());
    REQUIRE(fen_of(s) == "fen 1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
    REQUIRE(pgn_of(s).find("16. Qb8+ Nxb8 17. Rd8# 1-0") != std::string::npos);
}

TEST_CASE("PGN of a set-up position as lichess writes it, en passant marked apart", "[pgn]") {
    const std::string pgn =
        "[Event \"Casual\"]\n[Variant \"From Position\"]\n"
        "[FEN \"4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1\"]\n[SetUp \"1\"]\n\n"
        "1... d5 2. exd6 e.p. Kd7 *\n";
    Game g;
    REQUIRE(read_pgn(pgn, &g) == "");
    REQUIRE(g.position().fen() == "8/3k4/3P4/8/8/8/8/4K3 w - - 1 3");
}

TEST_CASE("PGN import errors name the move and leave the position unchanged", "[pgn]") {
    testsupport::UciSession s;
    s.run("position startpos moves e2e4\n");
    const std::string before = fen_of(s);
    auto error_for = [&](const std::string& text) {
        TempFile file(text);
        auto out = s.run("position pgn " + file.path + "\n");
        REQUIRE(out.size() == 1);
        REQUIRE(fen_of(s) == before);
        return out[0];
    };
    REQUIRE(error_for("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf4 *").find("move 3... 'Nf4': no legal move") != std::string::npos);
    REQUIRE(error_for("1. e4 e5 2. Kf3 *").find("move 2. 'Kf3'") != std::string::npos);
    REQUIRE(error_for("1. e4 {never closed").find("unterminated comment") != std::string::npos);
    REQUIRE(error_for("1. e4 (1. d4 *").find("unclosed variation") != std::string::npos);
    REQUIRE(error_for("[Variant \"crazyhouse\"]\n1. e4 *").find("unsupported variant 'crazyhouse'") !=
            std::string::npos);
    REQUIRE(error_for("[FEN \"8/8/8 w\"]\n*").find("FEN tag") != std::string::npos);
    REQUIRE(error_for("[White \"x]\n1. e4").find("tag") != std::string::npos);
    REQUIRE(error_for("").find("no game in the text") != std::string::npos);
    REQUIRE(error_for("  {only a comment}\n").find("no game in the text") != std::string::npos);
    REQUIRE(s.run("position pgn .\n").at(0).rfind("info string error: position pgn: ", 0) == 0);  // a folder
    REQUIRE(fen_of(s) == before);
    auto missing = s.run("position pgn /nonexistent/game.pgn\nposition pgn\n");
    REQUIRE(missing.size() == 2);
    REQUIRE(missing[0].rfind("info string error: position pgn: cannot open", 0) == 0);
    REQUIRE(missing[1] == "info string error: position pgn: expected a file name");
    REQUIRE(fen_of(s) == before);
}
