from ..edits import Edit, Rule, noun_phrase, replace
from ..morph import match_case, readings
from ...sources.german import determiner_readings

_ENDINGS = ("", "e", "en", "em", "er", "es")


class PolarityParticleKeinDel(Rule):
    """kein* -> ein*: the negation removed, case and inflection kept (keinen -> einen); not before a plural noun,
    which "ein" has no form for (keine Kinder -> *eine Kinder), as the authors' sets."""

    name = "polarity_particle_kein_del"
    description = "kein* replaced by ein*"

    def candidates(self, analysis) -> list[Edit]:
        out = []
        for i, w in enumerate(analysis.words):
            low = w.text.lower()
            if not (low.startswith("kein") and low[4:] in _ENDINGS and w.upos in ("DET", "PRON")):
                continue
            np = noun_phrase(analysis.words, i) if w.upos == "DET" else None
            if np is not None:
                shared = determiner_readings(low) & readings(np[2])
                if shared and all(r[1] == "Plur" for r in shared):
                    continue
            out.append(replace(w, match_case(w.text, w.text[1:]), ("kein",)))  # the polarity word, whatever its inflection
        return out
