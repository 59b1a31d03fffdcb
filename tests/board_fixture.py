"""A results folder holding two scored tiny models, through the queue and the worker as a leaderboard runs them; and
the comparison of two runs' records (floats to float32's rounding) that resumed and interrupted runs are held to."""

from __future__ import annotations

import json
from pathlib import Path

SUITE = "wnlampro"


def local_queue(folder: Path, **settings):
    from wordbench.benchmarks.queue import LocalQueue

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "queue.json").write_text(json.dumps({"profile": "quick", "suite": SUITE, **settings}))
    return LocalQueue(folder)


def scored_results(root: Path, models: dict) -> tuple[Path, Path]:
    """(queue folder, results folder): gpt2 (causal) and bert (masked) scored on the quick profile by a worker, and
    bert-encoder (no MLM head: skipped for its family), so the results hold their submission entries."""
    from wordbench.benchmarks.hub import build
    from wordbench.benchmarks.submit import admit
    from wordbench.benchmarks.worker import run

    build("wnlampro", progress=False)
    q = local_queue(root / "queue")
    for name in ("gpt2", "bert", "bert-encoder"):
        admit(str(models[name]), q, submitter="maintainer")
    stats = run(q, root / "results", root / "runs", device="cpu", stop_when_empty=True)
    assert all(line.endswith("FINISHED") for line in stats.requests), stats.requests
    return q.folder, root / "results"


def same_records(a: list[dict], b: list[dict]) -> bool:
    """Records equal key for key, a float to float32's rounding (relative 1e-6), everything else exactly."""
    import math

    def same(x, y):
        if isinstance(x, float) and isinstance(y, float):
            return math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-9)
        if isinstance(x, dict) and isinstance(y, dict):
            return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
        if isinstance(x, list) and isinstance(y, list):
            return len(x) == len(y) and all(same(u, v) for u, v in zip(x, y))
        return x == y

    by_id = {r["id"]: r for r in b}
    return all(same(r, by_id.get(r["id"])) for r in a) and len(a) == len(b)

