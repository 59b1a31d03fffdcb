"""Workers as Slurm jobs: ``wordbench slurm-script`` writes the sbatch script of an array of workers over one queue.

The queue gives exactly-once (atomic claims, leases), Slurm gives the machines: each array task runs ``wordbench
worker`` unchanged. The worker is the job's own process (``exec``), so the warning ``--signal=B:TERM@SECONDS`` sends
before the time limit, a preemption's SIGTERM and ``scancel`` reach it: it stops at the next item boundary, keeps
what it scored, hands its request back to the queue and exits 0, so ``--requeue`` and the other array tasks resume the
request at once. In a job it claims no request it cannot finish before the job's end."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from wordbench.errors import ConfigError

TIME = re.compile(r"^(\d+-)?\d{1,2}(:\d{2}){0,2}$")  # sbatch's --time: MM, MM:SS, HH:MM:SS, D-HH[:MM[:SS]]


def sbatch_script(queue: str, results: str, runs: str | Path = "runs", workers: int = 4, gpus: int = 1, time: str = "04:00:00",
                  warn_s: int = 300, cpus: int = 8, partition: str | None = None, logs: str | Path = "slurm-logs",
                  python: str | None = None, name: str = "wordbench-workers") -> str:
    """The sbatch script of ``workers`` array tasks, each a worker over ``queue`` publishing to ``results``."""
    if workers < 1 or gpus < 0 or cpus < 1 or warn_s < 1:
        raise ConfigError("--workers and --cpus are at least 1, --gpus at least 0, --warn at least 1 second")
    if not TIME.match(time):
        raise ConfigError(f"--time {time!r} is no Slurm time (HH:MM:SS, or D-HH:MM:SS)")
    if not re.fullmatch(r"[\w.-]+", name) or (partition is not None and not re.fullmatch(r"[\w.,-]+", partition)):
        raise ConfigError("--name and --partition are letters, digits, '-', '_' and '.'")
    q = shlex.quote
    lines = ["#!/bin/bash", f"#SBATCH --job-name={name}", f"#SBATCH --array=0-{workers - 1}", f"#SBATCH --time={time}",
             f"#SBATCH --cpus-per-task={cpus}"]
    lines += [f"#SBATCH --gres=gpu:{gpus}"] if gpus else []
    lines += [f"#SBATCH --partition={partition}"] if partition else []
    lines += [f"#SBATCH --signal=B:TERM@{warn_s}", "#SBATCH --requeue", f"#SBATCH --output={Path(logs) / '%A_%a.log'}", "",
              "# One worker per array task; the queue makes each request scored once, whichever task claims it.",
              "# SIGTERM (the warning before --time, a preemption, scancel): the worker finishes the item it is on, keeps",
              "# its run, hands its request back to the queue and exits 0; a requeued task or another worker resumes it.",
              f"exec {q(python or sys.executable)} -m wordbench.benchmarks.cli worker --queue {q(str(queue))} "
              f"--results {q(str(results))} --runs {q(str(runs))} --until-empty", ""]
    return "\n".join(lines)


def split_costs(suite: dict) -> dict:
    """What splitting a submission into one task per benchmark does to its cost, from ``perf/suite.py --profile full``'s
    result (``perf/results/suite-full.json``): latency and worker time, unsplit (one load) and split (a load per task)."""
    seconds = {name: b["full_estimate"]["seconds"] for name, b in suite["per_benchmark"].items()}
    load, longest = suite["load_s"], max(seconds, key=seconds.get)
    return {"model": suite["model"], "machine": suite["machine"]["device"], "per_benchmark_s": seconds, "load_s": load,
            "longest": longest, "unsplit_latency_s": sum(seconds.values()) + load,
            "split_latency_s": seconds[longest] + load, "split_worker_s": sum(seconds.values()) + load * len(seconds)}


def split_costs_table(costs: dict) -> str:
    """``split_costs`` as the Markdown the cluster page quotes."""
    h = lambda s: f"{s / 3600:,.2f} h"  # noqa: E731
    rows = [f"| {name} | {h(s)} |" for name, s in costs["per_benchmark_s"].items()]
    return "\n".join([
        f"| {costs['model']} ({costs['machine']}) | one worker |", "|---|---|", *rows, f"| model load | {costs['load_s']:.1f} s |",
        f"| **latency unsplit** (sum, one load) | {h(costs['unsplit_latency_s'])} |",
        f"| **latency split** ({costs['longest']}, one load) | {h(costs['split_latency_s'])} "
        f"({costs['unsplit_latency_s'] / costs['split_latency_s']:.2f}x sooner) |",
        f"| worker time split (a load per task) | {h(costs['split_worker_s'])} |"])


if __name__ == "__main__":
    import argparse
    import json

    parser = argparse.ArgumentParser(description="What splitting a submission into tasks saves, from a suite measurement.")
    parser.add_argument("--costs", type=Path, nargs="?", const=Path("perf/results/suite-full.json"), required=True,
                        help="perf/suite.py --profile full's result (default: perf/results/suite-full.json)")
    print(split_costs_table(split_costs(json.loads(parser.parse_args().costs.read_text()))))
