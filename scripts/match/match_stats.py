#!/usr/bin/env python3
"""Match statistics for scripts/match/match.py: Elo from a score, trinomial and pentanomial
Elo estimates with 95 % error bars, LOS, normalized Elo, and the generalized SPRT
log-likelihood ratio. Python 3 standard library only."""

from __future__ import annotations

import math
from dataclasses import dataclass


Z95 = 1.959963984540054  # two-sided 95 % quantile of the standard normal distribution
NELO_PER_T = 800.0 / math.log(10.0)  # normalized Elo per unit of t = (score-0.5)/sigma

# --------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------

def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _mean_var(values, counts):
    """Number of samples, mean and (population) variance of a discrete distribution."""
    n = float(sum(counts))
    if n <= 0:
        return 0.0, 0.5, 0.0
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    return n, mean, var


TRI_VALUES = (0.0, 0.5, 1.0)  # loss, draw, win
PENTA_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)  # game-pair points 0, 0.5, 1, 1.5, 2 (per game)


@dataclass
class EloEstimate:
    model: str  # "pentanomial" or "trinomial"
    samples: int  # pairs or games
    score: float
    elo: float
    error: float  # half width of the 95 % interval (inf when unbounded)
    los: float  # likelihood of superiority, 0..1
    nelo: float
    nelo_error: float


def elo_estimate(values, counts, model: str) -> EloEstimate:
    """Elo, 95 % error bar, LOS and normalized Elo from a trinomial (values TRI_VALUES,
    counts [L, D, W]) or pentanomial (PENTA_VALUES, counts of pair points 0..2) sample.

    The interval is the normal-approximation interval of the mean score, mapped through
    the logistic Elo curve. Pentanomial: the unit is a game pair, whose per-game score is
    pair points / 2; a game pair's variance already holds the correlation between the two
    games of an opening, which is why it is preferred."""
    n, mean, var = _mean_var(values, counts)
    if n <= 0:
        return EloEstimate(model, 0, 0.5, 0.0, math.inf, 0.5, 0.0, math.inf)
    se = math.sqrt(var / n)
    elo = elo_from_score(mean)
    lo, hi = mean - Z95 * se, mean + Z95 * se
    if lo <= 0.0 or hi >= 1.0:
        error = math.inf
    else:
        error = (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    if se > 0:
        los = 0.5 * (1.0 + math.erf((mean - 0.5) / (se * math.sqrt(2.0))))
    else:
        los = 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    # Normalized Elo: (score - 0.5) / per-game standard deviation, scaled so that it
    # matches logistic Elo near 0 for a draw-free match. A pair's variance is about half
    # a single game's, hence the factor 2 for the pentanomial model.
    sigma_game = math.sqrt(var * (2.0 if model == "pentanomial" else 1.0))
    if sigma_game > 0:
        nelo = (mean - 0.5) / sigma_game * NELO_PER_T
        nelo_error = Z95 * se / sigma_game * NELO_PER_T
    else:
        nelo, nelo_error = 0.0, math.inf
    return EloEstimate(model, int(n), mean, elo, error, los, nelo, nelo_error)


def trinomial(wins: int, losses: int, draws: int) -> EloEstimate:
    return elo_estimate(TRI_VALUES, [losses, draws, wins], "trinomial")


def pentanomial(counts) -> EloEstimate:
    return elo_estimate(PENTA_VALUES, list(counts), "pentanomial")


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: accept H0 below, H1 above."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


# Units (game pairs or games) before an SPRT may stop.
SPRT_MIN_PAIRS = 20
SPRT_MIN_GAMES = 40


def sprt_may_stop(counts) -> bool:
    """Whether the SPRT may take a decision on these counts (trinomial or pentanomial).
    The normal approximation needs a variance estimate it can trust: with a handful of
    game pairs the sample variance is far too small (4 pairs scored 1, 1, 1, 1.5 once
    "accepted H0" of [50, 150] at LLR -3.3 after 8 games), and with one outcome only it
    is 0 and the regularized LLR explodes. So no decision before SPRT_MIN_PAIRS pairs
    (SPRT_MIN_GAMES games) with at least two outcomes."""
    n = sum(counts)
    enough = n >= (SPRT_MIN_PAIRS if len(counts) == 5 else SPRT_MIN_GAMES)
    return enough and sum(1 for c in counts if c > 0) >= 2


def sprt_llr(counts, elo0: float, elo1: float, model: str = "logistic") -> float:
    """Generalized SPRT log-likelihood ratio, normal approximation.

    counts: [L, D, W] (trinomial, games) or 5 pentanomial counts (game pairs).
    H0: Elo = elo0, H1: Elo = elo1, in logistic Elo (model "logistic") or normalized
    Elo ("normalized"). With the sample mean m and variance v of the per-unit score and
    N units, the log-likelihood ratio of two normal means s0, s1 with variance v is
        LLR = N * (s1 - s0) * (2 m - s0 - s1) / (2 v).
    Empty cells are replaced by a tiny count so that a one-sided sample still has a
    variance (the usual regularization)."""
    values = TRI_VALUES if len(counts) == 3 else PENTA_VALUES
    if sum(counts) <= 0:
        return 0.0
    reg = [c if c > 0 else 1e-3 for c in counts]
    _, mean, var = _mean_var(values, reg)
    n = float(sum(counts))
    if var <= 0:
        return 0.0
    if model == "normalized":
        sigma_game = math.sqrt(var * (2.0 if len(counts) == 5 else 1.0))
        s0 = 0.5 + elo0 / NELO_PER_T * sigma_game
        s1 = 0.5 + elo1 / NELO_PER_T * sigma_game
    else:
        s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
