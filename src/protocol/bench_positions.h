#pragma once
// The fixed positions of `bench`: standard chess and Maharajah (compound-heavy,
// pawn-heavy, mixed classic/variant). Changing this list changes the bench signature.

namespace maharajah {

inline constexpr int BenchDepth = 11;

inline constexpr const char* BenchFens[] = {
    // Standard chess.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 2 9",
    "2r3k1/pp3ppp/4p3/3rP3/8/P4N2/1P3PPP/2R3K1 b - - 0 25",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 50",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2PP1N2/PP3PPP/RN1Q1RK1 w - - 4 8",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    // Maharajah: compound-heavy armies, both sides variant.
    "m1rbk1rm/8/8/8/8/8/8/MPQPKQ1A w - - 0 1 Vv b1d1",
    "aacckcpp/3p4/8/8/8/8/8/MBBAKC1A w - - 0 1 Vv d7g8h8",
    "nbqrkbcn/p1p1p3/M2p4/5Bp1/8/8/8/2MPKC1P w - - 0 3 Vv d1h1a7c7e7",
    "rnbakabr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKCBR w - - 0 1 Vv",
    "baaakaab/3ppp2/8/8/8/8/1PPPPPP1/NAANKAAN w - - 0 1 Vv",
    // Maharajah: pawn-heavy against a few big pieces.
    "ppppkppp/pppppppp/pppppppp/pnnpppnn/8/8/PPPPNBRP/BNPQKPRP w - - 0 1",
    "1pppkppp/1ppapppp/ppcp1ppp/pppP1p1P/3PpPP1/PBP1PP2/1PPPPPPP/PPPPKPPP w - e5 0 6 Vv "
    "a1b1c1d1f1g1h1b2c2d2e2f2g2h2a3c3e3f3f4b5c5f5b6d6f6g6h6b7c7e7f7g7h7b8c8d8f8g8h8",
    "qpprkbpn/pprpnppb/8/8/PRPPPPPR/PPPPPPPP/PPPPPPPP/PPPPKPPP w - - 0 1",
    // Maharajah: mixed classic and variant sides.
    "ar1b1kbn/1p2nq2/3p4/P1p1p2p/4pp2/BP1B2P1/2PPN2P/RN1QK2R w KQ - 2 12 v b7",
    "r1bqk2r/1ppn1ppp/4p2n/pB4b1/8/N7/P1P4P/1RR1K2C b kq - 1 8 V a2c2h2",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RRBCKCBR w kq - 0 1 V",
    "nak4p/8/4c3/3c2B1/P3P2P/1P1P1NP1/1P2BP2/RN1QK2R w KQ - 1 10 v h8",
};

}  // namespace maharajah
