"""Run folders: ``runs/<benchmark>/<model-slug>/<signature-hash8>/``.

``records.jsonl`` gets one line per item as each chunk of items finishes (flushed and synced), so a
killed run loses at most the chunk being scored; a rerun drops a torn last line and skips the ids
already present (a duplicate id is read once, with a warning). One process writes a run folder at a
time (``run.lock``). ``summary.json``, ``report.md`` and ``plots/`` are written at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Iterable

import jsonlines

from wordbench.builders.errors import ConfigError, DataFormatError, warn

from .signature import short_hash


def slug(name: str) -> str:
    """A folder-safe model name: ``org/name`` -> ``org__name``."""
    return re.sub(r"[^\w.-]+", "_", name.replace("/", "__")).strip("_") or "model"


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

    def _repair(self) -> None:
        """Cut a torn last line (a run killed mid-write) so that appending continues cleanly."""
        if not self.records_path.exists():
            return
        data = self.records_path.read_bytes()
        if data and not data.endswith(b"\n"):
            with open(self.records_path, "r+b") as f:
                f.truncate(data.rfind(b"\n") + 1)

    def records(self) -> list[dict]:
        self._repair()
        if not self.records_path.exists():
            return []
        out, seen, duplicates = [], set(), 0
        with jsonlines.open(self.records_path) as reader:
            try:
                for lineno, rec in enumerate(reader, 1):
                    if not isinstance(rec, dict) or "id" not in rec:
                        raise DataFormatError(f"{self.records_path}:{lineno}: a record without an id; delete the run folder to start over")
                    if rec["id"] in seen:
                        duplicates += 1
                        continue
                    seen.add(rec["id"])
                    out.append(rec)
            except (jsonlines.InvalidLineError, UnicodeDecodeError) as exc:
                line = getattr(exc, "lineno", "?")
                raise DataFormatError(f"{self.records_path}:{line}: not a JSON record; delete the run folder to start over") from None
        if duplicates:
            warn(f"{self.records_path}: {duplicates} duplicate record id(s) ignored (the first of each is kept)")
        return out

    @contextlib.contextmanager
    def lock(self):
        """Hold the run folder for one writer; a second ``score`` of the same run says which PID has it."""
        import fcntl

        path = self.path / "run.lock"
        with open(path, "a+") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.seek(0)
                pid = f.read().strip() or "?"
                raise ConfigError(f"{self.path} is being scored by another process (PID {pid}): wait for it or stop it") from None
            f.seek(0)
            f.truncate()
            f.write(str(os.getpid()))
            f.flush()
            try:
                yield self
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def done_ids(self) -> set[str]:
        return {r["id"] for r in self.records()}

    def append(self, records: Iterable[dict]) -> None:
        with open(self.records_path, "a", encoding="utf-8") as f:
            for rec in records:
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
                f.flush()
            os.fsync(f.fileno())

    def write_json(self, name: str, obj) -> Path:
        path = self.path / name
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
        tmp.replace(path)
        return path

    def write_text(self, name: str, text: str) -> Path:
        path = self.path / name
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)
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
