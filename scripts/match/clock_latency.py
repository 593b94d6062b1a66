#!/usr/bin/env python3
"""Whether every `go` on a short clock answers in time with many threads on a busy machine.

  scripts/match/clock_latency.py [ENGINE] [--threads 64] [--goes 30] [--games 3]
                                 [--load 2] [--go "go wtime 200 btime 200"] [--limit 250]

Starts --load background loads (each the engine's `bench` run again and again, so the
machine is as busy as in a match beside other work), then plays like a GUI: `uci`,
`setoption name Threads value N` and `isready` (its wait is reported), and --goes
searches split over --games games. Each game starts with `ucinewgame` and `isready`;
each search sends `position startpos moves ...` (the moves the engine has played so
far, both sides) and the `go` in one write, as a GUI does right after the opponent's
move. The latency of a search is from that write to the arrival of `bestmove`
(time.monotonic, stamped by the reader thread of scripts/common/uci.py), so any wait
for the previous search's threads at `position` or `go` is counted.

Prints every latency, then the median, the 99th percentile (nearest rank) and the
maximum, and how many exceeded --limit ms. Exit status 1 when any did or the engine
failed. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(ROOT / "scripts"))  # for common/
from common.uci import EngineDead, ReadTimeout, UciProcess  # noqa: E402


class Load:
    """`ENGINE bench` in a loop on a thread, until stopped."""

    def __init__(self, engine: str):
        self.engine = engine
        self.done = threading.Event()
        self.proc: subprocess.Popen | None = None
        self.runs = 0
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        while not self.done.is_set():
            self.proc = subprocess.Popen([self.engine, "bench"], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
            self.proc.wait()
            self.runs += 1

    def start(self):
        self.thread.start()

    def stop(self):
        self.done.set()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        self.thread.join(timeout=10)


def percentile(xs: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    s = sorted(xs)
    return s[max(0, math.ceil(p / 100.0 * len(s)) - 1)]


def main(argv=None) -> int:
    doc = __doc__ or ""
    p = argparse.ArgumentParser(prog="clock_latency.py", description=doc.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(doc.split("\n\n")[1:]))
    p.add_argument("engine", nargs="?", default=str(ROOT / "build" / "maharajah"),
                   help="engine binary (default build/maharajah)")
    p.add_argument("--threads", type=int, default=64, help="Threads (default 64)")
    p.add_argument("--goes", type=int, default=30, help="searches in all (default 30)")
    p.add_argument("--games", type=int, default=3, help="games they are split over (default 3)")
    p.add_argument("--load", type=int, default=2, help="background bench loops (default 2)")
    p.add_argument("--go", default="go wtime 200 btime 200", help="the go command (default: a 200 ms clock)")
    p.add_argument("--limit", type=float, default=250.0, help="ms a search may take (default 250)")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds without an answer that count as a hang")
    a = p.parse_args(sys.argv[1:] if argv is None else argv)
    if a.goes < 1 or a.games < 1 or a.threads < 1 or a.load < 0:
        p.error("--goes, --games and --threads need >= 1, --load >= 0")

    loads = [Load(a.engine) for _ in range(a.load)]
    for load in loads:
        load.start()
    time.sleep(1.0 if loads else 0.0)  # let the loads get going
    eng = UciProcess("engine", [a.engine])
    latencies: list[float] = []
    failed = ""
    try:
        eng.handshake({}, a.timeout)
        t0 = time.monotonic()
        errs = eng.errors(f"setoption name Threads value {a.threads}", timeout=a.timeout)
        if errs:
            raise SystemExit(f"clock_latency: Threads {a.threads} refused: {errs[0]}")
        print(f"Threads {a.threads} + isready: {(time.monotonic() - t0) * 1000:.0f} ms")
        per_game = math.ceil(a.goes / a.games)
        moves: list[str] = []
        for i in range(a.goes):
            if i % per_game == 0:
                moves = []
                t0 = time.monotonic()
                eng.ask("ucinewgame", timeout=a.timeout)
                print(f"game {i // per_game + 1}: ucinewgame + isready {(time.monotonic() - t0) * 1000:.0f} ms")
            position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
            t0 = time.monotonic()
            eng.send(f"{position}\n{a.go}")
            t_best, line = eng.wait_for(lambda s: s.startswith("bestmove"), a.timeout)
            ms = (t_best - t0) * 1000.0
            latencies.append(ms)
            best = line.split()
            print(f"  go {i + 1:>3}: {ms:7.1f} ms  {' '.join(best[:2])}")
            if len(best) < 2 or best[1] in ("(none)", "0000"):
                moves = []  # the game ended: start again from the start position
            else:
                moves.append(best[1])
    except (EngineDead, ReadTimeout) as e:
        failed = f"engine failed after {len(latencies)} searches: {e or type(e).__name__}"
    finally:
        eng.quit()
        for load in loads:
            load.stop()
    if latencies:
        over = [x for x in latencies if x > a.limit]
        print(f"{len(latencies)} searches '{a.go}', Threads {a.threads}, {a.load} bench loads: "
              f"median {statistics.median(latencies):.1f} ms, p99 {percentile(latencies, 99):.1f} ms, "
              f"max {max(latencies):.1f} ms; {len(over)} over {a.limit:g} ms")
    if failed:
        print(failed)
    return 1 if failed or not latencies or any(x > a.limit for x in latencies) else 0


if __name__ == "__main__":
    sys.exit(main())
