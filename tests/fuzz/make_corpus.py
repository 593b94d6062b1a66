#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (tests/fuzz/corpus/<target>/).

Why a script: the seeds are chosen, not collected, so that each covers one feature
(variant rules, armies, every UCI command); rerun it after changing the choice.
Sources: FENs from tests/data/*.tsv, armies from `army suggest` and tests/test_army.cpp,
UCI command scripts written here. Usage: tests/fuzz/make_corpus.py (from anywhere).
"""
import pathlib
import shutil

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parent / "data"
OUT = HERE / "corpus"


def fens(name, every):
    lines = [l.split("\t")[0] for l in (DATA / name).read_text().splitlines() if l and not l.startswith("#")]
    unique = list(dict.fromkeys(lines))
    return unique[::every]


STANDARD = fens("standard.tsv", 3)
VARIANT = fens("variant.tsv", 6)
EDGE_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Vv a2b2c2",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3",
    "4k3/8/8/8/8/8/8/4K2M w - - 99 300 V -",
    "4k3/8/8/8/8/8/8/4K2M w - - 0 1 - -",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "4k3/P7/8/8/8/8/7p/4K3 w - - 0 1 Vv -",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 4294967295",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    # Once written in a form that did not read back (fields 7/8 and counters).
    "r3k2c/8/8/8/8/8/8/4K3 b q - 0 1 -",
    "4k3/8/8/8/8/8/8/PP2K3 w - - 99999999 100000000 - a1b1",
    "4k3/8/8/8/8/8/PP6/4K3 w - - 1 3 - e1",
    # Chess960 castling fields (read in both modes by fuzz_fen).
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/qRK5 w Q - 0 1",
    "4k3/8/8/8/8/8/8/RR2K2R w BH - 0 1",
]

ARMIES_WHITE = ["RNBQKBNR/PPPPPPPP", "RAANKBBC/P2PPP1P", "PBABKAAC/1PPPPP1P", "RAABKBAN/PPPPPPP1",
                "BBAQKNAN/1PPPPPP1", "CABPKAAB/PPPPPP2", "NABQKBAN/1PPPPPP1", "CABBKBAN/PPPPPPP1",
                "MMM1K3", "PPPPKPPP/QQQPPPPP", "RNBQKBNR/3C4", "NNNNKPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP"]
ARMIES_BLACK = ["rnbqkbnr/pppppppp", "cabbkaap/pppppp2", "cabbkban/ppppppp1", "caabkbap/p1ppppp1",
                "cabbkran/p1pppp2", "cabbknan/ppppppp1", "cabnkbab/ppppppp1", "mmm1k3"]
BAD_ARMIES = ["RNBQKBNR/PPPPPPP1", "RNBQ1BNR/PPPPPPPP", "RNBQKBNR/PPPPPPP", "RNBQKBNX/PPPPPPPP",
              "RNBQKBNR/PPPPPPPP/8/8/P7", "K7/8/P7"]

UCI_SCRIPTS = {
    "chess960": "setoption name UCI_Chess960 value true\nposition fen r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1 "
                "moves b1h1\nmoves\ngo depth 2\neval\nd\n",
    # Once an overflow in time planning, two error lines for one argument, a refused seed.
    "huge-clock": "position startpos\ngo wtime 9223372036854775807 btime 9223372036854775807 "
                  "winc 9223372036854775807 binc 9223372036854775807\n",
    "hardening": "position startpos\ngo wtime 1000 btime 1000 winc 9223372036854775807\ngo depth 30 perft x\n"
                 "army suggest white seed 18446744073709551615\n",
    "handshake": "uci\nisready\nucinewgame\nposition startpos\ngo depth 2\nisready\n",
    "moves-and-d": "position startpos moves e2e4 e7e5 g1f3\nd\nfen\nmoves\nmoves g1\nlegalmoves\nrules\nstatus\n",
    "infinite-stop": "position startpos\ngo infinite\nisready\nstop\n",
    "ponder": "setoption name Ponder value true\nposition startpos moves e2e4\ngo ponder wtime 100 btime 100\nponderhit\n",
    "clocks": "position startpos\ngo wtime 1000 btime 1000 winc 10 binc 10 movestogo 5\n",
    "negative-clock": "position startpos\ngo wtime -5 btime 0\n",
    "options": "setoption name MultiPV value 3\nsetoption name Threads value 2\nsetoption name Hash value 2\n"
               "setoption name UCI_ShowWDL value true\nposition startpos\ngo nodes 500\n",
    "ablate": "setoption name Ablate value lmr,nmp,futility\nsetoption name EvalMode value material\ngo depth 2\n",
    "variant": "setoption name UCI_Variant value maharajah\nposition army RAANKBBC/P2PPP1P cabbkaap/pppppp2\n"
               "go depth 2\nrules\nd\n",
    "army-commands": "army check white RNBQKBNR/PPPPPPPP\narmy check black mmm1k3\narmy suggest white seed 7\n"
                     "army check white RNBQKBNR/PPPPPPP1\n",
    "flag": "position startpos moves e2e4\nflag white\nflag black\nstatus\n",
    "perft": "position startpos\ngo perft 2\n",
    "mate": "position fen k7/8/1K6/8/8/8/8/7R w - - 0 1\ngo mate 1\n",
    "mated": "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 1\nstatus\n",
    "searchmoves": "position startpos\ngo depth 3 searchmoves a2a3 h2h3 e2e5\n",
    "errors": "position fen x\nposition startpos moves e2e5\ngo depth x\nsetoption name Hash value lots\nfoo\n"
              "setoption name Threads value 0\nmoves e4\n",
    "go-during-search": "go infinite\nposition startpos moves d2d4\ngo movetime 10\nstop\nucinewgame\ngo depth 1\n",
    "variant-fen": f"position fen {VARIANT[1]}\ngo nodes 300\nlegalmoves\n",
    "quit": "position startpos\ngo infinite\nquit\nisready\n",
}

SEARCH_SEEDS = [(0x00, "startpos"), (0x13, "startpos\ne2e4 e7e5"), (0x27, EDGE_FENS[6]), (0x44, EDGE_FENS[7]),
                (0x3b, "army RAANKBBC/P2PPP1P cabbkaap/pppppp2"), (0x80, "army MMM1K3 rnbqkbnr/pppppppp"),
                (0xff, EDGE_FENS[8])] + [(7 * i & 0xff, f) for i, f in enumerate(STANDARD[::3] + VARIANT[::3])]

MOVES_SEEDS = [
    "startpos\ne2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1",
    "startpos\ne2e4 a7a6 e4e5 d7d5 e5d6",
    "startpos\ng1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
    "startpos\na2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 b8c6 b7a8q",
    "startpos\ne2e5",
    "startpos\ne7e5",
    "startpos\ne1g1",
    "4k3/P7/8/8/8/8/7p/4K3 w - - 0 1 Vv -\na7a8m h2h1c a8e4",
    "4k3/P7/8/8/8/8/7p/4K3 w - - 0 1\na7a8q h2h1n",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ne1c1 e8g8",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3\nd5c6",
] + [f + "\ne2e4 e7e5 a1a2" for f in STANDARD[::4] + VARIANT[::4]]

# fuzz_notation: the first byte picks the reader (odd: PGN; even: SAN from Starts[byte/2]).
NOTATION_SEEDS = [
    ('pgn_960', b'\x01[Variant "Chess960"]\n[FEN "r5kr/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"]\n\n1. O-O-O O-O 1/2-1/2\n'),
    ('pgn_army', b'\x01[Event "?"]\n[Variant "maharajah39-vc"]\n[SetUp "1"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPP4/RNBMKBNR w kq - 0 1"]\n\n1. a4 {a comment} e5 (1... d5 2. Mh5) 2. Mh5 $1 Nc6 3. Mxf7+ *\n'),
    ('pgn_standard', b'\x01%escape\n1.e4 e5 2.Nf3 d6 3.d4 Bg4 4.dxe5 Bxf3 5.Qxf3 dxe5 ; rest\n6.Bc4 Nf6 7.Qb3 Qe7 1-0\n'),
    ('san_960', b'\x06O-O-O O-O'),
    ('san_compound', b'\x04Ace2 Kd7 C1a3 Kc6 Ma1c3'),
    ('san_ep', b'\x08exf6 e.p.'),
    ('san_promotion', b'\x02a8=M Kb7 Mb8+'),
    ('san_standard', b'\x00e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7'),
]


def write(target, items):
    d = OUT / target
    d.mkdir(parents=True)
    for name, content in items:
        (d / name).write_bytes(content if isinstance(content, bytes) else content.encode())


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    all_fens = STANDARD + VARIANT + EDGE_FENS
    write("fuzz_fen", [(f"fen-{i:02}", f) for i, f in enumerate(all_fens)])
    pairs = [(w, b) for w in ARMIES_WHITE for b in ARMIES_BLACK[:2]] + [(b, w) for w, b in zip(BAD_ARMIES, ARMIES_BLACK)]
    write("fuzz_army", [(f"army-{i:02}", f"{w}\n{b}") for i, (w, b) in enumerate(pairs)])
    write("fuzz_uci", sorted(UCI_SCRIPTS.items()))
    write("fuzz_moves", [(f"moves-{i:02}", m) for i, m in enumerate(MOVES_SEEDS)])
    write("fuzz_search", [(f"search-{i:02}", bytes([b]) + s.encode()) for i, (b, s) in enumerate(SEARCH_SEEDS)])
    write("fuzz_notation", NOTATION_SEEDS)


if __name__ == "__main__":
    main()
