// The referee: status and flag verdicts (the rules in README.md and 9) and the referee
// and army commands of the UCI loop, driven through string streams.

#include <catch2/catch.hpp>
#include <sstream>

#include "protocol/uci.h"
#include "support/uci_session.h"

using namespace maharajah;

namespace {

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> v;
    std::istringstream is(s);
    for (std::string w; is >> w;) v.push_back(w);
    return v;
}

std::string status_of(const std::string& fen, const std::string& moves = "") {
    Game g;
    std::string error = g.set(fen, split(moves));
    REQUIRE(error == "");
    return status_name(g.status());
}

using Session = testsupport::UciSession;

const std::string KnightDance = "g1f3 g8f6 f3g1 f6g8 ";

}  // namespace

TEST_CASE("status: checkmate, stalemate and ongoing", "[referee]") {
    REQUIRE(status_of(StartFen) == "ongoing");
    REQUIRE(status_of(StartFen, "f2f3 e7e5 g2g4 d8h4") == "checkmate");
    REQUIRE(status_of("k7/8/1Q6/8/8/8/8/7K b - - 0 1") == "stalemate");
    // A compound piece's knight part mates where no slider could be blocked.
    REQUIRE(status_of("k7/2A5/1K6/8/8/8/8/8 b - - 0 1") == "checkmate");
}

TEST_CASE("status: repetitions by the move list", "[referee]") {
    REQUIRE(status_of(StartFen, KnightDance) == "ongoing");
    REQUIRE(status_of(StartFen, KnightDance + KnightDance) == "ongoing claim threefold");
    REQUIRE(status_of(StartFen, KnightDance + KnightDance + KnightDance) == "ongoing claim threefold");
    REQUIRE(status_of(StartFen, KnightDance + KnightDance + KnightDance + KnightDance) == "draw fivefold");
    // The same placement with other rights is another position: once the kings have
    // walked out and back, castling is gone, so the placement after 2.. e7e5 (with
    // castling) does not count towards the later ones.
    const std::string kings = "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8";
    REQUIRE(status_of(StartFen, kings) == "ongoing");
    REQUIRE(status_of(StartFen, kings + " e1e2 e8e7 e2e1 e7e8") == "ongoing claim threefold");
}

TEST_CASE("status: fifty and seventy-five move rules by the move list", "[referee]") {
    const std::string rooks = "4k2r/8/8/8/8/8/8/R3K3 w - - ";
    REQUIRE(status_of(rooks + "95 60", "a1a2 h8h7 a2a3 h7h6") == "ongoing");
    REQUIRE(status_of(rooks + "95 60", "a1a2 h8h7 a2a3 h7h6 a3a4") == "ongoing claim fifty");
    REQUIRE(status_of(rooks + "140 80", "a1a2 h8h7 a2a3 h7h6 a3a4 h6h5 a4a5 h5h4 a5a6 h4h3") == "draw seventyfive");
    // A capture resets the count.
    REQUIRE(status_of(rooks + "140 80", "a1a2 h8h7 a2a7 h7a7") == "ongoing");
    // Mate on the 75th move counts as mate.
    REQUIRE(status_of("k7/8/1K6/8/8/8/8/7R w - - 149 100", "h1h8") == "checkmate");
    REQUIRE(status_of("k7/8/1K6/8/8/8/8/7R w - - 149 100", "h1h7") == "draw seventyfive");
}

TEST_CASE("status: insufficient material", "[referee]") {
    REQUIRE(status_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1") == "draw insufficient");
    REQUIRE(status_of("4k3/8/8/8/8/8/8/4KN2 w - - 0 1") == "draw insufficient");
    REQUIRE(status_of("4k3/8/8/8/8/8/8/4KB2 b - - 0 1") == "draw insufficient");
    // K+B v K+B: same-coloured bishops (c1 and f8 are both dark) draw; opposite do not.
    REQUIRE(status_of("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1") == "draw insufficient");
    REQUIRE(status_of("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1") == "ongoing");
    REQUIRE(status_of("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1") == "ongoing");
    REQUIRE(status_of("4k3/8/8/8/8/8/8/3AK3 w - - 0 1") == "ongoing");
    REQUIRE(status_of("4k3/8/8/8/8/8/7P/4K3 w - - 0 1") == "ongoing");
}

TEST_CASE("flag: time losses, draws without mating material, aborts", "[referee]") {
    Game g;
    REQUIRE(g.flag(WHITE) == "aborted");
    REQUIRE(g.set(StartFen, {"e2e4"}) == "");
    REQUIRE(g.flag(BLACK) == "aborted");  // Black has not moved yet
    REQUIRE(g.flag(WHITE) == "0-1 time");
    REQUIRE(g.set(StartFen, {"e2e4", "e7e5"}) == "");
    REQUIRE(g.flag(BLACK) == "1-0 time");
    // The opponent has only a king and a knight: the flag fall is a draw.
    REQUIRE(g.set("4k3/8/8/8/8/8/8/4KN2 b - - 0 1", {"e8d8", "e1d1"}) == "");
    REQUIRE(g.flag(BLACK) == "1/2-1/2 time");
    REQUIRE(g.flag(WHITE) == "1/2-1/2 time");  // Black has only a king
}

TEST_CASE("referee commands answer in one line", "[referee][uci]") {
    Session s;
    REQUIRE(s.run("position startpos moves e2e4\nfen\ngetfen\n") ==
            std::vector<std::string>{"fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                                     "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"});
    REQUIRE(s.run("moves g8\n") == std::vector<std::string>{"moves g8f6 g8h6"});
    REQUIRE(s.run("moves e4\n") == std::vector<std::string>{"moves"});  // not Black's piece to move
    REQUIRE(s.run("moves e5\n") == std::vector<std::string>{"info string error: moves: no piece on e5"});
    REQUIRE(s.run("moves z9\n") == std::vector<std::string>{"info string error: moves: 'z9' is not a square"});
    auto legal = s.run("legalmoves\n");
    REQUIRE(legal.size() == 21);
    REQUIRE(legal.front() == "a7a5");
    REQUIRE(legal.back() == "endmoves");
    REQUIRE(s.run("position startpos moves f2f3 e7e5 g2g4 d8h4\nmoves\nstatus\n") ==
            std::vector<std::string>{"moves", "status checkmate"});
    REQUIRE(s.run("rules\n") ==
            std::vector<std::string>{"rules white classic castling KQ promotions qrbn doublestep rank2",
                                     "rules black classic castling kq promotions qrbn doublestep rank2"});
    REQUIRE(s.run("flag white\nflag black\nflag green\n") ==
            std::vector<std::string>{"result 0-1 time", "result 1-0 time",
                                     "info string error: flag: expected 'flag <white|black>'"});
}

TEST_CASE("army commands", "[referee][uci][army]") {
    Session s;
    REQUIRE(s.run("army check white RNBQKBNR/PPPPPPPP\n") ==
            std::vector<std::string>{"army ok points 39 pieces 15 rules classic"});
    REQUIRE(s.run("army check black rnbakbnr/pppppppp/3ppp2\n") ==
            std::vector<std::string>{"army ok points 39 pieces 18 rules variant"});
    REQUIRE(s.run("army check white RNBQKBNR/PPPPPPP1\n") ==
            std::vector<std::string>{"army error points 38, must be exactly 39"});
    REQUIRE(s.run("army check purple RNBQKBNR/PPPPPPPP\n") ==
            std::vector<std::string>{"info string error: army check: unknown colour 'purple' (use white or black)"});
    auto a = s.run("army suggest white seed 7\narmy suggest white seed 7\narmy suggest black\n");
    REQUIRE(a.size() == 3);
    REQUIRE(a[0] == a[1]);
    REQUIRE(a[0].rfind("army ", 0) == 0);
    REQUIRE(s.run("army suggest white seed x\n").front().rfind("info string error: ", 0) == 0);

    REQUIRE(s.run("position army RNBQKBNR/PPPPPPPP rnbqkbnr/pppppppp moves e2e4\nfen\n") ==
            std::vector<std::string>{"fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"});
    // Errors leave the position unchanged.
    auto bad = s.run("position army RNBQKBNR/PPPPPPPP rnbqkbnr/pppppppp moves e2e4 e2e4\nfen\n");
    REQUIRE(bad.size() == 2);
    REQUIRE(bad[0].rfind("info string error: position army: illegal move 'e2e4' (move 2", 0) == 0);
    REQUIRE(bad[1] == "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    bad = s.run("position army RNBQKBNR/PPPPPPPX rnbqkbnr/pppppppp\nposition army RNBQKBNR\nfen\n");
    REQUIRE(bad.size() == 3);
    REQUIRE(bad[0] == "info string error: position army: White army: unknown letter 'X'");
    REQUIRE(bad[1].rfind("info string error: position army: expected", 0) == 0);
    REQUIRE(bad[2] == "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // A Maharajah game: d shows both sides' rules, unmoved pawns and the status.
    REQUIRE(s.run("position army RRBQKBRP/PPPPPPPP rnbakbnr/pppppppp/3ppp2\n").empty());
    auto d = s.run("d\n");
    auto has = [&d](const std::string& line) { return std::find(d.begin(), d.end(), line) != d.end(); };
    REQUIRE(has("rules white classic castling Q promotions qrbn doublestep rank2"));
    REQUIRE(has("rules black variant castling - promotions qrbnmac doublestep unmoved"));
    REQUIRE(has("Unmoved pawns black: d6 e6 f6 a7 b7 c7 d7 e7 f7 g7 h7"));
    REQUIRE(has("Status: ongoing"));
}

TEST_CASE("UCI_Variant option", "[uci]") {
    Session s;
    auto lines = s.run("uci\n");
    REQUIRE(std::find(lines.begin(), lines.end(),
                      "option name UCI_Variant type combo default chess var chess var maharajah var maharajah39 "
                      "var maharajah39-cv var maharajah39-vc") != lines.end());
    REQUIRE(s.run("setoption name UCI_Variant value maharajah\n") ==
            std::vector<std::string>{"info string variant maharajah"});
    REQUIRE(s.run("setoption name UCI_Variant value shogi\n").front().rfind("info string error: ", 0) == 0);
    REQUIRE(s.run("setoption name Bogus value 1\n") ==
            std::vector<std::string>{"info string error: setoption: unknown option 'Bogus'"});
}

TEST_CASE("the variants.ini names decide which sides play variant rules in a 6-field FEN", "[uci][variants]") {
    Session s;
    // Black has lost its compound pieces: by the board alone it would be classic.
    const std::string pos = "position fen 4k3/pppp4/8/8/8/8/PPPP4/M3K3 b - - 0 1\nrules\n";
    REQUIRE(s.run(pos)[1].rfind("rules black classic", 0) == 0);
    REQUIRE(s.run("setoption name UCI_Variant value maharajah39\n" + pos)[2].rfind("rules black variant", 0) == 0);
    auto lines = s.run("setoption name UCI_Variant value maharajah39-vc\n" + pos);
    REQUIRE(lines[1].rfind("rules white variant", 0) == 0);
    REQUIRE(lines[2].rfind("rules black classic", 0) == 0);
    lines = s.run("setoption name UCI_Variant value maharajah39-cv\n" + pos);
    REQUIRE(lines[1].rfind("rules white classic", 0) == 0);
    REQUIRE(lines[2].rfind("rules black variant", 0) == 0);
    // A FEN with its own field 7 keeps it.
    lines = s.run("position fen 4k3/pppp4/8/8/8/8/PPPP4/M3K3 b - - 0 1 Vv\nrules\n");
    REQUIRE(lines[0].rfind("rules white variant", 0) == 0);
    REQUIRE(lines[1].rfind("rules black variant", 0) == 0);
}

TEST_CASE("each game status has its own words and only the ends are over", "[referee]") {
    const std::vector<std::pair<GameStatus, std::string>> words = {
        {GameStatus::ONGOING, "ongoing"},
        {GameStatus::CLAIM_THREEFOLD, "ongoing claim threefold"},
        {GameStatus::CLAIM_FIFTY, "ongoing claim fifty"},
        {GameStatus::CHECKMATE, "checkmate"},
        {GameStatus::STALEMATE, "stalemate"},
        {GameStatus::DRAW_INSUFFICIENT, "draw insufficient"},
        {GameStatus::DRAW_FIVEFOLD, "draw fivefold"},
        {GameStatus::DRAW_SEVENTYFIVE, "draw seventyfive"}};
    for (const auto& [status, text] : words) {
        REQUIRE(status_name(status) == text);
        REQUIRE(is_over(status) == (text.rfind("ongoing", 0) != 0));
    }
}
