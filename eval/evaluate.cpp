#include "eval/evaluate.h"

#include <algorithm>
#include <cstdlib>

#include "eval/nnue.h"
#include "eval/weights.h"

namespace maharajah::eval {

using namespace attacks;

namespace {

constexpr Bitboard adjacent_files(File f) {
    return (f > FILE_A ? file_bb(File(f - 1)) : 0) | (f < FILE_H ? file_bb(File(f + 1)) : 0);
}

// Squares in front of s (from c's side) on its file and the two adjacent files.
Bitboard front_span(Color c, Square s) {
    Bitboard files = file_bb(file_of(s)) | adjacent_files(file_of(s));
    Bitboard ahead;
    if (c == WHITE)
        ahead = rank_of(s) == RANK_8 ? 0 : ~Bitboard(0) << 8 * (rank_of(s) + 1);
    else
        ahead = (Bitboard(1) << 8 * rank_of(s)) - 1;
    return files & ahead;
}

Bitboard forward_file(Color c, Square s) { return front_span(c, s) & file_bb(file_of(s)); }

int centre_steps(Square s) {
    int f = file_of(s), r = rank_of(s);
    return std::min(f, 7 - f) + std::min(r, 7 - r);  // 0 in a corner .. 6 in the centre
}

int distance(Square a, Square b) {
    return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

struct SideInfo {
    Bitboard pawn_attacks = 0;
    Bitboard king_zone = 0;
};

// A side's score with, when traced, its split into the named terms.
struct Acc {
    Score sum;
    Score* terms = nullptr;  // [TERM_NB] when tracing
    void add(Term t, Score s) {
        sum += s;
        if (terms) terms[t] += s;
    }
};

template <PieceType Pt>
void eval_pieces(const Position& pos, Color us, const SideInfo& mine, const SideInfo& theirs, Acc& score,
                 int& attack_weight, int& attackers, Bitboard& attacked) {
    const Bitboard occ = pos.pieces();
    const Bitboard own_pawns = pos.pieces(us, PAWN), their_pawns = pos.pieces(~us, PAWN);
    for (Bitboard b = pos.pieces(us, Pt); b;) {
        Square s = pop_lsb(b);
        score.add(MATERIAL, PieceValue[Pt]);
        score.add(PLACEMENT, Centralisation[Pt] * centre_steps(s) + Advancement[Pt] * int(relative_rank(us, s)));
        Bitboard att = attacks_bb<Pt>(s, occ);
        attacked |= att;
        int mob = popcount(att & ~pos.pieces(us) & ~theirs.pawn_attacks);
        score.add(MOBILITY, MobilityPerSquare[Pt] * (mob - MobilityBaseline[Pt]));
        if (att & theirs.king_zone) {
            ++attackers;
            attack_weight += KingAttackWeight[Pt];
        }
        if constexpr (has_part(Pt, ORTH_SLIDER)) {
            Bitboard file = file_bb(file_of(s));
            if (!(file & own_pawns)) score.add(ROOK_FILES, (file & their_pawns) ? RookHalfOpenFile : RookOpenFile);
            if (relative_rank(us, s) == RANK_7) score.add(ROOK_FILES, RookOnSeventh);
        }
        if constexpr (has_part(Pt, KNIGHT_LEAP)) score.add(IMBALANCE, LeaperPerPawn * (popcount(own_pawns) - 5));
        if constexpr (Pt == ROOK || Pt == CHANCELLOR)
            score.add(IMBALANCE, RookMoverPerPawn * (popcount(own_pawns) - 5));
        (void)mine;
    }
}

void eval_pawns(const Position& pos, Color us, Acc& score) {
    const Bitboard own = pos.pieces(us, PAWN), theirs = pos.pieces(~us, PAWN);
    const bool variant = pos.rules(us).variant;
    const Square our_king = pos.king_square(us), their_king = pos.king_square(~us);
    for (Bitboard b = own; b;) {
        Square s = pop_lsb(b);
        score.add(MATERIAL, PieceValue[PAWN]);
        File f = file_of(s);
        if (popcount(own & file_bb(f)) > 1 && (forward_file(us, s) & own)) score.add(PAWNS, Doubled);
        if (!(own & adjacent_files(f))) score.add(PAWNS, Isolated);
        if (!(front_span(us, s) & theirs) && !(forward_file(us, s) & own)) {
            Rank r = relative_rank(us, s);
            Score bonus = Passed[r];
            if (variant) bonus = {bonus.mg * VariantPassedPercent / 100, bonus.eg * VariantPassedPercent / 100};
            score.add(PAWNS, bonus);
            Square front = Square(s + pawn_push(us));
            if (r >= RANK_4 && pos.empty(front)) score.add(PAWNS, PassedFreePath);
            if (r >= RANK_4)
                score.add(PAWNS,
                          Score(0, PassedKingDistance * (distance(their_king, front) - distance(our_king, front)) *
                                       (int(r) - 2) / 2));
        }
    }
    score.add(PAWNS, DoubleStepRight * popcount(pos.double_step_pawns() & own));
}

void eval_king(const Position& pos, Color us, Acc& score) {
    const Square k = pos.king_square(us);
    const Bitboard own_pawns = pos.pieces(us, PAWN);
    Bitboard shield_files = file_bb(file_of(k)) | adjacent_files(file_of(k));
    // Count pawns one or two ranks ahead of the king on its file and the adjacent ones.
    int rank = rank_of(k);
    Bitboard near = 0;
    for (int d = 1; d <= 2; ++d) {
        int r = us == WHITE ? rank + d : rank - d;
        if (r >= 0 && r < 8) near |= rank_bb(Rank(r));
    }
    score.add(KING_SAFETY, PawnShield * popcount(own_pawns & shield_files & near));
    if (!(own_pawns & file_bb(file_of(k)))) score.add(KING_SAFETY, KingOpenFile);
    int oo = us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
    if (pos.castling_rights() & oo) score.add(KING_SAFETY, CastlingRight);
    score.add(KING_SAFETY, KingCentreEndgame * centre_steps(k));
}

template <Color Us>
Score eval_side(const Position& pos, const SideInfo (&info)[2], Value& danger_out, Score* terms) {
    constexpr Color Them = ~Us;
    Acc score{Score(), terms};
    int weight = 0, attackers = 0;
    Bitboard attacked = info[Us].pawn_attacks;
    eval_pieces<KNIGHT>(pos, Us, info[Us], info[Them], score, weight, attackers, attacked);
    eval_pieces<BISHOP>(pos, Us, info[Us], info[Them], score, weight, attackers, attacked);
    eval_pieces<ROOK>(pos, Us, info[Us], info[Them], score, weight, attackers, attacked);
    eval_pieces<QUEEN>(pos, Us, info[Us], info[Them], score, weight, attackers, attacked);
    eval_pieces<MAHARAJA>(pos, Us, info[Us], info[Them], score, weight, attackers, attacked);
    eval_pieces<ARCHBISHOP>(pos, Us, info[Us], info[Them], score, weight, attackers, attacked);
    eval_pieces<CHANCELLOR>(pos, Us, info[Us], info[Them], score, weight, attackers, attacked);
    if (pos.count(Us, BISHOP) >= 2) score.add(IMBALANCE, BishopPair);
    eval_pawns(pos, Us, score);
    eval_king(pos, Us, score);

    // Attack on the enemy king: zone attackers plus safe checking squares.
    const Square ksq = pos.king_square(Them);
    const Bitboard occ = pos.pieces();
    const Bitboard safe = ~pos.pieces(Us) & ~info[Them].pawn_attacks;
    int danger = attackers >= 2 ? weight * attackers / 2 : 0;
    Bitboard leapers = pos.pieces(Us) & pos.pieces_with<KNIGHT_LEAP>();
    Bitboard leaper_reach = 0;
    for (Bitboard b = leapers; b;) leaper_reach |= knight_attacks(pop_lsb(b));
    danger += SafeLeaperCheck * popcount(knight_attacks(ksq) & leaper_reach & safe);
    Bitboard slider_checks =
        ((rook_attacks(ksq, occ) & attacked) | (bishop_attacks(ksq, occ) & attacked)) & safe & ~knight_attacks(ksq);
    if (pos.pieces(Us) & (pos.pieces_with<ORTH_SLIDER>() | pos.pieces_with<DIAG_SLIDER>()))
        danger += SafeSliderCheck * std::min(popcount(slider_checks), 4);
    danger_out = danger;
    return score.sum;
}

int phase_of(const Position& pos) {
    int phase = 0;
    for (int pt = KNIGHT; pt < PIECE_TYPE_NB; ++pt) phase += PhaseWeight[pt] * popcount(pos.pieces(PieceType(pt)));
    return std::min(phase, PhaseFull);
}

Value taper(Score s, int phase) { return (s.mg * phase + s.eg * (PhaseFull - phase)) / PhaseFull; }

Value material_only(const Position& pos) {
    Score s;
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        s += PieceValue[pt] * (pos.count(WHITE, PieceType(pt)) - pos.count(BLACK, PieceType(pt)));
    Value v = taper(s, phase_of(pos));
    return pos.side_to_move() == WHITE ? v : -v;
}

}  // namespace

bool parse_mode(const std::string& name, Mode& out) {
    if (name == "auto")
        out = Mode::AUTO;
    else if (name == "nnue")
        out = Mode::NNUE;
    else if (name == "hybrid")
        out = Mode::HYBRID;
    else if (name == "classical" || name == "full")
        out = Mode::CLASSICAL;
    else if (name == "material")
        out = Mode::MATERIAL;
    else
        return false;
    return true;
}

const char* mode_name(Mode mode) {
    return mode == Mode::AUTO        ? "auto"
           : mode == Mode::NNUE      ? "nnue"
           : mode == Mode::CLASSICAL ? "classical"
           : mode == Mode::HYBRID    ? "hybrid"
                                     : "material";
}

Mode resolve(Mode mode, const Position& pos) {
    if (mode != Mode::AUTO) return mode;
    return pos.compounds() ? Mode::HYBRID : Mode::NNUE;
}

Value to_reported(Value v, Mode resolved) {
    if (resolved != Mode::NNUE || v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY) return v;
    return Value(v * NetReportNum / NetReportDen);
}

int non_pawn_material(const Position& pos, Color c) {
    int m = 0;
    for (int pt = KNIGHT; pt < PIECE_TYPE_NB; ++pt) m += PieceValue[pt].mg * pos.count(c, PieceType(pt));
    return m;
}

// The hand-written evaluation.
static Value classical(const Position& pos, Trace* trace) {
    SideInfo info[2];
    for (Color c : {WHITE, BLACK}) {
        Bitboard pawns = pos.pieces(c, PAWN);
        info[c].pawn_attacks = c == WHITE ? pawn_attacks_bb<WHITE>(pawns) : pawn_attacks_bb<BLACK>(pawns);
        Square k = pos.king_square(c);
        info[c].king_zone = king_attacks(k) | square_bb(k);
    }
    Value danger[2] = {0, 0};  // danger[c]: how hard c attacks the enemy king
    Score s = eval_side<WHITE>(pos, info, danger[WHITE], trace ? trace->terms[WHITE] : nullptr) -
              eval_side<BLACK>(pos, info, danger[BLACK], trace ? trace->terms[BLACK] : nullptr);
    const Score attack[2] = {Score(std::min(danger[WHITE] * danger[WHITE] / KingDangerDivisor, 900), 0),
                             Score(std::min(danger[BLACK] * danger[BLACK] / KingDangerDivisor, 900), 0)};
    s += attack[WHITE] - attack[BLACK];

    int phase = phase_of(pos);
    Value v = taper(s, phase);

    // Drawish material: the stronger side without pawns and at most a minor piece up
    // can rarely win, so its advantage shrinks.
    Color strong = v > 0 ? WHITE : BLACK;
    const bool drawish = !pos.pieces(strong, PAWN) &&
                         non_pawn_material(pos, strong) - non_pawn_material(pos, ~strong) <= PieceValue[BISHOP].mg;
    if (trace) {
        for (Color c : {WHITE, BLACK}) trace->terms[c][KING_ATTACK] = attack[c];
        trace->phase = phase;
        trace->unscaled = v;
        trace->drawish = drawish;
        trace->tempo = Tempo;
    }
    if (drawish) v /= 8;

    v = pos.side_to_move() == WHITE ? v : -v;
    return v + Tempo;
}

Value evaluate(const Position& pos, const Options& options, Trace* trace) {
    const Mode mode = resolve(options.mode, pos);
    if (mode == Mode::MATERIAL) return material_only(pos);
    if (mode == Mode::NNUE) return nnue::evaluate(pos, options.network());
    if (mode == Mode::HYBRID) return hybrid(nnue::evaluate(pos, options.network()), classical(pos, trace));
    return classical(pos, trace);
}

}  // namespace maharajah::eval
