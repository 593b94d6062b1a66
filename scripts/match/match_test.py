#!/usr/bin/env python3
"""Self-test of scripts/match/match.py (standard library only): statistics, arguments,
openings, PGN, and end-to-end matches with Stockfish and deliberately broken engines.

  python3 scripts/match/match_test.py            # all tests (well under a minute)
  python3 scripts/match/match_test.py -v Stats   # one group

The end-to-end tests use the real Maharajah referee when a built engine answers the
`moves` command (build/maharajah, /tmp/mbuild/maharajah or $MAHARAJAH_REFEREE), else a
fake referee implemented below on top of Stockfish's `d` and `go perft 1` (standard
chess only; MATCH_TEST_FAKE_REFEREE=1 forces it). They are skipped when
/usr/games/stockfish is missing.

This file doubles as the fake programs it needs:
  match_test.py --fake-referee      the referee protocol over Stockfish
  match_test.py --fake-engine MODE  a broken UCI engine: illegal | nomove | crash | hang |
                                    hang2 | late | hangready
"""

from __future__ import annotations

import io
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # scripts/, for common/
import match  # noqa: E402
import match_stats  # noqa: E402
from common.uci import UciProcess  # noqa: E402

STOCKFISH = "/usr/games/stockfish"
STARTFEN = match.STARTFEN


# --------------------------------------------------------------------------------------
# Fake referee: the referee protocol for standard chess, Stockfish as the move generator
# --------------------------------------------------------------------------------------

class _Sf:
    def __init__(self):
        self.p = UciProcess("stockfish", [STOCKFISH])
        self.p.start()
        self.p.wait_for(lambda line: True, 10)  # banner

    def analyse(self, fen, moves):
        """(fen after the moves, in check?, sorted legal moves)."""
        out = []
        self.p.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "") + "\nd")
        self.p.wait_for(lambda line: line.startswith("Checkers:"), 10, out.append)
        out_fen = next((line[5:].strip() for line in out if line.startswith("Fen: ")), None)
        check = bool(out[-1][len("Checkers:"):].strip())
        out = []
        self.p.send("go perft 1")
        self.p.wait_for(lambda line: line.startswith("Nodes searched"), 10, out.append)
        legal = [line.split(":")[0].strip() for line in out[:-1] if ":" in line]
        return out_fen, check, sorted(legal)


def _army_fen(white, black):
    rows = {}
    for i, r in enumerate(white.split("/")):
        rows[1 + i] = r
    for i, r in enumerate(black.split("/")):
        rows[8 - i] = r

    def full(r):
        n = sum(int(c) if c.isdigit() else 1 for c in r)
        return r + (str(8 - n) if n < 8 else "")
    board = "/".join(full(rows.get(rank, "8")) if rows.get(rank) else "8" for rank in range(8, 0, -1))
    b = board.split("/")
    castle = ("KQ" if b[7] == "RNBQKBNR" else "") + ("kq" if b[0] == "rnbqkbnr" else "")
    return f"{board} w {castle or '-'} - 0 1"


def _insufficient(board, color):
    """True if color (w/b) has no mating material."""
    pieces = [c for c in board if c.isalpha() and (c.isupper() == (color == "w"))]
    others = [c.lower() for c in pieces if c.lower() != "k"]
    if not others:
        return True
    if len(others) == 1 and others[0] in "bn":
        return True
    if all(o == "b" for o in others):
        colours = set()
        for r, row in enumerate(board.split("/")):
            f = 0
            for c in row:
                if c.isdigit():
                    f += int(c)
                    continue
                if c.lower() == "b" and (c.isupper() == (color == "w")):
                    colours.add((r + f) % 2)
                f += 1
        return len(colours) == 1
    return False


def fake_referee():
    sf = _Sf()
    base, moves, states = STARTFEN, [], [sf.analyse(STARTFEN, [])]

    def out(s):
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        tok = raw.split()
        if not tok:
            continue
        cmd = tok[0]
        if cmd == "quit":
            break
        if cmd == "isready":
            out("readyok")
        elif cmd == "uci":
            out("id name FakeReferee")
            out("uciok")
        elif cmd == "position":
            rest = tok[1:]
            mv = []
            if "moves" in rest:
                i = rest.index("moves")
                rest, mv = rest[:i], rest[i + 1:]
            if rest[:1] == ["startpos"]:
                nb = STARTFEN
            elif rest[:1] == ["fen"] and len(rest) >= 7:
                nb = " ".join(rest[1:7])
            elif rest[:1] == ["army"] and len(rest) == 3:
                nb = _army_fen(rest[1], rest[2])
            else:
                out("info string error: position: bad arguments")
                continue
            board = nb.split()[0]
            if board.count("K") != 1 or board.count("k") != 1 or board.count("/") != 7 \
                    or re.search(r"[MACmac]", board):
                out("info string error: position: bad FEN (fake referee: standard chess only)")
                continue
            if nb == base and mv[:len(moves)] == moves:
                new_states = states[:]
                start = len(moves)
            else:
                new_states = [sf.analyse(nb, [])]
                start = 0
            ok = True
            for i in range(start, len(mv)):
                if mv[i] not in new_states[-1][2]:
                    out(f"info string error: position: illegal move '{mv[i]}' (move {i + 1} of the list)")
                    ok = False
                    break
                new_states.append(sf.analyse(nb, mv[:i + 1]))
            if ok:
                base, moves, states = nb, mv, new_states
        elif cmd == "fen":
            out("fen " + states[-1][0])
        elif cmd == "moves":
            out(" ".join(["moves"] + states[-1][2]))
        elif cmd == "status":
            fen, check, legal = states[-1]
            f = fen.split()
            key = " ".join(f[:4])
            reps = sum(1 for s in states if " ".join(s[0].split()[:4]) == key)
            half = int(f[4])
            if not legal:
                out("status checkmate" if check else "status stalemate")
            elif _insufficient(f[0], "w") and _insufficient(f[0], "b"):
                out("status draw insufficient")
            elif reps >= 5:
                out("status draw fivefold")
            elif half >= 150:
                out("status draw seventyfive")
            elif reps >= 3:
                out("status ongoing claim threefold")
            elif half >= 100:
                out("status ongoing claim fifty")
            else:
                out("status ongoing")
        elif cmd == "flag" and len(tok) == 2 and tok[1] in ("white", "black"):
            c = tok[1][0]
            first_side = base.split()[1]
            moved = len(moves) >= (1 if first_side == c else 2)
            board = states[-1][0].split()[0]
            if not moved:
                out("result aborted")
            elif _insufficient(board, "b" if c == "w" else "w"):
                out("result 1/2-1/2 time")
            else:
                out("result 0-1 time" if c == "w" else "result 1-0 time")
        else:
            out(f"info string error: unknown command '{cmd}'")


def random_engine(referee, seed):
    """Plays uniformly random legal moves, asking the Maharajah binary for them (so it
    plays the variant too)."""
    import random
    rng = random.Random(seed)
    ref = UciProcess("referee", [referee])
    ref.start()
    position = "position startpos"
    for raw in sys.stdin:
        tok = raw.split()
        if not tok:
            continue
        if tok[0] == "uci":
            print("id name Random\nuciok", flush=True)
        elif tok[0] == "isready":
            print("readyok", flush=True)
        elif tok[0] == "position":
            position = raw.strip()
        elif tok[0] == "go":
            line = (ref.one(position + "\nmoves", "moves") or "moves").split()
            print("bestmove " + (rng.choice(line[1:]) if len(line) > 1 else "0000"), flush=True)
        elif tok[0] == "quit":
            break
    ref.kill()


def fake_engine(mode):
    """hang: never answers go; hang2: one move, then hangs; late: one move, then the second
    move LATE_MS after its clock ran out; hangready: answers the first isready only."""
    white_to_move, moved, readies, plies = True, False, 0, 0
    for raw in sys.stdin:
        tok = raw.split()
        if not tok:
            continue
        if tok[0] == "uci":
            print(f"id name Fake-{mode}\nuciok", flush=True)
        elif tok[0] == "isready":
            readies += 1
            if mode != "hangready" or readies == 1:
                print("readyok", flush=True)
        elif tok[0] == "ucinewgame":
            moved = False
        elif tok[0] == "quit":
            return
        elif tok[0] == "position":
            white_to_move = "moves" not in tok
            plies = len(tok) - tok.index("moves") - 1 if "moves" in tok else 0
        elif tok[0] == "go":
            if mode == "late":  # from the start position: Nf3/Nf6, then back, late
                white = plies % 2 == 0
                if plies >= 2:
                    clock = int(tok[tok.index("wtime" if white else "btime") + 1])
                    time.sleep((clock + LATE_MS) / 1000.0)
                print("bestmove " + [["g1f3", "f3g1"], ["g8f6", "f6g8"]][not white][plies >= 2],
                      flush=True)
                continue
            if mode == "hang2" and not moved:  # one legal move from the start position, then hang
                print("bestmove " + ("g1f3" if white_to_move else "g8f6"), flush=True)
                moved = True
                continue
            if mode == "crash":
                os._exit(3)
            if mode in ("hang", "hang2"):
                continue
            print("info depth 1 score cp 12", flush=True)
            print("bestmove h1h8" if mode == "illegal" else "bestmove (none)", flush=True)


LATE_MS = 250  # the "late" fake engine's second move comes this long after its flag fell


if __name__ == "__main__" and len(sys.argv) >= 2 and sys.argv[1] == "--fake-referee":
    fake_referee()
    sys.exit(0)
if __name__ == "__main__" and len(sys.argv) >= 4 and sys.argv[1:3] == ["--fake-engine", "random"]:
    random_engine(sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else None)
    sys.exit(0)
if __name__ == "__main__" and len(sys.argv) >= 3 and sys.argv[1] == "--fake-engine":
    fake_engine(sys.argv[2])
    sys.exit(0)


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------

def _supports_moves(path):
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        return False
    try:
        r = subprocess.run([path], input="position startpos\nmoves\nstatus\nfen\nquit\n",
                           capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    lines = r.stdout.split("\n")
    return (any(ln.startswith("moves e2e4") or ln.startswith("moves a2a3") for ln in lines)
            and "status ongoing" in lines)


TMP = tempfile.mkdtemp(prefix="match_test_")


def _wrapper(name, args):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\nexec {sys.executable} {HERE / 'match_test.py'} {args}\n")
    os.chmod(path, 0o755)
    return path


def real_referee():
    if os.environ.get("MATCH_TEST_FAKE_REFEREE"):
        return None
    cands = [os.environ.get("MAHARAJAH_REFEREE", ""), str(HERE.parent.parent / "build" / "maharajah"),
             "/tmp/mbuild/maharajah"]
    for c in cands:
        if c and _supports_moves(c):
            return c
    return None


REAL_REFEREE = real_referee()
FAKE_REFEREE = _wrapper("fake-referee", "--fake-referee")
REFEREE = REAL_REFEREE or FAKE_REFEREE
HAVE_SF = os.access(STOCKFISH, os.X_OK)


def run_match(*args, timeout=60):
    cmd = [sys.executable, str(HERE / "match.py"), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


# --------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------

class Stats(unittest.TestCase):
    def test_elo_from_score(self):
        self.assertAlmostEqual(match_stats.elo_from_score(0.5), 0.0)
        self.assertAlmostEqual(match_stats.elo_from_score(0.6), 70.44, places=2)
        self.assertAlmostEqual(match_stats.elo_from_score(0.4), -70.44, places=2)
        self.assertEqual(match_stats.elo_from_score(1.0), math.inf)
        self.assertAlmostEqual(match_stats.score_from_elo(match_stats.elo_from_score(0.73)), 0.73)

    def test_pentanomial_60_percent(self):
        est = match.pentanomial([0, 2, 4, 2, 2])  # mean pair score 1.2 of 2 = 60 %
        self.assertAlmostEqual(est.score, 0.6)
        self.assertAlmostEqual(est.elo, 70.44, places=1)
        self.assertEqual(est.samples, 10)
        self.assertGreater(est.los, 0.5)
        # 95 % interval: variance 0.065 per pair, se = sqrt(0.075/10)
        se = math.sqrt(0.065 / 10)
        want = (match_stats.elo_from_score(0.6 + 1.96 * se) - match_stats.elo_from_score(0.6 - 1.96 * se)) / 2
        self.assertAlmostEqual(est.error, want, delta=0.2)

    def test_error_shrinks_with_n(self):
        small = match.pentanomial([1, 2, 4, 2, 1])
        big = match.pentanomial([100, 200, 400, 200, 100])
        self.assertAlmostEqual(small.elo, 0.0)
        self.assertLess(big.error, small.error / 5)
        t_small, t_big = match.trinomial(6, 4, 2), match.trinomial(600, 400, 200)
        self.assertAlmostEqual(t_small.elo, t_big.elo)
        self.assertLess(t_big.error, t_small.error / 5)

    def test_trinomial(self):
        est = match.trinomial(60, 40, 0)
        self.assertAlmostEqual(est.elo, 70.44, places=1)
        self.assertAlmostEqual(est.los, 0.5 * (1 + math.erf(0.1 / math.sqrt(0.24 / 100) / math.sqrt(2))))
        self.assertEqual(match.trinomial(5, 0, 0).error, math.inf)
        self.assertEqual(match.trinomial(0, 0, 0).samples, 0)

    def test_sprt(self):
        lo, hi = match.sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(lo, -2.944, places=3)
        self.assertAlmostEqual(hi, 2.944, places=3)
        strong = match.sprt_llr([10, 20, 40, 30, 20], 0, 5)  # clearly better than +5
        weak = match.sprt_llr([30, 30, 40, 20, 10], 0, 5)  # worse than 0
        self.assertGreater(strong, 0)
        self.assertLess(weak, 0)
        self.assertGreater(match.sprt_llr([100, 200, 400, 300, 200], 0, 5), strong)
        # Trinomial by hand: mean, variance and the normal-model LLR.
        w, l, d = 120, 80, 100
        n = w + l + d
        m = (w + d / 2) / n
        v = (w * (1 - m) ** 2 + l * m ** 2 + d * (0.5 - m) ** 2) / n
        s0, s1 = 0.5, match_stats.score_from_elo(10)
        self.assertAlmostEqual(match.sprt_llr([l, d, w], 0, 10),
                               n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v))
        for model in ("logistic", "normalized"):
            self.assertGreater(match.sprt_llr([5, 20, 40, 30, 25], 0, 5, model), 0, model)
            self.assertLess(match.sprt_llr([25, 30, 40, 20, 5], 0, 5, model), 0, model)
        self.assertEqual(match.sprt_llr([0, 0, 0], 0, 5), 0.0)
        self.assertTrue(math.isfinite(match.sprt_llr([0, 0, 7, 0, 0], 0, 5)))
        # Few pairs give a variance too small to trust: that sample's LLR passes the
        # H0 bound, so the SPRT must not stop on it; with enough pairs it may.
        few = [0, 0, 3, 1, 0]
        self.assertLess(match.sprt_llr(few, 50, 150), lo)
        self.assertFalse(match.sprt_may_stop(few))
        self.assertFalse(match.sprt_may_stop([0, 0, 25, 0, 0]))  # one outcome only
        self.assertFalse(match.sprt_may_stop([5, 5, 9, 0, 0]))   # 19 pairs
        self.assertTrue(match.sprt_may_stop([5, 5, 10, 0, 0]))
        self.assertFalse(match.sprt_may_stop([10, 10, 19]))      # 39 games
        self.assertTrue(match.sprt_may_stop([10, 10, 20]))


class Args(unittest.TestCase):
    def test_engine_spec(self):
        s = match.parse_engine_spec(["name=SF", f"cmd={sys.executable}", "arg=-u", "arg=x",
                                     "option.Hash=16", "option.Skill Level=0", "option.Hash=32"],
                                    each=["option.Threads=1"])
        self.assertEqual(s.name, "SF")
        self.assertEqual(s.args, ["-u", "x"])
        self.assertEqual(s.options, [("Threads", "1"), ("Skill Level", "0"), ("Hash", "32")])
        self.assertEqual(match.parse_engine_spec(["cmd=sh"]).cmd, shutil.which("sh"))
        self.assertIsNone(s.nodes)
        self.assertEqual(match.parse_engine_spec(["cmd=sh", "nodes=5000"]).nodes, 5000)
        for bad in (["name=x"], ["cmd=/no/such/engine"], ["cmd=sh", "foo=1"], ["cmd=sh", "plain"],
                    ["cmd=sh", "nodes=0"], ["cmd=sh", "nodes=-5"], ["cmd=sh", "nodes=1e4"]):
            with self.assertRaises(match.UsageError, msg=bad):
                match.parse_engine_spec(bad)

    def test_tc_and_sprt(self):
        self.assertEqual(match.parse_tc("10+0.1"), (10.0, 0.1))
        self.assertEqual(match.parse_tc("1+0.01"), (1.0, 0.01))
        self.assertEqual(match.parse_tc("60"), (60.0, 0.0))
        self.assertEqual(match.tc_tag(10, 0.1), "10+0.1")
        self.assertEqual(match.tc_tag(60, 0), "60")
        for bad in ("", "10+", "a+b", "0+1", "-1+0"):
            with self.assertRaises(match.UsageError, msg=bad):
                match.parse_tc(bad)
        sp = match.parse_sprt(["elo0=0", "elo1=5", "alpha=0.05", "beta=0.1"])
        self.assertEqual((sp.elo0, sp.elo1, sp.alpha, sp.beta, sp.model), (0, 5, 0.05, 0.1, "logistic"))
        for bad in (["elo0=0"], ["elo0=5", "elo1=0"], ["elo0=0", "elo1=5", "x=1"],
                    ["elo0=0", "elo1=5", "alpha=2"], ["elo0=0", "elo1=5", "model=bayes"]):
            with self.assertRaises(match.UsageError, msg=bad):
                match.parse_sprt(bad)

    def test_parse_args(self):
        sh = shutil.which("sh")
        cfg = match.parse_args(["--engine", "name=a", f"cmd={sh}", "--engine", f"cmd={sh}",
                                "--tc", "1+0.01", "--games", "5", "--concurrency", "2",
                                "--referee", sh, "--timemargin", "20", "--sprt", "elo0=0", "elo1=5"])
        self.assertEqual((cfg.base, cfg.inc, cfg.games, cfg.concurrency, cfg.timemargin_ms),
                         (1.0, 0.01, 5, 2, 20))
        self.assertEqual([e.name for e in cfg.engines], ["a", "sh"])
        self.assertEqual(cfg.openings[0].fen, STARTFEN)
        self.assertEqual(match.parse_args(["--engine", f"cmd={sh}", "--engine", f"cmd={sh}",
                                           "--referee", sh, "--sprt", "elo0=0", "elo1=5"]).games, 100000)

    def test_bad_arguments_exit_nonzero_one_line(self):
        sh = shutil.which("sh")
        cases = [
            ["--engine", f"cmd={sh}"],
            ["--engine", f"cmd={sh}", "--engine", f"cmd={sh}", "--tc", "fast", "--referee", sh],
            ["--engine", f"cmd={sh}", "--engine", f"cmd={sh}", "--games", "0", "--referee", sh],
            ["--engine", f"cmd={sh}", "--engine", f"cmd={sh}", "--referee", "/no/such/referee"],
            ["--engine", f"cmd={sh}", "--engine", f"cmd={sh}", "--referee", sh, "--bogus"],
            ["--engine", f"cmd={sh}", "--engine", f"cmd={sh}", "--referee", sh,
             "--openings", "/no/such/file"],
        ]
        for args in cases:
            r = run_match(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertEqual(r.stdout, "", args)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, (args, r.stderr))
            self.assertTrue(r.stderr.startswith("match.py: error: "), r.stderr)

    def test_help_documents_every_flag(self):
        r = run_match("--help")
        self.assertEqual(r.returncode, 0)
        for flag in ("--engine", "--each", "--tc", "--timemargin", "--games", "--openings",
                     "--random-order", "--seed", "--concurrency", "--referee", "--maxmoves",
                     "--pgn", "--report-every", "--sprt", "--strict", "--debug", "option.NAME",
                     "--hang-timeout", "--json"):
            self.assertIn(flag, r.stdout)


class Openings(unittest.TestCase):
    TEXT = """# comment line

rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -
startpos moves e2e4 e7e5 g1f3
startpos
fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves d2d4
position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1
army RNBQKBNR/PPPPPPPP rnbqkbnr/pppppppp
army MRCKARNP/PP mrckarnp/pp moves a2a4
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id "epd";
"""

    def test_all_formats(self):
        ops = match.parse_openings_text(self.TEXT, "t")
        self.assertEqual(len(ops), 9)
        self.assertEqual([o.line for o in ops], [3, 4, 5, 6, 7, 8, 9, 10, 11])
        self.assertEqual(ops[0].kind, "fen")
        self.assertEqual(ops[0].fen.split()[1], "b")
        self.assertEqual(len(ops[1].fen.split()), 8)
        self.assertEqual((ops[2].fen, ops[2].moves), (STARTFEN, ["e2e4", "e7e5", "g1f3"]))
        self.assertEqual((ops[3].fen, ops[3].moves), (STARTFEN, []))
        self.assertEqual(ops[4].moves, ["d2d4"])
        self.assertEqual(ops[5].fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        self.assertEqual((ops[6].kind, ops[6].armies), ("army", ("RNBQKBNR/PPPPPPPP", "rnbqkbnr/pppppppp")))
        self.assertEqual((ops[7].armies, ops[7].moves), (("MRCKARNP/PP", "mrckarnp/pp"), ["a2a4"]))
        self.assertEqual(ops[8].fen, STARTFEN.replace(" 0 1", "") + " 0 1")

    def test_errors_name_the_line(self):
        for bad in ("startpos moves e2e9", "army RNBQKBNR", "hello world", "fen 8/8/8 w - - 0 1",
                    "startpos e2e4", "army XYZ/PP rnbqkbnr/pppppppp"):
            with self.assertRaises(match.UsageError) as cm:
                match.parse_openings_text("# x\n" + bad + "\n", "book.txt")
            self.assertIn("book.txt:2", str(cm.exception))
        with self.assertRaises(match.UsageError):
            match.parse_openings_text("# only comments\n\n", "empty")

    def test_schedule(self):
        self.assertEqual(match.opening_schedule(3, 7, False, None), [0, 1, 2, 0, 1, 2, 0])
        a = match.opening_schedule(5, 10, True, 42)
        self.assertEqual(a, match.opening_schedule(5, 10, True, 42))
        self.assertEqual(sorted(a[:5]), list(range(5)))
        self.assertEqual(sorted(a[5:]), list(range(5)))

    def test_referee_resolves_openings(self):
        ref = match.Referee(REFEREE, False)
        try:
            ops = match.parse_openings_text(
                "startpos moves e2e4 e7e5\narmy RNBQKBNR/PPPPPPPP rnbqkbnr/pppppppp\n"
                "fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4\n", "t")
            for op in ops:
                match.resolve_opening(ref, op, "t")
            self.assertEqual(ops[0].root_fen, STARTFEN)
            self.assertEqual(ops[1].root_fen, STARTFEN)
            self.assertEqual(ops[2].root_fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
            for bad in ("startpos moves e2e5", "fen 8/8/8/8/8/8/8/8 w - - 0 1"):
                op = match.parse_opening_line(bad, "t")
                with self.assertRaises(match.UsageError, msg=bad):
                    match.resolve_opening(ref, op, "t")
            if REAL_REFEREE:  # compound pieces only the real referee knows
                op = match.parse_opening_line("army RNBMKCAP rnbmkcap moves g1f3", "t")
                match.resolve_opening(ref, op, "t")
                self.assertTrue(op.root_fen.startswith("rnbmkcap/8/8/8/8/8/8/RNBMKCAP w "), op.root_fen)
                self.assertTrue(match.is_variant_fen(op.root_fen, op))
                for bad in ("army RNBMKCAP rnbmkcapp", "army RNBQKBNR/PPPPPPPP rnbqkbnr/ppppppp1"):
                    op = match.parse_opening_line(bad, "t")  # 40 and 38 points
                    with self.assertRaises(match.UsageError, msg=bad):
                        match.resolve_opening(ref, op, "t")
        finally:
            ref.quit()


class Pgn(unittest.TestCase):
    def test_pgn_text(self):
        sh = shutil.which("sh")
        cfg = match.parse_args(["--engine", "name=A", f"cmd={sh}", "--engine", "name=B", f"cmd={sh}",
                                "--referee", sh, "--tc", "10+0.1"])
        op = match.Opening("fen", 3, "fen x", fen="4k3/8/8/8/8/8/4P3/4K3 b - - 0 7", moves=["e8d8"])
        op.root_fen = op.fen
        rec = match.GameRecord(match.GameJob(4, 1, False, op), "B", "A", "0-1", "time forfeit",
                               "white (B) loses on time", "White loses on time",
                               [("e8d8", "book"), ("e2e4", "+0.50/9 0.101s"), ("d8e7", None)],
                               1, op.root_fen, False, [("B", "time")], date="2024.01.02")
        text = match.pgn_text(rec, cfg)
        for tag in ('[Event "Maharajah match"]', '[Site "?"]', '[Date "2024.01.02"]', '[Round "4"]',
                    '[White "B"]', '[Black "A"]', '[Result "0-1"]',
                    '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"]', '[SetUp "1"]',
                    '[TimeControl "10+0.1"]', '[Termination "time forfeit"]'):
            self.assertIn(tag, text)
        self.assertNotIn("Variant", text)
        self.assertIn("7... e8d8 {book} 8. e2e4 {+0.50/9 0.101s} 8... d8e7 {White loses on time} 0-1", text)
        rec.variant = True
        self.assertIn('[Variant "maharajah"]', match.pgn_text(rec, cfg))


def _games(out):
    return re.findall(r"^game (\d+): (.+) vs (.+) (1-0|0-1|1/2-1/2|\*) \((.+)\)$", out, re.M)


def _pgn_games(path):
    text = Path(path).read_text()
    return text, re.findall(r'\[Result "([^"]+)"\]', text)


@unittest.skipUnless(HAVE_SF, "needs /usr/games/stockfish")
class EndToEnd(unittest.TestCase):
    def test_stockfish_pair(self):
        book = os.path.join(TMP, "book.txt")
        Path(book).write_text("# two openings\nstartpos moves e2e4 e7e5\n"
                              "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n")
        pgn = os.path.join(TMP, "sf.pgn")
        r = run_match("--engine", "name=SF", f"cmd={STOCKFISH}", "option.Hash=16",
                      "--engine", "name=SF-skill0", f"cmd={STOCKFISH}", "option.Hash=16",
                      "option.Skill Level=0", "--each", "option.Threads=1",
                      "--tc", "0.5+0.01", "--games", "4", "--concurrency", "2", "--maxmoves", "160",
                      # A wide margin: on a loaded machine Stockfish really overruns a 0.5 s
                      # clock; the test is about the runner's report, not the machine's speed.
                      "--timemargin", "3000",
                      "--openings", book, "--pgn", pgn, "--referee", REFEREE, "--report-every", "2",
                      "--sprt", "elo0=0", "elo1=5", "--strict")
        msg = f"referee {REFEREE}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
        self.assertEqual(r.returncode, 0, msg)
        games = _games(r.stdout)
        self.assertEqual(sorted(int(g[0]) for g in games), [1, 2, 3, 4], msg)
        for num, white, black, _, _ in games:
            self.assertEqual((white, black), ("SF", "SF-skill0") if int(num) % 2 else ("SF-skill0", "SF"))
        self.assertRegex(r.stdout, r"Score of SF vs SF-skill0: \d+ - \d+ - \d+  \[\d\.\d{3}\] 4")
        self.assertRegex(r.stdout, r"Elo difference: [-+](\d+\.\d|inf) \+/- (\d+\.\d|inf) \(95%, 2 game pairs")
        self.assertRegex(r.stdout, r"LOS: \d+\.\d %")
        self.assertRegex(r.stdout, r"SPRT \(logistic elo0=0 elo1=5 alpha=0.05 beta=0.05\): LLR -?\d")
        self.assertIn("Illegal moves: SF 0, SF-skill0 0", r.stdout)
        self.assertIn("Time losses: SF 0, SF-skill0 0", r.stdout)
        self.assertIn("Crashes/disconnects: SF 0, SF-skill0 0", r.stdout)
        self.assertIn("Hangs: SF 0, SF-skill0 0", r.stdout)
        self.assertIn("CLEAN: zero illegal moves, zero time losses, zero crashes, zero hangs", r.stdout)
        self.assertGreaterEqual(r.stdout.count("Score of"), 2, msg)  # --report-every 2 + final
        text, results = _pgn_games(pgn)
        self.assertTrue(text.startswith("% "))
        self.assertEqual(sorted(results), sorted(g[3] for g in games))
        self.assertEqual(text.count('[TimeControl "0.5+0.01"]'), 4)
        self.assertEqual(text.count('[FEN "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"]'), 2)
        self.assertEqual(text.count('[SetUp "1"]'), 2)
        self.assertEqual(text.count("1. e2e4 {book} 1... e7e5 {book}"), 2)
        self.assertEqual(len(re.findall(r"^\[Termination ", text, re.M)), 4)

    def test_fixed_nodes(self):
        """nodes=N sends `go nodes N` instead of the clocks (the other engine keeps them)."""
        r = run_match("--engine", "name=SF-nodes", f"cmd={STOCKFISH}", "nodes=800",
                      "--engine", "name=SF-clock", f"cmd={STOCKFISH}",
                      "--each", "option.Hash=16", "option.Threads=1", "--tc", "2+0.02", "--timemargin", "3000",
                      "--games", "2", "--maxmoves", "30", "--referee", REFEREE, "--strict", "--debug")
        msg = f"stdout:\n{r.stdout}\nstderr:\n{r.stderr[-3000:]}"
        self.assertEqual(r.returncode, 0, msg)
        sent = {}
        for line in r.stderr.splitlines():
            m = re.search(r"\b(go (?:nodes|wtime) [^\n]*)", line)
            if m:
                who = "SF-nodes" if "SF-nodes" in line else "SF-clock" if "SF-clock" in line else "?"
                sent.setdefault(who, set()).add(m.group(1).split()[1])
        self.assertEqual(sent.get("SF-nodes"), {"nodes"}, msg)
        self.assertEqual(sent.get("SF-clock"), {"wtime"}, msg)
        self.assertEqual(len(_games(r.stdout)), 2, msg)

    def test_fixed_nodes_on_both_sides_warns_of_repeated_games(self):
        """Two fixed-node engines replay a game pair when an opening comes round again."""
        args = ["--each", "option.Hash=16", "option.Threads=1", "--tc", "2+0.02", "--maxmoves", "8",
                "--referee", REFEREE]
        both = run_match("--engine", "name=A", f"cmd={STOCKFISH}", "nodes=300",
                         "--engine", "name=B", f"cmd={STOCKFISH}", "nodes=300", "--games", "4", *args)
        self.assertEqual(both.returncode, 0, both.stdout + both.stderr)
        self.assertIn("note: both engines search fixed node counts", both.stdout)
        self.assertIn("1 distinct pair(s) in 2", both.stdout)
        one = run_match("--engine", "name=A", f"cmd={STOCKFISH}", "nodes=300",
                        "--engine", "name=B", f"cmd={STOCKFISH}", "--games", "4", *args)
        self.assertEqual(one.returncode, 0, one.stdout + one.stderr)
        self.assertNotIn("fixed node counts", one.stdout)

    def _bad(self, mode, expect_reason, counter, aborted=False, extra=(), count=2, json_out=None):
        bad = _wrapper(f"fake-{mode}", f"--fake-engine {mode}")
        r = run_match("--engine", f"name=bad-{mode}", f"cmd={bad}",
                      "--engine", "name=SF", f"cmd={STOCKFISH}", "option.Hash=16",
                      "--tc", "0.3+0", "--games", "2", "--referee", REFEREE, *extra,
                      *(("--json", json_out) if json_out else ()))
        msg = f"stdout:\n{r.stdout}\nstderr:\n{r.stderr}"
        self.assertEqual(r.returncode, 0, msg)
        games = _games(r.stdout)
        self.assertEqual(len(games), 2, msg)
        for num, white, black, result, reason in games:
            bad_white = white == f"bad-{mode}"
            self.assertEqual(result, "*" if aborted else "0-1" if bad_white else "1-0", msg)
            self.assertIn(expect_reason, reason, msg)
        self.assertIn(f"{counter}: bad-{mode} {count}, SF 0", r.stdout, msg)
        for other in ("Illegal moves", "Time losses", "Crashes/disconnects", "Hangs"):
            if other != counter:  # each fault is counted once, under its own name
                self.assertIn(f"{other}: bad-{mode} 0, SF 0", r.stdout, msg)
        self.assertIn("NOT CLEAN", r.stdout)
        self.assertIn("Score of bad-" + mode + " vs SF: " + ("0 - 0 - 0" if aborted else "0 - 2 - 0"),
                      r.stdout)
        r2 = run_match("--engine", f"name=bad-{mode}", f"cmd={bad}",
                       "--engine", "name=SF", f"cmd={STOCKFISH}",
                       "--tc", "0.3+0", "--games", "1", "--referee", REFEREE, "--strict", *extra)
        self.assertEqual(r2.returncode, 3, r2.stdout + r2.stderr)
        return r

    def test_illegal_move_loses(self):
        self._bad("illegal", "illegal move h1h8", "Illegal moves")

    def test_missing_move_loses(self):
        self._bad("nomove", "illegal move (none)", "Illegal moves")

    def test_crash_loses(self):
        self._bad("crash", "crashed", "Crashes/disconnects")

    def test_hang_on_first_move_is_aborted(self):
        # the rules in README.md: a flag that falls before the player's own first move aborts the game;
        # no bestmove --hang-timeout after the flag fell is a hang, not a time loss
        self._bad("hang", "flag fell before its first move, aborted", "Hangs", aborted=True,
                  extra=("--hang-timeout", "0.5"))

    def test_hang_loses_on_time_and_is_restarted(self):
        t0 = time.monotonic()
        r = self._bad("hang2", "hangs (no bestmove 0.5 s after its clock ran out; "
                      "no answer to stop within 1 s, killed)", "Hangs", extra=("--hang-timeout", "0.5"))
        # two hangs: the engine was killed after game 1 and restarted for game 2; neither
        # the kill nor the restart is a crash
        self.assertLess(time.monotonic() - t0, 30)
        self.assertNotIn("worst clock overrun", r.stdout)

    def test_no_readyok_is_a_hang(self):
        # ucinewgame/isready unanswered: a hang each time (killed, restarted, once more)
        # The timeout covers Stockfish's start too, which takes over a second on a loaded machine.
        self._bad("hangready", "does not start", "Hangs", count=4, extra=("--ready-timeout", "3"))

    def test_late_move_overrun_is_measured(self):
        out = os.path.join(TMP, "late.json")
        r = self._bad("late", "loses on time", "Time losses", json_out=out)
        m = re.search(r"Time losses: bad-late 2, SF 0 \(worst clock overrun: bad-late (\d+) ms, SF -\)",
                      r.stdout)
        self.assertTrue(m, r.stdout)
        worst = int(m.group(1))
        self.assertGreaterEqual(worst, LATE_MS - 5)  # the engine's own lateness, measured at the pipe
        self.assertLess(worst, LATE_MS + 2000)  # loaded machines wake late; the hang timeout is 5 s
        self.assertRegex(r.stdout, r"loses on time \(\d+ ms over\)")
        data = __import__("json").loads(Path(out).read_text())
        a = data["engines"]["A"]
        self.assertEqual((a["name"], a["time"], a["hang"], a["crash"], a["illegal"]), ("bad-late", 2, 0, 0, 0))
        self.assertEqual(len(a["overruns_ms"]), 2)
        self.assertEqual(a["worst_overrun_ms"], max(a["overruns_ms"]))
        self.assertEqual(data["engines"]["B"]["worst_overrun_ms"], None)
        for e in data["engines"].values():  # the closest call of a move in time: 0..300 ms left
            self.assertTrue(0 <= e["min_clock_left_ms"] <= 300, e)
        self.assertEqual((data["games"], data["finished"], data["losses_a"], data["clean"]), (2, 2, 2, False))

    @unittest.skipUnless(REAL_REFEREE, "needs a Maharajah build with the referee commands")
    def test_variant_armies_random_movers(self):
        book = os.path.join(TMP, "armies.txt")
        Path(book).write_text("army RNBMKCAP rnbmkcap\narmy RNBQKBNR/PPPPPPPP rnbmkcap\n")
        pgn = os.path.join(TMP, "armies.pgn")
        r1 = _wrapper("random1", f"--fake-engine random {REAL_REFEREE} 1")
        r2 = _wrapper("random2", f"--fake-engine random {REAL_REFEREE} 2")
        r = run_match("--engine", "name=R1", f"cmd={r1}", "--engine", "name=R2", f"cmd={r2}",
                      "--tc", "5+0", "--games", "4", "--maxmoves", "150", "--openings", book,
                      "--pgn", pgn, "--referee", REAL_REFEREE, "--strict")
        msg = f"stdout:\n{r.stdout}\nstderr:\n{r.stderr}"
        self.assertEqual(r.returncode, 0, msg)
        self.assertEqual(len(_games(r.stdout)), 4, msg)
        self.assertIn("CLEAN: zero illegal moves", r.stdout)
        text, results = _pgn_games(pgn)
        self.assertEqual(len(results), 4)
        self.assertEqual(text.count('[Variant "maharajah"]'), 4)
        self.assertEqual(text.count('[FEN "rnbmkcap/8/8/8/8/8/8/RNBMKCAP w - - 0 1 Vv h1h8"]'), 2, text[:2000])
        self.assertEqual(text.count('[SetUp "1"]'), 4)

    def test_resume_counts_the_pgn_and_plays_the_rest(self):
        """--resume after an interruption: the games in the PGN count, the rest are played,
        and a PGN from another schedule is refused."""
        book = os.path.join(TMP, "resume-book.txt")
        Path(book).write_text("startpos moves e2e4 e7e5\nstartpos moves d2d4 d7d5\n"
                              "startpos moves c2c4\n")
        pgn = os.path.join(TMP, "resume.pgn")
        common = ["--engine", "name=A", f"cmd={STOCKFISH}", "nodes=300",
                  "--engine", "name=B", f"cmd={STOCKFISH}", "nodes=200",
                  "--each", "option.Hash=16", "option.Threads=1", "--tc", "60+1",
                  "--maxmoves", "12", "--games", "6", "--openings", book, "--random-order",
                  "--referee", REFEREE, "--pgn", pgn, "--sprt", "elo0=0", "elo1=10"]
        first = run_match(*common, "--seed", "11")
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        text, results = _pgn_games(pgn)
        self.assertEqual(len(results), 6)
        # Keep the header and the first three games, as if the run had been stopped there.
        head, *games = re.split(r"(?m)^(?=\[Event )", text)
        Path(pgn).write_text(head + "".join(games[:3]))
        again = run_match(*common, "--seed", "11", "--resume")
        msg = again.stdout + again.stderr
        self.assertEqual(again.returncode, 0, msg)
        self.assertEqual(sorted(int(g[0]) for g in _games(again.stdout)), [4, 5, 6], msg)
        self.assertIn("Resumed: 3 game(s) from", again.stdout)
        self.assertRegex(again.stdout, r"Score of A vs B: \d+ - \d+ - \d+  \[\d\.\d{3}\] 6")
        self.assertIn("(95%, 3 game pairs, pentanomial)", again.stdout)
        # The schedule's games are all there once: the resumed run appended 4, 5 and 6.
        rounds = re.findall(r'\[Round "(\d+)"\]', Path(pgn).read_text())
        self.assertEqual(sorted(map(int, rounds)), [1, 2, 3, 4, 5, 6])
        # Nothing left to play: the totals only.
        done = run_match(*common, "--seed", "11", "--resume")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertEqual(_games(done.stdout), [])
        self.assertIn("Resumed: 6 game(s)", done.stdout)
        # Engines named the other way round: not this PGN's match, one error line, PGN kept.
        before = Path(pgn).read_text()
        swapped = [{"name=A": "name=B", "name=B": "name=A"}.get(t, t) for t in common]
        bad = run_match(*swapped, "--seed", "11", "--resume")
        self.assertEqual(bad.returncode, 2, bad.stdout + bad.stderr)
        self.assertIn("is not this schedule's", bad.stderr)
        self.assertEqual(len(bad.stderr.strip().splitlines()), 1, bad.stderr)
        self.assertEqual(Path(pgn).read_text(), before)
        short = list(common)
        short[short.index("--games") + 1] = "4"
        short = run_match(*short, "--seed", "11", "--resume")
        self.assertEqual(short.returncode, 2, short.stdout + short.stderr)
        self.assertIn("is not among this match's 4 games", short.stderr)
        nopgn = run_match(*[t for t in common if t not in ("--pgn", pgn)], "--seed", "11", "--resume")
        self.assertEqual(nopgn.returncode, 2)
        self.assertIn("--resume needs the --pgn file", nopgn.stderr)
        noseed = run_match(*common, "--resume")
        self.assertEqual(noseed.returncode, 2)
        self.assertIn("needs the first run's --seed", noseed.stderr)

    def test_bad_opening_is_a_usage_error(self):
        book = os.path.join(TMP, "badbook.txt")
        Path(book).write_text("startpos moves e2e4\nstartpos moves e2e5\n")
        r = run_match("--engine", f"cmd={STOCKFISH}", "--engine", f"cmd={STOCKFISH}",
                      "--games", "4", "--openings", book, "--referee", REFEREE)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("badbook.txt:2", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1)


if __name__ == "__main__":
    print(f"match_test: referee for end-to-end tests: {REFEREE}"
          f"{'' if REAL_REFEREE else ' (fake, over Stockfish)'}", file=sys.stderr)
    try:
        unittest.main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
