"""Word frequencies as occurrences per billion tokens, so thresholds carry across corpora.

``wordfreq`` (English ``large`` list, offline) is the default; counts from a corpus (local text files
or an HF dataset) are the alternative and the paper-faithful choice. A source records the corpus and
its size, and whether a word it does not list means "rare" (wordfreq stops near 10 per billion) or
"unseen" (corpus counts).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from importlib.metadata import version as pkg_version
from pathlib import Path
from typing import Iterable

from wordbench.errors import SourceError
from .base import SourceInfo, sha8
from .corpora import corpus_files, iter_corpus_lines
from .parallel_count import WORD_TOKEN, count_files, count_words  # noqa: F401 - re-exported

PER_BILLION = 1e9
WIKITEXT103_TRAIN_TOKENS = 103_227_021  # Dudy & Bedrick's counts are in WikiText-103's train split


@dataclass
class Frequencies:
    """Rates per billion tokens for a vocabulary."""

    rates: dict[str, float]
    info: SourceInfo
    n_tokens: int | None = None  # corpus size; None for a blended list such as wordfreq
    missing_is_rare: bool = False  # True when the list is cut below some rate (wordfreq)
    counts: dict[str, int] = field(default_factory=dict)

    def rate(self, word: str) -> float:
        return self.rates.get(word, 0.0)

    def known(self, word: str) -> bool:
        return word in self.rates

    def __contains__(self, word: str) -> bool:
        return word in self.rates


def bin_of(rate: float, edges: tuple[float, ...], names: tuple[str, ...]) -> str | None:
    """Name of the bin for ``rate``: ``names[i]`` when ``edges[i] <= rate < edges[i+1]``."""
    for lo, hi, name in zip(edges, edges[1:] + (float("inf"),), names):
        if lo <= rate < hi:
            return name
    return None


def zipf(rate_per_billion: float) -> float:
    """Zipf frequency (log10 of occurrences per billion words); 0 for unseen words."""
    import math

    return round(math.log10(rate_per_billion), 2) if rate_per_billion > 0 else 0.0


@functools.lru_cache(maxsize=4)
def wordfreq_frequencies(lang: str = "en", wordlist: str = "large") -> Frequencies:
    try:
        import wordfreq
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise SourceError("wordfreq is not installed: pip install wordfreq") from exc
    rates = {w: f * PER_BILLION for w, f in wordfreq.get_frequency_dict(lang, wordlist).items()}
    ver = pkg_version("wordfreq")
    info = SourceInfo("freq", f"wordfreq {lang} {wordlist} list", f"wordfreq-{ver}", f"{len(rates)} words")
    return Frequencies(rates, info, None, missing_is_rare=True)


def corpus_frequencies(lines: Iterable[str], name: str, lowercase: bool = True, whitespace: bool = False,
                       counts: Counter | None = None) -> Frequencies:
    """Frequencies from the words of ``lines`` (or from ready ``counts``)."""
    if counts is None:
        counts = count_words(lines, lowercase, whitespace)
    total = sum(counts.values())
    if total == 0:
        raise SourceError(f"corpus {name} has no words: check the path, the split and the text column")
    rates = {w: c * PER_BILLION / total for w, c in counts.items()}
    digest = sha8("\n".join(f"{w}\t{c}" for w, c in sorted(counts.items())))
    info = SourceInfo("freq", name, f"{Path(name).name}-{total}tok-{digest}", f"{total} tokens, {len(counts)} types")
    return Frequencies(rates, info, total, missing_is_rare=False, counts=dict(counts))


def num_proc() -> int:
    """Processes for counting local corpus files (``WORDBENCH_NUM_PROC``, default 1); counts do not depend on it."""
    import os

    return max(1, int(os.environ.get("WORDBENCH_NUM_PROC", "1")))


@functools.lru_cache(maxsize=4)
def load_frequencies(spec: str = "wordfreq") -> Frequencies:
    """Resolve a frequency spec: ``wordfreq[:lang[:list]]``, a text file or folder, or ``hf:ID[:CONFIG[:SPLIT]]``.
    Corpora are streamed (memory grows with the vocabulary, not the corpus); local files are counted in
    ``WORDBENCH_NUM_PROC`` processes over byte ranges."""
    if spec == "wordfreq" or spec.startswith("wordfreq:"):
        parts = spec.split(":")[1:]
        return wordfreq_frequencies(*parts)
    procs = num_proc()
    if procs > 1 and Path(spec).expanduser().exists():  # local files (not gensim-wiki, offline-en or hf:)
        return corpus_frequencies((), spec, counts=count_files(corpus_files(spec), procs))
    return corpus_frequencies(iter_corpus_lines(spec), spec)
