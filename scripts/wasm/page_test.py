#!/usr/bin/env python3
"""Plays the web page (build-wasm/web/index.html) in headless Chromium, clicking squares.

Serves the web folder on a free localhost port, starts Chromium with the DevTools
protocol on a websocket, and drives the page like a person: suggest armies,
pick a level, start, click a piece, check the highlighted squares against legalMoves,
click a target, wait for the engine's answer. After every move it checks that the
board in the DOM equals fen(), that the move list and the status agree with the rules,
and that the engine's move was legal. Three games: a variant game as White (at least 4
own moves), a standard game as Black (3 moves) and a compound promotion from a FEN.

Only the Python standard library: the websocket client and the DevTools calls are
written out here. Exit status 0 when everything held, 1 on a failed check, 2 on setup
errors (no Chromium, no build).

    scripts/wasm/page_test.py [--web build-wasm/web] [--screenshot FILE] [--timeout 120]
"""
import argparse
import base64
import functools
import hashlib
import http.server
import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GLYPH = dict(zip("KQRBNPkqrbnp", "♔♕♖♗♘♙♚♛♜♝♞♟"))
STATUS = re.compile(r"ongoing|ongoing claim \S.*|checkmate|stalemate|draw( \S.*)?")
STANDARD = ("RNBQKBNR/PPPPPPPP", "rnbqkbnr/pppppppp")


class Failure(Exception):
    """A check on the page failed."""


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def left(self, cap=None):
        left = self.end - time.monotonic()
        if left <= 0:
            raise Failure("timed out (--timeout)")
        return min(left, cap) if cap else left


# ---- the web server ----

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    # .wasm needs its type for streaming compilation; no caching so a rebuild is seen.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ---- a minimal websocket client (RFC 6455: text frames, masked from the client) ----

class WebSocket:
    def __init__(self, url, deadline):
        self.deadline = deadline
        parts = urllib.parse.urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=deadline.left(10))
        self.buffer = bytearray()
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, rest = bytes(self.buffer).partition(b"\r\n\r\n")
        self.buffer = bytearray(rest)
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
        if not head.startswith(b"HTTP/1.1 101") or accept not in head:
            raise Failure("websocket handshake refused: " + head.decode(errors="replace").splitlines()[0])

    def _fill(self):
        self.sock.settimeout(self.deadline.left())
        try:
            data = self.sock.recv(1 << 16)
        except socket.timeout:
            raise Failure("timed out (--timeout) waiting for Chromium") from None
        if not data:
            raise Failure("Chromium closed the DevTools connection")
        self.buffer += data

    def _take(self, n):
        while len(self.buffer) < n:
            self._fill()
        out = bytes(self.buffer[:n])
        del self.buffer[:n]
        return out

    def _send_frame(self, opcode, payload):
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def receive(self):
        """The next whole text message (fragments joined, pings answered)."""
        message = bytearray()
        while True:
            b0, b1 = self._take(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._take(8))[0]
            mask = self._take(4) if b1 & 0x80 else None
            payload = self._take(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:
                self._send_frame(0xA, payload)
            elif opcode == 0x8:
                raise Failure("Chromium closed the DevTools connection")
            elif opcode in (0x0, 0x1, 0x2):
                message += payload
                if b0 & 0x80:
                    return message.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


# ---- the DevTools protocol, one page ----

class Page:
    def __init__(self, ws, deadline):
        self.ws, self.deadline = ws, deadline
        self.next_id = 0
        self.session = None
        self.errors = []        # exceptions and console.error lines of the page

    def call(self, method, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        self.ws.send(json.dumps(message))
        while True:
            answer = json.loads(self.ws.receive())
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise Failure(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})
            self._event(answer)

    def _event(self, event):
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.errors.append("exception: " + details.get("exception", {}).get("description", details.get("text", "")))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.errors.append("console.error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))

    def attach(self):
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Runtime.enable")
        self.call("Page.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=1200, height=860, deviceScaleFactor=1, mobile=False)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise Failure("page script failed: " + details.get("exception", {}).get("description", details.get("text", "")))
        return result["result"].get("value")

    def wait(self, expression, what, seconds=60):
        """Polls a page expression until it is truthy; returns its value."""
        end = time.monotonic() + seconds
        while True:
            value, error = self.evaluate(f"[{expression}, window.maharajahPage ? maharajahPage.error : null]")
            if error:
                raise Failure(f"the page reports: {error}")
            if value:
                return value
            if time.monotonic() > end:
                raise Failure(f"timed out waiting for {what}")
            self.deadline.left()
            time.sleep(0.05)

    def click(self, selector):
        """A real mouse click at the element's centre, after checking that nothing covers it."""
        spot = self.evaluate(f"""(() => {{
            const el = document.querySelector({json.dumps(selector)});
            if (!el) return null;
            el.scrollIntoView({{block: 'nearest'}});
            const r = el.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            return {{x, y, hit: !!hit && (hit === el || el.contains(hit))}};
        }})()""")
        if not spot:
            raise Failure(f"no element {selector}")
        if not spot["hit"]:
            raise Failure(f"{selector} is covered by another element")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=spot["x"], y=spot["y"], button="left",
                      clickCount=0 if kind == "mouseMoved" else 1)

    def type_into(self, selector, text):
        self.click(selector)
        self.evaluate(f"document.querySelector({json.dumps(selector)}).select()")
        self.call("Input.insertText", text=text)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


# ---- Chromium ----

def start_chromium(binary, profile, deadline):
    args = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
            f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--mute-audio",
            # Containers and chroots often lack a usable /dev/shm; /tmp works everywhere.
            "--disable-dev-shm-usage", "about:blank"]
    # A session of its own, so that its helper processes can be ended as one group.
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    found, tail = [], []
    ready = threading.Event()

    def read():  # keeps draining stderr so that Chromium never blocks on a full pipe
        for raw in proc.stderr:
            line = raw.decode(errors="replace").rstrip()
            tail.append(line)
            del tail[:-20]
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m and not found:
                found.append(m.group(1))
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    ready.wait(deadline.left(30))
    if not found:
        raise Failure("Chromium did not open DevTools:\n  " + "\n  ".join(tail))
    return proc, found[0]


def stop_chromium(proc):
    """Ends Chromium and its helpers (its process group): politely, then for sure."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass


# ---- checks on the page ----

STATE = """(() => { const p = window.maharajahPage; return p && {ready: p.ready, playing: p.playing,
  over: p.over, position: p.position, fen: p.fen, status: p.status, moves: p.moves, color: p.color,
  engineThinking: p.engineThinking, idle: p.idle, selected: p.selected, targets: p.targets,
  error: p.error, checks: p.checks}; })()"""

DOM = """(() => Array.from(document.querySelectorAll('#board [data-square]')).map(e => {
  const piece = e.querySelector('.piece');
  return {square: e.dataset.square, piece: e.dataset.piece || '', text: piece ? piece.textContent : '',
    compound: !!piece && piece.classList.contains('compound'), target: e.classList.contains('target'),
    selected: e.classList.contains('selected')};
}))()"""


def fen_board(fen):
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board["abcdefgh"[file] + str(8 - i)] = ch
                file += 1
    return board


class Tester:
    def __init__(self, page, rng):
        self.page, self.rng = page, rng
        self.player_moves = self.engine_moves = self.checks = self.calls_during_search = 0

    def state(self):
        return self.page.evaluate(STATE)

    def rules(self, name, *args):
        # Raced against a timer: an unanswered call fails the test instead of hanging it.
        return self.page.evaluate(f"""Promise.race([maharajahPage.rules({json.dumps(name)}, ...{json.dumps(list(args))}),
            new Promise((_, fail) => setTimeout(() => fail(new Error('no answer to {name}')), 10000))])""")

    def dom(self):
        return {sq["square"]: sq for sq in self.page.evaluate(DOM)}

    def expect(self, ok, text):
        self.checks += 1
        if not ok:
            raise Failure(text)

    def settle(self):
        return self.page.wait(f"maharajahPage.idle && {STATE}", "the page to settle")

    def check_position(self):
        """The DOM board, the turn, the status and the move list against the rules."""
        st = self.state()
        self.expect(not st["error"], f"page error: {st['error']}")
        fen = self.rules("fen", st["position"])
        self.expect(fen["ok"] and fen["text"] == st["fen"], f"page FEN {st['fen']!r} != fen() {fen}")
        want, dom = fen_board(fen["text"]), self.dom()
        self.expect(len(dom) == 64, f"{len(dom)} squares with data-square")
        for square, cell in dom.items():
            piece = want.get(square, "")
            self.expect(cell["piece"] == piece, f"{square}: DOM has {cell['piece']!r}, fen() has {piece!r}")
            shown = GLYPH.get(piece, piece.upper())
            self.expect(cell["text"] == shown and cell["compound"] == (piece.upper() in ("M", "A", "C")),
                        f"{square}: drawn as {cell['text']!r} for {piece!r}")
        status = self.rules("status", st["position"])
        self.expect(status["ok"] and status["text"] == st["status"], f"page status {st['status']!r} != {status}")
        self.expect(STATUS.fullmatch(st["status"]), f"status {st['status']!r} is not a status")
        over = bool(re.match(r"checkmate|stalemate|draw", st["status"]))
        self.expect(st["over"] == over, f"over={st['over']} for status {st['status']!r}")
        listed = self.page.evaluate("Array.from(document.querySelectorAll('#moves .move')).map(e => e.textContent)")
        self.expect(listed == st["moves"], f"move list {listed} != moves {st['moves']}")
        side = "white" if fen["text"].split()[1] == "w" else "black"
        turn = self.page.evaluate("document.getElementById('turn').dataset.turn")
        self.expect(turn == side, f"turn shown as {turn!r}, FEN says {side}")
        return st

    def select(self, st, square):
        """Clicks a piece; checks that the highlighted squares are its legalMoves targets."""
        self.page.click(f'[data-square="{square}"]')
        self.page.wait(f"maharajahPage.idle && maharajahPage.selected === '{square}'", f"the selection of {square}", 20)
        dom = self.dom()
        legal = self.rules("legalMoves", st["position"], square)
        self.expect(legal["ok"], f"legalMoves {square}: {legal}")
        legal = legal["text"].split()
        shown = sorted(sq for sq, cell in dom.items() if cell["target"])
        self.expect(dom[square]["selected"], f"{square} is not shown as selected")
        self.expect(shown == sorted({m[2:4] for m in legal}), f"{square}: highlighted {shown}, legalMoves {legal}")
        self.expect(sorted(self.state()["targets"]) == sorted(legal), f"{square}: page targets differ")
        return legal

    def click_target(self, st, legal, target, promote=None):
        """Clicks a highlighted square (and a promotion choice: promote, else a random one)."""
        choices = [m for m in legal if m[2:4] == target]
        self.page.click(f'[data-square="{target}"]')
        move = choices[0]
        if len(choices) > 1:
            offered = self.page.wait("!document.getElementById('promotion').hidden && "
                                     "Array.from(document.querySelectorAll('#promotion-choices button'))"
                                     ".map(b => b.dataset.promotion)", "the promotion choices", 10)
            self.expect(sorted(offered) == sorted(m[4:] for m in choices), f"promotion offers {offered}, legalMoves {choices}")
            piece = promote if promote in offered else self.rng.choice(offered)
            move = next(m for m in choices if m[4:] == piece)
            self.page.click(f'#promotion-choices button[data-promotion="{piece}"]')
        n = len(st["moves"])
        self.page.wait(f"maharajahPage.moves.length > {n}", "the move to be made", 10)
        made = self.state()["moves"]
        self.expect(made[:n] == st["moves"] and made[n] == move, f"clicked {move}, the page made {made[n:]}")
        self.player_moves += 1
        return move

    def play_move(self):
        """Clicks own pieces in random order until one has legal moves, then a random target."""
        st = self.settle()
        white = st["color"] == "white"
        mine = [sq for sq, cell in self.dom().items() if cell["piece"] and cell["piece"].isupper() == white]
        self.rng.shuffle(mine)
        for square in mine:
            legal = self.select(st, square)
            if legal:
                return self.click_target(st, legal, self.rng.choice(sorted({m[2:4] for m in legal})))
        raise Failure(f"no piece of {st['color']} has a legal move in {st['position']}")

    def engine_reply(self, before):
        """Waits for the engine's move; checks it against legalMoves of the position before it."""
        # A rules call while the engine may be searching in the same worker is answered too.
        thinking = self.page.evaluate("maharajahPage.engineThinking")
        fen = self.rules("fen", self.state()["position"])
        self.expect(fen["ok"], f"fen() during the search: {fen}")
        self.calls_during_search += thinking
        st = self.page.wait(f"(maharajahPage.moves.length > {len(before)} || maharajahPage.over) && "
                            f"maharajahPage.idle && {STATE}", "the engine's move", 60)
        if len(st["moves"]) > len(before):
            move = st["moves"][len(before)]
            self.expect(st["moves"][:len(before)] == before, "the move list changed under the engine move")
            base = st["position"].split(" moves ")[0]
            pos = base + (" moves " + " ".join(before) if before else "")
            legal = self.rules("legalMoves", pos, "")
            self.expect(legal["ok"] and move in legal["text"].split(), f"engine move {move} not legal in {pos}")
            self.engine_moves += 1
        return self.check_position()

    def start(self, color, level, base=None):
        self.page.evaluate(f"""(() => {{ for (const [id, v] of [['color', '{color}'], ['level', '{level}']]) {{
            const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event('change')); }} }})()""")
        old = self.page.evaluate("maharajahPage.game")
        if base:
            self.page.evaluate(f"maharajahPage.start({json.dumps(base)})")
        else:
            self.page.click("#start")
        st = self.page.wait(f"maharajahPage.game > {old} && maharajahPage.playing && maharajahPage.idle && {STATE}",
                            "the game to start", 30)
        self.expect(st["color"] == color, f"playing {st['color']}, not {color}")
        if color == "white":
            self.expect(not st["moves"], f"a fresh game has moves {st['moves']}")
        # The level reached the engine as UCI options, before the game's first search.
        sent = self.page.evaluate("maharajahPage.sent")
        want = (["setoption name UCI_LimitStrength value false"] if level == "full" else
                ["setoption name UCI_LimitStrength value true", f"setoption name UCI_Elo value {level}"])
        last = max(i for i, line in enumerate(sent) if line == "ucinewgame")
        self.expect(sent[last - len(want):last] == want, f"level {level}: sent {sent[last - 3:last + 1]}")
        first = self.page.evaluate("document.querySelector('#board .square').dataset.square")
        self.expect(first == ("a8" if color == "white" else "h1"), f"top-left square {first} for {color}")
        dark = self.page.evaluate("['a1', 'h8', 'd4'].every(s => document.querySelector(`[data-square=${s}]`).classList.contains('dark'))")
        self.expect(dark, "a1, h8 and d4 are not dark squares")
        return self.check_position()

    def play(self, own_moves):
        """Own move, engine reply, own_moves times (a finished game counts its moves and
        the next game goes on from a fresh start)."""
        games = 0
        st = self.check_position()
        while own_moves:
            if st["over"]:
                # Clicks do nothing after the end.
                self.page.click('[data-square="e2"]')
                time.sleep(0.2)
                self.expect(self.state()["selected"] is None, "a piece was selected after the end")
                games += 1
                self.expect(games < 5, "every game ended at once")
                st = self.start(st["color"], self.page.evaluate("document.getElementById('level').value"))
            before = st["moves"]
            move = self.play_move()
            st = self.engine_reply(before + [move])
            print(f"  {len(st['moves']):3d} plies  {' '.join(st['moves'][-2:]):15s} {st['status']}")
            own_moves -= 1
        return st


def run(args, page, tester):
    page.wait("window.maharajahPage && maharajahPage.ready", "the engine to load", 60)
    print("engine:", page.evaluate("document.getElementById('engine-name').textContent"))
    # One module for the page: the worker's (engine and rules calls); none on the page's thread.
    tester.expect(page.evaluate("typeof MaharajahModule === 'undefined' && "
                                "!performance.getEntriesByType('resource').some(e => /maharajah\\.(js|wasm)$/.test(e.name))"),
                  "the page loaded a second module on its own thread")

    # The variant: suggested armies for both sides, as White at club level.
    for _ in range(10):
        for color in ("white", "black"):
            old = page.evaluate(f"document.getElementById('{color}-army').value")
            page.click(f"#{color}-suggest")
            page.wait(f"(c => c && c.text !== {json.dumps(old)} && c.ok)(maharajahPage.checks.{color})",
                      f"the {color} suggestion", 20)
        armies = [page.evaluate(f"document.getElementById('{c}-army').value") for c in ("white", "black")]
        if re.search("[MACmac]", "".join(armies)):
            break
    for color, army in zip(("white", "black"), armies):
        check = tester.rules("armyCheck", color, army)
        shown = page.evaluate(f"document.getElementById('{color}-check').textContent")
        tester.expect(check["ok"] and shown == check["text"], f"{color} army check shows {shown!r}, armyCheck {check}")
    tester.expect(re.search("[MACmac]", "".join(armies)), f"suggested armies without compound pieces: {armies}")
    print("armies:", *armies)
    tester.start("white", "1600")
    tester.expect(tester.state()["position"].startswith(f"army {armies[0]} {armies[1]}"), "the game is not the armies'")
    tester.play(4)
    page.screenshot(args.screenshot)
    print("screenshot:", args.screenshot)

    # A bad army is refused next to its field.
    page.type_into("#white-army", "MMMMKMMM/PPPPPPPP")
    page.wait("(c => c && c.text === 'MMMMKMMM/PPPPPPPP' && !c.ok)(maharajahPage.checks.white)", "the army error", 10)
    shown = page.evaluate("document.getElementById('white-check').textContent")
    tester.expect("39" in shown, f"bad army answered {shown!r}")

    # Standard chess, typed in, as Black (the engine moves first, the board turned round).
    print("standard chess as Black:")
    for color, army in zip(("white", "black"), STANDARD):
        page.type_into(f"#{color}-army", army)
        page.wait(f"(c => c && c.text === '{army}' && c.ok)(maharajahPage.checks.{color})", f"the {color} check", 10)
    tester.start("black", "800")
    st = tester.engine_reply([])
    tester.expect(st["position"].startswith("startpos") and len(st["moves"]) == 1, f"standard start: {st['position']}")
    tester.play(3)

    # A promotion with the compound choices, from a FEN (the page's start hook).
    print("promotion:")
    st = tester.start("white", "full", "fen k7/4P3/8/8/8/8/8/7K w - - 0 1 Vv -")
    legal = tester.select(st, "e7")
    move = tester.click_target(st, legal, "e8", promote="m")
    tester.expect(move == "e7e8m", f"promoted with {move}")
    st = tester.engine_reply([move])
    tester.expect(fen_board(st["fen"]).get("e8") == "M", f"no Maharaja on e8 after {move}: {st['fen']}")
    print(f"  {' '.join(st['moves'])}  {st['status']}")

    # A mate by a click ends the game: no engine move, the result shown, clicks ignored.
    print("checkmate:")
    st = tester.start("white", "1200", "fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    legal = tester.select(st, "a1")
    move = tester.click_target(st, legal, "a8")
    st = tester.engine_reply([move])
    shown = page.evaluate("document.getElementById('status').textContent")
    tester.expect(st["status"] == "checkmate" and st["over"] and st["moves"] == ["a1a8"], f"after a1a8: {st}")
    tester.expect("White wins" in shown, f"the status line says {shown!r}")
    page.click('[data-square="g1"]')
    time.sleep(0.2)
    tester.expect(tester.state()["selected"] is None, "a piece was selected after the mate")
    print(f"  {move}  {st['status']}: {shown}")
    tester.expect(not page.errors, "page errors:\n  " + "\n  ".join(page.errors))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--web", default=os.path.join(ROOT, "build-wasm", "web"), help="the built web folder")
    parser.add_argument("--screenshot", default=os.path.join(ROOT, "build-wasm", "page_test.png"))
    parser.add_argument("--timeout", type=float, default=120, help="seconds for the whole test")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--seed", type=int, default=None, help="the random seed of the moves")
    args = parser.parse_args()
    for name in ("index.html", "app.js", "maharajah.js", "maharajah-api.js", "maharajah.wasm", "maharajah-worker.js"):
        if not os.path.isfile(os.path.join(args.web, name)):
            print(f"page_test: {args.web}/{name} is missing (run scripts/wasm/build)", file=sys.stderr)
            return 2
    if not os.access(args.chromium, os.X_OK):
        print(f"page_test: no Chromium at {args.chromium} (Debian package chromium)", file=sys.stderr)
        return 2
    sys.stdout.reconfigure(line_buffering=True)   # progress lines in order with the errors
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    print("seed:", seed)
    # A SIGTERM (a CI timeout) still runs the clean-up below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    began = time.monotonic()
    deadline = Deadline(args.timeout)
    server = serve(args.web)
    profile = tempfile.mkdtemp(prefix="maharajah-page-test-")
    proc = ws = page = None
    try:
        proc, url = start_chromium(args.chromium, profile, deadline)
        ws = WebSocket(url, deadline)
        page = Page(ws, deadline)
        page.attach()
        page.call("Page.navigate", url=f"http://127.0.0.1:{server.server_address[1]}/index.html")
        tester = Tester(page, random.Random(seed))
        run(args, page, tester)
    except Failure as e:
        print(f"FAIL: {e}", file=sys.stderr)
        if page:
            for line in page.errors:
                print("  page:", line, file=sys.stderr)
            try:
                deadline.end = time.monotonic() + 10   # time for the failure screenshot
                page.screenshot(args.screenshot)
                print("screenshot of the failure:", args.screenshot, file=sys.stderr)
            except (Failure, OSError):
                pass
        return 1
    finally:
        if ws:
            ws.close()
        if proc:
            stop_chromium(proc)
        server.shutdown()
        server.server_close()
        shutil.rmtree(profile, ignore_errors=True)
    print(f"ok: {tester.player_moves} own moves and {tester.engine_moves} engine moves checked "
          f"({tester.checks} checks, {tester.calls_during_search} rules calls during a search) in {time.monotonic() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
