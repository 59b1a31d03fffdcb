"""tendencies: the document permutation test vectorized vs a plain Python loop, and all statistics on 100k documents.

1. TVD permutation test on the same two samples with the same seed: ``stats.unigram_test`` (each batch
   of 100 permutations is one sparse matrix product) vs scipy's ``permutation_test`` calling a Python
   statistic that adds per-document Counters for one permutation at a time. scipy draws the same
   permutations in both, so the p-values must be identical; the ratio of wall times is written.
2. ``stats.compare`` (Zipf, Heaps, TVD and rank-KS permutation tests, length / stopword / symbol KS and
   mean-difference tests) for a sample of 100k documents against the reference sentences.
3. Calibration: the share of p < 0.05 over repeated pairs of disjoint human samples (nominal 0.05).

Documents are Moses-tokenized sentences of the offline Wikipedia sample (gensim test data).

    python perf/tendencies.py [--docs 1000] [--resamples 999] [--large 100000] [--repeats 200]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np
from scipy import stats as sps

from common import machine, write_result
from wordbench.builders.sources.corpora import gensim_wiki_documents
from wordbench.builders.tendencies import Normalizer
from wordbench.scorers import stats


def loop_tvd_test(docs_a, docs_b, n_resamples: int, seed: int) -> float:
    """The naive baseline: a Python statistic (Counters), one permutation at a time."""
    counters = [Counter(d) for d in list(docs_a) + list(docs_b)]

    def tvd_of(idx_a, idx_b):
        a, b = Counter(), Counter()
        for i in idx_a:
            a.update(counters[int(i)])
        for i in idx_b:
            b.update(counters[int(i)])
        return stats.tvd(a, b)

    idx = np.arange(len(counters))
    res = sps.permutation_test((idx[: len(docs_a)], idx[len(docs_a):]), tvd_of, vectorized=False, n_resamples=n_resamples,
                               alternative="greater", rng=np.random.default_rng(seed), batch=100)
    return float(res.pvalue)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=1000, help="documents per sample in the permutation-test comparison")
    ap.add_argument("--resamples", type=int, default=999)
    ap.add_argument("--large", type=int, default=100_000, help="documents in the sample of part 2")
    ap.add_argument("--repeats", type=int, default=200, help="pairs of human samples in the calibration")
    args = ap.parse_args()

    normalize = Normalizer()
    sentences = [normalize(s) for doc in gensim_wiki_documents() for s in doc]
    rng = np.random.default_rng(0)
    order = rng.permutation(len(sentences))
    a = [sentences[i] for i in order[: args.docs]]
    b = [sentences[i] for i in order[args.docs : 2 * args.docs]]

    start = time.perf_counter()
    fast = stats.unigram_test(a, b, "tvd", args.resamples, seed=0)
    fast_s = time.perf_counter() - start
    start = time.perf_counter()
    slow_p = loop_tvd_test(a, b, args.resamples, seed=0)
    slow_s = time.perf_counter() - start
    assert fast.pvalue == slow_p, (fast.pvalue, slow_p)

    large = [sentences[i] for i in rng.integers(0, len(sentences), size=args.large)]
    start = time.perf_counter()
    sample, reference = stats.Sample(large), stats.Sample(sentences)
    result = stats.compare(sample, reference, tests=True, n_resamples=args.resamples, seed=0)
    all_s = time.perf_counter() - start

    start = time.perf_counter()
    rates = stats.null_rejection_rates(sentences, size=200, repeats=args.repeats, n_resamples=199, seed=0)
    calib_s = time.perf_counter() - start

    write_result("tendencies", None, {
        "machine": machine(),
        "permutation_test": {"docs_per_sample": args.docs, "tokens": sum(map(len, a + b)), "n_resamples": args.resamples,
                             "pvalue_vectorized": fast.pvalue, "pvalue_loop": slow_p, "identical": fast.pvalue == slow_p,
                             "vectorized_s": round(fast_s, 3), "loop_s": round(slow_s, 3), "speedup": round(slow_s / fast_s, 1)},
        "all_statistics": {"documents": args.large, "tokens": int(sample.lengths.sum()), "reference_documents": len(sentences),
                           "n_resamples": args.resamples, "wall_s": round(all_s, 2),
                           "tvd": round(result["tvd"], 4), "tvd_p": result["tvd_p"], "zipf_alpha": round(result["zipf_alpha"], 4)},
        "calibration": {"pairs": args.repeats, "docs_per_sample": 200, "alpha": 0.05, "rejection_rates": rates,
                        "mean_rate": round(float(np.mean(list(rates.values()))), 4), "wall_s": round(calib_s, 1)},
    })


if __name__ == "__main__":
    main()
