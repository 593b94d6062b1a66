#!/usr/bin/env python3
"""How fast the engine answers `stop`, and how well it keeps to its time, per Threads.

  scripts/match/stop_latency.py [ENGINE] [--threads 1,8,64] [--reps 30] [--seed 1]

For each thread count: `setoption name Threads value N`, then --reps times: a position
(alternately a standard middlegame FEN and a Maharajah army position, both checked with
the engine's referee commands first), `go infinite`, a random wait of 50-300 ms, `stop`;
the latency is from just before `stop` is written to the arrival of the `bestmove` line
(time.monotonic, stamped by a reader thread). Then --reps times each of
`go movetime 100`, `go wtime 200 btime 200` and `go depth 1`: the wall time from the
write of `go` to `bestmove`. One table of median and worst per thread count.

An engine that gives no bestmove within --timeout seconds (after stop, or after go) is
counted as a hang, killed and restarted. Exit status 1 when any hang or error happened.
Python standard library only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(ROOT / "scripts"))  # for common/
from common.uci import FOREVER, EngineDead, ReadTimeout, UciProcess  # noqa: E402
STANDARD_FEN = "r2q1rk1/pp1nbppp/2p1pn2/3p1b2/2PP4/1PN1PN2/PB3PPP/R2QKB1R w KQ - 1 9"
ARMIES = ("CABNKBAN/PPPPPPP1", "cabnkbar/p2ppp1p")  # from scripts/match/openings/maharajah.txt
POSITIONS = (f"position fen {STANDARD_FEN}", f"position army {ARMIES[0]} {ARMIES[1]}")
TIMED_GOS = ("go movetime 100", "go wtime 200 btime 200", "go depth 1")


class Hang(EngineDead):
    pass


class Engine(UciProcess):
    """The engine under test; every failure to answer (a timeout, an exit, a closed pipe)
    is a Hang."""

    def __init__(self, path: str, hash_mb: int):
        super().__init__("engine", [path])
        self.hash_mb = hash_mb
        self.threads = 1

    def start(self):
        super().start()
        self.handshake({"Hash": self.hash_mb}, 10)

    def send(self, text: str):
        try:
            super().send(text)
        except EngineDead as e:
            raise Hang(str(e)) from None

    def wait_for(self, want, timeout: float = FOREVER, collect=None):
        """(arrival time, line) of the first line satisfying want; Hang on timeout/EOF."""
        try:
            return super().wait_for(want, timeout, collect)
        except ReadTimeout:
            raise Hang(f"no answer within {timeout:g} s") from None
        except Hang:
            raise
        except EngineDead as e:
            raise Hang(f"engine {e}") from None

    def sync(self, timeout: float = 30) -> list[str]:
        """isready/readyok; returns the error lines seen on the way."""
        return self.errors(timeout=timeout)

    def set_threads(self, n: int):
        self.threads = n
        errs = self.errors(f"setoption name Threads value {n}")
        if errs:
            raise SystemExit(f"stop_latency: Threads {n} refused: {errs[0]}")

    def restart(self):
        self.kill()
        self.start()
        self.set_threads(self.threads)


def is_bestmove(s: str) -> bool:
    return s.startswith("bestmove")


def check_positions(eng: Engine):
    """The army pair must pass `army check`, and both positions must be accepted."""
    for color, army in zip(("white", "black"), ARMIES):
        eng.send(f"army check {color} {army}")
        _, ans = eng.wait_for(lambda s: s.startswith("army "), 10)
        if not ans.startswith("army ok"):
            raise SystemExit(f"stop_latency: {color} army {army}: {ans}")
    for pos in POSITIONS:
        eng.send(pos)
        errs = eng.sync()
        if errs:
            raise SystemExit(f"stop_latency: '{pos}' refused: {errs[0]}")


def measure(eng: Engine, n: int, reps: int, rng: random.Random, timeout: float, problems: list):
    res = {"stop": [], **{g: [] for g in TIMED_GOS}}
    eng.set_threads(n)

    def stop_once(i):
        eng.send("go infinite")
        time.sleep(rng.uniform(0.050, 0.300))
        t0 = time.monotonic()
        eng.send("stop")
        t, line = eng.wait_for(is_bestmove, timeout)
        if line.split()[1:2] in ([], ["(none)"], ["0000"]):
            problems.append(f"Threads {n}: '{line}' after stop")
        return (t - t0) * 1000.0

    def go_once(go):
        t0 = time.monotonic()
        eng.send(go)
        t, _ = eng.wait_for(is_bestmove, timeout)
        return (t - t0) * 1000.0

    jobs = [("stop", stop_once)] + [(go, lambda i, go=go: go_once(go)) for go in TIMED_GOS]
    for key, fn in jobs:
        for i in range(reps):
            try:
                eng.send(POSITIONS[i % 2])
                eng.sync(timeout)
                res[key].append(fn(i))
            except Hang as e:
                problems.append(f"Threads {n}: '{key}' #{i + 1}: {e}; engine killed and restarted")
                res[key].append(float("inf"))
                eng.restart()
    return res


def cell(xs, width):
    if not xs:
        return f"{'-':>{width}}"
    return f"{statistics.median(xs):8.1f} {max(xs):8.1f}".rjust(width)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="stop_latency.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("engine", nargs="?", default=str(ROOT / "build" / "maharajah"),
                   help="engine binary (default build/maharajah)")
    p.add_argument("--threads", default="1,8,64", help="comma-separated Threads values (default 1,8,64)")
    p.add_argument("--reps", type=int, default=30, help="repetitions of each measurement (default 30)")
    p.add_argument("--hash", type=int, default=16, help="Hash in MB (default 16)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random waits (default 1)")
    p.add_argument("--timeout", type=float, default=10.0,
                   help="seconds without bestmove that count as a hang (default 10)")
    a = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        threads = [int(x) for x in a.threads.split(",") if x.strip()]
    except ValueError:
        p.error("--threads takes comma-separated integers")
    if not threads or a.reps < 1:
        p.error("need at least one thread count and --reps >= 1")
    rng = random.Random(a.seed)
    eng = Engine(a.engine, a.hash)
    problems: list[str] = []
    rows = []
    try:
        try:
            eng.start()
        except (OSError, EngineDead) as e:
            raise SystemExit(f"stop_latency: {a.engine} does not start as a UCI engine: {e}")
        try:
            check_positions(eng)
        except Hang as e:
            raise SystemExit(f"stop_latency: {a.engine} does not answer the referee commands: {e}")
        for n in threads:
            t0 = time.monotonic()
            rows.append((n, measure(eng, n, a.reps, rng, a.timeout, problems)))
            print(f"Threads {n}: done in {time.monotonic() - t0:.1f} s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("interrupted; the rows measured so far:", file=sys.stderr)
    finally:
        eng.quit()
    print(f"engine {a.engine}, Hash {a.hash}, {a.reps} reps per cell, times in ms "
          "(median, worst)")
    print("stop: from writing 'stop' after 'go infinite' (50-300 ms) to 'bestmove'; the others "
          "from writing 'go' to 'bestmove'")
    heads = ["stop"] + [g[len("go "):] for g in TIMED_GOS]
    widths = [max(17, len(h)) for h in heads]
    line1 = f"{'Threads':>7} " + "  ".join(f"{h:>{w}}" for h, w in zip(heads, widths))
    line2 = f"{'':>7} " + "  ".join(f"{'median':>8} {'worst':>8}".rjust(w) for w in widths)
    print(line1)
    print(line2)
    print("-" * len(line2))
    for n, res in rows:
        print(f"{n:>7} " + "  ".join(cell(res[k], w) for k, w in zip(["stop", *TIMED_GOS], widths)))
    for pr in problems:
        print("problem: " + pr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
