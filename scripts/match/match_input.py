"""The match runner's inputs: opening files and the tags of a PGN file (match.py).

Python 3.11 standard library only.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

STARTFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
UCI_MOVE_RE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbnmac]?$")


class UsageError(Exception):
    """A bad command-line argument or input file: one line, exit status 2."""


# --------------------------------------------------------------------------------------
# Openings
# --------------------------------------------------------------------------------------


@dataclass
class Opening:
    kind: str  # "fen" or "army"
    line: int  # line number in the file (0: built in)
    text: str  # the line as written
    fen: str | None = None
    armies: tuple[str, str] | None = None
    moves: list[str] = field(default_factory=list)
    # Filled in by the referee (resolve_opening):
    root_fen: str | None = None


def _split_moves(tokens, where):
    if not tokens:
        return [], []
    if "moves" in tokens:
        i = tokens.index("moves")
        head, moves = tokens[:i], tokens[i + 1:]
    else:
        head, moves = tokens, []
    for m in moves:
        if not UCI_MOVE_RE.match(m):
            raise UsageError(f"{where}: '{m}' is not a UCI move")
    return head, moves


def _normalize_fen_fields(fields, where):
    if len(fields) >= 5 and not fields[4].lstrip("-").isdigit():
        fields = fields[:4]  # EPD with operations: keep the position part
    if len(fields) == 4:
        fields = fields + ["0", "1"]
    elif len(fields) == 5:
        fields = fields + ["1"]
    if not 6 <= len(fields) <= 8:
        raise UsageError(f"{where}: a FEN needs 6 to 8 fields, got {len(fields)}")
    if fields[0].count("/") != 7:
        raise UsageError(f"{where}: '{fields[0]}' is not a FEN board (8 ranks)")
    return " ".join(fields)


def parse_opening_line(line: str, where: str = "opening") -> Opening | None:
    """One line of an openings file; None for blank and comment lines."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if ";" in text and "/" in text.split()[0]:
        text_pos = text.split(";", 1)[0]  # EPD: drop the operations after the first ';'
    else:
        text_pos = text
    tokens = text_pos.split()
    if tokens[0] == "position":
        tokens = tokens[1:]
        if not tokens:
            raise UsageError(f"{where}: empty position")
    head = tokens[0]
    if head == "startpos":
        rest, moves = _split_moves(tokens[1:], where)
        if rest:
            raise UsageError(f"{where}: unexpected '{rest[0]}' after startpos")
        return Opening("fen", 0, text, fen=STARTFEN, moves=moves)
    if head == "fen":
        fields, moves = _split_moves(tokens[1:], where)
        return Opening("fen", 0, text, fen=_normalize_fen_fields(fields, where), moves=moves)
    if head == "army":
        rest, moves = _split_moves(tokens[1:], where)
        if len(rest) != 2:
            raise UsageError(f"{where}: 'army' needs a white and a black army")
        for a in rest:
            if not re.fullmatch(r"[KQRBNPMACkqrbnpmac1-8]+(/[KQRBNPMACkqrbnpmac1-8]+){0,3}", a):
                raise UsageError(f"{where}: '{a}' is not an army (ranks of one side, home rank first)")
        return Opening("army", 0, text, armies=(rest[0], rest[1]), moves=moves)
    if "/" in head:
        fields, moves = _split_moves(tokens, where)
        return Opening("fen", 0, text, fen=_normalize_fen_fields(fields, where), moves=moves)
    raise UsageError(f"{where}: not a FEN, 'startpos', 'fen' or 'army' line: {text[:60]}")


def parse_openings_text(text: str, name: str = "openings") -> list[Opening]:
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        op = parse_opening_line(line, f"{name}:{no}")
        if op is not None:
            op.line = no
            out.append(op)
    if not out:
        raise UsageError(f"{name}: no openings in the file")
    return out


def parse_openings_file(path: str) -> list[Opening]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise UsageError(f"cannot read openings file {path}: {e.strerror}") from None
    return parse_openings_text(text, path)


def opening_schedule(n_openings: int, n_pairs: int, random_order: bool, seed) -> list[int]:
    """Index of the opening for each game pair: file order, or seeded shuffles per pass."""
    rng = random.Random(seed)
    out: list[int] = []
    while len(out) < n_pairs:
        order = list(range(n_openings))
        if random_order:
            rng.shuffle(order)
        out.extend(order)
    return out[:n_pairs]


PGN_TAG_RE = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$')


def read_pgn_tags(path: str) -> list[dict[str, str]]:
    """The tag pairs of every game in a PGN file, in file order (movetext is skipped)."""
    games: list[dict[str, str]] = []
    in_tags = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = PGN_TAG_RE.match(line)
            if not m:
                in_tags = False
                continue
            if not in_tags:
                games.append({})
                in_tags = True
            games[-1][m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
    return games
