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


def test_publish_local_without_repo_id_loads_with_class_labels_and_version(runner, wnlampro_build, tmp_path):
    """`publish --local DIR` alone writes the folder (nothing uploaded): load_dataset gives ClassLabel columns and
    info.version = the builder's version; the card has a Data Fields table from the declared schema and the known
    limitations; wordbench reads the labels back as strings."""
    from wordbench.benchmarks.hub import load_data
    from wordbench.builders.wnlampro import BINS, RELATIONS, WNLaMProBuilder

    out = tmp_path / "local"
    result = runner.invoke(cli, ["publish", "wnlampro", "--local", str(out)])
    assert result.exit_code == 0 and "nothing uploaded" in result.output, result.output
    test = datasets.load_dataset(str(out))["test"]
    assert test.features["relation"] == datasets.ClassLabel(names=list(RELATIONS))
    assert test.features["keyword_bin"] == datasets.ClassLabel(names=list(BINS))
    assert str(test.info.version) == WNLaMProBuilder.version
    card = (out / "README.md").read_text()
    assert "## Data Fields" in card and "| `keyword_bin` | class label: `rare`, `medium`, `frequent` |" in card
    assert "## Known limitations" in card and "task_ids:" in card and "https://arxiv.org/abs/1904.06707" in card
    assert all(f"| `{column}` |" in card for column in WNLaMProBuilder.schema["default"])
    _, data = load_data("wnlampro", str(out))
    assert set(data["default"]["test"]["relation"]) <= set(RELATIONS)
    assert runner.invoke(cli, ["publish", "wnlampro"]).exit_code != 0  # neither --repo-id nor --local


def test_every_declared_column_has_help():
    """The card's Data Fields table is generated from the declarations: every column of every schema has a line."""
    from wordbench.benchmarks.registry import REGISTRY

    for bench in REGISTRY.values():
        builder = bench.builder_class
        for config, features in builder.schema.items():
            missing = [c for c in features if not builder.fields.get(c)]
            assert not missing, f"{bench.name}/{config}: no help for {missing}"
        assert set(builder.labels) <= {c for f in builder.schema.values() for c in f}
        assert set(builder.column_defaults) <= {c for f in builder.schema.values() for c in f}  # defaults of declared columns only
