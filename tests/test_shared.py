"""Shared mechanisms: the one --faithful switch and the stratified --limit rule."""

from collections import Counter

import pytest

from wordbench.benchmarks.registry import REGISTRY, get
from wordbench.benchmarks.runner import stratified_sample
from wordbench.builders.base import parse_bool, parse_overrides
from wordbench.errors import ConfigError


def test_every_benchmark_takes_the_faithful_switch():
    for name, bench in REGISTRY.items():
        assert bench.paper, name
        assert parse_overrides(bench.builder().Config, ["faithful=true"]).faithful is True
        scorer = bench.scorer(faithful=True)
        assert scorer.faithful and scorer.given_options["faithful"] is True
        assert scorer.signature_settings()["faithful"] == bench.paper
        assert "faithful" not in bench.scorer().signature_settings()


def test_faithful_is_a_strict_boolean():
    assert parse_bool("x", "TRUE") is True and parse_bool("x", "no") is False
    with pytest.raises(ConfigError, match="'faithful' expects true or false, got 'flase'"):
        get("wnlampro").scorer(faithful="flase")


def test_dudy2020_is_the_former_name_of_faithful():
    assert get("wordpred").scorer(dudy2020=True).signature_settings()["faithful"] == "dudy2020"


def _rows(sizes: dict[str, int]):
    return [{"id": f"{s}-{i:03d}", "cell": s} for s, n in sizes.items() for i in range(n)]


class _ByCell:
    def stratum(self, row):
        return row["cell"]

    def sample_unit(self, row):
        return row["id"]

    def always_keep(self, row):
        return row["cell"] == "polar"


def test_stratified_limit_fills_small_cells_first():
    rows = _rows({"a": 500, "b": 500, "c": 7, "d": 30})
    sample = stratified_sample(rows, 100, seed=0, scorer=_ByCell())
    counts = Counter(r["cell"] for r in sample)
    # c is taken whole; the other three share the remaining 93 as evenly as their sizes allow.
    assert counts == {"c": 7, "d": 30, "a": 31, "b": 32}
    assert [r["id"] for r in sample] == [r["id"] for r in rows if r in sample]  # dataset order kept
    assert sample == stratified_sample(rows, 100, seed=0, scorer=_ByCell())
    assert sample != stratified_sample(rows, 100, seed=1, scorer=_ByCell())


def test_stratified_limit_always_keeps_required_rows():
    rows = _rows({"a": 50, "polar": 5})
    sample = stratified_sample(rows, 3, seed=0, scorer=_ByCell())
    assert Counter(r["cell"] for r in sample) == {"a": 3, "polar": 5}


def test_limit_larger_than_the_data_keeps_everything():
    rows = _rows({"a": 5, "b": 2})
    assert stratified_sample(rows, 100, scorer=_ByCell()) == rows
