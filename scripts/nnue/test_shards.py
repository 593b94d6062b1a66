#!/usr/bin/env python3
"""Self-test of scripts/nnue/shards.py regen (standard library only; run by ctest): a lost
shard is made again from its manifest row, byte for byte, by an engine of the row's
commit; a partial file is resumed; a shard whose bytes differ from the row is reported;
rows of other commits are listed, not touched; a build with uncommitted changes is
refused.

  python3 scripts/nnue/test_shards.py [-v]

The engine is $MAHARAJAH_ENGINE or build/maharajah. The test does not depend on the
commit the engine was built at: it runs the engine through a wrapper whose `uci` name
carries a commit of the test's choosing.
"""

import hashlib
import os
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARDS = HERE / "shards.py"
ENGINE = Path(os.environ.get("MAHARAJAH_ENGINE", str(HERE.parents[1] / "build" / "maharajah")))
COMMIT = "0123abcd4567"
OPTIONS = "games 4 nodes 300"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Regen(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.data = self.dir / "data"
        self.data.mkdir()
        self.manifest = self.dir / "shards.tsv"

    def tearDown(self):
        self.tmp.cleanup()

    def wrapper(self, version: str) -> Path:
        """An engine that answers `uci` with the given version and runs the rest for real."""
        path = self.dir / f"engine-{version}"
        path.write_text("#!/bin/sh\n"
                        f'if [ "$#" -eq 0 ]; then echo "id name Maharajah {version}"; echo uciok; exit 0; fi\n'
                        f'exec "{ENGINE}" "$@"\n')
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        return path

    def shard(self, name: str, seed: int) -> Path:
        """A shard made directly by the engine, as `run` makes it."""
        out = self.data / name
        subprocess.run([str(ENGINE), "datagen", *OPTIONS.split(), "threads", "1", "seed", str(seed), "out", str(out)],
                       check=True, capture_output=True)
        return out

    def write_manifest(self, rows):
        lines = ["# test manifest", "file\tseed\toptions\tcommit\tgames\tpositions\tbytes\tsha256\tfinished"]
        lines += ["\t".join(str(x) for x in r) for r in rows]
        self.manifest.write_text("\n".join(lines) + "\n")

    def regen(self, engine: Path):
        env = dict(os.environ, MAHARAJAH_DATA=str(self.data), MAHARAJAH_SHARDS_MANIFEST=str(self.manifest))
        return subprocess.run([sys.executable, str(SHARDS), "regen", "--engine", str(engine), "--threads", "2"],
                              capture_output=True, text=True, env=env, timeout=600)

    def test_lost_and_partial_shards_come_back_byte_for_byte(self):
        a = self.shard("v2-s7.games", 7)
        b = self.shard("v2-s8.games", 8)
        sha_a, sha_b, bytes_a = sha256(a), sha256(b), a.stat().st_size
        self.write_manifest([
            ["v2-s7.games", 7, OPTIONS, COMMIT, 4, 0, bytes_a, sha_a, "2026-12-07"],
            ["v2-s8.games", 8, OPTIONS, COMMIT, 4, 0, b.stat().st_size, sha_b, "2026-12-07"],
            ["v2-s9.games", 9, OPTIONS, "fedcba987654", 4, 0, 1, "0" * 64, "2026-12-07"],
        ])
        a.unlink()  # lost
        with open(b, "r+b") as f:  # cut mid-game: a partial shard
            f.truncate(b.stat().st_size * 2 // 3)
        r = self.regen(self.wrapper(f"0.3-{COMMIT[:8]}"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(sha256(a), sha_a)
        self.assertEqual(sha256(b), sha_b)
        self.assertIn("v2-s7.games: regenerated, sha256 ok", r.stdout)
        self.assertIn("v2-s8.games: regenerated, sha256 ok", r.stdout)
        self.assertIn("needs the engine at fedcba987654: v2-s9.games", r.stdout)
        self.assertFalse((self.data / "v2-s9.games").exists())

        # Everything in place: nothing to do.
        r = self.regen(self.wrapper(f"0.3-{COMMIT[:8]}"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("regenerated", r.stdout)

    def test_a_shard_that_comes_back_different_is_reported(self):
        a = self.shard("v2-s7.games", 7)
        good = sha256(a)
        # The row names other options than the file was made with.
        self.write_manifest([["v2-s7.games", 7, "games 4 nodes 400", COMMIT, 4, 0, 1, good, "2026-12-07"]])
        a.unlink()
        r = self.regen(self.wrapper(f"0.3-{COMMIT[:8]}"))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("v2-s7.games: SHA256 MISMATCH", r.stdout)

    def test_an_engine_with_uncommitted_changes_is_refused(self):
        self.write_manifest([["v2-s7.games", 7, OPTIONS, COMMIT, 4, 0, 1, "0" * 64, "2026-12-07"]])
        r = self.regen(self.wrapper(f"0.3-{COMMIT[:8]}-dirty"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("uncommitted changes", r.stderr)
        self.assertFalse((self.data / "v2-s7.games").exists())


if __name__ == "__main__":
    if not ENGINE.exists():
        print(f"test_shards: no engine at {ENGINE}", file=sys.stderr)
        sys.exit(1)
    unittest.main()
