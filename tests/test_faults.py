"""Faults a long job meets, with real processes: kill -9 during a build and during a score (then resume and
compare with an uninterrupted run), two concurrent runs of one scoring job, and a source edited between runs."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
CLI = [sys.executable, "-m", "wordbench.benchmarks.cli"]


def parquet_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for f in sorted((folder / "data").rglob("*.parquet")):
        h.update(f.relative_to(folder).as_posix().encode() + f.read_bytes())
    return h.hexdigest()


def start(args, **kw):
    return subprocess.Popen(CLI + args, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def kill_when(proc, ready, timeout=120.0) -> bool:
    """SIGKILL ``proc`` as soon as ``ready()`` holds; False when it finished first."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        if ready():
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return True
        time.sleep(0.05)
    proc.wait()
    return False


@pytest.fixture()
def corpus(tmp_path):
    lines = [f"line {i} of the corpus holds words such as cat dog tree house {i % 7} ." for i in range(4000)]
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_kill_9_during_a_build_then_rebuild_gives_the_same_data(corpus, tmp_path):
    args = ["build", "tendencies", "--set", f"corpus={corpus}"]
    clean = subprocess.run(CLI + args + ["--out", str(tmp_path / "clean")], env=ENV, capture_output=True, text=True, timeout=300)
    assert clean.returncode == 0, clean.stderr[-2000:]
    out = tmp_path / "killed"
    proc = start(args + ["--out", str(out)])
    killed = kill_when(proc, lambda: any(out.parent.glob(f".{out.name}.building-*")), timeout=60)
    print("build killed mid-write:", killed)
    if killed:  # nothing half-written in place of the build
        assert not out.exists() or not (out / "signature.json").exists() or parquet_digest(out) == parquet_digest(tmp_path / "clean")
    again = subprocess.run(CLI + args + ["--out", str(out)], env=ENV, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-2000:]
    assert parquet_digest(out) == parquet_digest(tmp_path / "clean")


def _records(run: Path) -> dict:
    return {r["id"]: r for r in map(json.loads, (run / "records.jsonl").read_text().splitlines())}


def test_kill_9_during_a_score_then_resume_loses_and_duplicates_nothing(wnlampro_build, tiny_models, tmp_path):
    data = str(wnlampro_build[0])
    args = ["score", "wnlampro", "--model", str(tiny_models["bert"]), "--data", data, "--limit", "300", "--batch-size", "2",
            "--device", "cpu"]
    clean = subprocess.run(CLI + args + ["--out", str(tmp_path / "clean"), "--json"], env=ENV, capture_output=True, text=True, timeout=600)
    assert clean.returncode == 0, clean.stderr[-2000:]
    reference = next((tmp_path / "clean" / "wnlampro").glob("*/*"))
    expected = _records(reference)
    out = tmp_path / "killed"
    proc = start(args + ["--out", str(out), "--json"])

    def some_records():
        files = list(out.glob("wnlampro/*/*/records.jsonl"))
        return bool(files) and files[0].stat().st_size > 0

    assert kill_when(proc, some_records, timeout=300), "the run finished before it could be killed"
    resumed = subprocess.run(CLI + args + ["--out", str(out), "--json"], env=ENV, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    run = next((out / "wnlampro").glob("*/*"))
    lines = (run / "records.jsonl").read_text().splitlines()
    got = _records(run)
    assert len(lines) == len(got) == len(expected)  # each item once
    assert got == expected  # the same records as the uninterrupted run
    summary = json.loads(resumed.stdout)[0]
    assert summary["metrics"] == json.loads((reference / "summary.json").read_text())["metrics"]


def test_two_concurrent_runs_of_one_job(wnlampro_build, tiny_models, tmp_path):
    args = ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--data", str(wnlampro_build[0]), "--limit", "200",
            "--batch-size", "2", "--device", "cpu", "--out", str(tmp_path / "runs"), "--json"]
    first, second = start(args), start(args)
    results = [(p.wait(timeout=600), p.stdout.read(), p.stderr.read()) for p in (first, second)]
    codes = sorted(code for code, _, _ in results)
    assert codes[0] == 0, results  # at least one finished
    for code, _, err in results:
        if code != 0:  # the other was told, in one line, that the folder is busy
            assert "being scored by another process" in err and "Traceback" not in err, err[-2000:]
    run = next((tmp_path / "runs" / "wnlampro").glob("*/*"))
    lines = (run / "records.jsonl").read_text().splitlines()
    assert len(lines) == len({json.loads(line)["id"] for line in lines})  # no item twice


def test_a_source_edited_between_two_builds_is_a_new_build(corpus, tmp_path):
    args = ["build", "tendencies", "--set", f"corpus={corpus}"]
    first = subprocess.run(CLI + args, env={**ENV, "WORDBENCH_CACHE": str(tmp_path / "cache")}, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr[-2000:]
    with open(corpus, "a") as f:
        f.write("one more line of the edited corpus .\n")
    second = subprocess.run(CLI + args, env={**ENV, "WORDBENCH_CACHE": str(tmp_path / "cache")}, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr[-2000:]
    sig = lambda out: next(line for line in out.splitlines() if line.startswith("signature:"))  # noqa: E731
    assert sig(first.stdout) != sig(second.stdout)
    folders = {line.split(" -> ")[1] for line in (first.stdout + second.stdout).splitlines() if " -> " in line}
    assert len(folders) == 2  # the first build is kept whole, the edit built anew
