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
