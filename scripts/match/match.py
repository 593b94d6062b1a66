#!/usr/bin/env python3
"""Plays a match between two UCI engines, refereed by the Maharajah engine.

Every game is checked move by move by a referee process (the Maharajah binary,
`--referee`), which knows the rules of chess and of the Maharajah variant: each
engine's bestmove must be in the referee's list of legal moves, and the referee says
when the game is over (checkmate, stalemate, draws) and who wins on time.

Usage example:

  scripts/match/match.py --engine name=new cmd=build/maharajah option.Hash=16 \\
                   --engine name=old cmd=/tmp/old/maharajah option.Hash=16 \\
                   --tc 10+0.1 --games 200 --openings openings.txt --concurrency 2 \\
                   --pgn games.pgn --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05

Python 3.11 standard library only. Run `scripts/match/match.py --help` for every flag.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import shutil
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from match_input import (STARTFEN, Opening, UsageError, opening_schedule, parse_opening_line,  # noqa: F401
                         parse_openings_file, parse_openings_text, read_pgn_tags)
from match_stats import pentanomial, sprt_bounds, sprt_llr, sprt_may_stop, trinomial
from match_uci import EngineDead, Player, ReadTimeout, Referee, RefereeError

DEFAULT_REFEREE = str(Path(__file__).resolve().parent.parent.parent / "build" / "maharajah")


# --------------------------------------------------------------------------------------
# Arguments
# --------------------------------------------------------------------------------------

@dataclass
class EngineSpec:
    name: str | None = None
    cmd: str = ""
    args: list[str] = field(default_factory=list)
    dir: str | None = None
    options: list[tuple[str, str]] = field(default_factory=list)
    nodes: int | None = None  # fixed node budget a move (go nodes N); the clock still runs


def parse_engine_spec(tokens, each=()) -> EngineSpec:
    """`name=A cmd=/path [arg=...] [dir=...] option.Name=value ...` (cutechess style)."""
    spec = EngineSpec()
    for tok in list(each) + list(tokens):
        if "=" not in tok:
            raise UsageError(f"engine spec token '{tok}' is not key=value")
        key, value = tok.split("=", 1)
        if key == "name":
            spec.name = value
        elif key == "cmd":
            spec.cmd = value
        elif key == "arg":
            spec.args.append(value)
        elif key == "dir":
            spec.dir = value
        elif key == "nodes":
            if not value.isdigit() or int(value) <= 0:
                raise UsageError(f"engine spec token '{tok}': nodes must be a positive integer")
            spec.nodes = int(value)
        elif key.startswith("option."):
            oname = key[len("option."):]
            if not oname:
                raise UsageError(f"engine spec token '{tok}' has an empty option name")
            spec.options = [(k, v) for k, v in spec.options if k != oname] + [(oname, value)]
        else:
            raise UsageError(f"unknown engine spec key '{key}' (name, cmd, arg, dir, nodes, option.X)")
    if not spec.cmd:
        raise UsageError("engine spec without cmd=")
    resolved = spec.cmd if os.sep in spec.cmd else shutil.which(spec.cmd)
    if not resolved or not os.path.isfile(resolved) or not os.access(resolved, os.X_OK):
        raise UsageError(f"engine command not found or not executable: {spec.cmd}")
    spec.cmd = os.path.abspath(resolved)
    if spec.name is None:
        spec.name = os.path.basename(resolved)
    return spec


def parse_tc(text: str) -> tuple[float, float]:
    m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)(?:\+(\d+(?:\.\d*)?|\.\d+))?", text.strip())
    if not m:
        raise UsageError(f"bad --tc '{text}', expected base+inc in seconds, e.g. 10+0.1")
    base = float(m.group(1))
    inc = float(m.group(2)) if m.group(2) else 0.0
    if base <= 0:
        raise UsageError("--tc base time must be positive")
    return base, inc


def tc_tag(base: float, inc: float) -> str:
    def f(x):
        return f"{x:g}"
    return f"{f(base)}+{f(inc)}" if inc else f(base)


@dataclass
class SprtSpec:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"


def parse_sprt(tokens) -> SprtSpec:
    vals = {}
    for tok in tokens:
        if "=" not in tok:
            raise UsageError(f"--sprt token '{tok}' is not key=value")
        k, v = tok.split("=", 1)
        vals[k] = v
    unknown = set(vals) - {"elo0", "elo1", "alpha", "beta", "model"}
    if unknown:
        raise UsageError(f"unknown --sprt key(s): {', '.join(sorted(unknown))}")
    try:
        spec = SprtSpec(float(vals["elo0"]), float(vals["elo1"]),
                        float(vals.get("alpha", 0.05)), float(vals.get("beta", 0.05)),
                        vals.get("model", "logistic"))
    except KeyError as e:
        raise UsageError(f"--sprt needs {e.args[0]}=") from None
    except ValueError:
        raise UsageError("--sprt values must be numbers") from None
    if spec.model not in ("logistic", "normalized"):
        raise UsageError("--sprt model must be logistic or normalized")
    if not (0 < spec.alpha < 1 and 0 < spec.beta < 1):
        raise UsageError("--sprt alpha and beta must be in (0, 1)")
    if spec.elo1 <= spec.elo0:
        raise UsageError("--sprt needs elo1 > elo0")
    return spec


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line instead of usage + message
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="match.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play a match between two UCI engines, refereed by the Maharajah engine "
                    "(legal moves, game end, time forfeits). Openings are played twice with "
                    "colours swapped (game pairs).",
        epilog="""engine spec (cutechess style), given twice with --engine:
  name=NAME          display name (default: the binary's file name)
  cmd=PATH           the engine binary (looked up in PATH when it has no '/')
  arg=ARG            a command-line argument for the engine (repeatable)
  dir=DIR            working directory
  nodes=N            search N nodes a move (go nodes N) instead of using the clock; the
                     clock still runs, so give a long --tc (node matches do not depend on
                     machine load). With both engines on fixed nodes the games are
                     deterministic: play at most two games per opening (the match says
                     when pairs repeat)
  option.NAME=VALUE  sent as 'setoption name NAME value VALUE' (quote it if NAME has spaces:
                     'option.Skill Level=0')

openings file, one opening per line ('#' starts a comment line):
  <FEN>                          6 fields, or the 8-field Maharajah dialect (4-field EPD too)
  startpos [moves m1 m2 ...]     UCI moves from the start position
  fen <FEN> [moves m1 m2 ...]    UCI moves from a FEN
  army <white> <black> [moves ...]  Maharajah armies, home rank first, e.g.
                                 army RNBQKBNR/PPPPPPPP rnbqkbnr/pppppppp
  A leading 'position' word is accepted. Opening moves are 'book' moves: no clock.

game end: the referee's status ends a game (checkmate, stalemate, insufficient material,
fivefold repetition, 75-move rule); a threefold repetition or 50-move claim is taken as
a draw at once; --maxmoves plies give a draw. A bestmove not in the referee's legal move
list (or none) loses; an engine that exits or closes its pipe loses (and is restarted);
a flag fall loses, or draws when the opponent has no mating material, or aborts the
game (result *, not scored) when the player has not moved yet (the rules in README.md). A bestmove
that arrives after the clock ran out is a time loss; the runner waits for it (no stop
sent) and reports the worst clock overrun (ms past zero) per engine. No bestmove
--hang-timeout seconds after the clock ran out, or no readyok within --ready-timeout, is
a hang: counted apart from crashes, the engine is killed and restarted, the game is
decided as a flag fall.

output: one line per game, a summary (score, Elo +/- 95 %, LOS, SPRT) every
--report-every games and at the end, and the counts of illegal moves, time losses and
crashes and hangs per engine. Exit status: 0 match completed, 2 bad arguments, 3 with
--strict when any illegal move, time loss, crash or hang happened, 130 interrupted.""")
    p.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE", required=True,
                   help="an engine spec (give exactly two); see below")
    p.add_argument("--each", nargs="+", default=[], metavar="KEY=VALUE",
                   help="spec tokens applied to both engines (e.g. option.Hash=16)")
    p.add_argument("--tc", default="10+0.1", help="time control base+inc in seconds (default 10+0.1)")
    p.add_argument("--timemargin", type=int, default=0, metavar="MS",
                   help="ms an engine may overrun its clock without losing (default 0)")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="total games (default 2; with --sprt: 100000, the SPRT stops earlier)")
    p.add_argument("--openings", metavar="FILE", help="openings file (default: start position)")
    p.add_argument("--random-order", action="store_true",
                   help="play the openings in a random order (reshuffled each pass)")
    p.add_argument("--seed", type=int, default=None, help="random seed for --random-order")
    p.add_argument("--concurrency", type=int, default=1, metavar="N",
                   help="games played at the same time (default 1)")
    p.add_argument("--referee", default=DEFAULT_REFEREE, metavar="PATH",
                   help=f"the Maharajah binary used as rules referee (default {DEFAULT_REFEREE})")
    p.add_argument("--maxmoves", type=int, default=400, metavar="PLIES",
                   help="adjudicate a draw after this many plies played by the engines "
                        "(book moves not counted; default 400)")
    p.add_argument("--pgn", metavar="FILE", help="append every game to this PGN file")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted match: the games already in --pgn count and are "
                        "not played again (give the same engine names, --games, --openings, "
                        "--random-order and --seed as the first run)")
    p.add_argument("--event", default="Maharajah match", help="PGN Event tag")
    p.add_argument("--report-every", type=int, default=0, metavar="N",
                   help="print the summary every N games (default: only at the end)")
    p.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                   help="elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=logistic|normalized]: "
                        "sequential test, the match stops when a bound is crossed")
    p.add_argument("--ready-timeout", type=float, default=10.0, metavar="S",
                   help="seconds an engine may take to answer uci/isready (default 10)")
    p.add_argument("--hang-timeout", type=float, default=5.0, metavar="S",
                   help="seconds after its clock ran out that an engine may still send its "
                        "bestmove (a time loss, overrun measured); later, it counts as a hang "
                        "and is killed and restarted (default 5)")
    p.add_argument("--json", metavar="FILE",
                   help="write the final counts (results, faults per engine, clock overruns, least "
                        "clock left after a move in time) "
                        "to this JSON file")
    p.add_argument("--strict", action="store_true",
                   help="exit with status 3 if any illegal move, time loss, crash or hang happened")
    p.add_argument("--debug", action="store_true", help="log all engine and referee traffic to stderr")
    return p


@dataclass
class Config:
    engines: list[EngineSpec]
    base: float
    inc: float
    timemargin_ms: int
    games: int
    openings: list
    openings_path: str | None
    random_order: bool
    seed: int | None
    concurrency: int
    referee: str
    maxmoves: int
    pgn: str | None
    event: str
    report_every: int
    sprt: SprtSpec | None
    ready_timeout: float
    strict: bool
    debug: bool
    hang_timeout: float = 5.0
    json_path: str | None = None
    resume: bool = False


def parse_args(argv) -> Config:
    ns = build_parser().parse_args(argv)
    if len(ns.engine) != 2:
        raise UsageError(f"need exactly two --engine specs, got {len(ns.engine)}")
    engines = [parse_engine_spec(tokens, ns.each) for tokens in ns.engine]
    base, inc = parse_tc(ns.tc)
    sprt = parse_sprt(ns.sprt) if ns.sprt else None
    games = ns.games if ns.games is not None else (100000 if sprt else 2)
    if games < 1:
        raise UsageError("--games must be at least 1")
    if ns.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    if ns.maxmoves < 1:
        raise UsageError("--maxmoves must be at least 1")
    if ns.timemargin < 0:
        raise UsageError("--timemargin must not be negative")
    if not ns.hang_timeout > 0:
        raise UsageError("--hang-timeout must be positive")
    if ns.report_every < 0:
        raise UsageError("--report-every must not be negative")
    if ns.resume and not ns.pgn:
        raise UsageError("--resume needs the --pgn file of the interrupted match")
    if ns.resume and ns.random_order and ns.seed is None:
        raise UsageError("--resume with --random-order needs the first run's --seed")
    if not (os.path.isfile(ns.referee) and os.access(ns.referee, os.X_OK)):
        raise UsageError(f"referee not found or not executable: {ns.referee} "
                         "(build the engine or pass --referee)")
    openings = parse_openings_file(ns.openings) if ns.openings else [Opening("fen", 0, "startpos", fen=STARTFEN)]
    return Config(engines, base, inc, ns.timemargin, games, openings, ns.openings,
                  ns.random_order, ns.seed, ns.concurrency, ns.referee, ns.maxmoves, ns.pgn,
                  ns.event, ns.report_every, sprt, ns.ready_timeout, ns.strict, ns.debug,
                  ns.hang_timeout, ns.json, ns.resume)


# --------------------------------------------------------------------------------------
# Openings (parsed in match_input.py) resolved by the referee
# --------------------------------------------------------------------------------------

def resolve_opening(ref: Referee, op: Opening, where: str) -> None:
    """Uses the referee to check an opening and find its root FEN (op.root_fen)."""
    ref.ensure()
    if op.kind == "army":
        errs = ref.set_position(f"position army {op.armies[0]} {op.armies[1]}")
    else:
        errs = ref.set_position(f"position fen {op.fen}")
    if errs:
        raise UsageError(f"{where}: referee refused the position: {errs[0]}")
    ans = ref.answer("fen")
    if not ans.startswith("fen "):
        raise UsageError(f"{where}: referee gave no FEN ({ans})")
    op.root_fen = ans[len("fen "):].strip()
    try:
        status, _ = ref.query(op.root_fen, op.moves)
    except RefereeError as e:
        raise UsageError(f"{where}: {e}") from None
    if status != "ongoing":
        raise UsageError(f"{where}: the opening leaves no game to play (status {status})")


# --------------------------------------------------------------------------------------
# Games
# --------------------------------------------------------------------------------------

@dataclass
class GameJob:
    number: int  # 1-based
    pair: int  # 0-based pair index
    a_is_white: bool
    opening: Opening


@dataclass
class GameRecord:
    job: GameJob
    white: str
    black: str
    result: str  # 1-0, 0-1, 1/2-1/2, *
    termination: str  # PGN Termination tag value
    reason: str  # short reason for the game line
    comment: str  # final PGN comment
    moves: list[tuple[str, str | None]]  # (move, comment) from the root, book moves included
    book_plies: int
    root_fen: str
    variant: bool
    faults: list[tuple[str, str]]  # (engine label A/B, "illegal" | "time" | "crash" | "hang")
    referee_error: bool = False
    date: str = ""
    overruns: list[tuple[str, float]] = field(default_factory=list)  # (label, ms past zero)
    min_left: dict[str, float] = field(default_factory=dict)  # label: least clock left after a move

    def score_for_a(self) -> float | None:
        return score_for_a(self.result, self.job.a_is_white)


def score_for_a(result: str, a_is_white: bool) -> float | None:
    """Engine A's score in a game with this PGN result; None for an unscored game (*)."""
    if result == "1/2-1/2":
        return 0.5
    if result not in ("1-0", "0-1"):
        return None
    return 1.0 if (result == "1-0") == a_is_white else 0.0


STATUS_TEXT = {
    "stalemate": ("stalemate", "Draw by stalemate"),
    "draw insufficient": ("insufficient material", "Draw by insufficient mating material"),
    "draw fivefold": ("fivefold repetition", "Draw by fivefold repetition"),
    "draw seventyfive": ("75-move rule", "Draw by the 75-move rule"),
    "ongoing claim threefold": ("threefold repetition", "Draw by threefold repetition"),
    "ongoing claim fifty": ("50-move rule", "Draw by the 50-move rule"),
}


def is_variant_fen(fen: str, opening: Opening) -> bool:
    return (opening.kind == "army" or len(fen.split()) >= 7
            or bool(re.search(r"[MACmac]", fen.split()[0])))


def play_game(job: GameJob, players: dict, ref: Referee, cfg: Config, names: dict) -> GameRecord:
    """Plays one game. players: {"A": Player, "B": Player}."""
    op = job.opening
    white_label, black_label = ("A", "B") if job.a_is_white else ("B", "A")
    label_of = {"w": white_label, "b": black_label}
    root = op.root_fen
    moves: list[tuple[str, str | None]] = [(m, "book") for m in op.moves]
    faults: list[tuple[str, str]] = []
    rec = GameRecord(job, names[white_label], names[black_label], "*", "unterminated", "",
                     "", moves, len(op.moves), root, is_variant_fen(root, op), faults,
                     date=datetime.date.today().strftime("%Y.%m.%d"))
    color_name = {"w": "White", "b": "Black"}
    side = root.split()[1]
    if len(op.moves) % 2:
        side = "b" if side == "w" else "w"

    def finish(result, termination, reason, comment):
        rec.result, rec.termination, rec.reason, rec.comment = result, termination, reason, comment
        return rec

    # Make sure both players are up and ready for a new game.
    for label in (white_label, black_label):
        p = players[label]
        ok = False
        counted = len(faults)
        for attempt in range(2):
            try:
                if not p.alive():
                    if not p.expect_dead:
                        faults.append((label, "crash"))  # died between games
                    p.init()
                p.new_game()
                ok = True
                break
            except ReadTimeout:  # no uciok/readyok in time: a hang, not a crash
                faults.append((label, "hang"))
                p.expect_dead = True
                p.kill()
            except EngineDead:
                if not p.expect_dead:
                    faults.append((label, "crash"))
                p.expect_dead = True
                p.kill()
        if not ok:
            if len(faults) == counted:
                faults.append((label, "crash"))
            col = "w" if label == white_label else "b"
            return finish("0-1" if col == "w" else "1-0", "abandoned",
                          f"{color_name[col].lower()} ({names[label]}) does not start",
                          f"{color_name[col]} engine does not start")

    clock = {"w": cfg.base * 1000.0, "b": cfg.base * 1000.0}
    inc_ms = cfg.inc * 1000.0
    plies = 0
    while True:
        line_moves = [m for m, _ in moves]
        try:
            status, legal = ref.query(root, line_moves)
        except RefereeError as e:
            rec.referee_error = True
            return finish("*", "unterminated", f"referee error: {e}", f"Referee error: {e}")
        if status == "checkmate":
            winner = "b" if side == "w" else "w"
            return finish("1-0" if winner == "w" else "0-1", "normal", "checkmate",
                          f"{color_name[winner]} mates")
        if status in STATUS_TEXT:
            reason, comment = STATUS_TEXT[status]
            return finish("1/2-1/2", "normal", reason, comment)
        if status.startswith("draw"):
            return finish("1/2-1/2", "normal", status, f"Draw: {status}")
        if status != "ongoing":
            if "claim" in status:
                return finish("1/2-1/2", "normal", status, f"Draw: {status}")
            rec.referee_error = True
            return finish("*", "unterminated", f"referee status '{status}'",
                          f"Unknown referee status {status}")
        if plies >= cfg.maxmoves:
            return finish("1/2-1/2", "adjudication", f"adjudication: {plies} plies",
                          f"Draw by adjudication: {plies} plies")

        label = label_of[side]
        p = players[label]
        who = f"{color_name[side].lower()} ({names[label]})"
        if root == STARTFEN:
            pos = "position startpos"
        else:
            pos = f"position fen {root}"
        if line_moves:
            pos += " moves " + " ".join(line_moves)
        ans = p.go(pos, clock["w"], clock["b"], inc_ms, clock[side], cfg.timemargin_ms,
                   cfg.hang_timeout)

        if ans.kind == "crash":
            faults.append((label, "crash"))
            return finish("0-1" if side == "w" else "1-0", "abandoned", f"{who} crashed",
                          f"{color_name[side]} disconnects ({ans.detail})")
        remaining = clock[side] - ans.elapsed * 1000.0
        if ans.kind in ("timeout", "hang") or remaining < -cfg.timemargin_ms:
            if ans.kind == "hang":
                faults.append((label, "hang"))
                why, why_c = f"hangs ({ans.detail})", f"hangs ({ans.detail})"
            else:
                faults.append((label, "time"))
                over = ans.overrun_ms if ans.overrun_ms is not None else -remaining
                rec.overruns.append((label, over))
                why, why_c = f"loses on time ({over:.0f} ms over)", f"loses on time, {over:.0f} ms over"
            clock[side] = min(remaining, 0.0)
            try:
                res = ref.flag("white" if side == "w" else "black")
            except RefereeError:
                res = ""
            if res.startswith("1/2-1/2"):
                return finish("1/2-1/2", "time forfeit", f"{who} {why}, drawn",
                              f"{color_name[side]} {why_c}, opponent has no mating material: draw")
            if res.startswith("aborted"):
                return finish("*", "abandoned", f"{who} {why}: flag fell before its first move, aborted",
                              f"{color_name[side]} {why_c}: flag fell before its first move: aborted")
            return finish("0-1" if side == "w" else "1-0", "time forfeit", f"{who} {why}",
                          f"{color_name[side]} {why_c}")
        mv = ans.move
        if mv is None or mv not in legal:
            faults.append((label, "illegal"))
            shown = mv if mv is not None else "(no move)"
            return finish("0-1" if side == "w" else "1-0", "rules infraction",
                          f"{who} illegal move {shown}",
                          f"{color_name[side]} makes an illegal move: {shown}")
        rec.min_left[label] = min(rec.min_left.get(label, math.inf), remaining)
        clock[side] = remaining + inc_ms
        comment = f"{ans.score + ' ' if ans.score else ''}{ans.elapsed:.3f}s"
        moves.append((mv, comment))
        plies += 1
        side = "b" if side == "w" else "w"


def pgn_text(rec: GameRecord, cfg: Config) -> str:
    tags = [("Event", cfg.event), ("Site", "?"), ("Date", rec.date), ("Round", str(rec.job.number)),
            ("White", rec.white), ("Black", rec.black), ("Result", rec.result)]
    if rec.root_fen != STARTFEN:
        tags += [("FEN", rec.root_fen), ("SetUp", "1")]
    if rec.variant:
        tags.append(("Variant", "maharajah"))
    tags += [("TimeControl", tc_tag(cfg.base, cfg.inc)), ("Termination", rec.termination),
             ("PlyCount", str(len(rec.moves)))]
    if rec.job.opening.line:
        tags.append(("Opening", rec.job.opening.text))

    def esc(s):
        return s.replace("\\", "\\\\").replace('"', '\\"')

    out = [f'[{k} "{esc(v)}"]' for k, v in tags]
    out.append("")
    fields = rec.root_fen.split()
    side = fields[1]
    try:
        number = int(fields[5])
    except (IndexError, ValueError):
        number = 1
    tokens = []
    need_number = True
    for mv, comment in rec.moves:
        if side == "w":
            tokens.append(f"{number}.")
        elif need_number:
            tokens.append(f"{number}...")
        tokens.append(mv)
        need_number = False
        if comment:
            tokens.append("{" + comment.replace("}", ")") + "}")
            need_number = True
        if side == "b":
            number += 1
        side = "b" if side == "w" else "w"
    tokens.append("{" + rec.comment.replace("}", ")") + "}")
    tokens.append(rec.result)
    lines, cur = [], ""
    for t in tokens:
        if cur and len(cur) + 1 + len(t) > 79:
            lines.append(cur)
            cur = t
        else:
            cur = f"{cur} {t}" if cur else t
    lines.append(cur)
    return "\n".join(out + lines) + "\n\n"


PGN_HEADER = ("% Written by Maharajah's scripts/match/match.py. Moves are in UCI long algebraic notation\n"
              "% (e2e4, e7e8q, e1g1 for castling, e7e8m for compound promotions), not SAN.\n"
              "% Comments after engine moves: score from the mover's view/depth and time used.\n\n")


# Terminations that mean an engine fault (illegal move, time loss, crash or hang).
FAULT_TERMINATIONS = ("rules infraction", "time forfeit", "abandoned")


# --------------------------------------------------------------------------------------
# Match
# --------------------------------------------------------------------------------------

class Match:
    def __init__(self, cfg: Config, out=None):
        self.cfg = cfg
        self.out = out or sys.stdout
        self.lock = threading.Lock()
        self.names = {"A": cfg.engines[0].name, "B": cfg.engines[1].name}
        self.wld = [0, 0, 0]  # from A's view: wins, losses, draws
        self.pairs: dict[int, dict[int, float | None]] = {}
        self.penta = [0, 0, 0, 0, 0]
        self.faults = {lab: {"illegal": 0, "time": 0, "crash": 0, "hang": 0} for lab in ("A", "B")}
        self.overruns: dict[str, list[float]] = {"A": [], "B": []}  # ms past zero, per time loss
        self.min_left = {"A": math.inf, "B": math.inf}  # closest call: least clock left after a move
        self.referee_errors = 0
        self.aborted = 0
        self.finished = 0
        self.stop = threading.Event()
        self.sprt_decision: str | None = None
        self.sprt_games = 0
        self.closed = False  # set on interrupt: late results are dropped
        self.internal_error = False
        self.jobs: list[GameJob] = []
        self.todo: list[GameJob] = []  # the jobs still to play (all of them unless resumed)
        self.next_job = 0
        self.resumed = 0  # games counted from the PGN of an interrupted run
        self.resumed_faults = 0  # of those, games that ended by an engine fault
        self.pgn_file = None
        self.all_players: list[Player] = []
        self.all_referees: list[Referee] = []

    def emit(self, text: str):
        print(text, file=self.out, flush=True)

    # --- setup ------------------------------------------------------------------------
    def prepare(self):
        cfg = self.cfg
        n_pairs = (cfg.games + 1) // 2
        sched = opening_schedule(len(cfg.openings), n_pairs, cfg.random_order, cfg.seed)
        ref = self.new_referee(0)
        try:
            ref.check_protocol()
        except (RefereeError, EngineDead) as e:
            raise UsageError(str(e)) from None
        used = sorted(set(sched))
        src = cfg.openings_path or "openings"
        for i in used:
            op = cfg.openings[i]
            where = f"{src}:{op.line}" if op.line else "start position"
            try:
                resolve_opening(ref, op, where)
            except RefereeError as e:
                raise UsageError(f"{where}: {e}") from None
        for g in range(cfg.games):
            pair = g // 2
            self.jobs.append(GameJob(g + 1, pair, g % 2 == 0, cfg.openings[sched[pair]]))
        done = self.resume() if cfg.resume else set()
        self.todo = [j for j in self.jobs if j.number not in done]
        if cfg.pgn:
            try:
                new = not os.path.exists(cfg.pgn) or os.path.getsize(cfg.pgn) == 0
                self.pgn_file = open(cfg.pgn, "a", encoding="utf-8")
                if new:
                    self.pgn_file.write(PGN_HEADER)
                    self.pgn_file.flush()
            except OSError as e:
                raise UsageError(f"cannot write PGN file {cfg.pgn}: {e.strerror}") from None
        return ref

    def resume(self) -> set[int]:
        """Counts the games of an interrupted run of this match from its PGN file; returns
        their numbers. Each game must be the one this schedule puts at its Round number
        (same engines on the same colours, same opening), else the arguments differ from
        the first run's and resuming would mix two matches."""
        path = self.cfg.pgn
        if not os.path.exists(path):
            return set()
        try:
            games = read_pgn_tags(path)
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"--resume: cannot read {path}: {e}") from None
        done: set[int] = set()
        for k, tags in enumerate(games, 1):
            where = f"--resume: {path}, game {k}"
            try:
                n = int(tags.get("Round", ""))
            except ValueError:
                raise UsageError(f"{where}: no Round number") from None
            if not 1 <= n <= len(self.jobs):
                raise UsageError(f"{where}: round {n} is not among this match's {len(self.jobs)} games")
            if n in done:
                raise UsageError(f"{where}: round {n} appears twice")
            job = self.jobs[n - 1]
            a, b = self.names["A"], self.names["B"]
            white, black = (a, b) if job.a_is_white else (b, a)
            opening = job.opening.text if job.opening.line else None
            if (tags.get("White"), tags.get("Black"), tags.get("Opening")) != (white, black, opening):
                raise UsageError(f"{where}: round {n} ({tags.get('White')} vs {tags.get('Black')}, "
                                 f"opening {tags.get('Opening')!r}) is not this schedule's "
                                 f"({white} vs {black}, opening {opening!r}): give the first run's "
                                 f"engine names, --games, --openings and --seed")
            done.add(n)
            if tags.get("Termination") in FAULT_TERMINATIONS:
                self.resumed_faults += 1
            self.count(job, score_for_a(tags.get("Result", "*"), job.a_is_white))
        self.resumed = self.finished = len(done)
        self.check_sprt()
        return done

    def new_referee(self, i):
        ref = Referee(self.cfg.referee, self.cfg.debug, f"referee{i}")
        self.all_referees.append(ref)
        return ref

    def new_players(self, i):
        ps = {}
        for lab, spec in zip(("A", "B"), self.cfg.engines):
            p = Player(f"{lab}{i}:{spec.name}", spec, self.cfg.ready_timeout, self.cfg.debug)
            self.all_players.append(p)
            ps[lab] = p
        return ps

    # --- running ----------------------------------------------------------------------
    def take_job(self) -> GameJob | None:
        with self.lock:
            if self.stop.is_set() or self.next_job >= len(self.todo):
                return None
            job = self.todo[self.next_job]
            self.next_job += 1
            return job

    def worker(self, i, ref, players):
        try:
            while True:
                job = self.take_job()
                if job is None:
                    return
                rec = play_game(job, players, ref, self.cfg, self.names)
                self.record(rec)
        except Exception as e:  # a bug in the runner: report it, stop the match
            with self.lock:
                self.emit(f"internal error in worker {i}: {type(e).__name__}: {e}")
                self.stop.set()
                self.internal_error = True

    def record(self, rec: GameRecord):
        with self.lock:
            if self.closed:
                return
            self.finished += 1
            for lab, kind in rec.faults:
                self.faults[lab][kind] += 1
            for lab, ms in rec.overruns:
                self.overruns[lab].append(ms)
            for lab, ms in rec.min_left.items():
                self.min_left[lab] = min(self.min_left[lab], ms)
            if rec.referee_error:
                self.referee_errors += 1
            self.count(rec.job, rec.score_for_a())
            self.emit(f"game {rec.job.number}: {rec.white} vs {rec.black} {rec.result} ({rec.reason})")
            if self.pgn_file:
                self.pgn_file.write(pgn_text(rec, self.cfg))
                self.pgn_file.flush()
            self.check_sprt()
            if self.cfg.report_every and self.finished % self.cfg.report_every == 0 \
                    and self.finished < len(self.jobs) and not self.stop.is_set():
                self.emit(self.summary())

    def count(self, job: GameJob, s: float | None):
        """Adds one game's score (engine A's view; None: unscored) to the totals and pairs."""
        if s is None:
            self.aborted += 1
        elif s == 1.0:
            self.wld[0] += 1
        elif s == 0.0:
            self.wld[1] += 1
        else:
            self.wld[2] += 1
        slot = self.pairs.setdefault(job.pair, {})
        slot[job.number] = s
        if len(slot) == 2 and all(v is not None for v in slot.values()):
            self.penta[int(round(sum(slot.values()) * 2))] += 1

    def check_sprt(self):
        """Stops the match once the LLR crosses a bound."""
        if self.cfg.sprt and self.sprt_decision is None and self.sprt_can_decide():
            llr = self.llr()
            lo, hi = sprt_bounds(self.cfg.sprt.alpha, self.cfg.sprt.beta)
            if llr >= hi:
                self.sprt_decision = "H1 accepted"
            elif llr <= lo:
                self.sprt_decision = "H0 accepted"
            if self.sprt_decision:
                self.sprt_games = self.finished
                self.stop.set()

    def use_pentanomial(self) -> bool:
        return sum(self.penta) > 0

    def sprt_counts(self):
        return self.penta if self.use_pentanomial() else [self.wld[1], self.wld[2], self.wld[0]]

    def sprt_can_decide(self) -> bool:
        return sprt_may_stop(self.sprt_counts())

    def llr(self) -> float:
        sp = self.cfg.sprt
        return sprt_llr(self.sprt_counts(), sp.elo0, sp.elo1, sp.model)

    def summary(self) -> str:
        w, l, d = self.wld
        n = w + l + d
        a, b = self.names["A"], self.names["B"]
        pct = (w + d / 2) / n if n else 0.0
        lines = [f"Score of {a} vs {b}: {w} - {l} - {d}  [{pct:.3f}] {n}"]
        if self.use_pentanomial():
            est = pentanomial(self.penta)
            lines.append(f"Ptnml(0-2): [{', '.join(str(c) for c in self.penta)}]")
            unit = f"{est.samples} game pairs, pentanomial"
        else:
            est = trinomial(w, l, d)
            unit = f"{est.samples} games, trinomial"

        def fmt(x):
            return f"{x + 0.0:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")
        err = f"{est.error:.1f}" if math.isfinite(est.error) else "inf"
        nerr = f"{est.nelo_error:.1f}" if math.isfinite(est.nelo_error) else "inf"
        if n:
            lines.append(f"Elo difference: {fmt(est.elo)} +/- {err} (95%, {unit})")
            lines.append(f"nElo: {fmt(est.nelo)} +/- {nerr}")
            lines.append(f"LOS: {est.los * 100:.1f} %")
            lines.append(f"DrawRatio: {d / n * 100:.1f} %")
        else:
            lines.append("Elo difference: n/a (no finished game)")
        if self.cfg.sprt:
            sp = self.cfg.sprt
            lo, hi = sprt_bounds(sp.alpha, sp.beta)
            state = self.sprt_decision or ("continue" if self.sprt_can_decide()
                                           else "continue (too few game pairs, or all alike, to decide)")
            lines.append(f"SPRT ({sp.model} elo0={sp.elo0:g} elo1={sp.elo1:g} alpha={sp.alpha:g} "
                         f"beta={sp.beta:g}): LLR {self.llr():.3f} [{lo:.3f}, {hi:.3f}] {state}")
        return "\n".join(lines)

    def error_report(self) -> str:
        a, b = self.names["A"], self.names["B"]
        fa, fb = self.faults["A"], self.faults["B"]
        time_line = f"Time losses: {a} {fa['time']}, {b} {fb['time']}"
        if self.overruns["A"] or self.overruns["B"]:
            def worst(lab):
                return f"{max(self.overruns[lab]):.0f} ms" if self.overruns[lab] else "-"
            time_line += f" (worst clock overrun: {a} {worst('A')}, {b} {worst('B')})"
        lines = [f"Illegal moves: {a} {fa['illegal']}, {b} {fb['illegal']}",
                 time_line,
                 f"Crashes/disconnects: {a} {fa['crash']}, {b} {fb['crash']}",
                 f"Hangs: {a} {fa['hang']}, {b} {fb['hang']}"]
        if self.referee_errors:
            lines.append(f"Referee errors: {self.referee_errors}")
        if self.aborted:
            lines.append(f"Games without result (aborted/referee error): {self.aborted}")
        if self.resumed:
            lines.append(f"Resumed: {self.resumed} game(s) from {self.cfg.pgn}, "
                         f"{self.resumed_faults} of them ended by an engine fault "
                         f"(the interrupted run's report has the details)")
        if self.total_faults() == 0 and not self.referee_errors and not self.resumed_faults:
            lines.append("CLEAN: zero illegal moves, zero time losses, zero crashes, zero hangs")
        else:
            lines.append(f"NOT CLEAN: {self.total_faults() + self.resumed_faults} engine fault(s)"
                         + (f", {self.referee_errors} referee error(s)" if self.referee_errors else ""))
        return "\n".join(lines)

    def total_faults(self) -> int:
        return sum(sum(v.values()) for v in self.faults.values())

    def counts(self, interrupted: bool = False) -> dict:
        """The final counts as a dict (--json)."""
        w, l, d = self.wld
        cfg = self.cfg
        engines = {}
        for lab in ("A", "B"):
            ov = self.overruns[lab]
            engines[lab] = dict(name=self.names[lab], **self.faults[lab],
                                worst_overrun_ms=round(max(ov), 1) if ov else None,
                                min_clock_left_ms=(round(self.min_left[lab], 1)
                                                   if math.isfinite(self.min_left[lab]) else None),
                                overruns_ms=[round(x, 1) for x in ov])
        return {"tc": tc_tag(cfg.base, cfg.inc), "games": len(self.jobs), "finished": self.finished,
                "resumed": self.resumed,
                "wins_a": w, "losses_a": l, "draws": d, "aborted": self.aborted,
                "referee_errors": self.referee_errors, "internal_error": self.internal_error,
                "interrupted": interrupted, "openings": cfg.openings_path,
                "hang_timeout_s": cfg.hang_timeout, "timemargin_ms": cfg.timemargin_ms,
                "engines": engines, "clean": (self.total_faults() == 0 and not self.referee_errors
                          and not self.resumed_faults)}

    def write_json(self, interrupted: bool = False):
        if not self.cfg.json_path:
            return
        try:
            with open(self.cfg.json_path, "w", encoding="utf-8") as f:
                json.dump(self.counts(interrupted), f, indent=1)
                f.write("\n")
        except OSError as e:
            print(f"match.py: cannot write {self.cfg.json_path}: {e.strerror}", file=sys.stderr)

    def run(self) -> int:
        cfg = self.cfg
        ref0 = self.prepare()
        workers = min(cfg.concurrency, len(self.todo))
        setups = []
        for i in range(workers):
            ref = ref0 if i == 0 else self.new_referee(i)
            players = self.new_players(i)
            setups.append((ref, players))
        # Start every engine once up front so a broken spec fails fast.
        for ref, players in setups:
            for lab, p in players.items():
                try:
                    p.init()
                except (EngineDead, ReadTimeout) as e:
                    raise UsageError(f"engine {p.spec.name} does not start as a UCI engine "
                                     f"({type(e).__name__} {e})") from None
        n_open = len(set(id(j.opening) for j in self.jobs))
        self.emit(f"Match {self.names['A']} vs {self.names['B']}: {len(self.jobs)} games, "
                  f"tc {tc_tag(cfg.base, cfg.inc)}, {n_open} opening(s), concurrency {workers}"
                  + (f", {self.resumed} game(s) resumed from {cfg.pgn}" if self.resumed else ""))
        # Fixed node counts make games deterministic: a pair on an opening already played
        # repeats it move for move, and counting it again narrows the error bars falsely.
        n_pairs = (len(self.jobs) + 1) // 2
        if n_pairs > n_open and all(e.nodes for e in cfg.engines):
            self.emit(f"note: both engines search fixed node counts, so pairs on a repeated opening "
                      f"replay the same games: {n_open} distinct pair(s) in {n_pairs}; the error bars "
                      f"count all {n_pairs}")
        threads = [threading.Thread(target=self.worker, args=(i, ref, players), daemon=True)
                   for i, (ref, players) in enumerate(setups)]
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.2)
        self.emit(self.summary())
        self.emit(self.error_report())
        self.write_json()
        if self.sprt_decision:
            self.emit(f"SPRT finished: {self.sprt_decision} after {self.sprt_games} games")
        self.emit("Finished match")
        if self.internal_error:
            return 1
        if cfg.strict and (self.total_faults() or self.referee_errors):
            return 3
        return 0

    def shutdown(self):
        for p in self.all_players:
            p.quit()
        for r in self.all_referees:
            r.quit()
        if self.pgn_file:
            self.pgn_file.close()


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        cfg = parse_args(argv)
    except UsageError as e:
        print(f"match.py: error: {e}", file=sys.stderr)
        return 2
    match = Match(cfg)
    try:
        return match.run()
    except UsageError as e:
        print(f"match.py: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        match.stop.set()
        with match.lock:
            match.closed = True
            print("interrupted: summary of the finished games", file=sys.stderr, flush=True)
            print(match.summary(), flush=True)
            print(match.error_report(), flush=True)
            match.write_json(interrupted=True)
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        match.shutdown()


if __name__ == "__main__":
    sys.exit(main())
