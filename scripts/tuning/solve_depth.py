#!/usr/bin/env python3
"""Depth and nodes at which the engine settles on a known best move, with and without a
search technique (UCI option Ablate).

For each EPD line (FEN fields, then "bm <uci move>;") the engine searches to a fixed
depth in a fresh process, 1 thread. The position counts as solved at the first depth
from which every later completed iteration's PV starts with the key move. Used for
techniques whose effect is too rare to show in short games, e.g. null-move verification
in zugzwang positions (scripts/tuning/positions/zugzwang.epd).

Usage: scripts/tuning/solve_depth.py ENGINE EPD [--depth 20] [--ablate nmpverify]
Python 3 standard library only.
"""
import argparse
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/, for common/
from common.uci import UciProcess  # noqa: E402


def read_epd(path):
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, _, ops = line.partition(" bm ")
        key = ops.split(";")[0].strip()
        name = ops.split('id "')[1].split('"')[0] if 'id "' in ops else head
        yield head + " 0 1", key, name


def search(engine, fen, depth, ablate):
    """Returns [(depth, first pv move, nodes)] for every completed iteration."""
    with UciProcess("engine", [engine]) as eng:
        lines = eng.search(f"setoption name Ablate value {ablate}\nposition fen {fen}", f"go depth {depth}")
    iters = []
    for line in lines:
        w = line.split()
        if line.startswith("info depth") and " pv " in line and "bound" not in line:
            iters.append((int(w[2]), w[w.index("pv") + 1], int(w[w.index("nodes") + 1])))
    return iters


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("epd")
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--ablate", default="nmpverify")
    a = ap.parse_args()
    for fen, key, name in read_epd(a.epd):
        for ablate in ("none", a.ablate):
            iters = search(a.engine, fen, a.depth, ablate)
            solved = None
            for d, move, nodes in reversed(iters):
                if move != key:
                    break
                solved = (d, nodes)
            found = f"solved from depth {solved[0]} ({solved[1]} nodes)" if solved else f"not solved by depth {a.depth}"
            last = iters[-1] if iters else (0, "-", 0)
            print(f"{name:<40} Ablate {ablate:<10} {found:<36} depth {last[0]} plays {last[1]} ({last[2]} nodes)")


if __name__ == "__main__":
    main()
