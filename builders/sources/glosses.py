"""English glosses of German words from the Ding dictionary (Debian ``trans-de-en``), the builders' offline bilingual
dictionary: every single-word German term of an entry or sub-entry gets the English alternatives of its own part
(``unbedingt {adj} [comp.] :: unconditional`` gives unbedingt -> unconditional)."""

from __future__ import annotations

import functools
import re

from .base import SourceInfo, file_sha8
from .parallel import TRANS_FILE, ANNOTATION
from .readers import numbered_lines

_PAREN = re.compile(r"\s*\([^)]*\)")


def _terms(part: str) -> list[str]:
    return [t for t in (_PAREN.sub("", ANNOTATION.sub("", alt)).strip() for alt in part.split(";")) if t]


@functools.lru_cache(maxsize=1)
def ding_glosses() -> dict[str, frozenset[str]]:
    """German word (as written) -> its lower-cased English glosses; empty when the Ding dictionary is not installed."""
    if not TRANS_FILE.is_file():
        return {}
    out: dict[str, set[str]] = {}
    for _, line in numbered_lines(TRANS_FILE):
        if line.startswith("#") or " :: " not in line:
            continue
        german, english = line.rstrip("\r\n").split(" :: ", 1)
        for de, en in zip(german.split(" | "), english.split(" | ")):
            glosses = {g.lower() for g in _terms(en)}
            for term in _terms(de):
                if " " not in term and glosses:
                    out.setdefault(term, set()).update(glosses)
    return {k: frozenset(v) for k, v in out.items()}


def glosses_info() -> SourceInfo:
    if not TRANS_FILE.is_file():
        return SourceInfo("glosses", "Ding dictionary glosses: not installed (apt-get install trans-de-en)", "none")
    return SourceInfo("glosses", "Ding dictionary glosses (Debian trans-de-en)", f"sha256-{file_sha8(TRANS_FILE)}")
