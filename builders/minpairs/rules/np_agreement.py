from ..edits import Edit, Rule, noun_phrase, replace
from ..morph import determiner_forms, match_case, readings
from ...sources.german import DEFINITE


class NPAgreement(Rule):
    """Switch the gender of a singular determiner, keeping its case and number, so that it no longer agrees with
    its noun (der Hund -> die Hund, dem Spiel -> der Spiel). As the authors, definite articles only (every
    determiner with ``every_position``); a form that fits another reading of the noun ("unter dem Verdacht" ->
    "der Verdacht", a nominative) is skipped unless faithful, the authors' switch taking no account of it."""

    name = "np_agreement"
    description = "a determiner that disagrees with its noun in gender, case and number kept"

    def candidates(self, analysis) -> list[Edit]:
        out = []
        for i, w in enumerate(analysis.words):
            np = noun_phrase(analysis.words, i) if w.upos == "DET" else None
            if np is None or not (self.every_position or w.text.lower() in DEFINITE):
                continue
            noun = np[2]
            noun_readings = readings(noun)
            current = {r for r in readings(w) & noun_readings if r[1] == "Sing"}
            if not current:
                continue
            for form, rs in sorted(determiner_forms(w.text).items()):
                switched = any((r[0], r[1]) == (c[0], c[1]) and r[2] != c[2] for r in rs for c in current)
                if switched and (self.faithful or not rs & noun_readings):
                    out.append(replace(w, match_case(w.text, form), (noun.text.lower(),)))
        return out
