"""The submission suite on the packaged SmolLM2 (quick profile), three ways in one run, on the same default builds:

1. a worker: submit, claim, the suite with one model load, publish, finish (``worker.run``): its own overhead (claim,
   lease, publishing) is its wall time minus the suite's;
2. the suite alone (``score_suite``): wall time per benchmark, the one load;
3. six ``wordbench score NAME --profile quick`` commands, one process and one model load each.

    python perf/suite.py [--model PATH] [--profile quick]     # writes perf/results/suite.json
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
    args = ap.parse_args()

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


if __name__ == "__main__":
    main()
