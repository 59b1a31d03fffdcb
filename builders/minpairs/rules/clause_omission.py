from ..edits import Edit, Rule, delete
from ...sources.german import split_segments

_PAIRS = (("(", ")"), ("[", "]"), ("„", "“"), ("»", "«"), ('"', '"'))
_PARTNER = {a: b for a, b in _PAIRS} | {b: a for a, b in _PAIRS}


def _balanced(text: str) -> bool:
    """Every bracket and quotation opened in ``text`` is closed in it."""
    return all(text.count(a) % 2 == 0 if a == b else text.count(a) == text.count(b) for a, b in _PAIRS)


def _deletable(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of a segment to delete so that its quotations and brackets stay paired: the segment itself, or
    without a mark at its edge whose partner lies outside it ("„Die Idee ... möchte. Er hofft ...“" loses "Die
    Idee ... möchte." and keeps „); None when a mark inside the segment is unmatched."""
    while not _balanced(text[start:end]):
        if text[start] in _PARTNER and _PARTNER[text[start]] in text[end:] and text[start] not in ")]“«":
            start += 1
        elif text[end - 1] in _PARTNER and _PARTNER[text[end - 1]] in text[:start] and text[end - 1] not in "([„»":
            end -= 1
        else:
            return None
        if not text[start:end].strip():
            return None
    return start, end


class ClauseOmission(Rule):
    """Delete one segment of a reference that the sentence splitter divides into several (at . ! ? ; :), as the
    paper deletes one of stanza's sentences; a one-word sentence ("Stopp!") is one too. A quotation or bracket that
    spans segments keeps its marks; a segment with an unmatched mark inside is not deleted. Faithful: the segments
    of the authors' sets (stanza also splits after ordinals and abbreviations), deleted whole."""

    name = "clause_omission"
    description = "one clause (sentence-splitter segment) deleted"

    def candidates(self, analysis) -> list[Edit]:
        text = analysis.text
        segments = analysis.segments
        if self.faithful and analysis.splitter != "stanza":
            segments = split_segments(text, stanza_like=True)
        segments = [(s, e) for s, e in segments if any(w.upos != "PUNCT" for w in analysis.words_in((s, e)))]
        if len(segments) < 2:  # the omission must leave a clause behind, and delete one
            return []
        spans = segments if self.faithful else [_deletable(text, s, e) for s, e in segments]
        return [delete(text, *span) for span in spans if span is not None]
