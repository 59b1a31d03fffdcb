from ..edits import Edit, Rule, replace


class PlaceholderDing(Rule):
    """Replace one noun of the reference by the uninflected placeholder "Ding"; not a noun right before a name, which
    belongs to it ("Annalena Baerbock", "SPD-Politiker Sören Bartol": "Ding Baerbock" is no noun replaced)."""

    name = "placeholder_ding"
    description = "a noun replaced by the placeholder 'Ding'"

    def candidates(self, analysis) -> list[Edit]:
        words = analysis.words
        return [replace(w, "Ding", ()) for i, w in enumerate(words)  # no phenomenon word: any noun of a machine reference is its own (3.3)
                if w.upos == "NOUN" and w.text[:1].isupper() and len(w.text) > 1 and w.text != "Ding"
                and (self.faithful or i + 1 == len(words) or words[i + 1].upos != "PROPN")]
