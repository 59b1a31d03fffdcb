"""Running text: local text/jsonl files or folders, or HF datasets (``hf:ID[:CONFIG[:SPLIT]]``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from ..errors import DataFormatError, SourceError
from .base import offline


def iter_corpus_lines(spec: str, text_column: str = "text") -> Iterator[str]:
    """Yield the lines of a corpus spec (a file, a folder of ``*.txt``/``*.jsonl``, or ``hf:...``)."""
    if spec.startswith("hf:"):
        yield from _hf_lines(spec[3:], text_column)
        return
    path = Path(spec).expanduser()
    if not path.exists():
        raise SourceError(f"corpus {spec} does not exist: give a text file, a folder of .txt/.jsonl files or hf:DATASET_ID")
    files = sorted(p for p in path.rglob("*") if p.suffix in (".txt", ".jsonl")) if path.is_dir() else [path]
    if not files:
        raise SourceError(f"corpus folder {spec} holds no .txt or .jsonl files")
    for file in files:
        yield from _file_lines(file, text_column)


def _file_lines(file: Path, text_column: str) -> Iterator[str]:
    with open(file, encoding="utf-8", errors="strict") as f:
        try:
            for lineno, line in enumerate(f, 1):
                if file.suffix == ".jsonl":
                    try:
                        line = json.loads(line)[text_column]
                    except (ValueError, KeyError, TypeError) as exc:
                        raise DataFormatError(f"{file}:{lineno}: not a JSON object with a '{text_column}' field") from exc
                yield line.rstrip("\n")
        except UnicodeDecodeError as exc:
            raise DataFormatError(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _hf_lines(spec: str, text_column: str) -> Iterator[str]:
    import datasets

    dataset_id, config, split = (spec.split(":") + [None, None])[:3]
    try:
        ds = datasets.load_dataset(dataset_id, config or None, split=split or "train")
    except ValueError as exc:
        raise SourceError(f"dataset {dataset_id}: {str(exc).splitlines()[0]}") from exc
    except Exception as exc:  # noqa: BLE001 - network, missing repo, ...
        hint = " (offline: HF_HUB_OFFLINE is set)" if offline() else ""
        raise SourceError(f"cannot load dataset {dataset_id}{hint}: {str(exc).splitlines()[0]}") from exc
    if text_column not in ds.column_names:
        raise SourceError(f"dataset {dataset_id} has no column '{text_column}' (columns: {', '.join(ds.column_names)})")
    for text in ds[text_column]:
        yield from text.splitlines() or [""]
