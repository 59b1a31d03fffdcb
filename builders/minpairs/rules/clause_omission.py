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


_INTRODUCERS = frozenset({"KOUS", "KOUI", "PRELS", "PRELAT", "PWAV"})  # conjunctions, relative pronouns, w-adverbs
_FINITE = frozenset({"VVFIN", "VAFIN", "VMFIN"})
_CLAUSE_END = _FINITE | {"VVPP"}  # the offline tagger reads some finite verbs ("veranstaltet") as participles
_INFINITIVE = frozenset({"VVINF", "VAINF", "VMINF", "VVIZU"})


def _clause_end(words, i: int, text: str) -> int | None:
    """Index of the verb closing the clause introduced at ``words[i]``: the first verb before , . ! ? ; : or the
    sentence end, across commas of a list and quotations or brackets closed inside it, but not into the next clause;
    None where there is none. An um/ohne/statt clause ends in its infinitive (", um Schulden zu tilgen.")."""
    ends = _INFINITIVE if words[i].xpos == "KOUI" else _CLAUSE_END
    for j in range(i + 1, len(words)):
        nxt = words[j + 1] if j + 1 < len(words) else None
        if nxt is not None and words[j].xpos == "$," and nxt.xpos in _INTRODUCERS:
            return None
        if (nxt is None or nxt.upos == "PUNCT" and nxt.text in ",.!?;:") and words[j].upos in ("VERB", "AUX"):
            ok = words[j].xpos in ends and _balanced(text[words[i].start : words[j].end])
            return j if ok else None
    return None


def _subordinate_clauses(analysis) -> list[tuple[int, int]]:
    """Spans of verb-final clauses introduced after a comma (", wenn ... veranstaltet", ", der ... spielte,", ", um
    ... zu tilgen"), each with its leading comma; with its trailing comma too where the clause sits before the main clause's verb ("Für
    den 33-Jährigen, der ... spielte, war es" -> "Für den 33-Jährigen war es"). The rest keeps a finite verb."""
    words, spans = analysis.words, []
    for i in range(1, len(words) - 1):
        if words[i - 1].xpos != "$," or words[i].xpos not in _INTRODUCERS:
            continue
        if i >= 2 and (words[i - 2].xpos == "KON" or words[i - 2].text.lower() == "denn"):
            continue  # "geschweige denn, dass ...", "es sei denn, dass ...": the words before need the clause
        j = _clause_end(words, i, analysis.text)
        if j is None:
            continue
        start, end = words[i - 1].start, words[j].end
        before, after = words[: i - 1], words[j + 1 :]
        if after and after[0].text == "," and len(after) > 1 and after[1].xpos in _INTRODUCERS:
            continue  # the next clause may hang on this one ("mit, dass ... habe, um ... zu tilgen"): keep both
        if after and after[0].text == "," and len(after) > 1 and after[1].xpos in _FINITE and not any(w.xpos in _FINITE for w in before):
            end = after[0].end
        rest = [w for w in words if w.end <= start or w.start >= end]
        if any(w.xpos in _FINITE for w in rest):
            spans.append((start, end))
    return spans


_COORDINATORS = frozenset({"und", "aber", "sondern", "oder", "denn", "doch"})
_SAYING = frozenset("sagen heißen erklären berichten mitteilen teilen betonen schreiben meinen ergänzen hinzufügen fügen".split())


def _zu_infinitive(words) -> bool:
    """``words`` end in a zu-infinitive (zu bringen, aufzuhören)."""
    last = words[-1]
    return last.xpos == "VVIZU" or last.xpos in _INFINITIVE and words[-2].xpos == "PTKZU"


def _final_clauses(analysis) -> list[Edit]:
    """Deletions of a last clause: coordinated ("..., und das Rauchen kostet ...", "– aber kleben Sie ..."), a reporting
    clause (", hieß es in der Erklärung") or an infinitive clause (", das Spiel auf 2:0 zu bringen"), each to the
    sentence end, where the clause before has a finite verb and the deleted one has its own near its start; a
    "sondern" clause takes the "nicht nur" it answers with it."""
    words, text, edits = analysis.words, analysis.text, []
    last = len(words) - 1 if words and words[-1].upos == "PUNCT" else len(words)
    for k in range(1, last - 1):
        w, tail = words[k], words[k + 1 : last]
        after_mark = words[k - 1].text in (",", "–", "-")
        coordinated = ((w.xpos == "KON" or after_mark) and w.text.lower() in _COORDINATORS
                       and any(x.xpos in _FINITE for x in tail[:4]))  # "- aber tackern Sie": aber read as an adverb
        # an asyndetic main clause, its verb second: ", bis dahin investiert er ..."
        asyndetic = (w.xpos == "$," and len(tail) > 2 and tail[0].xpos not in _INTRODUCERS | {"KOKOM"}
                     and tail[0].text.lower() not in _COORDINATORS
                     and any(x.xpos in _FINITE for x in tail[1:3]) and not any(x.xpos in _FINITE for x in tail[:1]))
        reporting = w.xpos == "$," and tail[0].xpos in _FINITE and tail[0].lemma.lower() in _SAYING
        infinitive = (w.xpos == "$," and len(tail) > 2 and _zu_infinitive(tail)
                      and not any(x.xpos in _FINITE or x.xpos in _INTRODUCERS for x in tail))
        if not (coordinated or reporting or infinitive or asyndetic) or any(x.xpos == "$," for x in tail):
            continue
        start = words[k - 1].start if coordinated and after_mark else w.start
        head = [x for x in words if x.end <= start]
        correlative = None
        if w.text.lower() == "sondern" and "nicht nur" in text[:start].lower():
            # "nicht nur ..., sondern auch": the first half stands alone without its "nicht nur", which goes too;
            # not where "Nicht nur" opens the clause (its verb follows it: "Nicht nur hat er ...")
            correlative = text.rfind("nicht nur ", 0, start)
            opener = [x for x in words if x.end <= correlative][-1:]
            if correlative < 0 or not opener or opener[0].upos == "PUNCT" or opener[0].xpos in _INTRODUCERS:
                continue
        lead = [x for x in head if x.xpos not in ("KON", "$(", "$,")][:1]
        if asyndetic and not (coordinated or reporting or infinitive) and lead and lead[0].xpos in _INTRODUCERS:
            continue  # "Wenn man vom Teufel spricht, dann ist er ...": the clause before is no main clause
        if not (any(x.xpos in _FINITE for x in head) and _balanced(text[start : tail[-1].end])):
            continue
        if correlative is None:
            edits.append(delete(text, start, tail[-1].end))
        else:
            edits.append(Edit(correlative, tail[-1].end, text[correlative + len("nicht nur ") : start].rstrip()))
    return edits


class ClauseOmission(Rule):
    """Delete one segment of a reference that the sentence splitter divides into several (at . ! ? ; :), as the
    paper deletes one of stanza's sentences; a one-word sentence ("Stopp!") is one too. A quotation or bracket that
    spans segments keeps its marks; a segment with an unmatched mark inside is not deleted. A sentence with one
    segment (where stanza split it only after an ordinal, "am 12. | September", which is no clause) loses a
    verb-final clause introduced after a comma, or a last coordinated or reporting clause, instead. Faithful: the
    segments of the authors' sets (stanza also splits after ordinals and abbreviations), deleted whole."""

    name = "clause_omission"
    description = "one clause (sentence-splitter segment) deleted"

    def candidates(self, analysis) -> list[Edit]:
        text = analysis.text
        segments = analysis.segments
        if self.faithful and analysis.splitter != "stanza":
            segments = split_segments(text, stanza_like=True)
        segments = [(s, e) for s, e in segments if any(w.upos != "PUNCT" for w in analysis.words_in((s, e)))]
        if len(segments) < 2:  # the omission must leave a clause behind, and delete one
            if self.faithful:
                return []
            return [Edit(s, e, "") for s, e in _subordinate_clauses(analysis)] + _final_clauses(analysis)
        spans = segments if self.faithful else [_deletable(text, s, e) for s, e in segments]
        return [delete(text, *span) for span in spans if span is not None]
