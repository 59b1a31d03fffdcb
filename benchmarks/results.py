"""Run folders: ``runs/<benchmark>/<model-slug>/<signature-hash8>/``.

``records.jsonl`` gets one line per item as each chunk of items finishes (flushed and synced), so a
killed run loses at most the chunk being scored; a rerun drops a torn last line and skips the ids
already present (a duplicate id is read once, with a warning). A data-parallel run writes
``records.rank<r>.jsonl`` per rank (same rule); rank 0 merges them into ``records.jsonl``. One process
(or one data-parallel job) writes a run folder at a time (``run.lock`` through filelock, the holder's PID in
``run.pid``). ``summary.json``, ``report.md`` and ``plots/`` are written at the end.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
from pathlib import Path
from typing import Iterable

import jsonlines

from wordbench.errors import ConfigError, DataFormatError, warn
from wordbench.files import write_output

from wordbench.text import as_markdown

from .signature import short_hash


def slug(name: str) -> str:
    """A folder-safe model name: ``org/name`` -> ``org__name``."""
    return re.sub(r"[^\w.-]+", "_", name.replace("/", "__")).strip("_") or "model"


class RunBusy(ConfigError):
    """Another live process holds the run folder (its lock)."""


def for_tables(summaries: list[dict]) -> list[dict]:
    """Copies of ``summaries`` whose model strings (name, version, family, dtype) are escaped (``wordbench.text.as_markdown``), for the
    scorers' report tables."""
    return [{**s, "model": {k: as_markdown(v) if isinstance(v, str) else v for k, v in s["model"].items()}}
            if isinstance(s.get("model"), dict) else s for s in summaries]


DUMPS = functools.partial(json.dumps, ensure_ascii=False)  # records keep their text as written


class RunFolder:
    def __init__(self, path: Path):
        self.path = Path(path)

    @classmethod
    def for_run(cls, root: Path, benchmark: str, model_name: str, signature: str) -> "RunFolder":
        run = cls(Path(root) / benchmark / slug(model_name) / short_hash(signature))
        run.path.mkdir(parents=True, exist_ok=True)
        sig_file = run.path / "signature.txt"
        if not sig_file.exists():
            sig_file.write_text(signature + "\n")
        return run

    @property
    def records_path(self) -> Path:
        return self.path / "records.jsonl"

    @property
    def plots_dir(self) -> Path:
        path = self.path / "plots"
        path.mkdir(exist_ok=True)
        return path

    def rank_path(self, rank: int) -> Path:
        """The records file of one rank of a data-parallel run (merged into records.jsonl by rank 0)."""
        return self.path / f"records.rank{rank}.jsonl"

    def rank_paths(self) -> list[Path]:
        return sorted(self.path.glob("records.rank*.jsonl"))

    @staticmethod
    def _read(path: Path) -> list[dict]:
        """The records of one file; an unterminated last line is a torn write (ignored; cut by the next append)."""
        if not path.exists():
            return []
        data = path.read_bytes()
        out, seen, duplicates = [], set(), 0
        lines = data[: data.rfind(b"\n") + 1].split(b"\n")
        with jsonlines.Reader(lines) as reader:
            for n, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    rec = reader.read()
                except (jsonlines.InvalidLineError, UnicodeDecodeError):
                    raise DataFormatError(f"{path}:{n}: not a JSON record; delete the run folder to start over") from None
                if not isinstance(rec, dict) or "id" not in rec:
                    raise DataFormatError(f"{path}:{n}: a record without an id; delete the run folder to start over")
                if rec["id"] in seen:
                    duplicates += 1
                    continue
                seen.add(rec["id"])
                out.append(rec)
        if duplicates:
            warn(f"{path}: {duplicates} duplicate record id(s) ignored (the first of each is kept)")
        return out

    def _repair(self, path: Path) -> None:
        """Cut a torn last line (a run killed mid-write) so that appending continues cleanly (reads the tail only)."""
        if not path.exists():
            return
        with open(path, "r+b") as f:
            size = f.seek(0, os.SEEK_END)
            tail = b""
            while size > len(tail) and b"\n" not in tail:  # read back from the end to the last newline
                f.seek(max(0, size - len(tail) - 65536))
                tail = f.read(size - f.tell())
            if tail and not tail.endswith(b"\n"):
                f.truncate(size - len(tail) + tail.rfind(b"\n") + 1)

    @contextlib.contextmanager
    def lock(self, rank: int | None = None):
        """Hold the run folder for one writer (each rank of a data-parallel run holds its own lock); a second
        ``score`` of the same run says which PID has it. ``filelock``: flock on POSIX, msvcrt on Windows."""
        from filelock import FileLock, Timeout

        path = self.path / ("run.lock" if rank is None else f"run.rank{rank}.lock")
        holder = path.with_suffix(".pid")  # the lock file itself is truncated by every attempt to take it
        lock = FileLock(path, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            pid = holder.read_text().strip() if holder.is_file() else ""
            raise RunBusy(f"{self.path} is being scored by another process (PID {pid or '?'}): wait for it or stop it") from None
        try:
            holder.write_text(str(os.getpid()))
            yield self
        finally:
            lock.release()

    def records(self) -> list[dict]:
        """The merged records (``records.jsonl``)."""
        return self._read(self.records_path)

    def done_ids(self) -> set[str]:
        """Ids with a record in records.jsonl or in any rank's file: none is scored again."""
        return {r["id"] for path in [self.records_path, *self.rank_paths()] for r in self._read(path)}

    def append(self, records: Iterable[dict], rank: int | None = None) -> None:
        path = self.records_path if rank is None else self.rank_path(rank)
        self._repair(path)
        with open(path, "a", encoding="utf-8") as f:
            with jsonlines.Writer(f, compact=True, flush=True, dumps=DUMPS) as writer:  # a line is flushed as it is written
                for rec in records:
                    writer.write(rec)
            os.fsync(f.fileno())

    def merge_ranks(self, order: list[str]) -> int:
        """Move the rank files' records into records.jsonl in ``order`` of ids (each id once: the record of
        the first file that holds it, none already merged), then delete the rank files; returns how many."""
        files = self.rank_paths()
        if not files:
            return 0
        have = {r["id"] for r in self.records()}
        pending: dict[str, dict] = {}
        for path in files:
            for rec in self._read(path):  # one record per id in a file (_read keeps the first)
                if rec["id"] not in have:
                    pending.setdefault(rec["id"], rec)
        pos = {key: i for i, key in enumerate(order)}
        merged = [pending[key] for key in sorted(pending, key=lambda k: (pos.get(k, len(pos)), k))]
        self.append(merged)
        for path in files:
            path.unlink()
        return len(merged)

    def write_json(self, name: str, obj) -> Path:
        return self.write_text(name, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")

    def write_text(self, name: str, text: str) -> Path:
        """Write ``name`` atomically (a temp file, then rename)."""
        path = self.path / name
        write_output(path, text, "run folder")
        return path

    def summary(self) -> dict:
        path = self.path / "summary.json"
        if not path.exists():
            raise DataFormatError(f"{self.path} has no summary.json: an unfinished run (rerun its score command) or not a run folder")
        try:
            summary = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise DataFormatError(f"{path}: not a JSON summary ({exc}); rerun the score command to rewrite it") from None
        if not isinstance(summary, dict) or "benchmark" not in summary:
            raise DataFormatError(f"{path}: not a wordbench summary (no 'benchmark' key)")
        return summary

    def finished(self) -> bool:
        return (self.path / "summary.json").exists()
