"""The authors' paraphrase files as published: three lines per triple, one file per set.

Each triple is s(x), s(x_h), s(x_a) on three consecutive non-empty lines (blank lines between triples
are allowed, not required). x, x_h and x_a are the spans where the sentences differ: one word or
several ("a herb" for "canna"), any part of speech, punctuation attached ("poodle," -> "poodle"), a/an
treated as one word so "a poodle" / "an animal" differ only in the noun; when the word is repeated, the
first differing span is reported. A triple of three identical sentences is kept and counted (its
hypernym and sibling probes tie, so the scorer counts a miss) with a warning naming its line.
"""

from __future__ import annotations

import difflib
import string
import warnings
from pathlib import Path

from wordbench.errors import DataFormatError

from .sources.base import read_utf8

SETS = ("rare", "common")
_EDGE = string.punctuation + "“”‘’«»"


def _norm(token: str) -> str:
    t = token.lower().strip(_EDGE)
    return "a" if t == "an" else t


def _span(tokens: list[str], i: int, j: int) -> str:
    return " ".join(tokens[i:j]).strip(_EDGE).lower()


def differing_spans(s_x: str, s_other: str) -> tuple[str, str] | None:
    """(span of s_x, span of s_other) where the two sentences first differ; None when they are the same."""
    tx, to = s_x.split(), s_other.split()
    nx, no = [_norm(t) for t in tx], [_norm(t) for t in to]
    if nx == no:
        return None
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, nx, no, autojunk=False).get_opcodes():
        if op == "replace":
            return _span(tx, i1, i2), _span(to, j1, j2)
        if op != "equal":
            break  # an insertion or deletion: fall back to the common prefix and suffix
    p = 0
    while p < min(len(nx), len(no)) and nx[p] == no[p]:
        p += 1
    s = 0
    while s < min(len(nx), len(no)) - p and nx[-1 - s] == no[-1 - s]:
        s += 1
    return _span(tx, p, len(tx) - s), _span(to, p, len(to) - s)


def read_triples(path: Path) -> list[dict]:
    """Rows (without ``set``/``id``) from one published file; errors name file:line."""
    lines = [(n, line.strip()) for n, line in enumerate(read_utf8(Path(path), "paraphrase").splitlines(), 1) if line.strip()]
    if len(lines) % 3:
        start = lines[len(lines) - len(lines) % 3][0]
        raise DataFormatError(f"{path}:{start}: an incomplete triple ({len(lines) % 3} of 3 sentences)")
    rows = []
    for k in range(0, len(lines), 3):
        (lineno, s_x), (_, s_h), (_, s_a) = lines[k : k + 3]
        hyper, sibling = differing_spans(s_x, s_h), differing_spans(s_x, s_a)
        if hyper is None and sibling is None:
            warnings.warn(f"{path}:{lineno}: the three sentences of this triple are identical; kept and counted "
                          "(the probes tie, so it scores as a miss)", stacklevel=2)
        elif hyper is None or sibling is None:
            raise DataFormatError(f"{path}:{lineno}: the {'hypernym' if hyper is None else 'sibling'} sentence repeats the word sentence")
        word = (hyper or sibling or ("", ""))[0]
        rows.append({"word": word, "hypernym": hyper[1] if hyper else word, "sibling": sibling[1] if sibling else word,
                     "sentence": s_x, "sentence_hypernym": s_h, "sentence_sibling": s_a, "line": lineno})
    if not rows:
        raise DataFormatError(f"{path}: no triples (expected three sentence lines per triple)")
    return rows


def set_of(path: Path) -> str:
    """The set a file holds, as its name says: exactly one of rare and common (a name with both, or neither, could
    be read as either set, or twice: it is refused)."""
    named = [s for s in SETS if s in path.name.lower()]
    if len(named) != 1:
        raise DataFormatError(f"{path}: the file's name must say its set, 'rare' or 'common' "
                              f"(it says {'both' if named else 'neither'}); rename it")
    return named[0]


def read_sets(paths: list[Path]) -> list[dict]:
    """Rows of every file, ``set`` and ``id`` filled; the files hold different sets, one file each."""
    kinds = [set_of(p) for p in paths]
    if len(set(kinds)) != len(kinds):
        raise DataFormatError(f"give one file per set (rare, common), named so: {', '.join(map(str, paths))}")
    rows = []
    for path, kind in zip(paths, kinds):
        for n, row in enumerate(read_triples(path), 1):
            rows.append({"id": f"{kind}-{n:05d}", "set": kind, **row})
    return rows


def files_in(folder: Path) -> list[Path]:
    """The rare and common files of a folder holding the published files."""
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in (".txt", "") and not p.name.startswith("."))
    both = [p.name for p in files if all(s in p.name.lower() for s in SETS)]
    if both:
        raise DataFormatError(f"{folder}: {both[0]} names both sets (rare and common): rename it")
    found = {s: [p for p in files if s in p.name.lower()] for s in SETS}
    for s, candidates in found.items():
        if len(candidates) != 1:
            raise DataFormatError(f"{folder}: expected one {s} file (a name containing '{s}'), found "
                                  f"{', '.join(p.name for p in candidates) or 'none'}")
    return [found[s][0] for s in SETS]
