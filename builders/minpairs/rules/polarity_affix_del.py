from ..edits import Edit, Rule, replace
from ..morph import is_word

# un- that intensifies (ungemein, Unmenge), is no prefix, or whose rest is another word rather than the positive (Unfall is no
# negated Fall, unvergesslich no negated vergesslich, unheimlich no negated heimlich): deleting it flips no polarity.
_NOT_NEGATING = ("unmenge", "unsumme", "unzahl", "unwetter", "untiefe", "unkosten", "unrat", "ungeziefer", "unter",
                 "uni", "unser", "unten", "unken", "unze", "ungar",
                 "unfall", "unfäll", "unruhen", "ungeheuer", "unvergess", "unheimlich", "unmut", "unding", "ungeachtet",
                 "unlängst", "unwillkürlich", "unwesen", "ungemein")


class PolarityAffixDel(Rule):
    """Delete the prefix un- of an adjective, adverb or noun when the rest is a word (unerwartet -> erwartet)."""

    name = "polarity_affix_del"
    description = "the negating prefix un- deleted"

    def candidates(self, analysis) -> list[Edit]:
        out = []
        for w in analysis.words:
            low = w.text.lower()
            adjectival = w.upos in ("ADJ", "ADV", "NOUN") or w.xpos == "VVPP"  # a participle: unausgewogen, ungeklärt
            if not adjectival or not low.startswith("un") or len(low) < 6 or low.startswith(_NOT_NEGATING):
                continue
            rest = w.text[2:]
            # A noun and a sentence-initial word keep their capital (Unklar ist ... -> Klar ist ...).
            rest = rest[:1].upper() + rest[1:] if w.upos == "NOUN" or w.text[:1].isupper() else rest
            if is_word(rest if w.upos == "NOUN" else rest.lower()):
                out.append(replace(w, rest))
        return out
