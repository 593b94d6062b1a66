#!/usr/bin/env python3
"""Generates the large opening books used by SPRT matches (scripts/match/sprt):

  standard  N standard-chess positions, EPD (4 fields, no comments: fastchess reads every
            line as an opening): 8 or 9 uniformly random legal plies from the start
            position.
  army      N Maharajah army pairs in match.py's format (`army <white> <black> [moves ...]`):
            random valid armies (make_army_openings.py's styles) and the engine's own
            `army suggest` armies, the four classic/variant mixes cc, cv, vc, vv in equal
            shares, then 0-4 uniformly random legal plies.

A candidate is kept when the game is still on, its position (FEN without the move
counters) is new, and a short search of the engine (`ucinewgame`, `go nodes --nodes`,
Threads 1, Hash 16) scores it within +-MARGIN cp (White's view; mate scores are dropped).

Deterministic: candidates come from --seed alone and each search starts from a cleared hash,
so the same seed, engine and options give the same file whatever --jobs is.
Python 3 standard library only.

  make_books.py standard [--engine E] [--count 10000] [--seed 1] [--out FILE] [--jobs J]
  make_books.py army     [--engine E] [--count 2000]  [--seed 1] [--out FILE] [--jobs J]
"""

import argparse
import os
import random
import statistics
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
from make_army_openings import DEFAULT_ENGINE, HERE, Engine  # noqa: E402
sys.path.insert(0, os.path.join(HERE, ".."))  # scripts/, for common/
from common.armies import CLASSIC_STYLES, ORTHODOX, VARIANT_STYLES, check_army, random_army  # noqa: E402

MIXES = ("cc", "cv", "vc", "vv")  # White's rules, then Black's: classic or variant
DEFAULT_OUT = {"standard": os.path.join(HERE, "openings", "standard-10k.epd"),
               "army": os.path.join(HERE, "openings", "maharajah-2k.txt")}
DEFAULT_COUNT = {"standard": 10000, "army": 2000}
BATCH = 64


# ----------------------------------------------------------------------------------
# Candidates: a position command and its random plies
# ----------------------------------------------------------------------------------

def random_plies(eng, rng, base, plies):
    """`base` followed by `plies` uniformly random legal moves; None when the game ends
    on the way (no legal move) or is over at the end. Returns (command, moves, fen)."""
    moves = []
    for _ in range(plies):
        cmd = base + (" moves " + " ".join(moves) if moves else "")
        out = eng.run(cmd, "moves")
        legal = next(l for l in out if l == "moves" or l.startswith("moves ")).split()[1:]
        if not legal:
            return None
        moves.append(rng.choice(legal))
    cmd = base + (" moves " + " ".join(moves) if moves else "")
    out = eng.run(cmd, "status", "fen")
    if any(l.startswith("info string error") for l in out):
        return None
    if next(l for l in out if l.startswith("status")) != "status ongoing":
        return None
    fen = next(l for l in out if l.startswith("fen "))[4:]
    return cmd, moves, fen


def position_key(fen):
    """The FEN without the halfmove and fullmove counters (fields 5 and 6)."""
    f = fen.split()
    return " ".join(f[:4] + f[6:])


def standard_candidate(eng, rng):
    plies = rng.choice((8, 9))
    got = random_plies(eng, rng, "position startpos", plies)
    if got is None:
        return None
    cmd, moves, fen = got
    return {"cmd": cmd, "fen": fen, "line": " ".join(fen.split()[:4]), "mix": "standard"}


def suggested_army(eng, rng, color):
    """An `army suggest` army with a random seed; the suggester always fields compound
    pieces, so it serves only a variant side (checked)."""
    army = eng.one(f"army suggest {color} seed {rng.randint(1, 1_000_000)}").split()[-1]
    ok, ans = check_army(eng, color, army)
    if not ok or not ans.endswith("rules variant"):
        raise RuntimeError(f"`army suggest {color}` gave {army}: {ans}")
    return army


def side_army(eng, rng, color, variant):
    """A classic side: the orthodox army 1 time in 5, else a random classic army.
    A variant side: a suggested army 2 times in 5, else a random variant army."""
    if variant:
        if rng.random() < 0.4:
            return suggested_army(eng, rng, color), "suggest"
        army, _, _ = random_army(rng, eng, color, rng.choice(VARIANT_STYLES), True)
        return army, "random"
    if rng.random() < 0.2:
        return ORTHODOX[color], "orthodox"
    army, _, _ = random_army(rng, eng, color, rng.choice(CLASSIC_STYLES), False)
    return army, "random"


def army_candidate(eng, rng, mix):
    w, wsrc = side_army(eng, rng, "white", mix[0] == "v")
    b, bsrc = side_army(eng, rng, "black", mix[1] == "v")
    base = f"position army {w} {b}"
    if any(l.startswith("info string error") for l in eng.run(base)):
        return None  # e.g. a king attacked at the start
    got = random_plies(eng, rng, base, rng.randint(0, 4))
    if got is None:
        return None
    cmd, moves, fen = got
    line = f"army {w} {b}" + (" moves " + " ".join(moves) if moves else "")
    return {"cmd": cmd, "fen": fen, "line": line, "mix": mix, "src": f"{wsrc}/{bsrc}"}


# ----------------------------------------------------------------------------------
# The balance filter
# ----------------------------------------------------------------------------------

def white_cp(score, fen):
    """A search score as centipawns from White's view; None for a mate score."""
    if score is None or score[0] != "cp":
        return None
    return score[1] if fen.split()[1] == "w" else -score[1]


def evaluate(engines, batch, ns):
    """Fills c['cp'] (White's view, None = mate or no score) for every candidate, the
    batch split over the engines (one thread each)."""
    def work(eng, part):
        for c in part:
            c["cp"] = white_cp(eng.search(c["cmd"], ns.nodes), c["fen"])
    parts = [batch[i::len(engines)] for i in range(len(engines))]
    threads = [threading.Thread(target=work, args=(e, p)) for e, p in zip(engines, parts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def fill(engines, rng, make, count, ns, seen, stats):
    """Draws candidates with make(rng) until count are kept; returns the kept ones."""
    kept = []
    walker = engines[0]
    while len(kept) < count:
        batch = []
        while len(batch) < BATCH:
            c = make(walker, rng)
            stats["drawn"] += 1
            if c is None:
                stats["game over or refused"] += 1
                continue
            key = position_key(c["fen"])
            if key in seen:
                stats["duplicate"] += 1
                continue
            seen.add(key)
            batch.append(c)
        evaluate(engines, batch, ns)
        for c in batch:
            if len(kept) == count:
                break  # the rest of the batch is neither kept nor counted
            stats["searched"] += 1
            if c["cp"] is None:
                stats["mate score"] += 1
            elif abs(c["cp"]) > ns.margin:
                stats["beyond margin"] += 1
            else:
                kept.append(c)
    return kept


# ----------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=("standard", "army"))
    ap.add_argument("--engine", default=DEFAULT_ENGINE, help=f"default {DEFAULT_ENGINE}")
    ap.add_argument("--count", type=int, help="openings to keep (standard 10000, army 2000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--nodes", type=int, default=15000, help="search nodes (default 15000)")
    ap.add_argument("--margin", type=int, default=80, help="largest |score| in cp (default 80)")
    ap.add_argument("--jobs", type=int, default=1, help="engine processes searching (default 1)")
    ap.add_argument("--out", help="output file (default scripts/match/openings/"
                                  "standard-10k.epd or maharajah-2k.txt)")
    ns = ap.parse_args()
    count = ns.count or DEFAULT_COUNT[ns.kind]
    out = ns.out or DEFAULT_OUT[ns.kind]
    if ns.kind == "army" and count % 4:
        sys.exit("error: --count must be a multiple of 4 for army books (four mixes)")

    start = time.monotonic()
    engines = [Engine(ns.engine) for _ in range(max(1, ns.jobs))]
    for e in engines:
        e.run("uci", "setoption name Threads value 1", "setoption name Hash value 16")
    rng = random.Random(ns.seed)
    seen = set()
    stats = {k: 0 for k in ("drawn", "game over or refused", "duplicate", "searched",
                            "mate score", "beyond margin")}
    if ns.kind == "standard":
        kept = fill(engines, rng, standard_candidate, count, ns, seen, stats)
        header = []
    else:
        kept = []
        for mix in MIXES:
            sub = random.Random(rng.getrandbits(64))
            kept += fill(engines, sub, lambda e, r, m=mix: army_candidate(e, r, m),
                         count // 4, ns, seen, stats)
        header = [
            "# Maharajah army pairs for SPRT matches (scripts/match/match.py --openings).",
            f"# Generated by scripts/match/make_books.py army --count {count} --seed {ns.seed} "
            f"--nodes {ns.nodes} --margin {ns.margin}; do not edit by hand.",
            "# Mixes cc, cv, vc, vv (classic/variant White, Black) in equal shares, in that order;",
            "# 0-4 random plies; each kept when a short search scores it within the margin.",
        ]
    for e in engines:
        e.close()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write("".join(line + "\n" for line in header + [c["line"] for c in kept]))

    cps = [c["cp"] for c in kept]
    print(f"wrote {out}: {len(kept)} openings in {time.monotonic() - start:.0f} s "
          f"({len(engines)} engine process(es))")
    print("candidates: " + ", ".join(f"{v} {k}" for k, v in stats.items()))
    print(f"kept scores (cp, White's view): mean {statistics.mean(cps):+.1f}, "
          f"sd {statistics.pstdev(cps):.1f}, min {min(cps):+d}, max {max(cps):+d}")
    if ns.kind == "army":
        for mix in MIXES:
            sub = [c for c in kept if c["mix"] == mix]
            srcs = {}
            for c in sub:
                srcs[c["src"]] = srcs.get(c["src"], 0) + 1
            print(f"  {mix}: {len(sub)} pairs, mean {statistics.mean(c['cp'] for c in sub):+.1f} cp;"
                  f" army sources (White/Black): "
                  + ", ".join(f"{k} {v}" for k, v in sorted(srcs.items())))
        plies = [len(c["line"].split()) - 4 if " moves " in c["line"] else 0 for c in kept]
        print("  plies: " + ", ".join(f"{p}: {plies.count(p)}" for p in range(5)))


if __name__ == "__main__":
    main()
