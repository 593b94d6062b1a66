#include "protocol/uci.h"

#include <chrono>
#include <iostream>
#include <sstream>
#include <vector>

#include "movegen/perft.h"

namespace maharajah {

Uci::Uci(std::ostream& out) : out_(out) { Position::init(); }

void Uci::error(const std::string& message) {
    failed_ = true;
    out_ << "info string error: " << message << std::endl;
}

void Uci::loop(std::istream& in) {
    for (std::string line; std::getline(in, line);)
        if (!execute(line)) return;
}

bool Uci::execute(const std::string& line) {
    failed_ = false;
    std::istringstream is(line);
    std::string cmd;
    if (!(is >> cmd)) return true;  // blank line

    if (cmd == "quit") return false;
    if (cmd == "uci")
        out_ << "id name " << EngineName << ' ' << EngineVersion << "\nid author " << EngineAuthor
             << "\noption name UCI_Variant type combo default chess var chess var maharajah\nuciok" << std::endl;
    else if (cmd == "isready") out_ << "readyok" << std::endl;
    else if (cmd == "setoption") cmd_setoption(is);
    else if (cmd == "position") cmd_position(is);
    else if (cmd == "go") cmd_go(is);
    else if (cmd == "d") cmd_display();
    else if (cmd == "army") cmd_army(is);
    else if (cmd == "moves") cmd_moves(is);
    else if (cmd == "legalmoves") cmd_legalmoves();
    else if (cmd == "rules") cmd_rules();
    else if (cmd == "fen" || cmd == "getfen") out_ << "fen " << game_.position().fen() << std::endl;
    else if (cmd == "status") out_ << "status " << game_.status() << std::endl;
    else if (cmd == "flag") cmd_flag(is);
    else error("unknown command '" + cmd + "'");
    return true;
}

void Uci::cmd_position(std::istringstream& is) {
    std::string token, fen;
    bool has_moves = false;
    is >> token;
    if (token == "startpos") {
        fen = StartFen;
        if (is >> token) {
            if (token != "moves") {
                error("position: expected 'moves' after 'startpos', got '" + token + "'");
                return;
            }
            has_moves = true;
        }
    } else if (token == "fen") {
        while (is >> token && !(has_moves = token == "moves")) fen += (fen.empty() ? "" : " ") + token;
    } else if (token == "army") {
        std::string white, black;
        if (!(is >> white >> black)) {
            error("position army: expected <white-army> <black-army> [moves ...]");
            return;
        }
        if (is >> token && !(has_moves = token == "moves")) {
            error("position army: expected 'moves' after the armies, got '" + token + "'");
            return;
        }
        std::vector<std::string> moves;
        while (has_moves && is >> token) moves.push_back(token);
        std::string err = game_.set_armies(white, black, moves);
        if (!err.empty()) error("position army: " + err);
        return;
    } else {
        error("position: expected 'startpos', 'fen' or 'army', got '" + token + "'");
        return;
    }
    std::vector<std::string> moves;
    while (has_moves && is >> token) moves.push_back(token);
    std::string err = game_.set(fen, moves);
    if (!err.empty()) error("position: " + err);
}

void Uci::cmd_go(std::istringstream& is) {
    std::string token;
    is >> token;
    if (token == "perft") {
        int depth = 0;
        if (!(is >> depth) || depth < 1 || depth > 20) {
            error("go perft: expected a depth from 1 to 20");
            return;
        }
        print_perft(game_.position(), depth, out_);
        return;
    }
    error("go: searching is not implemented yet; only 'go perft <depth>' is available");
}

void print_perft(Position pos, int depth, std::ostream& out) {
    auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (auto [m, n] : perft_divide(pos, depth)) {
        out << move_to_uci(m) << ": " << n << '\n';
        total += n;
    }
    out << "\nNodes searched: " << total << "\n" << std::endl;
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "perft " << depth << ": " << total << " nodes in " << std::int64_t(ms) << " ms ("
              << std::int64_t(ms > 0 ? double(total) / ms * 1000 : 0) << " nodes/s)" << std::endl;
}

void Uci::cmd_setoption(std::istringstream& is) {
    // setoption name <id with spaces> [value <x with spaces>]
    std::string token, name, value;
    is >> token;
    if (token != "name") {
        error("setoption: expected 'name'");
        return;
    }
    while (is >> token && token != "value") name += (name.empty() ? "" : " ") + token;
    while (is >> token) value += (value.empty() ? "" : " ") + token;
    if (name == "UCI_Variant") {
        if (value != "chess" && value != "maharajah") {
            error("setoption: UCI_Variant must be chess or maharajah, got '" + value + "'");
            return;
        }
        variant_ = value;
        out_ << "info string variant " << variant_ << std::endl;
        return;
    }
    error("setoption: unknown option '" + name + "'");
}

int run_command_line(Uci& uci, const std::string& command, const std::string& args, std::ostream& err) {
    if (command == "perft") {
        std::istringstream is(args);
        int depth = 0;
        std::string fen, word;
        if (!(is >> depth) || depth < 1 || depth > 20) {
            err << "error: usage: maharajah perft <depth 1-20> [<fen>]" << std::endl;
            return 1;
        }
        while (is >> word) fen += (fen.empty() ? "" : " ") + word;
        Game game;
        std::string problem = game.set(fen.empty() ? StartFen : fen, {});
        if (!problem.empty()) {
            err << "error: perft: " << problem << std::endl;
            return 1;
        }
        print_perft(game.position(), depth, uci.output());
        return 0;
    }
    uci.execute(args.empty() ? command : command + " " + args);
    return uci.last_failed() ? 1 : 0;
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
    os << "Status: " << game_.status();
    out_ << os.str() << std::endl;
}

}  // namespace maharajah
