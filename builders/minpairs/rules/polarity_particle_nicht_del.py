from ..edits import Edit, Rule, delete

# "nicht nur ... sondern auch" (not only) and the tag "nicht wahr" negate nothing; the authors delete them too.
_NOT_NEGATION = {"nur", "wahr"}
_CLOSING = {",", ".", "!", "?", ";", ":", ")", "“", '"', "«"}


class PolarityParticleNichtDel(Rule):
    """Delete the negation particle "nicht" (not in "nicht nur" / "nicht wahr", nor the alternative "ob ... oder
    nicht" closing a clause, unless faithful)."""

    name = "polarity_particle_nicht_del"
    description = "the particle 'nicht' deleted"

    def candidates(self, analysis) -> list[Edit]:
        words, out = analysis.words, []
        for i, w in enumerate(words):
            following = words[i + 1].text.lower() if i + 1 < len(words) else ""
            alternative = i > 0 and words[i - 1].text.lower() == "oder" and (not following or following in _CLOSING)
            if w.text.lower() == "nicht" and (self.faithful or (following not in _NOT_NEGATION and not alternative)):
                out.append(delete(analysis.text, w.start, w.end, ("nicht",)))
        return out
