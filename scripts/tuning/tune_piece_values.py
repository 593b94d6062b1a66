#!/usr/bin/env python3
"""Tunes the piece values of eval/weights.h on game positions (Texel's method), with
the full evaluation in the model.

Reads PGN files written by scripts/match/match.py, replays them with the helper
build/scripts/tools/maharajah_texel_features, which prints for every quiet position (from ply
12 on) the game result, the game phase, the engine's full evaluation and the piece
count differences. The evaluation is linear in the middlegame/endgame piece values:
    eval(values) = eval_now + sum over types of count_diff * taper(values - values_now)
so the fit changes only the values and keeps every other term as the engine has it.
It first finds the scale K that makes  P(White scores) = 1 / (1 + exp(-K * eval_now))
fit the results best, then, with that K fixed, the values that maximise the
likelihood (Newton's method, a small ridge pull toward the current values so that rare
types stay put). Prints the log-loss before and after and the fitted values.

Usage: scripts/tuning/tune_piece_values.py [--tool PATH] [--fix P,N,...] GAMES.pgn[.xz] [...]
Python 3 standard library only.
"""
import argparse
import lzma
import math
import os
import re
import subprocess
import sys

TYPES = "PNBRQMAC"
PHASE_FULL = 24
MOVE_RE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbnmac]?$")


def read_games(paths):
    games = []
    for path in paths:
        # Result files are stored xz-compressed (scripts/results/*/*.pgn.xz).
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            text = f.read()
        for block in re.split(r"\n(?=\[Event )", text):
            tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
            result = tags.get("Result")
            if result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            body = re.sub(r"\{[^}]*\}", " ", block.split("\n\n", 1)[-1])
            moves = [t for t in body.split() if MOVE_RE.match(t)]
            fen = tags.get("FEN", "startpos")
            games.append((fen, moves, {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]))
    return games


def solve(a, b):
    """Solves a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def logistic_newton(rows, w, k, rounds, tol, damping=0.0, pull=None):
    """Maximum-likelihood logistic regression by Newton's method (iteratively
    reweighted least squares). rows: (x, offset, result) with the model
    P(result = 1) = sigmoid(k * (offset + w . x)). damping is added to the Hessian's
    diagonal only; pull = (ridge, centre) adds a ridge penalty toward centre. Stops when
    no weight moves by tol or more, or after `rounds` steps."""
    w = list(w)
    n = len(w)
    for _ in range(rounds):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        if pull:
            ridge, centre = pull
            for i in range(n):
                grad[i] += ridge * (w[i] - centre[i])
                hess[i][i] += ridge
        for x, offset, r in rows:
            p = sigmoid(k * (offset + sum(wi * xi for wi, xi in zip(w, x))))
            g, h = (p - r) * k, p * (1 - p) * k * k
            nz = [(i, xi) for i, xi in enumerate(x) if xi]
            for i, xi in nz:
                grad[i] += g * xi
                for j, xj in nz:
                    hess[i][j] += h * xi * xj
        for i in range(n):
            hess[i][i] += damping
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(si) for si in step) < tol:
            break
    return w


def current_values(weights_h):
    """The PieceValue table of eval/weights.h: {type letter: (mg, eg)}."""
    text = open(weights_h, encoding="utf-8").read()
    body = re.search(r"PieceValue = \{\{(.*?)\}\};", text, re.S).group(1)
    pairs = [(int(a), int(b)) for a, b in re.findall(r"\{\s*(-?\d+),\s*(-?\d+)\s*\}", body)]
    order = "-PNBRQKMAC"  # index order of PieceType
    return {t: pairs[order.index(t)] for t in TYPES}


def features(games, tool, first_ply):
    lines = []
    for start, moves, result in games:
        lines.append(f"{result} {start}" + (" moves " + " ".join(moves) if moves else ""))
    out = subprocess.run([tool, str(first_ply)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True)
    if out.stderr:
        print(out.stderr.strip(), file=sys.stderr)
    samples = []
    for row in out.stdout.split("\n"):
        if row:
            f = row.split()
            samples.append((float(f[0]), int(f[1]), int(f[2]), [int(x) for x in f[3:]]))
    return samples


def log_loss(samples, k, offsets):
    total = 0.0
    for (r, _, _, _), v in zip(samples, offsets):
        p = min(max(sigmoid(k * v), 1e-12), 1 - 1e-12)
        total -= r * math.log(p) + (1 - r) * math.log(1 - p)
    return total / len(samples)


def fit_k(samples):
    evals = [v for _, _, v, _ in samples]
    lo, hi = 1e-4, 0.05
    for _ in range(60):  # golden-section search on a unimodal loss
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if log_loss(samples, a, evals) < log_loss(samples, b, evals):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit_values(samples, k, now, free, ridge, rounds):
    """The (mg, eg) values of the free types, with a ridge pull toward their current values."""
    params = [(t, g) for t in free for g in (0, 1)]
    centre = [float(now[t][g]) for t, g in params]
    rows = []
    for r, phase, v0, d in samples:
        x = [d[TYPES.index(t)] * (phase if g == 0 else PHASE_FULL - phase) / PHASE_FULL for t, g in params]
        # eval = v0 + x . (theta - now): the evaluation without the free values, plus theirs.
        rows.append((x, v0 - sum(xi * c for xi, c in zip(x, centre)), r))
    return logistic_newton(rows, centre, k, rounds, 0.05, pull=(ridge, centre)), params


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--tool", default=os.path.join(here, "..", "..", "build", "scripts", "tools", "maharajah_texel_features"))
    ap.add_argument("--weights", default=os.path.join(here, "..", "..", "eval", "weights.h"))
    ap.add_argument("--first-ply", type=int, default=12)
    ap.add_argument("--fix", default="", help="types kept at their current values, e.g. P,N,B")
    ap.add_argument("--ridge", type=float, default=1e-7, help="pull toward the current values, per sample")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--holdout", action="store_true",
                    help="fit on the even-numbered games only and report the log-loss on the odd-numbered ones")
    a = ap.parse_args()
    games = read_games(a.pgn)
    if not games:
        sys.exit("no finished games in " + ", ".join(a.pgn))
    now = current_values(a.weights)
    held = features(games[1::2], a.tool, a.first_ply) if a.holdout else []
    if a.holdout:
        games = games[0::2]
    samples = features(games, a.tool, a.first_ply)
    k = fit_k(samples)
    fixed = set(a.fix.upper().replace(",", ""))
    free = [t for t in TYPES if t not in fixed]
    theta, params = fit_values(samples, k, now, free, a.ridge * len(samples), a.rounds)
    fitted = {t: list(now[t]) for t in TYPES}
    for (t, g), th in zip(params, theta):
        fitted[t][g] = round(th)
    idx = {t: i for i, t in enumerate(TYPES)}

    def evals(values, data=None):
        out = []
        for _, phase, v0, d in samples if data is None else data:
            dv = 0.0
            for t in TYPES:
                if d[idx[t]]:
                    dv += d[idx[t]] * ((values[t][0] - now[t][0]) * phase +
                                       (values[t][1] - now[t][1]) * (PHASE_FULL - phase)) / PHASE_FULL
            out.append(v0 + dv)
        return out

    print(f"games {len(games)}, quiet positions {len(samples)}, K {k:.6f} (per cp)")
    print(f"log-loss: current values {log_loss(samples, k, evals(now)):.6f}, "
          f"fitted {log_loss(samples, k, evals(fitted)):.6f}")
    if held:
        print(f"held-out games' {len(held)} positions: log-loss current {log_loss(held, k, evals(now, held)):.6f}, "
              f"fitted {log_loss(held, k, evals(fitted, held)):.6f}")
    for t in TYPES:
        c = sum(1 for s in samples if s[3][idx[t]])
        mark = " (fixed)" if t in fixed else ""
        print(f"{t}: now {now[t][0]:5d} {now[t][1]:5d}   fitted {fitted[t][0]:5d} {fitted[t][1]:5d}"
              f"   positions with an imbalance: {c}{mark}")


if __name__ == "__main__":
    main()
