"""Word counts of local corpus files in several processes: each counts a byte range of lines, the counts add up.

A range owns the lines that start inside it, so the ranges partition the lines exactly and the counts
equal one process's. Memory per process grows with the vocabulary, not with the corpus.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Iterable

from wordbench.errors import DataFormatError

MIN_RANGE = 1 << 20  # bytes: smaller files are not split
WORD_TOKEN = re.compile(r"[^\W_][\w.'-]*", re.UNICODE)


def count_words(lines: Iterable[str], lowercase: bool = True, whitespace: bool = False) -> Counter:
    """Word counts of ``lines`` (regex words, or whitespace tokens with ``whitespace=True``), streamed."""
    counts: Counter[str] = Counter()
    lines = iter(lines)
    # No word spans a newline, so a block of lines joined is counted at once (the per-line overhead is most of the time).
    while block := list(islice(lines, 4096)):
        text = "\n".join(block)
        if lowercase:
            text = text.lower()
        counts.update(text.split() if whitespace else WORD_TOKEN.findall(text))
    return counts


def _ranges(files: list[Path], parts: int) -> list[tuple[str, int, int]]:
    total = sum(f.stat().st_size for f in files)
    step = max(MIN_RANGE, -(-total // (parts * 4)))  # a few ranges per process evens out the load
    return [(str(f), start, min(start + step, f.stat().st_size)) for f in files for start in range(0, max(1, f.stat().st_size), step)]


def _count_range(task: tuple[str, int, int], text_column: str = "text", lowercase: bool = True, whitespace: bool = False) -> Counter:
    file, start, end = task
    path = Path(file)

    def lines():
        with open(path, "rb") as f:
            if start:
                f.seek(start - 1)
                f.readline()  # the line that holds byte start-1 belongs to the previous range
            pos = f.tell()
            while pos < end:
                raw = f.readline()
                if not raw:
                    break
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise DataFormatError(f"{path}: the line at byte {pos} is not UTF-8 ({exc.reason}); re-encode the file") from None
                pos += len(raw)
                if path.suffix == ".jsonl":
                    try:
                        line = json.loads(line)[text_column]
                    except (ValueError, KeyError, TypeError):
                        raise DataFormatError(f"{path}: the line at byte {pos - len(raw)} is not a JSON object with a '{text_column}' field") from None
                yield line.rstrip("\r\n")

    return count_words(lines(), lowercase, whitespace)


def count_files(files: list[Path], num_proc: int, text_column: str = "text", lowercase: bool = True, whitespace: bool = False) -> Counter:
    """The word counts of ``files`` counted in ``num_proc`` processes (equal to one process's counts)."""
    import functools

    tasks = _ranges(files, num_proc)
    work = functools.partial(_count_range, text_column=text_column, lowercase=lowercase, whitespace=whitespace)
    total: Counter[str] = Counter()
    with ProcessPoolExecutor(num_proc) as pool:
        for counts in pool.map(work, tasks):
            total.update(counts)
    return total
