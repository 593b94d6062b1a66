#!/usr/bin/python3
"""Trains Maharajah's NNUE (scripts/nnue/README.md) on the positions of `maharajah datagen`
and writes the quantised .nnue file: record files held in memory (--data), or game files
streamed chunk by chunk through `maharajah expand` (--games), with checkpoints to resume.

  /usr/bin/python3 scripts/nnue/train.py --data scripts/nnue/data/*.data --out net.nnue \\
      --epochs 20 --hidden 256 --seed 1
  /usr/bin/python3 scripts/nnue/train.py --games pool/*.games --val-games heldout/*.games \\
      --out net.nnue --checkpoint run.ckpt       # (--resume continues it)

Network: 1152 inputs per perspective -> H (shared feature transformer, SCReLU) ->
concatenated [side to move, other] 2H -> 1 output, one output layer per bucket of the
number of men on the board (8 buckets). Loss: mean of |sigmoid(y) - target|^exponent,
target = lambda * sigmoid(score / 400) + (1 - lambda) * result (side to move's view).
Adam; the learning rate follows a cosine from --lr to --lr * --lr-end-factor over all
steps. Same data + same arguments (seed, threads) -> byte-identical .nnue.

Needs torch and numpy (Debian's /usr/bin/python3 has both).
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Idle OpenMP threads sleep instead of spinning: with the cores shared (a datagen run
# beside training) spinning threads made 2 threads 15x slower than 1. Read at import.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import nnue_format as nf  # noqa: E402
import stream  # noqa: E402
from gamefile import index_games  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT_FORMAT = "maharajah-train-checkpoint-1"

CHUNK = 1024  # positions per forward/backward pass (gradients accumulate to --batch)
EVAL_CHUNK = 4096
VAL_BLOCK = 64  # validation is drawn in blocks of consecutive records (about one game)


class TrainingSet:
    """Decoded positions in the compact form batches are built from: the White-
    perspective features of all positions flattened (int16) with per-position start
    and count, and per position the side to move, the bucket and the target."""

    def __init__(self, pos: nf.Positions, lam: float, king_buckets: int = 1):
        self.flat, self.count = nf.white_features(pos.board)
        # Each perspective's features move to its own king's bucket (bucket * 1152 + f).
        self.king_buckets = king_buckets
        self.king_offset = [(nf.king_bucket_of(pos.board, p, king_buckets) * nf.FEATURES).astype(np.int32)
                            for p in (0, 1)]
        self.start = np.cumsum(self.count) - self.count
        self.count = self.count.astype(np.uint8)
        self.stm = pos.stm.astype(bool)
        self.bucket = pos.bucket.astype(np.uint8)
        self.target = nf.targets(pos, lam)

    def __len__(self) -> int:
        return len(self.stm)

    def batch(self, index: np.ndarray):
        """Tensors for the positions in index: one flat int64 list of active features
        with 2 bags per position, the side to move's perspective then the other's
        (offsets give each bag's start), and per position the bucket and the target."""
        count = self.count[index].astype(np.int64)
        offsets = np.cumsum(count) - count  # where each position's features start
        per_elem_offset = np.repeat(offsets, count)
        # Element j of the batch comes from flat[start + (j - offset)].
        j = np.arange(int(count.sum()), dtype=np.int64)
        white = self.flat[j + np.repeat(self.start[index], count) - per_elem_offset].astype(np.int64)
        black = nf.mirror_features(white)
        if self.king_buckets > 1:
            white = white + np.repeat(self.king_offset[0][index], count)
            black = black + np.repeat(self.king_offset[1][index], count)
        stm = np.repeat(self.stm[index], count)
        # Position p fills [2 * offset_p, 2 * offset_p + 2 * count_p): its side to
        # move's features, then the other side's.
        features = np.empty(2 * len(j), dtype=np.int64)
        dest = j + per_elem_offset
        features[dest] = np.where(stm, black, white)
        features[dest + np.repeat(count, count)] = np.where(stm, white, black)
        bags = np.empty(2 * len(index), dtype=np.int64)
        bags[0::2] = 2 * offsets
        bags[1::2] = 2 * offsets + count
        return (
            torch.from_numpy(features),
            torch.from_numpy(bags),
            torch.from_numpy(self.bucket[index].astype(np.int64)),
            torch.from_numpy(self.target[index]),
        )


class SCReLU(torch.autograd.Function):
    """clamp(x, 0, 1)^2 with a backward that keeps only the clamped value."""

    @staticmethod
    def forward(ctx, x):
        c = x.clamp(0, 1)
        ctx.save_for_backward(c)
        return c * c

    @staticmethod
    def backward(ctx, grad):
        (c,) = ctx.saved_tensors
        return grad * (2 * c) * (c < 1)


class Net(torch.nn.Module):
    def __init__(self, hidden: int, factorise: bool = False, king_buckets: int = 1):
        super().__init__()
        self.hidden = hidden
        self.king_buckets = king_buckets
        self.ft = torch.nn.EmbeddingBag(king_buckets * nf.FEATURES, hidden, mode="sum")
        # With king buckets, one more set of 1152 rows shared by all buckets and added to
        # each: a bucket's rows learn only how it differs (they start at zero, so a net
        # without buckets given as --init is the starting point, exactly). Folded at export.
        self.shared = torch.nn.Parameter(torch.zeros(nf.FEATURES, hidden)) if king_buckets > 1 else None
        # --factorise: one more weight row per (own/other colour, type), shared by all 64
        # squares and added to each of them; a square that the data rarely shows with a
        # piece still gets the piece's common part. Folded into ft at export.
        self.factor = torch.nn.Parameter(torch.zeros(nf.FEATURES // 64, hidden)) if factorise else None
        self.ft_bias = torch.nn.Parameter(torch.zeros(hidden))
        self.out_weight = torch.nn.Parameter(torch.zeros(nf.BUCKETS, 2 * hidden))
        self.out_bias = torch.nn.Parameter(torch.zeros(nf.BUCKETS))
        # About 30 men on the board: feature weights of +-0.15 give accumulators with a
        # spread of about 0.5, inside SCReLU's slope; output weights as nn.Linear does.
        with torch.no_grad():
            self.ft.weight.uniform_(-0.15, 0.15)
            bound = 1 / math.sqrt(2 * hidden)
            self.out_weight.uniform_(-bound, bound)

    def forward(self, features, bags, bucket):
        # Bags alternate side to move / other, so the (2B, H) sums are already the
        # (B, 2H) concatenation [stm | other].
        acc = self.ft(features, bags) + self.ft_bias
        base = features % nf.FEATURES if self.shared is not None else features
        if self.shared is not None:
            acc = acc + torch.nn.functional.embedding_bag(base, self.shared, bags, mode="sum")
        if self.factor is not None:
            acc = acc + torch.nn.functional.embedding_bag(base // 64, self.factor, bags, mode="sum")
        a = SCReLU.apply(acc.view(-1, 2 * self.hidden))
        # Each position's own bucket row; no matmul (the generic BLAS is slow at this
        # shape, and elementwise kernels give the same bits on any machine).
        return (a * self.out_weight[bucket]).sum(1) + self.out_bias[bucket]

    def clip(self):
        with torch.no_grad():
            self.ft.weight.clamp_(-nf.CLIP, nf.CLIP)
            self.ft_bias.clamp_(-nf.CLIP, nf.CLIP)
            if self.shared is not None:
                self.shared.clamp_(-nf.CLIP, nf.CLIP)
            if self.factor is not None:
                self.factor.clamp_(-nf.CLIP, nf.CLIP)
            self.out_weight.clamp_(-nf.OUT_CLIP, nf.OUT_CLIP)

    def load_quantised(self, net: nf.QuantisedNet):
        """Starts from a trained net. A wider model keeps that net's neurons as its first
        ones and gives the new neurons zero output weights: it computes exactly what the
        net does, and training grows the new neurons from there (their random feature
        weights get gradients as soon as their output weights move)."""
        assert net.hidden <= self.hidden, "main() refuses narrowing before reading the data"
        h0, h = net.hidden, self.hidden
        ft, ft_bias, out_weight, out_bias = (torch.from_numpy(v) for v in nf.dequantise(net))
        with torch.no_grad():
            if net.king_buckets == self.king_buckets:
                self.ft.weight[:, :h0] = ft
            else:  # a net without buckets: its rows become the shared ones, the buckets' zero
                assert net.king_buckets == 1 and self.shared is not None, "main() refuses other bucket changes"
                self.ft.weight.zero_()
                self.shared[:, :h0] = ft
            self.ft_bias.zero_()
            self.ft_bias[:h0] = ft_bias
            self.out_weight.zero_()
            self.out_weight[:, :h0] = out_weight[:, :h0]  # side to move's half
            self.out_weight[:, h : h + h0] = out_weight[:, h0:]  # the other side's half
            self.out_bias.copy_(out_bias)

    def folded_ft(self) -> torch.Tensor:
        """The feature weights the engine gets: with --factorise each square's row plus
        its piece's shared row, with king buckets each bucket's row plus the row shared
        by all buckets, clipped to the quantisation range."""
        with torch.no_grad():
            w = self.ft.weight.detach().clone()
            if self.shared is None and self.factor is None:
                return w
            extra = torch.zeros(nf.FEATURES, self.hidden)
            if self.shared is not None:
                extra += self.shared
            if self.factor is not None:
                extra += self.factor.repeat_interleave(64, dim=0)
            return (w + extra.repeat(self.king_buckets, 1)).clamp(-nf.CLIP, nf.CLIP)

    def quantised(self, description: str) -> nf.QuantisedNet:
        params = [p.detach().numpy() for p in (self.folded_ft(), self.ft_bias, self.out_weight, self.out_bias)]
        return nf.quantise(*params, description=description)


def loss_sum(y, target, exponent):
    """Sum over positions of |sigmoid(y) - target|^exponent (divided by the batch size
    by the caller, so that micro-chunks add up to the batch mean)."""
    return (torch.sigmoid(y) - target).abs().pow(exponent).sum()


def predict(model, data: TrainingSet, index) -> np.ndarray:
    """Network outputs y (float64) for the positions in index, in chunks."""
    out = []
    with torch.no_grad():
        for lo in range(0, len(index), EVAL_CHUNK):
            features, bags, bucket, _ = data.batch(index[lo : lo + EVAL_CHUNK])
            out.append(model(features, bags, bucket).double().numpy())
    return np.concatenate(out) if out else np.zeros(0)


def train_step(model, opt, data: TrainingSet, part, exponent) -> float:
    """One optimiser step on the positions in part; returns their summed loss. The
    gradient is accumulated over micro-chunks of CHUNK positions, whose tensors stay in
    the cache (2-3x faster than one pass over the whole batch)."""
    opt.zero_grad(set_to_none=True)
    total = 0.0
    for lo in range(0, len(part), CHUNK):
        features, bags, bucket, target = data.batch(part[lo : lo + CHUNK])
        loss = loss_sum(model(features, bags, bucket), target, exponent)
        (loss / len(part)).backward()
        total += float(loss)
    opt.step()
    model.clip()
    return total


def split(n: int, fraction: float, rng: np.random.Generator):
    """Train and validation indices: whole blocks of VAL_BLOCK consecutive records go to
    validation, chosen by rng, so that positions of one game rarely sit on both sides."""
    blocks = (n + VAL_BLOCK - 1) // VAL_BLOCK
    n_val = min(blocks - 1, int(round(fraction * blocks))) if fraction > 0 else 0
    if fraction > 0 and n_val == 0 and blocks > 1:
        n_val = 1
    is_val = np.zeros(blocks, dtype=bool)
    is_val[rng.permutation(blocks)[:n_val]] = True
    per_record = np.repeat(is_val, VAL_BLOCK)[:n]
    return np.flatnonzero(~per_record), np.flatnonzero(per_record)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--data", nargs="+", help="record files (64 bytes per position), concatenated, held in memory")
    source.add_argument("--games", nargs="+", help="datagen game files, streamed chunk by chunk through `maharajah expand`")
    ap.add_argument("--out", required=True, help="the .nnue file to write")
    ap.add_argument("--epochs", type=int, default=12, help="passes over the training positions (default 12)")
    ap.add_argument("--batch", type=int, default=16384, help="positions per optimiser step (default 16384)")
    ap.add_argument("--lr", type=float, default=2e-3, help="Adam's initial learning rate (default 2e-3)")
    ap.add_argument("--lr-end-factor", type=float, default=0.01,
                    help="the cosine decay ends at lr * this after the last step (default 0.01)")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75,
                    help="weight of the search score against the game result in the target (default 0.75)")
    ap.add_argument("--exponent", type=float, default=2.0, help="loss exponent (default 2: mean squared error)")
    ap.add_argument("--hidden", type=int, default=None,
                    help="feature transformer width (default 256, or --init's; wider than --init's widens that net)")
    ap.add_argument("--val-fraction", type=float, default=0.02,
                    help="with --data: share held out for validation (default 0.02)")
    ap.add_argument("--seed", type=int, default=1, help="seeds initialisation, split and shuffles (default 1)")
    ap.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    ap.add_argument("--max-positions", type=int, default=None, help="with --data: use only the first N records")
    ap.add_argument("--init", help="start from this .nnue (fine-tuning) instead of random weights")
    ap.add_argument("--mirror", action="store_true",
                    help="also train on the left-right mirror image of every training position "
                         "without castling rights (same value by the rules' symmetry)")
    ap.add_argument("--factorise", action="store_true",
                    help="train a shared row per piece (colour relative, type) beside the 64 square "
                         "rows, folded into them in the written net")
    ap.add_argument("--king-buckets", type=int, default=None, choices=sorted(nf.KING_BUCKET_LAYOUTS),
                    help="king buckets of the input layer (default 1, or --init's; a net without "
                         "buckets as --init starts every bucket from its weights)")
    ap.add_argument("--description", default=None, help="text for the file header (UTF-8, at most 1024 bytes)")
    # Filters (bytes 58-63 of expanded records; the first datagen's records have zeros there).
    ap.add_argument("--skip", default=",".join(nf.DEFAULT_SKIP),
                    help="positions to leave out, comma-separated from " + ", ".join(nf.FILTER_ORDER[:-2])
                         + ", or none (default " + ",".join(nf.DEFAULT_SKIP) + ": what the first datagen kept)")
    ap.add_argument("--max-score", type=int, default=nf.DEFAULT_MAX_SCORE,
                    help=f"leave out positions whose |search score| is above this (default {nf.DEFAULT_MAX_SCORE}: "
                         "mate scores only)")
    ap.add_argument("--min-ply", type=int, default=0, help="leave out the first N stored plies of every game (default 0)")
    # Streaming (--games).
    ap.add_argument("--engine", default=str(ROOT / "build" / "maharajah"),
                    help="the engine that expands game files (default build/maharajah)")
    ap.add_argument("--chunk-positions", type=int, default=4_000_000,
                    help="with --games: positions per chunk held in memory, before filtering (default 4000000)")
    ap.add_argument("--cache", default=None,
                    help="with --games: keep the expanded records of every piece here (64 bytes per position)")
    ap.add_argument("--val-games", nargs="+", default=[], help="with --games: held-out game files (whole seeds)")
    ap.add_argument("--val-positions", type=int, default=100_000,
                    help="with --val-games: validate on a fixed random sample of this many positions (default 100000)")
    ap.add_argument("--val-every", type=int, default=0,
                    help="with --games: also report the validation loss every N chunks (default 0: per epoch only)")
    # Checkpoints.
    ap.add_argument("--checkpoint", default=None, help="save the whole training state here after every chunk")
    ap.add_argument("--resume", action="store_true", help="continue from --checkpoint (same data and arguments)")
    ap.add_argument("--max-chunks", type=int, default=None,
                    help="stop after N chunks of this run, keeping the checkpoint (for a later --resume)")
    args = ap.parse_args(argv)
    if args.epochs < 0 or args.batch < 1 or args.threads < 1 or args.lr <= 0:
        ap.error("--epochs must be >= 0, --batch and --threads >= 1, --lr > 0")
    if not 0 <= args.lam <= 1:
        ap.error("--lambda must be between 0 and 1")
    if not 0 <= args.val_fraction < 1:
        ap.error("--val-fraction must be in [0, 1)")
    if args.hidden is not None and args.hidden < 1:
        ap.error("--hidden must be >= 1")
    if args.seed < 0:
        ap.error("--seed must be >= 0")
    if args.description is not None and len(args.description.encode("utf-8")) > nf.MAX_DESCRIPTION:
        ap.error(f"--description is longer than {nf.MAX_DESCRIPTION} bytes of UTF-8")
    args.skip = () if args.skip.strip() in ("", "none") else tuple(s.strip() for s in args.skip.split(","))
    unknown = [s for s in args.skip if s not in nf.FILTER_ORDER[:-2]]
    if unknown:
        ap.error(f"--skip: unknown filter '{unknown[0]}' (known: {', '.join(nf.FILTER_ORDER[:-2])})")
    if args.max_score < 0 or args.min_ply < 0 or args.chunk_positions < 1 or args.val_positions < 1 \
            or args.val_every < 0:
        ap.error("--max-score, --min-ply and --val-every must be >= 0, --chunk-positions and --val-positions >= 1")
    if args.games is None and (args.val_games or args.cache):
        ap.error("--val-games and --cache go with --games")
    if args.games is not None and args.max_positions is not None:
        ap.error("--max-positions goes with --data")
    if (args.resume or args.max_chunks is not None) and not args.checkpoint:
        ap.error("--resume and --max-chunks need --checkpoint")
    if args.max_chunks is not None and args.max_chunks < 1:
        ap.error("--max-chunks must be >= 1")
    return args


def dropped_text(dropped: dict, active: list) -> str:
    return ", ".join(f"{name} {dropped.get(name, 0):,}" for name in active) or "no filters"


@dataclass
class Validation:
    """Held-out positions: their TrainingSet and indices, whether each has a compound
    piece, and up to 4096 of them (decoded) for the quantisation check."""

    data: TrainingSet | None
    idx: np.ndarray
    has_compound: np.ndarray
    check_pos: nf.Positions | None
    check_idx: np.ndarray

    def loss(self, model, exponent) -> str:
        """The validation loss, all and apart by compound pieces, from one pass of the net."""
        if len(self.idx) == 0:
            return "nan (compounds nan in 0, none nan)"
        err = nf.position_loss(predict(model, self.data, self.idx) * nf.SCALE, self.data.target[self.idx], exponent)
        part = lambda mask: float(err[mask].mean()) if mask.any() else float("nan")  # noqa: E731
        return (f"{float(err.mean()):.6f} (compounds {part(self.has_compound):.6f} in {int(self.has_compound.sum())}, "
                f"none {part(~self.has_compound):.6f})")


def with_mirror_images(pos: nf.Positions, idx: np.ndarray):
    """pos with the mirror images of the positions idx without castling rights appended;
    returns (positions, idx plus the images' indices, images)."""
    source = idx[pos.castling[idx] == 0]
    images = np.arange(len(pos), len(pos) + len(source))
    return nf.concat_positions([pos, nf.mirror_files(pos.subset(source))]), np.concatenate([idx, images]), len(source)


class MemorySource:
    """--data: all records decoded at once; one chunk per epoch (the whole training side)."""

    def __init__(self, args, king_buckets: int, split_seq, filters: stream.Filters):
        t0 = time.perf_counter()
        records = nf.read_records(args.data, args.max_positions)
        kept, dropped = filters.apply(records)
        raw = len(records)
        del records
        pos = nf.decode_records(kept)
        del kept
        if len(pos) == 0:
            raise ValueError("no records in the data" + (" after the filters" if raw else ""))
        train_idx, val_idx = split(len(pos), args.val_fraction, np.random.default_rng(split_seq))
        mirrored = 0
        if args.mirror:  # augmentation: mirror images join the training side only
            pos, train_idx, mirrored = with_mirror_images(pos, train_idx)
        self.data = TrainingSet(pos, args.lam, king_buckets)
        self.train_idx = train_idx
        check = val_idx[:4096] if len(val_idx) else train_idx[:4096]
        self.validation = Validation(self.data, val_idx, nf.has_compound(pos.subset(val_idx)), pos.subset(check), check)
        self.raw_per_epoch = len(train_idx)
        self.train_positions = len(train_idx)
        print(f"data: {len(self.data) - mirrored} positions from {len(args.data)} file(s), {len(train_idx)} train"
              + (f" (of them {mirrored} mirror images)" if args.mirror else "")
              + f", {len(val_idx)} validation; decoded in {time.perf_counter() - t0:.1f} s", flush=True)
        print(f"filters: {raw - (len(self.data) - mirrored)} of {raw} records left out "
              f"({dropped_text(dropped, filters.active())})", flush=True)

    def fingerprint(self, args) -> dict:
        return {"data": [(os.path.basename(p), os.path.getsize(p)) for p in args.data],
                "max_positions": args.max_positions, "val_fraction": args.val_fraction}

    def plan(self, epoch: int) -> list:
        return [None]

    def start(self, epoch: int, chunk: int):
        pass

    def load(self, epoch: int, chunk: int):
        """(TrainingSet, training indices, raw positions, report text)."""
        return self.data, self.train_idx, len(self.train_idx), None

    def close(self):
        pass


class StreamSource:
    """--games: chunks of the pool expanded, filtered and decoded one at a time (the next
    one loads in the background); validation on a fixed sample of --val-games."""

    def __init__(self, args, king_buckets: int, filters: stream.Filters):
        t0 = time.perf_counter()
        self.args, self.king_buckets, self.filters = args, king_buckets, filters
        if not (os.path.isfile(args.engine) and os.access(args.engine, os.X_OK)):
            raise ValueError(f"no engine at {args.engine} (build it with ./scripts/build, or give --engine)")
        train_paths = {os.path.realpath(p) for p in args.games}
        both = [p for p in args.val_games if os.path.realpath(p) in train_paths]
        if both:
            raise ValueError(f"{both[0]} is both a training and a validation file")
        self.indexes = [index_games(p) for p in args.games]
        self.pieces = stream.make_pieces(self.indexes, args.chunk_positions)
        if not self.pieces:
            raise ValueError("no games in the game files")
        self.loader = stream.ChunkLoader(stream.Expander(args.engine, self.indexes, args.cache), self.pieces, filters,
                                         self.prepare)
        self.raw_per_epoch = sum(p.positions for p in self.pieces)
        self.train_positions = None  # known per chunk only
        self.future = None
        self.future_key = None
        print(f"data: {len(self.indexes)} game file(s), {sum(ix.games for ix in self.indexes):,} games, "
              f"{self.raw_per_epoch:,} positions in {len(self.pieces)} piece(s) of at most "
              f"{args.chunk_positions:,} (before filtering)", flush=True)
        self.validation = Validation(None, np.zeros(0, np.int64), np.zeros(0, bool), None, np.zeros(0, np.int64))
        if args.val_games:
            val_indexes = [index_games(p) for p in args.val_games]
            val_loader = stream.ChunkLoader(stream.Expander(args.engine, val_indexes, args.cache),
                                            stream.make_pieces(val_indexes, args.chunk_positions), filters)
            records, kept, raw, dropped = stream.sample_records(val_loader, args.val_positions, args.seed)
            val_loader.close()
            pos = nf.decode_records(records)
            idx = np.arange(len(pos))
            self.validation = Validation(TrainingSet(pos, args.lam, king_buckets), idx, nf.has_compound(pos),
                                         pos.subset(idx[:4096]), idx[:4096])
            print(f"validation: {len(val_indexes)} game file(s), {raw:,} positions, {kept:,} kept "
                  f"({dropped_text(dropped, filters.active())}), a sample of {len(pos):,}; "
                  f"{time.perf_counter() - t0:.1f} s", flush=True)

    def prepare(self, records: np.ndarray):
        """A chunk's kept records decoded (in the loader's thread): (TrainingSet with the
        first 4096 positions decoded as check_pos, training indices, kept, mirror images)."""
        pos = nf.decode_records(records, chunk=1 << 17)  # small chunks: less temporary memory
        kept = len(pos)
        idx = np.arange(kept)
        mirrored = 0
        if self.args.mirror:
            pos, idx, mirrored = with_mirror_images(pos, idx)
        data = TrainingSet(pos, self.args.lam, self.king_buckets)
        data.check_pos = pos.subset(np.arange(min(4096, kept)))
        return data, idx, kept, mirrored

    def fingerprint(self, args) -> dict:
        return {"games": [(os.path.basename(ix.path), ix.games, ix.positions) for ix in self.indexes],
                "chunk_positions": args.chunk_positions}

    def plan(self, epoch: int) -> list:
        return stream.plan_epoch(self.pieces, self.args.chunk_positions, self.args.seed, epoch)

    def start(self, epoch: int, chunk: int):
        """Starts loading (epoch, chunk) in the background, unless it already is."""
        if self.future_key != (epoch, chunk):
            self.future = self.loader.submit(self.plan(epoch)[chunk])
            self.future_key = (epoch, chunk)

    def load(self, epoch: int, chunk: int):
        plan = self.plan(epoch)
        self.start(epoch, chunk)
        t0 = time.perf_counter()
        loaded = self.future.result()
        waited = time.perf_counter() - t0
        self.future = self.future_key = None
        if chunk + 1 < len(plan):
            self.start(epoch, chunk + 1)
        elif epoch + 1 < self.args.epochs:
            self.start(epoch + 1, 0)
        data, idx, kept, mirrored = loaded.prepared
        self.last_check = (data.check_pos, np.arange(len(data.check_pos)), data)
        names = []
        for i in plan[chunk]:
            p = self.pieces[i]
            names.append(os.path.basename(self.indexes[p.file].path) + (f" ({p.part + 1}/{p.parts})" if p.parts > 1 else ""))
        report = (f"{loaded.raw:,} positions from {', '.join(names)}; left out {loaded.raw - kept:,} "
                  f"({dropped_text(loaded.dropped, self.filters.active())}); {len(idx):,} trained"
                  + (f" (of them {mirrored:,} mirror images)" if self.args.mirror else "")
                  + f"; loading {loaded.seconds:.1f} s, decoding {loaded.prepare_seconds:.1f} s (waited {waited:.1f} s)")
        return data, idx, loaded.raw, report

    def close(self):
        self.loader.close()


def load_checkpoint(path: str, fingerprint: dict):
    state = torch.load(path)
    if state.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path} is not a checkpoint of this trainer")
    diff = sorted(k for k in set(fingerprint) | set(state["fingerprint"])
                  if fingerprint.get(k) != state["fingerprint"].get(k))
    if diff:
        raise ValueError(f"{path} was written with other data or arguments ({', '.join(diff)})")
    return state


def save_checkpoint(path: str, state: dict):
    tmp = f"{path}.tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)  # a kill while saving leaves the previous checkpoint whole


def main(argv=None) -> int:
    args = parse_args(argv)
    t0 = time.perf_counter()
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    split_seq, shuffle_seq = np.random.SeedSequence(args.seed).spawn(2)
    filters = stream.Filters(args.skip, args.max_score, args.min_ply)

    try:
        init_net = nf.read_net(args.init) if args.init else None
        if init_net is not None and args.hidden is not None and args.hidden < init_net.hidden:
            raise ValueError(f"--init {args.init} has hidden size {init_net.hidden}, more than --hidden {args.hidden}")
        king_buckets = args.king_buckets or (init_net.king_buckets if init_net else 1)
        if init_net is not None and init_net.king_buckets not in (1, king_buckets):
            raise ValueError(f"--init {args.init} has {init_net.king_buckets} king buckets, not {king_buckets}")
        if args.resume and not os.path.exists(args.checkpoint):
            raise ValueError(f"--resume: no checkpoint at {args.checkpoint}")
        source = (MemorySource(args, king_buckets, split_seq, filters) if args.data
                  else StreamSource(args, king_buckets, filters))
    except (OSError, ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    hidden = args.hidden or (init_net.hidden if init_net else 256)
    fingerprint = dict(source.fingerprint(args), hidden=hidden, king_buckets=king_buckets, factorise=args.factorise,
                       mirror=args.mirror, lr=args.lr, lr_end_factor=args.lr_end_factor, lam=args.lam,
                       exponent=args.exponent, batch=args.batch, epochs=args.epochs, seed=args.seed,
                       skip=list(args.skip), max_score=args.max_score, min_ply=args.min_ply,
                       init=init_net.hash() if init_net else None)

    model = Net(hidden, args.factorise, king_buckets)
    if init_net is not None:
        model.load_quantised(init_net)
        print(f"init: {args.init} (hidden {init_net.hidden}, hash {init_net.hash():016x})"
              + (f", widened to {hidden} (new neurons start with zero output weights)" if hidden > init_net.hidden else ""))
    model.clip()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    shuffle_rng = np.random.default_rng(shuffle_seq)
    # Where training stands: epochs done, chunks of the current epoch done, the raw
    # positions those chunks held (the learning rate's clock), the epoch's running sums.
    at = {"epoch": 0, "chunk": 0, "raw": 0, "loss": 0.0, "positions": 0, "seconds": 0.0, "elapsed": 0.0}
    if args.resume:
        try:
            state = load_checkpoint(args.checkpoint, fingerprint)
        except (OSError, ValueError, RuntimeError) as e:
            print(f"error: {e}", file=sys.stderr)
            source.close()
            return 2
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        shuffle_rng.bit_generator.state = state["shuffle_rng"]
        torch.set_rng_state(state["torch_rng"])
        at = state["at"]
        print(f"resumed: {args.checkpoint} at epoch {at['epoch'] + 1}, chunk {at['chunk'] + 1}", flush=True)

    def lr_factor(progress):  # cosine from 1 to lr_end_factor over the whole run
        return args.lr_end_factor + (1 - args.lr_end_factor) * 0.5 * (1 + math.cos(math.pi * progress))

    print(f"net: {king_buckets} x 1152 -> {hidden} x2 -> 8 buckets; {args.epochs} epochs"
          + (f" of {(source.train_positions + args.batch - 1) // args.batch}" if source.train_positions else "")
          + f" steps of {args.batch}; lr {args.lr:g} cosine to {args.lr * args.lr_end_factor:g}; lambda {args.lam:g}; "
          f"exponent {args.exponent:g}; seed {args.seed}; threads {args.threads}", flush=True)
    terminated = []
    if args.checkpoint:  # kill -TERM: finish the chunk, save the checkpoint, stop
        signal.signal(signal.SIGTERM, lambda *_: terminated.append(True))
    validation = source.validation
    if not args.resume:
        print(f"epoch  0  train      -     val {validation.loss(model, args.exponent)}", flush=True)
    chunks_run = 0
    stopped = False
    raw_total = source.raw_per_epoch
    for epoch in range(at["epoch"], args.epochs):
        plan = source.plan(epoch)
        for c in range(at["chunk"], len(plan)):
            t_chunk = time.perf_counter()
            try:
                data, idx, raw, report = source.load(epoch, c)
            except (OSError, RuntimeError) as e:  # the engine refused a game file, a file went away
                print(f"error: {e}", file=sys.stderr)
                source.close()
                return 2
            t_train = time.perf_counter()
            order = shuffle_rng.permutation(idx)
            steps = (len(order) + args.batch - 1) // args.batch
            total = 0.0
            for k, lo in enumerate(range(0, len(order), args.batch)):
                # The chunk covers its share (raw / raw_total) of the epoch, its steps evenly:
                # with one chunk an epoch, exactly the step count's schedule.
                progress = Fraction((epoch * raw_total + at["raw"]) * steps + raw * k, steps * args.epochs * raw_total)
                for group in opt.param_groups:
                    group["lr"] = args.lr * lr_factor(float(progress))
                total += train_step(model, opt, data, order[lo : lo + args.batch], args.exponent)
            seconds = time.perf_counter() - t_train
            del data
            at["raw"] += raw
            at["loss"] += total
            at["positions"] += len(order)
            at["seconds"] += time.perf_counter() - t_chunk
            at["chunk"] = c + 1
            chunks_run += 1
            if report is not None:
                print(f"chunk {c + 1}/{len(plan)} of epoch {epoch + 1}: {report}; train {total / max(1, len(order)):.6f}, "
                      f"{len(order) / max(seconds, 1e-9):,.0f} pos/s, {seconds:.1f} s", flush=True)
                if args.val_every and chunks_run % args.val_every == 0 and c + 1 < len(plan):
                    print(f"  val {validation.loss(model, args.exponent)}", flush=True)
            last_epoch_chunk = c + 1 == len(plan)
            if last_epoch_chunk:
                elapsed = at["elapsed"] + time.perf_counter() - t0
                print(f"epoch {epoch + 1:2d}  train {at['loss'] / max(1, at['positions']):.6f}  "
                      f"val {validation.loss(model, args.exponent)}  "
                      f"{at['positions'] / max(at['seconds'], 1e-9):,.0f} pos/s  epoch {at['seconds']:.1f} s  "
                      f"elapsed {elapsed:.1f} s  lr {opt.param_groups[0]['lr']:.2e}", flush=True)
                at.update(epoch=epoch + 1, chunk=0, raw=0, loss=0.0, positions=0, seconds=0.0)
            if args.checkpoint:
                saved = dict(at, elapsed=at["elapsed"] + time.perf_counter() - t0)
                save_checkpoint(args.checkpoint, {
                    "format": CHECKPOINT_FORMAT, "fingerprint": fingerprint, "model": model.state_dict(),
                    "optimizer": opt.state_dict(), "shuffle_rng": shuffle_rng.bit_generator.state,
                    "torch_rng": torch.get_rng_state(), "at": saved})
            if (terminated or (args.max_chunks is not None and chunks_run >= args.max_chunks)) and \
                    at["epoch"] < args.epochs:
                stopped = True
                break
        if stopped:
            break
        at["chunk"] = 0
    source.close()
    if stopped:
        print(f"stopped after {chunks_run} chunk(s); continue with --resume from {args.checkpoint}", flush=True)
        return 0

    description = args.description
    if description is None:
        trained = f"{source.train_positions} positions" if source.train_positions else \
            f"{raw_total} game positions before filtering"
        description = (f"Maharajah NNUE: {trained}, {args.epochs} epochs, hidden {hidden}, "
                       f"lambda {args.lam:g}, seed {args.seed}")
        if args.init:
            description += f", fine-tuned from {init_net.hash():016x}"
        if args.mirror:
            description += ", with mirror images"
        if args.factorise:
            description += ", factorised"
        if king_buckets > 1:
            description += f", {king_buckets} king buckets"
    net = model.quantised(description)
    size, digest = nf.write_net(args.out, net)
    back = nf.read_net(args.out, expected_hidden=hidden)  # refuses a bad write
    assert back.hash() == digest

    # Quantisation check on (up to 4096) validation positions (else training ones): the
    # engine's integer evaluation against the float network, and the loss the integer net gets.
    check_pos, check, check_data = validation.check_pos, validation.check_idx, validation.data
    if len(check) == 0 and getattr(source, "last_check", None):
        check_pos, check, check_data = source.last_check
    if len(check):
        cp_int = nf.evaluate_int(net, check_pos)
        cp_float = predict(model, check_data, check) * nf.SCALE
        q_loss = float(nf.position_loss(cp_int, check_data.target[check], args.exponent).mean())
        print(f"quantised: {len(check)} positions, mean |int - float| {np.abs(cp_int - cp_float).mean():.2f} cp, "
              f"max {np.abs(cp_int - cp_float).max():.1f} cp; loss {q_loss:.6f}")
    lo, hi = nf.accumulator_range(net)
    fits = -32768 <= lo and hi <= 32767
    print(f"accumulator range on any board: {lo}..{hi}, "
          + ("within int16" if fits else "WARNING: beyond int16, the engine's int16 accumulators could wrap"))
    print(f"wrote {args.out}: {size} bytes, hash {digest:016x}, elapsed {at['elapsed'] + time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
