"""A worker: claim the oldest request, score the whole suite with one load of the model, publish to the results
dataset, mark the request FINISHED (or FAILED with its one line) and go on. Of a split request it claims one
benchmark's task; the worker that scores the last task publishes the row. Its lease is renewed by a thread while it
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
from .queue import PUBLISH, LeaseLost, Queue, Request, RequestFailed, merged_seconds
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
    worker that took the request over hands it back when it finds this one alive). A task whose request failed on
    another task is abandoned: scoring stops at its next chunk."""

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
            except RequestFailed as exc:  # another task failed the request: this one's work is not wanted
                self.lost = str(exc)
                if not self.stopped.is_set():
                    stopping.abandon(str(exc))
                return
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

    from .results_folder import check_results_folder
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


def publish_locked(runs: list[Path], results: str | Path, token: str | None = None, submission: dict | None = None) -> None:
    """Add the run folders ``runs`` to the results dataset: a local folder, or ``hf:ORG/NAME`` (staged in publish/), one
    worker at a time (a file lock beside the folder: workers on a shared file system take turns)."""
    from filelock import FileLock

    from .publish import publish_results

    text = str(results)
    repo_id = text[3:] if text.startswith("hf:") else None
    folder = Path("publish") / f"results-{repo_id.replace('/', '-')}" if repo_id else Path(text).expanduser()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder.parent / f".{folder.name}.lock")):
        publish_results(list(runs), repo_id, token=token, local=folder, submission=submission)


def submission_entry(request: Request, plan, skipped: dict, seconds: dict | None = None) -> dict:
    """What the leaderboard shows of a scored request beside its runs (``submissions.record_submission``): keyed as its
    summaries name the model, with the weights' precision read from the files (a GGUF's quantisation, not the dtype),
    and what scoring it took (``seconds``: per benchmark and the model's loads, on ``device``: cuda, cpu, mps)."""
    from wordbench.identity import weights_precision

    from .ranking import hub_link

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
            "weights": weights, "link": hub_link(request.model, request.revision), "skipped": skipped,
            "seconds": seconds or {}, "device": plan.dev.type}


def process(queue: Queue, request: Request, worker: str, results: Path, runs: Path, device: str = "auto",
            publish_results=None, progress: bool = False, sleep=None, stats: WorkerStats | None = None) -> Request:
    """Check one claimed request again (as admission does), score it and publish it; returns the request as finished
    (FINISHED or FAILED with its one line). Of a split request, the claimed task's benchmark is scored and its run
    recorded; the worker whose task leaves every task scored publishes the row from the recorded runs. A transient
    fault of the Hub is tried again (bounded) before it fails. A task whose request fails on another task meanwhile
    stops at its next chunk and is recorded FAILED ("abandoned")."""
    settings = retry(queue.settings, sleep=sleep)
    with stopping.abandonable():
        done = _process(queue, request, worker, results, runs, device, publish_results, progress, sleep, stats, settings)
    if done.task == PUBLISH:  # this worker scored the last task: it publishes the row
        return process(queue, done, worker, results, runs, device, publish_results, progress, sleep, stats)
    return done


def _process(queue, request, worker, results, runs, device, publish_results, progress, sleep, stats, settings) -> Request:
    """:func:`process` of one claim, under its lease, to the queue's ``finish``."""
    from wordbench.scorers.models import plan_model

    lease = Lease(queue, request, worker, float(settings["lease_s"]))
    lease.start()
    status, reason, seconds, scored = "FINISHED", None, {}, {}
    publish = publish_results or publish_locked
    task = request.task
    try:
        if task != PUBLISH:  # publishing runs no model: the checks were made when its tasks were scored
            readmit(request, settings)  # a request written by hand or by another wordbench skips nothing
        local = Path(request.model).exists()
        plan = plan_model(request.model, request.family, device, request.dtype, "auto", None if local else request.revision,
                          allow_pickle=bool(settings["allow_pickle"]), progress=progress)
        if task == PUBLISH:
            gone = [name for name, t in request.tasks.items() if t.run and not (Path(t.run) / "summary.json").is_file()]
            if gone:  # scored where this worker cannot read the runs (the runs folder is not shared, or mounted elsewhere)
                lease.stopped.set()
                warn(f"{request.id}: the run folder(s) of {', '.join(gone)} are not here ({runs} is not the runs folder their "
                     "workers share?): those tasks are open again")
                return retry(lambda: queue.reopen(request, worker, gone), sleep=sleep)
            done = [Path(t.run) for t in request.tasks.values() if t.run]
            skipped = {name: t.skipped for name, t in request.tasks.items() if t.skipped}
            entry = submission_entry(request, plan, skipped, merged_seconds(request.tasks))
            retry(lambda: publish(done, results, submission=entry), sleep=sleep)
        else:
            result = score_suite([task] if task else list(request.suite), plan, profile=request.profile, out=runs,
                                 data=settings["data"], progress=progress)
            seconds = dict(result.seconds)  # each benchmark's own time: the load happened inside the first one's
            if result.loads and seconds:
                first = next(iter(seconds))
                seconds[first] = round(max(0.0, seconds[first] - result.load_seconds), 2)
                seconds["_load"] = result.load_seconds
            if stats is not None:
                stats.scoring_s += sum(result.seconds.values())
            if lease.lost and not task:  # a task publishes nothing before finish, which checks who holds it
                raise LeaseLost(lease.lost)
            if task:
                scored = {"run": str(result.runs[task].path.resolve()) if task in result.runs else None,
                          "skipped": result.skipped.get(task)}
            else:
                retry(lambda: publish([run.path for run in result.runs.values()], results,
                                      submission=submission_entry(request, plan, result.skipped, seconds)), sleep=sleep)
    except LeaseLost:
        lease.stopped.set()
        raise
    except StopRequested:  # the job is ending: what was scored is kept, the request goes back to the queue at once
        lease.stopped.set()
        retry(lambda: queue.release(request, worker), sleep=sleep)
        raise
    except RunBusy as exc:  # the worker we took the request over from is alive, only slow: the request stays its own
        lease.stopped.set()
        if request.taken_from is None:
            status, reason = "FAILED", f"{type(exc).__name__}: {exc}"[:500]
        else:
            retry(lambda: queue.hand_back(request, worker), sleep=sleep)
            raise LeaseLost(f"request {request.label} is left to {request.taken_from[0]}, which is still scoring it ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - one model that cannot be scored fails alone; the worker goes on
        status, reason = "FAILED", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:500]
    finally:
        lease.stopped.set()
        lease.join(timeout=float(settings["lease_s"]))  # a renewal in flight cannot abandon the next claim's work
    return retry(lambda: queue.finish(request, worker, status, reason, seconds, **scored), sleep=sleep)


def expected_costs(requests: list[Request]) -> tuple[dict[str, float], float]:
    """(benchmark -> seconds, seconds of a model's load) here: the medians of what finished work took (its workers' own
    timing), from whole requests and from split requests' tasks; a benchmark never scored yet costs 0."""
    import statistics

    timings = [r.seconds for r in requests if r.status == "FINISHED" and r.seconds and not r.tasks]
    timings += [t.seconds for r in requests for t in r.tasks.values() if t.status == "SCORED" and t.seconds]
    per_bench: dict[str, list[float]] = {}
    for timing in timings:
        for name, s in timing.items():
            per_bench.setdefault(name, []).append(s)
    medians = {name: statistics.median(values) for name, values in per_bench.items()}
    return {k: v for k, v in medians.items() if k != "_load"}, medians.get("_load", 0.0)


def work_cost(request: Request, task: str | None, costs: tuple[dict[str, float], float]) -> float:
    """The seconds claiming ``task`` of ``request`` is expected to take (``expected_costs``): its benchmark(s) and a
    load; publishing costs no model time."""
    per_bench, load = costs
    if task == PUBLISH:
        return 0.0
    return load + sum(per_bench.get(name, 0.0) for name in ([task] if task else request.suite))


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


def done_status(done: Request, task: str | None) -> str:
    """How the claimed work ended, for the worker's log: the request's status (and reason), or its task's."""
    if task and task != PUBLISH and done.status not in ("FINISHED", "FAILED"):
        t = done.tasks[task]
        return t.status + (f": {t.reason}" if t.reason else "")
    return done.status + (f": {done.reason}" if done.reason else "")


def held_elsewhere(queue: Queue, worker: str) -> list[tuple[str, str, float]]:
    """(label, worker, lease end) of the work other workers hold under a live lease: requests, tasks, publishing."""
    now, held = time.time(), []
    for r in queue.requests():
        slots = [(r.id, r)] if not r.tasks else [(f"{r.id}[{n}]", t) for n, t in r.tasks.items()] + [(f"{r.id}[{PUBLISH}]", r)]
        held += [(label, s.worker, s.lease_until) for label, s in slots
                 if s.status == "RUNNING" and s.worker and s.worker != worker and (s.lease_until or 0) >= now]
    return held


def run(queue: Queue, results: Path, runs: Path, device: str = "auto", once: bool = False, poll_s: float = 10.0,
        worker: str | None = None, progress: bool = False, stop_when_empty: bool = False, sleep=None,
        deadline: float | None = None) -> WorkerStats:
    """Claim and process requests until the queue is empty (``once``: one request; ``stop_when_empty``: every request
    there is, then return, after waiting for those other workers hold, whose lease may run out) or forever, polling
    every ``poll_s`` seconds. A transient fault of the Hub is tried again with a backoff; a permanent one is raised.
    A stop asked for (``wordbench.stopping``: SIGTERM) ends the request at an item boundary, hands it back to the queue
    and returns; no request or task is claimed that cannot finish before ``deadline`` (seconds since the epoch: a
    scheduler job's end) at the cost finished work took here (``expected_costs``)."""
    from wordbench.files import check_writable

    wait = sleep or time.sleep
    check_results(results)
    if Path(runs).exists() and not Path(runs).is_dir():
        raise ConfigError(f"--runs {runs} is not a folder: give the root of the run folders")
    check_writable(Path(runs), "--runs")
    worker = worker or worker_name()
    stats = WorkerStats()
    waiting: set[str] = set()
    looked_again = False
    while True:
        t0 = time.perf_counter()
        if stopping.requested():
            return stats
        fits, passed = None, []
        if deadline is not None:
            costs = expected_costs(retry(queue.requests, sleep=sleep))

            def fits(r, task):
                cost = work_cost(r, task, costs)
                if time.time() + cost <= deadline:
                    return True
                passed.append(cost)
                return False
        request = retry(lambda: queue.claim(worker, fits), sleep=sleep)
        if request is None and passed:
            warn(f"{worker}: too little time left before the job's end ({max(0.0, deadline - time.time()):.0f} s) for the "
                 f"work left, which takes at least {min(passed):.0f} s here: claiming none")
            return stats
        if request is None:
            if once:
                return stats
            if stop_when_empty:
                others = retry(lambda: held_elsewhere(queue, worker), sleep=sleep)
                if not others:
                    if looked_again:  # nothing held, nothing open: a release between our claim and this look is caught
                        return stats
                    looked_again = True
                    continue
                looked_again = False
                for label, holder, until in others:  # its worker may finish it, or die and leave it to us when the lease runs out
                    if label not in waiting:
                        warn(f"waiting for request {label}, held by {holder} until its lease runs out "
                             f"(in {max(0.0, until - time.time()):.0f} s unless renewed)")
                        waiting.add(label)
                wait(min(poll_s, max(0.1, min(until for _, _, until in others) - time.time() + 0.1)))
                continue
            wait(poll_s)
            continue
        looked_again = False
        try:
            done = process(queue, request, worker, results, runs, device, progress=progress, sleep=sleep, stats=stats)
            stats.requests.append(f"{request.label} {done_status(done, request.task)}")
        except LeaseLost as exc:  # another worker took it over: its work stands, ours is not published
            warn(str(exc))
        except StopRequested:
            stats.requests.append(f"{request.label} RELEASED: stopped on SIGTERM, its run kept for the next worker")
            return stats
        stats.total_s += time.perf_counter() - t0
        if once:
            return stats
