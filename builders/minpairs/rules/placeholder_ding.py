from ..edits import Edit, Rule, replace


class PlaceholderDing(Rule):
    """Replace one noun of the reference by the uninflected placeholder "Ding"."""

    name = "placeholder_ding"
    description = "a noun replaced by the placeholder 'Ding'"

    def candidates(self, analysis) -> list[Edit]:
        return [replace(w, "Ding", ()) for w in analysis.words  # no phenomenon word: any noun of a machine reference is its own (3.3)
                if w.upos == "NOUN" and w.text[:1].isupper() and len(w.text) > 1 and w.text != "Ding"]
