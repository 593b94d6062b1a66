#!/usr/bin/python3
"""Self-test of scripts/nnue (nnue_format.py and train.py), well under a minute:

  /usr/bin/python3 scripts/nnue/test_train.py [-v]
  MAHARAJAH_ENGINE=build/maharajah /usr/bin/python3 scripts/nnue/test_train.py

- the committed sample tests/data/nnue_sample.data (3000 records) decodes to the same
  boards and fields as an independent bit-by-bit decoder written from the format text;
  the features and buckets follow the formulas; with MAHARAJAH_ENGINE set, the engine
  reads the FENs of the first 50 records and prints the same board back (`d`);
- the .nnue file: exact header layout, FNV-1a test vectors, write -> read identity,
  refusal of every kind of damage, rounding half to even;
- the integer reference evaluation against a plain-Python one (C++ truncation) and,
  with MAHARAJAH_ENGINE set, against the engine's own NNUE evaluation (`EvalFile`,
  `eval`) of all 3000 sample positions with a random and a trained 256-wide net;
- train.py: 2 epochs on the sample lower the loss and write a net that reads back and
  evaluates like the float net; two 1-epoch runs with one seed give identical bytes.
- the filters against a plain reading of bytes 58-63; the game-file index, its pieces and
  the epochs' chunk plans; with the engine (MAHARAJAH_ENGINE, else build/maharajah if
  built) streaming tests/data/nnue_sample.games: one chunk gives the in-memory path's
  bytes, several chunks visit every kept position once an epoch (with and without the
  cache), a resumed run gives an uninterrupted run's bytes, validation comes from the
  held-out files only.

Exits 77 (skipped) when numpy or torch is missing (the pyenv python3 on PATH has no
torch; Debian's /usr/bin/python3 has both).
"""

from __future__ import annotations

import math
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SAMPLE = ROOT / "tests" / "data" / "nnue_sample.data"
SAMPLE_GAMES = ROOT / "tests" / "data" / "nnue_sample.games"  # 60 datagen games
TRAIN = HERE / "train.py"
SCORE = HERE / "score.py"

try:
    import numpy as np
    import torch  # noqa: F401  (train.py needs it; checked here to skip cleanly)
except ImportError as e:
    print(f"skipped: {e} (run with Debian's /usr/bin/python3, which has numpy and torch)")
    sys.exit(77)

sys.path.insert(0, str(HERE))
import nnue_format as nf  # noqa: E402


def slow_decode(rec: bytes) -> dict:
    """One record decoded straight from the format description with Python integers,
    independent of the vectorised decoder."""
    occupied = int.from_bytes(rec[0:8], "little")
    stream = int.from_bytes(rec[8:48], "little")  # bit k of the stream = bit k of this int
    pieces = {}
    for k, square in enumerate(s for s in range(64) if occupied >> s & 1):
        code = stream >> (5 * k) & 31
        pieces[square] = (code >> 4, code & 15)  # (colour, type), type 15 kept here
    return {
        "pieces": pieces,
        "stm": rec[48] & 1,
        "variant": (bool(rec[48] & 2), bool(rec[48] & 4)),
        "castling": rec[48] >> 4,
        "ep": rec[49],
        "halfmove": rec[50],
        "result": rec[51],
        "score": int.from_bytes(rec[52:54], "little", signed=True),
        "best": int.from_bytes(rec[54:56], "little"),
        "fullmove": int.from_bytes(rec[56:58], "little"),
    }


def spec_king_bucket(pieces: dict, perspective: int, king_buckets: int) -> int:
    """The perspective's king bucket as the network description states it: with four,
    its own king on its first two ranks on files a-c 0, d-e 1, f-h 2; elsewhere 3."""
    if king_buckets == 1:
        return 0
    square = next(sq for sq, (colour, ptype) in pieces.items() if colour == perspective and ptype == nf.KING)
    rank, file = square // 8, square % 8
    if perspective == 1:
        rank = 7 - rank
    if rank >= 2:
        return 3
    return 0 if file <= 2 else 1 if file <= 4 else 2


def spec_features(pieces: dict, perspective: int, king_buckets: int = 1) -> list:
    """Feature indices as the network description states them."""
    out = []
    offset = 1152 * spec_king_bucket(pieces, perspective, king_buckets)
    for square, (colour, ptype) in pieces.items():
        t = 1 if ptype == 15 else ptype
        s = square if perspective == 0 else square ^ 56
        out.append(offset + ((colour != perspective) * 9 + (t - 1)) * 64 + s)
    return sorted(out)


def cdiv(a: int, b: int) -> int:
    """C++ integer division (truncation toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def slow_eval(net: nf.QuantisedNet, pieces: dict, stm: int) -> int:
    """The integer evaluation of one position with Python integers, from the text."""
    h = net.hidden
    acc = []
    for p in (0, 1):
        a = [int(v) for v in net.ft_bias]
        for f in spec_features(pieces, p, net.king_buckets):
            row = net.ft_weight[f]
            a = [x + int(w) for x, w in zip(a, row)]
        acc.append([min(max(x, 0), nf.QA) for x in a])
    k = min((len(pieces) - 2) // 8, 7)
    w = [int(v) for v in net.out_weight[k]]
    us, them = acc[stm], acc[1 - stm]
    s = sum(c * c * w[i] for i, c in enumerate(us)) + sum(c * c * w[h + i] for i, c in enumerate(them))
    s = cdiv(s, nf.QA)
    return cdiv((s + int(net.out_bias[k])) * 400, nf.QA * nf.QB)


def random_net(hidden: int, seed: int, description: str = "test", king_buckets: int = 1) -> nf.QuantisedNet:
    rng = np.random.default_rng(seed)
    return nf.QuantisedNet(
        ft_weight=rng.integers(-300, 301, size=(king_buckets * nf.FEATURES, hidden)).astype(np.int16),
        ft_bias=rng.integers(-200, 201, size=hidden).astype(np.int16),
        out_weight=rng.integers(-127, 128, size=(nf.BUCKETS, 2 * hidden)).astype(np.int16),
        out_bias=rng.integers(-100000, 100001, size=nf.BUCKETS).astype(np.int32),
        description=description,
    )


class Sample(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.raw = SAMPLE.read_bytes()
        cls.records = nf.read_records([str(SAMPLE)])
        cls.pos = nf.decode_records(cls.records)

    def test_size(self):
        self.assertEqual(len(self.raw), 3000 * 64)
        self.assertEqual(len(self.pos), 3000)

    def test_decoder_matches_the_bit_by_bit_one(self):
        p = self.pos
        for i in range(len(p)):
            d = slow_decode(self.raw[64 * i : 64 * i + 64])
            board = np.zeros(64, dtype=np.uint8)
            unmoved = np.zeros(64, dtype=bool)
            for s, (c, t) in d["pieces"].items():
                board[s] = c * 16 + (1 if t == 15 else t)
                unmoved[s] = t == 15
            msg = f"record {i}"
            np.testing.assert_array_equal(p.board[i], board, msg)
            np.testing.assert_array_equal(p.unmoved[i], unmoved, msg)
            got = (p.stm[i], tuple(p.variant[i]), p.castling[i], p.ep[i], p.halfmove[i], p.result[i], p.score[i],
                   p.best_move[i], p.fullmove[i])
            want = tuple(d[k] for k in ("stm", "variant", "castling", "ep", "halfmove", "result", "score", "best",
                                        "fullmove"))
            self.assertEqual(tuple(int(x) if not isinstance(x, tuple) else x for x in got), want, msg)

    def test_positions_are_plausible(self):
        p = self.pos
        self.assertTrue(((p.board == 6).sum(1) == 1).all(), "one White king each")
        self.assertTrue(((p.board == 22).sum(1) == 1).all(), "one Black king each")
        # No pawn on its promotion rank (custom armies may have pawns on their own rank 1).
        self.assertFalse((p.board[:, 56:] == 1).any(), "White pawn on rank 8")
        self.assertFalse((p.board[:, :8] == 17).any(), "Black pawn on rank 1")
        self.assertTrue(((p.board != 0) & (p.board < 16)).sum(1).max() <= 32)
        self.assertTrue(((p.board >= 16)).sum(1).max() <= 32)
        self.assertTrue((np.abs(p.score.astype(int)) < 32000).all())
        self.assertEqual(set(np.unique(p.result)), {0, 1, 2})
        self.assertTrue(p.variant.any(), "the sample has variant positions")
        self.assertTrue(p.unmoved.any(), "the sample has unmoved pawns")

    def test_features_follow_the_formula(self):
        flat, count = nf.white_features(self.pos.board)
        start = np.cumsum(count) - count
        padded = [nf.padded_features(self.pos.board, p) for p in (0, 1)]
        for i in range(0, len(self.pos), 7):
            pieces = slow_decode(self.raw[64 * i : 64 * i + 64])["pieces"]
            white = sorted(flat[start[i] : start[i] + count[i]].tolist())
            self.assertEqual(white, spec_features(pieces, 0), f"record {i}")
            black = sorted(nf.mirror_features(flat[start[i] : start[i] + count[i]]).tolist())
            self.assertEqual(black, spec_features(pieces, 1), f"record {i}")
            for p in (0, 1):
                row = padded[p][i]
                self.assertEqual(sorted(row[row != nf.FEATURES].tolist()), spec_features(pieces, p))
            self.assertEqual(self.pos.bucket[i], min((len(pieces) - 2) // 8, 7))
        self.assertTrue(flat.min() >= 0 and flat.max() < nf.FEATURES)

    def test_king_buckets_follow_the_formula(self):
        padded = [nf.padded_features(self.pos.board, p, 4) for p in (0, 1)]
        seen = set()
        for i in range(0, len(self.pos), 3):
            pieces = slow_decode(self.raw[64 * i : 64 * i + 64])["pieces"]
            for p in (0, 1):
                row = padded[p][i]
                self.assertEqual(sorted(row[row != 4 * nf.FEATURES].tolist()), spec_features(pieces, p, 4))
                seen.add(spec_king_bucket(pieces, p, 4))
        self.assertEqual(seen, {0, 1, 2, 3}, "the sample has kings in every bucket")

    def test_result_from_side_to_move(self):
        r = self.pos.result_stm
        for i in range(0, 3000, 11):
            white = self.pos.result[i] / 2
            self.assertEqual(r[i], white if self.pos.stm[i] == 0 else 1 - white)

    def test_files_concatenate_and_partial_record_is_ignored(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = Path(tmp, "a.data"), Path(tmp, "b.data")
            a.write_bytes(self.raw + b"\x01" * 10)  # a generator stopped mid-record
            b.write_bytes(self.raw[: 64 * 5])
            both = nf.read_records([str(a), str(b)])
            self.assertEqual(len(both), 3005)
            np.testing.assert_array_equal(both[3000:], self.records[:5])
            self.assertEqual(len(nf.read_records([str(a), str(b)], max_positions=3002)), 3002)
            self.assertEqual(len(nf.read_records([str(a), str(b)], max_positions=10)), 10)

    def test_malformed_records_are_refused(self):
        cases = ((8, 0, "piece code"), (8, 10, "piece code"), (51, 3, "result"), (49, 65, "en-passant"))
        for byte, value, what in cases:
            bad = self.records[:3].copy()
            bad[1, byte] = (bad[1, byte] & 0xE0) | value if byte == 8 else value
            with self.assertRaisesRegex(ValueError, what):
                nf.decode_records(bad)

    @unittest.skipUnless(os.environ.get("MAHARAJAH_ENGINE"), "set MAHARAJAH_ENGINE to compare FENs with the engine")
    def test_engine_reads_the_same_boards(self):
        count = 50
        fens = [nf.record_fen(self.pos, i) for i in range(count)]
        full = [nf.record_full_fen(self.pos, i) for i in range(count)]
        problems = []
        for kind, batch in (("board FEN", fens), ("full FEN", full)):
            for i, (engine_fen, errors) in enumerate(engine_fens(os.environ["MAHARAJAH_ENGINE"], batch)):
                mine = " ".join(batch[i].split()[:2])
                if errors:
                    problems.append(f"record {i}: the engine refused the {kind} '{batch[i]}': {errors}")
                elif engine_fen is None or " ".join(engine_fen.split()[:2]) != mine:
                    problems.append(f"record {i}: {kind} '{batch[i]}' printed back as '{engine_fen}'")
        self.assertEqual(problems, [], "\n".join(problems))


class Mirror(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pos = nf.decode_records(nf.read_records([str(SAMPLE)]))

    def test_mirror_images(self):
        pos = self.pos
        m = nf.mirror_files(pos)
        back = nf.mirror_files(m)
        for k in ("board", "unmoved", "ep", "stm", "score", "result", "castling", "variant"):
            self.assertTrue(np.array_equal(getattr(back, k), getattr(pos, k)), k)
        for i in range(0, len(pos), 97):
            for sq in range(64):
                self.assertEqual(m.board[i, sq ^ 7], pos.board[i, sq])
        self.assertTrue(np.array_equal(m.piece_count, pos.piece_count))
        both = nf.concat_positions([pos, m])
        self.assertEqual(len(both), 2 * len(pos))
        self.assertTrue(np.array_equal(both.board[len(pos):], m.board))

    @unittest.skipUnless(os.environ.get("MAHARAJAH_ENGINE"), "set MAHARAJAH_ENGINE to count moves with the engine")
    def test_the_rules_are_symmetric_without_castling_rights(self):
        """The premise of --mirror: a position without castling rights and its mirror
        image have the same number of legal move sequences (perft 2), in every
        classic/variant mix the sample holds."""
        idx = np.flatnonzero(self.pos.castling == 0)[::10][:80]
        self.assertGreater(len(idx), 40)
        m = nf.mirror_files(self.pos)
        fens = [nf.record_full_fen(self.pos, i) for i in idx] + [nf.record_full_fen(m, i) for i in idx]
        commands = []
        for fen in fens:
            commands += [f"position fen {fen}", "go perft 2"]
        out = subprocess.run([os.environ["MAHARAJAH_ENGINE"]], input="\n".join(commands + ["quit"]) + "\n",
                             capture_output=True, text=True, timeout=120).stdout
        found = re.findall(r"^(?:perft 2: (\d+) nodes|Nodes searched: (\d+))", out, re.M)
        counts = [int(a or b) for a, b in found]
        self.assertEqual(len(counts), 2 * len(idx), out[-500:])
        self.assertEqual(counts[: len(idx)], counts[len(idx):])
        self.assertGreater(len(set(tuple(v) for v in self.pos.variant[idx])), 1)


def engine_fens(engine: str, fens: list) -> list:
    """(the FEN that `d` prints, error lines) per FEN, from one engine process."""
    commands = []
    for fen in fens:
        commands += [f"position fen {fen}", "d", "isready"]
    commands.append("quit")
    out = subprocess.run([engine], input="\n".join(commands) + "\n", capture_output=True, text=True,
                         timeout=120).stdout
    blocks = out.split("readyok")[: len(fens)]
    if len(blocks) != len(fens):
        raise AssertionError(f"the engine answered {len(blocks)} of {len(fens)} isready: {out[-500:]}")
    result = []
    for block in blocks:
        lines = block.splitlines()
        fen = next((line[5:].strip() for line in lines if line.startswith("Fen: ")), None)
        result.append((fen, [line for line in lines if "error" in line.lower()]))
    return result


def report_factor() -> tuple[int, int]:
    """The engine reports net scores times NetReportNum / NetReportDen (eval/evaluate.h)."""
    header = (ROOT / "eval" / "evaluate.h").read_text()
    m = re.search(r"NetReportNum = (\d+), NetReportDen = (\d+)", header)
    assert m, "NetReportNum / NetReportDen not found in eval/evaluate.h"
    return int(m.group(1)), int(m.group(2))


def as_reported(values: np.ndarray) -> np.ndarray:
    """Net units as the engine reports them: scaled, truncated toward zero (C++ division)."""
    num, den = report_factor()
    v = values.astype(np.int64)
    return np.sign(v) * (np.abs(v) * num // den)


def engine_evals(engine: str, net_path: str, fens: list):
    """The engine's EvalFile answer and its NNUE evaluation of each FEN (`eval`, White's
    view, in centipawns as reported: see as_reported)."""
    commands = [f"setoption name EvalFile value {net_path}", "setoption name EvalMode value nnue"]
    for fen in fens:
        commands += [f"position fen {fen}", "eval"]
    commands.append("quit")
    out = subprocess.run([engine], input="\n".join(commands) + "\n", capture_output=True, text=True,
                         timeout=300).stdout
    hash_line = next((line for line in out.splitlines() if "EvalFile" in line or "error" in line), "")
    values = re.findall(r"^Final evaluation ([-+]?\d+\.\d\d) \(white side\)", out, re.M)
    return hash_line, [round(float(v) * 100) for v in values]


class NetFile(unittest.TestCase):
    def test_fnv1a_vectors(self):
        self.assertEqual(nf.fnv1a64(b""), 0xCBF29CE484222325)
        self.assertEqual(nf.fnv1a64(b"a"), 0xAF63DC4C8601EC8C)
        self.assertEqual(nf.fnv1a64(b"foobar"), 0x85944171F73967E8)

    def test_header_layout_and_round_trip(self):
        net = random_net(16, 1, "Maharajah test net \u265a")
        data = net.to_bytes()
        desc = net.description.encode("utf-8")
        self.assertEqual(data[:4], b"MHNN")
        fields = struct.unpack_from("<7I", data, 4)
        self.assertEqual(fields, (1, 1152, 16, 8, 255, nf.QB, 400))
        digest, size, desc_len = struct.unpack_from("<QQI", data, 32)
        payload = data[52 + desc_len :]
        self.assertEqual(desc_len, len(desc))
        self.assertEqual(data[52 : 52 + desc_len], desc)
        self.assertEqual(size, 2 * 1152 * 16 + 2 * 16 + 2 * 8 * 32 + 4 * 8)
        self.assertEqual(len(payload), size)
        self.assertEqual(digest, nf.fnv1a64(payload))
        # Payload order: feature weights (feature-major), biases, output weights, output biases.
        self.assertEqual(struct.unpack_from("<h", payload, 0)[0], net.ft_weight[0, 0])
        self.assertEqual(struct.unpack_from("<h", payload, 2 * 15)[0], net.ft_weight[0, 15])
        self.assertEqual(struct.unpack_from("<h", payload, 2 * 16)[0], net.ft_weight[1, 0])
        self.assertEqual(struct.unpack_from("<h", payload, 2 * 1152 * 16)[0], net.ft_bias[0])
        self.assertEqual(struct.unpack_from("<h", payload, 2 * 1153 * 16)[0], net.out_weight[0, 0])
        self.assertEqual(struct.unpack_from("<8i", payload, size - 32), tuple(net.out_bias))

        back = nf.parse_net(data, expected_hidden=16)
        for name in ("ft_weight", "ft_bias", "out_weight", "out_bias"):
            a, b = getattr(net, name), getattr(back, name)
            self.assertEqual(a.dtype, b.dtype, name)
            np.testing.assert_array_equal(a, b, name)
        self.assertEqual(back.description, net.description)
        self.assertEqual(back.to_bytes(), data)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "n.nnue")
            written, h = nf.write_net(path, net)
            self.assertEqual((written, h), (len(data), digest))
            self.assertEqual(Path(path).read_bytes(), data)

    def test_damage_is_refused(self):
        net = random_net(8, 2)
        data = net.to_bytes()
        start = 52 + len(net.description.encode())

        def patched(offset, fmt, value):
            b = bytearray(data)
            struct.pack_into(fmt, b, offset, value)
            return bytes(b)

        flipped = bytearray(data)
        flipped[start + 1000] ^= 0x10
        cases = {
            "magic": patched(0, "<4s", b"MHNX"),
            "version": patched(4, "<I", 2),
            "inputs": patched(8, "<I", 768),
            "king buckets": patched(8, "<I", 3 * 1152),
            "buckets": patched(16, "<I", 1),
            "QA": patched(20, "<I", 256),
            "QB": patched(24, "<I", 128),
            "scale": patched(28, "<I", 410),
            "payload size": patched(40, "<Q", len(data) - start - 2),
            "hash": bytes(flipped),
            "shorter": data[:-1],
            "longer": data + b"\0",
            "shorter than the": data[:30],
            "hidden size 0": patched(12, "<I", 0),
        }
        for what, bad in cases.items():
            with self.subTest(what), self.assertRaises(ValueError):
                nf.parse_net(bad)
        with self.assertRaisesRegex(ValueError, "hidden size is 8, expected 16"):
            nf.parse_net(data, expected_hidden=16)
        with self.assertRaisesRegex(ValueError, "hash"):
            nf.parse_net(bytes(flipped))
        with self.assertRaisesRegex(ValueError, "1024"):
            nf.QuantisedNet(net.ft_weight, net.ft_bias, net.out_weight, net.out_bias, "x" * 1025).to_bytes()
        self.assertEqual(nf.parse_net(data).hidden, 8)

    def test_quantisation_rounds_half_to_even(self):
        h = 4
        out_w = np.zeros((8, 2 * h))
        out_w[0, :6] = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 126.7]) / nf.QB  # exact in binary
        net = nf.quantise(np.zeros((1152, h)), np.full(h, 1.98), out_w, np.full(8, -0.25))
        self.assertEqual(net.out_weight[0, :6].tolist(), [0, 2, 2, 0, -2, 127])
        self.assertEqual(net.ft_bias.tolist(), [505] * h)  # 1.98 * 255 = 504.9
        self.assertEqual(net.out_bias.tolist(), [-255 * nf.QB // 4] * 8)
        with self.assertRaises(ValueError):
            nf.quantise(np.full((1152, h), 200.0), np.zeros(h), out_w, np.zeros(8))


class IntegerEvaluation(unittest.TestCase):
    def test_matches_plain_python(self):
        raw = SAMPLE.read_bytes()
        pos = nf.decode_records(nf.read_records([str(SAMPLE)]))
        net = random_net(12, 3)
        idx = list(range(0, 3000, 37))
        got = nf.evaluate_int(net, pos.subset(idx), chunk=16)
        for j, i in enumerate(idx):
            d = slow_decode(raw[64 * i : 64 * i + 64])
            self.assertEqual(got[j], slow_eval(net, d["pieces"], d["stm"]), f"record {i}")
        self.assertTrue((got < 0).any() and (got > 0).any())
        # With four king buckets each perspective reads its own king's bucket's rows.
        net = random_net(12, 3, king_buckets=4)
        got = nf.evaluate_int(net, pos.subset(idx), chunk=16)
        for j, i in enumerate(idx):
            d = slow_decode(raw[64 * i : 64 * i + 64])
            self.assertEqual(got[j], slow_eval(net, d["pieces"], d["stm"]), f"record {i}, king buckets")
        self.assertEqual(nf.parse_net(net.to_bytes()).king_buckets, 4)

    def test_truncates_toward_zero(self):
        # A net whose output is exactly -0.5 cp before truncation must give 0, not -1.
        h = 1
        net = nf.QuantisedNet(
            ft_weight=np.zeros((nf.FEATURES, h), np.int16), ft_bias=np.zeros(h, np.int16),
            out_weight=np.zeros((8, 2), np.int16), out_bias=np.full(8, -(nf.QA * nf.QB) // 800, np.int32))
        pos = nf.decode_records(nf.read_records([str(SAMPLE)], 3))
        # out_bias * 400 / (QA * QB) = -0.49 -> 0 (floor division would give -1).
        self.assertEqual(nf.evaluate_int(net, pos).tolist(), [0, 0, 0])
        net.out_bias[:] = -(nf.QA * nf.QB) // 160  # -2.5 -> -2
        self.assertEqual(nf.evaluate_int(net, pos).tolist(), [-2, -2, -2])

    def test_accumulator_range_bounds_the_sample(self):
        pos = nf.decode_records(nf.read_records([str(SAMPLE)]))
        net = random_net(8, 5)
        lo, hi = nf.accumulator_range(net)
        w_pad = np.vstack([net.ft_weight.astype(np.int64), np.zeros((1, 8), np.int64)])
        for p in (0, 1):
            acc = nf._accumulators(w_pad, net.ft_bias.astype(np.int64), nf.padded_features(pos.board, p))
            self.assertTrue(lo <= acc.min() and acc.max() <= hi)
        # Attained by a board with every square holding its best kind for one neuron.
        w = net.ft_weight.astype(np.int64).reshape(18, 64, 8)
        best = int(net.ft_bias[0]) + sum(max(0, int(w[:, s, 0].max())) for s in range(64))
        self.assertLessEqual(best, hi)

    @unittest.skipUnless(os.environ.get("MAHARAJAH_ENGINE"), "set MAHARAJAH_ENGINE to compare with the engine")
    def test_engine_evaluates_the_same(self):
        # The engine is built for its built-in net's shape (CMake reads width and king
        # buckets from the default net): a random net of that shape and one trained for
        # an epoch.
        builtin = nf.read_net(str(ROOT / "eval" / "nets" / "default.nnue"))
        width, king_buckets = builtin.hidden, builtin.king_buckets
        pos = nf.decode_records(nf.read_records([str(SAMPLE)]))
        with tempfile.TemporaryDirectory() as tmp:
            nets = [os.path.join(tmp, "random.nnue"), os.path.join(tmp, "trained.nnue")]
            nf.write_net(nets[0], random_net(width, 6, king_buckets=king_buckets))
            run_train(nets[1], "--epochs", "1", "--hidden", str(width), "--king-buckets", str(king_buckets))
            if king_buckets > 1:  # a net without buckets loads too, and evaluates as it is
                nets.append(os.path.join(tmp, "one-bucket.nnue"))
                nf.write_net(nets[2], random_net(width, 7))
            for path in nets:
                net = nf.read_net(path, expected_hidden=width)
                hash_line, evals = engine_evals(os.environ["MAHARAJAH_ENGINE"], path,
                                                [nf.record_full_fen(pos, i) for i in range(len(pos))])
                self.assertIn(f"(hash {net.hash():x})", hash_line)
                self.assertEqual(len(evals), len(pos))
                mine = as_reported(nf.evaluate_int(net, pos))
                engine = np.array(evals) * np.where(pos.stm == 0, 1, -1)  # White's view -> side to move's
                wrong = np.flatnonzero(engine != mine)
                self.assertEqual(len(wrong), 0, f"{path}: {len(wrong)} positions differ, first record {wrong[:1]}: "
                                 f"engine {engine[wrong[:1]]} cp, reference {mine[wrong[:1]]} cp")

    def test_close_to_the_dequantised_float_net(self):
        pos = nf.decode_records(nf.read_records([str(SAMPLE)], 500))
        net = random_net(16, 4)
        diff = nf.evaluate_int(net, pos) - nf.evaluate_float(*nf.dequantise(net), pos)
        # Only the two truncations: below 400 / (QA * QB) + 1 cp.
        self.assertLess(np.abs(diff).max(), 1 + 400 / (nf.QA * nf.QB) + 1e-9)


def run_train(out: str, *extra: str) -> str:
    cmd = [sys.executable, str(TRAIN), "--data", str(SAMPLE), "--out", out, "--hidden", "32", "--batch", "256",
           "--threads", "2", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


class Training(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_two_epochs_learn_and_write_a_readable_net(self):
        out = os.path.join(self.tmp.name, "two.nnue")
        text = run_train(out, "--epochs", "2", "--seed", "5", "--description", "two epochs")
        val = {int(e): float(v) for e, v in re.findall(r"^epoch\s+(\d+).*?val (\S+)", text, re.M)}
        train = [float(t) for t in re.findall(r"^epoch\s+\d+\s+train (\d\S*)", text, re.M)]
        self.assertEqual(len(train), 2, text)
        self.assertLess(train[1], train[0], text)
        self.assertLess(val[2], val[0], text)
        self.assertRegex(text, r"pos/s")

        data = Path(out).read_bytes()
        net = nf.read_net(out, expected_hidden=32)
        self.assertEqual(net.description, "two epochs")
        self.assertEqual(net.to_bytes(), data)
        printed = re.search(r"wrote .*: (\d+) bytes, hash ([0-9a-f]{16})", text)
        self.assertEqual(int(printed.group(1)), len(data))
        self.assertEqual(int(printed.group(2), 16), net.hash())
        # The weights stay inside the clipping bounds.
        self.assertLessEqual(np.abs(net.ft_weight.astype(int)).max(), round(nf.CLIP * nf.QA))
        self.assertLessEqual(np.abs(net.out_weight.astype(int)).max(), round(nf.OUT_CLIP * nf.QB))

        # Fine-tuning from it starts where it left off (its loss, not the random one).
        out2 = os.path.join(self.tmp.name, "tuned.nnue")
        text2 = run_train(out2, "--epochs", "1", "--seed", "5", "--init", out, "--lr", "1e-4")
        val2 = float(re.search(r"^epoch\s+0.*val (\S+)", text2, re.M).group(1))
        self.assertLess(abs(val2 - val[2]), 0.002, text2)

    def start_from_random_net(self, name: str, seed: int, *extra: str):
        """Writes a random 16-wide net, trains for 0 epochs from it with extra arguments;
        asserts the result evaluates the sample exactly as the random net does and returns
        (random net's path, the result's path, the trainer's output, the result)."""
        init = os.path.join(self.tmp.name, f"{name}.nnue")
        nf.write_net(init, random_net(16, seed))
        pos = nf.decode_records(nf.read_records([str(SAMPLE)], 600))
        before = nf.evaluate_int(nf.read_net(init), pos)
        same = os.path.join(self.tmp.name, f"{name}-same.nnue")
        text = run_train(same, "--epochs", "0", "--init", init, *extra)
        net = nf.read_net(same)
        self.assertTrue(np.array_equal(nf.evaluate_int(net, pos), before))
        return init, same, text, net

    def test_a_wider_net_starts_as_the_narrow_one_and_then_uses_its_new_neurons(self):
        # No training: the widened net evaluates every position exactly as the narrow one.
        narrow, same, text, wide = self.start_from_random_net("narrow", 8, "--hidden", "32")
        self.assertIn("widened to 32", text)
        self.assertEqual(wide.hidden, 32)
        self.assertFalse(np.any(wide.out_weight[:, 16:32]) or np.any(wide.out_weight[:, 48:64]))
        # One epoch later the new neurons have output weights of their own.
        grown = os.path.join(self.tmp.name, "grown.nnue")
        run_train(grown, "--epochs", "1", "--init", narrow, "--hidden", "32", "--lr", "1e-2")
        out_weight = nf.read_net(grown, expected_hidden=32).out_weight
        self.assertTrue(np.any(out_weight[:, 16:32]) and np.any(out_weight[:, 48:64]))
        # Narrowing is refused with one error line.
        proc = subprocess.run([sys.executable, str(TRAIN), "--data", str(SAMPLE), "--out", grown, "--init", same,
                               "--hidden", "16"], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 2)
        self.assertRegex(proc.stderr, r"^error: --init .* has hidden size 32, more than --hidden 16\n$")

    def test_king_buckets_start_as_the_net_without_and_then_differ(self):
        # No training: every bucket holds the net's rows, and it evaluates as before.
        plain, _, text, bucketed = self.start_from_random_net("plain", 9, "--hidden", "16", "--king-buckets", "4",
                                                              "--factorise")
        self.assertIn("net: 4 x 1152 -> 16", text)
        self.assertEqual((bucketed.hidden, bucketed.king_buckets), (16, 4))
        # After an epoch the buckets have rows of their own.
        tuned = os.path.join(self.tmp.name, "tuned.nnue")
        text = run_train(tuned, "--epochs", "1", "--init", plain, "--hidden", "16", "--king-buckets", "4", "--lr", "1e-2")
        w = nf.read_net(tuned, expected_hidden=16).ft_weight.reshape(4, nf.FEATURES, 16)
        self.assertFalse(np.array_equal(w[0], w[2]) or np.array_equal(w[1], w[3]))
        self.assertIn("4 king buckets", nf.read_net(tuned).description)
        # A bucketed net cannot start one with another bucket count.
        proc = subprocess.run([sys.executable, str(TRAIN), "--data", str(SAMPLE), "--out", plain, "--init", tuned,
                               "--king-buckets", "1"], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 2)
        self.assertRegex(proc.stderr, r"^error: --init .* has 4 king buckets, not 1\n$")

    def test_mirror_adds_the_images_of_positions_without_castling_rights(self):
        out = os.path.join(self.tmp.name, "m.nnue")
        text = run_train(out, "--epochs", "1", "--seed", "3", "--mirror")
        m = re.search(r"data: 3000 positions from 1 file\(s\), (\d+) train \(of them (\d+) mirror images\), "
                      r"(\d+) validation", text)
        self.assertIsNotNone(m, text)
        train, images, val = map(int, m.groups())
        self.assertEqual(train - images + val, 3000)
        self.assertGreater(images, 100)
        self.assertLess(images, train - images)
        self.assertIn("with mirror images", nf.read_net(out, expected_hidden=32).description)

    def test_factorised_rows_fold_into_the_square_rows(self):
        sys.path.insert(0, str(TRAIN.parent))
        import train  # noqa: E402  (imports torch)

        pos = nf.decode_records(nf.read_records([str(SAMPLE)], 512))
        data = train.TrainingSet(pos, 0.75)
        features, bags, bucket, _ = data.batch(np.arange(len(pos)))
        torch.manual_seed(3)
        factored = train.Net(32, factorise=True)
        with torch.no_grad():
            factored.factor.uniform_(-0.3, 0.3)
            factored.out_weight.uniform_(-0.2, 0.2)
        plain = train.Net(32)
        with torch.no_grad():
            plain.ft.weight.copy_(factored.folded_ft())
            plain.ft_bias.copy_(factored.ft_bias)
            plain.out_weight.copy_(factored.out_weight)
            plain.out_bias.copy_(factored.out_bias)
            a, b = factored(features, bags, bucket), plain(features, bags, bucket)
            shared = factored.factor.clone()
            factored.factor.zero_()  # without its shared rows the net computes something else
            self.assertGreater(float((a - factored(features, bags, bucket)).abs().max()), 0.01)
            factored.factor.copy_(shared)
        self.assertLess(float((a - b).abs().max()), 1e-4)

        out = os.path.join(self.tmp.name, "f.nnue")
        text = run_train(out, "--epochs", "2", "--seed", "4", "--factorise", "--lr", "2e-2")
        self.assertIn("factorised", nf.read_net(out, expected_hidden=32).description)
        # The written net is what the trained one computes: its integer evaluation stays
        # within rounding of the float network's.
        mean = float(re.search(r"mean \|int - float\| (\S+) cp", text).group(1))
        self.assertLess(mean, 10, text)
        self.assertRegex(text, r"val \S+ \(compounds \S+ in \d+, none \S+\)")

    def test_same_seed_same_bytes(self):
        a, b, c = (os.path.join(self.tmp.name, f"{n}.nnue") for n in "abc")
        run_train(a, "--epochs", "1", "--seed", "7")
        run_train(b, "--epochs", "1", "--seed", "7")
        run_train(c, "--epochs", "1", "--seed", "8")
        self.assertEqual(Path(a).read_bytes(), Path(b).read_bytes())
        self.assertNotEqual(Path(a).read_bytes(), Path(c).read_bytes())


def engine_path():
    """The engine for the streaming tests: MAHARAJAH_ENGINE, else build/maharajah if built."""
    path = os.environ.get("MAHARAJAH_ENGINE") or str(ROOT / "build" / "maharajah")
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def run_main(*args: str):
    """train.main in this process (no interpreter and torch start-up per run): (exit code,
    stdout, stderr)."""
    import contextlib
    import io

    sys.path.insert(0, str(TRAIN.parent))
    import train  # noqa: E402

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = train.main(list(args))
        except SystemExit as e:  # argparse refusing the arguments
            code = e.code
    return code, out.getvalue(), err.getvalue()


def spec_keep(rec: bytes, skip, max_score: int, min_ply: int):
    """Whether a record is kept and, if not, the first filter (in the documented order)
    that drops it, from the bytes as the format describes them."""
    flags, kind = rec[58], rec[59]
    bits = {"in-check": 1, "capture": 2, "promotion": 4, "army": 8, "chess960": 16, "adjudicated": 32, "no-score": 64}
    for name, bit in bits.items():
        if name in skip and flags & bit:
            return name
    if "standard" in skip and kind == 0:
        return "standard"
    if abs(int.from_bytes(rec[52:54], "little", signed=True)) > max_score:
        return "score"
    if int.from_bytes(rec[60:62], "little") < min_ply:
        return "ply"
    return None


class Filters(unittest.TestCase):
    def test_filters_drop_exactly_the_flagged_records(self):
        records = nf.read_records([str(SAMPLE)]).copy()
        rng = np.random.default_rng(11)
        n = len(records)
        # Every flag on about a tenth of the records, all start kinds, plies 0-40, and
        # some scores moved to mate or beyond +-1000.
        records[:, 58] = sum((rng.random(n) < 0.1).astype(np.uint8) << b for b in range(7))
        records[:, 59] = rng.integers(0, 4, n)
        records[:, 60] = rng.integers(0, 41, n)
        records[:, 61] = 0
        scores = records[:, 52:54].copy().view("<i2").reshape(n)
        scores[rng.random(n) < 0.05] = 31990
        scores[rng.random(n) < 0.05] = -1500
        records[:, 52:54] = scores.reshape(n, 1).view(np.uint8)
        cases = [(nf.DEFAULT_SKIP, nf.DEFAULT_MAX_SCORE, 0), ((), 32767, 0), ((), nf.DEFAULT_MAX_SCORE, 0),
                 (("adjudicated", "army", "chess960", "standard"), 1000, 10), (tuple(nf.FILTER_ORDER[:-2]), 300, 3)]
        for skip, max_score, min_ply in cases:
            with self.subTest(skip=skip, max_score=max_score, min_ply=min_ply):
                keep, dropped = nf.filter_records(records, skip, max_score, min_ply)
                why = [spec_keep(bytes(r), skip, max_score, min_ply) for r in records]
                self.assertEqual(keep.tolist(), [w is None for w in why])
                for name in nf.FILTER_ORDER:
                    self.assertEqual(dropped[name], why.count(name), name)
        self.assertEqual(nf.filter_records(records, (), 32767, 0)[0].sum(), n)
        # The first datagen's records (zeros in bytes 58-63, no mate scores) all pass the defaults.
        self.assertTrue(nf.filter_records(nf.read_records([str(SAMPLE)]))[0].all())

        # The trainer leaves out what the filter says and reports each filter's count.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "f.data")
            records.tofile(path)
            code, text, err = run_main("--data", path, "--out", os.path.join(tmp, "f.nnue"), "--hidden", "8",
                                       "--epochs", "0", "--skip", "in-check,army", "--max-score", "1000",
                                       "--min-ply", "5")
            self.assertEqual(code, 0, err)
            why = [spec_keep(bytes(r), ("in-check", "army"), 1000, 5) for r in records]
            dropped = n - why.count(None)
            self.assertIn(f"data: {n - dropped} positions from 1 file(s)", text)
            self.assertIn(f"filters: {dropped} of {n} records left out (in-check {why.count('in-check'):,}, "
                          f"army {why.count('army'):,}, score {why.count('score'):,}, ply {why.count('ply'):,})", text)
            code, _, err = run_main("--data", path, "--out", os.path.join(tmp, "f.nnue"), "--skip", "quiet")
        self.assertNotEqual(code, 0)


class GameFiles(unittest.TestCase):
    """The game-file index, the pieces and the epochs' chunk plans (no engine needed)."""

    def test_index_pieces_and_plans(self):
        import gamefile
        import stream

        raw = SAMPLE_GAMES.read_bytes()
        ix = gamefile.index_games(SAMPLE_GAMES)
        # Plain walk over the format: header 22 bytes, the FEN, 4 bytes a ply.
        at, plies = 0, []
        while at < len(raw):
            n, fen_len = struct.unpack_from("<H", raw, at + 6)[0], struct.unpack_from("<H", raw, at + 20)[0]
            plies.append(n)
            at += 22 + fen_len + 4 * n
        self.assertEqual(ix.plies, plies)
        self.assertEqual((ix.end, ix.size), (len(raw), len(raw)))
        with tempfile.TemporaryDirectory() as tmp:
            cut = os.path.join(tmp, "cut.games")
            Path(cut).write_bytes(raw[: ix.offsets[5] + 30])  # a run stopped in game 6
            part = gamefile.index_games(cut)
            self.assertEqual((part.games, part.end, part.positions), (5, ix.offsets[5], sum(plies[:5])))
            Path(cut).write_bytes(b"MX" + raw[2:100])
            with self.assertRaisesRegex(ValueError, "magic"):
                gamefile.index_games(cut)

        total = ix.positions
        for limit in (total, 2000, 700, 1):
            pieces = stream.make_pieces([ix, ix], limit)
            for f in (0, 1):
                mine = [p for p in pieces if p.file == f]
                # The parts cover the file's games exactly once, in order, and hold at
                # most the limit unless a single game is longer.
                self.assertEqual([p.start for p in mine][0], 0)
                self.assertEqual([p.end for p in mine][-1], ix.end)
                self.assertEqual([p.end for p in mine][:-1], [p.start for p in mine][1:])
                self.assertEqual(sum(p.positions for p in mine), total)
                for p in mine:
                    games = [g for g, o in enumerate(ix.offsets) if p.start <= o < p.end]
                    self.assertEqual(p.positions, sum(plies[g] for g in games))
                    self.assertTrue(p.positions <= limit or len(games) == 1)
                self.assertEqual(len(mine) == 1, all(p.whole for p in mine))
            plans = [stream.plan_epoch(pieces, limit, 4, e) for e in range(3)]
            for plan in plans:
                self.assertEqual(sorted(i for chunk in plan for i in chunk), list(range(len(pieces))))
                for chunk in plan:
                    self.assertEqual(chunk, sorted(chunk))
                    self.assertTrue(sum(pieces[i].positions for i in chunk) <= limit or len(chunk) == 1)
            self.assertEqual(plans[1], stream.plan_epoch(pieces, limit, 4, 1))
            if len(pieces) > 4:
                self.assertNotEqual(plans[0], plans[1])


@unittest.skipUnless(engine_path(), "the engine is needed to expand game files (build it or set MAHARAJAH_ENGINE)")
class Streaming(unittest.TestCase):
    """--games: game files through `maharajah expand`, chunks, validation files, resume."""

    @classmethod
    def setUpClass(cls):
        import gamefile

        cls.tmpdir = tempfile.TemporaryDirectory()
        cls.tmp = cls.tmpdir.name
        cls.engine = engine_path()
        # The sample's games in three files (files concatenate), and all of them expanded.
        raw = SAMPLE_GAMES.read_bytes()
        cuts = gamefile.index_games(SAMPLE_GAMES).offsets
        bounds = [0, cuts[20], cuts[40], len(raw)]
        cls.files = []
        for k in range(3):
            path = os.path.join(cls.tmp, f"g{k}.games")
            Path(path).write_bytes(raw[bounds[k] : bounds[k + 1]])
            cls.files.append(path)
        cls.data = os.path.join(cls.tmp, "all.data")
        subprocess.run([cls.engine, "expand", "out", cls.data, *cls.files], check=True, capture_output=True, timeout=60)
        cls.records = nf.read_records([cls.data])

    @classmethod
    def tearDownClass(cls):
        cls.tmpdir.cleanup()

    def out(self, name):
        return os.path.join(self.tmp, name)

    def train(self, *args):
        code, text, err = run_main("--engine", self.engine, "--hidden", "16", "--batch", "256", "--threads", "1",
                                   "--description", "t", *args)
        self.assertEqual(code, 0, err + text)
        return text

    def test_one_chunk_equals_the_in_memory_path(self):
        # The same positions in the same order, one chunk an epoch: the shuffles, the
        # learning-rate schedule and so every step are the in-memory path's, bit for bit.
        a, b = self.out("mem.nnue"), self.out("one.nnue")
        self.train("--data", self.data, "--val-fraction", "0", "--out", a, "--epochs", "2", "--seed", "3")
        text = self.train("--games", *self.files, "--out", b, "--epochs", "2", "--seed", "3")
        self.assertEqual(Path(a).read_bytes(), Path(b).read_bytes())
        self.assertIn("chunk 1/1 of epoch 2", text)

    def test_chunks_visit_every_kept_position_once_an_epoch(self):
        import stream

        import gamefile

        indexes = [gamefile.index_games(p) for p in self.files]
        filters = stream.Filters()
        kept, _ = filters.apply(self.records)
        want = np.sort(kept.view("V64").ravel())
        pieces = stream.make_pieces(indexes, 700)
        self.assertGreater(len(pieces), 6)
        # Expanded, expanded into the cache, read back from it; two epochs' plans.
        for epoch, cache in ((0, None), (1, self.out("cache")), (0, self.out("cache"))):
            loader = stream.ChunkLoader(stream.Expander(self.engine, indexes, cache), pieces, filters)
            plan = stream.plan_epoch(pieces, 1500, 9, epoch)
            self.assertGreater(len(plan), 3)
            got = np.concatenate([loader.load(chunk).records for chunk in plan])
            np.testing.assert_array_equal(np.sort(got.view("V64").ravel()), want)
            loader.close()
        self.assertEqual(len(os.listdir(self.out("cache"))), len(pieces))

        # Trained in chunks the net differs from the one-chunk net only by the order of
        # the positions (shuffled within chunks, the same positions each epoch: above and
        # the counts below). On this little data the loss barely moves, so the loss check
        # is only a smoke test: both start equal, both improve, they end close.
        text_one = self.train("--games", *self.files[:2], "--out", self.out("c1.nnue"), "--epochs", "2", "--seed", "2",
                              "--val-games", self.files[2])
        text_many = self.train("--games", *self.files[:2], "--out", self.out("c2.nnue"), "--epochs", "2", "--seed", "2",
                               "--val-games", self.files[2], "--chunk-positions", "900", "--cache", self.out("cache"))
        val = lambda text: [float(v) for v in re.findall(r"^epoch\s+\d+.*?val (\S+)", text, re.M)]  # noqa: E731
        one, many = val(text_one), val(text_many)
        self.assertEqual(len(many), 3)
        self.assertEqual(one[0], many[0])
        self.assertLess(many[2], many[0])
        self.assertLess(abs(many[2] - one[2]), 0.1 * (one[0] - one[2]) + 0.002, (one, many))
        self.assertGreater(len(re.findall(r"^chunk \d+/\d+ of epoch 2", text_many, re.M)), 2)
        trained = lambda text, e: sum(int(n.replace(",", "")) for n in re.findall(  # noqa: E731
            rf"^chunk \d+/\d+ of epoch {e}: .*; ([\d,]+) trained", text, re.M))
        self.assertEqual([trained(text_many, e) for e in (1, 2)], [trained(text_one, e) for e in (1, 2)])
        first_two = self.records[: sum(ix.positions for ix in indexes[:2])]
        self.assertEqual(trained(text_one, 1), len(filters.apply(first_two)[0]))

    def test_resume_gives_the_same_bytes(self):
        common = ("--games", *self.files[:2], "--epochs", "2", "--seed", "6", "--chunk-positions", "1200",
                  "--val-games", self.files[2], "--val-positions", "300")
        full, part = self.out("full.nnue"), self.out("part.nnue")
        text = self.train(*common, "--out", full, "--checkpoint", self.out("full.ckpt"))
        chunks = len(re.findall(r"^chunk ", text, re.M))
        self.assertGreater(chunks, 6)
        ckpt = self.out("part.ckpt")
        text = self.train(*common, "--out", part, "--checkpoint", ckpt, "--max-chunks", "3")
        self.assertIn("stopped after 3 chunk(s)", text)
        self.assertFalse(os.path.exists(part))
        text = self.train(*common, "--out", part, "--checkpoint", ckpt, "--resume", "--max-chunks", "2")
        self.assertRegex(text, r"resumed: .* at epoch 1, chunk 4")
        text = self.train(*common, "--out", part, "--checkpoint", ckpt, "--resume")
        self.assertEqual(len(re.findall(r"^chunk ", text, re.M)), chunks - 5)
        self.assertEqual(Path(full).read_bytes(), Path(part).read_bytes())
        # kill -TERM: the chunk in progress finishes, the checkpoint is saved, the run stops.
        ckpt = self.out("term.ckpt")
        proc = subprocess.Popen([sys.executable, str(TRAIN), *common, "--out", part, "--checkpoint", ckpt,
                                 "--engine", self.engine, "--hidden", "16", "--batch", "256", "--threads", "1",
                                 "--description", "t"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in proc.stdout:
            if line.startswith("epoch  0"):
                proc.send_signal(signal.SIGTERM)
                break
        rest, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0, err)
        done = int(re.search(r"stopped after (\d+) chunk", rest).group(1))
        self.assertLess(done, chunks)
        os.remove(part)
        text = self.train(*common, "--out", part, "--checkpoint", ckpt, "--resume")
        self.assertEqual(len(re.findall(r"^chunk ", text, re.M)), chunks - done)
        self.assertEqual(Path(full).read_bytes(), Path(part).read_bytes())
        # Another learning rate (or other data) cannot continue it; nor a missing checkpoint.
        code, _, err = run_main(*common, "--engine", self.engine, "--hidden", "16", "--batch", "256", "--out", part,
                                "--checkpoint", ckpt, "--resume", "--lr", "1e-3")
        self.assertEqual((code, err.count("\n")), (2, 1))
        self.assertRegex(err, r"^error: .* other data or arguments \(lr\)")
        code, _, err = run_main(*common, "--out", part, "--checkpoint", self.out("none.ckpt"), "--resume")
        self.assertEqual(code, 2)
        self.assertIn("no checkpoint", err)

    def test_a_damaged_game_file_stops_with_one_error_line(self):
        import gamefile

        raw = bytearray(Path(self.files[1]).read_bytes())
        ix = gamefile.index_games(self.files[1])
        fen_len = struct.unpack_from("<H", raw, ix.offsets[3] + 20)[0]
        struct.pack_into("<H", raw, ix.offsets[3] + 22 + fen_len, 0)  # game 4's first move: a1a1
        bad = self.out("bad.games")
        Path(bad).write_bytes(bytes(raw))
        code, text, err = run_main("--games", self.files[0], bad, "--out", self.out("bad.nnue"), "--engine", self.engine,
                                   "--hidden", "8", "--epochs", "1")
        self.assertEqual((code, err.count("\n")), (2, 1), err)
        self.assertRegex(err, r"^error: .* expand .*bad.games exited 1: error: .*game 4 .*ply 1 is not a legal move")
        self.assertFalse(os.path.exists(self.out("bad.nnue")))

    def test_validation_is_a_sample_of_the_held_out_files(self):
        import gamefile
        import stream

        val = self.files[2]
        code, _, err = run_main("--games", *self.files, "--val-games", val, "--out", self.out("v.nnue"),
                                "--engine", self.engine)
        self.assertEqual(code, 2)
        self.assertRegex(err, r"^error: .*g2.games is both a training and a validation file\n$")
        text = self.train("--games", *self.files[:2], "--val-games", val, "--val-positions", "500",
                          "--out", self.out("v.nnue"), "--epochs", "1", "--chunk-positions", "1500",
                          "--val-every", "2", "--mirror")
        # --val-every 2: also after every second chunk but the epoch's last (the epoch line has it).
        chunks = len(re.findall(r"^chunk ", text, re.M))
        self.assertGreater(chunks, 3)
        self.assertEqual(len(re.findall(r"^  val 0\.\d+", text, re.M)), (chunks - 1) // 2)
        # --mirror: every kept training position without castling rights adds its image.
        first_two = self.records[: -gamefile.index_games(val).positions]
        images = sum(int(n.replace(",", "")) for n in re.findall(r"of them ([\d,]+) mirror images", text))
        self.assertEqual(images, int((nf.decode_records(stream.Filters().apply(first_two)[0]).castling == 0).sum()))
        ix = gamefile.index_games(val)
        held = nf.read_records([self.data])[-ix.positions :]
        kept, _ = stream.Filters().apply(held)
        self.assertIn(f"validation: 1 game file(s), {ix.positions:,} positions, {len(kept):,} kept", text)
        self.assertIn("a sample of 500", text)
        self.assertEqual(len(re.findall(r"^epoch\s+\d+ .*val 0\.\d+", text, re.M)), 2)
        # The sample: 500 distinct kept records of the validation file, the same every time.
        loader = stream.ChunkLoader(stream.Expander(self.engine, [ix]), stream.make_pieces([ix], 800), stream.Filters())
        sample, n_kept, n_raw, _ = stream.sample_records(loader, 500, 1)
        again, *_ = stream.sample_records(loader, 500, 1)
        loader.close()
        self.assertEqual((len(sample), n_kept, n_raw), (500, len(kept), ix.positions))
        np.testing.assert_array_equal(sample, again)
        rows = set(kept.view("V64").ravel().tolist())
        self.assertTrue(all(r in rows for r in sample.view("V64").ravel().tolist()))
        self.assertEqual(len(set(sample.view("V64").ravel().tolist())), 500)


class Scoring(unittest.TestCase):
    def test_score_py_is_the_loss_of_the_plain_python_evaluation(self):
        # 120 records, a random net: score.py's three losses and the distance to the
        # search score, against the target and loss written out from the text.
        raw = SAMPLE.read_bytes()
        n, lam = 120, 0.6
        net = random_net(12, 9)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.nnue")
            nf.write_net(path, net)
            proc = subprocess.run([sys.executable, str(SCORE), "--nets", path, "--data", str(SAMPLE),
                                   "--max-positions", str(n), "--lambda", str(lam)],
                                  capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        row = next(line for line in proc.stdout.splitlines() if line.startswith("r.nnue"))
        loss, compounds, none, dist = (float(v) for v in row.split()[2:6])
        losses, with_compound, dists = [], [], []
        for i in range(n):
            d = slow_decode(raw[64 * i : 64 * i + 64])
            cp = slow_eval(net, d["pieces"], d["stm"])
            white = d["result"] / 2
            result = white if d["stm"] == 0 else 1 - white
            target = lam / (1 + math.exp(-d["score"] / 400)) + (1 - lam) * result
            losses.append((1 / (1 + math.exp(-cp / 400)) - target) ** 2)
            with_compound.append(any(t in (7, 8, 9) for _, t in d["pieces"].values()))
            dists.append(abs(cp - d["score"]))
        part = lambda flag: sum(x for x, c in zip(losses, with_compound) if c == flag) / with_compound.count(flag)  # noqa: E731
        self.assertTrue(0 < with_compound.count(True) < n)
        self.assertAlmostEqual(loss, sum(losses) / n, places=5)
        self.assertAlmostEqual(compounds, part(True), places=5)
        self.assertAlmostEqual(none, part(False), places=5)
        self.assertAlmostEqual(dist, sum(dists) / n, places=1)

    def test_score_py_refuses_a_missing_net(self):
        proc = subprocess.run([sys.executable, str(SCORE), "--nets", "/nonexistent.nnue", "--data", str(SAMPLE)],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("error:", proc.stderr)


if __name__ == "__main__":
    unittest.main()
