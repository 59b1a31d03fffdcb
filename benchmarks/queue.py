"""The submissions queue: one JSON request file per submitted model, with a status (PENDING, RUNNING, FINISHED,
FAILED), claimed by workers that hold a lease and renew it while they score.

Two backends behind one interface (``open_queue``): a local folder (the default; it works on a shared file system:
a claim is a file lock plus an atomic rename) and a Hub dataset repository (``hf:ORG/NAME``: a claim is a commit made
with ``parent_commit``, so of two workers exactly one wins). A RUNNING request whose lease ran out (its worker was
killed) is claimed again and resumes from its run folders."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import threading
import time
import typing
import uuid
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from wordbench.errors import ConfigError, DataFormatError, warn
from wordbench.files import write_output
from wordbench.spec import check_range, convert, opt
from wordbench.text import folded

from .hubfaults import hub_errors
from .results_folder import MARKER as RESULTS_MARKER
from .suite import parse_names
from .registry import get

STATUSES = ("PENDING", "RUNNING", "FINISHED", "FAILED")
DTYPES = ("float32", "bfloat16", "float16")
SETTINGS_FILE = "queue.json"
SET_ASIDE = "set-aside"  # where a worker moves a request file it cannot read, with the reason beside it
MIN_LEASE_S = 0.1  # a shorter lease would have its request file rewritten more than 30 times a second


def _suite_problem(spec: str) -> str | None:
    try:
        parse_names(spec)
    except ConfigError as exc:
        return str(exc)
    return None


def _iso_problem(text: str) -> str | None:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return f"{text!r} is no ISO time (e.g. 2026-01-31T12:00:00+00:00)"
    return None


def _data_problem(data: dict) -> str | None:
    for name in data:
        try:
            get(name)
        except ConfigError as exc:
            return str(exc)
    return next((f"'{name}' names no data" for name, spec in data.items() if not spec.strip()), None)


def _typed(obj) -> None:
    """Type every field of the dataclass ``obj`` by its declaration (``wordbench.spec``'s conversion and range; a
    ``dict`` field: text keys, values of its declared type), then check it as a whole (``validate``)."""
    hints = typing.get_type_hints(type(obj))
    for f in fields(obj):
        value = getattr(obj, f.name)
        if hints[f.name] is dict:
            value = _typed_mapping(f.name, value, f.metadata["values"])
        else:
            value = convert(f.name, value, hints[f.name], f.metadata)
        check_range(f.name, value, f.metadata)
        object.__setattr__(obj, f.name, value)
    obj.validate()


def _typed_mapping(key: str, value, kind: type) -> dict:
    if not isinstance(value, dict):
        raise ConfigError(f"'{key}' expects an object of name: {kind.__name__}, got {value!r}")
    if dataclasses.is_dataclass(kind):  # an object of declared fields per name (a split request's tasks)
        return {str(k): v if isinstance(v, kind) else _declared_value(f"{key}.{k}", v, kind) for k, v in value.items()}
    return {str(k): convert(f"{key}.{k}", v, kind) for k, v in value.items()}


def _declared_value(key: str, raw, kind: type):
    if not isinstance(raw, dict):
        raise ConfigError(f"'{key}' expects an object, got {raw!r}")
    declared = {f.name for f in fields(kind)}
    unknown = sorted(set(raw) - declared)
    if unknown:
        raise ConfigError(f"'{key}': unknown key(s) {', '.join(map(repr, unknown))}; it has {', '.join(sorted(declared))}")
    return kind(**raw)


def _mapping(help: str, values: type, required: bool = False, check=None):
    """A declared ``dict`` field: text keys, values of type ``values``."""
    meta = {"help": help, "values": values, "check": check}
    return field(metadata=meta) if required else field(default_factory=dict, metadata=meta)


def load_declared(cls, raw, where: str, what: str):
    """An instance of the declared dataclass ``cls`` from a file's parsed JSON ``raw``: an object with no unknown key
    and every required one, each value typed; a problem is one line naming the file ``where`` and the key."""
    if not isinstance(raw, dict):
        raise DataFormatError(f"{where}: {what} is a JSON object, this is a {type(raw).__name__}")
    declared = [f.name for f in fields(cls)]
    unknown = sorted(set(raw) - set(declared))
    if unknown:
        raise DataFormatError(f"{where}: unknown key(s) {', '.join(map(repr, unknown))}; {what} has {', '.join(declared)}")
    missing = [f.name for f in fields(cls) if f.name not in raw and f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING]
    if missing:
        raise DataFormatError(f"{where}: key(s) {', '.join(map(repr, missing))} missing")
    try:
        return cls(**raw)
    except ConfigError as exc:
        raise DataFormatError(f"{where}: {exc}") from None


@dataclass(frozen=True)
class QueueSettings:
    """A queue's ``queue.json``: every key optional, typed and bounded as the benchmarks' options are."""

    max_params: int = opt(20_000_000_000, "parameters a submitted model may have", ge=1)
    allow_pickle: bool = opt(False, "admit pickle checkpoints (they can run code when loaded)")
    lease_s: float = opt(300.0, "a RUNNING claim runs out this long after its worker's last renewal (seconds)", ge=MIN_LEASE_S)
    profile: str = opt("full", "the submission profile every request is scored with (quick: a CPU's)", nonempty=True)
    suite: str = opt("all", "the benchmarks of the suite: all, or NAME,NAME", nonempty=True, check=_suite_problem)
    dtype: Literal["float32", "bfloat16", "float16"] = opt("float32", "what a submission computes in unless it asks otherwise")
    split: bool = opt(False, "score each benchmark of a request as a task of its own, so that several workers score one "
                      "submission at once (each loads the model); its row is published when the last task ends")
    max_pending: int = opt(10, "PENDING requests one submitter may have at once (one person cannot flood the queue)", ge=1)
    data: dict = _mapping("benchmark -> its data (folder, file or HUB_ID@REVISION) for one with no default data, or in its "
                          "place", str, check=_data_problem)

    def __post_init__(self):
        _typed(self)

    def validate(self) -> None:
        for name in parse_names(self.suite):  # a profile every benchmark of the suite declares
            get(name).profile(self.profile)


DEFAULT_SETTINGS = asdict(QueueSettings())


def read_settings(text: str | None, where: str) -> dict:
    """The settings file's text (None: no file) through the declared ``QueueSettings``; a problem is one line naming
    the file and the key."""
    if text is None:
        return asdict(QueueSettings())
    try:
        given = json.loads(text)
    except ValueError as exc:
        raise DataFormatError(f"{where}: not JSON ({exc})") from None
    return asdict(load_declared(QueueSettings, given, where, "a queue's settings file"))


class LeaseLost(ConfigError):
    """The request is no longer this worker's (its lease ran out and another worker took it over)."""


class RequestFailed(LeaseLost):
    """A task's request failed on another of its tasks: the task's work is no longer wanted."""


def _field(help: str, default=dataclasses.MISSING, **bounds):
    return opt(default, help, **bounds)


TASK_STATUSES = ("PENDING", "RUNNING", "SCORED", "FAILED")
PUBLISH = "publish"  # what a worker holds of a split request whose benchmarks are all scored: publishing its row


@dataclass
class Task:
    """One benchmark of a split request, claimed, leased and finished on its own."""

    status: Literal["PENDING", "RUNNING", "SCORED", "FAILED"] = _field("where it stands", "PENDING")
    worker: str | None = _field("the worker holding or having scored it", None)
    lease_until: float | None = _field("the lease's end, in seconds since the epoch", None)
    attempts: int = _field("claims so far", 0, ge=0)
    reason: str | None = _field("a FAILED task's one line", None)
    seconds: dict = _mapping("wall time of the worker that scored it: the benchmark's and the model's load ('_load')", float)
    run: str | None = _field("the run folder it wrote (on the file system the workers share)", None)
    skipped: str | None = _field("why the benchmark was skipped for this model (its family, no data)", None)

    def __post_init__(self):
        _typed(self)

    def validate(self) -> None:
        pass


@dataclass
class Request:
    """One request file, typed by its declaration whether it is built in Python or read from a file."""

    id: str = _field("the request's id, also its file's name", nonempty=True,
                     check=lambda v: None if re.fullmatch(r"[\w.-]+", v) else "letters, digits, '-', '_' and '.' only")
    model: str = _field("what the submitter gave (an absolute path for a local model)", nonempty=True)
    revision: str = _field("pinned: a Hub commit, or sha256-8 of a local model's files", nonempty=True)
    dtype: Literal["float32", "bfloat16", "float16"] = _field("what the model computes in")
    family: str = _field("the model's family", nonempty=True)
    submitter: str = _field("who submitted it")
    submitted: str = _field("when, as an ISO time", check=_iso_problem)
    suite: dict = _mapping("benchmark -> version the request is scored on", str, required=True)
    profile: str = _field("the submission profile", nonempty=True)
    params: int | None = _field("its parameters (none: unknown)", None, ge=0)
    status: Literal["PENDING", "RUNNING", "FINISHED", "FAILED"] = _field("where it stands", "PENDING")
    worker: str | None = _field("the worker holding or having finished it", None)
    lease_until: float | None = _field("the lease's end, in seconds since the epoch", None)
    attempts: int = _field("claims so far", 0, ge=0)
    reason: str | None = _field("a FAILED request's one line", None)
    finished: str | None = _field("when it finished, as an ISO time", None, check=_iso_problem)
    seconds: dict = _mapping("benchmark -> wall time of the worker(s) that scored it ('_load': the model's loads)", float)
    tasks: dict = _mapping("benchmark -> its task, where the request is split (one task per benchmark); none: one "
                           "worker scores the whole suite with one load", Task)
    task = None  # not stored: what of the request a claim holds (a benchmark's name, PUBLISH; None: all of it)
    taken_from = None  # not stored: (worker, attempts) a claim took over from

    def __post_init__(self):
        _typed(self)

    def validate(self) -> None:
        if not self.suite:
            raise ConfigError("'suite' names no benchmark")
        if self.tasks and set(self.tasks) != set(self.suite):
            raise ConfigError(f"'tasks' names {', '.join(sorted(self.tasks))}, not the suite's {', '.join(sorted(self.suite))}")

    def holders(self) -> str:
        """Who works on it: ``worker W``, or of a split request its tasks (``2/6 scored; minpairs on W1, vast on W2``)."""
        if not self.tasks:
            return f"worker {self.worker or '-'}"
        scored = sum(t.status == "SCORED" for t in self.tasks.values())
        running = [f"{name} on {t.worker}" for name, t in self.tasks.items() if t.status == "RUNNING"]
        publishing = [f"publishing on {self.worker}"] if scored == len(self.tasks) and self.worker else []
        return "; ".join([f"{scored}/{len(self.tasks)} scored", *([", ".join(running)] if running else publishing)])

    @property
    def label(self) -> str:
        """The request, and what of it a claim holds: ``ID``, ``ID[BENCHMARK]`` or ``ID[publish]``."""
        task = getattr(self, "task", None)
        return f"{self.id}[{task}]" if task else self.id

    @property
    def identity(self) -> tuple:
        """What makes two submissions the same: the model's content (a local model's sha256 of its weights, config and
        tokenizer files, wherever it lies; a Hub model's id and commit), the dtype, the suite's versions."""
        what = (self.revision,) if self.revision.startswith("sha256-") else (self.model, self.revision)
        return (*what, self.dtype, tuple(sorted(self.suite.items())))

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str) -> "Request":
        """A request file's text through the declaration; each problem is one line naming the file and the key."""
        try:
            raw = json.loads(text)
        except ValueError as exc:
            raise DataFormatError(f"{where}: not JSON ({exc})") from None
        return load_declared(cls, raw, where, "a wordbench request")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")  # orders two submissions of one second


def new_id(model: str) -> str:
    slug = "".join(c if c.isalnum() or c in "-_." else "-" for c in Path(model).name)[:40]
    return f"{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%S')}-{slug}-{uuid.uuid4().hex[:6]}"


def check_pending(requests: list[Request], submitter: str, limit: int) -> None:
    """One line where ``submitter`` already has ``limit`` PENDING requests; names are compared as ``folded`` (NFKC,
    case-folded), so "Bob" and "ｂｏｂ" are one submitter."""
    who = folded(submitter)
    pending = sum(r.status == "PENDING" and folded(r.submitter) == who for r in requests)
    if pending >= limit:
        raise ConfigError(f"{submitter} already has {pending} pending request(s), this queue's limit (max_pending); "
                          "submit again when one has been scored")


def claimable(request, now: float, worker: str | None = None) -> bool:
    """PENDING, or RUNNING under a lease that ran out or under ``worker``'s own name (a worker claims only when it
    holds nothing, so work left in its name was lost to it: a reply that never came, a task it dropped)."""
    return request.status == "PENDING" or (request.status == "RUNNING" and ((request.lease_until or 0) < now
                                                                           or worker is not None and request.worker == worker))


@dataclass
class Unreadable:
    """A file in the requests folder that is no request this wordbench can read (or a copy of one: its name is not
    its id's), with the one line saying why."""

    path: str
    reason: str


class Queue:
    """What both backends share: reading requests, and the rules of claiming, renewing and finishing."""

    def settings(self) -> dict:
        raise NotImplementedError

    def scan(self) -> tuple[list[Request], list[Unreadable]]:
        """(the requests, oldest first; the files that hold none): one unreadable file never hides the others."""
        raise NotImplementedError

    def requests(self) -> list[Request]:
        return self.scan()[0]

    def set_aside(self) -> list[Unreadable]:
        """Move every unreadable request file out of the requests (into ``set-aside/``, its reason beside it), so that
        no single file stops the workers of a queue; returns what was moved."""
        raise NotImplementedError

    def _update(self, change) -> Request | None:
        """Apply ``change(requests, settings) -> Request | None`` atomically (one read of the queue); the request it
        returns is written back."""
        raise NotImplementedError

    def add(self, request: Request) -> Request:
        def change(requests, settings):
            now = time.time()
            same = [r for r in requests if r.identity == request.identity and (r.status != "FAILED" or any(
                t.status == "RUNNING" and (t.lease_until or 0) >= now for t in r.tasks.values()))]
            if same:
                where = f" ({same[0].model}: the same weights, config and tokenizer)" if same[0].model != request.model else ""
                state = same[0].status.lower() if same[0].status != "FAILED" else "failed, with tasks still running,"
                raise ConfigError(f"{request.model} ({request.dtype}, revision {request.revision}) is already {state} "
                                  f"as request {same[0].id}{where}")
            if any(r.id == request.id for r in requests):
                raise ConfigError(f"request id {request.id} is taken in {self}: submit again")
            check_pending(requests, request.submitter, int(settings["max_pending"]))
            return request
        return self._update(change)

    def claim(self, worker: str, fits=None) -> Request | None:
        """The oldest request with work to do, now RUNNING under ``worker``'s lease: a PENDING request, or a RUNNING one
        whose lease ran out (or left in ``worker``'s own name: a worker claims only when it holds nothing); of a split
        request, its first such task (``request.task``), or publishing its row once every
        task is scored (``PUBLISH``). ``fits(request, task)`` may pass over work (a job too near its end for it).
        Unreadable request files are set aside first."""
        self.set_aside()

        def change(requests, settings):
            now, lease = time.time(), float(settings["lease_s"])
            for r in sorted(requests, key=lambda r: (r.submitted, r.id)):
                for task in open_work(r, now, worker):
                    if fits is not None and not fits(r, task):
                        continue
                    held = slot(r, task)
                    # a takeover remembers whose it was: that worker may be alive, only slow (see hand_back)
                    taken_from = (held.worker, held.attempts) if held.status == "RUNNING" and held.worker not in (None, worker) else None
                    held.status, held.worker, held.lease_until, held.attempts = "RUNNING", worker, now + lease, held.attempts + 1
                    r.status, r.task, r.taken_from = "RUNNING", task, taken_from
                    return r
            return None
        return self._update(change)

    def _held(self, requests, request: Request, worker: str) -> Request:
        current = next((r for r in requests if r.id == request.id), None)
        task = getattr(request, "task", None)
        held = slot(current, task) if current is not None and (task is None or task == PUBLISH or task in current.tasks) else None
        if held is None or held.status != "RUNNING" or held.worker != worker:
            raise LeaseLost(f"request {request.label} is no longer held by {worker}")
        current.task = task
        return current

    def hand_back(self, request: Request, worker: str) -> Request:
        """Undo ``worker``'s takeover of ``request`` (or its task): its previous holder was found alive (it holds a run
        folder of the request), so it keeps the request, with a fresh lease and its own count of claims."""
        holder, attempts = request.taken_from

        def change(requests, settings):
            held = slot(current := self._held(requests, request, worker), request.task)
            held.worker, held.attempts, held.lease_until = holder, attempts, time.time() + float(settings["lease_s"])
            return current
        return self._update(change)

    def release(self, request: Request, worker: str) -> Request:
        """``worker`` gives ``request`` (or its task) up before finishing it (its job is ending): open again at once, for
        the next worker to claim and resume from the run folders, rather than after its lease runs out."""
        def change(requests, settings):
            current = self._held(requests, request, worker)
            held = slot(current, request.task)
            held.worker, held.lease_until = None, None
            if request.task != PUBLISH:  # a request being published stays RUNNING: its tasks are scored
                held.status = "PENDING"
            if current.tasks and all(t.status == "PENDING" for t in current.tasks.values()):
                current.status = "PENDING"
            return current
        return self._update(change)

    def reopen(self, request: Request, worker: str, names: list[str]) -> Request:
        """``worker``, publishing ``request``, found the run folders of tasks ``names`` missing (not on the file system it
        shares with their workers): those tasks are open again, to be scored where the runs are, and it lets go."""
        def change(requests, settings):
            current = self._held(requests, request, worker)
            for name in names:
                current.tasks[name] = Task(attempts=current.tasks[name].attempts)
            current.worker, current.lease_until, current.task = None, None, None
            return current
        return self._update(change)

    def renew(self, request: Request, worker: str) -> Request:
        """Extend ``worker``'s lease; ``RequestFailed`` for a task whose request failed on another task (its work is
        not wanted any more)."""
        def change(requests, settings):
            current = self._held(requests, request, worker)
            if request.task not in (None, PUBLISH) and current.status == "FAILED":
                raise RequestFailed(f"request {current.id} failed ({current.reason}): its other tasks stop")
            slot(current, request.task).lease_until = time.time() + float(settings["lease_s"])
            return current
        return self._update(change)

    def finish(self, request: Request, worker: str, status: str, reason: str | None = None, seconds: dict | None = None,
               run: str | None = None, skipped: str | None = None) -> Request:
        """End what ``worker`` holds of ``request``: the request (FINISHED or FAILED with its one line), or one task of a
        split request (scored, with its run folder or why it was skipped; or FAILED, which fails the request). The task
        that leaves every task scored hands the request's publishing to its worker at once (``task == PUBLISH``), decided
        here, in the one atomic change, so exactly one worker publishes."""
        def change(requests, settings):
            current = self._held(requests, request, worker)
            task = request.task
            if task in (None, PUBLISH):
                current.status, current.reason, current.finished, current.lease_until = status, reason, now_iso(), None
                current.seconds = (seconds or {}) if task is None else merged_seconds(current.tasks)
                current.task = None
                return current
            done, current.task = current.tasks[task], None
            done.status, done.reason, done.lease_until = ("SCORED" if status == "FINISHED" else "FAILED"), reason, None
            done.seconds, done.run, done.skipped = seconds or {}, run, skipped
            if current.status in ("FINISHED", "FAILED"):
                return current  # another task failed the request meanwhile
            if done.status == "FAILED":
                current.status, current.reason, current.finished = "FAILED", f"{task}: {reason}"[:500], now_iso()
                current.worker, current.lease_until, current.seconds = worker, None, merged_seconds(current.tasks)
            elif all(t.status == "SCORED" for t in current.tasks.values()):
                current.worker, current.lease_until, current.attempts = worker, time.time() + float(settings["lease_s"]), current.attempts + 1
                current.task, current.taken_from = PUBLISH, None
            return current
        return self._update(change)


def slot(request: Request, task: str | None):
    """What a claim of ``task`` holds: the task's fields, or (an unsplit request, or publishing) the request's own."""
    return request.tasks[task] if task not in (None, PUBLISH) else request


def open_work(request: Request, now: float, worker: str | None = None) -> list[str | None]:
    """What of ``request`` ``worker`` may claim now: None (the whole, unsplit request), its open tasks, or ``PUBLISH``."""
    if not request.tasks:
        return [None] if claimable(request, now, worker) else []
    if request.status in ("FINISHED", "FAILED"):
        return []
    if all(t.status == "SCORED" for t in request.tasks.values()):
        mine = worker is not None and request.worker == worker
        return [PUBLISH] if request.worker is None or (request.lease_until or 0) < now or mine else []
    return [name for name, t in request.tasks.items() if claimable(t, now, worker)]


def merged_seconds(tasks: dict) -> dict:
    """A split request's timing: each benchmark's, and the model's loads ('_load') summed over its tasks."""
    out = {name: s for t in tasks.values() for name, s in t.seconds.items() if name != "_load"}
    loads = [t.seconds["_load"] for t in tasks.values() if "_load" in t.seconds]
    return {**out, "_load": round(sum(loads), 2)} if loads else out


def _parse_files(files: list[tuple[str, str, str]]) -> tuple[list[Request], list[Unreadable]]:
    """(requests, unreadable) from (where, file name, text) of each request file: a file must hold a request whose
    id is its name (a copy beside the original would be a second file of one request)."""
    requests, bad = [], []
    for where, name, text in files:
        try:
            request = Request.from_json(text, where)
        except DataFormatError as exc:
            bad.append(Unreadable(where, str(exc)))
            continue
        if name != f"{request.id}.json":
            bad.append(Unreadable(where, f"{where}: holds request {request.id}, whose file is {request.id}.json (a copy?)"))
            continue
        requests.append(request)
    return sorted(requests, key=lambda r: (r.submitted, r.id)), bad


class LocalQueue(Queue):
    """A folder: ``queue.json`` (settings) and ``requests/<id>.json``; every change under one file lock, each file
    replaced by an atomic rename, so a reader never sees half a request and two workers never claim the same one.
    A folder that holds neither is refused unless ``create`` (a mistyped path is no new, empty queue)."""

    def __init__(self, folder: Path, create: bool = False):
        self.folder = Path(folder)
        if self.folder.is_symlink() and not self.folder.is_dir() or self.folder.exists() and not self.folder.is_dir():
            raise ConfigError(f"queue {self.folder} is not a folder: give a queue's folder")
        known = (self.folder / SETTINGS_FILE).is_file() or (self.folder / "requests").is_dir()
        if not known and not create:
            what = "does not exist" if not self.folder.exists() else f"holds no queue ({SETTINGS_FILE} or requests/)"
            raise ConfigError(f"queue {self.folder} {what}: check the path, or create it with 'wordbench queue {self.folder} --create'")
        results = next((p for p in (self.folder.resolve(), *self.folder.resolve().parents) if (p / RESULTS_MARKER).is_file()), None)
        if results is not None:
            raise ConfigError(f"queue {self.folder} lies inside the results folder {results}: keep a queue in a folder of its own")
        if not known and self.folder.is_dir() and any(self.folder.iterdir()):
            raise ConfigError(f"queue {self.folder} holds other files and no queue: create a queue in a new or empty folder")
        try:
            (self.folder / "requests").mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"queue {self.folder}: cannot create it ({exc.strerror or exc})") from None

    def __str__(self) -> str:
        return str(self.folder)

    def settings(self) -> dict:
        path = self.folder / SETTINGS_FILE
        return read_settings(path.read_text(encoding="utf-8", errors="replace") if path.exists() else None, str(path))

    def scan(self) -> tuple[list[Request], list[Unreadable]]:
        files = []
        for path in sorted((self.folder / "requests").glob("*.json")):
            try:
                text = path.read_text(encoding="utf-8")
            except FileNotFoundError:  # set aside or replaced by another process between the listing and the read
                continue
            except (OSError, UnicodeDecodeError) as exc:
                text = f"<unreadable: {exc}>"
            files.append((str(path), path.name, text))
        return _parse_files(files)

    def _lock(self):
        from filelock import FileLock

        return FileLock(str(self.folder / ".lock"))

    def set_aside(self) -> list[Unreadable]:
        aside = self.folder / SET_ASIDE
        with self._lock():
            bad = self.scan()[1]
            if not bad:
                return []
            try:
                aside.mkdir(exist_ok=True)
            except OSError:  # a file where the folder belongs (FileExistsError) or no write access: claims skip them anyway
                pass
            if not aside.is_dir():
                warn(f"{aside} is not a folder, so {len(bad)} unreadable request file(s) stay in place (claims skip them): "
                     f"move {aside} away")
                return []
            for item in bad:
                path = Path(item.path)
                name = aside_name(path.name, {p.name for p in aside.iterdir()})
                os.replace(path, aside / name)
                write_output(aside / f"{name}.reason.txt", item.reason + "\n", "queue")
                warn(f"set aside as {aside / name}: {item.reason}")
            return bad

    def _update(self, change) -> Request | None:
        with self._lock():
            request = change(self.requests(), self.settings())
            if request is not None:  # a temporary file renamed into place: no reader sees half a request
                write_output(self.folder / "requests" / f"{request.id}.json", request.to_json(), "queue")
            return request


def aside_name(name: str, taken: set[str]) -> str:
    """The name a set-aside copy of ``name`` gets: its own, or numbered (``x.2.json``, ``x.3.json``) where an earlier copy
    took it, so no copy is overwritten."""
    stem, dot, suffix = name.rpartition(".") if "." in name else (name, "", "")
    candidate, n = name, 1
    while candidate in taken or f"{candidate}.reason.txt" in taken:
        n += 1
        candidate = f"{stem}.{n}{dot}{suffix}"
    return candidate


def _is_request(path: str) -> bool:
    return path.startswith("requests/") and path.endswith(".json")


class HubQueue(Queue):
    """A Hub dataset repository holding ``requests/<id>.json``: each change is one commit whose ``parent_commit`` is
    the revision it read, so a change made on a stale view is refused by the Hub and tried again on a fresh one.
    Every fault of the Hub is one line (``HubFault``; transient ones are marked so that a worker tries again)."""

    RETRIES = 8

    def __init__(self, repo_id: str, api=None, token: str | None = None):
        from huggingface_hub import HfApi

        self.repo_id, self.token = repo_id, token
        self.api = api if api is not None else HfApi(token=token)
        self._texts: dict[str, str] = {}  # file contents by git blob id: a change downloads only what it changed
        self._aside: set[str] = set()  # names in set-aside/ at the last read
        self._read_here = threading.local()  # path -> text of this thread's last read (a lease renews from its own thread)

    def __str__(self) -> str:
        return f"hf:{self.repo_id}"

    def _read(self, path: str, revision: str) -> str:
        local = self.api.hf_hub_download(self.repo_id, path, repo_type="dataset", revision=revision)
        return Path(local).read_text(encoding="utf-8", errors="replace")

    def _snapshot(self) -> tuple[str, list[Request], dict, list[Unreadable]]:
        """The head revision, its requests, settings and unreadable files: one listing of the tree, and a download
        for each file whose blob this queue has not read yet."""
        with hub_errors(f"reading the queue {self}", self.token):
            head = self.api.repo_info(self.repo_id, repo_type="dataset").sha
            tree = self.api.list_repo_tree(self.repo_id, repo_type="dataset", revision=head, recursive=True)
            tree = list(tree)
            self._aside = {e.path.split("/", 1)[1] for e in tree if e.path.startswith(f"{SET_ASIDE}/")}
            blobs = {e.path: e.blob_id for e in tree  # files (folders have no blob id): requests and the settings
                     if getattr(e, "blob_id", None) and (_is_request(e.path) or e.path == SETTINGS_FILE)}
            # only the current files' contents are kept; read through one reference and used from this local copy, as
            # another thread (a lease's renewal) may replace the cache meanwhile
            known = self._texts
            texts = {blob: known[blob] if blob in known else self._read(path, head) for path, blob in blobs.items()}
            self._texts = texts
        self._read_here.texts = {path: texts[blob] for path, blob in blobs.items()}
        requests, bad = _parse_files([(f"{self}/{path}", path.split("/", 1)[1], texts[blob])
                                      for path, blob in sorted(blobs.items()) if _is_request(path)])
        settings = read_settings(texts[blobs[SETTINGS_FILE]] if SETTINGS_FILE in blobs else None, f"{self}/{SETTINGS_FILE}")
        return head, requests, settings, bad

    def settings(self) -> dict:
        return self._snapshot()[2]

    def scan(self) -> tuple[list[Request], list[Unreadable]]:
        _, requests, _, bad = self._snapshot()
        return requests, bad

    def _commit(self, make, message) -> object:
        """One commit of ``make(requests, settings, bad) -> (operations, result) | None`` on the head it read; tried again
        on a fresh read when another commit came first."""
        from huggingface_hub.errors import HfHubHTTPError

        for _ in range(self.RETRIES):
            head, requests, settings, bad = self._snapshot()
            made = make(requests, settings, bad)
            if made is None:
                return None
            operations, result = made
            with hub_errors(f"writing to the queue {self}", self.token):
                try:
                    self.api.create_commit(self.repo_id, repo_type="dataset", parent_commit=head, operations=operations,
                                           commit_message=message(result))
                except HfHubHTTPError as exc:  # a stale parent (another worker committed first): read again
                    if getattr(getattr(exc, "response", None), "status_code", None) in (409, 412):
                        continue
                    raise
            return result
        raise ConfigError(f"{self}: the queue kept changing under {self.RETRIES} tries; try again")

    def set_aside(self) -> list[Unreadable]:
        from huggingface_hub import CommitOperationAdd, CommitOperationDelete

        def make(requests, settings, bad):
            if not bad:
                return None
            ops, taken = [], set(self._aside)
            for item in bad:
                path = item.path[len(f"{self}/"):]
                name = aside_name(path.split("/", 1)[1], taken)
                taken |= {name, f"{name}.reason.txt"}
                text = self._read_here.texts[path]
                ops += [CommitOperationAdd(f"{SET_ASIDE}/{name}", text.encode()),
                        CommitOperationAdd(f"{SET_ASIDE}/{name}.reason.txt", (item.reason + "\n").encode()),
                        CommitOperationDelete(path)]
            return ops, bad

        moved = self._commit(make, lambda bad: f"set aside {len(bad)} unreadable request file(s)") or []
        for item in moved:
            warn(f"set aside in {self}/{SET_ASIDE}: {item.reason}")
        return moved

    def _update(self, change) -> Request | None:
        from huggingface_hub import CommitOperationAdd

        def make(requests, settings, bad):
            request = change(requests, settings)
            if request is None:
                return None
            return [CommitOperationAdd(f"requests/{request.id}.json", request.to_json().encode())], request

        return self._commit(make, lambda request: f"{request.label}: {request.status}")


def open_queue(spec: str | Path, token: str | None = None, create: bool = False) -> Queue:
    """``hf:ORG/NAME`` (a Hub dataset repository) or a local folder (made only with ``create``)."""
    text = str(spec)
    if text.startswith("hf:"):
        return HubQueue(text[3:], token=token)
    return LocalQueue(Path(text).expanduser(), create=create)
