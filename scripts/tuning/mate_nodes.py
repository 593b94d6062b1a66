#!/usr/bin/env python3
"""Search effort in mating positions, with and without a search technique.

For each position the engine searches to a fixed depth (1 thread, fresh process) and
the script prints the nodes spent when the first exact mate score appears and at the
end of the depth. Techniques that only matter once a mate is on the board (such as
mate-distance pruning) show here what games at short time controls cannot.

Usage: scripts/tuning/mate_nodes.py ENGINE [--depth 16] [--ablate mdp]
Python 3 standard library only.
"""
import argparse
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/, for common/
from common.uci import UciProcess  # noqa: E402

FENS = [
    "8/8/8/4k3/8/8/8/4K2R w - - 0 1",            # K+R v K
    "8/8/8/3k4/8/8/8/4KQ2 w - - 0 1",            # K+Q v K
    "8/8/3k4/8/8/8/8/2MK4 w - - 0 1 V -",        # K+maharaja v K (mate in 3)
    "8/8/3k4/8/8/8/8/2CK4 w - - 0 1 V -",        # K+chancellor v K
    "8/8/3k4/8/8/8/8/2AK4 w - - 0 1 V -",        # K+archbishop v K
    "8/8/8/8/8/3k4/8/1NBK4 w - - 0 1",           # K+B+N v K
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",     # back-rank mate in 1
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",  # Qxf7#
    "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1",                 # mate in 3
]


def run(engine, fen, depth, ablate):
    with UciProcess("engine", [engine]) as eng:
        lines = eng.search(f"setoption name Ablate value {ablate}\nposition fen {fen}", f"go depth {depth}")
    first, last, score = None, 0, ""
    for line in lines:
        if line.startswith("info depth") and " nodes " in line:
            w = line.split()
            last = int(w[w.index("nodes") + 1])
            score = " ".join(w[w.index("score") + 1:w.index("score") + 3])
            if first is None and w[w.index("score") + 1] == "mate" and "bound" not in line:
                first = last
    return first, last, score


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--ablate", default="mdp")
    a = ap.parse_args()
    totals = {}
    for ablate in ("none", a.ablate):
        t_first = t_mate_all = 0
        for fen in FENS:
            first, last, score = run(a.engine, fen, a.depth, ablate)
            print(f"{ablate:>8}  {fen:<70} first mate at {first if first else '-':>7}  "
                  f"depth {a.depth}: {last:>8} nodes  {score}")
            if first:
                t_first += first
                t_mate_all += last
        totals[ablate] = (t_first, t_mate_all)
    for ablate, (f, m) in totals.items():
        print(f"Ablate {ablate}: nodes to the first mate score {f}, to depth {a.depth} in the mating positions {m}")


if __name__ == "__main__":
    main()
