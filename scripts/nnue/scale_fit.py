#!/usr/bin/python3
"""Measures what a score means: for a sample of records, the engine's `eval` with the
network and with the hand-written evaluation, and for each (and for the records' own
search scores) the logistic scale k that best predicts the game result,
1 / (1 + exp(-score / k)). Equal k means equal footing.

  /usr/bin/python3 scripts/nnue/scale_fit.py --engine build/maharajah \\
      --data scripts/nnue/data/heldout601.data

The engine's reports are on the hand-written evaluation's footing (the network's own
units times 5/8, eval/evaluate.h), so both `eval` columns should show about the same k;
the search scores in the records are in the search's own units and show the network's k.
Needs numpy only.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import nnue_format as nf  # noqa: E402


def engine_evals(engine: str, fens: list[str], mode: str) -> np.ndarray:
    """`eval` of every FEN in one engine session, centipawns for White."""
    lines = ["setoption name UCI_Variant value maharajah", f"setoption name EvalMode value {mode}"]
    for fen in fens:
        lines += [f"position fen {fen}", "eval"]
    lines.append("quit")
    out = subprocess.run([engine], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout
    values = [float(v) * 100 for v in re.findall(r"Final evaluation ([-+\d.]+) \(white side\)", out)]
    if len(values) != len(fens):
        sys.exit(f"scale_fit: {len(values)} evaluations for {len(fens)} positions")
    return np.array(values)


def best_k(score: np.ndarray, result: np.ndarray) -> tuple[int, float]:
    """The k in 10..1500 with the least squared error against the results (0, 0.5, 1)."""
    best = (0, float("inf"))
    for k in range(10, 1501, 10):
        err = float(np.mean((1 / (1 + np.exp(-score / k)) - result) ** 2))
        if err < best[1]:
            best = (k, err)
    return best


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="build/maharajah")
    ap.add_argument("--data", nargs="+", required=True, help="record files, concatenated")
    ap.add_argument("--positions", type=int, default=4000, help="sample size (default 4000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    pos = nf.decode_records(nf.read_records(args.data))
    rng = np.random.default_rng(args.seed)
    idx = rng.choice(len(pos), min(args.positions, len(pos)), replace=False)
    fens = [nf.record_full_fen(pos, i) for i in idx]
    to_stm = np.where(pos.stm[idx] == 0, 1.0, -1.0)
    scores = {
        "eval nnue": engine_evals(args.engine, fens, "nnue") * to_stm,
        "eval classical": engine_evals(args.engine, fens, "classical") * to_stm,
        "record search score": pos.score[idx].astype(float),
    }
    result = pos.result_stm[idx]
    compound = nf.has_compound(pos)[idx]
    for name, mask in (("all", np.ones(len(idx), bool)), ("standard", ~compound), ("compound", compound)):
        n, c = scores["eval nnue"][mask], scores["eval classical"][mask]
        near = (np.abs(c) < 400) & (np.abs(n) < 800)  # the slope of the ordinary range, not of won games
        slope = float(np.sum(n[near] * c[near]) / np.sum(c[near] * c[near]))
        print(f"{name}: {int(mask.sum())} positions, eval nnue / eval classical slope {slope:.3f}")
        for label, s in scores.items():
            k, err = best_k(s[mask], result[mask])
            print(f"    {label:20s} best k {k:4d}  squared error {err:.5f}")


if __name__ == "__main__":
    main(sys.argv[1:])
