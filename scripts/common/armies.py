"""The one random-army generator of the scripts under scripts/ (the tests under tests/ keep
their own, tests/support/random_armies.cpp).

An army is one side's half of the board in the engine's army notation (home rank first,
files a to h, ranks separated by `/`, at most four ranks), worth exactly 39 points with
the king on e1 / e8; the rules are in README.md, "The rules it enforces". Two kinds of
random army:

- `uniform_army(rng, white)`: random over all valid armies: piece kinds drawn one by one
  among those that still fit the points (the king free) until exactly 39 are spent within
  31 men, then every man on a random square of the ranks the placement rule fills
  (scripts/match/army_test.py).
- `random_army(rng, eng, color, style, variant)`: an army of a composition style
  (`VARIANT_STYLES`, `CLASSIC_STYLES`: balanced, pawn-heavy, few-big, max-men, ...),
  redrawn until the engine's `army check` accepts it with the wanted rules
  (scripts/match/make_army_openings.py, make_books.py).

Both depend only on the `random.Random` they are given, so a seed gives the same armies
on every machine. Python 3 standard library only.
"""

COST = {"P": 1, "N": 3, "B": 3, "R": 5, "A": 6, "C": 8, "Q": 9, "M": 13}
COMPOUND = set("MAC")
CLASSIC_PIECES = "NBRQ"
VARIANT_PIECES = "NBRQMAC"
BUDGET = 39
MAX_PIECES = 31
ORTHODOX = {"white": "RNBQKBNR/PPPPPPPP", "black": "rnbqkbnr/pppppppp"}
VARIANT_STYLES = ["balanced", "pawn-heavy", "few-big", "all-compounds", "twin-compounds",
                  "max-men", "minor-swarm"]
CLASSIC_STYLES = ["balanced", "pawn-heavy", "few-big", "max-men", "minor-swarm"]


def check_army(eng, color, army):
    """(ok, answer) of the engine's `army check` (eng: a common.uci.UciProcess)."""
    ans = eng.one(f"army check {color} {army}") or ""
    return ans.startswith("army ok points 39"), ans


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


def uniform_army(rng, white):
    """A random valid army over all valid armies (module docstring)."""
    while True:
        men, rest = [], BUDGET
        while rest > 0:
            kind = rng.choice([k for k in COST if COST[k] <= rest])
            men.append(kind)
            rest -= COST[kind]
        if len(men) > MAX_PIECES:
            continue
        squares = [(0, f) for f in range(8) if f != 4] + [(r, f) for r in (1, 2, 3) for f in range(8)]
        used = squares[: len(men)]
        # The last rank used may be partial: any of its squares, at random.
        last = used[-1][0]
        count_last = sum(1 for r, _ in used if r == last)
        row_squares = [(last, f) for f in range(8) if (last, f) != (0, 4)]
        chosen = [s for s in used if s[0] != last] + rng.sample(row_squares, count_last)
        rng.shuffle(men)
        rows = [[None] * 8 for _ in range(4)]
        rows[0][4] = "K"
        for (r, f), m in zip(chosen, men):
            rows[r][f] = m
        return army_text(rows[: last + 1], white)
