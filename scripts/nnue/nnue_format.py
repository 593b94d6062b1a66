"""Shared code for Maharajah's NNUE tools (scripts/nnue/README.md): the training-data
records, the network's input features, the quantised .nnue file, and a pure-integer
reference evaluation that does exactly what the engine computes.

Needs numpy only (no torch), so the engine's tests can use it for cross-checks.

  records  = read_records(["a.data", "b.data"])      # (N, 64) uint8, files concatenated
  pos      = decode_records(records)                 # Positions: boards, side, score, ...
  flat, n  = white_features(pos.board)               # active features, flattened
  net      = read_net("net.nnue", expected_hidden=256)
  cp       = evaluate_int(net, pos)                  # int64 centipawns, side to move's view

Everything in the bulk path is vectorised numpy; the per-record helpers (record_fen)
are for tests and debugging.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

# --- Training-data records -------------------------------------------------------------

RECORD_SIZE = 64
NO_SQUARE = 64  # byte 49 when there is no en-passant square
UNMOVED_PAWN = 15  # piece-type code of a pawn that still has its double step
PIECE_TYPES = 9  # 1 pawn .. 9 chancellor
PIECE_LETTERS = " PNBRQKMAC"  # index = piece type; upper case White, lower case Black
KING = 6


def read_records(paths, max_positions: int | None = None) -> np.ndarray:
    """Reads and concatenates record files into an (N, 64) uint8 array.

    A trailing partial record of a file (a generator stopped mid-write) is ignored.
    With max_positions, reading stops after that many records (the first ones, in the
    order the files are given)."""
    parts = []
    total = 0
    for path in paths:
        if max_positions is not None and total >= max_positions:
            break
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            f.seek(0)
            n = size // RECORD_SIZE
            if max_positions is not None:
                n = min(n, max_positions - total)
            data = np.fromfile(f, dtype=np.uint8, count=n * RECORD_SIZE)
        parts.append(data.reshape(n, RECORD_SIZE))
        total += n
    if not parts:
        return np.zeros((0, RECORD_SIZE), dtype=np.uint8)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


@dataclass
class Positions:
    """Decoded records, one row per position (all arrays have N rows)."""

    board: np.ndarray  # (N, 64) uint8: 0 empty, else colour * 16 + type (1..9)
    unmoved: np.ndarray  # (N, 64) bool: pawns stored with type 15 (double step kept)
    stm: np.ndarray  # (N,) uint8: 0 White to move, 1 Black
    variant: np.ndarray  # (N, 2) bool: White / Black plays variant rules
    castling: np.ndarray  # (N,) uint8: 1 K, 2 Q, 4 k, 8 q
    ep: np.ndarray  # (N,) uint8: en-passant square, 64 for none
    halfmove: np.ndarray  # (N,) uint8
    result: np.ndarray  # (N,) uint8: game result for White, 0 loss 1 draw 2 win
    score: np.ndarray  # (N,) int16: search score, centipawns, side to move's view
    best_move: np.ndarray  # (N,) uint16
    fullmove: np.ndarray  # (N,) uint16

    def __len__(self) -> int:
        return len(self.stm)

    def subset(self, index) -> "Positions":
        return Positions(**{k: v[index] for k, v in self.__dict__.items()})

    @property
    def piece_count(self) -> np.ndarray:
        """Men on the board, kings included."""
        return (self.board != 0).sum(axis=1)

    @property
    def bucket(self) -> np.ndarray:
        return output_bucket(self.piece_count)

    @property
    def result_stm(self) -> np.ndarray:
        """Game result from the side to move's view as float32: 1 win, 0.5 draw, 0 loss."""
        white = self.result.astype(np.float32) / 2
        return np.where(self.stm == 0, white, 1 - white).astype(np.float32)


def concat_positions(parts) -> Positions:
    """The rows of several Positions, one after the other."""
    return Positions(**{k: np.concatenate([getattr(p, k) for p in parts]) for k in Positions.__dataclass_fields__})


def mirror_files(pos: Positions) -> Positions:
    """The same positions reflected left to right (file a <-> h). Only meant for
    positions without castling rights: every other rule of both sides (pawn steps,
    en passant, promotion, the pieces' moves) is symmetric under the reflection, so the
    mirrored position has the same value and game result. The best move is dropped (0):
    training does not use it."""
    def flip(a):
        return np.ascontiguousarray(a.reshape(-1, 8, 8)[:, :, ::-1].reshape(-1, 64))
    ep = np.where(pos.ep < NO_SQUARE, pos.ep ^ 7, pos.ep).astype(np.uint8)
    fields = dict(pos.__dict__, board=flip(pos.board), unmoved=flip(pos.unmoved), ep=ep,
                  best_move=np.zeros_like(pos.best_move))
    return Positions(**fields)


def decode_records(records: np.ndarray, chunk: int = 1 << 20) -> Positions:
    """Decodes (N, 64) uint8 records. Raises ValueError on a malformed record (a piece
    code other than 1..9 or 15, a result above 2, an en-passant square above 64)."""
    records = np.ascontiguousarray(records, dtype=np.uint8).reshape(-1, RECORD_SIZE)
    n = len(records)
    board = np.zeros((n, 64), dtype=np.uint8)
    unmoved = np.zeros((n, 64), dtype=bool)
    # Chunks bound the temporary bit arrays (about 400 bytes per record).
    for lo in range(0, n, chunk):
        r = records[lo : lo + chunk]
        occ = np.unpackbits(r[:, 0:8], axis=1, bitorder="little").astype(bool)  # bit s = square s
        stream = np.unpackbits(r[:, 8:48], axis=1, bitorder="little")  # bit k of the stream
        # Slot k = the k-th occupied square's 5 bits, lowest first (packbits pads to 8).
        codes = np.packbits(stream.reshape(len(r), 64, 5), axis=2, bitorder="little")[:, :, 0]
        slot = np.cumsum(occ, axis=1, dtype=np.int8) - 1  # square -> its slot
        np.maximum(slot, 0, out=slot)
        code = np.take_along_axis(codes, slot, axis=1)
        code *= occ
        ptype = code & 15
        bad = occ & ~((ptype - 1 < PIECE_TYPES) | (ptype == UNMOVED_PAWN))  # uint8: 0 - 1 wraps
        if bad.any():
            row, sq = np.argwhere(bad)[0]
            raise ValueError(f"record {lo + row}: bad piece code {code[row, sq]} on square {sq}")
        um = ptype == UNMOVED_PAWN
        code -= um.view(np.uint8) * np.uint8(UNMOVED_PAWN - 1)  # a pawn with its double step is a pawn to the net
        board[lo : lo + chunk] = code
        unmoved[lo : lo + chunk] = um

    flags = records[:, 48]
    ep = records[:, 49].copy()
    result = records[:, 51].copy()
    if (result > 2).any():
        raise ValueError(f"record {int(np.argmax(result > 2))}: bad game result {result.max()}")
    if (ep > NO_SQUARE).any():
        raise ValueError(f"record {int(np.argmax(ep > NO_SQUARE))}: bad en-passant square")
    return Positions(
        board=board,
        unmoved=unmoved,
        stm=(flags & 1).astype(np.uint8),
        variant=np.stack([(flags >> 1) & 1, (flags >> 2) & 1], axis=1).astype(bool),
        castling=(flags >> 4).astype(np.uint8),
        ep=ep,
        halfmove=records[:, 50].copy(),
        result=result,
        score=records[:, 52:54].copy().view("<i2").reshape(n).astype(np.int16),
        best_move=records[:, 54:56].copy().view("<u2").reshape(n).astype(np.uint16),
        fullmove=records[:, 56:58].copy().view("<u2").reshape(n).astype(np.uint16),
    )


def board_fen(board_row) -> str:
    """FEN board field (rank 8 first) of one decoded board row."""
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for file in range(8):
            code = int(board_row[rank * 8 + file])
            if code == 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            letter = PIECE_LETTERS[code & 15]
            text += letter.lower() if code >> 4 else letter
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def record_fen(pos: Positions, i: int) -> str:
    """A FEN for position i that the engine reads back with the same board and side:
    castling and en passant '-', counters '0 1', and when a side plays variant rules
    field 7 (V, v, Vv) and an empty field 8 (the double-step rights are not compared)."""
    fen = f"{board_fen(pos.board[i])} {'b' if pos.stm[i] else 'w'} - - 0 1"
    sides = ("V" if pos.variant[i, 0] else "") + ("v" if pos.variant[i, 1] else "")
    if sides:
        fen += f" {sides} -"
    return fen


def square_name(s: int) -> str:
    return "abcdefgh"[s & 7] + str(s // 8 + 1)


def record_full_fen(pos: Positions, i: int) -> str:
    """All 8 FEN fields of position i in the form the engine's record unpacker writes
    them (src/datagen/packed.cpp): castling KQkq letters, en passant, halfmove clock,
    fullmove number (at least 1), variant sides, and the unmoved pawns in square order,
    where a classic side's king square is always listed (it makes that side's list
    exact, see the FEN dialect in docs/protocol.md)."""
    flags = int(pos.castling[i])
    castling = "".join(ch for bit, ch in zip((1, 2, 4, 8), "KQkq") if flags & bit) or "-"
    ep = "-" if pos.ep[i] == NO_SQUARE else square_name(int(pos.ep[i]))
    sides = ("V" if pos.variant[i, 0] else "") + ("v" if pos.variant[i, 1] else "") or "-"
    listed = [s for s in range(64) if pos.unmoved[i, s]]
    for colour in (0, 1):
        if not pos.variant[i, colour]:
            listed += [s for s in range(64) if pos.board[i, s] == colour * 16 + KING]
    pawns = "".join(square_name(s) for s in sorted(listed)) or "-"
    return (
        f"{board_fen(pos.board[i])} {'b' if pos.stm[i] else 'w'} {castling} {ep} {pos.halfmove[i]} "
        f"{max(1, int(pos.fullmove[i]))} {sides} {pawns}"
    )


# --- Filter fields of expanded records ------------------------------------------------------

# `maharajah expand` writes every position of a game; bytes 58-63 say what a trainer may
# filter on (src/datagen/games.h): byte 58 flags, 59 start kind, 60-61 ply within the
# stored game, 62-63 plies from there to the game's end. Records of the first datagen
# have zeros there (it kept quiet positions only), so no flag filter drops any of them.
RECORD_FLAGS = {
    "in-check": 1,  # the side to move is in check
    "capture": 2,  # the move played captures (en passant included)
    "promotion": 4,  # the move played promotes
    "army": 8,  # an army game (suggested or random armies)
    "chess960": 16,  # a Chess960 game
    "adjudicated": 32,  # the game's result was adjudicated
    "no-score": 64,  # the search gave no exact score (the score field is 0)
}
START_KINDS = ("standard", "chess960", "suggested", "random armies")
# What the first datagen kept: quiet positions (side to move not in check, best move
# neither a capture nor a promotion) with an exact score that is not a mate score.
DEFAULT_SKIP = ("in-check", "capture", "promotion", "no-score")
MATE_BOUND = 32000 - 246  # VALUE_MATE_IN_MAX_PLY: from here on a score is a mate score
DEFAULT_MAX_SCORE = MATE_BOUND - 1
FILTER_ORDER = tuple(RECORD_FLAGS) + ("standard", "score", "ply")


def record_fields(records: np.ndarray):
    """(flags uint8, start kind uint8, ply uint16, plies to the end uint16) per record."""
    records = np.asarray(records, dtype=np.uint8).reshape(-1, RECORD_SIZE)
    ply = records[:, 60].astype(np.uint16) | (records[:, 61].astype(np.uint16) << 8)
    left = records[:, 62].astype(np.uint16) | (records[:, 63].astype(np.uint16) << 8)
    return records[:, 58].copy(), records[:, 59].copy(), ply, left


def record_scores(records: np.ndarray) -> np.ndarray:
    """The int16 search score of each record (bytes 52-53)."""
    records = np.ascontiguousarray(records, dtype=np.uint8).reshape(-1, RECORD_SIZE)
    return records[:, 52:54].copy().view("<i2").reshape(len(records)).astype(np.int16)


def filter_records(records: np.ndarray, skip=DEFAULT_SKIP, max_score: int = DEFAULT_MAX_SCORE, min_ply: int = 0):
    """Which records to train on: a record is dropped when it carries a flag named in
    skip ("standard" drops standard-chess games: start kind 0), when its |score| exceeds
    max_score, or when its ply is below min_ply. Returns (keep mask, dropped), dropped
    counting per filter in FILTER_ORDER the records it dropped that no earlier filter
    did (so the counts add up to the records dropped)."""
    unknown = set(skip) - set(FILTER_ORDER[:-2])
    if unknown:
        raise ValueError(f"unknown filter {sorted(unknown)[0]!r}")
    flags, kind, ply, _ = record_fields(records)
    score = record_scores(records).astype(np.int32)
    keep = np.ones(len(flags), dtype=bool)
    dropped = {}
    for name in FILTER_ORDER:
        if name in RECORD_FLAGS:
            hit = (flags & RECORD_FLAGS[name]) != 0 if name in skip else None
        elif name == "standard":
            hit = kind == 0 if name in skip else None
        elif name == "score":
            hit = np.abs(score) > max_score
        else:
            hit = ply < min_ply if min_ply > 0 else None
        if hit is None:
            dropped[name] = 0
            continue
        dropped[name] = int((hit & keep).sum())
        keep &= ~hit
    return keep, dropped


# --- Network inputs ----------------------------------------------------------------------

FEATURES = 2 * PIECE_TYPES * 64  # 1152 per perspective (and per king bucket)
BUCKETS = 8
ENEMY_OFFSET = PIECE_TYPES * 64  # 576: the enemy half of the feature space


def _layout(rows):
    """A king-bucket map from 8 rank strings (rank 1 first, from the perspective's own
    side of the board), one digit per file."""
    return np.array([int(ch) for rank in rows for ch in rank], dtype=np.int64)


# King buckets: each perspective's features are those of the bucket its own king stands
# in (squares from that perspective, rank 1 its back rank), so a net can weigh pieces
# differently around a king castled short, castled long, in the centre or in the open.
# The net file's input count says which layout it uses (inputs = buckets * 1152);
# eval/nnue.h has the same tables.
KING_BUCKET_LAYOUTS = {
    1: _layout(["00000000"] * 8),
    4: _layout(["00011222", "00011222"] + ["33333333"] * 6),
}


def king_bucket_of(board: np.ndarray, perspective: int, king_buckets: int) -> np.ndarray:
    """Per position (board rows), the king bucket of the perspective's own king."""
    if king_buckets == 1:
        return np.zeros(len(board), dtype=np.int64)
    king = np.argmax(board == perspective * 16 + KING, axis=1)
    if perspective == 1:
        king = king ^ 56
    return KING_BUCKET_LAYOUTS[king_buckets][king]


def feature_index(perspective: int, colour, ptype, square):
    """Feature of a piece (colour 0/1, type 1..9, square 0..63) for a perspective (0 White,
    1 Black, whose board is flipped vertically). Works on scalars and numpy arrays."""
    sq = square if perspective == 0 else np.bitwise_xor(square, 56)
    return ((colour != perspective) * PIECE_TYPES + (ptype - 1)) * 64 + sq


def mirror_features(f: np.ndarray) -> np.ndarray:
    """White-perspective feature indices -> the same pieces from Black's perspective
    (flip the rank of the square, swap own/enemy)."""
    f = np.bitwise_xor(f, 56)
    return np.where(f < ENEMY_OFFSET, f + ENEMY_OFFSET, f - ENEMY_OFFSET).astype(f.dtype)


def white_features(board: np.ndarray, chunk: int = 1 << 18):
    """Active White-perspective features of every position, flattened in position order
    (squares ascending within a position), as int16, plus the per-position count (int64).
    Black's perspective is mirror_features of the same array, with the same counts."""
    parts = []
    for lo in range(0, len(board), chunk):  # bounds the int64 temporaries of nonzero
        b = board[lo : lo + chunk]
        rows, squares = np.nonzero(b)
        code = b[rows, squares].astype(np.int16)
        parts.append(feature_index(0, code >> 4, code & 15, squares.astype(np.int16)).astype(np.int16))
    flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int16)
    return flat, (board != 0).sum(axis=1).astype(np.int64)


def padded_features(board: np.ndarray, perspective: int, king_buckets: int = 1) -> np.ndarray:
    """(N, 64) int16 active features of one perspective, padded with king_buckets *
    FEATURES (an index one past the last feature, meant for a zero row). With king
    buckets each feature is moved to its position's bucket (bucket * FEATURES + f)."""
    flat, count = white_features(board)
    if perspective == 1:
        flat = mirror_features(flat)
    if king_buckets > 1:
        offset = (king_bucket_of(board, perspective, king_buckets) * FEATURES).astype(np.int16)
        flat = flat + np.repeat(offset, count)
    out = np.full((len(board), 64), king_buckets * FEATURES, dtype=np.int16)
    column = np.arange(len(flat)) - np.repeat(np.cumsum(count) - count, count)
    out[np.repeat(np.arange(len(board)), count), column] = flat
    return out


def output_bucket(piece_count) -> np.ndarray:
    """Output bucket from the number of men on the board (kings included)."""
    return np.minimum((np.asarray(piece_count) - 2) // 8, BUCKETS - 1).astype(np.int64)


# --- The quantised net file ----------------------------------------------------------------

MAGIC = b"MHNN"
VERSION = 1
QA = 255  # feature transformer scale (weights, biases; SCReLU clamps at QA)
QB = 256  # output weight scale (64 measured 14 cp of rounding error on a young net's small output weights)
SCALE = 400  # centipawns per unit of network output
MAX_DESCRIPTION = 1024  # bytes of UTF-8
CLIP = 1.98  # |float feature weight and bias| bound kept during training (quantised: 505)
OUT_CLIP = 127 / QB  # |float output weight| bound: quantised within +-127, as the engine's SIMD product needs
_HEADER = struct.Struct("<4sIIIIIIIQQI")  # magic .. description length (52 bytes)

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data: bytes) -> int:
    """64-bit FNV-1a of a byte string."""
    h = FNV_OFFSET
    prime = FNV_PRIME
    mask = 0xFFFFFFFFFFFFFFFF
    for byte in data:
        h = ((h ^ byte) * prime) & mask
    return h


def payload_size(hidden: int, king_buckets: int = 1) -> int:
    return 2 * king_buckets * FEATURES * hidden + 2 * hidden + 2 * BUCKETS * 2 * hidden + 4 * BUCKETS


@dataclass
class QuantisedNet:
    ft_weight: np.ndarray  # (K * 1152, H) int16, feature-major (K king buckets)
    ft_bias: np.ndarray  # (H,) int16
    out_weight: np.ndarray  # (8, 2H) int16: side to move's half first
    out_bias: np.ndarray  # (8,) int32
    description: str = ""

    @property
    def hidden(self) -> int:
        return self.ft_bias.shape[0]

    @property
    def king_buckets(self) -> int:
        return self.ft_weight.shape[0] // FEATURES

    def payload(self) -> bytes:
        h = self.hidden
        assert self.king_buckets in KING_BUCKET_LAYOUTS
        assert self.ft_weight.shape == (self.king_buckets * FEATURES, h) and self.out_weight.shape == (BUCKETS, 2 * h)
        assert self.out_bias.shape == (BUCKETS,)
        return b"".join(
            [
                np.ascontiguousarray(self.ft_weight, dtype="<i2").tobytes(),
                np.ascontiguousarray(self.ft_bias, dtype="<i2").tobytes(),
                np.ascontiguousarray(self.out_weight, dtype="<i2").tobytes(),
                np.ascontiguousarray(self.out_bias, dtype="<i4").tobytes(),
            ]
        )

    def to_bytes(self) -> bytes:
        desc = self.description.encode("utf-8")
        if len(desc) > MAX_DESCRIPTION:
            raise ValueError(f"description is {len(desc)} bytes of UTF-8, at most {MAX_DESCRIPTION} are allowed")
        payload = self.payload()
        header = _HEADER.pack(
            MAGIC, VERSION, self.ft_weight.shape[0], self.hidden, BUCKETS, QA, QB, SCALE, fnv1a64(payload), len(payload), len(desc)
        )
        return header + desc + payload

    def hash(self) -> int:
        return fnv1a64(self.payload())


def _quantise(x, scale, dtype, what):
    # Round half to even (numpy's rint), then refuse anything that would not fit.
    q = np.rint(np.asarray(x, dtype=np.float64) * scale)
    info = np.iinfo(dtype)
    if q.size and (q.min() < info.min or q.max() > info.max):
        raise ValueError(f"{what} out of range for {np.dtype(dtype).name} after quantisation")
    return q.astype(dtype)


def quantise(ft_weight, ft_bias, out_weight, out_bias, description: str = "") -> QuantisedNet:
    """Float parameters -> integers: feature weights and biases x QA, output weights
    x QB, output biases x QA x QB, each rounded half to even."""
    return QuantisedNet(
        ft_weight=_quantise(ft_weight, QA, np.int16, "feature weights"),
        ft_bias=_quantise(ft_bias, QA, np.int16, "feature biases"),
        out_weight=_quantise(out_weight, QB, np.int16, "output weights"),
        out_bias=_quantise(out_bias, QA * QB, np.int32, "output biases"),
        description=description,
    )


def dequantise(net: QuantisedNet):
    """The float parameters the integers stand for (float32): ft_weight, ft_bias,
    out_weight, out_bias."""
    return (
        net.ft_weight.astype(np.float32) / QA,
        net.ft_bias.astype(np.float32) / QA,
        net.out_weight.astype(np.float32) / QB,
        net.out_bias.astype(np.float32) / (QA * QB),
    )


def write_net(path: str, net: QuantisedNet):
    """Writes the file; returns (size in bytes, payload hash)."""
    data = net.to_bytes()
    with open(path, "wb") as f:
        f.write(data)
    return len(data), struct.unpack_from("<Q", data, 32)[0]


def parse_net(data: bytes, expected_hidden: int | None = None) -> QuantisedNet:
    """Reads a .nnue file's bytes; raises ValueError naming the problem when the file is
    not a well-formed version-1 Maharajah net of the expected shape."""
    if len(data) < _HEADER.size:
        raise ValueError(f"nnue: file is {len(data)} bytes, shorter than the {_HEADER.size}-byte header")
    magic, version, inputs, hidden, buckets, qa, qb, scale, digest, size, desc_len = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"nnue: bad magic {magic!r}, expected {MAGIC!r}")
    if version != VERSION:
        raise ValueError(f"nnue: version {version}, only version {VERSION} is supported")
    king_buckets = inputs // FEATURES
    if inputs % FEATURES or king_buckets not in KING_BUCKET_LAYOUTS:
        raise ValueError(f"nnue: inputs is {inputs}, expected {FEATURES} times one of {sorted(KING_BUCKET_LAYOUTS)}")
    for name, got, want in (
        ("buckets", buckets, BUCKETS),
        ("QA", qa, QA),
        ("QB", qb, QB),
        ("scale", scale, SCALE),
    ):
        if got != want:
            raise ValueError(f"nnue: {name} is {got}, expected {want}")
    if hidden == 0 or hidden > 1 << 16:
        raise ValueError(f"nnue: hidden size {hidden} is not between 1 and 65536")
    if expected_hidden is not None and hidden != expected_hidden:
        raise ValueError(f"nnue: hidden size is {hidden}, expected {expected_hidden}")
    if size != payload_size(hidden, king_buckets):
        raise ValueError(
            f"nnue: payload size {size} in the header, a net of hidden size {hidden} and {king_buckets} king "
            f"bucket(s) has {payload_size(hidden, king_buckets)}"
        )
    if desc_len > MAX_DESCRIPTION:
        raise ValueError(f"nnue: description length {desc_len}, at most {MAX_DESCRIPTION}")
    start = _HEADER.size + desc_len
    if len(data) != start + size:
        kind = "shorter" if len(data) < start + size else "longer"
        raise ValueError(f"nnue: file is {len(data)} bytes, {kind} than the {start + size} the header says")
    try:
        description = data[_HEADER.size : start].decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"nnue: description is not UTF-8 ({e})") from None
    payload = data[start:]
    if fnv1a64(payload) != digest:
        raise ValueError(f"nnue: payload hash {fnv1a64(payload):016x} does not match the header's {digest:016x}")

    h = hidden
    at = 0

    def take(count, dtype):
        nonlocal at
        arr = np.frombuffer(payload, dtype=dtype, count=count, offset=at).astype(np.dtype(dtype).newbyteorder("="))
        at += count * np.dtype(dtype).itemsize
        return arr

    ft_weight = take(inputs * h, "<i2").reshape(inputs, h)
    ft_bias = take(h, "<i2")
    out_weight = take(BUCKETS * 2 * h, "<i2").reshape(BUCKETS, 2 * h)
    out_bias = take(BUCKETS, "<i4")
    assert at == size
    return QuantisedNet(ft_weight, ft_bias, out_weight, out_bias, description)


def read_net(path: str, expected_hidden: int | None = None) -> QuantisedNet:
    with open(path, "rb") as f:
        return parse_net(f.read(), expected_hidden)


# --- Reference evaluation ---------------------------------------------------------------


def _div_trunc(a: np.ndarray, b: int) -> np.ndarray:
    """Integer division truncating toward zero (C++ semantics), b > 0."""
    q = np.abs(a) // b
    return np.where(a < 0, -q, q)


def _accumulators(weight_padded: np.ndarray, bias: np.ndarray, features: np.ndarray) -> np.ndarray:
    # Sum the rows one slot at a time: (n, H) temporaries instead of (n, 64, H).
    acc = np.broadcast_to(bias, (len(features), len(bias))).copy()
    pad = len(weight_padded) - 1
    for j in range(features.shape[1]):
        column = features[:, j]
        if (column == pad).all():  # every position has fewer men than j + 1
            break
        acc += weight_padded[column]
    return acc


def accumulator_range(net: QuantisedNet):
    """The smallest and largest value any accumulator can take on any board (at most one
    man per square, any kind): bias + the sum over squares of the most negative /
    most positive weight of the 18 kinds there, in the worst king bucket. The same for
    both perspectives (the feature space is symmetric). The engine keeps accumulators in
    int16, so the net is safe there when both lie within -32768..32767."""
    w = net.ft_weight.astype(np.int64).reshape(net.king_buckets, 2 * PIECE_TYPES, 64, net.hidden)
    bias = net.ft_bias.astype(np.int64)
    hi = bias + np.maximum(w.max(axis=1), 0).sum(axis=1)
    lo = bias + np.minimum(w.min(axis=1), 0).sum(axis=1)
    return int(lo.min()), int(hi.max())


def evaluate_int(net: QuantisedNet, pos: Positions, chunk: int = 4096) -> np.ndarray:
    """Integer evaluation, centipawns from the side to move's view (int64), as the engine
    computes it:
      acc_p = bias + sum of W[f] over the active features of perspective p
      c     = clamp(acc, 0, QA)
      s     = sum c_stm^2 * w_k[i] + sum c_other^2 * w_k[H + i]          (int64)
      s     = s / QA                                  (truncating toward zero)
      v     = (s + out_bias[k]) * 400 / (QA * QB)     (truncating toward zero)
    The accumulator sums are exact here (int64; int32 holds them for any file). The
    engine (eval/nnue.cpp) keeps them in int16, which gives the same values whenever
    accumulator_range(net) lies within int16, as train.py checks for its nets. It also
    clamps the result to its mate bounds, far outside what a net produces."""
    h = net.hidden
    w_pad = np.vstack([net.ft_weight.astype(np.int64), np.zeros((1, h), dtype=np.int64)])
    bias = net.ft_bias.astype(np.int64)
    out_w = net.out_weight.astype(np.int64)
    out_b = net.out_bias.astype(np.int64)
    result = np.empty(len(pos), dtype=np.int64)
    for lo in range(0, len(pos), chunk):
        sub = pos.subset(slice(lo, lo + chunk))
        acc = [_accumulators(w_pad, bias, padded_features(sub.board, p, net.king_buckets)) for p in (0, 1)]
        stm = sub.stm.astype(bool)[:, None]
        us = np.clip(np.where(stm, acc[1], acc[0]), 0, QA)
        them = np.clip(np.where(stm, acc[0], acc[1]), 0, QA)
        k = sub.bucket
        s = (us * us * out_w[k, :h]).sum(axis=1) + (them * them * out_w[k, h:]).sum(axis=1)
        s = _div_trunc(s, QA)
        result[lo : lo + chunk] = _div_trunc((s + out_b[k]) * SCALE, QA * QB)
    return result


def targets(pos: Positions, lam: float) -> np.ndarray:
    """The training target of each position (float32, side to move's view):
    lam * sigmoid(score / SCALE) + (1 - lam) * game result (1 win, 0.5 draw, 0 loss)."""
    score = 1.0 / (1.0 + np.exp(-pos.score.astype(np.float64) / SCALE))
    return (lam * score + (1 - lam) * pos.result_stm).astype(np.float32)


def position_loss(cp, target, exponent: float = 2.0) -> np.ndarray:
    """Per-position loss of evaluations cp (centipawns, side to move's view) against
    targets: |sigmoid(cp / SCALE) - target| ^ exponent, the trainer's loss."""
    y = np.asarray(cp, dtype=np.float64) / SCALE
    return np.abs(1.0 / (1.0 + np.exp(-y)) - np.asarray(target, dtype=np.float64)) ** exponent


def has_compound(pos: Positions) -> np.ndarray:
    """Per position: a maharaja, archbishop or chancellor of either side is on the board."""
    kinds = pos.board & 15
    return ((kinds >= 7) & (kinds <= 9)).any(axis=1)


def evaluate_float(ft_weight, ft_bias, out_weight, out_bias, pos: Positions, chunk: int = 4096) -> np.ndarray:
    """The same network in float64 from float parameters (e.g. dequantise(net)),
    centipawns from the side to move's view. For measuring quantisation error."""
    h = len(ft_bias)
    king_buckets = len(ft_weight) // FEATURES
    w_pad = np.vstack([np.asarray(ft_weight, np.float64), np.zeros((1, h))])
    bias = np.asarray(ft_bias, np.float64)
    out_w = np.asarray(out_weight, np.float64)
    out_b = np.asarray(out_bias, np.float64)
    result = np.empty(len(pos), dtype=np.float64)
    for lo in range(0, len(pos), chunk):
        sub = pos.subset(slice(lo, lo + chunk))
        acc = [_accumulators(w_pad, bias, padded_features(sub.board, p, king_buckets)) for p in (0, 1)]
        stm = sub.stm.astype(bool)[:, None]
        us = np.clip(np.where(stm, acc[1], acc[0]), 0, 1)
        them = np.clip(np.where(stm, acc[0], acc[1]), 0, 1)
        k = sub.bucket
        y = (us * us * out_w[k, :h]).sum(axis=1) + (them * them * out_w[k, h:]).sum(axis=1) + out_b[k]
        result[lo : lo + chunk] = y * SCALE
    return result
