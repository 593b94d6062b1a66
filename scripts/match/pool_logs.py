#!/usr/bin/env python3
"""Pools match.py logs of the same pairing (e.g. an SPRT run twice) into one result.

Reads the last "Score of" and "Ptnml(0-2)" lines of each log, adds the counts, and
prints the pooled score, pentanomial Elo with its 95% error bar, LOS, and the SPRT
log-likelihood ratio for the bounds given. (Pooling two stopped SPRTs is a fixed-sample
estimate, not a new sequential test: read the LLR against Wald's bounds as a guide.)

Usage: scripts/match/pool_logs.py [--elo0 0] [--elo1 15] LOG [LOG ...]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402


def read_log(path):
    """The last result of a match.py log: ([W, L, D], 5 pentanomial counts, SPRT state
    such as "continue" or "H1 accepted", "" without SPRT), or None if it has no result."""
    text = open(path, encoding="utf-8").read()
    score = re.findall(r"Score of .*?: (\d+) - (\d+) - (\d+)", text)
    ptnml = re.findall(r"Ptnml\(0-2\): \[([^\]]*)\]", text)
    sprt = re.findall(r"SPRT .*?: LLR -?[\d.]+ \[.*?\] (.*)", text)
    if not score or not ptnml:
        return None
    return ([int(x) for x in score[-1]], [int(x) for x in ptnml[-1].split(",")],
            sprt[-1].strip() if sprt else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=15.0)
    a = ap.parse_args()
    wld = [0, 0, 0]
    penta = [0] * 5
    for path in a.logs:
        result = read_log(path)
        if result is None:
            sys.exit(f"{path}: no result lines")
        wld = [x + y for x, y in zip(wld, result[0])]
        penta = [x + y for x, y in zip(penta, result[1])]
    est = match.pentanomial(penta)
    lo, hi = match.sprt_bounds(0.05, 0.05)
    llr = match.sprt_llr(penta, a.elo0, a.elo1)
    print(f"pooled {len(a.logs)} logs: {sum(wld)} games, {wld[0]}-{wld[1]}-{wld[2]} (W-L-D), Ptnml {penta}")
    print(f"Elo {est.elo:+.1f} +/- {est.error:.1f} (95%), LOS {100 * est.los:.1f} %")
    print(f"LLR [{a.elo0:g}, {a.elo1:g}]: {llr:.3f} (bounds {lo:.3f}, {hi:.3f})")


if __name__ == "__main__":
    main()
