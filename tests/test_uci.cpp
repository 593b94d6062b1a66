// The UCI loop driven through string streams: command in, exact lines out.

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "protocol/uci.h"

using namespace maharajah;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> v;
    std::istringstream is(text);
    for (std::string l; std::getline(is, l);) v.push_back(l);
    return v;
}

// Runs the commands and returns what the engine wrote.
std::string run(Uci& uci, std::ostringstream& out, const std::string& commands) {
    out.str("");
    std::istringstream in(commands);
    uci.run_script(in);
    return out.str();
}

std::string fen_line(Uci& uci, std::ostringstream& out) {
    for (auto& l : lines_of(run(uci, out, "d\n")))
        if (l.rfind("Fen: ", 0) == 0) return l.substr(5);
    return "";
}

}  // namespace

TEST_CASE("uci, isready and quit", "[uci]") {
    std::ostringstream out;
    Uci uci(out);
    uci.show_dev_options(false);
    auto lines = lines_of(run(uci, out, "uci\nisready\nquit\nisready\n"));
    REQUIRE(lines.size() == 19);  // nothing after quit
    REQUIRE(lines[0] == std::string("id name Maharajah ") + engine_version());
    REQUIRE(lines[1].rfind("id author ", 0) == 0);
    for (int i = 2; i < 17; ++i) REQUIRE(lines[i].rfind("option name ", 0) == 0);
    auto count = [&](const char* option) {
        return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) {
            return l.rfind(std::string("option name ") + option + " type", 0) == 0;
        });
    };
    for (const char* option :
         {"Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash", "UCI_ShowWDL", "UCI_Chess960",
          "UCI_LimitStrength", "UCI_Elo", "Skill Level", "Skill Seed", "UCI_Variant", "EvalMode", "EvalFile"}) {
        INFO(option);
        REQUIRE(count(option) == 1);
    }
    REQUIRE(lines[17] == "uciok");
    REQUIRE(lines[18] == "readyok");
    // The developer option is listed only on request, and can be set either way.
    REQUIRE(count("Ablate") == 0);
    REQUIRE(run(uci, out, "setoption name Ablate value lmr\nsetoption name EvalMode value full\n").empty());
    uci.show_dev_options(true);
    lines = lines_of(run(uci, out, "uci\n"));
    REQUIRE(count("EvalMode") == 1);
    REQUIRE(count("Ablate") == 1);
}

TEST_CASE("the command line answers --version and --help and exits 0", "[uci]") {
    std::ostringstream out, err;
    Uci uci(out);
    REQUIRE(run_command_line(uci, {"--version"}, err) == 0);
    REQUIRE(out.str() == std::string("Maharajah ") + engine_version() + "\n");
    // The version is the project's, with the git commit when built from git.
    REQUIRE(std::string(engine_version()).rfind("0.", 0) == 0);
    out.str("");
    REQUIRE(run_command_line(uci, {"--help"}, err) == 0);
    REQUIRE(out.str().rfind("Usage: maharajah", 0) == 0);
    REQUIRE(err.str().empty());
}

TEST_CASE("position with moves and d show the new FEN and the rules", "[uci]") {
    std::ostringstream out;
    Uci uci(out);
    REQUIRE(run(uci, out, "position startpos moves e2e4 c7c5\n").empty());
    REQUIRE(fen_line(uci, out) == "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    REQUIRE(run(uci, out, "position fen 4k3/8/8/8/8/8/PP6/M3K3 w - - 0 1 moves a2a4\n").empty());
    std::string d = run(uci, out, "d\n");
    REQUIRE(d.find("Fen: 4k3/8/8/8/P7/8/1P6/M3K3 b - - 0 1 V b2") != std::string::npos);
    REQUIRE(d.find("rules white variant castling - promotions qrbnmac doublestep unmoved") != std::string::npos);
    REQUIRE(d.find("rules black classic castling - promotions qrbn doublestep rank2") != std::string::npos);
    REQUIRE(d.find(" | M |   |   |   | K |   |   |   | 1") != std::string::npos);
}

TEST_CASE("a bad position command prints one error line and keeps the position", "[uci][errors]") {
    std::ostringstream out;
    Uci uci(out);
    run(uci, out, "position startpos moves e2e4\n");
    const std::string before = fen_line(uci, out);
    const char* bad[] = {
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq\n",        // too few fields
        "position fen 4k3/8/8/8/8/8/8/4K2Z w - - 0 1\n",                            // unknown letter
        "position startpos moves e2e4 e7e5 e1e3\n",                                 // illegal third move
        "position startpos moves e2e4 e7e5 e4e5\n",                                 // blocked pawn
        "position startpos moves a7a5\n",                                           // wrong side
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 e7e8q\n",  // nonsense
        "position startpos e2e4\n",                                                 // missing 'moves'
        "position\n",
        "position somewhere\n",
    };
    for (const char* cmd : bad) {
        auto lines = lines_of(run(uci, out, cmd));
        INFO(cmd);
        REQUIRE(lines.size() == 1);
        REQUIRE(lines[0].rfind("info string error: ", 0) == 0);
        REQUIRE(fen_line(uci, out) == before);
    }
    auto lines = lines_of(run(uci, out, "position startpos moves e2e4 e7e5 e1e3\n"));
    REQUIRE(lines[0].find("illegal move 'e1e3' (move 3") != std::string::npos);
}

TEST_CASE("unknown commands get one error line and the loop goes on", "[uci][errors]") {
    std::ostringstream out;
    Uci uci(out);
    auto lines = lines_of(run(uci, out, "xyzzy 1 2\n\nisready\n"));
    REQUIRE(lines.size() == 2);
    REQUIRE(lines[0] == "info string error: unknown command 'xyzzy'");
    REQUIRE(lines[1] == "readyok");
}

TEST_CASE("go perft prints Stockfish's divide format", "[uci][perft]") {
    std::ostringstream out;
    Uci uci(out);
    auto lines = lines_of(run(uci, out, "position startpos\ngo perft 2\n"));
    REQUIRE(lines.size() == 20 + 3);
    REQUIRE(lines[0].find(": 20") != std::string::npos);
    REQUIRE(lines[20] == "");
    REQUIRE(lines[21] == "Nodes searched: 400");
    REQUIRE(lines[22] == "");
    lines = lines_of(run(uci, out, "go perft 0\n"));
    REQUIRE(lines.size() == 1);
    REQUIRE(lines[0].rfind("info string error: ", 0) == 0);
}

TEST_CASE("the perft command line checks its arguments", "[uci][perft][errors]") {
    std::ostringstream out, err;
    Uci uci(out);
    REQUIRE(run_command_line(uci, {"perft", "x"}, err) == 1);
    REQUIRE(run_command_line(uci, {"perft", "3", "not", "a", "fen", "at", "all"}, err) == 1);
    REQUIRE(run_command_line(uci, {"perft"}, err) == 1);
    // An empty FEN argument is an error, not the start position.
    REQUIRE(run_command_line(uci, {"perft", "1", ""}, err) == 1);
    REQUIRE(lines_of(err.str()).size() == 4);
    REQUIRE(out.str().empty());
    REQUIRE(run_command_line(uci, {"perft", "3", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"}, err) == 0);
    REQUIRE(out.str().find("Nodes searched: ") != std::string::npos);
    out.str("");
    REQUIRE(run_command_line(uci, {"perft", "2", "4k3/8/8/8/8/8/8/R3K3", "w", "Q", "-", "0", "1"}, err) == 0);
    REQUIRE(out.str().find("Nodes searched: ") != std::string::npos);
    // A move list after the FEN, as separate arguments or in one (perftree's way).
    out.str("");
    REQUIRE(run_command_line(uci, {"perft", "2", std::string(StartFen), "moves", "e2e4"}, err) == 0);
    REQUIRE(out.str().find("Nodes searched: 600\n") != std::string::npos);
    out.str("");
    REQUIRE(run_command_line(uci, {"perft", "1", std::string(StartFen), "moves", "e2e4 e7e5"}, err) == 0);
    REQUIRE(out.str().find("Nodes searched: 29\n") != std::string::npos);
    REQUIRE(run_command_line(uci, {"perft", "1", std::string(StartFen), "moves", "e2e5"}, err) == 1);
    REQUIRE(run_command_line(uci, {"frobnicate"}, err) == 1);
}

TEST_CASE("a search given on the command line runs to its end", "[uci][search]") {
    std::ostringstream out, err;
    Uci uci(out);
    REQUIRE(run_command_line(uci, {"go", "depth", "6"}, err) == 0);
    auto lines = lines_of(out.str());
    REQUIRE(lines.size() >= 2);
    REQUIRE(lines[lines.size() - 2].rfind("info depth 6 ", 0) == 0);
    REQUIRE(lines.back().rfind("bestmove ", 0) == 0);
}

TEST_CASE("eval prints the terms per side and the final evaluation", "[uci][eval]") {
    std::ostringstream out;
    Uci uci(out);
    // The default, auto: the network in standard chess (which net, then its value), the
    // hybrid (its two halves, then the hand-written evaluation's terms) where compound
    // pieces are on the board.
    auto lines = lines_of(run(uci, out, "position startpos\neval\n"));
    REQUIRE(lines.size() == 2);
    REQUIRE(lines[0].rfind("EvalMode auto: nnue, net <built-in> (hash ", 0) == 0);
    REQUIRE(lines[1].rfind("Final evaluation ", 0) == 0);
    lines = lines_of(run(uci, out, "position fen rnbakabr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKCBR w - - 0 1 Vv\neval\n"));
    REQUIRE(lines.size() == 18);
    REQUIRE(lines[0].rfind("EvalMode auto: hybrid (compound pieces on the board), the mean of net <built-in> ", 0) ==
            0);
    REQUIRE(lines[4].find("Material | ") != std::string::npos);
    lines = lines_of(run(uci, out, "setoption name EvalMode value classical\nposition startpos\neval\n"));
    REQUIRE(lines.size() == 17);
    REQUIRE(lines[3].find("Material | ") != std::string::npos);
    // The start position is symmetric: White's tempo is all that is left.
    REQUIRE(lines.back() == "Final evaluation +0.12 (white side)");
    lines = lines_of(run(uci, out, "position startpos moves e2e4\neval\n"));
    REQUIRE(lines.back().rfind("Final evaluation ", 0) == 0);
    lines = lines_of(run(uci, out, "setoption name EvalMode value material\neval\n"));
    REQUIRE(lines.back() == "Final evaluation +0.00 (white side)");
}
