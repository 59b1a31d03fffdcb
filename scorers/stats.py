"""Statistics of text samples (Meister & Cotterell 2021): Zipf and Heaps fits, KS, TVD, permutation tests.

Pure numpy/scipy, vectorized. Permutation tests go through ``scipy.stats.permutation_test`` with
vectorized statistics: exact when the number of distinct permutations is at most ``n_resamples``,
Monte Carlo (seeded) otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import optimize, sparse, stats

ZIPF_RANKS = 10_000  # the paper fits Zipf's law on the first 10,000 ranks


# --- Zipf ---------------------------------------------------------------------------------------


def rank_frequencies(counts, max_rank: int = ZIPF_RANKS) -> np.ndarray:
    """Counts sorted by decreasing frequency, truncated to ``max_rank`` ranks."""
    values = np.sort(np.asarray(list(counts.values()) if isinstance(counts, dict) else counts, dtype=np.float64))[::-1]
    values = values[values > 0][:max_rank]
    if values.size < 2:
        raise ValueError("a Zipf fit needs at least two word types")
    return values


def _zipf_pmf(alpha: float, n_ranks: int) -> np.ndarray:
    weights = np.arange(1, n_ranks + 1, dtype=np.float64) ** -alpha
    return weights / weights.sum()


def zipf_mle(counts, max_rank: int = ZIPF_RANKS) -> float:
    """MLE of the exponent of a discrete power law over ranks 1..N (Clauset et al. 2009, truncated at N).

    Each token of the first N ranks is an observation of its rank r with P(r) = r^-alpha / H(N, alpha).
    """
    freq = rank_frequencies(counts, max_rank)
    log_r = np.log(np.arange(1, freq.size + 1))
    total, weighted = freq.sum(), freq @ log_r

    def nll(alpha):
        return alpha * weighted + total * np.log(np.exp(-alpha * log_r).sum())

    return float(optimize.minimize_scalar(nll, bounds=(1e-3, 10.0), method="bounded", options={"xatol": 1e-8}).x)


def zipf_ks(counts, alpha: float, max_rank: int = ZIPF_RANKS) -> float:
    """KS distance between the empirical rank distribution (first N ranks) and Zipf(alpha) on the same ranks."""
    freq = rank_frequencies(counts, max_rank)
    return float(np.abs(np.cumsum(freq / freq.sum()) - np.cumsum(_zipf_pmf(alpha, freq.size))).max())


def rank_ks(counts_a, counts_b, max_rank: int = ZIPF_RANKS) -> float:
    """KS distance between two empirical rank-frequency distributions (ranks 1..N, zero-padded)."""
    a, b = rank_frequencies(counts_a, max_rank), rank_frequencies(counts_b, max_rank)
    n = max(a.size, b.size)
    pa, pb = np.zeros(n), np.zeros(n)
    pa[: a.size], pb[: b.size] = a / a.sum(), b / b.sum()
    return float(np.abs(np.cumsum(pa) - np.cumsum(pb)).max())


# --- Heaps --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HeapsFit:
    K: float
    beta: float

    def expected_types(self, lengths) -> np.ndarray:
        return self.K * np.asarray(lengths, dtype=np.float64) ** self.beta


def heaps_mle(lengths: Sequence[int], types: Sequence[int]) -> HeapsFit:
    """MLE of (K, beta) with the number of types of a length-n document ~ Poisson(K n^beta).

    For a given beta the MLE of K is sum(types) / sum(n^beta); beta is found numerically.
    """
    n = np.asarray(lengths, dtype=np.float64)
    v = np.asarray(types, dtype=np.float64)
    if n.size < 2 or (n <= 0).any():
        raise ValueError("a Heaps fit needs at least two documents of positive length")
    log_n = np.log(n)

    def nll(beta):
        rate = np.exp(beta * log_n)
        k = v.sum() / rate.sum()
        return -(v @ (np.log(k) + beta * log_n) - k * rate.sum())

    beta = float(optimize.minimize_scalar(nll, bounds=(0.0, 1.5), method="bounded", options={"xatol": 1e-9}).x)
    return HeapsFit(float(v.sum() / np.exp(beta * log_n).sum()), beta)


def type_counts(documents: Sequence[Sequence[str]], order: int = 1) -> np.ndarray:
    """Distinct n-grams (``order`` 1 or 2) per document."""
    if order == 1:
        return np.array([len(set(d)) for d in documents])
    return np.array([len(set(zip(*(d[i:] for i in range(order))))) for d in documents])


# --- distances and tests ------------------------------------------------------------------------


def tvd(counts_a: dict[str, int], counts_b: dict[str, int]) -> float:
    """Total variation distance of two unigram distributions: 0.5 * sum |p - q|."""
    na, nb = sum(counts_a.values()), sum(counts_b.values())
    if na == 0 or nb == 0:
        raise ValueError("TVD of an empty sample")
    keys = set(counts_a) | set(counts_b)
    return 0.5 * sum(abs(counts_a.get(k, 0) / na - counts_b.get(k, 0) / nb) for k in keys)


@dataclass(frozen=True)
class TestResult:
    statistic: float
    pvalue: float
    method: str


def ks_test(a, b) -> TestResult:
    """Two-sample Kolmogorov-Smirnov distance and p-value (scipy)."""
    res = stats.ks_2samp(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    return TestResult(float(res.statistic), float(res.pvalue), "ks_2samp")


def _method(n_resamples: int, n_distinct: float) -> str:
    return "exact" if n_distinct <= n_resamples else f"monte-carlo ({n_resamples})"


def mean_difference_test(a, b, n_resamples: int = 9999, seed: int = 0) -> TestResult:
    """Two-sample permutation test of mean(a) - mean(b), two-sided."""
    from math import comb

    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.size < 1 or b.size < 1:
        raise ValueError("a two-sample test needs at least one value per sample")
    res = stats.permutation_test((a, b), lambda x, y, axis: x.mean(axis) - y.mean(axis), vectorized=True,
                                 n_resamples=n_resamples, rng=np.random.default_rng(seed))
    return TestResult(float(res.statistic), float(res.pvalue), _method(n_resamples, comb(a.size + b.size, a.size)))


def one_sample_test(x, n_resamples: int = 9999, seed: int = 0) -> TestResult:
    """Sign-flip permutation test that the mean of ``x`` (e.g. paired differences) is 0, two-sided."""
    x = np.asarray(x, dtype=np.float64)
    if x.size < 1:
        raise ValueError("a one-sample test needs at least one value")
    res = stats.permutation_test((x,), lambda v, axis: v.mean(axis), permutation_type="samples", vectorized=True,
                                 n_resamples=n_resamples, rng=np.random.default_rng(seed))
    return TestResult(float(res.statistic), float(res.pvalue), _method(n_resamples, 2.0 ** x.size))


def unigram_matrix(documents: Sequence[Sequence[str]]) -> tuple[sparse.csr_matrix, list[str]]:
    """Documents x vocabulary count matrix (sparse) and the vocabulary."""
    vocab: dict[str, int] = {}
    rows, cols = [], []
    for i, doc in enumerate(documents):
        for tok in doc:
            rows.append(i)
            cols.append(vocab.setdefault(tok, len(vocab)))
    data = np.ones(len(rows), dtype=np.float64)
    matrix = sparse.csr_matrix((data, (rows, cols)), shape=(len(documents), len(vocab)))
    matrix.sum_duplicates()
    return matrix, list(vocab)


def tvd_test(docs_a: Sequence[Sequence[str]], docs_b: Sequence[Sequence[str]], n_resamples: int = 999, seed: int = 0) -> TestResult:
    """TVD of the unigram distributions of two document samples, with a permutation test over documents.

    Documents are reassigned between the samples (sizes kept); p = share of permutations with a TVD
    at least the observed one. Each batch of permutations is one sparse matrix product.
    """
    from math import comb

    if not docs_a or not docs_b:
        raise ValueError("a TVD test needs documents in both samples")
    matrix, _ = unigram_matrix(list(docs_a) + list(docs_b))
    n_a = len(docs_a)
    total = np.asarray(matrix.sum(0))

    def batched(idx_a, idx_b, axis):
        single = np.ndim(idx_a) == 1
        idx_a = np.atleast_2d(idx_a).astype(int)
        batch, n = idx_a.shape[0], matrix.shape[0]
        rows = np.repeat(np.arange(batch), idx_a.shape[1])
        pick = sparse.csr_matrix((np.ones(rows.size), (rows, idx_a.ravel())), shape=(batch, n))
        counts_a = np.asarray((pick @ matrix).todense())
        counts_b = total - counts_a
        p = counts_a / counts_a.sum(1, keepdims=True)
        q = counts_b / counts_b.sum(1, keepdims=True)
        result = 0.5 * np.abs(p - q).sum(1)
        return result[0] if single else result

    idx = np.arange(matrix.shape[0])
    res = stats.permutation_test((idx[:n_a], idx[n_a:]), batched, vectorized=True, n_resamples=n_resamples,
                                 alternative="greater", rng=np.random.default_rng(seed), batch=100)
    return TestResult(float(np.squeeze(res.statistic)), float(res.pvalue), _method(n_resamples, comb(idx.size, n_a)))
