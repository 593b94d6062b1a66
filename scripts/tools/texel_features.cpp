// Texel-tuning data: replays games and prints, for each quiet position, what the
// piece-value fit in scripts/tuning/tune_piece_values.py needs. Input, one game per line:
//   <white score 1|0.5|0> <FEN or startpos> [moves m1 m2 ...]
// Output, one position per line (White's point of view):
//   <white score> <phase> <full evaluation> <count difference per type P N B R Q M A C>
// A position is quiet when the side to move is not in check, has no capture or
// promotion that wins material by SEE, and the game's next move is not a capture.
// Positions where one side has no pawns are left out (the evaluation scales those
// down, so they are not linear in the piece values). Run via scripts/tuning/tune_piece_values.py.

#include <deque>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "eval/evaluate.h"
#include "eval/weights.h"
#include "movegen/movegen.h"
#include "protocol/game.h"
#include "search/movepick.h"

using namespace maharajah;

namespace {

constexpr PieceType Types[] = {PAWN, KNIGHT, BISHOP, ROOK, QUEEN, MAHARAJA, ARCHBISHOP, CHANCELLOR};

bool quiet(const Position& pos) {
    if (pos.in_check()) return false;
    for (Move m : MoveList<LEGAL>(pos)) {
        bool capture = is_en_passant(m) || !pos.empty(to_sq(m));
        if ((capture || is_promotion(m)) && search::see_ge(pos, m, 1)) return false;
    }
    return true;
}

}  // namespace

int main(int argc, char* argv[]) {
    int first_ply = argc > 1 ? std::stoi(argv[1]) : 12;
    std::string line;
    int bad = 0;
    while (std::getline(std::cin, line)) {
        std::istringstream is(line);
        std::string result, word, fen;
        is >> result;
        while (is >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
        if (fen == "startpos") fen = StartFen;
        std::vector<std::string> moves;
        while (is >> word) moves.push_back(word);

        std::deque<StateInfo> states(1);
        Position pos;
        if (!pos.set(fen, states.back()).empty()) {
            ++bad;
            continue;
        }
        for (std::size_t ply = 0; ply < moves.size(); ++ply) {
            Move m = parse_uci_move(pos, moves[ply]);
            if (m == MOVE_NONE) {
                ++bad;
                break;
            }
            bool next_captures = is_en_passant(m) || !pos.empty(to_sq(m));
            if (int(ply) >= first_ply && !next_captures && pos.count(WHITE, PAWN) && pos.count(BLACK, PAWN) &&
                quiet(pos)) {
                int phase = 0;
                for (int pt = KNIGHT; pt < PIECE_TYPE_NB; ++pt)
                    phase += eval::PhaseWeight[pt] * popcount(pos.pieces(PieceType(pt)));
                Value v = eval::evaluate(pos, eval::Options{eval::Mode::CLASSICAL}) - eval::Tempo;
                if (pos.side_to_move() == BLACK) v = -v;
                std::cout << result << ' ' << std::min(phase, eval::PhaseFull) << ' ' << v;
                for (PieceType pt : Types) std::cout << ' ' << pos.count(WHITE, pt) - pos.count(BLACK, pt);
                std::cout << '\n';
            }
            states.emplace_back();
            pos.do_move(m, states.back());
        }
    }
    if (bad) std::cerr << "texel_features: " << bad << " game(s) with a bad FEN or move skipped\n";
}
