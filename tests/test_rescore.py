"""Scores re-derived without the model: a run rescored at a newer metric version equals a fresh scoring of the same
model on the same items at that version; records that cannot give the new metrics are refused in one line."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from board_fixture import same_records

from wordbench.errors import ConfigError


def _median_rank(records):
    return statistics.median(r["rank"] or 10**6 for r in records)


def test_rescore_equals_a_fresh_scoring_at_the_new_metric_version(tiny_models, wnlampro_build, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli
    from wordbench.benchmarks.rescore import metric_version, rescore
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model
    from wordbench.scorers.wnlampro import WNLaMProScorer

    model = load_model(str(tiny_models["gpt2"]), device="cpu")
    old = score("wnlampro", model, None, "test", 60, tmp_path / "runs", progress=False)
    with pytest.raises(ConfigError, match="already at wnlampro's metric version 1; nothing to re-derive"):
        rescore(old.path)
    from wordbench.benchmarks.ranking import board
    from wordbench.benchmarks.leaderboard import collect

    collect([old.path], tmp_path / "results")  # published at version 1

    summarize = WNLaMProScorer.summarize  # version 2 adds a statistic
    monkeypatch.setattr(WNLaMProScorer, "metric_version", 2)
    monkeypatch.setattr(WNLaMProScorer, "summarize", lambda self, records: {**summarize(self, records),
                                                                            "median_rank": _median_rank(records)})
    result = CliRunner().invoke(cli, ["rescore", str(old.path), "--publish", str(tmp_path / "results")])
    assert result.exit_code == 0, result.output
    assert "published 1 re-derived run(s) to" in result.output
    new_path = Path(next(line for line in result.output.splitlines() if " -> " in line).split(" -> ")[1])
    assert new_path.parent == old.path.parent  # beside the run it came from
    new = json.loads((new_path / "summary.json").read_text())
    fresh = score("wnlampro", model, None, "test", 60, tmp_path / "fresh", progress=False).summary()
    assert new["signature"] == fresh["signature"] and metric_version(new["signature"]) == 2 and "|metrics:v2|" in new["signature"]
    assert same_records([{"id": 0, **new["metrics"]}], [{"id": 0, **fresh["metrics"]}]) and "median_rank" in new["metrics"]
    old_summary = old.summary()
    assert new["rescored"]["from"] == old_summary["signature"] and new["rescored"]["from_metric_version"] == 1
    assert "metrics:" not in old_summary["signature"]  # version 1 signatures are as they were
    assert "the model was not run again" in (new_path / "report.md").read_text()
    with pytest.raises(ConfigError, match="already at wnlampro's metric version 2"):
        rescore(new_path)
    # the leaderboard shows the re-derived run in place of the one it came from (no model, no GPU)
    names, rows = board(tmp_path / "results")
    assert len(rows) == 1 and rows[0]["cells"]["wnlampro"]["report"].startswith(f"runs/wnlampro/gpt2/{new_path.name}/")
    again = CliRunner().invoke(cli, ["rescore", str(old.path), str(new_path)])  # the whole runs folder: the stale one only
    assert again.exit_code == 0 and "passed over" in again.output

    # version 3 needs a field the stored records never had: one line, nothing written
    monkeypatch.setattr(WNLaMProScorer, "metric_version", 3)
    monkeypatch.setattr(WNLaMProScorer, "summarize", lambda self, records: {"mean_surprisal": sum(r["surprisal"] for r in records)})
    before = sorted(p for p in (tmp_path / "runs").rglob("*"))
    refused = CliRunner().invoke(cli, ["rescore", str(old.path)])
    assert refused.exit_code != 0 and refused.output.strip().splitlines()[-1].endswith(
        "its stored records have no 'surprisal', which wnlampro's metric version 3 needs: score the model again")
    assert sorted(p for p in (tmp_path / "runs").rglob("*")) == before


def test_rescore_refuses_an_unfinished_run_and_other_data(tiny_models, wnlampro_build, wnlampro_file, tmp_path, monkeypatch):
    from wordbench.benchmarks.rescore import rescore
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model
    from wordbench.scorers.wnlampro import WNLaMProScorer

    run = score("wnlampro", load_model(str(tiny_models["gpt2"]), device="cpu"), None, "test", 30, tmp_path / "runs", progress=False)
    monkeypatch.setattr(WNLaMProScorer, "metric_version", 2)
    with pytest.raises(ConfigError, match="was scored on other data than .*give its data with --data"):
        rescore(run.path, data=str(wnlampro_file))
    (run.path / "summary.json").unlink()
    with pytest.raises(ConfigError, match="holds no finished run"):
        rescore(run.path)
