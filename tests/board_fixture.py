"""A results folder holding two scored tiny models, through the queue and the worker as a leaderboard runs them."""

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
