"""Streaming a pool of `maharajah datagen` game files into training chunks
(scripts/nnue/README.md): a pool larger than memory trains one chunk at a time.

- Each file is cut, at game boundaries, into pieces of at most --chunk-positions
  positions (a file that fits is one piece).
- Every epoch visits every piece once, in an order drawn from (seed, epoch); consecutive
  pieces of that order are packed into chunks of at most --chunk-positions positions.
- A chunk's pieces are expanded by `maharajah expand` (one 64-byte record per position),
  optionally kept in a cache directory under the hash of the games' bytes, filtered,
  and handed to the trainer, which shuffles and trains on them. A chunk's pieces are
  concatenated in the pool's order (file, then part), so a chunk's positions do not
  depend on the epoch's draw, only on which pieces it holds.

Needs numpy, not torch.
"""

from __future__ import annotations

import bisect
import concurrent.futures
import hashlib
import math
import os
import subprocess
import threading
import time
from dataclasses import dataclass

import numpy as np

import nnue_format as nf
from gamefile import GameIndex


@dataclass(frozen=True)
class Piece:
    file: int  # index of the game file in the pool
    part: int  # which of the file's parts (0-based)
    parts: int
    start: int  # byte range of whole games
    end: int
    positions: int
    whole: bool  # the whole file (no partial game at its end)


def make_pieces(indexes: list[GameIndex], max_positions: int) -> list[Piece]:
    """Cuts every file into as few parts of about equal positions as keep each at or below
    max_positions (a single game longer than that stays whole), in pool order."""
    pieces = []
    for f, ix in enumerate(indexes):
        n = ix.positions
        if n == 0:
            continue
        before = [0]  # positions in the games before game g
        for p in ix.plies:
            before.append(before[-1] + p)
        parts = max(1, math.ceil(n / max_positions))
        while True:  # equal shares, cut at the game boundary at or after each share's end
            cuts = [0]
            for j in range(1, parts):
                g = bisect.bisect_left(before, j * n / parts)
                if cuts[-1] < g < ix.games:
                    cuts.append(g)
            cuts.append(ix.games)
            sizes = [before[b] - before[a] for a, b in zip(cuts, cuts[1:])]
            if all(size <= max_positions or b - a == 1 for size, a, b in zip(sizes, cuts, cuts[1:])) \
                    or parts >= ix.games:
                break
            parts += 1
        for j in range(len(cuts) - 1):
            lo, hi = cuts[j], cuts[j + 1]
            start, end = ix.offsets[lo], ix.offsets[hi] if hi < ix.games else ix.end
            pieces.append(Piece(f, j, len(cuts) - 1, start, end, before[hi] - before[lo],
                                start == 0 and end == ix.size))
    return pieces


def plan_epoch(pieces: list[Piece], max_positions: int, seed: int, epoch: int) -> list[list[int]]:
    """The epoch's chunks: lists of piece numbers, each in pool order. The pieces are
    visited in an order drawn from (seed, epoch) and packed greedily."""
    order = np.random.default_rng(np.random.SeedSequence([seed, 1, epoch])).permutation(len(pieces))
    chunks, current, size = [], [], 0
    for i in order.tolist():
        if current and size + pieces[i].positions > max_positions:
            chunks.append(sorted(current))
            current, size = [], 0
        current.append(i)
        size += pieces[i].positions
    if current:
        chunks.append(sorted(current))
    return chunks


@dataclass
class Filters:
    skip: tuple = nf.DEFAULT_SKIP
    max_score: int = nf.DEFAULT_MAX_SCORE
    min_ply: int = 0

    def apply(self, records: np.ndarray):
        """(kept records, dropped per filter)."""
        keep, dropped = nf.filter_records(records, self.skip, self.max_score, self.min_ply)
        return (records if keep.all() else records[keep]), dropped

    def active(self) -> list:
        """The filters in use, in nf.FILTER_ORDER."""
        on = set(self.skip) | {"score"} | ({"ply"} if self.min_ply > 0 else set())
        return [name for name in nf.FILTER_ORDER if name in on]


class Expander:
    """Turns pieces into records with `engine expand`, through an optional cache."""

    def __init__(self, engine: str, indexes: list[GameIndex], cache_dir: str | None = None):
        self.engine = engine
        self.indexes = indexes
        self.cache_dir = cache_dir
        if cache_dir:
            os.makedirs(cache_dir, exist_ok=True)

    def games_bytes(self, piece: Piece) -> bytes:
        with open(self.indexes[piece.file].path, "rb") as f:
            f.seek(piece.start)
            return f.read(piece.end - piece.start)

    def records(self, piece: Piece) -> np.ndarray:
        """The piece's (positions, 64) uint8 records. Raises RuntimeError when the engine
        fails or writes another number of records than the games hold."""
        want = piece.positions * nf.RECORD_SIZE
        games = None
        cached = None
        if self.cache_dir:
            games = self.games_bytes(piece)
            cached = os.path.join(self.cache_dir, hashlib.sha256(games).hexdigest()[:32] + ".data")
            if os.path.exists(cached) and os.path.getsize(cached) == want:
                return np.fromfile(cached, dtype=np.uint8).reshape(-1, nf.RECORD_SIZE)
        path = self.indexes[piece.file].path
        if piece.whole:
            cmd, feed = [self.engine, "expand", path], None
        else:  # a part of a file (or a file with a partial last game): its games on stdin
            cmd, feed = [self.engine, "expand", "/dev/stdin"], games if games is not None else self.games_bytes(piece)
        out = np.empty(want, dtype=np.uint8)
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE if feed is not None else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        feeder = None
        if feed is not None:
            def write():
                try:
                    proc.stdin.write(feed)
                except BrokenPipeError:  # the engine stopped early: its exit status says why
                    pass
                finally:
                    proc.stdin.close()
            feeder = threading.Thread(target=write, daemon=True)
            feeder.start()
        view, got = memoryview(out), 0
        while got < want:
            n = proc.stdout.readinto(view[got:])
            if not n:
                break
            got += n
        extra = len(proc.stdout.read())
        err = proc.stderr.read().decode(errors="replace").strip()
        code = proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        if feeder is not None:
            feeder.join()
        what = f"{path}" + (f" part {piece.part + 1}/{piece.parts}" if not piece.whole else "")
        if code != 0:
            raise RuntimeError(f"{self.engine} expand {what} exited {code}: {err.splitlines()[-1] if err else ''}")
        if got + extra != want:
            raise RuntimeError(f"{self.engine} expand {what} wrote {(got + extra) // nf.RECORD_SIZE} records, "
                               f"the games hold {piece.positions}")
        if cached:
            tmp = f"{cached}.{os.getpid()}.tmp"
            out.tofile(tmp)
            os.replace(tmp, cached)
        return out.reshape(-1, nf.RECORD_SIZE)


@dataclass
class Chunk:
    records: np.ndarray  # the kept records, the pieces' in pool order
    raw: int  # positions before filtering
    dropped: dict
    seconds: float  # spent expanding, reading and filtering
    prepared: object = None  # what the loader's prepare function made of the records
    prepare_seconds: float = 0.0


class ChunkLoader:
    """Loads chunks (expand, filter) in a background thread, one ahead of training.
    submit() also runs prepare(kept records) there (the trainer decodes the positions
    and computes their features: numpy, mostly outside the GIL, so it overlaps the
    training of the chunk before) and keeps its result in Chunk.prepared."""

    def __init__(self, expander: Expander, pieces: list[Piece], filters: Filters, prepare=None):
        self.expander, self.pieces, self.filters, self.prepare = expander, pieces, filters, prepare
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def load(self, chunk: list[int]) -> Chunk:
        t0 = time.perf_counter()
        parts = [self.expander.records(self.pieces[i]) for i in chunk]
        records = parts[0] if len(parts) == 1 else np.concatenate(parts)
        del parts
        kept, dropped = self.filters.apply(records)
        return Chunk(kept, len(records), dropped, time.perf_counter() - t0)

    def load_and_prepare(self, chunk: list[int]) -> Chunk:
        loaded = self.load(chunk)
        if self.prepare is not None:
            t0 = time.perf_counter()
            loaded.prepared = self.prepare(loaded.records)
            loaded.records = None  # prepare keeps what it needs
            loaded.prepare_seconds = time.perf_counter() - t0
        return loaded

    def submit(self, chunk: list[int]) -> concurrent.futures.Future:
        return self.pool.submit(self.load_and_prepare, chunk)

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)


def sample_records(loader: ChunkLoader, count: int, seed: int):
    """A uniform sample of count kept records of all the loader's pieces (all of them if
    fewer), piece by piece so memory stays at one piece plus the sample; the same for
    the same pieces, filters and seed. Returns (records, kept in all, raw in all, dropped)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 2]))
    keys = np.zeros(0)
    sample = np.zeros((0, nf.RECORD_SIZE), dtype=np.uint8)
    kept = raw = 0
    dropped = {}
    for i in range(len(loader.pieces)):
        chunk = loader.load([i])
        kept += len(chunk.records)
        raw += chunk.raw
        for k, v in chunk.dropped.items():
            dropped[k] = dropped.get(k, 0) + v
        keys = np.concatenate([keys, rng.random(len(chunk.records))])
        sample = np.concatenate([sample, chunk.records])
        if len(keys) > count:
            best = np.argpartition(keys, count - 1)[:count] if count > 0 else np.zeros(0, dtype=np.int64)
            keys, sample = keys[best], sample[best]
    order = np.argsort(keys, kind="stable")
    return sample[order], kept, raw, dropped
