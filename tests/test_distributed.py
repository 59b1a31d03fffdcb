"""Data-parallel scoring: torchrun with 2 gloo ranks on CPU equals one process; a rank killed mid-run
(its file holds some records and a torn line) resumes without losing or duplicating an item."""

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from wordbench.benchmarks.cli import cli
from wordbench.benchmarks.distributed import World, owner, shard


def test_shards_partition_the_items_stably():
    items = [{"id": str(i)} for i in range(200)]
    parts = [shard(items, World(r, 3)) for r in range(3)]
    ids = [it["id"] for part in parts for it in part]
    assert sorted(ids) == sorted(it["id"] for it in items) and len(set(ids)) == 200
    assert all(40 < len(p) < 95 for p in parts)  # the hash spreads them
    assert [owner(it["id"], 3) for it in parts[1]] == [1] * len(parts[1])
    assert shard(items, World()) == items


def test_merge_ranks_keeps_order_and_each_id_once(tmp_path):
    from wordbench.benchmarks.results import RunFolder

    run = RunFolder(tmp_path)
    run.append([{"id": "b", "v": 1}])  # merged by an earlier, interrupted merge
    run.append([{"id": "c", "v": 2}, {"id": "a", "v": 0}], rank=1)
    run.append([{"id": "b", "v": 1}, {"id": "d", "v": 3}], rank=0)
    with open(run.rank_path(0), "a") as f:
        f.write('{"id": "e", "v"')  # torn
    assert run.done_ids() == {"a", "b", "c", "d"}
    assert run.merge_ranks(["a", "b", "c", "d", "e"]) == 3
    assert [r["id"] for r in run.records()] == ["b", "a", "c", "d"] and not run.rank_paths()


def test_torchrun_two_ranks_equal_one_process_and_resume(tiny_models, wnlampro_file, tmp_path):
    args = ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--data", str(wnlampro_file), "--split", "all", "--batch-size", "1"]
    single = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "one")])
    assert single.exit_code == 0, single.output
    one = Path(single.output.strip().splitlines()[-1].split("run folder: ")[1])
    expected = {r["id"]: r for r in map(json.loads, (one / "records.jsonl").read_text().splitlines())}
    assert len(expected) == 6

    # The same run folder as left by a killed 2-rank run: each rank file holds one record; rank 1 a torn line too.
    two = tmp_path / "two" / one.relative_to(tmp_path / "one")
    two.mkdir(parents=True)
    by_rank = {r: [i for i in expected if owner(i, 2) == r] for r in (0, 1)}
    assert all(len(ids) >= 2 for ids in by_rank.values())
    for r, ids in by_rank.items():
        (two / f"records.rank{r}.jsonl").write_text(json.dumps(expected[ids[0]]) + "\n" + ('{"id": "' + ids[1] + '", "ra' if r else ""))

    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
                           "-m", "wordbench.benchmarks.cli", *args, "--out", str(tmp_path / "two"), "--json"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summaries = json.loads(proc.stdout)  # rank 0 alone prints
    assert len(summaries) == 1 and summaries[0]["ranks"] == 2 and summaries[0]["items_scored_now"] == 4
    got = [json.loads(line) for line in (two / "records.jsonl").read_text().splitlines()]
    assert [r["id"] for r in got] == list(expected)  # each item once, in the single run's order
    assert {r["id"]: r for r in got} == expected
    assert not list(two.glob("records.rank*"))
    reference = json.loads((one / "summary.json").read_text())
    assert summaries[0]["metrics"] == reference["metrics"] and summaries[0]["signature"] == reference["signature"]
