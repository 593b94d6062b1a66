"""The one UCI client of the scripts under scripts/: a child process spoken to line by line.

A reader thread stamps every output line with time.monotonic() when it arrives, so a
caller can measure thinking time at the pipe (scripts/match/match.py) and wait for a line
with a deadline without blocking for ever. On top of the raw `send` / `read` it offers the
requests every tool needs: `handshake` (uci, options, isready), `ask` (commands followed
by `isready`, the lines before `readyok`), `one` (the first answer line of a command),
`wait_for` (the first line matching a token or a test) and `search` (a position and a
`go`, the lines up to `bestmove`). The tests under tests/ keep their own independent
drivers. Python 3 standard library only.

    import sys; from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # scripts/
    from common.uci import UciProcess
    with UciProcess("engine", ["build/maharajah"]) as eng:
        eng.handshake({"Hash": 16})
        print(eng.one("army suggest white seed 1", "army "))
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time

FOREVER = 1e9  # seconds: "no timeout" for the helpers below


class EngineDead(Exception):
    pass


class ReadTimeout(Exception):
    pass


_log_lock = threading.Lock()


class UciProcess:
    """A child process spoken to line by line. A reader thread stamps every output line
    with time.monotonic() when it arrives, so thinking time is measured at the pipe."""

    def __init__(self, label: str, argv: list[str], cwd: str | None = None, debug: bool = False):
        self.label = label
        self.argv = argv
        self.cwd = cwd
        self.debug = debug
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()

    def start(self):
        self.lines = queue.Queue()
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=self.cwd, text=True,
                                         encoding="utf-8", errors="replace", bufsize=1,
                                         start_new_session=True)  # Ctrl-C stops only the runner
        except OSError as e:
            self.proc = None
            raise EngineDead(f"cannot start {self.argv[0]}: {e.strerror}") from None
        t = threading.Thread(target=self._reader, args=(self.proc, self.lines), daemon=True)
        t.start()

    def _reader(self, proc, q):
        try:
            for line in proc.stdout:
                q.put((time.monotonic(), line.rstrip("\r\n")))
        except (OSError, ValueError):
            pass
        q.put((time.monotonic(), None))

    def _log(self, direction, text):
        if self.debug:
            with _log_lock:
                print(f"{time.monotonic():.3f} {self.label} {direction} {text}", file=sys.stderr, flush=True)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, text: str):
        if self.proc is None:
            raise EngineDead("not running")
        for ln in text.splitlines():
            self._log(">", ln)
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineDead("pipe closed") from None

    def read(self, deadline: float) -> tuple[float, str]:
        """Next line (arrival time, text) before the monotonic deadline."""
        try:
            t, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise ReadTimeout() from None
        if line is None:
            self.lines.put((t, None))  # keep reporting EOF
            raise EngineDead("exited" if self.proc is None or self.proc.poll() is None
                             else f"exited with status {self.proc.poll()}")
        self._log("<", line)
        return t, line

    def drain(self):
        while True:
            try:
                t, line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.lines.put((t, None))
                return
            self._log("<", line)

    def kill(self):
        if self.proc is None:
            return
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except (OSError, ValueError):
                pass
        self.proc = None

    def quit(self):
        if self.proc is None:
            return
        try:
            self.send("quit")
            self.proc.wait(timeout=1.0)
        except (EngineDead, subprocess.TimeoutExpired):
            pass
        self.kill()

    # ----------------------------------------------------------------------------------
    # Requests built on send/read
    # ----------------------------------------------------------------------------------

    def __enter__(self):
        if self.proc is None:
            self.start()
        return self

    def __exit__(self, *exc):
        self.quit()
        return False

    def wait_for(self, want, timeout: float = FOREVER, collect=None) -> tuple[float, str]:
        """(arrival time, line) of the first line equal to `want` (a string, compared
        without surrounding blanks) or satisfying it (a function of the line). Every line
        read on the way, that one included, goes to `collect` when given. Raises
        ReadTimeout after `timeout` seconds, EngineDead when the process ends."""
        test = want if callable(want) else (lambda s: s.strip() == want)
        deadline = time.monotonic() + timeout
        while True:
            t, line = self.read(deadline)
            if collect is not None:
                collect(line)
            if test(line):
                return t, line

    def ask(self, *cmds: str, timeout: float = FOREVER) -> list[str]:
        """Sends the commands, then `isready`; returns the non-empty lines (blanks
        stripped) that came before `readyok`."""
        lines: list[str] = []
        self.send("\n".join(cmds + ("isready",)))
        self.wait_for("readyok", timeout, lambda s: lines.append(s.strip()) if s.strip() else None)
        return lines[:-1]

    def one(self, cmd: str, prefix: str = "", timeout: float = FOREVER) -> str | None:
        """The first answer line of `cmd` that starts with `prefix` (any line when
        empty), or None when there is none before `readyok`."""
        return next((s for s in self.ask(cmd, timeout=timeout) if s.startswith(prefix)), None)

    def errors(self, *cmds: str, timeout: float = FOREVER) -> list[str]:
        """The `info string error` lines the commands caused (an empty list: accepted)."""
        return [s for s in self.ask(*cmds, timeout=timeout) if s.startswith("info string error")]

    def handshake(self, options=(), timeout: float = 10.0) -> str | None:
        """Starts the process if needed, then `uci` ... `uciok`, the options (a dict or
        (name, value) pairs), `isready` ... `readyok`. Returns the `id name`, if any."""
        if self.proc is None:
            self.start()
        name = []
        self.send("uci")
        self.wait_for("uciok", timeout,
                      lambda s: name.append(s[len("id name "):].strip()) if s.startswith("id name ") else None)
        pairs = options.items() if isinstance(options, dict) else options
        for opt, value in pairs:
            self.send(f"setoption name {opt} value {value}")
        self.send("isready")
        self.wait_for("readyok", timeout)
        return name[0] if name else None

    def search(self, position: str, go: str, timeout: float = FOREVER) -> list[str]:
        """Sends the position command (if any) and the `go` command; returns every line
        up to and including `bestmove`."""
        lines: list[str] = []
        self.send(f"{position}\n{go}" if position else go)
        self.wait_for(lambda s: s.startswith("bestmove"), timeout, lines.append)
        return lines


def last_score(lines: list[str]):
    """The last exact score of a search's info lines, from the side to move:
    ('cp', n) or ('mate', n); bound-only scores are skipped; None when there is none."""
    score = None
    for line in lines:
        t = line.split()
        if t and t[0] == "info" and "score" in t and "lowerbound" not in t and "upperbound" not in t:
            i = t.index("score")
            try:
                score = (t[i + 1], int(t[i + 2]))
            except (IndexError, ValueError):
                pass
    return score


def info_value(lines: list[str], key: str):
    """The integer after `key` in the last info line that has it (e.g. "depth",
    "nodes"), or None."""
    value = None
    for line in lines:
        t = line.split()
        if t and t[0] == "info" and key in t:
            try:
                value = int(t[t.index(key) + 1])
            except (IndexError, ValueError):
                pass
    return value
