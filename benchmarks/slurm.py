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
