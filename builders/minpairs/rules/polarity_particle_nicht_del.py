from ..edits import Edit, Rule, delete

# "nicht nur ... sondern auch" (not only) and the tag "nicht wahr" negate nothing; the authors delete them too.
_NOT_NEGATION = {"nur", "wahr"}


class PolarityParticleNichtDel(Rule):
    """Delete the negation particle "nicht" (not in "nicht nur" / "nicht wahr" unless faithful)."""

    name = "polarity_particle_nicht_del"
    description = "the particle 'nicht' deleted"

    def candidates(self, analysis) -> list[Edit]:
        words, out = analysis.words, []
        for i, w in enumerate(words):
            following = words[i + 1].text.lower() if i + 1 < len(words) else ""
            if w.text.lower() == "nicht" and (self.faithful or following not in _NOT_NEGATION):
                out.append(delete(analysis.text, w.start, w.end, ("nicht",)))
        return out
