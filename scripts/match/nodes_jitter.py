#!/usr/bin/env python3
"""A UCI pass-through that varies fixed-node searches: every `go ... nodes N ...` from the
GUI reaches the engine as `nodes M`, M drawn uniformly from N*(1-J) .. N*(1+J).

Why: at fixed nodes an engine with Threads 1 is deterministic, so an opening played twice
with the same colours gives the same game; the match tools (fastchess) have no such option.
Everything else passes unchanged, both ways, line by line.

  nodes_jitter.py [--jitter 0.1] [--seed S] -- ENGINE [ARGS...]

Python 3 standard library only.
"""

import argparse
import random
import subprocess
import sys
import threading


def jittered(line, rng, jitter):
    """The line with the number after `nodes` in a `go` command replaced; other lines as is."""
    t = line.split()
    if not t or t[0] != "go" or "nodes" not in t[:-1]:
        return line
    i = t.index("nodes") + 1
    try:
        n = int(t[i])
    except ValueError:
        return line  # let the engine report the bad number
    lo, hi = max(1, round(n * (1 - jitter))), max(1, round(n * (1 + jitter)))
    t[i] = str(rng.randint(lo, hi))
    return " ".join(t)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jitter", type=float, default=0.1, help="relative spread (default 0.1)")
    ap.add_argument("--seed", type=int, help="random seed (default: from the OS)")
    ap.add_argument("engine", nargs=argparse.REMAINDER, help="-- ENGINE [ARGS...]")
    ns = ap.parse_args()
    argv = ns.engine[1:] if ns.engine[:1] == ["--"] else ns.engine
    if not argv or not 0 <= ns.jitter < 1:
        ap.error("give the engine after --, and a jitter in [0, 1)")
    rng = random.Random(ns.seed)
    eng = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                           bufsize=1)

    def pump_out():
        for line in eng.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    out = threading.Thread(target=pump_out, daemon=True)
    out.start()
    try:
        for line in sys.stdin:
            eng.stdin.write(jittered(line.rstrip("\n"), rng, ns.jitter) + "\n")
            eng.stdin.flush()
            if line.strip() == "quit":
                break
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    try:
        eng.stdin.close()
    except BrokenPipeError:
        pass
    rc = eng.wait()
    out.join(timeout=5)
    sys.exit(rc)


if __name__ == "__main__":
    main()
