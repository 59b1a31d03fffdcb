"""Two models side by side (``benchmarks/compare.py``) from a results folder: the difference of their headlines with
a paired bootstrap over shared items where the headline is a mean over items, the two intervals' MOVER interval
otherwise, and the items they decide differently, all equal to what the runs' own records give."""

import json
from pathlib import Path

import numpy as np
import pytest

from wordbench.benchmarks import registry
from wordbench.errors import ConfigError

KINDS = Path(__file__).resolve().parent / "kinds"


@pytest.fixture(scope="module")
def board(tiny_models, tmp_path_factory):
    """A results folder of two models' runs of a cloze and a ratings benchmark (tests/kinds)."""
    import sys

    from wordbench.benchmarks.leaderboard import collect
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model

    sys.path.insert(0, str(KINDS))
    import capitals
    import relatedness

    records = registry.REGISTRY._all()
    for b in (capitals.BENCHMARK, relatedness.BENCHMARK):
        if b.name not in records:
            registry.register(b)
    root = tmp_path_factory.mktemp("compare")
    runs = [score(name, load_model(str(tiny_models[m]), device="cpu"), str(KINDS / f"{name}.jsonl"), "test", None, root / "runs",
                  progress=False).path for name in ("capitals", "relatedness") for m in ("gpt2", "llama")]
    collect(runs, root / "results")
    yield root / "results", {r.name: r for r in runs}
    for name in ("capitals", "relatedness"):
        records.pop(name, None)


def _records(folder, bench, model):
    path = next(p for p in (folder / "runs" / bench).rglob("summary.json") if json.loads(p.read_text())["model"]["name"] == model)
    return path, json.loads(path.read_text())


def test_a_mean_headline_is_compared_by_a_paired_bootstrap_over_shared_items(board):
    from wordbench.benchmarks.compare import compare, compare_markdown
    from wordbench.scorers.stats import paired_difference_ci

    folder, runs = board
    got = compare(folder, "capitals", "gpt2", "llama")
    recs = {m: {r["id"]: r for r in _read_records(runs, "capitals", m)} for m in ("gpt2", "llama")}
    ids = sorted(recs["gpt2"])
    a = np.array([1 / recs["gpt2"][i]["rank"] for i in ids])
    b = np.array([1 / recs["llama"][i]["rank"] for i in ids])
    assert got["shared"] == 10 and got["difference"] == pytest.approx(a.mean() - b.mean())
    assert got["interval"] == pytest.approx(paired_difference_ci(a, b)) and got["method"].startswith("paired bootstrap over the 10 items")
    differ = [i for i in ids if recs["gpt2"][i]["rank"] != recs["llama"][i]["rank"]]
    assert got["disagreeing"] == len(differ) and [d["id"] for d in got["disagree"]] == differ
    text = compare_markdown(got)
    assert "| gpt2 |" in text and "gpt2 - llama:" in text and ("excludes 0" in text or "holds 0" in text)


def _read_records(runs, bench, model):
    for path in runs.values():
        summary = json.loads((path / "summary.json").read_text())
        if summary["benchmark"] == bench and summary["model"]["name"] == model:
            return [json.loads(line) for line in (path / "records.jsonl").read_text().splitlines()]
    raise AssertionError((bench, model))


def test_a_correlation_is_compared_from_the_two_intervals(board):
    from wordbench.benchmarks.compare import compare

    folder, _ = board
    got = compare(folder, "relatedness", "gpt2", "llama")
    (a, b) = got["models"]
    assert got["difference"] == pytest.approx(a["value"] - b["value"]) and "MOVER" in got["method"] and "no mean over items" in got["method"]
    d = got["difference"]
    assert got["interval"][0] == pytest.approx(d - np.hypot(a["value"] - a["ci"][0], b["ci"][1] - b["value"]))
    assert got["interval"][1] == pytest.approx(d + np.hypot(a["ci"][1] - a["value"], b["value"] - b["ci"][0]))
    assert got["disagree"] == []  # a correlation decides nothing per item
    with pytest.raises(ConfigError, match="holds no run of relatedness by bert"):
        compare(folder, "relatedness", "gpt2", "bert")


def test_the_app_compares_two_models_and_refuses_in_one_line(board, tmp_path):
    from wordbench.benchmarks.app import Leaderboard

    folder, _ = board
    lb = Leaderboard(str(tmp_path / "queue"), str(folder))
    assert lb.model_names() == ["gpt2", "llama"]
    text = lb.compare("capitals", "gpt2", "llama")
    assert text.startswith("### capitals: MRR") and "paired bootstrap" in text
    assert lb.compare("capitals", "gpt2", "gpt2") == "Pick two different models."
    assert lb.compare(None, "gpt2", "llama") == "Pick a benchmark and two models."
    refused = lb.compare("capitals", "gpt2", "<script>x</script>")
    assert refused.startswith("**No comparison:**") and "<script>" not in refused and "\n" not in refused
    empty = Leaderboard(str(tmp_path / "queue"), str(tmp_path / "none"))
    assert empty.model_names() == [] and empty.compare("capitals", "a", "b") == "No run published yet."


def test_the_comparison_escapes_what_a_submitter_typed():
    from wordbench.benchmarks.compare import compare_markdown

    text = compare_markdown({"benchmark": "capitals", "label": "MRR", "models": [
        {"name": "<img src=x onerror=alert(1)>", "value": 0.5, "ci": (0.4, 0.6)}, {"name": "b|c", "value": 0.4, "ci": (0.3, 0.5)}],
        "difference": 0.1, "interval": (0.0, 0.2), "method": "m", "shared": 1, "disagreeing": 1,
        "disagree": [{"id": "<b>i</b>", "<img src=x onerror=alert(1)>": 1, "b|c": 2}]})
    assert "<img" not in text and "<b>" not in text and "| b|c |" not in text
