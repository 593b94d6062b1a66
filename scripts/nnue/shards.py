#!/usr/bin/env python3
"""Training-data shards: runs `maharajah datagen` shard after shard outside the work tree
and keeps the manifest (scripts/nnue/shards.tsv) that lets anyone regenerate a lost shard
exactly (same engine commit, options and seed give the same bytes).

  scripts/nnue/shards.py run [--first-seed N] [--count K] [--games N] [--threads N]
                             [--nodes N] [--engine PATH]
  scripts/nnue/shards.py status          # shards on disk against the manifest
  scripts/nnue/shards.py verify          # sha256 of every complete shard on disk
  scripts/nnue/shards.py regen --engine PATH [--threads N]
                                         # remake the lost shards of PATH's commit

Data lives in $MAHARAJAH_DATA (default ~/maharajah-data), never in git. `run` copies the
engine binary there under its commit's name, so rebuilding the work tree does not change
a running shard, resumes a partial shard of the same seed, and appends a manifest row
when a shard completes. Stop it with kill -TERM (a background job ignores Ctrl-C):
the finished games stay, the next run resumes.

`regen` remakes every manifest shard that is missing or partial on disk and was made by
the engine's commit (read from its `uci` name; a build with uncommitted changes is
refused), resuming a partial file, and checks each against its sha256; shards of other
commits are listed with the commit to build (git worktree add DIR COMMIT). Exit 1 when
a remade shard differs from its row.
"""

import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gamefile import index_games  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# MAHARAJAH_SHARDS_MANIFEST points elsewhere for the self-test.
MANIFEST = Path(os.environ.get("MAHARAJAH_SHARDS_MANIFEST", str(ROOT / "scripts" / "nnue" / "shards.tsv")))
COLUMNS = ["file", "seed", "options", "commit", "games", "positions", "bytes", "sha256", "finished"]


def data_dir() -> Path:
    return Path(os.environ.get("MAHARAJAH_DATA", str(Path.home() / "maharajah-data")))


def count_games(path: Path):
    """(games, positions, bytes of whole games) of a game file (games.h)."""
    index = index_games(path)
    return index.games, index.positions, index.end


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_manifest():
    if not MANIFEST.exists():
        return []
    rows = []
    for line in MANIFEST.read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("file\t"):
            continue
        rows.append(dict(zip(COLUMNS, line.split("\t"))))
    return rows


def append_manifest(row):
    new = not MANIFEST.exists()
    with open(MANIFEST, "a") as f:
        if new:
            f.write("# Training-data shards of `maharajah datagen` (scripts/nnue/shards.py). Regenerate one with\n"
                    "# the engine built at `commit`: maharajah datagen <options> seed <seed> out <file>\n")
            f.write("\t".join(COLUMNS) + "\n")
        f.write("\t".join(str(row[c]) for c in COLUMNS) + "\n")


def engine_copy(engine: Path, commit: str) -> Path:
    bin_dir = data_dir() / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    target = bin_dir / f"maharajah-{commit[:12]}"
    if not target.exists():
        shutil.copy2(engine, target)
    return target


def git_commit() -> str:
    out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    # The manifest itself does not count: a finished shard appends its row there, and the
    # next shard of the same run must still start.
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "--", ".",
                            f":(exclude){MANIFEST.relative_to(ROOT)}"],
                           capture_output=True, text=True, check=True).stdout.strip()
    if dirty:
        sys.exit("shards: the work tree has uncommitted changes; a shard must name the commit that made it")
    return out.stdout.strip()


def cmd_run(args) -> int:
    commit = git_commit()
    engine = engine_copy(Path(args.engine), commit)
    done = {r["file"] for r in read_manifest()}
    options = f"games {args.games} nodes {args.nodes} threads {args.threads}"
    stop = {"now": False}

    def on_term(signum, frame):
        stop["now"] = True
        if child:
            child.send_signal(signal.SIGTERM)

    child = None
    signal.signal(signal.SIGTERM, on_term)
    data_dir().mkdir(parents=True, exist_ok=True)
    seed = args.first_seed
    made = 0
    while made < args.count and not stop["now"]:
        name = f"v2-s{seed}.games"
        if name in done:
            seed += 1
            continue
        path = data_dir() / name
        cmd = [str(engine), "datagen", *options.split(), "seed", str(seed), "out", str(path)]
        print(f"shards: {' '.join(cmd)}", file=sys.stderr, flush=True)
        start = time.time()
        child = subprocess.Popen(cmd)
        rc = child.wait()
        child = None
        if rc != 0 or stop["now"]:
            print(f"shards: {name} stopped (exit {rc}); run again to resume", file=sys.stderr)
            return 1 if rc != 0 and not stop["now"] else 0
        games, positions, size = count_games(path)
        append_manifest({"file": name, "seed": seed, "options": options.replace(f" threads {args.threads}", ""),
                         "commit": commit[:12], "games": games, "positions": positions, "bytes": size,
                         "sha256": sha256(path), "finished": time.strftime("%Y-%m-%d")})
        print(f"shards: {name} done: {games} games, {positions} positions, {time.time() - start:.0f} s",
              file=sys.stderr, flush=True)
        done.add(name)
        made += 1
        seed += 1
    return 0


def engine_commit(engine: Path):
    """(commit prefix, dirty) from the engine's `uci` name, e.g. "Maharajah 0.3-4b55e9eb-dirty"."""
    out = subprocess.run([str(engine)], input="uci\nquit\n", capture_output=True, text=True, timeout=60).stdout
    for line in out.splitlines():
        if line.startswith("id name "):
            version = line.split()[-1]
            parts = version.split("-")
            if len(parts) >= 2 and all(c in "0123456789abcdef" for c in parts[1]) and len(parts[1]) >= 7:
                return parts[1], parts[-1] == "dirty"
    sys.exit(f"shards: cannot read a commit from the uci name of {engine}")


def cmd_regen(args) -> int:
    commit, dirty = engine_commit(Path(args.engine))
    if dirty:
        sys.exit(f"shards: {args.engine} was built with uncommitted changes; build it at the shard's commit")
    data_dir().mkdir(parents=True, exist_ok=True)
    bad = 0
    others = {}
    for r in read_manifest():
        path = data_dir() / r["file"]
        if path.exists() and sha256(path) == r["sha256"]:
            continue
        if not (r["commit"].startswith(commit) or commit.startswith(r["commit"])):
            others.setdefault(r["commit"], []).append(r["file"])
            continue
        cmd = [str(args.engine), "datagen", *r["options"].split(), "threads", str(args.threads), "seed", r["seed"],
               "out", str(path)]
        print(f"shards: {' '.join(cmd)}", file=sys.stderr, flush=True)
        rc = subprocess.run(cmd).returncode
        if rc != 0:
            print(f"shards: {r['file']} stopped (exit {rc}); run again to resume", file=sys.stderr)
            return 1
        ok = sha256(path) == r["sha256"]
        bad += not ok
        print(f"{r['file']}: {'regenerated, sha256 ok' if ok else 'SHA256 MISMATCH'}")
    for c, files in others.items():
        print(f"needs the engine at {c}: {' '.join(files)}")
    return 1 if bad else 0


def cmd_status(args) -> int:
    rows = {r["file"]: r for r in read_manifest()}
    total = 0
    for r in rows.values():
        total += int(r["positions"])
    print(f"manifest: {len(rows)} shards, {total} positions")
    for path in sorted(data_dir().glob("*.games")):
        games, positions, _ = count_games(path)
        state = "complete" if path.name in rows else "partial"
        print(f"{path.name}\t{state}\t{games} games\t{positions} positions")
    missing = [f for f in rows if not (data_dir() / f).exists()]
    if missing:
        print("missing on disk (regenerate from the manifest): " + " ".join(missing))
    return 0


def cmd_verify(args) -> int:
    bad = 0
    for r in read_manifest():
        path = data_dir() / r["file"]
        if not path.exists():
            print(f"{r['file']}: missing")
            continue
        ok = sha256(path) == r["sha256"]
        bad += not ok
        print(f"{r['file']}: {'ok' if ok else 'SHA256 MISMATCH'}")
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run")
    run.add_argument("--first-seed", type=int, default=2001)
    run.add_argument("--count", type=int, default=1000, help="shards to finish before stopping")
    run.add_argument("--games", type=int, default=20000, help="games per shard")
    run.add_argument("--nodes", type=int, default=5000, help="soft node budget per move")
    run.add_argument("--threads", type=int, default=2)
    run.add_argument("--engine", default=str(ROOT / "build" / "maharajah"))
    sub.add_parser("status")
    sub.add_parser("verify")
    regen = sub.add_parser("regen")
    regen.add_argument("--engine", default=str(ROOT / "build" / "maharajah"))
    regen.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    return {"run": cmd_run, "status": cmd_status, "verify": cmd_verify, "regen": cmd_regen}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
