"""Statistics of text samples (Meister & Cotterell 2021): Zipf and Heaps fits, KS, TVD, permutation tests.

Pure numpy/scipy, vectorized. Permutation tests go through ``scipy.stats.permutation_test`` with
vectorized statistics: exact when the number of distinct permutations is at most ``n_resamples``,
Monte Carlo (seeded) otherwise.
"""

from __future__ import annotations

import functools
import re
import warnings
from dataclasses import dataclass
from itertools import islice
from typing import Iterable, Sequence

import numpy as np
from scipy import optimize, sparse, special, stats

from wordbench.builders.sources.stopwords import NLTK_STOPWORDS

ZIPF_RANKS = 10_000  # the paper fits Zipf's law on the first 10,000 ranks


# --- Zipf ---------------------------------------------------------------------------------------


def rank_frequencies(counts, max_rank: int = ZIPF_RANKS) -> np.ndarray:
    """Counts sorted by decreasing frequency, truncated to ``max_rank`` ranks."""
    values = np.sort(np.asarray(list(counts.values()) if isinstance(counts, dict) else counts, dtype=np.float64))[::-1]
    values = values[values > 0][:max_rank]
    if values.size < 2:
        raise ValueError("a Zipf fit needs at least two word types")
    return values


ZIPF_NORMS = ("truncated", "zeta")


def _zipf_pmf(alpha: float, n_ranks: int, norm: str = "truncated") -> np.ndarray:
    """Zipf(alpha) on ranks 1..N: renormalised over those ranks (``truncated``), or the untruncated law's
    probabilities r^-alpha / zeta(alpha) (``zeta``, Clauset et al.'s Appendix B; they sum to less than 1)."""
    weights = np.arange(1, n_ranks + 1, dtype=np.float64) ** -alpha
    return weights / (weights.sum() if norm == "truncated" else special.zeta(alpha, 1))


def zipf_mle(counts, max_rank: int = ZIPF_RANKS, norm: str = "truncated") -> float:
    """MLE of the exponent of a discrete power law from the tokens of the first N ranks (Clauset et al. 2009).

    ``truncated`` (default): P(r) = r^-alpha / H(N, alpha), the law restricted to the ranks observed.
    ``zeta`` (the paper, ``--faithful``): P(r) = r^-alpha / zeta(alpha), the untruncated law (alpha > 1).
    """
    if norm not in ZIPF_NORMS:
        raise ValueError(f"norm must be one of {ZIPF_NORMS}")
    freq = rank_frequencies(counts, max_rank)
    log_r = np.log(np.arange(1, freq.size + 1))
    total, weighted = freq.sum(), freq @ log_r

    def nll(alpha):
        log_norm = np.log(np.exp(-alpha * log_r).sum()) if norm == "truncated" else np.log(special.zeta(alpha, 1))
        return alpha * weighted + total * log_norm

    low = 1e-3 if norm == "truncated" else 1.0 + 1e-6
    return float(optimize.minimize_scalar(nll, bounds=(low, 10.0), method="bounded", options={"xatol": 1e-8}).x)


def zipf_ks(counts, alpha: float, max_rank: int = ZIPF_RANKS, norm: str = "truncated") -> float:
    """KS distance between the empirical rank distribution (first N ranks) and Zipf(alpha) on the same ranks
    (``zeta``: the untruncated law's cdf, which stays below 1 at rank N, as the paper's Table 2 implies)."""
    freq = rank_frequencies(counts, max_rank)
    return float(np.abs(np.cumsum(freq / freq.sum()) - np.cumsum(_zipf_pmf(alpha, freq.size, norm))).max())


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
    if n.min() == n.max():
        raise ValueError("a Heaps fit needs documents of at least two lengths (beta is not identified otherwise)")
    log_n = np.log(n)

    def nll(beta):
        rate = np.exp(beta * log_n)
        k = v.sum() / rate.sum()
        return -(v @ (np.log(k) + beta * log_n) - k * rate.sum())

    beta = float(optimize.minimize_scalar(nll, bounds=(0.0, 1.5), method="bounded", options={"xatol": 1e-9}).x)
    return HeapsFit(float(v.sum() / np.exp(beta * log_n).sum()), beta)


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
    with warnings.catch_warnings():  # ties make the exact method fall back to the asymptotic one; that is fine
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.ks_2samp(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    return TestResult(float(res.statistic), float(res.pvalue), "ks_2samp")


def _method(n_resamples: int, n_distinct: float) -> str:
    return "exact" if n_distinct <= n_resamples else f"monte-carlo ({n_resamples})"


def _batch(values: int, cells: float = 2e7) -> int:
    """Permutations per vectorized batch so that a batch holds at most ``cells`` values (bounded memory)."""
    return int(max(1, cells // max(values, 1)))


def mean_difference_test(a, b, n_resamples: int = 9999, seed: int = 0, alternative: str = "two-sided") -> TestResult:
    """Two-sample permutation test of mean(a) - mean(b) (``alternative``: two-sided, greater or less)."""
    from math import comb

    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.size < 1 or b.size < 1:
        raise ValueError("a two-sample test needs at least one value per sample")
    res = stats.permutation_test((a, b), lambda x, y, axis: x.mean(axis) - y.mean(axis), vectorized=True,
                                 n_resamples=n_resamples, rng=np.random.default_rng(seed), alternative=alternative,
                                 batch=_batch(a.size + b.size))
    return TestResult(float(res.statistic), float(res.pvalue), _method(n_resamples, comb(a.size + b.size, a.size)))


def one_sample_test(x, n_resamples: int = 9999, seed: int = 0) -> TestResult:
    """Sign-flip permutation test that the mean of ``x`` (e.g. paired differences) is 0, two-sided."""
    x = np.asarray(x, dtype=np.float64)
    if x.size < 1:
        raise ValueError("a one-sample test needs at least one value")
    res = stats.permutation_test((x,), lambda v, axis: v.mean(axis), permutation_type="samples", vectorized=True,
                                 n_resamples=n_resamples, rng=np.random.default_rng(seed), batch=_batch(x.size))
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


def _rank_ks_rows(p: np.ndarray, q: np.ndarray, max_rank: int = ZIPF_RANKS) -> np.ndarray:
    """Row-wise KS distance of the rank-frequency distributions of count rows ``p`` and ``q``."""
    def ranked(m):
        m = -np.sort(-m, axis=1)[:, :max_rank]
        return np.cumsum(m / m.sum(1, keepdims=True), 1)

    return np.abs(ranked(p) - ranked(q)).max(1)


UNIGRAM_STATISTICS = {
    "tvd": lambda a, b: 0.5 * np.abs(a / a.sum(1, keepdims=True) - b / b.sum(1, keepdims=True)).sum(1),
    "rank_ks": _rank_ks_rows,
}


def unigram_test(docs_a: Sequence[Sequence[str]], docs_b: Sequence[Sequence[str]], statistic: str = "tvd",
                 n_resamples: int = 999, seed: int = 0) -> TestResult:
    """A distance of two samples' unigram distributions with a permutation test over documents.

    ``statistic`` is ``tvd`` (total variation distance) or ``rank_ks`` (KS distance of the rank-frequency
    distributions). Documents are reassigned between the samples (sizes kept); p = share of
    permutations with a distance at least the observed one. Each batch of permutations is one
    sparse matrix product.
    """
    if not docs_a or not docs_b:
        raise ValueError("a unigram test needs documents in both samples")
    matrix, _ = unigram_matrix(list(docs_a) + list(docs_b))
    return _unigram_permutation(matrix, len(docs_a), statistic, n_resamples, seed)


def sample_unigram_test(a: "Sample", b: "Sample", statistic: str = "tvd", n_resamples: int = 999, seed: int = 0) -> TestResult:
    """``unigram_test`` of two ``Sample``s, the count matrix built from their codes (no token lists)."""
    index, b_to_a = _union_vocab(a, b)
    # tokens are stored document by document, so the CSR row pointers are the cumulative lengths
    indptr = np.concatenate([[0], np.cumsum(np.concatenate([a.lengths, b.lengths]))])
    indices = np.concatenate([a.codes, b_to_a.astype(np.int32)[b.codes]])
    matrix = sparse.csr_matrix((np.ones(indices.size, dtype=np.float32), indices, indptr),
                               shape=(len(a.lengths) + len(b.lengths), len(index)))
    matrix.sum_duplicates()  # float32 counts are exact up to 2^24 per cell
    return _unigram_permutation(matrix, len(a.lengths), statistic, n_resamples, seed)


def _union_vocab(a: "Sample", b: "Sample") -> tuple[dict[str, int], np.ndarray]:
    """The union vocabulary (a's ids first) and the id in it of each of b's word ids."""
    index = dict(a.vocab)
    return index, np.array([index.setdefault(w, len(index)) for w in b.vocab], dtype=np.int64)


def sample_tvd(a: "Sample", b: "Sample") -> float:
    """``tvd`` of two samples' unigram distributions, on their count arrays (order-independent, vectorized)."""
    index, b_to_a = _union_vocab(a, b)
    p, q = np.zeros(len(index)), np.zeros(len(index))
    p[: len(a.vocab)] = a.counts
    np.add.at(q, b_to_a, b.counts)
    return float(UNIGRAM_STATISTICS["tvd"](p[None], q[None])[0])


def _unigram_permutation(matrix: sparse.csr_matrix, n_a: int, statistic: str, n_resamples: int, seed: int) -> TestResult:
    from math import comb

    distance = UNIGRAM_STATISTICS[statistic]
    if matrix.nnz == 0 or min(matrix[:n_a].nnz, matrix[n_a:].nnz) == 0:
        raise ValueError("a unigram test needs tokens in both samples")
    total = np.asarray(matrix.sum(0, dtype=np.float64))
    # permutations per batch: the dense batch x vocabulary counts and the batch's picks stay under ~2e7 cells
    batch_size = min(100, _batch(matrix.shape[1]), _batch(n_a))

    def batched(idx_a, idx_b, axis):
        single = np.ndim(idx_a) == 1
        idx_a = np.atleast_2d(idx_a).astype(int)
        batch, n = idx_a.shape[0], matrix.shape[0]
        indptr = np.arange(0, batch * idx_a.shape[1] + 1, idx_a.shape[1])
        pick = sparse.csr_matrix((np.ones(idx_a.size, dtype=np.float32), idx_a.ravel(), indptr), shape=(batch, n))
        counts_a = (pick @ matrix).toarray().astype(np.float64)
        result = distance(counts_a, total - counts_a)
        return result[0] if single else result

    idx = np.arange(matrix.shape[0])
    res = stats.permutation_test((idx[:n_a], idx[n_a:]), batched, vectorized=True, n_resamples=n_resamples,
                                 alternative="greater", rng=np.random.default_rng(seed), batch=batch_size)
    return TestResult(float(np.squeeze(res.statistic)), float(res.pvalue), _method(n_resamples, comb(idx.size, n_a)))


def tvd_test(docs_a, docs_b, n_resamples: int = 999, seed: int = 0) -> TestResult:
    """TVD of two samples' unigram distributions with a document permutation test (``unigram_test``)."""
    return unigram_test(docs_a, docs_b, "tvd", n_resamples, seed)


# --- samples of documents: per-document quantities and the paper's comparisons ------------------

STOPWORDS = NLTK_STOPWORDS  # NLTK's English stopword list, 179 words (written out once, in builders.sources.stopwords)
_LETTER = re.compile(r"[^\W\d_]")


def is_symbol(token: str) -> bool:
    """A token made only of punctuation, symbols or digits (no letter)."""
    return _LETTER.search(token) is None


class Sample:
    """Documents (lists of whitespace tokens) with the per-document quantities the statistics read.

    Tokens are coded once into integer ids (``codes``, with ``doc_of`` giving each token's document),
    so that type counts of prefixes, stopword and symbol shares are array operations. The token lists
    are not kept: ``Sample.from_texts`` reads whitespace-tokenized texts from any iterable (a file) in
    chunks, so memory is the int32 code arrays, not Python strings.
    """

    def __init__(self, documents: Iterable[Sequence[str]], chunk: int = 100_000):
        self.vocab: dict[str, int] = {}
        codes, lengths = [], []
        for part in _chunks(documents, chunk):
            lengths.append(np.fromiter((len(d) for d in part), np.int64, len(part)))
            total = int(lengths[-1].sum())
            codes.append(np.fromiter((self.vocab.setdefault(t, len(self.vocab)) for d in part for t in d), np.int32, total))
        self.lengths = np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int64)
        if self.lengths.size < 2:
            raise ValueError(f"a sample needs at least 2 documents, got {self.lengths.size}")
        if self.lengths.sum() == 0:
            raise ValueError("every document of the sample is empty")
        self.codes = np.concatenate(codes)
        self._new_types: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    @classmethod
    def from_texts(cls, texts: Iterable[str], chunk: int = 100_000) -> "Sample":
        """A sample of whitespace-tokenized texts (e.g. the lines of a samples file), read in chunks."""
        return cls((t.split() for t in texts), chunk)

    @property
    def docs(self) -> list[list[str]]:
        """The token lists, rebuilt from the codes (for small samples)."""
        words = np.array(list(self.vocab), dtype=object)
        return [list(d) for d in np.split(words[self.codes], np.cumsum(self.lengths)[:-1])]

    @functools.cached_property
    def doc_of(self) -> np.ndarray:
        """The document of each token."""
        return np.repeat(np.arange(self.lengths.size, dtype=np.int64), self.lengths)

    @functools.cached_property
    def counts(self) -> np.ndarray:
        """Token count per vocabulary id."""
        return np.bincount(self.codes, minlength=len(self.vocab))

    def _share(self, flags: np.ndarray) -> np.ndarray:
        """Per document, the share of its tokens with ``flags`` set (NaN for an empty document)."""
        hits = np.bincount(self.doc_of, weights=flags[self.codes].astype(np.float64), minlength=self.lengths.size)
        with np.errstate(invalid="ignore", divide="ignore"):
            return hits / self.lengths

    @functools.cached_property
    def heaps_fit(self) -> HeapsFit | None:
        """The Heaps / NHPP fit on the non-empty documents (fitted once: a reference is compared many times);
        None when beta is not identified."""
        positive = self.lengths > 0
        lengths = self.lengths[positive]
        if lengths.size < 2 or lengths.min() == lengths.max():
            return None
        return heaps_mle(lengths, self.types()[positive])

    @functools.cached_property
    def stopword_share(self) -> np.ndarray:
        return self._share(np.array([w in STOPWORDS for w in self.vocab], dtype=bool))

    @functools.cached_property
    def symbol_share(self) -> np.ndarray:
        return self._share(np.array([is_symbol(w) for w in self.vocab], dtype=bool))

    def new_type_flags(self, order: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """For each n-gram position, whether it is the first occurrence of its type in its document, and that document.

        Cached per order: a reference is compared with many samples.
        """
        if order not in self._new_types:
            self._new_types[order] = self._first_occurrences(order)
        return self._new_types[order]

    def _first_occurrences(self, order: int) -> tuple[np.ndarray, np.ndarray]:
        if order == 1:
            keys = self.doc_of * len(self.vocab) + self.codes
            doc_of = self.doc_of
        else:
            same_doc = self.doc_of[:-1] == self.doc_of[1:]
            v = np.int64(len(self.vocab))
            keys = (self.doc_of[:-1] * v + self.codes[:-1]) * v + self.codes[1:]
            keys, doc_of = keys[same_doc], self.doc_of[:-1][same_doc]
        flags = np.zeros(keys.size, dtype=bool)
        flags[np.unique(keys, return_index=True)[1]] = True
        return flags, doc_of

    def prefix_types(self, grid: Sequence[int], order: int = 1) -> list[np.ndarray]:
        """For each n in ``grid``, the number of distinct n-grams in the first n tokens of every document of length >= n."""
        flags, doc_of = self.new_type_flags(order)
        cumulative = np.cumsum(flags)
        grams = np.maximum(self.lengths - (order - 1), 0)
        gram_starts = np.concatenate([[0], np.cumsum(grams)[:-1]])
        before = np.where(gram_starts > 0, cumulative[np.maximum(gram_starts - 1, 0)], 0)
        out = []
        for n in grid:
            if n < order:  # no n-gram fits in a shorter prefix
                out.append(np.zeros(int((self.lengths >= n).sum()), dtype=np.int64))
                continue
            docs = np.flatnonzero(self.lengths >= n)
            at = gram_starts[docs] + n - order  # index of the last n-gram inside the prefix
            out.append(cumulative[at] - before[docs] if docs.size else np.zeros(0, dtype=np.int64))
        return out

    def types(self, order: int = 1) -> np.ndarray:
        """Distinct words (``order`` 2: bigrams) per document."""
        flags, doc_of = self.new_type_flags(order)
        return np.bincount(doc_of, weights=flags, minlength=self.lengths.size).astype(np.int64)


def _chunks(items: Iterable, size: int):
    it = iter(items)
    while part := list(islice(it, size)):
        yield part


def length_grid(max_length: int, points: int = 40) -> np.ndarray:
    """Log-spaced document lengths 1..max_length (distinct integers) for type-token curves."""
    return np.unique(np.round(np.geomspace(1, max(max_length, 1), points)).astype(np.int64))


def heaps_ks(sample: Sample, reference: Sample, min_docs: int = 5, order: int = 1) -> tuple[float, int]:
    """Mean KS distance between the type counts of document prefixes of the same length, and the number of lengths.

    At each length n of a log-spaced grid, the number of distinct n-grams in the first n tokens of
    every document at least n long is compared between the samples; lengths where either sample
    has fewer than ``min_docs`` documents are skipped. (nan, 0) when no length qualifies.
    """
    grid = length_grid(int(min(sample.lengths.max(), reference.lengths.max())))
    grid = grid[grid >= order]  # shorter prefixes hold no n-gram: a distance of 0 there would say nothing
    distances = [ks_test(a, b).statistic for a, b in zip(sample.prefix_types(grid, order), reference.prefix_types(grid, order))
                 if a.size >= min_docs and b.size >= min_docs]
    return (float(np.mean(distances)) if distances else float("nan")), len(distances)


def poisson_ks(counts, rate: float) -> float:
    """KS distance between the empirical cdf of integer ``counts`` and the Poisson(``rate``) cdf.

    Both are step functions jumping at integers, so the supremum is the maximum over k = 0..max(counts)
    (above it the empirical cdf is 1 and the gap 1 - F(k) only shrinks).
    """
    counts = np.sort(np.asarray(counts, dtype=np.int64))
    if counts.size == 0:
        raise ValueError("a KS distance needs at least one value")
    k = np.arange(int(counts[-1]) + 1)
    empirical = np.searchsorted(counts, k, side="right") / counts.size
    return float(np.abs(empirical - stats.poisson.cdf(k, rate)).max())


HEAPS_NHPP = ("heaps_ks_nhpp_model", "heaps_ks_nhpp_ref", "heaps_ks_empirical")


def heaps_nhpp(sample: Sample, reference: Sample, fit_sample: HeapsFit, fit_reference: HeapsFit,
               min_docs: int = 5, grid: Sequence[int] | None = None) -> dict[str, list]:
    """The paper's Heaps distances per length n (Figure 4): the types in the first n tokens of each sample
    document at least n long, against the NHPP with Heaps' rate K n^beta fitted on the sample
    (``heaps_ks_nhpp_model``, D(p_hat, p_theta_model)), on the reference (``heaps_ks_nhpp_ref``) and against the
    reference's empirical counts at n (``heaps_ks_empirical``, two-sample KS). Lengths where either
    sample has fewer than ``min_docs`` documents are left out."""
    if grid is None:
        grid = length_grid(int(min(sample.lengths.max(), reference.lengths.max())))
    out: dict[str, list] = {"lengths": [], "docs": [], **{k: [] for k in HEAPS_NHPP}}
    for n, a, b in zip(grid, sample.prefix_types(grid), reference.prefix_types(grid)):
        if a.size < min_docs or b.size < min_docs:
            continue
        out["lengths"].append(int(n))
        out["docs"].append(int(a.size))
        out["heaps_ks_nhpp_model"].append(poisson_ks(a, float(fit_sample.expected_types(n))))
        out["heaps_ks_nhpp_ref"].append(poisson_ks(a, float(fit_reference.expected_types(n))))
        out["heaps_ks_empirical"].append(ks_test(a, b).statistic)
    return out


PER_DOCUMENT = ("length", "stopwords", "symbols")


def per_document(sample: Sample) -> dict[str, np.ndarray]:
    """Length, stopword share and symbol share of each document (empty documents have no shares)."""
    stop, sym = sample.stopword_share, sample.symbol_share
    return {"length": sample.lengths.astype(np.float64), "stopwords": stop[np.isfinite(stop)], "symbols": sym[np.isfinite(sym)]}


def describe(sample: Sample, max_rank: int = ZIPF_RANKS, zipf_norm: str = "truncated") -> dict[str, float]:
    """Statistics of one sample: size, Zipf exponent and fit, Heaps fit, mean length / stopword / symbol share."""
    alpha = zipf_mle(sample.counts, max_rank, zipf_norm)
    heaps = sample.heaps_fit
    means = {f"{k}_mean": float(v.mean()) if v.size else float("nan") for k, v in per_document(sample).items()}
    return {
        "documents": int(sample.lengths.size), "tokens": int(sample.lengths.sum()), "types": int((sample.counts > 0).sum()),
        "zipf_alpha": alpha, "zipf_ks": zipf_ks(sample.counts, alpha, max_rank, zipf_norm),
        "heaps_K": heaps.K if heaps else float("nan"), "heaps_beta": heaps.beta if heaps else float("nan"),
        **means,
    }


def compare(sample: Sample, reference: Sample, tests: bool = True, n_resamples: int = 999, seed: int = 0,
            max_rank: int = ZIPF_RANKS, order: int = 1, zipf_norm: str = "truncated") -> dict[str, float]:
    """Distances of ``sample`` to ``reference`` (the paper's Tables 2-3 and App. D), with p-values when ``tests``.

    Zipf: KS of the sample's rank-frequency distribution to Zipf(alpha_sample), to Zipf(alpha_reference)
    and to the reference's empirical one. Heaps: mean KS of prefix type counts per length. Unigrams:
    TVD. Per document (length, stopword share, symbol share): two-sample KS, and the difference in
    means. ``*_p`` are permutation p-values over documents (KS distances: scipy's ks_2samp p).
    """
    out = describe(sample, max_rank, zipf_norm)
    ref_alpha = zipf_mle(reference.counts, max_rank, zipf_norm)
    out["zipf_ks_ref_alpha"] = zipf_ks(sample.counts, ref_alpha, max_rank, zipf_norm)
    out["rank_ks"] = rank_ks(sample.counts, reference.counts, max_rank)
    out["heaps_ks"], out["heaps_lengths"] = heaps_ks(sample, reference, order=order)
    if np.isfinite(out["heaps_beta"]):
        ref_fit = reference.heaps_fit
        if ref_fit is not None:
            curves = heaps_nhpp(sample, reference, HeapsFit(out["heaps_K"], out["heaps_beta"]), ref_fit)
            for key in HEAPS_NHPP:  # the table's value: the mean over the lengths of Figure 4
                out[key] = float(np.mean(curves[key])) if curves[key] else float("nan")
            out["heaps_nhpp"] = curves
    out["tvd"] = sample_tvd(sample, reference)
    if tests:
        out["rank_ks_p"] = sample_unigram_test(sample, reference, "rank_ks", n_resamples, seed).pvalue
        out["tvd_p"] = sample_unigram_test(sample, reference, "tvd", n_resamples, seed).pvalue
    ref_values = per_document(reference)
    for name, values in per_document(sample).items():
        if values.size == 0 or ref_values[name].size == 0:
            out[f"{name}_ks"] = out[f"{name}_diff"] = float("nan")
            continue
        ks = ks_test(values, ref_values[name])
        out[f"{name}_ks"] = ks.statistic
        out[f"{name}_diff"] = float(values.mean() - ref_values[name].mean())
        if tests:
            out[f"{name}_ks_p"] = ks.pvalue
            out[f"{name}_diff_p"] = mean_difference_test(values, ref_values[name], n_resamples, seed).pvalue
    return out


def null_rejection_rates(documents: Sequence[Sequence[str]], size: int, repeats: int = 100, alpha: float = 0.05,
                         n_resamples: int = 199, seed: int = 0) -> dict[str, float]:
    """Calibration of the tests: the share of p < ``alpha`` over ``repeats`` pairs of disjoint random samples
    of ``size`` documents each from the same pool. A calibrated test rejects at about ``alpha``."""
    if 2 * size > len(documents):
        raise ValueError(f"two disjoint samples of {size} need {2 * size} documents; the pool has {len(documents)}")
    rng = np.random.default_rng(seed)
    rejected: dict[str, list[bool]] = {}
    for r in range(repeats):
        pick = rng.permutation(len(documents))[: 2 * size]
        a, b = Sample([documents[i] for i in pick[:size]]), Sample([documents[i] for i in pick[size:]])
        result = compare(a, b, tests=True, n_resamples=n_resamples, seed=seed + r)
        for key, value in result.items():
            if key.endswith("_p"):
                rejected.setdefault(key, []).append(value < alpha)
    return {key: float(np.mean(v)) for key, v in rejected.items()}


def bootstrap_ci(*samples, statistic=None, paired: bool | None = None, n_resamples: int = 1000, seed: int = 0,
                 level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic(*samples, axis=-1)`` (``scipy.stats.bootstrap``, seeded; resampled
    in batches so memory stays ~16 MB). Default: the mean of one sample. ``statistic`` takes the samples and an
    ``axis`` (vectorized, as numpy's reductions and ``spearman`` do). Several samples of one length are resampled
    together (``paired``, the default for them: one item's values stay together, e.g. a model's score and a human
    rating of the same word); ``paired=False`` resamples each on its own (two groups). (nan, nan) for an empty
    sample; a statistic that every resample gives alike is its value."""
    xs = tuple(np.asarray(x, dtype=float) for x in samples)
    if not xs or any(x.size == 0 for x in xs):
        return float("nan"), float("nan")
    if statistic is None:
        if len(xs) != 1:
            raise ValueError("give a statistic for several samples")
        statistic = np.mean
        if np.all(xs[0] == xs[0][0]):  # every resample has the same mean (scipy warns on such data)
            return float(xs[0][0]), float(xs[0][0])
    paired = len(xs) > 1 if paired is None else paired
    if paired and len({x.size for x in xs}) != 1:
        raise ValueError(f"paired samples of different lengths: {[x.size for x in xs]}")
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns where resamples are degenerate (a constant sample's correlation)
        value = float(statistic(*xs, axis=-1))
        ci = stats.bootstrap(xs, statistic, n_resamples=n_resamples, batch=max(1, 2_000_000 // max(x.size for x in xs)), vectorized=True,
                             paired=paired, method="percentile", confidence_level=level,
                             random_state=np.random.default_rng(seed)).confidence_interval
    if not (np.isfinite(ci.low) and np.isfinite(ci.high)):  # resamples without a statistic (a correlation of three
        return float("nan"), float("nan")  # items often draws one item thrice): no interval, rather than a false point
    return float(ci.low), float(ci.high)


def paired_difference_ci(a, b, statistic=np.mean, n_resamples: int = 1000, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Interval of ``statistic(a) - statistic(b)`` for per-item values of two models on the same items (a paired
    bootstrap: each resample draws the same items for both)."""
    return bootstrap_ci(a, b, statistic=lambda x, y, axis=-1: statistic(x, axis=axis) - statistic(y, axis=axis), paired=True,
                        n_resamples=n_resamples, seed=seed, level=level)


def pearson(x, y, axis: int = -1):
    """Pearson's r along ``axis`` (vectorized over resamples, for ``bootstrap_ci``)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    x = x - x.mean(axis=axis, keepdims=True)
    y = y - y.mean(axis=axis, keepdims=True)
    return (x * y).sum(axis=axis) / np.sqrt((x**2).sum(axis=axis) * (y**2).sum(axis=axis))


def spearman(x, y, axis: int = -1):
    """Spearman's rho along ``axis`` (vectorized over resamples, for ``bootstrap_ci``): Pearson's r of the ranks."""
    return pearson(stats.rankdata(x, axis=axis), stats.rankdata(y, axis=axis), axis=axis)


def proportion_ci(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``scipy.stats.binomtest``); (nan, nan) without trials."""
    if n == 0:
        return float("nan"), float("nan")
    ci = stats.binomtest(int(successes), int(n)).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)


def finite_argmax(values) -> int | None:
    """The index of the largest finite value (None: none is finite, e.g. a constant column at every layer)."""
    values = np.asarray(values, dtype=np.float64)
    return int(np.nanargmax(np.where(np.isfinite(values), values, np.nan))) if np.isfinite(values).any() else None
