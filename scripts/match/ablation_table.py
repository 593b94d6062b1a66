#!/usr/bin/env python3
"""The table of the ablation matches (scripts/results/RESULTS.md): pools every run of each technique.

Reads the scripts/match/ablate logs (ablate-<technique>[-N].log) in the directories given,
adds up the runs of each technique (last "Score of"/"Ptnml" lines) and prints one
Markdown row per technique: games, runs, the full engine's W-L-D, pentanomial Elo with
its 95% error bar, LOS, the log-likelihood ratio of the pooled games for H0 0 / H1 +15
Elo, and the verdict:
  gains        a run's SPRT accepted H1, or the pooled 95% interval lies above 0;
  no gain      a run's SPRT accepted H0, or the pooled interval lies below 0;
  no decision  otherwise.
(A pooled LLR is a fixed-sample figure, not a new sequential test; a "gains" verdict
from pooling is a 95% two-sided interval, the same standard as one match's error bar.)

Usage: scripts/match/ablation_table.py DIR [DIR ...]
"""
import argparse
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match_stats import pentanomial, sprt_llr  # noqa: E402
from pool_logs import read_log  # noqa: E402

NAMES = {
    "pvs": "principal variation search", "lmr": "late-move reductions", "lmp": "late-move pruning",
    "rfp": "reverse futility pruning", "nmp": "null-move pruning", "seeprune": "SEE pruning (main search)",
    "capthist": "capture history", "qsee": "quiescence SEE pruning", "ttcut": "transposition-table cutoffs",
    "aspiration": "aspiration windows", "killers": "killer moves", "futility": "futility pruning",
    "history": "butterfly history", "delta": "delta pruning (quiescence)", "iir": "internal iterative reduction",
    "checkext": "check extension", "nmpverify": "null-move verification", "conthist": "continuation history",
    "countermove": "countermove", "mdp": "mate-distance pruning", "singular": "singular extensions",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    runs = defaultdict(list)
    for d in a.dirs:
        for f in sorted(os.listdir(d)):
            m = re.fullmatch(r"ablate-([a-z]+)(?:-\d+)?\.log", f)
            if m:
                r = read_log(os.path.join(d, f))
                if r:
                    runs[m.group(1)].append(r)
    rows = []
    for t, rs in runs.items():
        wld = [sum(r[0][i] for r in rs) for i in range(3)]
        penta = [sum(r[1][i] for r in rs) for i in range(5)]
        est = pentanomial(penta)
        llr = sprt_llr(penta, 0.0, 15.0)
        states = [r[2] for r in rs]
        if any("H1" in s for s in states) or est.elo - est.error > 0:
            verdict = "gains"
        elif any("H0" in s for s in states) or est.elo + est.error < 0:
            verdict = "no gain"
        else:
            verdict = "no decision"
        rows.append((verdict != "gains", -est.elo, t, sum(wld), len(rs), wld, est, llr, verdict))
    print("| technique switched off (`Ablate`) | games (runs) | full engine W-L-D | Elo (95%) | LOS | pooled LLR | verdict |")
    print("|---|---|---|---|---|---|---|")
    for _, _, t, n, k, wld, est, llr, verdict in sorted(rows):
        print(f"| {NAMES.get(t, t)} (`{t}`) | {n} ({k}) | {wld[0]}-{wld[1]}-{wld[2]} | "
              f"{est.elo:+.1f} +/- {est.error:.1f} | {100 * est.los:.1f}% | {llr:.2f} | {verdict} |")
    print(f"\n{sum(r[3] for r in rows)} games in {sum(r[4] for r in rows)} runs")


if __name__ == "__main__":
    main()
