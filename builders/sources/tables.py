"""One reader rule for every delimited table a user brings (lexica, word lists, release files): tolerant of
what is harmless (a BOM, CRLF endings, blank lines), strict about what would be read wrongly. Every refusal
is one line naming ``file:line``."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

from wordbench.errors import DataFormatError

from .base import read_utf8


@dataclass(frozen=True)
class Table:
    where: str  # the file, for messages
    columns: list[str]
    rows: list[tuple[int, dict[str, str]]]  # (line number, row)
    duplicated: frozenset[str] = frozenset()  # header names given twice (the authors' Imbir file has two "SD")

    def require(self, *names: str) -> None:
        """The columns a reader reads: present, and named once (else which one is read would be a guess)."""
        missing = [c for c in names if c not in self.columns]
        if missing:
            raise DataFormatError(f"{self.where}: no column {', '.join(repr(c) for c in missing)} (columns: {', '.join(self.columns)})")
        twice = [c for c in names if c in self.duplicated]
        if twice:
            raise DataFormatError(f"{self.where}:1: the column {', '.join(repr(c) for c in twice)} appears twice in the header: "
                                  "which one to read is ambiguous")


def sniff_delimiter(header: str) -> str:
    """Tab, semicolon or comma: whichever the header line holds most of (comma on a tie)."""
    return max(("\t", ";", ","), key=lambda d: (header.count(d), d == ","))


def read_table(path: Path, what: str, delimiter: str | None = None) -> Table:
    """A CSV/TSV file with a header line (delimiter sniffed unless given): the BOM dropped; rows with another
    number of fields than the header, and fields holding a line break or a NUL, refused; blank lines skipped.
    A header name given twice is refused when read (``Table.require``)."""
    text = read_utf8(Path(path), what)
    return parse_table(str(path), text, delimiter)


def parse_table(where: str, text: str, delimiter: str | None = None) -> Table:
    """The table in ``text``, as ``read_utf8`` gives it (BOM dropped, NUL refused)."""
    delimiter = delimiter or sniff_delimiter(text.split("\n", 1)[0])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header = next(reader, None)
    if not header:
        raise DataFormatError(f"{where}: empty: a header line and rows expected")
    columns = [c.strip() for c in header]
    duplicated = frozenset(c for c in columns if columns.count(c) > 1)
    rows = []
    start = reader.line_num + 1
    for fields in reader:
        line = start
        start = reader.line_num + 1
        if not any(f.strip() for f in fields):
            continue
        if len(fields) != len(columns):
            raise DataFormatError(f"{where}:{line}: {len(fields)} fields, but the header has {len(columns)}")
        for field in fields:
            if "\n" in field or "\r" in field:
                raise DataFormatError(f"{where}:{line}: a field holds a line break ({field[:30]!r}...)")
        rows.append((line, dict(zip(columns, fields))))
    return Table(where, columns, rows, duplicated)


def finite_count(where: str, raw: str, what: str = "count") -> float:
    """A count: a finite number >= 0."""
    try:
        value = float(raw)
    except ValueError:
        raise DataFormatError(f"{where}: {what} {raw!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise DataFormatError(f"{where}: {what} {raw!r} must be a finite number >= 0")
    return value
