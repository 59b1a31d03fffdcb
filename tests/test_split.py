"""A submission split into one task per benchmark: each task claimed, leased and finished on its own; the worker whose
task leaves every task scored publishes the row, and that row equals the one a worker scoring the whole request writes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from board_fixture import local_queue, same_records

from wordbench.benchmarks.queue import PUBLISH, LeaseLost, Request, Task
from wordbench.errors import ConfigError


def _split(n: int, suite=("wnlampro", "vast")) -> Request:
    return Request(id=f"r{n}", model=f"m{n}", revision=f"sha256-{n:08x}", dtype="float32", family="causal", submitter="t",
                   submitted=f"2026-01-0{n}T00:00:00+00:00", suite={b: "1" for b in suite}, profile="quick",
                   tasks={b: Task() for b in suite})


def test_tasks_are_claimed_apart_and_the_last_to_finish_publishes(tmp_path):
    q = local_queue(tmp_path / "q", lease_s=0.5)
    q.add(_split(1))
    a, b = q.claim("A"), q.claim("B")
    assert (a.label, b.label) == ("r1[vast]", "r1[wnlampro]") and q.claim("C") is None  # one task each, then none
    assert q.requests()[0].status == "RUNNING" and q.requests()[0].holders() == "0/2 scored; vast on A, wnlampro on B"
    with pytest.raises(LeaseLost):
        q.renew(a, "B")  # a task's lease is its worker's
    first = q.finish(a, "A", "FINISHED", seconds={"vast": 2.0, "_load": 1.0}, run="/runs/vast/m1/x")
    assert first.task is None and first.status == "RUNNING" and first.tasks["vast"].status == "SCORED"
    last = q.finish(b, "B", "FINISHED", seconds={"wnlampro": 3.0, "_load": 1.5}, skipped=None, run="/runs/wnlampro/m1/y")
    assert last.task == PUBLISH and last.worker == "B"  # decided in the same change: B publishes, nobody else
    assert q.claim("C") is None  # B's publishing lease is live
    time.sleep(0.6)
    taken = q.claim("C")  # B died while publishing: its lease ran out
    assert taken.label == "r1[publish]" and taken.taken_from == ("B", 1)
    with pytest.raises(LeaseLost):
        q.finish(last, "B", "FINISHED")
    done = q.finish(taken, "C", "FINISHED")
    assert (done.status, done.seconds, done.lease_until) == ("FINISHED", {"vast": 2.0, "wnlampro": 3.0, "_load": 2.5}, None)
    assert q.claim("C") is None


def test_a_failed_task_fails_the_request_and_a_released_task_is_open_at_once(tmp_path):
    q = local_queue(tmp_path / "q", lease_s=30)
    q.add(_split(1))
    q.add(_split(2))
    a = q.claim("A")
    assert q.release(a, "A").status == "PENDING"  # the job ends: open again now, not when the lease runs out
    a = q.claim("A")
    b = q.claim("B")
    assert (a.label, b.label) == ("r1[vast]", "r1[wnlampro]")
    failed = q.finish(a, "A", "FAILED", "ModelError: cannot load")
    assert (failed.status, failed.reason) == ("FAILED", "vast: ModelError: cannot load")
    assert q.claim("C").label == "r2[vast]"  # r1's work ends with its failure; r2 goes on
    after = q.finish(b, "B", "FINISHED", run="/runs/x")  # B's task ends late: recorded, and the request stays failed
    assert after.status == "FAILED" and after.task is None and after.tasks["wnlampro"].status == "SCORED"


def test_a_worker_near_its_jobs_end_claims_only_work_that_fits(tmp_path):
    from wordbench.benchmarks.worker import expected_costs, run, work_cost

    q = local_queue(tmp_path / "q", lease_s=30)
    done = _split(1)
    done.status = "FINISHED"
    done.tasks = {"wnlampro": Task(status="SCORED", seconds={"wnlampro": 100.0, "_load": 10.0}),
                  "vast": Task(status="SCORED", seconds={"vast": 5.0, "_load": 10.0})}
    q.add(done)
    q.add(_split(2))
    costs = expected_costs(q.requests())
    assert costs == ({"wnlampro": 100.0, "vast": 5.0}, 10.0)
    r2 = q.requests()[1]
    assert (work_cost(r2, "vast", costs), work_cost(r2, None, costs), work_cost(r2, PUBLISH, costs)) == (15.0, 115.0, 0.0)
    fits = lambda r, task: work_cost(r, task, costs) <= 50  # noqa: E731
    claimed = q.claim("A", fits)
    assert claimed.label == "r2[vast]" and q.claim("B", fits) is None  # wnlampro's 110 s would not fit
    stats = run(q, tmp_path / "results", tmp_path / "runs", device="cpu", worker="late", deadline=time.time() + 50)
    assert stats.requests == []  # returned at once: nothing left fits before the job's end
    assert q.requests()[1].tasks["wnlampro"].status == "PENDING"


def test_a_split_request_file_is_read_through_its_declaration(tmp_path):
    from wordbench.errors import DataFormatError

    r = _split(1)
    assert Request.from_json(r.to_json(), "r1.json") == r
    raw = json.loads(r.to_json())
    raw["tasks"]["vast"]["status"] = "DONE"
    with pytest.raises(DataFormatError, match="r1.json: 'status'"):
        Request.from_json(json.dumps(raw), "r1.json")
    raw = json.loads(r.to_json())
    raw["tasks"] = {"vast": {}}
    with pytest.raises(DataFormatError, match="'tasks' names vast, not the suite's vast, wnlampro"):
        Request.from_json(json.dumps(raw), "r1.json")
    raw["tasks"] = {"vast": {"colour": 1}, "wnlampro": {}}
    with pytest.raises(DataFormatError, match=r"'tasks.vast': unknown key\(s\) 'colour'"):
        Request.from_json(json.dumps(raw), "r1.json")


def _published(results: Path) -> tuple[list, list[dict]]:
    from wordbench.benchmarks.ranking import board

    names, rows = board(results)
    entries = [json.loads(p.read_text()) for p in sorted((results / "submissions").glob("*.json"))]
    assert all(r["cost"] > 0 for r in rows) and all(e["device"] == "cpu" for e in entries)  # the workers' own timing
    return names, rows, [{k: v for k, v in e.items() if k not in ("request", "submitted", "seconds")} for e in entries]


def test_a_split_submission_publishes_the_row_of_an_unsplit_one(tiny_models, wnlampro_build, tmp_path):
    """gpt2 scored on both benchmarks, bert (masked) skipped for tendencies: split into tasks and scored by two
    workers in turn, the rows, the submission entries and the runs' records are those of one worker scoring each whole."""
    from wordbench.benchmarks.hub import build
    from wordbench.benchmarks.submit import admit
    from wordbench.benchmarks.worker import run

    build("tendencies", progress=False)
    out = {}
    for mode in ("whole", "split"):
        q = local_queue(tmp_path / mode / "queue", suite="wnlampro,tendencies")
        for name in ("gpt2", "bert"):
            admit(str(tiny_models[name]), q, submitter="maintainer", split=mode == "split")
        results, runs = tmp_path / mode / "results", tmp_path / mode / "runs"
        if mode == "split":  # one worker takes a task and stops; the second does the rest and publishes both rows
            first = run(q, results, runs, device="cpu", once=True, worker="w1")
            assert first.requests == [f"{q.requests()[0].id}[tendencies] SCORED"] and not results.exists()
        stats = run(q, results, runs, device="cpu", stop_when_empty=True, worker="w2")
        requests = q.requests()
        assert all(r.status == "FINISHED" and r.lease_until is None for r in requests), [(r.id, r.reason) for r in requests]
        if mode == "split":
            assert all(r.tasks and all(t.status == "SCORED" for t in r.tasks.values()) for r in requests)
            assert requests[1].tasks["tendencies"].skipped.startswith("tendencies needs a causal or seq2seq model")
            assert sum(line.endswith("FINISHED") for line in stats.requests) == 2  # the last task of each, then its row
        out[mode] = (_published(results), {p.relative_to(runs).parts[:2]: [json.loads(x) for x in p.read_text().splitlines()]
                                           for p in runs.glob("*/*/*/records.jsonl")})
    (names, rows, entries), records = out["whole"]
    (names2, rows2, entries2), records2 = out["split"]
    assert names == names2 == ["wnlampro", "tendencies"] and entries == entries2
    assert [{k: v for k, v in r.items() if k not in ("request", "cost")} for r in rows] == \
        [{k: v for k, v in r.items() if k not in ("request", "cost")} for r in rows2]
    assert records.keys() == records2.keys() and len(records) == 3
    assert all(same_records(records[k], records2[k]) for k in records)


def test_a_task_of_a_request_failed_elsewhere_stops_at_its_next_chunk(tmp_path, monkeypatch):
    """Worker B scores one task while A's task fails the request: B's lease renewal learns it, B's scoring stops at
    its next chunk boundary (not at its end), its task is recorded FAILED as abandoned, and B is free for other work."""
    import threading

    from wordbench import stopping
    from wordbench.benchmarks import worker as worker_module
    from wordbench.benchmarks.worker import process

    q = local_queue(tmp_path / "q", lease_s=0.3)
    q.add(_split(1))
    a, b = q.claim("A"), q.claim("B")
    monkeypatch.setattr(worker_module, "readmit", lambda request, settings: None)
    monkeypatch.setattr("wordbench.scorers.models.plan_model", lambda *args, **kwargs: None)
    chunks = []

    def long_scoring(*args, **kwargs):  # a chunk every 20 ms for up to 30 s, checking between chunks as scoring does
        for _ in range(1500):
            stopping.check()
            chunks.append(1)
            time.sleep(0.02)
        raise AssertionError("scored to the end: the failed request's task was not abandoned")

    monkeypatch.setattr(worker_module, "score_suite", long_scoring)
    threading.Timer(0.2, lambda: q.finish(a, "A", "FAILED", "ModelError: cannot load")).start()
    t0 = time.perf_counter()
    done = process(q, b, "B", tmp_path / "res", tmp_path / "runs", "cpu")
    assert time.perf_counter() - t0 < 5 and 0 < len(chunks) < 250
    task = done.tasks["wnlampro"]
    assert (done.status, task.status, task.worker) == ("FAILED", "FAILED", "B") and "abandoned" in task.reason, task
    assert done.reason == "vast: ModelError: cannot load"  # the request keeps the failure that ended it
    stopping.check()  # the abandonment ended with the claim: the next one is not stopped by it


def test_renewing_a_task_of_a_failed_request_says_so(tmp_path):
    from wordbench.benchmarks.queue import RequestFailed

    q = local_queue(tmp_path / "q", lease_s=30)
    q.add(_split(1))
    a, b = q.claim("A"), q.claim("B")
    q.renew(b, "B")
    q.finish(a, "A", "FAILED", "ModelError: x")
    with pytest.raises(RequestFailed, match="request r1 failed .vast: ModelError: x.: its other tasks stop"):
        q.renew(b, "B")


def test_a_failed_split_request_with_a_task_running_is_not_submitted_again_yet(tmp_path):
    q = local_queue(tmp_path / "q", lease_s=30)
    q.add(_split(1))
    a, b = q.claim("A"), q.claim("B")
    q.finish(a, "A", "FAILED", "ModelError: x")
    with pytest.raises(ConfigError, match="is already failed, with tasks still running, as request r1"):
        q.add(Request(**{**_split(1).__dict__, "id": "r9"}))  # its run folders are still B's: a copy would fail on them
    q.finish(b, "B", "FINISHED", run="/runs/x")
    assert q.add(Request(**{**_split(1).__dict__, "id": "r9"})).id == "r9"


def test_work_left_in_a_workers_own_name_is_its_own_to_claim_and_missing_runs_reopen_their_tasks(tmp_path):
    q = local_queue(tmp_path / "q", lease_s=30)
    q.add(_split(1))
    a = q.claim("A")
    again = q.claim("A")  # A lost the reply of its claim (or dropped the task): no lease to wait out
    assert again.label == a.label and again.taken_from is None and again.tasks[a.task].attempts == 2
    b = q.claim("B")
    q.finish(again, "A", "FINISHED", run=str(tmp_path / "elsewhere" / "vast"))  # a runs folder this worker does not see
    last = q.finish(b, "B", "FINISHED", run=str(tmp_path / "elsewhere" / "wnlampro"))
    assert last.task == PUBLISH
    back = q.reopen(last, "B", ["vast"])
    assert back.tasks["vast"].status == "PENDING" and back.tasks["wnlampro"].status == "SCORED" and back.worker is None
    assert q.claim("C").label == "r1[vast]"
