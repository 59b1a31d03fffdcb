"""scorers/stats.py: fits recover known parameters, distances by hand, permutation tests calibrated."""

import numpy as np
import pytest

from wordbench.scorers import stats


def test_zipf_mle_recovers_the_exponent():
    rng = np.random.default_rng(0)
    for alpha in (0.9, 1.1, 1.4):
        ranks = rng.choice(np.arange(1, 2001), size=200_000, p=stats._zipf_pmf(alpha, 2000))
        counts = np.bincount(ranks)[1:]
        assert stats.zipf_mle(counts, max_rank=2000) == pytest.approx(alpha, abs=0.01)
        assert stats.zipf_ks(counts, alpha, max_rank=2000) < 0.01


def test_zipf_ks_and_rank_ks_by_hand():
    counts = [6, 3, 1]
    pmf = stats._zipf_pmf(1.0, 3)  # 6/11, 3/11, 2/11
    expected = np.abs(np.cumsum([0.6, 0.3, 0.1]) - np.cumsum(pmf)).max()
    assert stats.zipf_ks(counts, 1.0) == pytest.approx(expected)
    assert stats.rank_ks([6, 3, 1], [5, 5]) == pytest.approx(max(abs(0.6 - 0.5), abs(0.9 - 1.0), 0.0))
    with pytest.raises(ValueError, match="two word types"):
        stats.zipf_mle([5])


def test_heaps_mle_recovers_k_and_beta():
    rng = np.random.default_rng(1)
    lengths = rng.integers(20, 2000, size=3000)
    types = rng.poisson(3.0 * lengths ** 0.7)
    fit = stats.heaps_mle(lengths, types)
    assert fit.beta == pytest.approx(0.7, abs=0.01) and fit.K == pytest.approx(3.0, rel=0.05)
    assert stats.Sample([["a", "b", "a"], ["a", "b", "a", "b"]]).types(order=2).tolist() == [2, 2]


def test_tvd_by_hand_and_its_permutation_test():
    assert stats.tvd({"a": 2, "b": 2}, {"a": 1, "c": 3}) == pytest.approx(0.5 * (0.25 + 0.5 + 0.75))
    same = [["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"]]
    diff = [["c", "d"], ["d", "c"], ["c", "c"], ["d", "d"]]
    res = stats.tvd_test(same, diff, n_resamples=999)
    assert res.statistic == pytest.approx(1.0) and res.method == "exact"
    assert res.pvalue == pytest.approx(2 / 70)  # 8 choose 4 = 70 splits; the observed one and its mirror reach TVD 1


def test_mean_difference_test_exact_by_hand():
    res = stats.mean_difference_test([3.0, 4.0], [1.0, 2.0])
    # 6 splits of {1,2,3,4} into 2+2; |diff| >= 2 for the observed split and its mirror.
    assert res.statistic == 2.0 and res.pvalue == pytest.approx(2 / 6) and res.method == "exact"
    one = stats.one_sample_test([1.0, 2.0, 3.0])
    assert one.pvalue == pytest.approx(2 / 8) and one.method == "exact"


def test_permutation_tests_reject_at_the_nominal_rate_under_the_null():
    rng = np.random.default_rng(2)
    rejections = [stats.mean_difference_test(rng.normal(size=30), rng.normal(size=30), n_resamples=499, seed=s).pvalue < 0.05
                  for s in range(200)]
    assert 0.02 <= np.mean(rejections) <= 0.09


def test_heaps_needs_two_lengths():
    with pytest.raises(ValueError, match="two lengths"):
        stats.heaps_mle([10, 10, 10], [5, 6, 7])
    same = stats.Sample([["a", "b", "a"]] * 4)
    assert np.isnan(stats.describe(same)["heaps_beta"])


def test_heaps_nhpp_ks_by_hand():
    from math import exp

    def poisson_cdf(k, rate):
        term, total = exp(-rate), 0.0
        for i in range(k + 1):
            total += term
            term *= rate / (i + 1)
        return total

    def ks(counts, rate):  # sup over integers k of |F_emp(k) - F_Poisson(k)|
        return max(abs(sum(c <= k for c in counts) / len(counts) - poisson_cdf(k, rate)) for k in range(max(counts) + 1))

    sample = stats.Sample([["a", "b", "a", "c"], ["a", "a", "b", "b"], ["x", "y", "z", "w"]])
    reference = stats.Sample([["a", "b", "c", "d"], ["a", "a", "a", "a"]])
    # types in the first 2 tokens: 2, 1, 2 (reference 2, 1); in the first 4: 3, 2, 4 (reference 4, 1)
    model_fit, ref_fit = stats.HeapsFit(1.0, 0.5), stats.HeapsFit(2.0, 0.25)
    out = stats.heaps_nhpp(sample, reference, model_fit, ref_fit, min_docs=1, grid=[2, 4])
    assert out["lengths"] == [2, 4] and out["docs"] == [3, 3]
    assert out["heaps_ks_nhpp_model"] == pytest.approx([ks([2, 1, 2], 2 ** 0.5), ks([3, 2, 4], 2.0)])
    assert out["heaps_ks_nhpp_ref"] == pytest.approx([ks([2, 1, 2], 2 * 2 ** 0.25), ks([3, 2, 4], 2 * 4 ** 0.25)])
    # k = 1: |1/3 - e^-sqrt2 (1 + sqrt2)| = 0.25361 is the largest gap at n = 2
    assert out["heaps_ks_nhpp_model"][0] == pytest.approx(abs(1 / 3 - exp(-2 ** 0.5) * (1 + 2 ** 0.5)), abs=1e-12)
    # empirical vs empirical: n = 2, {2, 1, 2} vs {2, 1}: gap 1/3 - 1/2 at k = 1; n = 4, {3, 2, 4} vs {4, 1}: gap 1/2 at k = 1
    assert out["heaps_ks_empirical"] == pytest.approx([abs(1 / 3 - 1 / 2), 0.5])


def test_sample_streams_texts_in_chunks():
    texts = ["a b a", "c", "b b d e", "a"]
    chunked, whole = stats.Sample.from_texts(iter(texts), chunk=1), stats.Sample([t.split() for t in texts])
    assert chunked.codes.tolist() == whole.codes.tolist() and chunked.lengths.tolist() == [3, 1, 4, 1]
    assert chunked.docs == [t.split() for t in texts] and chunked.codes.dtype == np.int32
    a, b = stats.Sample([["x", "y"], ["x"]]), stats.Sample([["y", "y"], ["z"]])
    assert stats.sample_unigram_test(a, b, "tvd").pvalue == stats.unigram_test(a.docs, b.docs, "tvd").pvalue


def test_sample_tvd_equals_the_dict_tvd():
    a, b = stats.Sample([["x", "y", "x"], ["z"]]), stats.Sample([["y", "y"], ["w", "x"]])
    assert stats.sample_tvd(a, b) == pytest.approx(stats.tvd({"x": 2, "y": 1, "z": 1}, {"y": 2, "w": 1, "x": 1}))


def test_zeta_normalised_zipf_keeps_the_mass_beyond_the_last_rank():
    """--faithful: the paper's Zipf law is zeta-normalised, so an exact Zipf sample of N ranks is at KS distance
    1 - H(N, alpha) / zeta(alpha) from it (Table 2 never goes below that); the default truncated law fits exactly."""
    from scipy import special

    from wordbench.scorers import stats

    alpha, n = 1.2, 2000
    counts = np.round(1e9 * np.arange(1, n + 1, dtype=np.float64) ** -alpha)
    assert stats.zipf_mle(counts, norm="truncated") == pytest.approx(alpha, abs=1e-3)
    assert stats.zipf_ks(counts, alpha, norm="truncated") < 1e-6
    tail = 1 - (np.arange(1, n + 1, dtype=np.float64) ** -alpha).sum() / special.zeta(alpha, 1)
    assert stats.zipf_ks(counts, alpha, norm="zeta") == pytest.approx(tail, rel=1e-6)
    assert stats.zipf_mle(counts, norm="zeta") > alpha  # the zeta MLE on truncated ranks overestimates alpha


def test_bigram_prefix_of_one_token_holds_no_bigram():
    from wordbench.scorers import stats

    sample = stats.Sample.from_texts(["a b c", "a b", "c"])
    one, two = sample.prefix_types([1, 2], order=2)
    assert one.tolist() == [0, 0, 0] and two.tolist() == [1, 1]


def test_bootstrap_ci_is_scipy_and_equals_the_hand_percentile_bootstrap():
    """scipy.stats.bootstrap replaced a hand-written percentile bootstrap: same seeded resamples, same interval."""
    from wordbench.scorers.stats import bootstrap_ci, proportion_ci

    x = np.random.default_rng(3).random(57)
    rng = np.random.default_rng(0)
    means = x[rng.integers(0, x.size, size=(1000, x.size))].mean(1)
    assert bootstrap_ci(x) == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])), abs=1e-12)
    assert bootstrap_ci([0.25] * 5) == (0.25, 0.25)
    lo, hi = proportion_ci(14, 50)  # Wilson: 0.28 in about [0.175, 0.417]
    assert 0.17 < lo < 0.18 and 0.41 < hi < 0.42 and proportion_ci(0, 0) != proportion_ci(0, 0)


def test_bootstrap_takes_any_statistic_and_paired_samples():
    from scipy import stats as sps

    from wordbench.scorers.stats import bootstrap_ci, paired_difference_ci, spearman

    rng = np.random.default_rng(1)
    x = rng.normal(size=200)
    y = 0.6 * x + rng.normal(size=200)
    # the mean, as before: scipy's percentile interval with the same seed
    want = sps.bootstrap((x,), np.mean, n_resamples=1000, vectorized=True, method="percentile", random_state=np.random.default_rng(0)).confidence_interval
    assert bootstrap_ci(x) == (float(want.low), float(want.high))
    # a correlation: vectorized Spearman equals scipy's, and its interval is resampled by item (pairs kept together)
    assert spearman(x, y) == pytest.approx(sps.spearmanr(x, y).statistic)
    low, high = bootstrap_ci(x, y, statistic=spearman)
    assert low < sps.spearmanr(x, y).statistic < high and 0.2 < low < high < 0.8
    shuffled = bootstrap_ci(x, rng.permutation(y), statistic=spearman)
    assert shuffled[0] < 0 < shuffled[1]
    # the difference of two models on the same items: the paired interval is narrower than resampling them apart
    a, b = x + 0.1, x + rng.normal(scale=0.05, size=200)
    paired = paired_difference_ci(a, b)
    apart = bootstrap_ci(a, b, statistic=lambda p, q, axis=-1: p.mean(axis=axis) - q.mean(axis=axis), paired=False)
    assert paired[0] < np.mean(a - b) < paired[1] and paired[1] - paired[0] < (apart[1] - apart[0]) / 5
    assert all(np.isnan(bootstrap_ci([])))
    assert all(np.isnan(bootstrap_ci(np.ones(5), np.arange(5.0), statistic=spearman)))  # a constant side: no correlation
    with pytest.raises(ValueError, match="different lengths"):
        bootstrap_ci(x, y[:10], statistic=spearman)


def test_a_correlation_cell_is_the_statistic_with_its_paired_interval():
    """The ratings kind's cell (VAST's headline interval too): Pearson equals scipy's, the interval is resampled by item."""
    from scipy import stats as sps

    from wordbench.scorers.kinds import correlation_cell
    from wordbench.scorers.stats import bootstrap_ci, pearson

    rng = np.random.default_rng(2)
    x = rng.normal(size=150)
    y = 0.5 * x + rng.normal(size=150)
    cell = correlation_cell("r", x, y, pearson)
    assert cell["r"] == pytest.approx(sps.pearsonr(x, y).statistic)
    assert cell["r_ci"] == list(bootstrap_ci(x, y, statistic=pearson, paired=True))
    assert cell["r_ci"][0] < cell["r"] < cell["r_ci"][1]
    assert correlation_cell("r", x, 2 * x + 1, pearson)["r_ci"] == pytest.approx([1.0, 1.0])
    assert correlation_cell("r", x[:2], y[:2], pearson) == {"r": None, "r_ci": None}  # no correlation of two items
    assert correlation_cell("r", x, y, pearson, digits=2)["r"] == round(cell["r"], 2)


def test_a_correlation_of_three_items_has_no_interval_rather_than_a_point():
    """Most resamples of three items repeat one item, whose correlation is undefined: no interval, not [r, r]."""
    from wordbench.scorers.kinds import correlation_cell
    from wordbench.scorers.stats import bootstrap_ci, pearson

    x, y = np.array([0.1, 0.5, 0.2]), np.array([1.0, 3.0, 2.5])
    assert all(np.isnan(bootstrap_ci(x, y, statistic=pearson)))
    cell = correlation_cell("r", x, y, pearson, digits=3)
    assert cell == {"r": round(float(pearson(x, y)), 3), "r_ci": None}
