#!/usr/bin/env python3
"""Generates scripts/match/openings/maharajah.txt: army pairs for engine-vs-engine matches.

Three groups of `army <white-army> <black-army>` lines (the rules in README.md):
  (a) the engine's own `army suggest` armies, White and Black from different seeds;
  (b) random 39-point variant armies built here (several composition styles);
  (c) mixed pairs: one classic army (no compound piece), one variant army, both orders.

Every army is checked by the engine (`army check`), every pair by `position army`
(no error), `status` (ongoing) and a move-1 capture filter: in the start position
White has no capturing move, and Black (the same position with Black to move) has
none either. Pairs failing any check are discarded and redrawn.

Deterministic: the same --seed and the same engine give the same file.
Python 3 standard library only.

  make_army_openings.py [ENGINE] [--seed N] [--out FILE] [--counts A B C]
  make_army_openings.py [ENGINE] --check FILE             # re-validate an openings file
  make_army_openings.py [ENGINE] --check-standard FILE    # + Stockfish evals of startpos lines
"""

import argparse
import os
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/, for common/
from common.armies import (CLASSIC_STYLES, ORTHODOX, VARIANT_STYLES, check_army,  # noqa: E402
                           describe, pieces_of, random_army)
from common.uci import EngineDead, UciProcess, last_score  # noqa: E402

FILES = "abcdefgh"
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ENGINE = os.path.normpath(os.path.join(HERE, "..", "..", "build", "maharajah"))
DEFAULT_OUT = os.path.join(HERE, "openings", "maharajah.txt")


# ----------------------------------------------------------------------------------
# The engine
# ----------------------------------------------------------------------------------

class Engine(UciProcess):
    """The engine's UCI loop; each request is followed by `isready` to find its end."""

    def __init__(self, path):
        if not os.access(path, os.X_OK):
            sys.exit(f"error: engine binary not found or not executable: {path}")
        super().__init__("engine", [path])
        self.start()

    def run(self, *cmds):
        try:
            return self.ask(*cmds)
        except EngineDead:
            sys.exit("error: the engine exited unexpectedly")

    def search(self, position, nodes):
        """The last score of `go nodes <nodes>` from a cleared hash (`ucinewgame`), from the
        side to move: ('cp', n) or ('mate', n); None when the engine sent no score.
        Bound-only scores are skipped. With Threads 1 the answer is the same on every run."""
        self.run("ucinewgame", position)
        try:
            return last_score(super().search("", f"go nodes {nodes}"))
        except EngineDead:
            sys.exit("error: the engine exited unexpectedly")

    def close(self):
        self.quit()


def board_from_fen(fen):
    """{square: piece letter} from the FEN board field."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank = 8 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[FILES[f] + str(rank)] = ch
                f += 1
    return board


def captures(moves, board, white):
    """The moves (UCI) that land on an enemy piece."""
    out = []
    for m in moves:
        to = m[2:4]
        if to in board and board[to].isupper() != white:
            out.append(m)
    return out


def check_pair(eng, white_army, black_army):
    """(ok, reason, fen) for a pair: legal start, status ongoing, no capture on move 1."""
    out = eng.run(f"position army {white_army} {black_army}", "status", "fen", "moves")
    errs = [l for l in out if l.startswith("info string error")]
    if errs:
        return False, errs[0][len("info string error: "):], None
    status = next(l for l in out if l.startswith("status"))
    fen = next(l for l in out if l.startswith("fen "))[4:]
    moves = next(l for l in out if l == "moves" or l.startswith("moves ")).split()[1:]
    if status != "status ongoing":
        return False, status, fen
    board = board_from_fen(fen)
    wc = captures(moves, board, True)
    if wc:
        return False, "white captures on move 1: " + " ".join(wc[:4]), fen
    # The same position with Black to move: does Black attack anything?
    f = fen.split()
    f[1] = "b"
    out = eng.run("position fen " + " ".join(f), "moves")
    errs = [l for l in out if l.startswith("info string error")]
    if errs:
        return False, "black-to-move probe refused: " + errs[0], fen
    bmoves = next(l for l in out if l == "moves" or l.startswith("moves ")).split()[1:]
    bc = captures(bmoves, board, False)
    if bc:
        return False, "black captures on move 1: " + " ".join(bc[:4]), fen
    return True, "ok", fen


# ----------------------------------------------------------------------------------
# The groups
# ----------------------------------------------------------------------------------

def group_a(eng, rng, count, stats):
    """Pairs of `army suggest` armies, White and Black from different seeds."""
    pairs, seen = [], set()
    seeds = list(range(1, 2000))
    rng.shuffle(seeds)
    it = iter(seeds)
    while len(pairs) < count:
        sw, sb = next(it, None), next(it, None)
        if sb is None:
            # `army suggest` fields few distinct armies, and most suggested pairs can
            # capture on move 1: a seed may not find A of them.
            sys.exit(f"error: group (a): only {len(pairs)} suggested pairs pass the checks "
                     f"(asked for {count}); try another --seed or a smaller A in --counts")
        w = eng.one(f"army suggest white seed {sw}").split()[-1]
        b = eng.one(f"army suggest black seed {sb}").split()[-1]
        if (w, b) in seen:
            continue
        seen.add((w, b))
        ok, why, _ = check_pair(eng, w, b)
        stats["a"].append(why)
        if ok:
            pairs.append((w, b, f"suggest white seed {sw} / black seed {sb}"))
    return pairs


def group_b(eng, rng, count, stats):
    """Random variant v variant pairs: White cycles through the composition styles,
    Black's style is drawn at random (and redrawn after 100 failed tries)."""
    pairs, seen = [], set()
    while len(pairs) < count:
        ws = VARIANT_STYLES[len(pairs) % len(VARIANT_STYLES)]
        for attempt in range(100000):
            if attempt % 100 == 0:
                bs = rng.choice(VARIANT_STYLES)
            w, wp, wm = random_army(rng, eng, "white", ws, True)
            b, bp, bm = random_army(rng, eng, "black", bs, True)
            ok, why, _ = check_pair(eng, w, b)
            stats["b"].append(why)
            if ok and (w, b) not in seen:
                seen.add((w, b))
                pairs.append((w, b, f"W {ws}/{wm}: {describe(wp)} | B {bs}/{bm}: {describe(bp)}"))
                break
        else:
            raise RuntimeError("group (b): no acceptable pair found")
    return pairs


def group_c(eng, rng, count, stats):
    """Mixed pairs: one classic army, one variant army. The classic side alternates
    White, Black, White, ...; pairs 0, 1, 8, 9, 16, 17, ... use the orthodox army as the
    classic one. The variant style is drawn at random (redrawn after 100 failed tries)."""
    pairs, seen = [], set()
    while len(pairs) < count:
        k = len(pairs)
        classic_color = "white" if k % 2 == 0 else "black"
        variant_color = "black" if classic_color == "white" else "white"
        cs = CLASSIC_STYLES[(k // 2) % len(CLASSIC_STYLES)]
        orthodox = k % 8 in (0, 1)
        for attempt in range(100000):
            if attempt % 100 == 0:
                vs = rng.choice(VARIANT_STYLES)
            if orthodox:
                c, cp = ORTHODOX[classic_color], pieces_of(ORTHODOX[classic_color])
                cdesc = "orthodox"
            else:
                c, cp, cm = random_army(rng, eng, classic_color, cs, False)
                cdesc = f"classic {cs}/{cm}: {describe(cp)}"
            v, vp, vm = random_army(rng, eng, variant_color, vs, True)
            vdesc = f"variant {vs}/{vm}: {describe(vp)}"
            w, b = (c, v) if classic_color == "white" else (v, c)
            ok, why, _ = check_pair(eng, w, b)
            stats["c"].append(why)
            if ok and (w, b) not in seen:
                seen.add((w, b))
                desc = f"W {cdesc} | B {vdesc}" if classic_color == "white" else f"W {vdesc} | B {cdesc}"
                pairs.append((w, b, desc))
                break
        else:
            raise RuntimeError("group (c): no acceptable pair found")
    return pairs


def variety(pairs):
    """A one-line description of what a group's armies contain."""
    armies = [w for w, _, _ in pairs] + [b for _, b, _ in pairs]
    if not armies:
        return "none"
    men = [len(pieces_of(a)) for a in armies]
    kinds = {k: sum(1 for a in armies if k in a.upper()) for k in "MAC"}
    pawn_ranks = set()
    for a in armies:
        for r, row in enumerate(a.split("/")):
            if "P" in row.upper():
                pawn_ranks.add(r + 1)
    return (f"{len(armies)} armies, {min(men)}-{max(men)} men, with M/A/C: "
            f"{kinds['M']}/{kinds['A']}/{kinds['C']}, "
            f"classic {sum(1 for a in armies if not set('MAC') & set(a.upper()))}, "
            f"pawns on home-rank distance(s) {sorted(pawn_ranks)}")


def summarize(stats):
    lines = []
    for g in "abc":
        total = len(stats[g])
        kept = sum(1 for s in stats[g] if s == "ok")
        kinds = {}
        for s in stats[g]:
            if s != "ok":
                k = s.split(":")[0]
                kinds[k] = kinds.get(k, 0) + 1
        detail = ", ".join(f"{v} {k}" for k, v in sorted(kinds.items()))
        lines.append(f"group ({g}): {total} pairs tried, {kept} kept" + (f"; rejected: {detail}" if detail else ""))
    return lines


def generate(ns):
    rng = random.Random(ns.seed)
    eng = Engine(ns.engine)
    stats = {"a": [], "b": [], "c": []}
    na, nb, nc = ns.counts
    a = group_a(eng, random.Random(rng.getrandbits(64)), na, stats)
    b = group_b(eng, random.Random(rng.getrandbits(64)), nb, stats)
    c = group_c(eng, random.Random(rng.getrandbits(64)), nc, stats)
    eng.close()
    out = [
        "# Maharajah army pairs for engine matches (scripts/match/match.py --openings).",
        "# One pair per line: army <white-army> <black-army> (home rank first, the rules in README.md).",
        f"# Generated by scripts/match/make_army_openings.py --seed {ns.seed}; do not edit by hand.",
        "# Every pair: `position army` accepted, status ongoing, and no capture on move 1",
        "# for either side (White to move, and the same position with Black to move).",
    ]
    for title, pairs in (
            ("(a) the engine's own `army suggest` armies", a),
            ("(b) random 39-point variant armies (make_army_openings.py)", b),
            ("(c) mixed: one classic army (no compound piece), one variant army, both orders", c)):
        out += ["", f"# ===== {title}: {len(pairs)} pairs ====="]
        for w, bl, desc in pairs:
            out.append(f"# {desc}")
            out.append(f"army {w} {bl}")
    os.makedirs(os.path.dirname(os.path.abspath(ns.out)), exist_ok=True)
    with open(ns.out, "w") as f:
        f.write("\n".join(out) + "\n")
    for line in summarize(stats):
        print(line)
    for g, pairs in zip("abc", (a, b, c)):
        print(f"group ({g}) variety: {variety(pairs)}")
    print(f"wrote {ns.out}: {len(a)} + {len(b)} + {len(c)} = {len(a) + len(b) + len(c)} pairs")


# ----------------------------------------------------------------------------------
# Checking existing files
# ----------------------------------------------------------------------------------

def opening_lines(path):
    for no, line in enumerate(open(path), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            yield no, line


def check_file(ns):
    """Re-validates every army line of a file; returns the number of failures."""
    eng = Engine(ns.engine)
    bad = n = 0
    seen = set()
    for no, line in opening_lines(ns.check):
        t = line.split()
        if t[0] != "army" or len(t) != 3:
            print(f"{ns.check}:{no}: not an 'army <white> <black>' line")
            bad += 1
            continue
        n += 1
        okw, aw = check_army(eng, "white", t[1])
        okb, ab = check_army(eng, "black", t[2])
        ok, why, _ = check_pair(eng, t[1], t[2])
        dup = (t[1], t[2]) in seen
        seen.add((t[1], t[2]))
        if not (okw and okb and ok) or dup:
            bad += 1
            print(f"{ns.check}:{no}: {'duplicate' if dup else why} [{aw}] [{ab}]")
    eng.close()
    print(f"{ns.check}: {n} army pairs, {bad} failing")
    return bad


def check_standard(ns):
    """startpos lines: engine legality/status, 6-10 plies, no duplicates, Stockfish
    15.1 (1 thread, depth 16, fresh game per line) within +-60 cp."""
    eng = Engine(ns.engine)
    sf = UciProcess("stockfish", [ns.stockfish])
    try:
        sf.handshake({"Threads": 1})
    except EngineDead as e:
        sys.exit(f"error: stockfish: {e}")
    bad = n = 0
    evals, seen_moves, seen_fen = [], set(), set()
    for no, line in opening_lines(ns.check_standard):
        t = line.split()
        moves = t[2:] if t[:2] == ["startpos", "moves"] else None
        if moves is None:
            print(f"{ns.check_standard}:{no}: not a 'startpos moves ...' line"); bad += 1
            continue
        n += 1
        out = eng.run(f"position startpos moves {' '.join(moves)}", "status", "fen")
        errs = [l for l in out if l.startswith("info string error")]
        status = next((l for l in out if l.startswith("status")), "")
        fen = next((l for l in out if l.startswith("fen ")), "fen ")[4:]
        key = " ".join(fen.split()[:4])
        problems = []
        if errs: problems.append(errs[0])
        if status != "status ongoing": problems.append(status)
        if not 6 <= len(moves) <= 10: problems.append(f"{len(moves)} plies")
        if " ".join(moves) in seen_moves or key in seen_fen: problems.append("duplicate position")
        seen_moves.add(" ".join(moves)); seen_fen.add(key)
        sf.send("ucinewgame")
        out = sf.search(f"position startpos moves {' '.join(moves)}", f"go depth {ns.depth}")
        last = next((l for l in reversed(out) if l.startswith("info") and " score " in l and " pv " in l), "")
        s = last.split()
        k = s.index("score")
        cp = int(s[k + 2]) if s[k + 1] == "cp" else (10000 if int(s[k + 2]) > 0 else -10000)
        if len(moves) % 2:
            cp = -cp  # Black to move: White's view
        evals.append(cp)
        if abs(cp) > ns.margin: problems.append(f"eval {cp:+d}")
        if problems:
            bad += 1
            print(f"{ns.check_standard}:{no}: {'; '.join(problems)}: {line}")
        elif ns.verbose:
            print(f"{cp:+5d}  {line}")
    sf.quit(); eng.close()
    if evals:
        print(f"{ns.check_standard}: {n} openings, {bad} failing; Stockfish depth {ns.depth} "
              f"eval (White's view) min {min(evals):+d} max {max(evals):+d} "
              f"mean {sum(evals) / len(evals):+.1f} cp")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", nargs="?", default=DEFAULT_ENGINE,
                    help=f"the maharajah binary (default {DEFAULT_ENGINE})")
    ap.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    ap.add_argument("--out", default=DEFAULT_OUT, help=f"output file (default {DEFAULT_OUT})")
    ap.add_argument("--counts", type=int, nargs=3, default=[24, 30, 24], metavar=("A", "B", "C"),
                    help="pairs per group (default 24 30 24)")
    ap.add_argument("--check", metavar="FILE", help="only re-validate the army lines of FILE")
    ap.add_argument("--check-standard", metavar="FILE",
                    help="only validate the startpos lines of FILE (engine + Stockfish)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--margin", type=int, default=60, help="largest |eval| in cp (default 60)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ns = ap.parse_args()
    if ns.check:
        sys.exit(1 if check_file(ns) else 0)
    if ns.check_standard:
        sys.exit(1 if check_standard(ns) else 0)
    generate(ns)


if __name__ == "__main__":
    main()
