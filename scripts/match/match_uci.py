#!/usr/bin/env python3
"""Engine and referee processes for scripts/match/match.py: a line-based child process with a
timestamping reader thread, a UCI player (handshake, options, go/bestmove with thinking
time measured at the pipe) and the Maharajah referee (legal moves and game status).
Python 3 standard library only."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/, for common/
from common.uci import EngineDead, ReadTimeout, UciProcess  # noqa: E402,F401


# --------------------------------------------------------------------------------------
# Processes
# --------------------------------------------------------------------------------------

@dataclass
class MoveAnswer:
    kind: str  # "move", "timeout" (bestmove after the clock ran out), "hang", "crash"
    move: str | None = None
    elapsed: float = 0.0
    score: str | None = None  # "+0.35/12" style
    detail: str = ""
    overrun_ms: float | None = None  # "timeout": how far past zero the clock went


class Player(UciProcess):
    """A UCI engine taking part in the match."""

    def __init__(self, label: str, spec: "EngineSpec", ready_timeout: float, debug: bool):
        super().__init__(label, [spec.cmd] + spec.args, spec.dir, debug)
        self.spec = spec
        self.ready_timeout = ready_timeout
        self.id_name = None
        self.expect_dead = True  # not started yet: nothing to count

    def init(self):
        """Start and handshake (uci, options, isready). Raises EngineDead / ReadTimeout."""
        self.kill()
        self.start()
        self.expect_dead = False
        self.id_name = self.handshake(self.spec.options, self.ready_timeout)

    def new_game(self):
        self.drain()
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", self.ready_timeout)

    def go(self, position_cmd: str, wtime: float, btime: float, inc_ms: float,
           own_clock_ms: float, margin_ms: float, hang_s: float = 5.0) -> MoveAnswer:
        """Send the position and go; wait for bestmove. elapsed is from just before the
        write to the arrival of the bestmove line (stamped by the reader thread).

        A bestmove that arrives after the own clock (+ margin) ran out is a "timeout"
        with overrun_ms, how far past zero the clock went: the runner keeps waiting
        for it, without sending stop, so the overrun is the engine's own. No bestmove
        hang_s seconds after the clock ran out is a "hang": the engine is asked to stop,
        then killed (the game loop restarts it)."""
        self.drain()
        if self.spec.nodes:
            cmd = f"{position_cmd}\ngo nodes {self.spec.nodes}"
        else:
            cmd = (f"{position_cmd}\ngo wtime {max(1, int(wtime))} btime {max(1, int(btime))} "
                   f"winc {int(inc_ms)} binc {int(inc_ms)}")
        t0 = time.monotonic()
        deadline = t0 + (own_clock_ms + margin_ms) / 1000.0
        hang_deadline = deadline + hang_s
        score = depth = None
        try:
            self.send(cmd)
            while True:
                t, line = self.read(hang_deadline)
                parts = line.split()
                if not parts:
                    continue
                if parts[0] == "info":
                    sc, dp = parse_info_score(parts)
                    if sc is not None:
                        score, depth = sc, dp
                elif parts[0] == "bestmove":
                    elapsed = t - t0
                    mv = parts[1] if len(parts) > 1 else None
                    sc = f"{score}/{depth}" if score is not None and depth is not None else score
                    if t > deadline:
                        return MoveAnswer("timeout", mv, elapsed, sc,
                                          overrun_ms=elapsed * 1000.0 - own_clock_ms)
                    return MoveAnswer("move", mv, elapsed, sc)
        except ReadTimeout:
            elapsed = time.monotonic() - t0
            return MoveAnswer("hang", None, elapsed, None,
                              f"no bestmove {hang_s:g} s after its clock ran out; "
                              + self._stop_and_kill())
        except EngineDead as e:
            self.expect_dead = True  # counted by the caller
            return MoveAnswer("crash", None, time.monotonic() - t0, None, str(e))

    def _stop_and_kill(self) -> str:
        """A hung engine: send stop (to tell whether it still listens), then kill it
        whatever it answers; its state is not to be trusted any more."""
        what = "no answer to stop within 1 s"
        try:
            self.send("stop")
            t0 = time.monotonic()
            deadline = t0 + 1.0
            while True:
                t, line = self.read(deadline)
                if line.startswith("bestmove"):
                    what = f"answered stop after {(t - t0) * 1000:.0f} ms"
                    break
        except (ReadTimeout, EngineDead):
            pass
        self.expect_dead = True
        self.kill()
        return what + ", killed"


def parse_info_score(parts):
    """(score text, depth) from the tokens of an info line, or (None, None)."""
    score = depth = None
    try:
        if "depth" in parts:
            depth = int(parts[parts.index("depth") + 1])
        if "score" in parts:
            i = parts.index("score")
            kind, val = parts[i + 1], int(parts[i + 2])
            if kind == "cp":
                score = f"{val / 100:+.2f}"
            elif kind == "mate":
                score = f"+M{val}" if val > 0 else f"-M{-val}"
    except (IndexError, ValueError):
        return None, None
    return score, depth


class RefereeError(Exception):
    pass


class Referee(UciProcess):
    """The Maharajah binary used as the rules authority (see docs/protocol.md for the commands)."""

    TIMEOUT = 10.0

    def __init__(self, path: str, debug: bool, label: str = "referee"):
        super().__init__(label, [path], None, debug)

    def ensure(self):
        if not self.alive():
            self.kill()
            self.start()
            self.sync()

    def sync(self) -> list[str]:
        """isready/readyok; returns the error lines that came before readyok."""
        errors = []
        deadline = time.monotonic() + self.TIMEOUT
        self.send("isready")
        try:
            while True:
                _, line = self.read(deadline)
                s = line.strip()
                if s == "readyok":
                    return errors
                if s.startswith("info string error"):
                    errors.append(s[len("info string error"):].lstrip(": "))
        except (ReadTimeout, EngineDead) as e:
            self.kill()
            raise RefereeError(f"referee not answering ({type(e).__name__})") from None

    def answer(self, cmd: str) -> str:
        """A command answered by exactly one line."""
        self.send(cmd)
        deadline = time.monotonic() + self.TIMEOUT
        try:
            while True:
                _, line = self.read(deadline)
                if line.strip():
                    return line.strip()
        except (ReadTimeout, EngineDead) as e:
            self.kill()
            raise RefereeError(f"referee not answering '{cmd}' ({type(e).__name__})") from None

    def set_position(self, cmd: str) -> list[str]:
        self.send(cmd)
        return self.sync()

    def check_protocol(self):
        """Fails with a clear message if the referee lacks the commands the runner needs."""
        self.ensure()
        errs = self.set_position("position startpos")
        if errs:
            raise RefereeError(f"referee rejected 'position startpos': {errs[0]}")
        for cmd, want in (("moves", "moves"), ("status", "status"), ("fen", "fen")):
            ans = self.answer(cmd)
            if not ans.startswith(want):
                raise RefereeError(f"referee does not support '{cmd}' (answered: {ans}); "
                                   "rebuild the engine or pass a newer --referee")

    def query(self, root_fen: str, moves: list[str]) -> tuple[str, set[str]]:
        """Sets root + moves; returns (status text after 'status ', legal move set)."""
        self.ensure()
        cmd = f"position fen {root_fen}" + (" moves " + " ".join(moves) if moves else "")
        errs = self.set_position(cmd)
        if errs:
            raise RefereeError(f"referee rejected the game position: {errs[0]}")
        st = self.answer("status")
        mv = self.answer("moves")
        if not st.startswith("status ") or not (mv == "moves" or mv.startswith("moves ")):
            raise RefereeError(f"unexpected referee answers: '{st}' / '{mv}'")
        return st[len("status "):].strip(), set(mv.split()[1:])

    def flag(self, color: str) -> str:
        """Result text after 'result ' for a flag fall of color, or '' if unsupported."""
        ans = self.answer(f"flag {color}")
        if ans.startswith("result "):
            return ans[len("result "):].strip()
        return ""
