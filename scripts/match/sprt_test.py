#!/usr/bin/env python3
"""Self-test of scripts/match/sprt, nodes_jitter.py and the SPRT opening books (standard
library only; run by ctest).

  python3 scripts/match/sprt_test.py [-v]

The end-to-end runs use the engine in $MAHARAJAH_REFEREE (ctest sets it) or build/maharajah.
The standard-chess run needs fastchess ($FASTCHESS, ~/tools/fastchess or PATH); CI machines
do not have it, so that test is skipped with a message saying so.
"""

import importlib.machinery
import importlib.util
import os
import random
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, HERE)
import match  # noqa: E402
import nodes_jitter  # noqa: E402

_spsa_loader = importlib.machinery.SourceFileLoader("spsa_cli", os.path.join(HERE, "spsa"))
_spsa_spec = importlib.util.spec_from_loader("spsa_cli", _spsa_loader)
spsa = importlib.util.module_from_spec(_spsa_spec)
_spsa_loader.exec_module(spsa)

_loader = importlib.machinery.SourceFileLoader("sprt_cli", os.path.join(HERE, "sprt"))
_spec = importlib.util.spec_from_loader("sprt_cli", _loader)
sprt = importlib.util.module_from_spec(_spec)
_loader.exec_module(sprt)

ENGINE = next((p for p in (os.environ.get("MAHARAJAH_REFEREE", ""),
                           os.path.join(HERE, "..", "..", "build", "maharajah"))
               if p and os.access(p, os.X_OK)), None)
ROW = re.compile(r"^\| (.+) \| \[(-?[\d.]+), (-?[\d.]+)\] \| (.+) \| (\d+) \| \[(\d+), (\d+), (\d+), "
                 r"(\d+), (\d+)\] \| (-?[\d.]+|-?nan|-?inf) \((-?[\d.]+), (-?[\d.]+)\) \| "
                 r"(H1 accepted|H0 accepted|not resolved) \| (\S+) \|$")

FASTCHESS_OUT = """\
Results of new vs base (150000 nodes, 1t, 16MB, standard-10k.epd):
Elo: 3.10 +/- 9.00, nElo: 5.00 +/- 14.00
Games: 1000, Wins: 300, Losses: 290, Draws: 410, Points: 505.0 (50.50 %)
Ptnml(0-2): [10, 110, 260, 100, 20], WL/DD Ratio: 1.50
LLR: 0.50 (17.0%) (-2.94, 2.94) [0.00, 10.00]
--------------------------------------------------
Results of new vs base (150000 nodes, 1t, 16MB, standard-10k.epd):
Games: 1010, Wins: 303, Losses: 292, Draws: 415, Points: 510.5 (50.54 %)
Ptnml(0-2): [10, 111, 263, 100, 21], WL/DD Ratio: 1.50
LLR: 2.95 (100.3%) (-2.94, 2.94) [0.00, 10.00]
"""

MATCH_OUT = """\
Score of new vs base: 13 - 7 - 4  [0.625] 24
Ptnml(0-2): [1, 1, 4, 3, 3]
Elo difference: +88.7 +/- 132.0 (95%, 12 game pairs, pentanomial)
SPRT (logistic elo0=-5 elo1=0 alpha=0.05 beta=0.05): LLR -3.100 [-2.944, 2.944] H0 accepted
"""


class Parsing(unittest.TestCase):
    def test_fastchess_last_report_wins(self):
        games, penta, llr, bounds = sprt.parse_fastchess(FASTCHESS_OUT.splitlines())
        self.assertEqual((games, penta, llr, bounds),
                         (1010, [10, 111, 263, 100, 21], 2.95, (-2.94, 2.94)))

    def test_match_summary(self):
        games, penta, llr, bounds = sprt.parse_match(MATCH_OUT.splitlines())
        self.assertEqual((games, penta, llr, bounds), (24, [1, 1, 4, 3, 3], -3.1, (-2.944, 2.944)))

    def test_verdicts(self):
        b = (-2.94, 2.94)
        self.assertEqual(sprt.verdict(2.94, b), "H1 accepted")
        self.assertEqual(sprt.verdict(-2.95, b), "H0 accepted")
        self.assertEqual(sprt.verdict(2.9, b), "not resolved")
        self.assertEqual(sprt.verdict(float("nan"), b), "not resolved")
        self.assertEqual(sprt.verdict(None, None), "not resolved")

    def test_row(self):
        row = sprt.table_row("tt (standard)", 0, 10, "150k nodes +/-10%", 1010,
                             [10, 111, 263, 100, 21], 2.95, (-2.94, 2.94), "2631586")
        self.assertEqual(row, "| tt (standard) | [0, 10] | 150k nodes +/-10% | 1010 | "
                              "[10, 111, 263, 100, 21] | 2.95 (-2.94, 2.94) | H1 accepted | 2631586 |")
        self.assertRegex(row, ROW)
        empty = sprt.table_row("x (army pairs)", -5, 0, "8+0.08", None, None, None, None, "?")
        self.assertEqual(empty, "| x (army pairs) | [-5, 0] | 8+0.08 | 0 | - | - | not resolved | ? |")


class FixedMatch(unittest.TestCase):
    def test_wins_losses_draws(self):
        self.assertEqual(sprt.parse_wld(FASTCHESS_OUT.splitlines(), army=False), (303, 292, 415))
        self.assertEqual(sprt.parse_wld(MATCH_OUT.splitlines(), army=True), (13, 7, 4))
        self.assertIsNone(sprt.parse_wld([], army=True))

    def test_row(self):
        # 500 pairs: 100 at 2 points, 50 at 0, the rest 1: score 0.55, Elo +34.9.
        row = sprt.match_row("final (standard)", "8+0.08", 1000, (350, 250, 400),
                             [50, 0, 350, 0, 100], "1475022")
        m = re.fullmatch(r"\| final \(standard\) \| 8\+0\.08 \| 1000 \| 350-250-400 \| "
                         r"\[50, 0, 350, 0, 100\] \| \+(\d+\.\d) \+/- (\d+\.\d) \| 1475022 \|", row)
        self.assertIsNotNone(m, row)
        self.assertAlmostEqual(float(m.group(1)), 34.9, delta=0.05)
        e = sprt.match_stats.pentanomial([50, 0, 350, 0, 100])
        self.assertAlmostEqual(float(m.group(2)), e.error, delta=0.05)
        self.assertTrue(10 < e.error < 30)
        self.assertEqual(sprt.match_row("x (army pairs)", "8+0.08", None, None, None, "?"),
                         "| x (army pairs) | 8+0.08 | 0 | - | - | - | ? |")


class Arguments(unittest.TestCase):
    def parse(self, *extra):
        exe = sys.executable  # any executable file serves as NEW and BASE here
        return sprt.parse_args([exe, exe, "--name", "x", *extra])

    def test_bounds(self):
        self.assertEqual((self.parse().e0, self.parse().e1), (0, 10))
        self.assertEqual((self.parse("--bundle").e0, self.parse("--bundle").e1), (0, 15))
        self.assertEqual((self.parse("--nonreg").e0, self.parse("--nonreg").e1), (-5, 0))
        self.assertEqual((self.parse("--bounds=-3,4").e0, self.parse("--bounds=-3,4").e1),
                         (-3, 4))

    def test_match_mode(self):
        ns = self.parse("--match", "--games", "1000")
        self.assertEqual((ns.match, ns.games), (True, 1000))
        self.assertEqual((self.parse().match, self.parse().games), (False, 60000))

    def test_limits(self):
        ns = self.parse()
        self.assertEqual((ns.nodes_mode, ns.nodes), (True, 150000))
        ns = self.parse("--tc", "8+0.08")
        self.assertEqual((ns.nodes_mode, ns.tc), (False, "8+0.08"))

    def test_bad_arguments_exit_2(self):
        for bad in (["--bounds", "10,0"], ["--bounds", "x"], ["--tc", "8"], ["--nodes", "0"],
                    ["--jitter", "1.5"], ["--tc", "8+0.08", "--nodes", "5"], ["--games", "1"],
                    ["--match"], ["--match", "--nonreg", "--games", "10"]):
            with self.subTest(bad=bad), self.assertRaises(SystemExit) as e, \
                    open(os.devnull, "w") as null:
                stderr, sys.stderr = sys.stderr, null
                try:
                    self.parse(*bad)
                finally:
                    sys.stderr = stderr
            self.assertEqual(e.exception.code, 2)


class Jitter(unittest.TestCase):
    def test_nodes_spread_and_other_lines(self):
        rng = random.Random(5)
        got = [int(nodes_jitter.jittered("go nodes 150000", rng, 0.1).split()[2])
               for _ in range(2000)]
        self.assertTrue(all(135000 <= n <= 165000 for n in got))
        self.assertLess(min(got), 137000)
        self.assertGreater(max(got), 163000)
        self.assertGreater(len(set(got)), 1900)  # games do not repeat
        line = nodes_jitter.jittered("go wtime 100 btime 100 nodes 1000 movestogo 5", rng, 0.1)
        self.assertRegex(line, r"^go wtime 100 btime 100 nodes (\d+) movestogo 5$")
        for same in ("go depth 5", "go nodes", "go nodes abc", "position startpos moves e2e4",
                     "setoption name nodes value 5", "uci"):
            self.assertEqual(nodes_jitter.jittered(same, rng, 0.1), same)
        self.assertEqual(nodes_jitter.jittered("go nodes 1000", rng, 0.0), "go nodes 1000")


class Books(unittest.TestCase):
    def test_standard_book(self):
        with open(sprt.STANDARD_BOOK) as f:
            lines = f.read().splitlines()
        self.assertGreaterEqual(len(lines), 10000)
        self.assertEqual(len(set(lines)), len(lines))
        for line in lines[:: 97]:  # fastchess reads every line as an EPD; match.py too
            self.assertEqual(len(line.split()), 4, line)
            self.assertIsNotNone(match.parse_opening_line(line))

    def test_army_book(self):
        with open(sprt.ARMY_BOOK) as f:
            text = f.read().splitlines()
        ops = [match.parse_opening_line(l) for l in text]
        lines = [l for l in text if l.strip() and not l.startswith("#")]
        self.assertGreaterEqual(len([o for o in ops if o]), 2000)
        self.assertEqual(len(set(lines)), len(lines))
        self.assertTrue(all(l.startswith("army ") for l in lines))
        plies = {len(l.split()) - 4 if " moves " in l else 0 for l in lines}
        self.assertEqual(plies, {0, 1, 2, 3, 4})


class Spsa(unittest.TestCase):
    def test_gains_end_at_step_and_lr(self):
        # OpenBench's schedule: at the last iteration the perturbation is the step and
        # a_k / c_k^2 is the learning rate; earlier, both are larger.
        p = {"step": 7.5, "lr": 0.002}
        for n in (10, 1250):
            A, c, a = spsa.gains(p, n)
            ck, ak = c / n**spsa.GAMMA, a / (A + n) ** spsa.ALPHA
            self.assertAlmostEqual(ck, 7.5)
            self.assertAlmostEqual(ak / ck**2, 0.002)
            self.assertGreater(c, ck)
            self.assertGreater(a / (A + 1) ** spsa.ALPHA, ak)

    def test_table_parsing(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "engine")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\necho 'LmrBase, int, 40, 0, 150, 7.5, 0.002'\necho 'noise'\n")
            os.chmod(fake, 0o755)
            self.assertEqual(spsa.read_params(fake), [{"name": "LmrBase", "default": 40, "value": 40.0, "min": 0,
                                                       "max": 150, "step": 7.5, "lr": 0.002}])

    @unittest.skipUnless(ENGINE, "needs a built engine")
    def test_init_refuses_a_normal_build(self):
        # A normal build prints the table too, but its parameters are constants: the
        # plus and minus engines would play the same search. The tuner must refuse it.
        with tempfile.TemporaryDirectory() as d:
            out = subprocess.run([ENGINE, "uci"], input="quit\n", capture_output=True, text=True).stdout
            if "option name LmrBase" in out:
                self.skipTest("the engine is a tuning build")
            r = subprocess.run([sys.executable, os.path.join(HERE, "spsa"), "init", "--engine", ENGINE,
                                "--state", os.path.join(d, "s")], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("tuning build", r.stderr)


@unittest.skipUnless(ENGINE, "needs a built engine (build/maharajah or $MAHARAJAH_REFEREE)")
class EndToEnd(unittest.TestCase):
    def run_sprt(self, *extra):
        with tempfile.TemporaryDirectory() as out:
            r = subprocess.run([sys.executable, os.path.join(HERE, "sprt"), ENGINE, ENGINE,
                                "--name", "same", "--nodes", "2000", "--games", "4",
                                "--concurrency", "1", "--seed", "3", "--bench", "n/a",
                                "--out", out, *extra],
                               capture_output=True, text=True, timeout=240)
            self.assertTrue(os.path.isfile(os.path.join(out, "log.txt")))
        msg = f"stdout:\n{r.stdout[-3000:]}\nstderr:\n{r.stderr[-2000:]}"
        self.assertEqual(r.returncode, 0, msg)
        m = ROW.match(r.stdout.strip().splitlines()[-1])
        self.assertIsNotNone(m, msg)
        return m, msg

    def check_row(self, m, msg, change):
        self.assertEqual(m.group(1), change, msg)
        self.assertEqual((m.group(2), m.group(3), m.group(4)), ("0", "10", "2k nodes +/-10%"))
        self.assertEqual(int(m.group(5)), 4, msg)
        self.assertEqual(sum(int(m.group(i)) for i in range(6, 11)), 2, msg)  # 2 game pairs
        # Two pairs usually cannot decide, but with identical pairs the variance estimate
        # is tiny and the LLR may cross a bound; the verdict must follow the LLR either way.
        llr, lo, hi = float(m.group(11)), float(m.group(12)), float(m.group(13))
        self.assertEqual(m.group(14), sprt.verdict(llr, (lo, hi)), msg)
        self.assertEqual(m.group(15), "n/a")

    def test_army_pairs(self):
        m, msg = self.run_sprt("--army")
        self.check_row(m, msg, "same (army pairs)")

    def test_army_resume(self):
        """A stopped army test goes on from its --out directory and its row counts the games
        of both runs; other binaries than the stopped test's are refused."""
        with tempfile.TemporaryDirectory() as out:
            args = [sys.executable, os.path.join(HERE, "sprt"), ENGINE, ENGINE, "--name", "same",
                    "--army", "--nodes", "2000", "--concurrency", "1", "--seed", "3",
                    "--bench", "n/a", "--out", out]

            def run(*extra):
                return subprocess.run(args + list(extra), capture_output=True, text=True, timeout=240)
            first = run("--games", "4")
            self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
            m1 = ROW.match(first.stdout.strip().splitlines()[-1])
            second = run("--games", "8", "--resume")
            msg = f"stdout:\n{second.stdout[-3000:]}\nstderr:\n{second.stderr[-2000:]}"
            self.assertEqual(second.returncode, 0, msg)
            m2 = ROW.match(second.stdout.strip().splitlines()[-1])
            self.assertIsNotNone(m2, msg)
            played1 = {int(n) for n in re.findall(r"^game (\d+):", first.stdout, re.M)}
            played2 = {int(n) for n in re.findall(r"^game (\d+):", second.stdout, re.M)}
            self.assertFalse(played1 & played2, msg)
            self.assertEqual(int(m2.group(5)), len(played1) + len(played2), msg)
            if m1.group(14) == "not resolved":  # else the resumed run has nothing to play
                self.assertEqual(played1 | played2, set(range(1, 9)), msg)
                self.assertEqual(sum(int(m2.group(i)) for i in range(6, 11)), 4, msg)
            with open(os.path.join(out, "log.txt")) as f:
                log = f.read()
            self.assertTrue(log.startswith("command: "))
            self.assertIn("\nresumed: ", log)
            self.assertIn("--resume", log)
            other = subprocess.run(args[:2] + [sys.executable] + args[3:] + ["--resume"],
                                   capture_output=True, text=True, timeout=60)
            self.assertEqual(other.returncode, 2)
            self.assertIn("is not the binary the stopped test ran as new", other.stderr)
        with tempfile.TemporaryDirectory() as empty:
            r = subprocess.run(args[:-1] + [empty, "--resume"], capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 2)
            self.assertIn("no stopped test in", r.stderr)

    def test_army_fixed_match(self):
        """--match plays exactly --games games with no SPRT and prints the Elo row."""
        with tempfile.TemporaryDirectory() as out:
            r = subprocess.run([sys.executable, os.path.join(HERE, "sprt"), ENGINE, ENGINE,
                                "--name", "same", "--army", "--match", "--nodes", "2000",
                                "--games", "4", "--seed", "3", "--bench", "n/a", "--out", out],
                               capture_output=True, text=True, timeout=240)
        msg = f"stdout:\n{r.stdout[-3000:]}\nstderr:\n{r.stderr[-2000:]}"
        self.assertEqual(r.returncode, 0, msg)
        self.assertNotIn("--sprt", r.stdout.splitlines()[0], msg)
        m = re.fullmatch(r"\| same \(army pairs\) \| 2k nodes \+/-10% \| 4 \| (\d+)-(\d+)-(\d+) \| "
                         r"\[(\d+), (\d+), (\d+), (\d+), (\d+)\] \| ([-+]\d+\.\d \+/- (\d+\.\d|inf)|-) \| n/a \|",
                         r.stdout.strip().splitlines()[-1])
        self.assertIsNotNone(m, msg)
        self.assertEqual(sum(int(m.group(i)) for i in range(1, 4)), 4, msg)
        self.assertEqual(sum(int(m.group(i)) for i in range(4, 9)), 2, msg)

    def test_standard_chess(self):
        if sprt.find_fastchess(None) is None:
            self.skipTest("fastchess not installed (docs/testing.md says how to build it); "
                          "the standard-chess SPRT run is not tested here")
        m, msg = self.run_sprt()
        self.check_row(m, msg, "same (standard)")


if __name__ == "__main__":
    unittest.main()
