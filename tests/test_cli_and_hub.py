import json
from pathlib import Path

import datasets
import pytest
from click.testing import CliRunner

from wordbench.benchmarks.cli import cli
from wordbench.benchmarks.registry import REGISTRY


@pytest.fixture()
def runner():
    return CliRunner()


def _one_line_error(result, *needles):
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1, result.output
    for needle in needles:
        assert needle in error_lines[0], error_lines[0]


def test_list(runner):
    result = runner.invoke(cli, ["list"])
    assert result.exit_code == 0 and f"wnlampro@{REGISTRY['wnlampro'].version}" in result.output


def test_user_errors_are_one_line(runner, tiny_models, wnlampro_file, tmp_path):
    _one_line_error(runner.invoke(cli, ["build", "nope"]), "unknown benchmark 'nope'", "wnlampro")
    _one_line_error(runner.invoke(cli, ["build", "wnlampro", "--set", "sede=1"]), "unknown config key 'sede'")
    _one_line_error(runner.invoke(cli, ["score", "wnlampro", "--model", str(tmp_path / "missing"), "--data", str(wnlampro_file)]), "does not exist")
    _one_line_error(
        runner.invoke(cli, ["score", "wnlampro", "--model", str(tiny_models["bert-encoder"]), "--data", str(wnlampro_file), "--out", str(tmp_path)]),
        "needs a causal, masked or seq2seq model", "encoder",
    )
    bad = tmp_path / "bad.txt"
    bad.write_text("1\ttest\tgood\n")
    _one_line_error(runner.invoke(cli, ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--data", str(bad), "--out", str(tmp_path)]), "bad.txt:1:")
    _one_line_error(runner.invoke(cli, ["publish", "wnlampro", "--repo-id", "a/b", "--version", "1.0"]), "MAJOR.MINOR.PATCH")


def test_score_and_report_cli(runner, tiny_models, wnlampro_file, tmp_path):
    runs = []
    for name in ("gpt2", "llama"):
        result = runner.invoke(cli, ["score", "wnlampro", "--model", str(tiny_models[name]), "--data", str(wnlampro_file),
                                     "--split", "all", "--out", str(tmp_path / "runs"), "--batch-size", "2"])
        assert result.exit_code == 0, result.output
        runs.append(result.output.strip().splitlines()[-1].split("run folder: ")[1])
    result = runner.invoke(cli, ["report", *runs])
    assert result.exit_code == 0, result.output
    assert "| gpt2 |" in result.output and "| llama |" in result.output
    for run in runs:
        summary = json.loads((Path(run) / "summary.json").read_text())
        assert summary["n"] == 6 and summary["signature"].startswith("wnlampro-file:sha256-")


def test_publish_dry_run_round_trips(runner, wnlampro_build, tmp_path):
    folder, meta = wnlampro_build
    out = tmp_path / "pub"
    result = runner.invoke(cli, ["publish", "wnlampro", "--repo-id", "wordbench/wnlampro", "--version", "1.0.0", "--local", str(out), "--dry-run",
                                 "--changelog", "first release"])
    assert result.exit_code == 0, result.output
    card = (out / "README.md").read_text()
    assert "config_name: default" in card and "data/default/test-*.parquet" in card
    assert "v1.0.0" in card and "first release" in card and meta["signature"] in card and "license_name: wordnet-3.0" in card
    assert (out / "WNLaMPro.txt").exists() and (out / "jsonl" / "default" / "test.jsonl").exists()
    loaded = datasets.load_dataset(str(out))
    original = datasets.load_dataset("parquet", data_files={s: str(folder / "data" / "default" / f"{s}-00000-of-00001.parquet") for s in ("dev", "test")})
    for split in ("dev", "test"):
        assert loaded[split].features == original[split].features
        assert loaded[split].to_list() == original[split].to_list()
    from wordbench.benchmarks.hub import load_data

    sig, data = load_data("wnlampro", str(out))
    assert sig.startswith(meta["signature"] + "|data:sha256-") and len(data["default"]["test"]) == len(original["test"])
