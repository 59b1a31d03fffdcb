"""The queue as a service meets files no one here wrote: settings and request files of the wrong type, unreadable and
copied request files, requests written by hand, the Hub failing, outputs that are devices or links, and workers that
must wait for one another. Each class ends in one line, a counted skip or a request set aside; never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from wordbench.benchmarks.cli import cli
from wordbench.benchmarks.queue import HubQueue, LocalQueue, Request, open_queue
from wordbench.benchmarks.submit import admit
from wordbench.benchmarks.worker import run
from wordbench.errors import ConfigError, DataFormatError, WordbenchError
from wordbench.scorers.models import ModelError

SUITE = "wnlampro,tendencies"


def _queue(folder: Path, **settings) -> LocalQueue:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "queue.json").write_text(json.dumps({"profile": "quick", "suite": SUITE, **settings}))
    return LocalQueue(folder)


def _request(n: int, **changes) -> dict:
    from wordbench.benchmarks.registry import get

    return {"id": f"r{n}", "model": f"/nowhere/m{n}", "revision": f"sha256-{n:08x}", "dtype": "float32", "family": "causal",
            "submitter": "t", "submitted": f"2026-01-0{n}T00:00:00+00:00", "suite": {b: get(b).version for b in SUITE.split(",")},
            "profile": "quick", **changes}


def _one_line(result, retries: bool = False) -> str:
    """The one error line of a failed command (``retries``: after a warning for each try of a transient fault)."""
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    tries = lines[:-1] if retries else []
    assert len(lines) == len(tries) + 1 and lines[-1].startswith("Error: "), result.output
    assert all(line.startswith("warning: ") and "(try " in line for line in tries), result.output
    return lines[-1]


# --- the settings file ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key, value, says", [
    ("max_params", "1e9", "'max_params' expects an integer, got '1e9'"),
    ("max_params", 0, "'max_params' must be >= 1"),
    ("suite", ["wnlampro"], "'suite' expects text"),
    ("suite", "wnlampro,nope", "unknown benchmark 'nope'"),
    ("lease_s", "soon", "'lease_s' expects a number"),
    ("lease_s", -5, "'lease_s' must be >= 0.1"),
    ("lease_s", "2026-01-01T00:00:00", "'lease_s' expects a number"),
    ("allow_pickle", "maybe", "'allow_pickle' expects true or false"),
    ("profile", "fast", "no submission profile 'fast'"),
    ("dtype", "fp8", "'dtype' must be one of float32, bfloat16, float16"),
    ("leese_s", 30, "unknown key(s) 'leese_s'; a queue's settings file has max_params"),
    ("data", ["wnlampro"], "'data' expects an object of name: str"),
    ("data", {"nonesuch": "x"}, "'data': unknown benchmark 'nonesuch'"),
    ("data", {"wnlampro": 3}, "'data.wnlampro' expects text"),
])
def test_a_settings_value_of_the_wrong_type_is_one_line_naming_the_file_and_key(tmp_path, tiny_models, key, value, says):
    folder = tmp_path / "q"
    _queue(folder, **{key: value})
    for args in (["queue", str(folder)], ["submit", str(tiny_models["llama"]), "--queue", str(folder)],
                 ["worker", "--queue", str(folder), "--results", str(tmp_path / "res"), "--runs", str(tmp_path / "runs"), "--once"]):
        line = _one_line(CliRunner().invoke(cli, args))
        assert str(folder / "queue.json") in line and says in line, line


def test_settings_are_typed_not_truthy(tmp_path):
    q = _queue(tmp_path / "q", allow_pickle="false", max_params=1e9, lease_s="30")
    assert q.settings()["allow_pickle"] is False and q.settings()["max_params"] == 1_000_000_000 and q.settings()["lease_s"] == 30.0
    (tmp_path / "q" / "queue.json").write_text("[1, 2]")
    with pytest.raises(DataFormatError, match="a queue's settings file is a JSON object, this is a list"):
        q.settings()


# --- request files ---------------------------------------------------------------------------------------------------
BAD_REQUESTS = {
    "list.json": ("[1, 2]", "is a list"),
    "lease-date.json": (_request(2, id="lease-date", status="RUNNING", worker="w", lease_until="2026-01-01T10:00:00"),
                        "'lease_until' expects a number"),
    "submitted-number.json": (_request(3, id="submitted-number", submitted=1767225600), "'submitted' expects text"),
    "not-json.json": ("{\"id\": ", "not JSON"),
    "suite-list.json": (_request(4, id="suite-list", suite=["wnlampro"]), "'suite' expects an object"),
    "no-model.json": ({k: v for k, v in _request(5, id="no-model").items() if k != "model"}, "'model' missing"),
    "r1 copy.json": (_request(1), "holds request r1, whose file is r1.json (a copy?)"),
}


def _write_bad(folder: Path) -> None:
    for name, (content, _) in BAD_REQUESTS.items():
        (folder / "requests" / name).write_text(content if isinstance(content, str) else json.dumps(content))


def test_unreadable_request_files_are_listed_and_set_aside_and_the_queue_goes_on(tmp_path, tiny_models):
    q = _queue(tmp_path / "q")
    (tmp_path / "q" / "requests" / "r1.json").write_text(json.dumps(_request(1)))
    _write_bad(tmp_path / "q")
    listed = CliRunner().invoke(cli, ["queue", str(q.folder)])
    assert listed.exit_code == 0 and "PENDING (1)" in listed.output and f"UNREADABLE ({len(BAD_REQUESTS)}" in listed.output
    for name, (_, says) in BAD_REQUESTS.items():
        line = next(line for line in listed.output.splitlines() if name in line)
        assert says in line, (name, line)
    submitted = CliRunner().invoke(cli, ["submit", str(tiny_models["llama"]), "--queue", str(q.folder)])
    assert submitted.exit_code == 0 and "queued " in submitted.stdout, submitted.output
    assert submitted.stderr.count("a worker sets it aside") == len(BAD_REQUESTS)

    claimed = q.claim("w")  # a worker's claim sets every unreadable file aside first
    assert claimed.id == "r1"
    aside = q.folder / "set-aside"
    assert sorted(p.name for p in aside.glob("*.json")) == sorted(BAD_REQUESTS)
    assert "'lease_until' expects a number" in (aside / "lease-date.json.reason.txt").read_text()
    assert sorted(p.name for p in (q.folder / "requests").iterdir()) == sorted(["r1.json", f"{q.requests()[1].id}.json"])
    assert q.finish(claimed, "w", "FAILED", "x").status == "FAILED"


def test_a_copied_request_file_neither_loops_a_worker_nor_stays_running(tmp_path):
    q = _queue(tmp_path / "q")
    (q.folder / "requests" / "r1.json").write_text(json.dumps(_request(1)))
    shutil.copy(q.folder / "requests" / "r1.json", q.folder / "requests" / "r1 (copy).json")
    done = []
    worker = threading.Thread(target=lambda: done.append(run(q, tmp_path / "res", tmp_path / "runs", "cpu", stop_when_empty=True,
                                                             poll_s=0.1)))
    worker.start()
    worker.join(timeout=120)
    assert not worker.is_alive() and len(done[0].requests) == 1
    (final,) = q.requests()
    assert final.status == "FAILED" and final.attempts == 1 and "does not exist" in final.reason
    assert [p.name for p in (q.folder / "set-aside").glob("*.json")] == ["r1 (copy).json"]


# --- admission at the worker ------------------------------------------------------------------------------------------
def _hand_written(q: LocalQueue, model: Path, n: int = 1, **changes) -> str:
    from wordbench.identity import local_model_version

    request = _request(n, **{"model": str(model.resolve()), "revision": local_model_version(model), **changes})
    (q.folder / "requests" / f"{request['id']}.json").write_text(json.dumps(request))
    return request["id"]


def _hostile(src: Path, dst: Path, where: str) -> Path:
    shutil.copytree(src, dst)
    if where == "tokenizer auto_map":
        path = dst / "tokenizer_config.json"
        config = json.loads(path.read_text())
        path.write_text(json.dumps({**config, "auto_map": {"AutoTokenizer": ["tokenization_evil.EvilTokenizer", None]}}))
    elif where == "tokenizer class":
        path = dst / "tokenizer_config.json"
        path.write_text(json.dumps({**json.loads(path.read_text()), "tokenizer_class": "EvilTokenizer"}))
    elif where == "python file":
        (dst / "modeling_evil.py").write_text("raise SystemExit('ran remote code')\n")
    elif where == "architecture":
        path = dst / "config.json"
        path.write_text(json.dumps({**json.loads(path.read_text()), "architectures": ["EvilForCausalLM"]}))
    return dst


CODE = ("tokenizer auto_map", "tokenizer class", "python file", "architecture")


@pytest.mark.parametrize("where", CODE)
def test_code_anywhere_in_the_model_is_refused_at_submit_and_at_the_worker(tmp_path, tiny_models, where):
    q = _queue(tmp_path / "q")
    model = _hostile(tiny_models["llama"], tmp_path / "hostile", where)
    with pytest.raises(ModelError, match="ships code of its own .*submissions run no remote code"):
        admit(str(model), q)
    rid = _hand_written(q, model)  # written into the folder by hand: the worker checks it again before scoring
    stats = run(q, tmp_path / "res", tmp_path / "runs", "cpu", once=True)
    (done,) = q.requests()
    assert done.id == rid and done.status == "FAILED" and "ships code of its own" in done.reason, stats.requests
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())  # nothing was scored


def test_the_worker_refuses_a_request_of_another_suite_version_profile_or_content(tmp_path, tiny_models):
    q = _queue(tmp_path / "q")
    model = tiny_models["llama"]
    old = _hand_written(q, model, 1, suite={"wnlampro": "0.0.1", "tendencies": "0.0.1"})
    quick = _hand_written(q, model, 2, profile="full")
    changed = _hand_written(q, model, 3, revision="sha256-00000000", dtype="bfloat16")
    family = _hand_written(q, model, 4, family="masked", dtype="float16")
    stats = run(q, tmp_path / "res", tmp_path / "runs", "cpu", stop_when_empty=True, poll_s=0.1)
    reasons = {r.id: r.reason for r in q.requests()}
    assert len(stats.requests) == 4 and all(r.status == "FAILED" for r in q.requests())
    assert "names the suite tendencies@0.0.1, wnlampro@0.0.1, but this queue now scores" in reasons[old]
    assert "asks for profile full; this queue scores quick" in reasons[quick]
    assert "changed since it was submitted" in reasons[changed]
    assert "is a causal model, not masked" in reasons[family]


# --- admission by content, profiles and queue paths ------------------------------------------------------------------
def test_the_same_weights_at_a_second_path_are_a_duplicate(tmp_path, tiny_models):
    q = _queue(tmp_path / "q")
    first = admit(str(tiny_models["llama"]), q)
    second = shutil.copytree(tiny_models["llama"], tmp_path / "elsewhere" / "renamed")
    with pytest.raises(ConfigError, match=f"already pending as request {first.id} .*the same weights, config and tokenizer"):
        admit(str(second), q)
    (second / "config.json").write_text(json.dumps({**json.loads((second / "config.json").read_text()), "rope_theta": 12345.0}))
    assert admit(str(second), q).revision != first.revision  # other content: another model


def test_a_profile_that_does_not_exist_is_refused_at_submit(tmp_path, tiny_models):
    q = _queue(tmp_path / "q", profile="thorough")
    with pytest.raises(DataFormatError, match="queue.json: wnlampro has no submission profile 'thorough'"):
        admit(str(tiny_models["llama"]), q)
    assert not list((q.folder / "requests").iterdir())


def test_a_mistyped_queue_path_is_refused_unless_created(tmp_path, tiny_models):
    typo = tmp_path / "qeueu"
    for args in (["queue", str(typo)], ["submit", str(tiny_models["llama"]), "--queue", str(typo)],
                 ["worker", "--queue", str(typo), "--results", str(tmp_path / "res"), "--once"]):
        line = _one_line(CliRunner().invoke(cli, args))
        assert f"queue {typo} does not exist" in line and "--create" in line
    assert not typo.exists()
    (tmp_path / "plain").mkdir()
    assert "holds no queue" in _one_line(CliRunner().invoke(cli, ["queue", str(tmp_path / "plain")]))
    created = CliRunner().invoke(cli, ["queue", str(typo), "--create"])
    assert created.exit_code == 0 and "created" in created.output and "no requests" in created.output
    assert open_queue(typo).settings()["lease_s"] == 300.0


# --- Hub faults --------------------------------------------------------------------------------------------------------
def _http_error(status: int):
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

    response = type("Response", (), {"status_code": status, "headers": {}, "text": "", "url": "", "request": None})()
    cls = RepositoryNotFoundError if status == 404 else HfHubHTTPError
    return cls(f"{status} Client Error: for url https://huggingface.co/api/datasets/org/q", response=response)


def _offline():
    from huggingface_hub.errors import OfflineModeIsEnabled

    return OfflineModeIsEnabled("Cannot reach https://huggingface.co/api/datasets/org/q: offline mode is enabled.")


FAULTS = {
    "offline": (_offline, "HF_HUB_OFFLINE is set"),
    "unreachable": (lambda: ConnectionError("[Errno 111] Connection refused"), "the Hub cannot be reached"),
    "unauthorised": (lambda: _http_error(401), "not authorised (HTTP 401)"),
    "forbidden": (lambda: _http_error(403), "not authorised (HTTP 403)"),
    "missing": (lambda: _http_error(404), "not found on the Hub"),
    "down": (lambda: _http_error(503), "the Hub answered HTTP 503"),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_every_command_that_reaches_the_hub_says_its_fault_in_one_line(tmp_path, tiny_models, monkeypatch, fault):
    from huggingface_hub import HfApi

    make, says = FAULTS[fault]

    def fail(*args, **kwargs):
        raise make()

    for method in ("repo_info", "list_repo_tree", "list_repo_refs", "create_commit", "hf_hub_download", "model_info"):
        monkeypatch.setattr(HfApi, method, fail)
    monkeypatch.setattr(time, "sleep", lambda s: None)  # a transient fault's retries, without the waits
    (tmp_path / "run").mkdir()
    for args in (["queue", "hf:org/q"], ["submit", str(tiny_models["llama"]), "--queue", "hf:org/q"],
                 ["worker", "--queue", "hf:org/q", "--results", str(tmp_path / "res"), "--once"],
                 ["publish-results", str(tmp_path / "run"), "--repo-id", "org/results", "--local", str(tmp_path / "pub")]):
        if fault == "missing" and args[0] == "publish-results":
            continue  # a results repository that does not exist yet is created
        result = CliRunner().invoke(cli, args)
        line = _one_line(result, retries=args[0] == "worker")
        assert says in line, (args[0], line)
        if args[0] == "worker":  # the worker tries a transient fault again (bounded), a permanent one not
            assert result.output.count("warning: ") == (4 if fault in ("unreachable", "down") else 0)


class FlakyHub:
    """A Hub queue whose first ``fails`` reads raise ``error``, then an empty repository."""

    def __init__(self, fails: int, error):
        self.fails, self.error, self.calls = fails, error, 0

    def repo_info(self, repo_id, repo_type=None):
        self.calls += 1
        if self.calls <= self.fails:
            raise self.error()
        return type("Info", (), {"sha": "0"})()

    def list_repo_tree(self, *args, **kwargs):
        return iter(())


def test_a_worker_retries_a_transient_hub_fault_with_a_bounded_backoff(tmp_path):
    from wordbench.benchmarks.hubfaults import HubFault

    waits = []
    hub = FlakyHub(2, lambda: ConnectionError("connection reset"))
    stats = run(HubQueue("org/q", api=hub), tmp_path / "res", tmp_path / "runs", "cpu", once=True, sleep=waits.append)
    assert stats.requests == [] and waits == [2.0, 4.0]  # two faults, two waits, then the claim
    waits.clear()
    hub = FlakyHub(99, lambda: ConnectionError("connection reset"))
    with pytest.raises(HubFault, match="the Hub cannot be reached"):
        run(HubQueue("org/q", api=hub), tmp_path / "res", tmp_path / "runs", "cpu", once=True, sleep=waits.append)
    assert hub.calls == 5 and waits == [2.0, 4.0, 8.0, 16.0]  # bounded: five tries
    hub = FlakyHub(99, lambda: _http_error(401))
    with pytest.raises(HubFault, match="not authorised"):
        run(HubQueue("org/q", api=hub), tmp_path / "res", tmp_path / "runs", "cpu", once=True, sleep=waits.append)
    assert hub.calls == 1  # a permanent fault is not tried again


# --- outputs ------------------------------------------------------------------------------------------------------------
def test_outputs_that_are_devices_links_or_files_in_place_of_folders_are_refused(tmp_path, monkeypatch):
    from wordbench.files import check_output_file, write_output

    target = tmp_path / "real.md"
    target.write_text("kept\n")
    (tmp_path / "link.md").symlink_to(target)
    os.mkfifo(tmp_path / "pipe")
    for path, says in ((tmp_path / "link.md", "is a symlink"), (tmp_path / "pipe", "not a regular file"),
                       (Path("/dev/null"), "not a regular file")):
        for check in (lambda p: check_output_file(p, "--out"), lambda p: write_output(p, "x", "--out")):
            with pytest.raises(ConfigError, match=says):
                check(path)
    assert target.read_text() == "kept\n" and (tmp_path / "link.md").is_symlink()

    monkeypatch.setenv("WORDBENCH_CACHE", str(target))
    result = CliRunner().invoke(cli, ["build", "wnlampro"])
    assert f"WORDBENCH_CACHE={target} is not a folder" in _one_line(result)


def test_results_naming_a_file_is_refused_before_any_request_is_claimed(tmp_path):
    q = _queue(tmp_path / "q")
    (q.folder / "requests" / "r1.json").write_text(json.dumps(_request(1)))
    (tmp_path / "results.txt").write_text("not a folder\n")
    line = _one_line(CliRunner().invoke(cli, ["worker", "--queue", str(q.folder), "--results", str(tmp_path / "results.txt"), "--once"]))
    assert "--results" in line and "is a file" in line
    assert q.requests()[0].status == "PENDING"  # nothing claimed, nothing scored


def test_request_and_run_files_are_readable_by_others(tmp_path):
    from wordbench.benchmarks.results import RunFolder

    old = os.umask(0o022)
    try:
        q = _queue(tmp_path / "q")
        q.add(Request(**_request(1)))
        (tmp_path / "run").mkdir()
        path = RunFolder(tmp_path / "run").write_text("summary.json", "{}\n")
    finally:
        os.umask(old)
    for file in (q.folder / "requests" / "r1.json", path):
        assert stat.S_IMODE(file.stat().st_mode) == 0o644, file


# --- workers as a service ---------------------------------------------------------------------------------------------
def test_an_until_empty_worker_waits_for_a_live_lease_held_elsewhere(tmp_path):
    q = _queue(tmp_path / "q", lease_s=1.5)
    (q.folder / "requests" / "r1.json").write_text(json.dumps(_request(1)))
    assert q.claim("other").id == "r1"  # another worker holds r1 and then dies: its lease runs out in 1.5 s
    t0 = time.time()
    stats = run(q, tmp_path / "res", tmp_path / "runs", "cpu", stop_when_empty=True, poll_s=0.2, worker="me")
    (final,) = q.requests()
    assert time.time() - t0 >= 1.4 and len(stats.requests) == 1
    assert (final.worker, final.attempts, final.status) == ("me", 2, "FAILED")  # taken over once the lease ran out

    q2 = _queue(tmp_path / "q2", lease_s=30)
    (q2.folder / "requests" / "r2.json").write_text(json.dumps(_request(2)))
    held = q2.claim("other")
    threading.Timer(0.8, lambda: q2.finish(held, "other", "FINISHED")).start()  # the holder finishes in time
    t0 = time.time()
    stats = run(q2, tmp_path / "res", tmp_path / "runs", "cpu", stop_when_empty=True, poll_s=0.2, worker="me")
    assert 0.7 <= time.time() - t0 < 10 and stats.requests == [] and q2.requests()[0].worker == "other"


def test_workers_build_the_same_default_data_one_at_a_time(tmp_path, monkeypatch):
    from wordbench.benchmarks import hub

    monkeypatch.setenv("WORDBENCH_CACHE", str(tmp_path / "cache"))
    inside, most = [0], [0]
    lock = threading.Lock()

    def fake_build(builder, bench, config, sources, sig, folder, *rest):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.3)
        with lock:
            inside[0] -= 1
        return folder, {}

    monkeypatch.setattr(hub, "_build_locked", fake_build)
    threads = [threading.Thread(target=hub.build, args=("tendencies",), kwargs={"progress": False}) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 1  # one at a time: the second finds the first's build under the lock (hub._build_locked reads it)


def test_a_takeover_of_a_live_but_slow_worker_hands_the_request_back(tmp_path, monkeypatch):
    from wordbench.benchmarks import worker as worker_module
    from wordbench.benchmarks.queue import LeaseLost
    from wordbench.benchmarks.results import RunBusy
    from wordbench.benchmarks.worker import Lease, process

    q = _queue(tmp_path / "q", lease_s=0.5)
    (q.folder / "requests" / "r1.json").write_text(json.dumps(_request(1)))
    slow = q.claim("slow")
    time.sleep(0.6)  # its lease lapsed (a loaded machine), though it is alive and holds the run folder
    taken = q.claim("taker")
    assert taken.taken_from == ("slow", 1) and taken.attempts == 2
    monkeypatch.setattr(worker_module, "readmit", lambda request, settings: None)
    monkeypatch.setattr("wordbench.scorers.models.plan_model", lambda *args, **kwargs: None)

    def busy(*args, **kwargs):
        raise RunBusy("runs/wnlampro/m1/abcd is being scored by another process (PID 1): wait for it or stop it")

    monkeypatch.setattr(worker_module, "score_suite", busy)
    with pytest.raises(LeaseLost, match="left to slow, which is still scoring it"):
        process(q, taken, "taker", tmp_path / "res", tmp_path / "runs", "cpu")
    (back,) = q.requests()
    assert (back.status, back.worker, back.attempts) == ("RUNNING", "slow", 1) and back.lease_until > time.time()
    lease = Lease(q, slow, "slow", 0.3)  # the slow worker's renewals go on, and its finish stands
    lease.start()
    time.sleep(0.35)
    lease.stopped.set()
    assert lease.lost is None and q.finish(slow, "slow", "FINISHED").status == "FINISHED"
