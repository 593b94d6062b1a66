#pragma once
// The UCI loop over an input and an output stream (tests drive it with string
// streams). Every line written is flushed under a lock (the search reports from its
// own thread); only protocol text goes to `out`.

#include <functional>
#include <iosfwd>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/game.h"
#include "protocol/version.h"
#include "search/search.h"

namespace maharajah {

// A UCI option, declared once: `uci` lists it and `setoption` checks and applies values
// through it.
struct UciOption {
    enum Type { SPIN, CHECK, COMBO, STRING, BUTTON };
    // Applies a value `setoption` has checked: `text` as given, `number` a spin's value or
    // a check's 1 (true) or 0. Returns an empty string or the error (after "setoption: ").
    using Apply = std::function<std::string(const std::string& text, long long number)>;

    std::string name;
    Type type;
    std::string default_value;      // as `uci` lists it; empty for a button
    long long min = 0, max = 0;     // a spin's range
    std::vector<std::string> vars;  // a combo's values
    bool developer = false;         // listed only when developer options are shown
    Apply apply;
    // A combo's test of a value; none: exactly one of `vars`.
    std::function<bool(const std::string&)> accepts = nullptr;
};

// The `option name ... type ...` line of `uci` for an option.
std::string option_line(const UciOption& o);

class Uci {
public:
    explicit Uci(std::ostream& out);
    ~Uci();

    // Executes one command line. Returns false when the command was `quit`.
    bool execute(const std::string& line);
    // Reads and executes lines until `quit` or end of input. End of input is `quit`: a
    // search still running stops at once and prints its bestmove.
    void loop(std::istream& in);
    // Executes the lines of a script (tests, the command line), then lets a finite
    // search run to its end; an infinite or ponder search is stopped.
    void run_script(std::istream& in);
    // Waits until a running search has printed its bestmove (stopping it first when it
    // is infinite or pondering).
    void wait_for_search();

    // Whether `uci` lists the developer option Ablate; it can be set
    // either way. Default: the environment variable MAHARAJAH_DEV_OPTIONS=1.
    void show_dev_options(bool on) { show_dev_options_ = on; }

    // The search's yield hook (search::Engine::set_yield_hook); single-threaded builds
    // need it to see "stop". It waits for a running search first.
    void set_yield_hook(std::function<void()> hook, int interval_ms) {
        finish_search();
        engine_.set_yield_hook(std::move(hook), interval_ms);
    }

    // True when the last command reported an error (used for command-line exit codes).
    bool last_failed() const { return failed_; }
    // The message of the last `info string error: ...` line (without that prefix).
    const std::string& last_error() const { return last_error_; }
    // Holds the output lock: a reader of the stream (a test) sees whole lines and no
    // half-written buffer while a search thread prints.
    std::unique_lock<std::mutex> lock_output() { return std::unique_lock<std::mutex>(out_mutex_); }
    const Game& game() const { return game_; }
    std::ostream& output() { return out_; }
    // Writes one or more complete lines and flushes.
    void send(const std::string& text);

private:
    // The option table (uci_options.cpp).
    void declare_options();
    void cmd_uci();
    void cmd_setoption(std::istringstream& is);
    void cmd_position(std::istringstream& is);
    void cmd_go(std::istringstream& is);
    void cmd_display();
    void cmd_eval();
    void cmd_bench(std::istringstream& is);
    // Referee and army commands (uci_referee.cpp).
    void cmd_army(std::istringstream& is);
    void cmd_moves(std::istringstream& is);
    void cmd_legalmoves();
    void cmd_rules();
    void cmd_flag(std::istringstream& is);
    // Notation commands (uci_notation.cpp).
    void cmd_tosan(std::istringstream& is);
    void cmd_fromsan(std::istringstream& is);
    void cmd_movelist();
    void cmd_pgn(std::istringstream& is);
    void cmd_position_pgn(std::istringstream& is);
    void error(const std::string& message);
    // Stops a running search and waits for its bestmove (before changing state).
    void finish_search();

    std::ostream& out_;
    std::mutex out_mutex_;
    Game game_;
    bool failed_ = false;
    std::string last_error_;
    std::string variant_ = "chess";  // UCI_Variant (the maharajah39 names set FEN field 7)
    search::Engine engine_;
    search::Settings settings_;            // settings_.eval.net: this engine's own net (EvalFile)
    std::string net_name_ = "<built-in>";  // nnue::BuiltinName or the EvalFile path
    bool show_wdl_ = false;
    bool chess960_ = false;
    // Playing levels: UCI_LimitStrength with UCI_Elo wins; else Skill Level below 20.
    bool limit_strength_ = false;
    int uci_elo_ = search::SkillMaxElo, skill_level_ = 20;
    std::uint64_t skill_seed_ = 0;    // UCI_Chess960: FEN castling fields and castling moves of Chess960
    bool infinite_search_ = false;    // the running search waits for stop/ponderhit
    bool show_dev_options_ = false;   // `uci` lists Ablate (MAHARAJAH_DEV_OPTIONS=1)
    std::vector<UciOption> options_;  // in the order `uci` lists them
};

// Unties cin and cerr from cout: reading a line or writing to cerr would otherwise
// flush cout outside the output lock while a search thread writes info lines under it.
void untie_standard_streams();

// Runs the command given on the engine's command line (args[0] the command, e.g.
// {"perft", "6", "<fen>"}, {"bench"}, {"go", "depth", "12"}), waiting for a search it
// starts. Returns the process exit code; usage errors go to `err` as one line.
int run_command_line(Uci& uci, const std::vector<std::string>& args, std::ostream& err);

// Prints perft in Stockfish's format: "move: count" per root move, a blank line,
// "Nodes searched: N". The time taken goes to stderr.
void print_perft(Position pos, int depth, std::ostream& out);

// Text of the per-side rules line ("rules white classic castling KQ ...").
std::string rules_line(const Position& pos, Color c);

// Sets `game` from the words of a `position` command after the word "position"
// ("startpos [moves ...]", "fen <fen> [moves ...]", "army <white> <black> [moves ...]",
// each optionally after the word "chess960", which reads it in Chess960 mode).
// Returns an empty string, or the error message (game unchanged).
std::string parse_position(std::istream& is, Game& game, bool chess960 = false, const std::string& variant = "chess");

// The legal moves in UCI notation, sorted; only those from `only` unless SQ_NONE.
std::vector<std::string> sorted_moves(const Position& pos, Square only);
// "e4" -> the square; false for anything else.
bool parse_square(const std::string& word, Square& s);

// FEN field 7 (which sides play variant rules) that a UCI_Variant name of
// scripts/variants/variants.ini implies: "Vv", "v", "V"; null for other names.
const char* variant_sides(const std::string& variant);

// "cp 23", "mate 3", "mate -2": the UCI score of a search value.
std::string uci_score(Value v);

}  // namespace maharajah
