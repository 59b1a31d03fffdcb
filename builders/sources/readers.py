"""Reading local text files and Hub datasets line by line: the lowest layer of the corpus sources."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from wordbench.errors import DataFormatError, SourceError

from .base import offline, tree_files


def corpus_files(spec: str) -> list[Path]:
    """The files of a local corpus spec (a file, or a folder's ``*.txt``/``*.jsonl``, sorted)."""
    path = Path(spec).expanduser()
    if not path.exists():
        raise SourceError(f"corpus {spec} does not exist: give a text file, a folder of .txt/.jsonl files, hf:DATASET_ID or gensim-wiki")
    files = [p for p in tree_files(path) if p.suffix in (".txt", ".jsonl")] if path.is_dir() else [path]
    if not files:
        raise SourceError(f"corpus folder {spec} holds no .txt or .jsonl files")
    return files


def numbered_lines(file: Path) -> Iterator[tuple[int, str]]:
    """(line number, decoded line with its newline) of a UTF-8 file, streamed, by the one reader rule: a BOM
    dropped; a line that is not UTF-8 or holds a NUL byte is an error naming it."""
    with open(file, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise DataFormatError(f"{file}:{lineno}: not UTF-8 ({exc.reason} at byte {exc.start}); re-encode the file") from None
            if "\0" in line:
                raise DataFormatError(f"{file}:{lineno}: a NUL byte: not a text file")
            yield lineno, line


def split_fields(file: Path | str, lineno: int, line: str, names: tuple[str, ...], sep: str | None = "\t", more: bool = False) -> list[str]:
    """The fields of one line of a file in a published layout, checked against it: exactly ``names`` (``more``: at
    least, the last one repeating); ``sep`` None splits on whitespace. Any other count is one error naming the file,
    the line and the layout, never a field silently dropped or a tuple that does not unpack."""
    cells = line.rstrip("\r\n").split(sep)
    if len(cells) < len(names) or (len(cells) > len(names) and not more):
        how = {"\t": "tab", None: "whitespace", ",": "comma"}.get(sep, repr(sep))
        raise DataFormatError(f"{file}:{lineno}: expected {', '.join(names)}{' ...' if more else ''} "
                              f"({'at least ' if more else ''}{len(names)} {how}-separated field{'s' if len(names) > 1 else ''}), got {len(cells)}")
    return cells


def _file_lines(file: Path, text_column: str) -> Iterator[str]:
    for lineno, line in numbered_lines(file):
        if file.suffix == ".jsonl":
            try:
                line = json.loads(line)[text_column]
            except (ValueError, KeyError, TypeError) as exc:
                raise DataFormatError(f"{file}:{lineno}: not a JSON object with a '{text_column}' field") from exc
            if not isinstance(line, str):
                raise DataFormatError(f"{file}:{lineno}: '{text_column}' is {type(line).__name__}, not a string")
        yield line.rstrip("\r\n")  # as text mode gave it: CRLF endings removed too


def load_hf_dataset(spec: str, default_split: str = "train", what: str = "dataset"):
    """(dataset id, the loaded split) of ``ID[:CONFIG[:SPLIT]]``; any failure is a one-line SourceError."""
    import datasets

    if spec.count(":") > 2:
        raise SourceError(f"{what} {spec}: give ID[:CONFIG[:SPLIT]] (at most two colons)")
    dataset_id, config, split = (spec.split(":") + [None, None])[:3]
    try:
        return dataset_id, datasets.load_dataset(dataset_id, config or None, split=split or default_split)
    except ValueError as exc:
        raise SourceError(f"{what} {dataset_id}: {str(exc).splitlines()[0]}") from exc
    except Exception as exc:  # noqa: BLE001 - network, missing repo, ...
        hint = " (offline: HF_HUB_OFFLINE is set)" if offline() else ""
        raise SourceError(f"cannot load {what} {dataset_id}{hint}: {str(exc).splitlines()[0]}") from exc


def _hf_lines(spec: str, text_column: str) -> Iterator[str]:
    dataset_id, ds = load_hf_dataset(spec)
    if text_column not in ds.column_names:
        raise SourceError(f"dataset {dataset_id} has no column '{text_column}' (columns: {', '.join(ds.column_names)})")
    for batch in ds.iter(batch_size=1024):  # not ds[column]: that would hold the whole column in memory
        for text in batch[text_column]:
            if not isinstance(text, str):
                raise SourceError(f"dataset {dataset_id}: column '{text_column}' holds {type(text).__name__}, not text")
            yield from text.splitlines() or [""]
