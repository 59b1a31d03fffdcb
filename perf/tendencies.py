"""tendencies: the document permutation test vectorized vs a plain Python loop, all statistics at scale, calibration.

1. TVD permutation test on the same two samples with the same seed: ``stats.unigram_test`` (each batch
   of 100 permutations is one sparse matrix product) vs scipy's ``permutation_test`` calling a Python
   statistic that adds per-document Counters for one permutation at a time. scipy draws the same
   permutations in both, so the p-values must be identical; the ratio of wall times is written.
2. Scale: every statistic of ``stats.compare`` (Zipf, Heaps and its NHPP KS per length, TVD and rank-KS
   permutation tests, length / stopword / symbol KS and mean-difference tests) for a synthetic samples
   file of ``--scale`` lines (default 10^6; Zipfian words, log-normal lengths of mean ~57 tokens as the
   paper's test lines) against a reference file of as many lines. Each side is read as a stream
   (``Sample.from_texts``, int32 codes built in chunks) in a fresh process whose peak RSS is recorded.
   On the first ``--baseline-scale`` lines, the baseline process reads the files into lists of token
   lists first (as the scorer did before): the difference in peak memory is what streaming saves, and
   both must give the same statistics.
3. Calibration: the share of p < 0.05 over repeated pairs of disjoint human samples (nominal 0.05).

Documents of parts 1 and 3 are Moses-tokenized sentences of the offline Wikipedia sample (gensim test data).

    python perf/tendencies.py [--docs 1000] [--resamples 999] [--scale 1000000] [--baseline-scale 100000]
                              [--scale-resamples 99] [--repeats 200] [--only-scale]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

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


def synthetic_lines(path: Path, lines: int, seed: int, vocab: int = 200_000, alpha: float = 1.1, chunk: int = 100_000) -> int:
    """Write ``lines`` synthetic lines: Zipf(alpha) words over ``vocab`` types, log-normal lengths (mean ~57)."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(vocab)], dtype=object)
    pmf = stats._zipf_pmf(alpha, vocab)
    tokens = 0
    with open(path, "w") as f:
        for start in range(0, lines, chunk):
            n = min(chunk, lines - start)
            lengths = np.maximum(1, np.round(rng.lognormal(3.87, 0.6, size=n))).astype(np.int64)
            ids = rng.choice(vocab, size=int(lengths.sum()), p=pmf)
            parts = np.split(words[ids], np.cumsum(lengths)[:-1])
            f.write("".join(" ".join(p) + "\n" for p in parts))
            tokens += int(lengths.sum())
    return tokens


def _measure(sample_file: str, reference_file: str, resamples: int, lists: bool) -> None:
    """(In a fresh process) read both files, compute every statistic, print wall times, peak RSS and results."""
    start = time.perf_counter()
    with open(sample_file) as a, open(reference_file) as b:
        if lists:  # the baseline: token lists of every line held in memory
            docs_a, docs_b = [line.split() for line in a], [line.split() for line in b]
            sample, reference = stats.Sample(docs_a), stats.Sample(docs_b)
        else:
            sample, reference = stats.Sample.from_texts(a), stats.Sample.from_texts(b)
    read_s = time.perf_counter() - start
    start = time.perf_counter()
    result = stats.compare(sample, reference, tests=True, n_resamples=resamples, seed=0)
    compare_s = time.perf_counter() - start
    keep = {k: v for k, v in result.items() if isinstance(v, (int, float))}
    print(json.dumps({"read_s": round(read_s, 1), "compare_s": round(compare_s, 1),
                      "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                      "documents": int(sample.lengths.size), "tokens": int(sample.lengths.sum()), "result": keep}))


def _run_measure(a: Path, b: Path, resamples: int, lists: bool) -> dict:
    out = subprocess.run([sys.executable, __file__, "--_measure", str(a), str(b), str(resamples), str(int(lists))],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def scale(lines: int, baseline_lines: int, resamples: int) -> dict:
    """Every statistic streamed over ``lines`` synthetic lines per side; streamed vs token lists on the first ``baseline_lines``."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "samples.txt", Path(tmp) / "reference.txt"
        start = time.perf_counter()
        tokens = synthetic_lines(a, lines, seed=1), synthetic_lines(b, lines, seed=2)
        write_s = time.perf_counter() - start
        streamed = _run_measure(a, b, resamples, False)
        small_a, small_b = Path(tmp) / "samples-small.txt", Path(tmp) / "reference-small.txt"
        for big, small in ((a, small_a), (b, small_b)):
            with open(big) as f, open(small, "w") as g:
                g.writelines(line for _, line in zip(range(baseline_lines), f))
        pair = {name: _run_measure(small_a, small_b, resamples, lists) for name, lists in (("streamed", False), ("token_lists", True))}
    same = json.dumps(pair["streamed"].pop("result")) == json.dumps(pair["token_lists"].pop("result"))  # NaN != NaN as floats
    assert same, "streamed and list-based statistics differ"
    result = streamed.pop("result")
    return {"lines_per_side": lines, "tokens": {"samples": tokens[0], "reference": tokens[1]}, "synthetic_write_s": round(write_s, 1),
            "n_resamples": resamples, "streamed": streamed,
            "baseline": {"lines_per_side": baseline_lines, **pair, "identical_statistics": same,
                         "peak_rss_ratio": round(pair["token_lists"]["peak_rss_mb"] / pair["streamed"]["peak_rss_mb"], 2)},
            "statistics": {k: round(v, 4) for k, v in result.items() if k in ("zipf_alpha", "heaps_beta", "heaps_ks_nhpp_model",
                                                                             "heaps_ks_nhpp_ref", "heaps_ks_empirical", "tvd", "tvd_p", "rank_ks_p", "length_ks")}}


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--_measure":
        _measure(sys.argv[2], sys.argv[3], int(sys.argv[4]), bool(int(sys.argv[5])))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=1000, help="documents per sample in the permutation-test comparison")
    ap.add_argument("--resamples", type=int, default=999)
    ap.add_argument("--scale", type=int, default=1_000_000, help="synthetic lines per side in part 2")
    ap.add_argument("--baseline-scale", type=int, default=100_000, help="lines per side of the streamed vs token-lists comparison")
    ap.add_argument("--scale-resamples", type=int, default=99, help="permutations per test in part 2")
    ap.add_argument("--only-scale", action="store_true", help="part 2 alone, written to perf/results/tendencies-scale.json")
    ap.add_argument("--repeats", type=int, default=200, help="pairs of human samples in the calibration")
    args = ap.parse_args()
    if args.only_scale:
        write_result("tendencies-scale", None, {"machine": machine(), "all_statistics_at_scale": scale(args.scale, args.baseline_scale, args.scale_resamples)})
        return

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

    at_scale = scale(args.scale, args.baseline_scale, args.scale_resamples)

    start = time.perf_counter()
    rates = stats.null_rejection_rates(sentences, size=200, repeats=args.repeats, n_resamples=199, seed=0)
    calib_s = time.perf_counter() - start

    write_result("tendencies", None, {
        "machine": machine(),
        "permutation_test": {"docs_per_sample": args.docs, "tokens": sum(map(len, a + b)), "n_resamples": args.resamples,
                             "pvalue_vectorized": fast.pvalue, "pvalue_loop": slow_p, "identical": fast.pvalue == slow_p,
                             "vectorized_s": round(fast_s, 3), "loop_s": round(slow_s, 3), "speedup": round(slow_s / fast_s, 1)},
        "all_statistics_at_scale": at_scale,
        "calibration": {"pairs": args.repeats, "docs_per_sample": 200, "alpha": 0.05, "rejection_rates": rates,
                        "mean_rate": round(float(np.mean(list(rates.values()))), 4), "wall_s": round(calib_s, 1)},
    })


if __name__ == "__main__":
    main()
