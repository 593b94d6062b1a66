// The notation commands of the UCI loop (README.md, "Notation commands"): SAN lines,
// the move list with per-move facts, PGN export and import.

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include "movegen/movegen.h"
#include "movegen/san.h"
#include "protocol/pgn.h"
#include "protocol/uci.h"

namespace maharajah {

namespace {

std::vector<std::string> words(std::istream& is) {
    std::vector<std::string> v;
    for (std::string w; is >> w;) v.push_back(w);
    return v;
}

std::string join(const std::string& head, const std::vector<std::string>& v) {
    std::string s = head;
    for (const std::string& w : v) s += ' ' + w;
    return s;
}

// The largest PGN file `position pgn` reads (a game is a few kilobytes).
constexpr std::streamsize MaxPgnBytes = 16 << 20;

}  // namespace

std::string movelist_line(const Position& pos, Move m) {
    const MoveFacts f = move_facts(pos, m);
    std::string s = move_to_uci(pos, m) + ' ' + move_to_san(pos, m);
    if (f.capture) s += " capture";
    if (f.en_passant) s += " enpassant";
    if (f.castling) s += " castle " + square_name(f.rook_from) + square_name(f.rook_to);
    if (f.promotion) s += " promotion";
    if (f.check) s += " check";
    if (f.mate) s += " mate";
    return s;
}

void Uci::cmd_tosan(std::istringstream& is) {
    std::vector<std::string> san;
    if (std::string err = line_to_san(game_.position(), words(is), &san); !err.empty())
        error("tosan: " + err);
    else
        send(join("san", san));
}

void Uci::cmd_fromsan(std::istringstream& is) {
    std::vector<std::string> uci;
    if (std::string err = line_from_san(game_.position(), words(is), &uci); !err.empty())
        error("fromsan: " + err);
    else
        send(join("line", uci));
}

void Uci::cmd_movelist() {
    const Position& pos = game_.position();
    std::vector<std::pair<std::string, std::string>> lines;  // sorted by the UCI move
    for (Move m : MoveList<LEGAL>(pos)) lines.emplace_back(move_to_uci(pos, m), movelist_line(pos, m));
    std::sort(lines.begin(), lines.end());
    std::string text;
    for (const auto& l : lines) text += l.second + '\n';
    send(text + "endmoves");
}

void Uci::cmd_pgn(std::istringstream& is) {
    // pgn [flag <white|black>]: the game, ended by a flag fall when one is named.
    std::vector<std::string> w = words(is);
    PgnOutcome outcome = outcome_of(game_);
    if (!w.empty()) {
        if (w.size() != 2 || w[0] != "flag" || (w[1] != "white" && w[1] != "black")) {
            error("pgn: expected 'pgn' or 'pgn flag <white|black>'");
            return;
        }
        outcome = outcome_of_flag(game_.flag(w[1] == "white" ? WHITE : BLACK));
    }
    std::string text = write_pgn(game_, outcome);
    send(text + "endpgn");
}

void Uci::cmd_position_pgn(std::istringstream& is) {
    // The rest of the line is the file name (it may contain spaces).
    std::string path;
    std::getline(is >> std::ws, path);
    while (!path.empty() && (path.back() == ' ' || path.back() == '\r')) path.pop_back();
    if (path.empty()) {
        error("position pgn: expected a file name");
        return;
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        error("position pgn: cannot open '" + clip(path) + "'");
        return;
    }
    std::string text(std::size_t(MaxPgnBytes) + 1, '\0');
    file.read(text.data(), MaxPgnBytes + 1);
    text.resize(std::size_t(file.gcount()));
    if (std::streamsize(text.size()) > MaxPgnBytes) {
        error("position pgn: '" + clip(path) + "' is larger than 16 MB");
        return;
    }
    Game game;
    if (std::string err = read_pgn(text, &game); !err.empty()) {
        error("position pgn: " + clip(path) + ": " + err);
        return;
    }
    game_ = std::move(game);
}

}  // namespace maharajah
