"""The game files of `maharajah datagen` (docs/training.md, src/datagen/games.h): where
each whole game starts and how many positions it stores. Plain Python (no numpy), shared
by the shard runner and the trainer.

  index = index_games("v2-s2001.games")   # GameIndex: offsets, plies, end
  index.positions                         # sum of plies = records `expand` writes
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

MAGIC = b"MG"
VERSION = 2
HEADER_SIZE = 22  # magic, version, kind, result, termination, plies, seed, index, FEN length


@dataclass
class GameIndex:
    path: str
    offsets: list  # byte offset of each whole game
    plies: list  # positions stored by each game (one expanded record per ply)
    end: int  # bytes of whole games: a partial last game (a run in progress) is left out
    size: int  # bytes of the file

    @property
    def games(self) -> int:
        return len(self.offsets)

    @property
    def positions(self) -> int:
        return sum(self.plies)


def index_games(path) -> GameIndex:
    """Indexes a game file. Raises ValueError on a bad magic or format version (naming
    the byte); a truncated last game is not indexed (`end` stops before it)."""
    with open(path, "rb") as f:
        data = f.read()
    offsets, plies = [], []
    at = 0
    while at + HEADER_SIZE <= len(data):
        if data[at : at + 2] != MAGIC:
            raise ValueError(f"{path}: not a game file (bad magic at byte {at})")
        if data[at + 2] != VERSION:
            raise ValueError(f"{path}: game format version {data[at + 2]} at byte {at}, expected {VERSION}")
        n = struct.unpack_from("<H", data, at + 6)[0]
        fen_len = struct.unpack_from("<H", data, at + 20)[0]
        end = at + HEADER_SIZE + fen_len + 4 * n
        if end > len(data):
            break
        offsets.append(at)
        plies.append(n)
        at = end
    return GameIndex(str(path), offsets, plies, at, len(data))
