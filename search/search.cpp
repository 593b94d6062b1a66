// One worker's search: iterative deepening with aspiration windows, the alpha-beta tree
// search and quiescence. The thread pool that runs the workers is engine.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "eval/nnue.h"
#include "eval/weights.h"
#include "movegen/movegen.h"
#include "search/movepick.h"
#include "search/params.h"
#include "search/timeman.h"
#include "search/worker.h"

namespace maharajah::search {

namespace {

// Late-move reduction table: reductions grow with log(depth) * log(moves). Filled at
// start-up, and again when a tuning build changes a parameter.
struct Reductions {
    int table[MAX_PLY][64];
    Reductions() { fill(); }
    void fill() {
        for (int d = 0; d < MAX_PLY; ++d)
            for (int m = 0; m < 64; ++m)
                table[d][m] = (d && m) ? int(param::LmrBase / 100.0 +
                                             std::log(double(d)) * std::log(double(m)) / (param::LmrDivisor / 100.0))
                                       : 0;
    }
    int operator()(int depth, int move_count) const {
        return table[std::min(depth, MAX_PLY - 1)][std::min(move_count, 63)];
    }
};
Reductions reduction;

inline int lmp_limit(int depth, bool improving) { return (param::LmpBase + depth * depth) / (2 - improving); }

// A futility-pruned move is worth at most its futility value: fail-soft, the node's
// upper bound need not stay at -infinity when every move was pruned.
inline void note_futile(Value& best, Value futility_value) {
    if (futility_value != VALUE_NONE && futility_value > best && futility_value < VALUE_MATE_IN_MAX_PLY)
        best = futility_value;
}

int stat_bonus(int depth) {
    return std::min(param::HistoryBonusMul * depth - param::HistoryBonusSub, param::HistoryBonusMax);
}

void update_pv(Move* pv, Move m, const Move* child) {
    *pv++ = m;
    while (child && *child != MOVE_NONE) *pv++ = *child++;
    *pv = MOVE_NONE;
}

// False only when the quiet move m surely gives no check: the piece does not attack
// the enemy king from its destination and does not leave a line to it (`blockers`:
// the pieces shielding that king). Castling is never ruled out.
bool may_give_check(const Position& pos, Move m, Bitboard blockers) {
    if (is_castling(m)) return true;
    const Color us = pos.side_to_move();
    const Square from = from_sq(m), to = to_sq(m);
    const Bitboard occ = (pos.pieces() ^ square_bb(from)) | square_bb(to);
    return (attacks::piece_attacks(type_of(pos.piece_on(from)), us, to, occ) & square_bb(pos.king_square(~us))) ||
           (blockers & square_bb(from));
}

}  // namespace

struct Stack {
    Move* pv;
    int ply;
    Move current_move;
    Move killers[2];
    Value static_eval;
    PieceToHistory* cont_hist;
    Move excluded;     // the move a singular-extension search leaves out at this node
    Bitboard threats;  // squares the opponent attacks, for the butterfly slot (0: index off)
};

void init_reductions() { reduction.fill(); }

template <bool PvNode>
void Worker::enter_node(Stack* ss) {
    if (++nodes >= next_check_) {
        next_check_ = nodes + 1024;
        check_time();
    }
    if (PvNode) {
        ss->pv[0] = MOVE_NONE;
        seldepth_ = std::max(seldepth_, ss->ply + 1);
    }
}

void Worker::prepare(const Position& root, const Limits& limits, const Settings& settings, TimeBudget budget,
                     Clock::time_point start) {
    root_ = root;
    nnue_.reset();
    limits_ = limits;
    settings_ = settings;
    settings_.eval.mode = eval::resolve(skill_eval(settings.skill, settings.eval.mode), root);
    // A playing level searches as its plan says (search/skill.h): its budget, without
    // the techniques it was calibrated without, for several candidates (the lines
    // reported stay those of MultiPV).
    search_multipv_ = settings.multipv;
    if (settings.skill.enabled) {
        const SkillPlan plan = skill_plan(settings.skill.elo, root.compounds() != 0);
        settings_.disabled |= plan.without;
        if (plan.nodes) limits_.nodes = limits_.nodes ? std::min<std::uint64_t>(limits_.nodes, plan.nodes) : plan.nodes;
        search_multipv_ = std::max(settings.multipv, plan.candidates);
    }
    budget_ = budget;
    start_ = start;
    // The clock and the node limit are looked at every 1024 nodes, more often as the
    // end of a node limit comes near (check_time).
    next_check_ = limits_.nodes ? 1 : 1024;
    last_reported_.clear();
    completed_depth = 0;
    root_moves.clear();
    for (Move m : MoveList<LEGAL>(root))
        if (limits.searchmoves.empty() ||
            std::find(limits.searchmoves.begin(), limits.searchmoves.end(), m) != limits.searchmoves.end())
            root_moves.push_back(RootMove{m, -VALUE_INFINITE, -VALUE_INFINITE, BOUND_EXACT, 0, {}});
}

bool Worker::is_draw(const Position& pos, int ply) const {
    if (pos.rule50_count() >= 100 && (!pos.in_check() || MoveList<LEGAL>(pos).size())) return true;
    return pos.is_search_repetition(ply) || pos.insufficient_material();
}

// Every worker looks: a main worker starved of CPU by many threads must not let the
// limits slip.
void Worker::check_time() {
    if (limits_.nodes) {
        // The workers take the nodes in grants, each a share of what is not yet granted,
        // and look again when theirs is spent. The grants never add up to more than the
        // limit, so it holds to a few nodes however the threads are scheduled: a worker
        // the system kept waiting cannot come back with a share of a stale count.
        std::uint64_t granted = engine_.nodes_granted_.load(std::memory_order_relaxed), grant = 0;
        while (granted < limits_.nodes) {
            grant = std::clamp<std::uint64_t>((limits_.nodes - granted) / (2 * engine_.threads()), 1, 1024);
            if (engine_.nodes_granted_.compare_exchange_weak(granted, granted + grant, std::memory_order_relaxed))
                break;
            grant = 0;
        }
        if (grant)
            next_check_ = nodes + grant;
        else
            engine_.stop_ = true;
    }
    // While pondering the clock is not ours; after ponderhit it counts from "go".
    if (budget_.enabled && !engine_.pondering_ && elapsed_ms() >= budget_.maximum_ms) engine_.stop_ = true;
    if (main() && engine_.yield_hook_) engine_.yield_now();
}

void Worker::emit(int depth, Value alpha, Value beta, int pv_index) {
    if (!report) return;
    std::uint64_t total = engine_.nodes();
    int hashfull = engine_.tt().hashfull();
    int lines = std::min<int>(settings_.multipv, int(root_moves.size()));
    for (int i = 0; i < lines; ++i) {
        const RootMove& rm = root_moves[i];
        bool updated = rm.score != -VALUE_INFINITE;
        if (depth == 1 && !updated && i > 0) continue;
        Report r;
        r.depth = updated ? depth : std::max(1, depth - 1);
        r.seldepth = rm.seldepth;
        r.multipv = i + 1;
        r.score = updated ? rm.score : rm.previous_score;
        if (i == pv_index) r.bound = r.score >= beta ? BOUND_LOWER : r.score <= alpha ? BOUND_UPPER : BOUND_EXACT;
        r.nodes = total;
        r.time_ms = elapsed_ms();
        r.hashfull = hashfull;
        r.pv = rm.pv;
        if (i == 0) last_reported_ = rm.pv;
        report(r);
    }
}

void Worker::choose_skill_move() {
    const Skill& skill = settings_.skill;
    if (!skill.enabled || root_moves.size() < 2) return;
    const SkillPlan plan = skill_plan(skill.elo, root_.compounds() != 0);
    if (plan.candidates < 2) return;  // the top level: no choice
    std::vector<Value> scores;
    for (int i = 0; i < std::min<int>(search_multipv_, int(root_moves.size())); ++i) {
        const RootMove& rm = root_moves[i];
        Value v = rm.score != -VALUE_INFINITE ? rm.score : rm.previous_score;
        if (v == -VALUE_INFINITE) break;
        scores.push_back(v);
    }
    // Repeatable for a seed: the same position gives the same choice.
    std::uint64_t rng = skill.seed ? skill.seed ^ root_.key() ^ std::uint64_t(root_.game_ply()) * 0x9E3779B97F4A7C15ULL
                                   : std::uint64_t(Clock::now().time_since_epoch().count()) ^ root_.key();
    const int pick = skill_pick(scores, plan, rng);
    if (pick > 0) std::rotate(root_moves.begin(), root_moves.begin() + pick, root_moves.begin() + pick + 1);
}

void Worker::report_final() {
    if (!root_moves.empty() && root_moves[0].pv != last_reported_)
        emit(root_depth_, -VALUE_INFINITE, VALUE_INFINITE, -1);
}

void Worker::iterative_deepening() {
    Move pv[MAX_PLY + 1];
    Stack stack[MAX_PLY + 10] = {};
    Stack* ss = stack + 4;  // room for (ss - 4) look-backs
    for (int i = 0; i < MAX_PLY + 10; ++i) {
        stack[i].ply = i - 4;
        stack[i].cont_hist = &sentinel_;
        stack[i].static_eval = VALUE_NONE;
    }
    std::vector<std::vector<Move>> pv_storage(MAX_PLY + 2, std::vector<Move>(MAX_PLY + 2, MOVE_NONE));
    for (int i = 0; i < MAX_PLY + 2; ++i) (ss + i)->pv = pv_storage[i].data();
    (void)pv;

    Position pos = root_;
    int multipv = std::min<int>(search_multipv_, int(root_moves.size()));
    Move last_best = MOVE_NONE;
    int best_changes = 0;
    Value last_score = -VALUE_INFINITE;

    for (root_depth_ = 1; root_depth_ < MAX_PLY - 10; ++root_depth_) {
        if (stopping()) break;
        if (limits_.depth && main() && root_depth_ > limits_.depth) break;
        // Lazy SMP: helpers go one ply deeper now and then, so threads spread out.
        int depth = root_depth_ + (!main() && (root_depth_ + id_) % 3 == 0);
        for (RootMove& rm : root_moves) rm.previous_score = rm.score;

        for (pv_index_ = 0; pv_index_ < multipv && !stopping(); ++pv_index_) {
            seldepth_ = 0;
            Value prev = root_moves[pv_index_].previous_score;
            Value delta = param::AspirationDelta, alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            if (settings_.on(ASPIRATION) && depth >= 4 && prev > -VALUE_INFINITE &&
                std::abs(prev) < VALUE_MATE_IN_MAX_PLY) {
                alpha = std::max(prev - delta, -VALUE_INFINITE);
                beta = std::min(prev + delta, VALUE_INFINITE);
            }
            while (true) {
                Value v = search<ROOT>(pos, ss, alpha, beta, depth, false);
                std::stable_sort(root_moves.begin() + pv_index_, root_moves.end());
                if (stopping()) break;
                if (main() && (v <= alpha || v >= beta) && elapsed_ms() > 3000) emit(depth, alpha, beta, pv_index_);
                if (v <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(v - delta, -VALUE_INFINITE);
                } else if (v >= beta) {
                    beta = std::min(v + delta, VALUE_INFINITE);
                } else
                    break;
                delta += delta / 2;
            }
            std::stable_sort(root_moves.begin(), root_moves.begin() + pv_index_ + 1);
            if (main() && !stopping() && pv_index_ + 1 == multipv) emit(depth, -VALUE_INFINITE, VALUE_INFINITE, -1);
        }
        if (stopping()) break;
        completed_depth = depth;
        if (!main()) continue;

        // Stop conditions checked between iterations.
        if (limits_.soft_nodes && engine_.nodes() >= limits_.soft_nodes) break;
        Value score = root_moves[0].score;
        if (limits_.mate && score >= VALUE_MATE_IN_MAX_PLY && VALUE_MATE - score <= 2 * limits_.mate) break;
        if (root_moves.size() == 1 && budget_.enabled && !engine_.pondering_) break;  // forced move
        if (budget_.enabled && !engine_.pondering_) {
            if (root_moves[0].move != last_best) best_changes += 2;
            double factor = 1.0 + 0.15 * best_changes;
            if (settings_.on(NODE_TIME) && depth >= 6) factor *= node_time_factor(root_moves[0].effort, nodes);
            if (last_score > -VALUE_INFINITE && score < last_score - 25) factor *= 1.25;
            if (elapsed_ms() > budget_.optimum_ms * factor * 0.6) break;
            best_changes = best_changes / 2;
        }
        last_best = root_moves[0].move;
        last_score = score;
    }
}

template <NodeType NT>
Value Worker::search(Position& pos, Stack* ss, Value alpha, Value beta, int depth, bool cut_node) {
    constexpr bool PvNode = NT != NON_PV, Root = NT == ROOT;
    if (depth <= 0) return qsearch < PvNode ? PV : NON_PV > (pos, ss, alpha, beta, 0);

    enter_node<PvNode>(ss);
    const bool in_check = pos.in_check();
    const Color us = pos.side_to_move();
    if (!Root) {
        if (stopping()) return VALUE_ZERO;
        if (is_draw(pos, ss->ply)) return VALUE_DRAW;
        if (ss->ply >= MAX_PLY - 6) return in_check ? VALUE_DRAW : evaluate(pos);
        // Mate distance pruning: no line from here beats a shorter mate found already.
        if (settings_.on(MATE_DISTANCE)) {
            alpha = std::max(mated_in(ss->ply), alpha);
            beta = std::min(mate_in(ss->ply + 1), beta);
            if (alpha >= beta) return alpha;
        }
    }
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;

    // Transposition table. A singular-extension search (a move excluded) is about
    // another question than the entry's: it takes no cutoff from it and stores nothing.
    const Move excluded = ss->excluded;
    const Key key = pos.key();
    bool tt_hit;
    TTEntry* tte = engine_.tt().probe(key, tt_hit);
    Value tt_value = tt_hit ? value_from_tt(tte->value(), ss->ply, pos.rule50_count()) : VALUE_NONE;
    Move tt_move = Root ? root_moves[pv_index_].move : tt_hit ? tte->move() : MOVE_NONE;
    const bool tt_pv = PvNode || (tt_hit && tte->is_pv());
    if (!PvNode && !excluded && tt_hit && settings_.on(TT_CUTOFF) && tte->depth() >= depth && tt_value != VALUE_NONE &&
        (tte->bound() & (tt_value >= beta ? BOUND_LOWER : BOUND_UPPER)) && pos.rule50_count() < 90)
        return tt_value;

    // Static evaluation.
    Value eval;
    bool improving = false;
    // Better than two plies ago (or four, if that was in check): prune less, reduce less.
    auto improving_now = [ss] {
        Value before = (ss - 2)->static_eval != VALUE_NONE ? (ss - 2)->static_eval : (ss - 4)->static_eval;
        return before == VALUE_NONE || ss->static_eval > before;
    };
    if (in_check) {
        ss->static_eval = eval = VALUE_NONE;
    } else if (excluded) {
        // The same node before it excluded a move: its static evaluation stands, and no
        // pruning before the moves (the question is about the other moves).
        eval = ss->static_eval;
        improving = improving_now();
    } else {
        if (tt_hit && tte->eval() != VALUE_NONE)
            ss->static_eval = eval = tte->eval();
        else {
            ss->static_eval = eval = evaluate(pos);
            if (!tt_hit) tte->save(key, VALUE_NONE, tt_pv, BOUND_NONE, -7, MOVE_NONE, eval, engine_.tt().generation());
        }
        if (tt_value != VALUE_NONE && (tte->bound() & (tt_value > eval ? BOUND_LOWER : BOUND_UPPER))) eval = tt_value;
        improving = improving_now();

        // Reverse futility: far above beta at low depth, the opponent will not come back.
        if (!PvNode && settings_.on(REVERSE_FUTILITY) && depth < param::RfpDepth &&
            eval - param::RfpMargin * (depth - improving) >= beta && eval < VALUE_MATE_IN_MAX_PLY)
            return eval;

        // Null move: give the opponent a free move; if we still beat beta, cut.
        if (!PvNode && settings_.on(NULL_MOVE) && (ss - 1)->current_move != MOVE_NULL && eval >= beta &&
            ss->static_eval >= beta - param::NmpEvalDepthMul * depth + param::NmpEvalBase &&
            eval::non_pawn_material(pos, us) > 0 && (ss->ply >= nmp_min_ply_ || us != nmp_color_) &&
            beta > VALUE_MATED_IN_MAX_PLY) {
            int R = param::NmpReductionBase + depth / param::NmpReductionDepthDiv +
                    std::min((eval - beta) / param::NmpReductionEvalDiv, 3);
            StateInfo st;
            ss->current_move = MOVE_NULL;
            ss->cont_hist = &sentinel_;
            pos.do_null_move(st);
            nnue_.push_null();
            Value v = -search<NON_PV>(pos, ss + 1, -beta, -beta + 1, depth - R, !cut_node);
            pos.undo_null_move();
            nnue_.pop();
            if (v >= beta && v < VALUE_MATE_IN_MAX_PLY) {
                // Verify where zugzwang is likely (little material) or the depth is large.
                bool verify =
                    depth >= param::NmpVerifyDepth || eval::non_pawn_material(pos, us) <= 2 * eval::PieceValue[ROOK].mg;
                if (!verify || nmp_min_ply_ || !settings_.on(NULL_VERIFY)) return v;
                nmp_min_ply_ = ss->ply + 3 * (depth - R) / 4;
                nmp_color_ = us;
                Value w = search<NON_PV>(pos, ss, beta - 1, beta, depth - R, false);
                nmp_min_ply_ = 0;
                if (w >= beta) return v;
            }
        }
    }

    // ProbCut: a capture that beats beta by a margin in a search four plies shallower
    // (checked first by quiescence, the cheap filter) would very likely beat beta at
    // full depth too. Not when the hash already says the node stays below that margin.
    const Value probcut_beta = beta + param::ProbcutMargin;
    if (!PvNode && !in_check && !excluded && settings_.on(PROBCUT) && depth >= param::ProbcutDepth &&
        std::abs(beta) < VALUE_MATE_IN_MAX_PLY &&
        !(tt_value != VALUE_NONE && tte->depth() >= depth - 3 && tt_value < probcut_beta)) {
        MovePicker captures_mp(pos, tt_move, history_, 0);  // captures and promotions: no butterfly
        for (Move m; (m = captures_mp.next()) != MOVE_NONE;) {
            // SEE counts centipawns; the net's raw scores count more per pawn (to_reported).
            if (!see_ge(pos, m, eval::to_reported(probcut_beta - ss->static_eval, settings_.eval.mode))) continue;
            StateInfo st;
            const Piece pc = pos.piece_on(from_sq(m));
            make_move(pos, m, st);
            ss->current_move = m;
            ss->cont_hist = &history_.continuation[piece_index(pc)][to_sq(m)];
            Value v = -qsearch<NON_PV>(pos, ss + 1, -probcut_beta, -probcut_beta + 1, 0);
            if (v >= probcut_beta)
                v = -search<NON_PV>(pos, ss + 1, -probcut_beta, -probcut_beta + 1, depth - 4, !cut_node);
            unmake_move(pos, m);
            if (stopping()) return VALUE_ZERO;
            if (v >= probcut_beta) {
                tte->save(key, value_to_tt(v, ss->ply), tt_pv, BOUND_LOWER, depth - 3, m, ss->static_eval,
                          engine_.tt().generation());
                return v;
            }
        }
    }

    ss->threats = settings_.on(THREAT_HISTORY) ? pos.attacks_by(~us) : 0;
    MovePicker mp(pos, tt_move, history_, ss->killers, (ss - 1)->cont_hist, (ss - 2)->cont_hist, ss->threats);

    Value best = -VALUE_INFINITE;
    Move best_move = MOVE_NONE;
    int move_count = 0;
    Move quiets[64], captures[32];
    int quiet_count = 0, capture_count = 0;
    const bool has_pieces = eval::non_pawn_material(pos, us) > 0;
    Bitboard their_blockers = ~Bitboard(0);  // pieces shielding the enemy king; filled when needed

    for (Move m; (m = mp.next()) != MOVE_NONE;) {
        if (m == excluded) continue;
        if (Root && std::find_if(root_moves.begin() + pv_index_, root_moves.end(),
                                 [m](const RootMove& rm) { return rm.move == m; }) == root_moves.end())
            continue;
        ++move_count;
        const bool capture = pos.is_capture(m);
        const bool quiet = !capture && !is_promotion(m);
        const Piece pc = pos.piece_on(from_sq(m));
        const int pi = piece_index(pc);
        // A quiet move's record, butterfly plus one- and two-ply continuation history:
        // it steers both futility pruning and late-move reductions.
        const int quiet_hist = quiet ? butterfly(history_.main, us, ss->threats, m) +
                                           (*(ss - 1)->cont_hist)[pi][to_sq(m)] + (*(ss - 2)->cont_hist)[pi][to_sq(m)]
                                     : 0;

        // Shallow-depth pruning once a move has been searched and a mate is not at stake.
        // Futility and SEE pruning spare quiet checks: a quiet check may mate, which no
        // static margin foresees. A move that may check is made to see whether it does.
        bool prune_unless_check = false;
        Value futility_value = VALUE_NONE;  // set when futility is what prunes
        if (!Root && best > VALUE_MATED_IN_MAX_PLY && has_pieces) {
            int lmr_depth = std::max(depth - 1 - reduction(depth, move_count), 0);
            if (quiet) {
                if (settings_.on(LMP) && move_count >= lmp_limit(depth, improving) && !in_check) continue;
                // Futility: the move's history widens or narrows the margin, so a quiet
                // move that often refuted here is not pruned on the static eval alone.
                if (settings_.on(FUTILITY) && !in_check && lmr_depth < param::FutilityDepth) {
                    futility_value = ss->static_eval + param::FutilityBase + param::FutilityMul * lmr_depth +
                                     quiet_hist / param::FutilityHistoryDiv;
                    prune_unless_check = futility_value <= alpha;
                    if (!prune_unless_check) futility_value = VALUE_NONE;
                }
                prune_unless_check =
                    prune_unless_check || (settings_.on(SEE_PRUNING) && lmr_depth < param::SeeQuietDepth &&
                                           !see_ge(pos, m, -param::SeeQuietMul * lmr_depth * lmr_depth));
            } else if (settings_.on(SEE_PRUNING) && depth < param::SeeCaptureDepth &&
                       !see_ge(pos, m, -param::SeeCaptureMul * depth))
                continue;
        }

        // The cheap "can this move check at all" filter before making the move.
        if (prune_unless_check) {
            if (their_blockers == ~Bitboard(0)) their_blockers = pos.blockers_for_king(~us);
            if (!may_give_check(pos, m, their_blockers)) {
                note_futile(best, futility_value);
                continue;
            }
        }
        // Singular extension: when the hash move is better than every other move by a
        // margin (the others, searched at half depth, stay below the hash score minus the
        // margin), it is searched one ply deeper. When even the others beat beta, the
        // node fails high on them (multi-cut); when the hash move alone was expected to
        // beat beta, it is searched one ply shallower.
        int extension = 0;
        if (!Root && m == tt_move && !excluded && settings_.on(SINGULAR) && depth >= param::SingularDepth &&
            tt_value != VALUE_NONE && std::abs(tt_value) < VALUE_MATE_IN_MAX_PLY && (tte->bound() & BOUND_LOWER) &&
            tte->depth() >= depth - 3 && ss->ply < 2 * root_depth_) {
            const Value singular_beta = tt_value - param::SingularMargin * depth;
            ss->excluded = m;
            Value v = search<NON_PV>(pos, ss, singular_beta - 1, singular_beta, (depth - 1) / 2, cut_node);
            ss->excluded = MOVE_NONE;
            if (stopping()) return VALUE_ZERO;
            if (v < singular_beta)
                extension = 1;
            else if (singular_beta >= beta)
                return singular_beta;
            else if (tt_value >= beta)
                extension = -1;
        }

        StateInfo st;
        const std::uint64_t nodes_before = Root ? nodes.load(std::memory_order_relaxed) : 0;  // root effort
        make_move(pos, m, st);
        if (prune_unless_check && !pos.in_check()) {
            unmake_move(pos, m);
            note_futile(best, futility_value);
            continue;
        }
        ss->current_move = m;
        ss->cont_hist = &history_.continuation[pi][to_sq(m)];
        const bool gives_check = pos.in_check();
        const int new_depth = depth - 1 + extension;

        Value v = -VALUE_INFINITE;
        // A scout that fails high is not searched again as PV: its line must not end in
        // a stale tail left by an earlier sibling's PV search.
        if (PvNode) (ss + 1)->pv[0] = MOVE_NONE;
        // Scout searches with a null window first (PVS); with PVS off, every move of a
        // PV node gets the full window, so none is reduced there either.
        const bool scout = !PvNode || settings_.on(PVS);
        if (scout && settings_.on(LMR) && depth >= 3 && move_count > 1 + Root && (quiet || !tt_pv)) {
            int r = reduction(depth, move_count);
            r += !improving + cut_node - tt_pv - gives_check;
            if (quiet) {
                if (m == ss->killers[0] || m == ss->killers[1]) --r;
                // Butterfly and continuation history together: one ply less or more
                // per 10000 points of the move's record.
                r -= quiet_hist / param::LmrHistoryDiv;
            }
            int d = std::clamp(new_depth - r, 1, new_depth + 1);
            v = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, d, true);
            if (v > alpha && d < new_depth)
                v = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
        } else if (scout && (!PvNode || move_count > 1)) {
            v = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
        }
        if (PvNode && (!scout || move_count == 1 || (v > alpha && (Root || v < beta)))) {
            (ss + 1)->pv[0] = MOVE_NONE;
            v = -search<PV>(pos, ss + 1, -beta, -alpha, new_depth, false);
        }
        unmake_move(pos, m);

        if (Root) {
            RootMove& rm =
                *std::find_if(root_moves.begin(), root_moves.end(), [m](const RootMove& r) { return r.move == m; });
            rm.effort += nodes - nodes_before;
            if (stopping()) return VALUE_ZERO;
            if (move_count == 1 || v > alpha) {
                rm.score = v;
                rm.seldepth = seldepth_;
                rm.pv.assign(1, m);
                for (Move* p = (ss + 1)->pv; *p != MOVE_NONE; ++p) rm.pv.push_back(*p);
            } else
                rm.score = -VALUE_INFINITE;  // only an upper bound is known: sort it last
        }
        if (stopping()) return VALUE_ZERO;

        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (PvNode && !Root) update_pv(ss->pv, m, (ss + 1)->pv);
                if (v >= beta) break;
                alpha = v;
            }
        }
        if (m != best_move) {
            if (quiet && quiet_count < 64)
                quiets[quiet_count++] = m;
            else if (capture && capture_count < 32)
                captures[capture_count++] = m;
        }
    }

    // No move but the excluded one: the singular test sees "nothing else reaches".
    if (!move_count) return excluded ? alpha : in_check ? mated_in(ss->ply) : VALUE_DRAW;

    // Learn from the cut: reward the move that refuted, punish the ones tried before it.
    if (best_move && best >= beta) {
        int bonus = stat_bonus(depth + (best > beta + 80));
        if (!pos.is_capture(best_move) && !is_promotion(best_move)) {
            update_quiet_stats(pos, ss, best_move, bonus);
            for (int i = 0; i < quiet_count; ++i) update_quiet_stats(pos, ss, quiets[i], -bonus);
        } else if (settings_.on(CAPTURE_HISTORY)) {
            Piece pc = pos.piece_on(from_sq(best_move));
            PieceType victim = is_en_passant(best_move) ? PAWN : type_of(pos.piece_on(to_sq(best_move)));
            update_history(history_.captures[piece_index(pc)][to_sq(best_move)][victim], bonus);
        }
        for (int i = 0; i < capture_count && settings_.on(CAPTURE_HISTORY); ++i) {
            Move c = captures[i];
            PieceType victim = is_en_passant(c) ? PAWN : type_of(pos.piece_on(to_sq(c)));
            update_history(history_.captures[piece_index(pos.piece_on(from_sq(c)))][to_sq(c)][victim], -bonus);
        }
    }

    if (excluded) return best;
    Bound bound = best >= beta ? BOUND_LOWER : PvNode && best_move ? BOUND_EXACT : BOUND_UPPER;
    tte->save(key, value_to_tt(best, ss->ply), tt_pv, bound, depth, best_move, ss->static_eval,
              engine_.tt().generation());
    return best;
}

void Worker::update_quiet_stats(const Position& pos, Stack* ss, Move m, int bonus) {
    Color us = pos.side_to_move();
    if (bonus > 0 && ss->killers[0] != m && settings_.on(KILLERS)) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = m;
    }
    if (settings_.on(HISTORY)) update_history(butterfly(history_.main, us, ss->threats, m), bonus);
    if (!settings_.on(CONT_HISTORY)) return;
    int pi = piece_index(pos.piece_on(from_sq(m)));
    for (int back : {1, 2})
        if ((ss - back)->current_move != MOVE_NONE && (ss - back)->current_move != MOVE_NULL)
            update_history((*(ss - back)->cont_hist)[pi][to_sq(m)], bonus);
}

template <NodeType NT>
Value Worker::qsearch(Position& pos, Stack* ss, Value alpha, Value beta, int depth) {
    constexpr bool PvNode = NT == PV;
    enter_node<PvNode>(ss);
    if (stopping()) return VALUE_ZERO;
    const bool in_check = pos.in_check();
    if (is_draw(pos, ss->ply)) return VALUE_DRAW;
    if (ss->ply >= MAX_PLY - 6) return in_check ? VALUE_DRAW : evaluate(pos);

    const int tt_depth = in_check || depth >= 0 ? 0 : -1;
    const Key key = pos.key();
    bool tt_hit;
    TTEntry* tte = engine_.tt().probe(key, tt_hit);
    Value tt_value = tt_hit ? value_from_tt(tte->value(), ss->ply, pos.rule50_count()) : VALUE_NONE;
    Move tt_move = tt_hit ? tte->move() : MOVE_NONE;
    const bool tt_pv = tt_hit && tte->is_pv();
    if (!PvNode && tt_hit && settings_.on(TT_CUTOFF) && tte->depth() >= tt_depth && tt_value != VALUE_NONE &&
        (tte->bound() & (tt_value >= beta ? BOUND_LOWER : BOUND_UPPER)))
        return tt_value;

    Value best;
    if (in_check) {
        ss->static_eval = VALUE_NONE;
        best = -VALUE_INFINITE;
    } else {
        if (tt_hit && tte->eval() != VALUE_NONE)
            ss->static_eval = best = tte->eval();
        else
            ss->static_eval = best = evaluate(pos);
        if (tt_value != VALUE_NONE && (tte->bound() & (tt_value > best ? BOUND_LOWER : BOUND_UPPER))) best = tt_value;
        // Stand pat: the side to move may decline every capture.
        if (best >= beta) {
            if (!tt_hit)
                tte->save(key, value_to_tt(best, ss->ply), false, BOUND_LOWER, -7, MOVE_NONE, ss->static_eval,
                          engine_.tt().generation());
            return best;
        }
        if (best > alpha) alpha = best;
    }

    // Only evasions read the butterfly table here (captures have their own history).
    MovePicker mp(pos, tt_move, history_,
                  in_check && settings_.on(THREAT_HISTORY) ? pos.attacks_by(~pos.side_to_move()) : 0);
    Move best_move = MOVE_NONE;
    int move_count = 0;
    for (Move m; (m = mp.next()) != MOVE_NONE;) {
        ++move_count;
        if (!in_check && best > VALUE_MATED_IN_MAX_PLY) {
            if (settings_.on(QS_SEE) && !see_ge(pos, m, 0)) continue;
        }
        StateInfo st;
        Piece pc = pos.piece_on(from_sq(m));
        make_move(pos, m, st);
        ss->current_move = m;
        ss->cont_hist = &history_.continuation[piece_index(pc)][to_sq(m)];
        Value v = -qsearch<NT>(pos, ss + 1, -beta, -alpha, depth - 1);
        unmake_move(pos, m);
        if (stopping()) return VALUE_ZERO;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (PvNode) update_pv(ss->pv, m, (ss + 1)->pv);
                if (v >= beta) break;
                alpha = v;
            }
        }
    }
    if (in_check && move_count == 0) return mated_in(ss->ply);

    tte->save(key, value_to_tt(best, ss->ply), tt_pv, best >= beta ? BOUND_LOWER : BOUND_UPPER, tt_depth, best_move,
              ss->static_eval, engine_.tt().generation());
    return best;
}

}  // namespace maharajah::search
