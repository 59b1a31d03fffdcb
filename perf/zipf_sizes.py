"""How rank KS moves with sample size: two samples of one Zipf(1.2) law, lines of 24 tokens over 100,000 types.

Rank KS (``scorers.stats.rank_ks``, the first 10,000 ranks) of 1,000 against 20,000 lines, and of 20,000 against
20,000, each sample drawn with its own seed; and the KS floor of an exact Zipf(1.2) sample under the untruncated law
(``--faithful``): 1 - H(10000, 1.2) / zeta(1.2). A second or so; writes perf/results/zipf-sizes.json:

    python perf/zipf_sizes.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from scipy import special
from wordbench.scorers.stats import ZIPF_RANKS, _zipf_pmf, rank_ks

OUT = Path(__file__).parent / "results" / "zipf-sizes.json"
ALPHA, TYPES, LINE = 1.2, 100_000, 24


def counts(lines: int, seed: int) -> np.ndarray:
    """Type counts of ``lines`` lines of LINE tokens drawn from Zipf(ALPHA) over TYPES types."""
    ids = np.random.default_rng(seed).choice(TYPES, size=lines * LINE, p=_zipf_pmf(ALPHA, TYPES))
    return np.bincount(ids, minlength=TYPES)


def measure() -> dict:
    reference = counts(20_000, seed=0)
    return {
        "alpha": ALPHA, "types": TYPES, "tokens_per_line": LINE,
        "rank_ks_1k_vs_20k": round(rank_ks(counts(1_000, seed=1), reference), 4),
        "rank_ks_20k_vs_20k": round(rank_ks(counts(20_000, seed=2), reference), 4),
        "zeta_floor": round(1 - (np.arange(1, ZIPF_RANKS + 1) ** -ALPHA).sum() / special.zeta(ALPHA, 1), 3),
    }


if __name__ == "__main__":
    result = measure()
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
