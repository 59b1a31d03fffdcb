"""The submission suite on the packaged SmolLM2 (quick profile), three ways in one run, on the same default builds:

1. a worker: submit, claim, the suite with one model load, publish, finish (``worker.run``): its own overhead (claim,
   lease, publishing) is its wall time minus the suite's;
2. the suite alone (``score_suite``): wall time per benchmark, the one load;
3. six ``wordbench score NAME --profile quick`` commands, one process and one model load each.

    python perf/suite.py [--model PATH] [--profile quick]     # writes perf/results/suite.json

``--profile full`` measures the cost of one submission instead (``suite_cost``): every benchmark's full profile on a
seeded fraction of its items (``--fraction``, at least ``--least`` rows), one model load, extrapolated linearly to
the full item count; per benchmark items, forward tokens, generated tokens, search steps and seconds, measured and
estimated, in perf/results/suite-full.json.

    python perf/suite.py --profile full [--fraction 0.02] [--least 8]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import machine, write_result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=None)
    ap.add_argument("--profile", default="quick", choices=["quick", "full"])
    ap.add_argument("--fraction", type=float, default=0.02, help="--profile full: the share of each benchmark's items scored")
    ap.add_argument("--least", type=int, default=8, help="--profile full: at least this many rows per benchmark")
    args = ap.parse_args()
    if args.profile == "full":
        return full_profile(args)

    from wordbench.benchmarks.cli import packaged_smollm2
    from wordbench.benchmarks.hub import build
    from wordbench.benchmarks.queue import LocalQueue
    from wordbench.benchmarks.registry import REGISTRY
    from wordbench.benchmarks.submit import admit
    from wordbench.benchmarks.suite import score_suite
    from wordbench.benchmarks.worker import run
    from wordbench.scorers.models import plan_model

    model = args.model or str(packaged_smollm2())
    names = list(REGISTRY)
    for name in names:  # the default builds, before anything is timed
        build(name, progress=False)
    root = Path(tempfile.mkdtemp(prefix="perf-suite-"))
    result = {"benchmark": "the submission suite, one model load against one per benchmark", "model": Path(model).name,
              "profile": args.profile, "benchmarks": names}

    queue = LocalQueue(root / "queue", create=True)
    (root / "queue" / "queue.json").write_text(json.dumps({"profile": args.profile, "suite": "all"}))
    admit(model, queue)
    t0 = time.perf_counter()
    stats = run(queue, root / "results", root / "worker-runs", device="cpu", stop_when_empty=True)
    worker_s = time.perf_counter() - t0
    done = queue.requests()[0]
    assert done.status == "FINISHED", done.reason
    suite_s = sum(v for k, v in done.seconds.items() if not k.startswith("_"))
    result["worker"] = {"wall_s": round(worker_s, 2), "suite_s": round(suite_s, 2), "overhead_s": round(worker_s - suite_s, 2),
                        "overhead_share": round((worker_s - suite_s) / worker_s, 4), "requests": stats.requests}
    print("worker", json.dumps(result["worker"]), flush=True)

    t0 = time.perf_counter()
    suite = score_suite(names, plan_model(model, device="cpu"), args.profile, root / "suite-runs", progress=False)
    result["suite"] = {"wall_s": round(time.perf_counter() - t0, 2), "loads": suite.loads, "load_s": suite.load_seconds,
                       "per_benchmark_s": suite.seconds, "skipped": suite.skipped}
    print("suite", json.dumps(result["suite"]), flush=True)

    separate = {}
    t0 = time.perf_counter()
    for name in names:
        t1 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "wordbench.benchmarks.cli", "score", name, "--model", model, "--profile", args.profile,
                        "--device", "cpu", "--out", str(root / "separate-runs")], check=True, capture_output=True,
                       env={**os.environ, "HF_HUB_OFFLINE": "1"})
        separate[name] = round(time.perf_counter() - t1, 2)
    result["separate"] = {"wall_s": round(time.perf_counter() - t0, 2), "loads": len(names), "per_benchmark_s": separate}
    result["saved_s"] = round(result["separate"]["wall_s"] - result["suite"]["wall_s"], 2)
    result["saved_share"] = round(result["saved_s"] / result["separate"]["wall_s"], 4)
    print("separate", json.dumps(result["separate"]), flush=True)
    result["machine"] = machine()
    write_result("suite", None, result)


def full_profile(args) -> None:
    """One submission's full suite on this machine: a seeded fraction of each benchmark, extrapolated (``suite_cost``)."""
    from suite_cost import EXTRAPOLATION, measure

    from wordbench.benchmarks.cli import packaged_smollm2
    from wordbench.benchmarks.hub import build, load_data
    from wordbench.benchmarks.registry import REGISTRY
    from wordbench.scorers.models import load_model

    names = list(REGISTRY)
    datasets = {}
    for name in names:  # the default builds, before anything is timed
        build(name, progress=False)
        datasets[name] = load_data(name, progress=False)[1]
    model_path = args.model or str(packaged_smollm2())
    t0 = time.perf_counter()
    model = load_model(model_path, device="cpu")
    load_s = time.perf_counter() - t0
    root = Path(tempfile.mkdtemp(prefix="perf-suite-full-"))
    t0 = time.perf_counter()

    def written(per: dict, complete: bool) -> None:
        """suite-full.json as far as measured (``complete`` False until every benchmark is in)."""
        estimates = [r["full_estimate"]["seconds"] for r in per.values() if "full_estimate" in r]
        write_result("suite-full", None, {**head, "complete": complete, "measured_wall_s": round(time.perf_counter() - t0, 2),
                                          "per_benchmark": per, "full_suite_estimate_s": round(sum(estimates), 1),
                                          "full_suite_estimate_h": round(sum(estimates) / 3600, 2)})

    so_far: dict = {}

    def done(name: str, r: dict) -> None:
        so_far[name] = r
        written(so_far, False)

    head = {
        "benchmark": "one submission's full suite (every benchmark's full profile) on this machine, from a seeded fraction of each",
        "model": Path(model_path).name, "profile": "full", "model_tag": model.info.tag,
        "fraction": args.fraction, "least_rows": args.least,
        "sampling": "the runner's seeded stratified --limit (seed 0) at max(least, ceil(fraction x rows)) rows of the test split",
        "extrapolation": EXTRAPOLATION,
        "load_s": round(load_s, 2), "machine": machine(model),
    }
    written(measure(names, model, datasets, root / "runs", args.fraction, args.least, on_done=done), True)


if __name__ == "__main__":
    main()
