"""An English dictionary word list: evidence that a word below wordfreq's floor is in general use.

The default is SCOWL's size-70 American English list ("words found in most dictionaries", about 350k
entries), which Debian ships as ``wamerican-huge`` at ``/usr/share/dict/american-english-huge``. Any
word list with one word per line works (``dictionary=PATH``, e.g. ``/usr/share/dict/words``).
"""

from __future__ import annotations

import functools
from pathlib import Path

from wordbench.errors import SourceError
from .base import SourceInfo, file_sha8, read_utf8

DEBIAN_HUGE = Path("/usr/share/dict/american-english-huge")
PACKAGE = "wamerican-huge"


@functools.lru_cache(maxsize=4)
def load_dictionary(path: str | None = None) -> tuple[frozenset[str], SourceInfo]:
    """The words of a word list (lines, surrounding blanks stripped; case kept, so ``Bach`` is not ``bach``)."""
    file = Path(path).expanduser() if path else DEBIAN_HUGE
    if not path and not file.is_file():
        raise SourceError(
            f"no English word list at {DEBIAN_HUGE}: install it with 'apt-get install {PACKAGE}' (Debian/Ubuntu), "
            "pass one with dictionary=PATH (one word per line, e.g. /usr/share/dict/words), or use rare_words=glosses"
        )
    words = frozenset(line.strip() for line in read_utf8(file, "dictionary").splitlines() if line.strip())
    if not words:
        raise SourceError(f"dictionary file {file} holds no words")
    name = f"SCOWL size 70 ({PACKAGE})" if file == DEBIAN_HUGE else str(file)
    return words, SourceInfo("dict", name, f"{file.name}-{file_sha8(file)}", f"{len(words)} words")
