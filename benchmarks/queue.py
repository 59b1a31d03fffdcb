"""The submissions queue: one JSON request file per submitted model, with a status (PENDING, RUNNING, FINISHED,
FAILED), claimed by workers that hold a lease and renew it while they score.

Two backends behind one interface (``open_queue``): a local folder (the default; it works on a shared file system:
a claim is a file lock plus an atomic rename) and a Hub dataset repository (``hf:ORG/NAME``: a claim is a commit made
with ``parent_commit``, so of two workers exactly one wins). A RUNNING request whose lease ran out (its worker was
killed) is claimed again and resumes from its run folders."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path

from wordbench.errors import ConfigError, DataFormatError
from wordbench.files import write_output

STATUSES = ("PENDING", "RUNNING", "FINISHED", "FAILED")
SETTINGS_FILE = "queue.json"
DEFAULT_SETTINGS = {
    "max_params": 20_000_000_000,  # parameters a submitted model may have
    "allow_pickle": False,  # pickle checkpoints can run code when loaded
    "lease_s": 300,  # a RUNNING claim runs out this long after its worker's last renewal
    "profile": "full",  # the submission profile every request is scored with (quick: a CPU's)
    "suite": "all",  # the benchmarks of the suite
    "dtype": "float32",  # what a submission computes in unless it asks otherwise
    "data": {},  # benchmark -> its data (folder, file or HUB_ID@REVISION) for one with no default data, or in its place
    "max_pending": 10,  # PENDING requests one submitter may have at once (one person cannot flood the queue)
}


class LeaseLost(ConfigError):
    """The request is no longer this worker's (its lease ran out and another worker took it over)."""


@dataclass
class Request:
    id: str
    model: str  # what the submitter gave (an absolute path for a local model)
    revision: str  # pinned: a Hub commit, or sha256-8 of a local model's files
    dtype: str
    family: str
    submitter: str
    submitted: str  # ISO time
    suite: dict  # benchmark -> version
    profile: str
    params: int | None = None
    status: str = "PENDING"
    worker: str | None = None
    lease_until: float | None = None
    attempts: int = 0
    reason: str | None = None  # a FAILED request's one line
    finished: str | None = None
    seconds: dict = field(default_factory=dict)  # benchmark -> wall time of the worker that finished it

    @property
    def identity(self) -> tuple:
        """What makes two submissions the same: the model, its pinned revision, the dtype, the suite's versions."""
        return (self.model, self.revision, self.dtype, tuple(sorted(self.suite.items())))

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str) -> "Request":
        try:
            raw = json.loads(text)
            known = {f.name for f in fields(cls)}
            request = cls(**{k: v for k, v in raw.items() if k in known})
        except (ValueError, TypeError) as exc:
            raise DataFormatError(f"{where}: not a wordbench request ({exc})") from None
        if request.status not in STATUSES:
            raise DataFormatError(f"{where}: unknown status {request.status!r}")
        return request


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")  # orders two submissions of one second


def new_id(model: str) -> str:
    slug = "".join(c if c.isalnum() or c in "-_." else "-" for c in Path(model).name)[:40]
    return f"{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%S')}-{slug}-{uuid.uuid4().hex[:6]}"


def check_pending(requests: list[Request], submitter: str, limit: int) -> None:
    """One line where ``submitter`` already has ``limit`` PENDING requests."""
    pending = sum(r.status == "PENDING" and r.submitter == submitter for r in requests)
    if pending >= limit:
        raise ConfigError(f"{submitter} already has {pending} pending request(s), this queue's limit (max_pending); "
                          "submit again when one has been scored")


def claimable(request: Request, now: float) -> bool:
    return request.status == "PENDING" or (request.status == "RUNNING" and (request.lease_until or 0) < now)


class Queue:
    """What both backends share: reading requests, and the rules of claiming, renewing and finishing."""

    def settings(self) -> dict:
        raise NotImplementedError

    def requests(self) -> list[Request]:
        raise NotImplementedError

    def _update(self, change) -> Request | None:
        """Apply ``change(requests, settings) -> Request | None`` atomically (one read of the queue); the request it
        returns is written back."""
        raise NotImplementedError

    def add(self, request: Request) -> Request:
        def change(requests, settings):
            same = [r for r in requests if r.identity == request.identity and r.status != "FAILED"]
            if same:
                raise ConfigError(f"{request.model} ({request.dtype}, revision {request.revision}) is already {same[0].status.lower()} "
                                  f"as request {same[0].id}")
            check_pending(requests, request.submitter, int(settings["max_pending"]))
            return request
        return self._update(change)

    def claim(self, worker: str) -> Request | None:
        """The oldest PENDING request, or a RUNNING one whose lease ran out, now RUNNING under ``worker``'s lease."""
        def change(requests, settings):
            now, lease = time.time(), float(settings["lease_s"])
            for r in sorted(requests, key=lambda r: (r.submitted, r.id)):
                if claimable(r, now):
                    r.status, r.worker, r.lease_until, r.attempts = "RUNNING", worker, now + lease, r.attempts + 1
                    return r
            return None
        return self._update(change)

    def _held(self, requests, request: Request, worker: str) -> Request:
        current = next((r for r in requests if r.id == request.id), None)
        if current is None or current.status != "RUNNING" or current.worker != worker:
            raise LeaseLost(f"request {request.id} is no longer held by {worker}")
        return current

    def renew(self, request: Request, worker: str) -> Request:
        def change(requests, settings):
            current = self._held(requests, request, worker)
            current.lease_until = time.time() + float(settings["lease_s"])
            return current
        return self._update(change)

    def finish(self, request: Request, worker: str, status: str, reason: str | None = None, seconds: dict | None = None) -> Request:
        def change(requests, settings):
            current = self._held(requests, request, worker)
            current.status, current.reason, current.finished, current.lease_until = status, reason, now_iso(), None
            current.seconds = seconds or {}
            return current
        return self._update(change)


class LocalQueue(Queue):
    """A folder: ``queue.json`` (settings) and ``requests/<id>.json``; every change under one file lock, each file
    replaced by an atomic rename, so a reader never sees half a request and two workers never claim the same one."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise ConfigError(f"queue {self.folder} is a file: give a folder")
        (self.folder / "requests").mkdir(parents=True, exist_ok=True)

    def __str__(self) -> str:
        return str(self.folder)

    def settings(self) -> dict:
        path = self.folder / SETTINGS_FILE
        if not path.exists():
            return dict(DEFAULT_SETTINGS)
        try:
            given = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise DataFormatError(f"{path}: not JSON ({exc})") from None
        unknown = set(given) - set(DEFAULT_SETTINGS)
        if unknown:
            raise DataFormatError(f"{path}: unknown setting(s) {', '.join(sorted(unknown))}; known: {', '.join(DEFAULT_SETTINGS)}")
        return {**DEFAULT_SETTINGS, **given}

    def requests(self) -> list[Request]:
        out = []
        for path in sorted((self.folder / "requests").glob("*.json")):
            out.append(Request.from_json(path.read_text(encoding="utf-8"), str(path)))
        return sorted(out, key=lambda r: (r.submitted, r.id))

    def _update(self, change) -> Request | None:
        from filelock import FileLock

        with FileLock(str(self.folder / ".lock")):
            request = change(self.requests(), self.settings())
            if request is not None:  # a temporary file renamed into place: no reader sees half a request
                write_output(self.folder / "requests" / f"{request.id}.json", request.to_json(), "queue")
            return request


def _is_request(path: str) -> bool:
    return path.startswith("requests/") and path.endswith(".json")


class HubQueue(Queue):
    """A Hub dataset repository holding ``requests/<id>.json``: each change is one commit whose ``parent_commit`` is
    the revision it read, so a change made on a stale view is refused by the Hub and tried again on a fresh one."""

    RETRIES = 8

    def __init__(self, repo_id: str, api=None, token: str | None = None):
        from huggingface_hub import HfApi

        self.repo_id = repo_id
        self.api = api if api is not None else HfApi(token=token)
        self._texts: dict[str, str] = {}  # file contents by git blob id: a change downloads only what it changed

    def __str__(self) -> str:
        return f"hf:{self.repo_id}"

    def _read(self, path: str, revision: str) -> str:
        local = self.api.hf_hub_download(self.repo_id, path, repo_type="dataset", revision=revision)
        return Path(local).read_text(encoding="utf-8")

    def _snapshot(self) -> tuple[str, list[Request], dict]:
        """The head revision, its requests and settings: one listing of the tree, and a download for each file whose
        blob this queue has not read yet."""
        head = self.api.repo_info(self.repo_id, repo_type="dataset").sha
        tree = self.api.list_repo_tree(self.repo_id, repo_type="dataset", revision=head, recursive=True)
        blobs = {e.path: e.blob_id for e in tree  # files (folders have no blob id): requests and the settings
                 if getattr(e, "blob_id", None) and (_is_request(e.path) or e.path == SETTINGS_FILE)}
        # only the current files' contents are kept
        self._texts = {blob: self._texts[blob] if blob in self._texts else self._read(path, head) for path, blob in blobs.items()}
        requests = [Request.from_json(self._texts[blob], f"hf:{self.repo_id}/{path}")
                    for path, blob in sorted(blobs.items()) if _is_request(path)]
        settings = json.loads(self._texts[blobs[SETTINGS_FILE]]) if SETTINGS_FILE in blobs else {}
        return head, sorted(requests, key=lambda r: (r.submitted, r.id)), {**DEFAULT_SETTINGS, **settings}

    def settings(self) -> dict:
        return self._snapshot()[2]

    def requests(self) -> list[Request]:
        return self._snapshot()[1]

    def _update(self, change) -> Request | None:
        from huggingface_hub import CommitOperationAdd
        from huggingface_hub.errors import HfHubHTTPError

        for _ in range(self.RETRIES):
            head, requests, settings = self._snapshot()
            request = change(requests, settings)
            if request is None:
                return None
            try:
                self.api.create_commit(self.repo_id, repo_type="dataset", parent_commit=head,
                                       operations=[CommitOperationAdd(f"requests/{request.id}.json", request.to_json().encode())],
                                       commit_message=f"{request.id}: {request.status}")
                return request
            except HfHubHTTPError as exc:  # a stale parent (another worker committed first): read again
                if getattr(getattr(exc, "response", None), "status_code", None) not in (409, 412):
                    raise
        raise ConfigError(f"hf:{self.repo_id}: the queue kept changing under {self.RETRIES} tries; try again")


def open_queue(spec: str | Path, token: str | None = None) -> Queue:
    """``hf:ORG/NAME`` (a Hub dataset repository) or a local folder."""
    text = str(spec)
    if text.startswith("hf:"):
        return HubQueue(text[3:], token=token)
    return LocalQueue(Path(text).expanduser())
