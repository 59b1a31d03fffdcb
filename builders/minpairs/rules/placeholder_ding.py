from ..edits import Edit, Rule, replace


_QUOTES = frozenset('"„“”»«‚‘’')


def _before_name(words, i: int) -> bool:
    return i + 1 < len(words) and words[i + 1].upos == "PROPN"


def _quoted_alone(words, i: int) -> bool:
    return 0 < i < len(words) - 1 and words[i - 1].text in _QUOTES and words[i + 1].text in _QUOTES


class PlaceholderDing(Rule):
    """Replace one noun of the reference by the uninflected placeholder "Ding"; not a noun right before a name, which
    belongs to it ("Annalena Baerbock", "SPD-Politiker Sören Bartol": "Ding Baerbock" is no noun replaced), nor a
    noun quoted alone, a title ('berichtete die "Wirtschaftswoche"')."""

    name = "placeholder_ding"
    description = "a noun replaced by the placeholder 'Ding'"

    def candidates(self, analysis) -> list[Edit]:
        words = analysis.words
        return [replace(w, "Ding", ()) for i, w in enumerate(words)  # no phenomenon word: any noun of a machine reference is its own (3.3)
                if w.upos == "NOUN" and w.text[:1].isupper() and len(w.text) > 1 and w.text != "Ding"
                and (self.faithful or not (_before_name(words, i) or _quoted_alone(words, i)))]
