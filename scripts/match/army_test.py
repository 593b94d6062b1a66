#!/usr/bin/env python3
"""Does the engine's own army (`army suggest`) beat random valid armies? The same engine
plays both sides (two processes); every opening is a pair of a suggested army and a
random valid army, half with the suggested army as White, and match.py plays each one
twice with the engines swapped, so the score counted is that of the army, not of an
engine.

  scripts/match/army_test.py OUTDIR [--pairs 200] [--tc 1+0.01] [--seed 1] [--elo E]

Random armies are random over all valid armies: piece kinds drawn one by one among
those that still fit the 39 points (king free), until exactly 39 are spent within 31
men, then every man on a random square of the ranks the placement rule fills (the engine's
`army check` must accept the army, and the pair must pass `position army`). With
--elo both engines play at that UCI_Elo (UCI_LimitStrength). Output: OUTDIR/openings.txt,
match log and PGN, and summary.txt with the suggested army's score and Elo (95%).
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # scripts/, for common/
from common.armies import uniform_army  # noqa: E402
from common.uci import UciProcess  # noqa: E402
from match_stats import trinomial  # noqa: E402

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("outdir")
    p.add_argument("--engine", default=str(ROOT / "build" / "maharajah"))
    p.add_argument("--pairs", type=int, default=200, help="openings (each played twice)")
    p.add_argument("--tc", default="1+0.01")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--elo", type=int, default=0)
    a = p.parse_args()
    out = Path(a.outdir)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(a.seed)
    eng = UciProcess("engine", [a.engine])
    eng.start()
    lines, suggested_fens = [], set()
    while len(lines) < a.pairs:
        i = len(lines)
        suggested_white = i % 2 == 0
        color = "white" if suggested_white else "black"
        sug = eng.one(f"army suggest {color} seed {rng.randrange(1 << 63)}", "army ").split()[1]
        rnd = uniform_army(rng, not suggested_white)
        if not eng.one(f"army check {'black' if suggested_white else 'white'} {rnd}", "army ").startswith("army ok"):
            continue
        w, b = (sug, rnd) if suggested_white else (rnd, sug)
        err = eng.one(f"position army {w} {b}", "info string error")
        if err:
            continue
        fen = eng.one("fen", "fen ")[4:]
        lines.append(f"army {w} {b}")
        suggested_fens.add((fen, "w" if suggested_white else "b"))
    eng.quit()
    (out / "openings.txt").write_text("# suggested army v random army, half each colour\n" + "\n".join(lines) + "\n")
    opts = ["option.UCI_LimitStrength=true", f"option.UCI_Elo={a.elo}"] if a.elo else []
    cmd = [sys.executable, str(HERE / "match.py"), "--engine", "name=e1", f"cmd={a.engine}", *opts,
           "--engine", "name=e2", f"cmd={a.engine}", *opts, "--each", "option.Hash=16", "option.Threads=1",
           "--tc", a.tc, "--games", str(2 * a.pairs), "--openings", str(out / "openings.txt"),
           "--concurrency", "2", "--referee", a.engine, "--pgn", str(out / "games.pgn")]
    with open(out / "match.log", "w") as f:
        subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=False)
    side_of = {fen: side for fen, side in suggested_fens}
    w = l = d = 0
    for game in (out / "games.pgn").read_text().split("\n\n[Event")[0:]:
        fen = re.search(r'\[FEN "([^"]+)"\]', game)
        res = re.search(r'\[Result "([^"]+)"\]', game)
        if not fen or not res or res.group(1) == "*":
            continue
        side = side_of.get(fen.group(1))
        if side is None:
            continue
        r = res.group(1)
        if r == "1/2-1/2":
            d += 1
        elif (r == "1-0") == (side == "w"):
            w += 1
        else:
            l += 1
    est = trinomial(w, l, d)
    clean = "NOT CLEAN" not in (out / "match.log").read_text()
    summary = (f"suggested army v random valid army: {w + l + d} games at {a.tc}"
               f"{' (UCI_Elo %d)' % a.elo if a.elo else ''}, {a.pairs} army pairs, seed {a.seed}\n"
               f"suggested army W-L-D {w}-{l}-{d}, score {100 * est.score:.1f}%, "
               f"Elo {est.elo:+.1f} +/- {est.error:.1f} (95%), LOS {100 * est.los:.1f}%, "
               f"{'clean' if clean else 'NOT CLEAN'}\ncommand: {' '.join(cmd)}\n")
    (out / "summary.txt").write_text(summary)
    print(summary, end="")


if __name__ == "__main__":
    main()
