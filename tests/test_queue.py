"""Submissions: admission, the queue's claims and leases (local folder and Hub), workers in real processes, the
submissions leaderboard."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from board_fixture import same_records

from wordbench.benchmarks.queue import HubQueue, LeaseLost, LocalQueue, Request
from wordbench.benchmarks.submit import admit
from wordbench.errors import ConfigError
from wordbench.scorers.models import ModelError

SUITE = "wnlampro,tendencies"


def _queue(folder: Path, **settings) -> LocalQueue:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "queue.json").write_text(json.dumps({"profile": "quick", "suite": SUITE, **settings}))
    return LocalQueue(folder)


def _copy_model(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    return dst


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    from tiny_models import build_tiny_models

    return build_tiny_models(tmp_path_factory.mktemp("queue-models"), positions=512)


def test_admission_refuses_each_bad_submission_with_one_line(models, tmp_path):
    q = _queue(tmp_path / "q", max_params=45_000)
    hostile = _copy_model(models["llama"], tmp_path / "hostile")
    config = json.loads((hostile / "config.json").read_text())
    (hostile / "config.json").write_text(json.dumps({**config, "auto_map": {"AutoModelForCausalLM": "modeling_evil.EvilModel"}}))
    (hostile / "modeling_evil.py").write_text("raise SystemExit('ran remote code')\n")
    with pytest.raises(ModelError, match="no remote code|trust_remote_code|own modelling code"):
        admit(str(hostile), q)
    with pytest.raises(ModelError, match="pickle"):
        admit(str(models["gpt2-pickle"]), q)
    with pytest.raises(ModelError, match="does not exist"):
        admit(str(tmp_path / "missing" / "model"), q)
    with pytest.raises(ModelError, match="51,456 parameters; this queue takes at most 45,000"):
        admit(str(models["gpt2"]), q)
    first = admit(str(models["llama"]), q, submitter="ada")
    assert (first.status, first.family, first.params, first.submitter) == ("PENDING", "causal", 39_840, "ada")
    assert first.revision.startswith("sha256-") and set(first.suite) == {"wnlampro", "tendencies"}
    with pytest.raises(ConfigError, match=f"already pending as request {first.id}"):
        admit(str(models["llama"]), q)
    assert admit(str(models["llama"]), q, dtype="bfloat16").dtype == "bfloat16"  # another identity
    assert [r.id for r in q.requests()][0] == first.id


def _request(n: int) -> Request:
    return Request(id=f"r{n}", model=f"m{n}", revision=f"sha256-{n:08x}", dtype="float32", family="causal", submitter="t",
                   submitted=f"2026-01-0{n}T00:00:00+00:00", suite={"wnlampro": "1"}, profile="quick")


def test_claims_are_exclusive_and_an_expired_lease_is_taken_over(tmp_path):
    q = _queue(tmp_path / "q", lease_s=0.5)
    for n in (2, 1):
        q.add(_request(n))
    a, b = q.claim("A"), q.claim("B")
    assert (a.id, b.id) == ("r1", "r2") and q.claim("C") is None  # oldest first, each once
    q.renew(a, "A")
    with pytest.raises(LeaseLost):
        q.renew(a, "B")
    time.sleep(0.6)
    taken = q.claim("C")  # r1's lease ran out (A stopped renewing): C takes it over
    assert taken.id == "r1" and taken.attempts == 2 and taken.worker == "C"
    with pytest.raises(LeaseLost):
        q.finish(a, "A", "FINISHED")  # A's late finish is refused: the work is C's now
    assert q.finish(taken, "C", "FAILED", "ModelError: bad").status == "FAILED"


class FakeHub:
    """The Hub's commit semantics for one dataset repo: ``create_commit(parent_commit=...)`` is refused (HTTP 412)
    unless the parent is the head, as the Hub does; files are read at a revision."""

    def __init__(self, root: Path):
        self.root, self.commits, self.downloads = root, [{}], 0

    def repo_info(self, repo_id, repo_type=None):
        return type("Info", (), {"sha": str(len(self.commits) - 1)})()

    def list_repo_tree(self, repo_id, repo_type=None, revision=None, recursive=False):
        import hashlib

        from huggingface_hub.hf_api import RepoFile, RepoFolder

        files = self.commits[int(revision)]
        yield from (RepoFolder(path=p, oid="tree") for p in sorted({f.split("/")[0] for f in files if "/" in f}))
        yield from (RepoFile(path=f, size=len(text), oid=hashlib.sha1(text.encode()).hexdigest()) for f, text in sorted(files.items()))

    def hf_hub_download(self, repo_id, filename, repo_type=None, revision=None):
        self.downloads += 1
        path = self.root / f"{revision}-{filename.replace('/', '_')}"
        path.write_text(self.commits[int(revision)][filename])
        return str(path)

    def create_commit(self, repo_id, operations, commit_message, repo_type=None, parent_commit=None):
        from huggingface_hub.errors import HfHubHTTPError

        if parent_commit is not None and parent_commit != str(len(self.commits) - 1):
            response = type("Response", (), {"status_code": 412, "headers": {}, "text": "", "url": "", "request": None})()
            raise HfHubHTTPError("412 Precondition Failed: A commit has happened since", response=response)
        files = dict(self.commits[-1])
        for op in operations:
            if hasattr(op, "path_or_fileobj"):
                files[op.path_in_repo] = op.path_or_fileobj.decode()
            else:  # CommitOperationDelete
                del files[op.path_in_repo]
        self.commits.append(files)


def test_hub_queue_claim_is_one_commit_on_the_parent_it_read(tmp_path):
    hub = FakeHub(tmp_path)
    a, b = HubQueue("org/requests", api=hub), HubQueue("org/requests", api=hub)
    a.add(_request(1))
    # B reads the queue, then A claims: B's commit on that stale parent is refused, and B, reading again, finds nothing
    head, requests, _, _ = b._snapshot()
    assert a.claim("A").id == "r1"
    with pytest.raises(Exception, match="412"):
        b.api.create_commit("org/requests", [], "stale", parent_commit=head)
    assert b.claim("B") is None
    assert [r.status for r in b.requests()] == ["RUNNING"] and b.requests()[0].worker == "A"


def test_hub_queue_downloads_only_the_files_a_change_touched(tmp_path):
    hub = FakeHub(tmp_path)
    q = HubQueue("org/requests", api=hub)
    for i in range(1, 6):
        q.add(_request(i))
    q.requests()
    before = hub.downloads
    q.claim("A")  # reads the queue (nothing new), commits r1
    assert hub.downloads == before
    assert [r.status for r in q.requests()].count("RUNNING") == 1 and hub.downloads == before + 1  # r1's new blob only
    fresh = HubQueue("org/requests", api=hub)
    assert len(fresh.requests()) == 5 and hub.downloads == before + 6  # a new reader reads every file once


def test_hub_queue_sets_an_unreadable_request_aside_in_one_commit_and_goes_on(tmp_path):
    from huggingface_hub import CommitOperationAdd

    hub = FakeHub(tmp_path)
    q = HubQueue("org/requests", api=hub)
    q.add(_request(1))
    good = json.loads(hub.commits[-1]["requests/r1.json"])
    junk = {"requests/list.json": "[1, 2]", "requests/r1-copy.json": json.dumps(good),
            "requests/date.json": json.dumps({**good, "id": "date", "lease_until": "2026-01-01T10:00:00"})}
    hub.create_commit("org/requests", [CommitOperationAdd(p, t.encode()) for p, t in junk.items()], "junk")
    requests, bad = q.scan()
    assert [r.id for r in requests] == ["r1"] and len(bad) == 3
    commits = len(hub.commits)
    assert q.claim("A").id == "r1" and len(hub.commits) == commits + 2  # one commit sets the three aside, one claims
    files = hub.commits[-1]
    assert sorted(f for f in files if f.startswith("requests/")) == ["requests/r1.json"]
    assert "'lease_until' expects a number" in files["set-aside/date.json.reason.txt"]
    assert files["set-aside/list.json"] == "[1, 2]" and q.scan()[1] == []


def _worker(queue: Path, results: Path, runs: Path, *extra) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "wordbench.benchmarks.cli", "worker", "--queue", str(queue), "--results", str(results),
           "--runs", str(runs), "--device", "cpu", "--poll", "0.5", *extra]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})


@pytest.mark.slow
def test_workers_in_real_processes_score_each_request_once_and_survive_a_kill(models, wnlampro_build, tmp_path):
    from wordbench.benchmarks.hub import build
    from wordbench.benchmarks.results_folder import submission_rows

    build("tendencies", progress=False)  # the default builds, once, before workers read them
    q = _queue(tmp_path / "q", lease_s=3)
    unscorable = _copy_model(models["gpt2"], tmp_path / "unscorable")  # its weights embed fewer tokens than its config says
    from safetensors.torch import load_file, save_file

    weights = load_file(unscorable / "model.safetensors")
    weights = {k: (v[:100] if v.shape[0] == json.loads((unscorable / "config.json").read_text())["vocab_size"] else v) for k, v in weights.items()}
    save_file(weights, unscorable / "model.safetensors", metadata={"format": "pt"})
    for name in ("gpt2", "llama", "bert", "t5"):
        admit(str(models[name]), q)
    admit(str(unscorable), q)
    with pytest.raises(ConfigError, match="already pending"):
        admit(str(models["gpt2"]), q)

    results, runs = tmp_path / "results", tmp_path / "runs"
    workers = [_worker(q.folder, results, runs, "--until-empty", "--name", f"w{i}") for i in range(3)]
    outputs = [w.communicate(timeout=600)[0] for w in workers]
    assert all(w.returncode == 0 for w in workers), outputs
    done = {Path(r.model).name: r for r in q.requests()}
    assert {k: r.status for k, r in done.items()} == {"gpt2": "FINISHED", "llama": "FINISHED", "bert": "FINISHED", "t5": "FINISHED",
                                                     "unscorable": "FAILED"}, ({k: r.reason for k, r in done.items()}, outputs)
    assert "cannot load causal model" in done["unscorable"].reason or "embeds" in done["unscorable"].reason
    assert all(r.attempts == 1 for r in done.values())  # each claimed once
    claimed = [line for out in outputs for line in out.splitlines() if line.endswith(("FINISHED", "FAILED")) or " FAILED: " in line]
    assert len(claimed) == 5
    names, rows = submission_rows(results)
    assert sorted(r["model"] for r in rows) == ["bert", "gpt2", "llama", "t5"] and names == ["wnlampro", "tendencies"]
    assert "tendencies" not in next(r for r in rows if r["model"] == "bert")["cells"]  # masked: skipped with its reason
    html = (results / "leaderboard.html").read_text()
    assert '<table id="submissions">' in html and "http" not in html.split("<body>")[1].split("<h2>Figures")[0]

    # SIGKILL mid-suite: the lease runs out, another worker resumes from the run folders; results as uninterrupted
    q2 = _queue(tmp_path / "q2", lease_s=3)
    again = admit(str(models["llama"]), q2)
    victim = _worker(q2.folder, tmp_path / "results2", tmp_path / "runs2", "--once", "--name", "victim")
    deadline = time.time() + 300
    while time.time() < deadline and not any(p.stat().st_size for p in (tmp_path / "runs2").glob("*/*/*/records*.jsonl")):
        time.sleep(0.2)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    held = next(r for r in q2.requests() if r.id == again.id)
    assert held.status == "RUNNING" and held.worker == "victim"
    time.sleep(max(0.0, held.lease_until - time.time()) + 0.5)
    rescuer = _worker(q2.folder, tmp_path / "results2", tmp_path / "runs2", "--until-empty", "--name", "rescuer")
    assert rescuer.wait(timeout=600) == 0, rescuer.stdout.read()
    final = next(r for r in q2.requests() if r.id == again.id)
    assert (final.status, final.worker, final.attempts) == ("FINISHED", "rescuer", 2)
    resumed = {p.parent.parent.parent.name: [json.loads(line) for line in p.read_text().splitlines()]
               for p in (tmp_path / "runs2").glob("*/*/*/records.jsonl")}
    whole = {p.parent.parent.parent.name: [json.loads(line) for line in p.read_text().splitlines()]
             for p in runs.glob("*/llama/*/records.jsonl")}
    assert set(resumed) == set(whole) == {"wnlampro", "tendencies"}
    for bench in whole:
        assert sorted(r["id"] for r in resumed[bench]) == sorted(r["id"] for r in whole[bench])  # no item twice, none lost
        # equal, floats to float32's rounding: the resumed part is batched with other rows, and a sum over a hundred
        # token log-probabilities moves in its last float32 digits with the batch it was padded in
        assert same_records(resumed[bench], whole[bench]), bench


def test_score_takes_a_suite_and_loads_the_model_once(models, wnlampro_build, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli
    from wordbench.benchmarks.hub import build
    from wordbench.scorers.models import ModelPlan

    build("tendencies", progress=False)
    loads = []
    load = ModelPlan.load
    monkeypatch.setattr(ModelPlan, "load", lambda self: loads.append(1) or load(self))
    args = ["score", "wnlampro,tendencies", "--model", str(models["llama"]), "--profile", "quick", "--out", str(tmp_path / "runs"),
            "--option", "wnlampro.word_start_only=false", "--device", "cpu"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert loads == [1] and "| wnlampro | WNLaMPro MRR |" in result.output and "| tendencies |" in result.output
    assert len(list((tmp_path / "runs").glob("*/llama/*/summary.json"))) == 2
    bad = CliRunner().invoke(cli, ["score", "wnlampro,tendencies", "--model", str(models["llama"]), "--option", "n=3"])
    assert bad.exit_code != 0 and "name the one it is for (wnlampro.n=3)" in bad.output
    masked = CliRunner().invoke(cli, ["score", "wnlampro,tendencies", "--model", str(models["bert"]), "--profile", "quick",
                                      "--out", str(tmp_path / "runs"), "--device", "cpu"])
    assert masked.exit_code == 0 and "tendencies | skipped: tendencies needs a causal or seq2seq model" in masked.output
