"""Several models in one call: one run folder each, a leaderboard, --json summaries; records carry their inputs."""

import json
from pathlib import Path

from click.testing import CliRunner

from wordbench.benchmarks.cli import cli


def test_two_models_one_call_leaderboard_and_json(tiny_models, wnlampro_file, tmp_path):
    args = ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--model", str(tiny_models["llama"]),
            "--data", str(wnlampro_file), "--split", "all", "--out", str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    board = (tmp_path / "wnlampro" / "leaderboard.md").read_text()
    assert "# Leaderboard: wnlampro" in board and "| gpt2 | causal |" in board and "| llama | causal |" in board
    assert "| gpt2 |" in result.output and "| llama |" in result.output
    runs = sorted(p.parent for p in tmp_path.glob("wnlampro/*/*/summary.json"))
    assert [p.parent.name for p in runs] == ["gpt2", "llama"]
    rec = json.loads((runs[0] / "records.jsonl").read_text().splitlines()[0])
    assert "___" in rec["query"] and rec["targets"]

    again = CliRunner().invoke(cli, [*args, "--json"])
    assert again.exit_code == 0, again.output
    summaries = json.loads(again.stdout)  # nothing but the JSON on stdout
    assert [s["model"]["name"] for s in summaries] == ["gpt2", "llama"]
    assert all(s["items_scored_now"] == 0 and s["n"] == 6 for s in summaries)  # resumed: nothing scored twice
    assert summaries[0] == json.loads((runs[0] / "summary.json").read_text())
    assert Path(runs[1]).exists()
