from ..edits import Edit, Rule, delete

_PAIRS = (("(", ")"), ("[", "]"), ("„", "“"), ("»", "«"))


def _balanced(text: str) -> bool:
    """No bracket or quotation opened or closed across the segment's edge ("(Patsche;" / "Tinte).")."""
    return all(text.count(a) == text.count(b) for a, b in _PAIRS) and text.count('"') % 2 == 0


class ClauseOmission(Rule):
    """Delete one segment of a reference that the sentence splitter divides into several (at . ! ? ; :), as the
    paper deletes one of stanza's sentences; a one-word sentence ("Stopp!") is one too, a bracket's fragment is not."""

    name = "clause_omission"
    description = "one clause (sentence-splitter segment) deleted"

    def candidates(self, analysis) -> list[Edit]:
        text = analysis.text
        segments = [(s, e) for s, e in analysis.segments
                    if any(w.upos != "PUNCT" for w in analysis.words_in((s, e))) and _balanced(text[s:e])]
        if len(segments) < 2:  # the omission must leave a clause behind, and delete one
            return []
        return [delete(text, start, end) for start, end in segments]
