"""Workers as jobs of a real Slurm: munge, slurmctld and slurmd (Debian's) started as root on this one node, configured
in a temporary folder, and stopped at the end. An array of 3 workers (the script ``wordbench slurm-script`` writes)
scores 4 tiny-model submissions split into tasks (one per benchmark) over a local queue; one array task is cancelled
while it holds a task, with SIGTERM (it hands the task back and exits 0) and, in a second array, with SIGKILL (its
lease runs out and another worker takes over). Every request ends FINISHED and published once, the interrupted
task's records equal a clean scoring's, and no lease is left. Skips with its reason where Slurm cannot run (not
root, packages missing); in CI (``CI`` set, as ``.ci/run`` does, after ``make install`` installed the packages) it
fails instead."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from board_fixture import local_queue, same_records

DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "scancel", "squeue", "sinfo", "scontrol")
MODELS = ("gpt2", "llama", "bert", "t5")
SUITE = "wnlampro,tendencies"  # bert is skipped for tendencies: a task that ends skipped


def slurm_missing() -> str | None:
    if os.geteuid() != 0:
        return "a test Slurm starts its daemons as root"
    missing = [d for d in DAEMONS if shutil.which(d) is None and not Path("/usr/sbin", d).exists()]
    if missing:
        return f"{', '.join(missing)} missing: apt-get install slurmctld slurmd slurm-client munge (make install does, as root)"
    return None


def _bin(name: str) -> str:
    return shutil.which(name) or f"/usr/sbin/{name}"


def _wait(what: str, ok, seconds: float = 60, every: float = 0.2):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = ok()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"{what} did not happen in {seconds:.0f} s")


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    """A single-node Slurm: its environment (SLURM_CONF); the daemons it started are stopped afterwards."""
    missing = slurm_missing()
    if missing:
        (pytest.fail if os.environ.get("CI") else pytest.skip)(f"no test Slurm: {missing}")
    root = tmp_path_factory.mktemp("slurm")
    host = socket.gethostname().split(".")[0]
    for sub in ("state", "spool"):
        (root / sub).mkdir()
    conf = root / "slurm.conf"
    conf.write_text("\n".join([
        "ClusterName=wordbench-test", f"SlurmctldHost={host}", "AuthType=auth/munge", "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none", "SchedulerType=sched/backfill", "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core",
        "SlurmUser=root", "ReturnToService=2", f"StateSaveLocation={root / 'state'}", f"SlurmdSpoolDir={root / 'spool'}",
        f"SlurmctldPidFile={root / 'slurmctld.pid'}", f"SlurmdPidFile={root / 'slurmd.pid'}",
        f"SlurmctldLogFile={root / 'slurmctld.log'}", f"SlurmdLogFile={root / 'slurmd.log'}",
        "SlurmctldPort=26817", "SlurmdPort=26818", "KillWait=20", "MinJobAge=600",
        "SlurmdParameters=config_overrides",  # 3 one-core workers on a 2-core machine
        f"NodeName={host} CPUs=4 State=UNKNOWN", f"PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP", ""]))
    (root / "cgroup.conf").write_text("CgroupPlugin=cgroup/v1\nCgroupAutomount=no\n")  # 22.05 has no "disabled" plugin
    env = {**os.environ, "SLURM_CONF": str(conf)}
    started = []
    if subprocess.run(["pgrep", "-x", "munged"], capture_output=True).returncode != 0:
        for folder in ("/run/munge", "/var/log/munge", "/var/lib/munge"):
            Path(folder).mkdir(parents=True, exist_ok=True)
            shutil.chown(folder, "munge", "munge")
        subprocess.run(["su", "-s", "/bin/sh", "munge", "-c", _bin("munged")], check=True)
        started.append("munged")
    logs = [open(root / f"{name}.out", "w") for name in ("slurmctld", "slurmd")]
    daemons = [subprocess.Popen([_bin("slurmctld"), "-D", "-f", str(conf)], stdout=logs[0], stderr=subprocess.STDOUT, env=env),
               subprocess.Popen([_bin("slurmd"), "-D", "-f", str(conf)], stdout=logs[1], stderr=subprocess.STDOUT, env=env)]
    try:
        _wait("the node to be idle", lambda: "idle" in subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True,
                                                                      env=env).stdout, 60)
        yield env
    finally:
        subprocess.run(["scancel", "--user", "root"], env=env, capture_output=True)
        for d in daemons:
            d.terminate()
        for d in daemons:
            try:
                d.wait(timeout=15)
            except subprocess.TimeoutExpired:
                d.kill()
                d.wait(timeout=15)
        for log in logs:
            log.close()
        if "munged" in started:
            subprocess.run(["pkill", "-x", "munged"])
        assert all(d.poll() is not None for d in daemons)  # the daemons are stopped


def _squeue(env) -> list[str]:
    return subprocess.run(["squeue", "-h", "-o", "%i %T"], capture_output=True, text=True, env=env).stdout.split("\n")


def _scenario(slurm, tiny_models, root: Path, signal: str):
    """An array of 3 workers over 4 split submissions; one array task cancelled with ``signal`` while it holds a task.
    Returns (queue, results, runs, the interrupted (request id, benchmark), that array task's id, the job's logs)."""
    from wordbench.benchmarks.slurm import sbatch_script
    from wordbench.benchmarks.submit import admit

    from wordbench.benchmarks.hub import build

    build("tendencies", progress=False)  # the default builds, once, before workers read them
    q = local_queue(root / "queue", lease_s=4.0, suite=SUITE, split=True)
    for name in MODELS:
        assert admit(str(tiny_models[name]), q, submitter="maintainer").tasks
    logs = root / "logs"
    logs.mkdir()
    script = root / "workers.sbatch"
    script.write_text(sbatch_script(q.folder, root / "results", root / "runs", workers=3, gpus=0, cpus=1, time="00:10:00",
                                    warn_s=60, logs=logs))
    job = subprocess.run(["sbatch", "--parsable", str(script)], capture_output=True, text=True, env=slurm, check=True,
                         cwd=root).stdout.strip().split(";")[0]
    victim = f"{job}_0"

    def held():  # (request id, benchmark) of the task array task 0 holds, once it holds one
        return next(((r.id, name) for r in q.requests() for name, t in r.tasks.items()
                     if t.status == "RUNNING" and (t.worker or "").endswith(f"-slurm{job}_0")), None)

    task = _wait("array task 0 to claim a task", held, 120, 0.05)
    if signal == "TERM":
        subprocess.run(["scancel", "--batch", "--signal=TERM", victim], env=slurm, check=True)
    else:
        subprocess.run(["scancel", "--batch", "--signal=KILL", victim], env=slurm, check=True)
    _wait("the array to finish", lambda: not any(line.startswith(job) for line in _squeue(slurm)), 150, 0.5)
    return q, root / "results", root / "runs", task, victim, logs


def _check(q, results: Path, runs: Path, interrupted: tuple[str, str], tiny_models, tmp_path: Path):
    requests = {r.id: r for r in q.requests()}
    assert len(requests) == len(MODELS) and all(r.status == "FINISHED" for r in requests.values()), \
        [(r.id, r.status, r.reason, r.holders()) for r in requests.values()]
    tasks = [t for r in requests.values() for t in r.tasks.values()]
    assert len(tasks) == 2 * len(MODELS) and all(t.status == "SCORED" for t in tasks)
    assert all(r.lease_until is None for r in requests.values()) and all(t.lease_until is None for t in tasks)  # no lease left
    rid, bench = interrupted
    assert requests[rid].tasks[bench].attempts == 2  # claimed again after the interruption, and only then scored
    entries = sorted((results / "submissions").glob("*.json"))
    assert sorted(json.loads(e.read_text())["request"] for e in entries) == sorted(requests)  # each published once
    # the interrupted task's run equals a clean scoring of the same model on the same items
    from wordbench.benchmarks.suite import score_suite
    from wordbench.scorers.models import plan_model

    request = requests[rid]
    run = Path(request.tasks[bench].run)
    assert json.loads((run / "summary.json").read_text())["model"]["version"] == request.revision
    clean = score_suite([bench], plan_model(request.model, device="cpu"), profile="quick", out=tmp_path / "clean",
                        progress=False).runs[bench]
    ours = [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]
    theirs = [json.loads(line) for line in (clean.path / "records.jsonl").read_text().splitlines()]
    assert same_records(ours, theirs)  # floats to float32's rounding: batches of other rows after the interruption
    metrics = [json.loads((p / "summary.json").read_text())["metrics"] for p in (run, clean.path)]
    assert same_records([{"id": 0, **metrics[0]}], [{"id": 0, **metrics[1]}])


@pytest.mark.parametrize("signal", ["TERM", "KILL"])
def test_an_array_of_workers_on_slurm_scores_each_request_once_through_an_interruption(slurm, tiny_models, wnlampro_build,
                                                                                        tmp_path, signal):
    q, results, runs, interrupted, victim, logs = _scenario(slurm, tiny_models, tmp_path, signal)
    _check(q, results, runs, interrupted, tiny_models, tmp_path)
    victim_log = next(logs.glob(f"{victim}.log")).read_text()
    assert "Traceback" not in "".join(p.read_text() for p in logs.glob("*.log"))
    if signal == "TERM":  # it handed the request back and ended well, so a requeue would not count it a failure
        assert f"{interrupted[0]}[{interrupted[1]}] RELEASED" in victim_log
        job = subprocess.run(["scontrol", "show", "job", victim], capture_output=True, text=True, env=slurm).stdout
        assert "ExitCode=0:0" in job, job
