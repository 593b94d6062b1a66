#!/usr/bin/python3
"""Scores .nnue nets on training-data records, with the engine's own integer evaluation
(nnue_format.evaluate_int): the trainer's loss, overall and apart for positions with and
without a compound piece, and the mean distance to the records' search scores.

  /usr/bin/python3 scripts/nnue/score.py --nets gen3.nnue gen5.nnue \\
      --data scripts/nnue/data/heldout-seed502.data

To compare nets fairly, give it records that none of them was trained on: a file of a
datagen seed kept out of every training run. (A trainer's own validation split is fair
only to the net it trained; a fine-tuned net's split overlaps its parent's training data.)

Needs numpy only.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import nnue_format as nf  # noqa: E402


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nets", nargs="+", required=True, help=".nnue files to score")
    ap.add_argument("--data", nargs="+", required=True, help="record files, concatenated")
    ap.add_argument("--max-positions", type=int, default=None, help="use only the first N records")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75,
                    help="weight of the search score against the game result (default 0.75, as train.py)")
    ap.add_argument("--exponent", type=float, default=2.0, help="loss exponent (default 2, as train.py)")
    args = ap.parse_args(argv)
    if not 0 <= args.lam <= 1:
        ap.error("--lambda must be between 0 and 1")
    return args


def score_net(net: nf.QuantisedNet, pos: nf.Positions, target, compound, exponent) -> dict:
    cp = nf.evaluate_int(net, pos)
    loss = nf.position_loss(cp, target, exponent)
    mean = lambda a, mask: float(a[mask].mean()) if mask.any() else float("nan")  # noqa: E731
    dist = np.abs(cp - pos.score.astype(np.int64)).astype(np.float64)
    return {
        "loss": float(loss.mean()),
        "compounds": mean(loss, compound),
        "none": mean(loss, ~compound),
        "cp": float(dist.mean()),
    }


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        nets = [nf.read_net(path) for path in args.nets]
        pos = nf.decode_records(nf.read_records(args.data, args.max_positions))
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if len(pos) == 0:
        print("error: no records in the data", file=sys.stderr)
        return 1
    target = nf.targets(pos, args.lam)
    compound = nf.has_compound(pos)
    print(f"{len(pos)} positions ({int(compound.sum())} with a compound piece); "
          f"lambda {args.lam:g}, exponent {args.exponent:g}")
    print(f"{'net':40s} {'hash':16s} {'loss':>9s} {'compounds':>9s} {'none':>9s} {'|eval-score| cp':>15s}")
    for path, net in zip(args.nets, nets):
        r = score_net(net, pos, target, compound, args.exponent)
        print(f"{os.path.basename(path):40s} {net.hash():016x} {r['loss']:9.6f} {r['compounds']:9.6f} "
              f"{r['none']:9.6f} {r['cp']:15.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
