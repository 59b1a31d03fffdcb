"""Word-similarity tasks in their published layouts (VAST validates isolated embeddings on them).

Specs: ``ws353:PATH`` (WordSim-353 ``combined.csv``/``.tab``: ``Word 1``, ``Word 2``, ``Human (mean)``),
``simlex:PATH`` (``SimLex-999.txt``: tab-separated ``word1``, ``word2``, ``SimLex999``), ``rw:PATH``
(Stanford Rare Words ``rw.txt``: tab-separated word, word, mean score, ten ratings, no header), ``men:PATH``
(``MEN_dataset_natural_form_full``: space-separated word, word, score; the lemma form's ``-n``/``-v``/``-j``
tags are removed). A malformed line is an error naming file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from wordbench.errors import DataFormatError, SourceError
from .base import SourceInfo, file_sha8, read_utf8
from .readers import split_fields
from .tables import parse_table

TASKS = {"ws353": "WordSim-353 (Finkelstein et al. 2001)", "simlex": "SimLex-999 (Hill et al. 2015)",
         "rw": "Stanford Rare Words (Luong et al. 2013)", "men": "MEN (Bruni et al. 2014)"}
_POS_TAG = re.compile(r"-[nvja]$")


@dataclass(frozen=True)
class SimilarityTask:
    name: str
    pairs: list[tuple[str, str, float]]
    info: SourceInfo


def similarity_problem(spec: str) -> str | None:
    """What is wrong with a similarity task spec's form (None: nothing)."""
    kind, sep, rest = spec.partition(":")
    if not sep or kind not in TASKS or not rest.strip():
        return f"'{spec}' is not one of {', '.join(k + ':PATH' for k in TASKS)}"
    return None


def load_similarity(spec: str) -> SimilarityTask:
    kind, sep, rest = spec.partition(":")
    if not sep or kind not in TASKS:
        raise SourceError(f"similarity task {spec!r}: give {', '.join(k + ':PATH' for k in TASKS)}")
    path = Path(rest).expanduser()
    text = read_utf8(path, "similarity")
    readers = {"ws353": _ws353, "simlex": _simlex, "rw": lambda p, t: _plain(p, t, True), "men": lambda p, t: _plain(p, t, False)}
    pairs = readers[kind](path, text)
    if kind == "men":
        pairs = [(_POS_TAG.sub("", a), _POS_TAG.sub("", b), s) for a, b, s in pairs]
    if not pairs:
        raise DataFormatError(f"{path}: no word pairs")
    return SimilarityTask(kind, pairs, SourceInfo("similarity", f"{TASKS[kind]}: {path.name}", f"{kind}-{file_sha8(path)}"))


def _score(path: Path, line: int, raw: str) -> float:
    try:
        return float(raw)
    except ValueError:
        raise DataFormatError(f"{path}:{line}: score {raw!r} is not a number") from None


def _table(path: Path, text: str, w1: str, w2: str, score: str):
    table = parse_table(str(path), text)
    table.require(w1, w2, score)
    return [(row[w1].strip(), row[w2].strip(), _score(path, line, row[score])) for line, row in table.rows]


def _ws353(path: Path, text: str):
    return _table(path, text, "Word 1", "Word 2", "Human (mean)")


def _simlex(path: Path, text: str):
    return _table(path, text, "word1", "word2", "SimLex999")


def _plain(path: Path, text: str, more: bool):
    """``word word score`` lines (MEN); ``more``: each rater's score follows (Rare Words)."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = split_fields(path, n, line, ("word", "word", "score"), None, more)
        out.append((parts[0], parts[1], _score(path, n, parts[2])))
    return out
