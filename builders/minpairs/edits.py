"""What every rule shares: an edit of the reference, and the rule interface."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..sources.german import Analysis, Word


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by ``after``; ``anchors`` are the phenomenon's words, which a machine
    reference must share with the human reference to be kept (the paper's validation, section 3.3)."""

    start: int
    end: int
    after: str
    anchors: tuple[str, ...] = ()

    def apply(self, text: str) -> str:
        return text[: self.start] + self.after + text[self.end :]

    def before(self, text: str) -> str:
        return text[self.start : self.end]


def replace(word: Word, after: str, anchors: tuple[str, ...] | None = None) -> Edit:
    return Edit(word.start, word.end, after, (word.text.lower(),) if anchors is None else anchors)


def delete(text: str, start: int, end: int, anchors: tuple[str, ...] = ()) -> Edit:
    """Delete ``text[start:end]`` with one adjacent space, so no double or leading space is left."""
    if start > 0 and text[start - 1] == " ":
        start -= 1
    elif end < len(text) and text[end] == " ":
        end += 1
    return Edit(start, end, "", anchors)


class Rule:
    """One error type: every position of a reference where the rule applies, as edits."""

    name: ClassVar[str]
    description: ClassVar[str]

    def __init__(self, faithful: bool = False, every_position: bool = False, strict: bool = False):
        self.faithful = faithful  # the authors' behaviour where it differs (--faithful)
        self.every_position = every_position  # beyond the positions the authors edit (np_agreement: every determiner)
        self.strict = strict  # the paper's stated condition checked beyond what the authors' sets show (affix_polarity)

    def candidates(self, analysis: Analysis) -> list[Edit]:
        raise NotImplementedError


def noun_phrase(words: list[Word], i: int) -> tuple[Word | None, list[Word], Word] | None:
    """(determiner, adjectives, noun) of the noun phrase starting at ``words[i]``, or None."""
    det = words[i] if words[i].upos == "DET" else None
    j = i + (det is not None)
    adjectives = []
    while j < len(words) and words[j].upos == "ADJ":
        adjectives.append(words[j])
        j += 1
    if j < len(words) and words[j].upos == "NOUN":
        return det, adjectives, words[j]
    return None
