"""A worker: claim the oldest request, score the whole suite with one load of the model, publish to the results
dataset, mark the request FINISHED (or FAILED with its one line) and go on. Its lease is renewed by a thread while it
scores; a worker killed mid-suite leaves a lease that runs out, and the next worker resumes from the run folders."""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from wordbench import stopping
from wordbench.errors import ConfigError, warn
from wordbench.stopping import StopRequested

from .hubfaults import retry
from .queue import LeaseLost, Queue, Request
from .results import RunBusy
from .submit import readmit
from .suite import score_suite


@dataclass
class WorkerStats:
    requests: list[str] = field(default_factory=list)
    scoring_s: float = 0.0  # inside the suite (loading and scoring)
    total_s: float = 0.0  # claim to finish, publishing included


class Lease(threading.Thread):
    """Renews ``request``'s lease every third of its length until stopped; notes a lease it lost (and keeps trying: a
    worker that took the request over hands it back when it finds this one alive)."""

    def __init__(self, queue: Queue, request: Request, worker: str, lease_s: float):
        super().__init__(daemon=True)
        self.queue, self.request, self.worker = queue, request, worker
        self.every = lease_s / 3
        self.stopped, self.lost = threading.Event(), None

    def run(self):
        while not self.stopped.wait(self.every):
            try:
                self.queue.renew(self.request, self.worker)
                self.lost = None  # held again: a worker that took it over found this one alive and handed it back
            except LeaseLost as exc:
                self.lost = str(exc)
            except Exception as exc:  # noqa: BLE001 - a flaky shared file system or network: try again next time
                warn(f"lease renewal of {self.request.id} failed ({exc}); retrying")


def worker_name() -> str:
    """host-pid, and in a Slurm job its job (and array task): the name the queue shows for a RUNNING request."""
    job = os.environ.get("SLURM_ARRAY_JOB_ID"), os.environ.get("SLURM_ARRAY_TASK_ID"), os.environ.get("SLURM_JOB_ID")
    slurm = f"-slurm{job[0]}_{job[1]}" if job[0] and job[1] else f"-slurm{job[2]}" if job[2] else ""
    return f"{socket.gethostname()}-{os.getpid()}{slurm}"


def check_results(results: str | Path) -> None:
    """``--results`` can take runs: ``hf:ORG/NAME``, or a folder (new, empty, or a results folder; not a file, a device or
    a symlink) that accepts files. Checked before any request is claimed, so nothing is scored for a target that fails."""
    from wordbench.files import check_writable

    from .leaderboard import check_results_folder
    from .publish import check_repo_id

    text = str(results)
    if text.startswith("hf:"):
        check_repo_id(text[3:])
        return
    folder = Path(text).expanduser()
    try:
        check_results_folder(folder)
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("--local", "--results", 1)) from None
    check_writable(folder, "--results")


def publish_locked(runs: list, results: str | Path, token: str | None = None, submission: dict | None = None) -> None:
    """Add ``runs`` to the results dataset: a local folder, or ``hf:ORG/NAME`` (staged in publish/), one worker at a
    time (a file lock beside the folder: workers on a shared file system take turns)."""
    from filelock import FileLock

    from .publish import publish_results

    text = str(results)
    repo_id = text[3:] if text.startswith("hf:") else None
    folder = Path("publish") / f"results-{repo_id.replace('/', '-')}" if repo_id else Path(text).expanduser()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder.parent / f".{folder.name}.lock")):
        publish_results([run.path for run in runs], repo_id, token=token, local=folder, submission=submission)


def submission_entry(request: Request, plan, skipped: dict) -> dict:
    """What the leaderboard shows of a scored request beside its runs (``leaderboard.record_submission``): keyed as its
    summaries name the model, with the weights' precision read from the files (a GGUF's quantisation, not the dtype)."""
    from wordbench.identity import weights_precision

    from .leaderboard import hub_link

    source = Path(request.model)
    if not source.exists():  # a Hub model: its files are in the Hub cache after scoring
        try:
            from huggingface_hub import snapshot_download

            source = Path(snapshot_download(request.model, revision=request.revision, local_files_only=True))
        except Exception:  # noqa: BLE001 - not cached: the precision stays unknown
            source = None
    try:
        weights = weights_precision(source) if source is not None else None
    except Exception:  # noqa: BLE001 - an unreadable header: unknown, not a failed request
        weights = None
    return {"model": plan.info.name, "version": plan.info.version, "dtype": plan.info.dtype, "family": request.family,
            "params": request.params, "submitted": request.submitted, "profile": request.profile, "request": request.id,
            "weights": weights, "link": hub_link(request.model, request.revision), "skipped": skipped}


def process(queue: Queue, request: Request, worker: str, results: Path, runs: Path, device: str = "auto",
            publish_results=None, progress: bool = False, sleep=None) -> Request:
    """Check one claimed request again (as admission does), score it and publish it; returns the request as finished
    (FINISHED or FAILED with its one line). A transient fault of the Hub is tried again (bounded) before it fails."""
    from wordbench.scorers.models import plan_model

    settings = retry(queue.settings, sleep=sleep)
    lease = Lease(queue, request, worker, float(settings["lease_s"]))
    lease.start()
    status, reason, seconds = "FINISHED", None, {}
    try:
        readmit(request, settings)  # a request written by hand or by another wordbench skips nothing
        local = Path(request.model).exists()
        plan = plan_model(request.model, request.family, device, request.dtype, "auto", None if local else request.revision,
                          allow_pickle=bool(settings["allow_pickle"]), progress=progress)
        result = score_suite(list(request.suite), plan, profile=request.profile, out=runs, data=settings["data"],
                             progress=progress)
        seconds = {**result.seconds, "_load": result.load_seconds}  # the load is inside the first benchmark's time
        if lease.lost:
            raise LeaseLost(lease.lost)
        retry(lambda: (publish_results or publish_locked)(list(result.runs.values()), results,
                                                          submission=submission_entry(request, plan, result.skipped)), sleep=sleep)
    except LeaseLost:
        lease.stopped.set()
        raise
    except StopRequested:  # the job is ending: what was scored is kept, the request goes back to the queue at once
        lease.stopped.set()
        retry(lambda: queue.release(request, worker), sleep=sleep)
        raise
    except RunBusy as exc:  # the worker we took the request over from is alive, only slow: the request stays its own
        lease.stopped.set()
        if getattr(request, "taken_from", None) is None:
            status, reason = "FAILED", f"{type(exc).__name__}: {exc}"[:500]
        else:
            retry(lambda: queue.hand_back(request, worker), sleep=sleep)
            raise LeaseLost(f"request {request.id} is left to {request.taken_from[0]}, which is still scoring it ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - one model that cannot be scored fails alone; the worker goes on
        status, reason = "FAILED", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:500]
    finally:
        lease.stopped.set()
    return retry(lambda: queue.finish(request, worker, status, reason, seconds), sleep=sleep)


def expected_cost(queue: Queue, sleep=None) -> float:
    """The seconds a request takes here: the median wall time of the queue's FINISHED requests (their workers' own
    timing, the model's load included), 0 where none has finished yet."""
    import statistics

    done = [sum(r.seconds.values()) for r in retry(queue.requests, sleep=sleep) if r.status == "FINISHED" and r.seconds]
    return statistics.median(done) if done else 0.0


def job_deadline() -> float | None:
    """The end of the Slurm job this process runs in (seconds since the epoch), from ``squeue``; None outside a job,
    for a job without a time limit, or where squeue cannot say."""
    import shutil
    import subprocess

    job = os.environ.get("SLURM_JOB_ID")
    if not job or shutil.which("squeue") is None:
        return None
    try:
        end = subprocess.run(["squeue", "-h", "-j", job, "-o", "%e"], capture_output=True, text=True, timeout=30).stdout.strip()
        return time.mktime(time.strptime(end.splitlines()[0], "%Y-%m-%dT%H:%M:%S")) if end and end[0].isdigit() else None
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def held_elsewhere(queue: Queue, worker: str) -> list[Request]:
    """RUNNING requests whose live lease another worker holds."""
    now = time.time()
    return [r for r in queue.requests() if r.status == "RUNNING" and r.worker != worker and (r.lease_until or 0) >= now]


def run(queue: Queue, results: Path, runs: Path, device: str = "auto", once: bool = False, poll_s: float = 10.0,
        worker: str | None = None, progress: bool = False, stop_when_empty: bool = False, sleep=None,
        deadline: float | None = None) -> WorkerStats:
    """Claim and process requests until the queue is empty (``once``: one request; ``stop_when_empty``: every request
    there is, then return, after waiting for those other workers hold, whose lease may run out) or forever, polling
    every ``poll_s`` seconds. A transient fault of the Hub is tried again with a backoff; a permanent one is raised.
    A stop asked for (``wordbench.stopping``: SIGTERM) ends the request at an item boundary, hands it back to the queue
    and returns; no request is claimed that cannot finish before ``deadline`` (seconds since the epoch: a scheduler
    job's end) at the cost finished requests took here (``expected_cost``)."""
    from wordbench.files import check_writable

    wait = sleep or time.sleep
    check_results(results)
    if Path(runs).exists() and not Path(runs).is_dir():
        raise ConfigError(f"--runs {runs} is not a folder: give the root of the run folders")
    check_writable(Path(runs), "--runs")
    worker = worker or worker_name()
    stats = WorkerStats()
    waiting: set[str] = set()
    while True:
        t0 = time.perf_counter()
        if stopping.requested():
            return stats
        cost = expected_cost(queue, sleep) if deadline is not None else 0.0
        if deadline is not None and time.time() + cost > deadline:
            warn(f"{worker}: too little time left before the job's end ({max(0.0, deadline - time.time()):.0f} s) for a "
                 f"request, which takes about {cost:.0f} s here: claiming none")
            return stats
        request = retry(lambda: queue.claim(worker), sleep=sleep)
        if request is None:
            if once:
                return stats
            if stop_when_empty:
                others = retry(lambda: held_elsewhere(queue, worker), sleep=sleep)
                if not others:
                    return stats
                for r in others:  # its worker may finish it, or die and leave it to us when the lease runs out
                    if r.id not in waiting:
                        warn(f"waiting for request {r.id}, held by {r.worker} until its lease runs out "
                             f"(in {max(0.0, r.lease_until - time.time()):.0f} s unless renewed)")
                        waiting.add(r.id)
                wait(min(poll_s, max(0.1, min(r.lease_until for r in others) - time.time() + 0.1)))
                continue
            wait(poll_s)
            continue
        try:
            done = process(queue, request, worker, results, runs, device, progress=progress, sleep=sleep)
            stats.requests.append(f"{done.id} {done.status}" + (f": {done.reason}" if done.reason else ""))
            stats.scoring_s += sum(v for k, v in done.seconds.items() if not k.startswith("_"))
        except LeaseLost as exc:  # another worker took it over: its work stands, ours is not published
            warn(str(exc))
        except StopRequested:
            stats.requests.append(f"{request.id} RELEASED: stopped on SIGTERM, its run kept for the next worker")
            return stats
        stats.total_s += time.perf_counter() - t0
        if once:
            return stats
