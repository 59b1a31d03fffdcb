from ..edits import Edit, Rule, noun_phrase
from ..morph import genitive_adjective, genitive_determiner, genitive_noun, readings

# Prepositions that take the dative in Standard German but are sometimes used with the genitive.
PREPOSITIONS = ("entgegen", "entsprechend", "gegenüber", "gemäß", "nahe", "nebst", "samt", "mitsamt", "seit")
POSTPOSITIONS = ("entgegen", "entsprechend", "gegenüber", "gemäß", "nahe")  # also after the noun: dem Plan gemäß


def _noun_phrase_before(words, i):
    """The noun phrase that ends just before ``words[i]`` (a postposition), as ``noun_phrase`` gives it, or None."""
    if i == 0 or words[i - 1].upos != "NOUN" or words[i].text.lower() not in POSTPOSITIONS:
        return None
    j = i - 1
    while j > 0 and words[j - 1].upos == "ADJ":
        j -= 1
    if j > 0 and words[j - 1].upos == "DET":
        j -= 1
    return noun_phrase(words, j)


class HypercorrectGenitive(Rule):
    """After (or before) such a preposition, turn the dative noun phrase into the genitive (entsprechend dem Plan ->
    entsprechend des Plans): determiner, strong adjective endings and the noun's genitive or plural form
    (where German allows both, the lexicon's first variant, Krieges; the authors' short -s, Kriegs, when faithful)."""

    name = "hypercorrect_genitive"
    description = "a dative noun phrase after entgegen/gemäß/seit/... turned into the genitive"

    def candidates(self, analysis) -> list[Edit]:
        words, text, out = analysis.words, analysis.text, []
        for i, prep in enumerate(words):
            if prep.text.lower() not in PREPOSITIONS or prep.upos != "ADP":
                continue
            np = noun_phrase(words, i + 1) or _noun_phrase_before(words, i)  # dem Plan gemäß, dem Publikum gegenüber
            if np is None:
                continue
            det, adjectives, noun = np
            if det is not None and not readings(det):  # mehreren, vielen, beiden: inflected like a strong adjective
                det, adjectives = None, [det] + adjectives
            dative = [r for r in readings(noun) if r[0] == "Dat"]
            if det is not None:
                det_readings = readings(det)
                dative = [r for r in dative if r in det_readings]
            numbers = {r[1] for r in dative}
            if det is None and not adjectives:  # "seit Jahren" -> "seit Jahre" shows no genitive, only a lost -n
                continue
            if det is None and numbers == {"Sing", "Plur"}:
                numbers = {"Plur"}  # a singular count noun needs an article: "gegenüber neuen Konkurrenten" is plural
            if len(numbers) != 1:  # not dative, or singular/plural undecided
                continue
            number = numbers.pop()
            new_noun = genitive_noun(noun.text, number, authors=self.faithful)  # the authors: Monats, Jahres
            new_det = genitive_determiner(det.text, number) if det is not None else None
            if new_noun is None or (det is not None and new_det is None):
                continue
            pieces = ([(det, new_det)] if det is not None else []) + \
                [(adj, genitive_adjective(adj.text, det is not None)) for adj in adjectives] + [(noun, new_noun)]  # text order
            start = pos = pieces[0][0].start
            after = ""
            for word, new in pieces:
                after += text[pos:word.start] + new
                pos = word.end
            if after != text[start:noun.end]:
                out.append(Edit(start, noun.end, after, (prep.text.lower(),)))
        return out
