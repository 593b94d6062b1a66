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
import subprocess
import sys

COST = {"P": 1, "N": 3, "B": 3, "R": 5, "A": 6, "C": 8, "Q": 9, "M": 13}
COMPOUND = set("MAC")
CLASSIC_PIECES = "NBRQ"
VARIANT_PIECES = "NBRQMAC"
BUDGET = 39
MAX_PIECES = 31
FILES = "abcdefgh"
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ENGINE = os.path.normpath(os.path.join(HERE, "..", "..", "build", "maharajah"))
DEFAULT_OUT = os.path.join(HERE, "openings", "maharajah.txt")


# ----------------------------------------------------------------------------------
# The engine
# ----------------------------------------------------------------------------------

class Engine:
    """The engine's UCI loop; each request is followed by `isready` to find its end."""

    def __init__(self, path):
        if not os.access(path, os.X_OK):
            sys.exit(f"error: engine binary not found or not executable: {path}")
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def run(self, *cmds):
        for c in cmds:
            self.p.stdin.write(c + "\n")
        self.p.stdin.write("isready\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("error: the engine exited unexpectedly")
            line = line.strip()
            if line == "readyok":
                return lines
            if line:
                lines.append(line)

    def search(self, position, nodes):
        """The last score of `go nodes <nodes>` from a cleared hash (`ucinewgame`), from the
        side to move: ('cp', n) or ('mate', n); None when the engine sent no score.
        Bound-only scores are skipped. With Threads 1 the answer is the same on every run."""
        self.run("ucinewgame", position)
        self.p.stdin.write(f"go nodes {nodes}\n")
        self.p.stdin.flush()
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("error: the engine exited unexpectedly")
            t = line.split()
            if t and t[0] == "bestmove":
                return score
            if t and t[0] == "info" and "score" in t and "lowerbound" not in t \
                    and "upperbound" not in t:
                i = t.index("score")
                score = (t[i + 1], int(t[i + 2]))

    def one(self, cmd):
        out = self.run(cmd)
        return out[0] if out else ""

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
        except OSError:
            pass
        self.p.wait(timeout=10)


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


def check_army(eng, color, army):
    ans = eng.one(f"army check {color} {army}")
    return ans.startswith("army ok points 39"), ans


# ----------------------------------------------------------------------------------
# Random armies
# ----------------------------------------------------------------------------------

def compose(rng, style, variant):
    """A multiset (list of letters) worth exactly 39 points, at most 31 men."""
    for _ in range(10000):
        pieces = []
        kinds = VARIANT_PIECES if variant else CLASSIC_PIECES
        if style == "pawn-heavy":
            # Many pawns (the army reaches rank 3 or 4), a few pieces.
            pawns = rng.randint(17, 29)
            pieces = ["P"] * pawns
            if variant:
                pieces.append(rng.choice("MAC"))
            fill_kinds = kinds
        elif style == "max-men":
            # As many men as the budget and the 31 squares allow.
            if variant:
                pieces = rng.choice([["A", "R"], ["A", "N", "N"], ["C", "N"], ["A", "B", "N"],
                                     ["C", "B"], ["A", "B", "B"]])
            else:
                pieces = rng.choice([["Q"], ["R", "R"], ["N", "N", "N", "N"], ["R", "N", "B"],
                                     ["B", "B", "N", "N"]])
            pieces += ["P"] * (BUDGET - sum(COST[p] for p in pieces))
            fill_kinds = ""
        elif style == "few-big":
            # Two to five big pieces, few pawns.
            big = "QMCR" if variant else "QR"
            for _ in range(rng.randint(2, 4)):
                pieces.append(rng.choice(big))
            if variant and not COMPOUND & set(pieces):
                pieces[0] = rng.choice("MC")
            fill_kinds = big + "AR" if variant else "QRB"
        elif style == "all-compounds":
            pieces = ["M", "A", "C"]
            fill_kinds = kinds
        elif style == "twin-compounds":
            # Two of one compound kind (2M, 2A or 2C) plus a pawn front.
            k = rng.choice("MAC")
            pieces = [k, k]
            fill_kinds = "NBRA" if k != "A" else "NBR"
        elif style == "minor-swarm":
            # Many knights and bishops (archbishops on a variant side).
            fill_kinds = "NBA" if variant else "NB"
            if variant:
                pieces.append("A")
        else:  # "balanced": a bit of everything, 6-12 pawns
            pieces = ["P"] * rng.randint(6, 12)
            if variant:
                pieces.append(rng.choice("MAC"))
            fill_kinds = kinds
        rest = BUDGET - sum(COST[p] for p in pieces)
        if rest < 0:
            continue
        # Fill the rest with pieces of the style, leaving 0-9 points to pawns
        # (pawn-heavy styles already have theirs).
        keep_for_pawns = 0 if style in ("pawn-heavy", "max-men") else rng.randint(0, 9)
        while fill_kinds and rest > keep_for_pawns:
            fits = [k for k in fill_kinds if COST[k] <= rest]
            if not fits:
                break
            pieces.append(rng.choice(fits))
            rest = BUDGET - sum(COST[p] for p in pieces)
        pieces += ["P"] * rest
        if len(pieces) > MAX_PIECES or sum(COST[p] for p in pieces) != BUDGET:
            continue
        if variant != bool(COMPOUND & set(pieces)):
            continue
        return pieces
    raise RuntimeError(f"cannot compose a {style} army")


def place(rng, pieces, mode):
    """Squares for the men: rank 1 (7 squares beside the king) full before rank 2, etc.

    Returns a list of 4 rows (home rank first) of 8 cells, None = empty, 'K' at e.
    mode 'structured': pieces nearest the home rank, pawns in front of them;
    mode 'shuffled':   every man on a random one of the occupied squares."""
    slots = []  # (row, file) in fill order, the last row possibly partial
    rows = [[None] * 8 for _ in range(4)]
    rows[0][4] = "K"
    n = len(pieces)
    remaining = n
    for r in range(4):
        files = [f for f in range(8) if rows[r][f] is None]
        if remaining <= 0:
            break
        if remaining >= len(files):
            chosen = files
        else:
            chosen = sorted(rng.sample(files, remaining))
        slots.append([(r, f) for f in chosen])
        remaining -= len(chosen)
    if mode == "shuffled":
        order = pieces[:]
        rng.shuffle(order)
    else:
        big = [p for p in pieces if p != "P"]
        rng.shuffle(big)
        order = big + [p for p in pieces if p == "P"]
    i = 0
    for row_slots in slots:
        chunk = order[i:i + len(row_slots)]
        rng.shuffle(chunk)  # any order within one rank
        for (r, f), p in zip(row_slots, chunk):
            rows[r][f] = p
        i += len(row_slots)
    return [row for row in rows if any(c is not None and c != "K" for c in row) or row[4] == "K"]


def army_text(rows, white):
    out = []
    for row in rows:
        s, gap = "", 0
        for c in row:
            if c is None:
                gap += 1
                continue
            if gap:
                s += str(gap)
                gap = 0
            s += c if white else c.lower()
        if gap:
            s += str(gap)
        out.append(s)
    return "/".join(out)


def describe(pieces):
    counts = {}
    for p in pieces:
        counts[p] = counts.get(p, 0) + 1
    return " ".join(f"{counts[k]}{k}" if counts[k] > 1 else k
                    for k in "MCQARBNP" if k in counts) + f" ({len(pieces)} men)"


def random_army(rng, eng, color, style, variant):
    """A random army of the style that the engine accepts; returns (army, pieces)."""
    for _ in range(200):
        pieces = compose(rng, style, variant)
        mode = "shuffled" if rng.random() < 0.3 else "structured"
        army = army_text(place(rng, pieces, mode), color == "white")
        ok, ans = check_army(eng, color, army)
        want = "rules variant" if variant else "rules classic"
        if ok and ans.endswith(want):
            return army, pieces, mode
    raise RuntimeError(f"no valid {style} army for {color}")


def pieces_of(army):
    return [c.upper() for c in army if c.isalpha() and c.upper() != "K"]


# ----------------------------------------------------------------------------------
# The groups
# ----------------------------------------------------------------------------------

VARIANT_STYLES = ["balanced", "pawn-heavy", "few-big", "all-compounds", "twin-compounds",
                  "max-men", "minor-swarm"]
CLASSIC_STYLES = ["balanced", "pawn-heavy", "few-big", "max-men", "minor-swarm"]
ORTHODOX = {"white": "RNBQKBNR/PPPPPPPP", "black": "rnbqkbnr/pppppppp"}


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
    sf = subprocess.Popen([ns.stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def sf_send(c):
        sf.stdin.write(c + "\n")
        sf.stdin.flush()

    def sf_wait(prefix):
        while True:
            l = sf.stdout.readline()
            if not l:
                sys.exit("error: stockfish exited")
            if l.startswith(prefix):
                return l

    sf_send("uci"); sf_wait("uciok")
    sf_send("setoption name Threads value 1")
    sf_send("isready"); sf_wait("readyok")
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
        sf_send("ucinewgame")
        sf_send(f"position startpos moves {' '.join(moves)}")
        sf_send(f"go depth {ns.depth}")
        last = ""
        while True:
            l = sf.stdout.readline()
            if l.startswith("info") and " score " in l and " pv " in l:
                last = l
            if l.startswith("bestmove"):
                break
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
    sf_send("quit"); eng.close()
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
