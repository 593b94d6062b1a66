#include "protocol/pgn.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <sstream>

#include "movegen/movegen.h"
#include "movegen/san.h"
#include "protocol/uci.h"

namespace maharajah {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// "12." before a White move, "12..." before a Black one.
std::string move_number(const Position& pos) {
    return std::to_string(pos.fullmove_number()) + (pos.side_to_move() == WHITE ? "." : "...");
}

std::string quote(const std::string& value) {
    std::string s = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\') s += '\\';
        s += c == '\n' || c == '\r' ? ' ' : c;
    }
    return s + '"';
}

bool is_result(const std::string& t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

}  // namespace

std::string line_to_san(const Position& start, const std::vector<std::string>& uci, std::vector<std::string>* san) {
    std::deque<StateInfo> states;
    Position pos = start;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < uci.size(); ++i) {
        Move m = parse_uci_move(pos, uci[i]);
        if (m == MOVE_NONE)
            return "illegal move '" + clip(uci[i]) + "' (move " + std::to_string(i + 1) + " of the list) in " +
                   pos.fen();
        out.push_back(move_to_san(pos, m));
        pos.do_move(m, states.emplace_back());
    }
    *san = std::move(out);
    return {};
}

std::string line_from_san(const Position& start, const std::vector<std::string>& san, std::vector<std::string>* uci) {
    std::deque<StateInfo> states;
    Position pos = start;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < san.size(); ++i) {
        std::string why;
        Move m = parse_san(pos, san[i], &why);
        if (m == MOVE_NONE)
            return "'" + clip(san[i]) + "' (move " + std::to_string(i + 1) + " of the list): " + why + " in " +
                   pos.fen();
        out.push_back(move_to_uci(pos, m));
        pos.do_move(m, states.emplace_back());
    }
    *uci = std::move(out);
    return {};
}

std::string pgn_variant(const Game& game) {
    const Position& pos = game.position();
    // Chess960 first: its castling cannot be read back without the tag, while the sides'
    // rules stay in the FEN tag, which keeps all its fields under this name.
    if (pos.chess960()) return "Chess960";
    const bool w = pos.rules(WHITE).variant, b = pos.rules(BLACK).variant;
    if (w && b) return "maharajah39";
    if (b) return "maharajah39-cv";
    if (w) return "maharajah39-vc";
    return "";
}

PgnOutcome outcome_of(const Game& game) {
    const bool white_to_move = game.position().side_to_move() == WHITE;
    switch (game.status()) {
        case GameStatus::CHECKMATE:
            return {white_to_move ? "0-1" : "1-0", "checkmate"};
        case GameStatus::STALEMATE:
            return {"1/2-1/2", "stalemate"};
        case GameStatus::DRAW_INSUFFICIENT:
            return {"1/2-1/2", "insufficient material"};
        case GameStatus::DRAW_FIVEFOLD:
            return {"1/2-1/2", "fivefold repetition"};
        case GameStatus::DRAW_SEVENTYFIVE:
            return {"1/2-1/2", "seventy-five-move rule"};
        default:
            return {};
    }
}

PgnOutcome outcome_of_flag(const std::string& flag_result) {
    if (flag_result == "aborted") return {"*", "abandoned"};
    return {flag_result.substr(0, flag_result.find(' ')), "time forfeit"};
}

std::string write_pgn(const Game& game, const PgnOutcome& outcome,
                      const std::vector<std::pair<std::string, std::string>>& extra) {
    std::vector<std::pair<std::string, std::string>> tags = {
        {"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"},    {"Round", "?"},
        {"White", "?"}, {"Black", "?"}, {"Result", outcome.result}};
    for (const auto& tag : extra) {
        const std::string& name = tag.first;
        // The game decides these; the caller names the players, event, date...
        if (name == "Result" || name == "Variant" || name == "SetUp" || name == "FEN" || name == "Termination")
            continue;
        auto it = std::find_if(tags.begin(), tags.end(), [&](const auto& t) { return t.first == name; });
        if (it != tags.end())
            it->second = tag.second;
        else
            tags.push_back(tag);
    }
    const std::string variant = pgn_variant(game);
    if (!variant.empty()) tags.emplace_back("Variant", variant);
    if (game.start_fen() != StartFen || game.chess960()) {
        // A 6-field FEN when the Variant tag already implies the rest (an army start:
        // the sides' rules from the name, every pawn unmoved), as variant tools read it.
        std::string fen = game.start_fen();
        std::istringstream fields(fen);
        std::string six, f;
        for (int i = 0; i < 6 && fields >> f; ++i) six += (i ? " " : "") + f;
        if (six != fen && !variant.empty() && variant != "Chess960") {
            Game probe;
            std::istringstream is("fen " + six);
            if (parse_position(is, probe, game.chess960(), variant).empty() && probe.start_fen() == fen) fen = six;
        }
        tags.emplace_back("SetUp", "1");
        tags.emplace_back("FEN", fen);
    }
    tags.emplace_back("Termination", outcome.termination);

    std::string text;
    for (const auto& [name, value] : tags) text += "[" + name + " " + quote(value) + "]\n";
    text += '\n';

    // The moves, replayed from the start to write each in its position.
    Game replay;
    std::string err = replay.set(game.start_fen(), {}, game.chess960());
    (void)err;  // the game's own start always reads back
    std::string line;
    auto emit = [&](const std::string& word) {
        if (!line.empty() && line.size() + 1 + word.size() > 79) {
            text += line + '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    };
    for (std::size_t i = 0; i < game.moves().size(); ++i) {
        const Position& pos = replay.position();
        const Move m = game.moves()[i];
        // "12." before White's moves, "12..." before a first move by Black.
        if (pos.side_to_move() == WHITE || i == 0) emit(move_number(pos));
        emit(move_to_san(pos, m));
        replay.play(m);
    }
    emit(outcome.result);
    return text + line + '\n';
}

std::string position_text(const Game& game) {
    std::string s = std::string(game.chess960() ? "chess960 " : "") + "fen " + game.start_fen();
    if (game.moves().empty()) return s;
    // The UCI words of the moves, replayed from the start in the game's mode.
    Game replay;
    std::string err = replay.set(game.start_fen(), {}, game.chess960());
    (void)err;  // the game's own start always reads back
    s += " moves";
    for (Move m : game.moves()) {
        s += ' ' + move_to_uci(replay.position(), m);
        replay.play(m);
    }
    return s;
}

std::string read_pgn(const std::string& text, Game* game, PgnGame* info) {
    PgnGame parsed;
    std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0, line_no = 1;  // a UTF-8 byte order mark
    const std::size_t n = text.size();
    auto at_line_start = [&] { return i == 0 || text[i - 1] == '\n'; };
    auto skip_line = [&] {
        while (i < n && text[i] != '\n') ++i;
    };
    auto skip_space = [&] {
        while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) {
            if (text[i] == '\n') ++line_no;
            ++i;
        }
    };
    auto where = [&] { return "line " + std::to_string(line_no); };

    // Tag pairs: [Name "value"].
    for (;;) {
        skip_space();
        if (i < n && text[i] == '%' && at_line_start()) {
            skip_line();
            continue;
        }
        if (i < n && text[i] == ';') {
            skip_line();
            continue;
        }
        if (i >= n || text[i] != '[') break;
        ++i;
        std::string name;
        while (i < n && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) name += text[i++];
        while (i < n && (text[i] == ' ' || text[i] == '\t')) ++i;
        if (name.empty() || i >= n || text[i] != '"') return "pgn: bad tag pair at " + where();
        ++i;
        std::string value;
        while (i < n && text[i] != '"' && text[i] != '\n') {
            if (text[i] == '\\' && i + 1 < n) ++i;
            value += text[i++];
        }
        if (i >= n || text[i] != '"') return "pgn: unterminated tag value at " + where();
        ++i;
        while (i < n && (text[i] == ' ' || text[i] == '\t')) ++i;
        if (i >= n || text[i] != ']') return "pgn: bad tag pair at " + where();
        ++i;
        parsed.tags.emplace_back(name, value);
    }
    auto tag = [&](const std::string& name) -> std::string {
        for (const auto& [k, v] : parsed.tags)
            if (lower(k) == lower(name)) return v;
        return {};
    };

    // The start: the FEN tag (or the standard position) in the Variant tag's rules.
    const std::string variant_tag = lower(tag("Variant"));
    bool chess960 = false;
    std::string uci_variant = "chess";
    if (variant_tag == "chess960" || variant_tag == "fischerandom" || variant_tag == "fischer random" ||
        variant_tag == "chess 960")
        chess960 = true;
    else if (variant_sides(variant_tag))
        uci_variant = variant_tag;
    else if (!variant_tag.empty() && variant_tag != "standard" && variant_tag != "chess" &&
             variant_tag != "maharajah" &&
             variant_tag != "from position")  // lichess: standard chess from a set-up position
        return "pgn: unsupported variant '" + clip(tag("Variant")) + "'";
    Game local;
    const std::string fen = tag("FEN");
    std::istringstream start(fen.empty() ? std::string("startpos") : "fen " + fen);
    if (std::string err = parse_position(start, local, chess960, uci_variant); !err.empty())
        return "pgn: FEN tag: " + err;

    // Movetext up to the result token (or the next game's tags, or the end).
    int depth = 0;
    bool ended = false;  // a result token closed the movetext
    while (i < n) {
        skip_space();
        if (i >= n) break;
        const char c = text[i];
        if (c == '%' && at_line_start()) {
            skip_line();
        } else if (c == '{') {
            const std::size_t close = text.find('}', i);
            if (close == std::string::npos) return "pgn: unterminated comment at " + where();
            line_no += std::size_t(std::count(text.begin() + long(i), text.begin() + long(close), '\n'));
            i = close + 1;
        } else if (c == ';') {
            skip_line();
        } else if (c == '(') {
            ++depth, ++i;
        } else if (c == ')') {
            if (depth == 0) return "pgn: ')' without '(' at " + where();
            --depth, ++i;
        } else if (c == '[' && depth == 0) {
            break;  // the next game's tags
        } else {
            std::string token;
            while (i < n && !std::isspace(static_cast<unsigned char>(text[i])) &&
                   std::string_view("{}();[").find(text[i]) == std::string_view::npos)
                token += text[i++];
            if (token.empty()) return "pgn: unexpected '" + std::string(1, c) + "' at " + where();
            if (depth > 0 || token[0] == '$') continue;
            if (is_result(token)) {
                parsed.result = token;
                ended = true;
                break;
            }
            // A move number, alone or glued to its move ("12.", "12...", "12.Nf3").
            std::size_t k = 0;
            while (k < token.size() && std::isdigit(static_cast<unsigned char>(token[k]))) ++k;
            if (k > 0 && k < token.size() && token[k] == '.') {
                while (k < token.size() && token[k] == '.') ++k;
                token.erase(0, k);
            } else if (k == token.size()) {
                return "pgn: unexpected number '" + clip(token) + "' at " + where();
            }
            // Annotation glyphs, and an "e.p." written apart from its move.
            if (token.empty() || token.find_first_not_of("!?") == std::string::npos || token == "e.p.") continue;
            const Position& pos = local.position();
            std::string why;
            Move m = parse_san(pos, token, &why);
            if (m == MOVE_NONE)
                return "pgn: move " + move_number(pos) + " '" + clip(token) + "': " + why + " (" + where() + ")";
            local.play(m);
        }
    }
    if (depth > 0) return "pgn: unclosed variation";
    // An empty text (or one of comments only) holds no game: refused, not a start position.
    if (parsed.tags.empty() && local.moves().empty() && parsed.result == "*" && !ended)
        return "pgn: no game in the text";
    *game = std::move(local);
    if (info) *info = std::move(parsed);
    return {};
}

}  // namespace maharajah
