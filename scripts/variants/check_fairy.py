#!/usr/bin/env python3
"""Checks scripts/variants/variants.ini against Maharajah: Fairy-Stockfish, loading the
file, must count the same perft as the engine on positions the format can express.

  scripts/variants/check_fairy.py [--engine build/maharajah] [--fairy /usr/games/fairy-stockfish]

Exit status 0 when every count agrees, 1 on a difference, 77 (ctest's "skipped") when
Fairy-Stockfish is not installed. Each position is given to Maharajah with its FEN
field 7 (which sides play variant rules) taken from the variant's name, as the engine
does itself under `setoption name UCI_Variant value <name>`.

Positions: pawns start on rank 2 (7) or can only move once within the depth, so the
per-pawn double-step right (which the format cannot express) never differs. With an
old Fairy-Stockfish (Debian's 11.1: no per-side promotion sets or double-step regions)
the positions that need those keys are skipped, with a message.
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INI = HERE / "variants.ini"
SIDES = {"maharajah39": "Vv", "maharajah39-cv": "v", "maharajah39-vc": "V"}

# (variant, FEN, depth, needs per-side keys)
CASES = [
    ("maharajah39", "rnbmkbnr/pppp4/8/8/8/8/PPPP4/RNBMKBNR w - - 0 1", 4, False),
    ("maharajah39", "rabckbnr/pppppp2/8/8/8/8/PPPPPP2/RABCKBNR w - - 0 1", 3, False),
    ("maharajah39", "4k3/P6m/8/8/8/8/6p1/M3K3 w - - 0 1", 4, False),
    ("maharajah39", "4k3/pppp4/8/4P3/8/8/8/M3K3 b - - 0 1", 4, False),
    ("maharajah39-cv", "rnbmkbnr/pppp4/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 3, False),
    ("maharajah39-cv", "r3k3/pppp4/8/8/8/8/PPPPPPPP/R3K2R w KQ - 0 1", 3, False),
    ("maharajah39-vc", "rnbqkbnr/pppppppp/8/8/8/8/PPPP4/RNBMKBNR w kq - 0 1", 3, False),
    # Per-side promotion sets and double-step regions (current Fairy-Stockfish only).
    ("maharajah39-cv", "4k3/P6p/8/8/8/8/p6P/4K3 w - - 0 1", 3, True),
    ("maharajah39-vc", "4k3/P6p/8/8/8/8/p6P/4K3 w - - 0 1", 3, True),
    ("maharajah39", "rnbmkbnr/pppp4/8/8/4P3/2P5/8/PNBMKBNR w - - 0 1", 2, True),
]


def fairy_perft(fairy, variant, fen, depth):
    script = (f"setoption name VariantPath value {INI}\nsetoption name UCI_Variant value {variant}\n"
              f"position fen {fen}\ngo perft {depth}\nquit\n")
    out = subprocess.run([fairy], input=script, capture_output=True, text=True, timeout=300).stdout
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError(f"Fairy-Stockfish gave no perft for {variant} {fen}:\n{out[-500:]}")


def engine_perft(engine, variant, fen, depth):
    out = subprocess.run([engine, "perft", str(depth), f"{fen} {SIDES[variant]}"], capture_output=True,
                         text=True, timeout=300)
    for line in out.stdout.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError(f"maharajah gave no perft for {fen}: {out.stderr.strip()}")


def main():
    root = HERE.parent.parent
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", default=str(root / "build" / "maharajah"))
    p.add_argument("--fairy", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    a = p.parse_args()
    if not (os.path.isfile(a.fairy) and os.access(a.fairy, os.X_OK)):
        print(f"skipped: Fairy-Stockfish not installed ({a.fairy}); apt-get install fairy-stockfish")
        return 77
    # A promotion under the classic side of maharajah39-cv tells whether this build reads
    # the per-side keys: 4 promotions + 5 king moves if so, 7 + 5 if not.
    per_side = fairy_perft(a.fairy, "maharajah39-cv", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", 1) == 9
    if not per_side:
        print("note: this Fairy-Stockfish ignores the per-side keys; positions that need them are skipped")
    bad = checked = 0
    for variant, fen, depth, needs in CASES:
        if needs and not per_side:
            continue
        theirs, ours = fairy_perft(a.fairy, variant, fen, depth), engine_perft(a.engine, variant, fen, depth)
        checked += 1
        status = "ok" if theirs == ours else "DIFFERS"
        bad += theirs != ours
        print(f"{status:8} {variant:15} depth {depth}  fairy {theirs:>9}  maharajah {ours:>9}  {fen}")
    print(f"{checked - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
