// The referee and army commands of the UCI loop (docs/protocol.md, "Referee and army commands").

#include <algorithm>
#include <sstream>
#include <vector>

#include "board/army.h"
#include "core/number.h"
#include "movegen/movegen.h"
#include "protocol/uci.h"

namespace maharajah {

namespace {

bool parse_color(const std::string& word, Color& c) {
    if (word == "white")
        c = WHITE;
    else if (word == "black")
        c = BLACK;
    else
        return false;
    return true;
}

}  // namespace

std::vector<std::string> sorted_moves(const Position& pos, Square only) {
    std::vector<std::string> v;
    for (Move m : MoveList<LEGAL>(pos))
        if (only == SQ_NONE || from_sq(m) == only) v.push_back(move_to_uci(pos, m));
    std::sort(v.begin(), v.end());
    return v;
}

bool parse_square(const std::string& word, Square& s) {
    if (word.size() != 2 || word[0] < 'a' || word[0] > 'h' || word[1] < '1' || word[1] > '8') return false;
    s = make_square(File(word[0] - 'a'), Rank(word[1] - '1'));
    return true;
}

void Uci::cmd_army(std::istringstream& is) {
    std::string sub, color_word;
    is >> sub >> color_word;
    Color c;
    if (sub != "check" && sub != "suggest") {
        error("army: expected 'check' or 'suggest', got '" + clip(sub) + "'");
        return;
    }
    if (!parse_color(color_word, c)) {
        error("army " + sub + ": unknown colour '" + clip(color_word) + "' (use white or black)");
        return;
    }
    if (sub == "check") {
        std::string text, extra;
        if (!(is >> text) || (is >> extra)) {
            error("army check: expected one army, e.g. army check white RNBQKBNR/PPPPPPPP");
            return;
        }
        ArmyCheck r = check_army(c, text);
        if (r.ok())
            send("army ok points " + std::to_string(r.points) + " pieces " + std::to_string(r.pieces) + " rules " +
                 (r.variant ? "variant" : "classic"));
        else {
            failed_ = true;
            last_error_ = r.error;
            send("army error " + r.error);
        }
        return;
    }
    // army suggest <colour> [seed <n>]
    std::string word, extra;
    std::uint64_t seed = 0;
    if (is >> word) {
        // The seed is any 64-bit unsigned number (0 to 18446744073709551615).
        std::string number;
        bool ok = word == "seed" && (is >> number) && !(is >> extra);
        if (ok) ok = parse_number(number, std::uint64_t(0), ~std::uint64_t(0), seed).empty();
        if (!ok) {
            error("army suggest: expected 'army suggest <white|black> [seed <0-18446744073709551615>]'");
            return;
        }
    }
    send("army " + suggest_army(c, seed));
}

void Uci::cmd_moves(std::istringstream& is) {
    const Position& pos = game_.position();
    std::string word;
    Square only = SQ_NONE;
    if (is >> word) {
        if (!parse_square(word, only)) {
            error("moves: '" + clip(word) + "' is not a square");
            return;
        }
        if (pos.empty(only)) {
            error("moves: no piece on " + word);
            return;
        }
    }
    std::string line = "moves";
    for (const std::string& m : sorted_moves(pos, only)) line += ' ' + m;
    send(line);
}

void Uci::cmd_legalmoves() {
    std::string text;
    for (const std::string& m : sorted_moves(game_.position(), SQ_NONE)) text += m + '\n';
    send(text + "endmoves");
}

void Uci::cmd_rules() {
    const Position& pos = game_.position();
    send(rules_line(pos, WHITE) + '\n' + rules_line(pos, BLACK));
}

void Uci::cmd_flag(std::istringstream& is) {
    std::string word;
    Color c;
    if (!(is >> word) || !parse_color(word, c)) {
        error("flag: expected 'flag <white|black>'");
        return;
    }
    send("result " + game_.flag(c));
}

}  // namespace maharajah
