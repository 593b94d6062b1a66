#include "protocol/uci.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <vector>

#include "core/number.h"
#include "eval/nnue.h"
#include "movegen/perft.h"
#include "search/params.h"

namespace maharajah {

Uci::Uci(std::ostream& out) : out_(out) {
    Position::init();
    const char* dev = std::getenv("MAHARAJAH_DEV_OPTIONS");
    show_dev_options_ = dev && std::string(dev) == "1";
    declare_options();
}

Uci::~Uci() { finish_search(); }

void Uci::send(const std::string& text) {
    std::lock_guard<std::mutex> lock(out_mutex_);
    out_ << text << std::endl;
}

void Uci::error(const std::string& message) {
    failed_ = true;
    // One line always: a message is cut if some part of it was not already.
    last_error_ = clip(message, 1000);
    send("info string error: " + last_error_);
}

void Uci::finish_search() {
    engine_.stop();
    engine_.wait();
}

void Uci::wait_for_search() {
    if (infinite_search_) engine_.stop();
    engine_.wait();
}

void Uci::loop(std::istream& in) {
    for (std::string line; std::getline(in, line);)
        if (!execute(line)) return;
    // End of input means quit: a running search stops at once and gives its bestmove.
    finish_search();
}

void Uci::run_script(std::istream& in) {
    for (std::string line; std::getline(in, line);)
        if (!execute(line)) return;
    wait_for_search();
}

// FEN field 7 for the variant names of scripts/variants/variants.ini; null otherwise.
const char* variant_sides(const std::string& variant) {
    return variant == "maharajah39"      ? "Vv"
           : variant == "maharajah39-cv" ? "v"
           : variant == "maharajah39-vc" ? "V"
                                         : nullptr;
}

bool Uci::execute(const std::string& line) {
    failed_ = false;
    std::istringstream is(line);
    std::string cmd;
    if (!(is >> cmd)) return true;  // blank line

    if (cmd == "quit") {
        finish_search();
        return false;
    }
    // Commands that do not touch the game may run while searching; the others first
    // stop the search (its bestmove is printed) so that nothing it reads changes.
    static const char* const Concurrent[] = {"isready", "stop",    "ponderhit",  "uci",     "d",      "eval", "fen",
                                             "getfen",  "moves",   "legalmoves", "rules",   "status", "flag", "army",
                                             "tosan",   "fromsan", "movelist",   "incheck", "pgn"};
    if (std::find(std::begin(Concurrent), std::end(Concurrent), cmd) == std::end(Concurrent)) finish_search();

    if (cmd == "uci")
        cmd_uci();
    else if (cmd == "isready")
        send("readyok");
    else if (cmd == "stop")
        engine_.stop();
    else if (cmd == "ponderhit")
        engine_.ponderhit();
    else if (cmd == "ucinewgame")
        engine_.clear();
    else if (cmd == "setoption")
        cmd_setoption(is);
    else if (cmd == "position")
        cmd_position(is);
    else if (cmd == "go")
        cmd_go(is);
    else if (cmd == "bench")
        cmd_bench(is);
    else if (cmd == "spsa") {
        std::string table = search::spsa_input();
        table.pop_back();  // send() ends the line
        send(table);
    } else if (cmd == "d")
        cmd_display();
    else if (cmd == "eval")
        cmd_eval();
    else if (cmd == "army")
        cmd_army(is);
    else if (cmd == "moves")
        cmd_moves(is);
    else if (cmd == "legalmoves")
        cmd_legalmoves();
    else if (cmd == "rules")
        cmd_rules();
    else if (cmd == "fen" || cmd == "getfen")
        send("fen " + game_.position().fen());
    else if (cmd == "status")
        send(std::string("status ") + status_name(game_.status()));
    else if (cmd == "flag")
        cmd_flag(is);
    else if (cmd == "tosan")
        cmd_tosan(is);
    else if (cmd == "fromsan")
        cmd_fromsan(is);
    else if (cmd == "movelist")
        cmd_movelist();
    else if (cmd == "incheck")
        send(std::string("incheck ") + (game_.position().in_check() ? "yes" : "no"));
    else if (cmd == "pgn")
        cmd_pgn(is);
    else
        error("unknown command '" + clip(cmd) + "'");
    return true;
}

void Uci::cmd_position(std::istringstream& is) {
    const std::streampos start = is.tellg();
    std::string word;
    if (is >> word && word == "pgn") {
        cmd_position_pgn(is);
        return;
    }
    is.clear();
    is.seekg(start);
    std::string err = parse_position(is, game_, chess960_, variant_);
    if (!err.empty()) error(err);
}

std::string parse_position(std::istream& is, Game& game, bool chess960, const std::string& variant) {
    std::string token, fen;
    bool has_moves = false;
    is >> token;
    // "chess960 fen ...": Chess960 castling whatever UCI_Chess960 says (the position
    // texts of the C library's direct calls and of PGN imports).
    if (token == "chess960") {
        chess960 = true;
        is >> token;
    }
    if (token == "startpos") {
        fen = StartFen;
        if (is >> token) {
            if (token != "moves") return "position: expected 'moves' after 'startpos', got '" + clip(token) + "'";
            has_moves = true;
        }
    } else if (token == "fen") {
        while (is >> token && !(has_moves = token == "moves")) fen += (fen.empty() ? "" : " ") + token;
    } else if (token == "army") {
        std::string white, black;
        if (!(is >> white >> black)) return "position army: expected <white-army> <black-army> [moves ...]";
        if (is >> token && !(has_moves = token == "moves"))
            return "position army: expected 'moves' after the armies, got '" + clip(token) + "'";
        std::vector<std::string> moves;
        while (has_moves && is >> token) moves.push_back(token);
        std::string err = game.set_armies(white, black, moves, chess960);
        return err.empty() ? err : "position army: " + err;
    } else {
        return "position: expected 'startpos', 'fen' or 'army', got '" + clip(token) + "'";
    }
    std::vector<std::string> moves;
    while (has_moves && is >> token) moves.push_back(token);
    // Under a variants.ini name (maharajah39...), a 6-field FEN's sides play the rules
    // the name says, not those its compound pieces suggest.
    if (const char* sides = variant_sides(variant)) {
        std::istringstream count(fen);
        int fields = 0;
        for (std::string w; count >> w;) ++fields;
        if (fields == 6) fen += std::string(" ") + sides;
    }
    std::string err = game.set(fen, moves, chess960);
    return err.empty() ? err : "position: " + err;
}

void print_perft(Position pos, int depth, std::ostream& out) {
    auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (auto [m, n] : perft_divide(pos, depth)) {
        out << move_to_uci(pos, m) << ": " << n << '\n';
        total += n;
    }
    out << "\nNodes searched: " << total << "\n" << std::endl;
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "perft " << depth << ": " << total << " nodes in " << std::int64_t(ms) << " ms ("
              << std::int64_t(ms > 0 ? double(total) / ms * 1000 : 0) << " nodes/s)" << std::endl;
}

void untie_standard_streams() {
    std::cin.tie(nullptr);
    std::cerr.tie(nullptr);
}

const char* const Usage =
    "Usage: maharajah                      the UCI loop on standard input and output\n"
    "       maharajah <uci command ...>    runs one command to its end, e.g. 'maharajah go depth 12',\n"
    "                                      'maharajah bench', 'maharajah army suggest white'\n"
    "       maharajah perft <depth> [<fen>] [moves <m1> <m2> ...]\n"
    "       maharajah spsa                 the search parameters in OpenBench's SPSA input format\n"
    "       maharajah --version | --help\n"
    "Set MAHARAJAH_DEV_OPTIONS=1 to list the developer option Ablate in 'uci'.";

int run_command_line(Uci& uci, const std::vector<std::string>& args, std::ostream& err) {
    if (args.empty()) return 0;
    if (args[0] == "--version" || args[0] == "-V") {
        uci.send(std::string(EngineName) + ' ' + engine_version());
        return 0;
    }
    if (args[0] == "--help" || args[0] == "-h") {
        uci.send(Usage);
        return 0;
    }
    if (args[0] == "perft") {
        // perft <depth> [<fen>]: the FEN may come as one argument or as its fields.
        int depth = 0;
        if (args.size() < 2 || !parse_number(args[1], 1, 20, depth).empty()) {
            err << "error: usage: maharajah perft <depth 1-20> [<fen>] [moves <m1> ...]" << std::endl;
            return 1;
        }
        // Then the FEN (one argument or its fields; none: the start position) and an
        // optional "moves m1 m2 ..." (each move its own argument, or all in one).
        std::string fen;
        std::vector<std::string> moves;
        bool in_moves = false, fen_given = false;
        for (std::size_t i = 2; i < args.size(); ++i) {
            if (args[i] == "moves" && !in_moves) {
                in_moves = true;
                continue;
            }
            if (in_moves) {
                std::istringstream list(args[i]);
                for (std::string m; list >> m;) moves.push_back(m);
            } else {
                fen += (fen_given ? " " : "") + args[i];
                fen_given = true;
            }
        }
        // A FEN only Chess960 can read (Shredder-FEN letters, a king off e1) is read so.
        Game game;
        std::string problem = game.set(fen_given ? fen : std::string(StartFen), moves);
        if (!problem.empty() && game.set(fen, moves, true).empty()) problem.clear();
        if (!problem.empty()) {
            err << "error: perft: " << clip(problem, 1000) << std::endl;
            return 1;
        }
        print_perft(game.position(), depth, uci.output());
        return 0;
    }
    // Any other UCI command, run to completion as if typed: a finite search prints its
    // info lines and its bestmove before the program exits.
    std::string line;
    for (const std::string& a : args) line += (line.empty() ? "" : " ") + a;
    uci.execute(line);
    const bool failed = uci.last_failed();
    uci.wait_for_search();
    return failed ? 1 : 0;
}

std::string rules_line(const Position& pos, Color c) {
    const SideRules& r = pos.rules(c);
    std::string s = std::string("rules ") + (c == WHITE ? "white " : "black ") + (r.variant ? "variant" : "classic");
    std::string castling;
    int oo = c == WHITE ? WHITE_OO : BLACK_OO, ooo = c == WHITE ? WHITE_OOO : BLACK_OOO;
    if (pos.can_castle(oo)) castling += c == WHITE ? 'K' : 'k';
    if (pos.can_castle(ooo)) castling += c == WHITE ? 'Q' : 'q';
    s += " castling " + (castling.empty() ? std::string("-") : castling) + " promotions ";
    for (const char* p = r.variant ? "qrbnmac" : "qrbn"; *p; ++p) s += *p;
    s += r.variant ? " doublestep unmoved" : " doublestep rank2";
    return s;
}

namespace {

// Centipawns as pawns with two decimals and a sign ("+0.25", "-1.07").
std::string pawns(int cp) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f", cp / 100.0);
    return buf;
}

std::string pad(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace

// The static evaluation split into its terms per side, Stockfish's `eval` layout (in
// pawns, White's point of view, middlegame and endgame parts), and the final value.
void Uci::cmd_eval() {
    const Position& pos = game_.position();
    eval::Trace trace;
    const eval::Mode mode = eval::resolve(settings_.eval.mode, pos);
    const Value v = eval::to_reported(eval::evaluate(pos, settings_.eval, &trace), mode);
    const Value white = pos.side_to_move() == WHITE ? v : -v;
    const bool is_auto = settings_.eval.mode == eval::Mode::AUTO;
    std::ostringstream os;
    if (mode == eval::Mode::CLASSICAL || mode == eval::Mode::HYBRID) {
        if (mode == eval::Mode::HYBRID) {
            // Both halves from White's point of view, the net's on the reported footing.
            const int sign = pos.side_to_move() == WHITE ? 1 : -1;
            const Value net = eval::to_reported(nnue::evaluate(pos, settings_.eval.network()), eval::Mode::NNUE);
            const Value classical = eval::evaluate(pos, eval::Options{eval::Mode::CLASSICAL});
            os << (is_auto ? "EvalMode auto: hybrid (compound pieces on the board)" : "EvalMode hybrid")
               << ", the mean of net " << net_name_ << " " << pawns(sign * net) << " and classical "
               << pawns(sign * classical) << "; the classical terms:\n";
        }
        const char* rule = " -------------+---------------+---------------+---------------\n";
        os << "         Term |     White     |     Black     |     Total\n"
           << "              |    MG     EG  |    MG     EG  |    MG     EG\n"
           << rule;
        eval::Score sum[COLOR_NB];
        auto row = [&](const std::string& name, eval::Score w, eval::Score b) {
            eval::Score t = w - b;
            os << pad(name, 13) << " | " << pad(pawns(w.mg), 6) << ' ' << pad(pawns(w.eg), 6) << " | "
               << pad(pawns(b.mg), 6) << ' ' << pad(pawns(b.eg), 6) << " | " << pad(pawns(t.mg), 6) << ' '
               << pad(pawns(t.eg), 6) << '\n';
        };
        for (int t = 0; t < eval::TERM_NB; ++t) {
            row(eval::TermName[t], trace.terms[WHITE][t], trace.terms[BLACK][t]);
            sum[WHITE] += trace.terms[WHITE][t];
            sum[BLACK] += trace.terms[BLACK][t];
        }
        os << rule;
        row("Total", sum[WHITE], sum[BLACK]);
        os << "\nPhase: " << trace.phase << " of " << eval::PhaseFull << " (middlegame share of the taper)\n"
           << "Tapered: " << pawns(trace.unscaled) << (trace.drawish ? ", divided by 8 (drawish material)" : "")
           << "; tempo " << pawns(trace.tempo) << " for the side to move\n";
    } else if (mode == eval::Mode::NNUE) {
        const int men = popcount(pos.pieces());
        os << (is_auto ? "EvalMode auto: nnue, net " : "EvalMode nnue: net ") << net_name_ << " (hash " << std::hex
           << settings_.eval.network().hash << std::dec << "), " << men << " men, output bucket "
           << nnue::bucket_of(men) << "\n";
    } else
        os << "EvalMode " << eval::mode_name(settings_.eval.mode) << "\n";
    os << "Final evaluation " << pawns(white) << " (white side)";
    send(os.str());
}

void Uci::cmd_display() {
    const Position& pos = game_.position();
    std::ostringstream os;
    const char* sep = " +---+---+---+---+---+---+---+---+\n";
    os << '\n' << sep;
    for (int r = RANK_8; r >= RANK_1; --r) {
        for (int f = FILE_A; f <= FILE_H; ++f) {
            Piece pc = pos.piece_on(make_square(File(f), Rank(r)));
            os << " | " << (pc ? piece_char(pc) : ' ');
        }
        os << " | " << (r + 1) << '\n' << sep;
    }
    os << "   a   b   c   d   e   f   g   h\n\n";
    os << "Fen: " << pos.fen() << '\n';
    os << "Key: " << std::hex << std::uppercase << pos.key() << std::dec << '\n';
    os << "Checkers:";
    for (Bitboard b = pos.checkers(); b;) os << ' ' << square_name(pop_lsb(b));
    os << '\n' << rules_line(pos, WHITE) << '\n' << rules_line(pos, BLACK) << '\n';
    for (Color c : {WHITE, BLACK}) {
        os << (c == WHITE ? "Unmoved pawns white:" : "Unmoved pawns black:");
        for (Bitboard b = pos.double_step_pawns() & pos.pieces(c); b;) os << ' ' << square_name(pop_lsb(b));
        os << '\n';
    }
    os << "Status: " << status_name(game_.status());
    send(os.str());
}

}  // namespace maharajah
