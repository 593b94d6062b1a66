#!/usr/bin/env python3
"""Fits piece values to game results (a Texel-style logistic fit on material only).

Reads PGN files written by scripts/match/match.py (UCI moves, [FEN] tags), replays every game
with the engine (its `position` and `fen` commands), and takes each position from ply
12 on whose material is not about to change (the next move is not a capture). It then
fits one value per piece type so that  P(White scores) = 1 / (1 + 10^(-v/400)),
v = sum over types of value * (White count - Black count), matches the game results
best (maximum likelihood, Newton's method), and prints the values in centipawns, scaled so
that the pawn is 100 when --scale-pawn is given (default), else as fitted.

Usage: scripts/tuning/fit_piece_values.py [--engine build/maharajah] GAMES.pgn[.xz] [...]
Python 3 standard library only.
"""
import argparse
import lzma
import math
import re
import subprocess
import sys

TYPES = "PNBRQMAC"
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


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def fen_after(self, start, moves):
        pos = "position startpos" if start == "startpos" else "position fen " + start
        if moves:
            pos += " moves " + " ".join(moves)
        self.p.stdin.write(pos + "\nfen\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline().strip()
        if not line.startswith("fen "):
            raise RuntimeError("engine said: " + line)
        return line[4:]

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.flush()
        self.p.wait()


def material(board):
    d = [0] * len(TYPES)
    for ch in board:
        up = ch.upper()
        if up in TYPES:
            d[TYPES.index(up)] += 1 if ch.isupper() else -1
    return d


def collect(games, engine, first_ply):
    samples = []
    for start, moves, result in games:
        fens = [engine.fen_after(start, moves[:k]) for k in range(len(moves) + 1)]
        for k in range(first_ply, len(moves)):
            here, after = fens[k].split()[0], fens[k + 1].split()[0]
            if sum(ch.isalpha() for ch in here) != sum(ch.isalpha() for ch in after):
                continue  # a capture follows: the material is in flux
            samples.append((material(here), result))
    return samples


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


def fit(samples, start, rounds):
    """Material-only fit: one value per type, with a tiny damping term so that rare
    piece types stay finite."""
    rows = [(d, 0.0, r) for d, r in samples]
    return logistic_newton(rows, start, math.log(10) / 400.0, rounds, 0.01, damping=1e-9 * len(samples))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", default="build/maharajah")
    ap.add_argument("--first-ply", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=50, help="Newton iterations at most")
    ap.add_argument("--no-scale-pawn", action="store_true")
    a = ap.parse_args()
    games = read_games(a.pgn)
    if not games:
        sys.exit("no finished games in " + ", ".join(a.pgn))
    engine = Engine(a.engine)
    samples = collect(games, engine, a.first_ply)
    engine.close()
    counts = [sum(1 for d, _ in samples if d[i]) for i in range(len(TYPES))]
    start = [100, 320, 330, 500, 950, 1250, 750, 850]
    w = fit(samples, start, a.rounds)
    scale = 1.0 if a.no_scale_pawn else 100.0 / w[0]
    print(f"games {len(games)}, positions {len(samples)}")
    for t, wi, c in zip(TYPES, w, counts):
        print(f"{t}: {wi * scale:7.0f}   (positions with an imbalance in {t}: {c})")


if __name__ == "__main__":
    main()
