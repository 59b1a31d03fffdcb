"""Polarity affix deletion (section 3.1, after Sennrich 2017): the negation prefix un- deleted from an adjective,
adverb or noun "in cases where this changes the polarity of the word", i.e. where the word without it exists.

The rule is the authors' method, stated generally: the only affix is the prefix un- (the paper's; their sets delete
no in-, ir-, a-, -los or -frei); a word counts as negated when it is an adjective, adverb, noun or participle that
is un- + a positive form; the positive form exists when the rest, as written (a noun keeps its capital), or the rest
of the un-word's lemma is a form the German lexicon knows and that is attested in present-day German (wordfreq's
German list). Like the authors, the rule makes no judgement of meaning beyond that lookup (unlängst -> längst,
unheimlich -> heimlich are in their sets), and it varies a short stem only, of at most ``MAX_STEM`` letters: in the
authors' sets stems of 9 letters are the most frequent length and none is longer (unpersönlich, Unfreundlichkeit,
unvergesslich stand unvaried beside a varied un-word), the mark of a bounded lookup. ``variants=all`` (every
position) varies longer stems too (uninteressant -> interessant). The variant's anchor
(the phenomenon word a machine reference must share with its human reference, section 3.3) is the un-word's lemma
(a participle's own form), so "unpopulären" is validated by a human "unpopulär". A noun's positive keeps its
inflection: where the lexicon knows the un-noun's case and number, the positive must have them too (Unruhen ->
Ruhen is no variant: Ruhe has no plural).
"""

from functools import lru_cache

from ...sources.german import noun_readings
from ..edits import Edit, Rule, replace
from ..morph import is_word

PREFIX = "un"
MIN_STEM = 3  # ungut -> gut
MAX_STEM = 9  # unersetzbar -> ersetzbar; see the module's note (no bound with every_position)


@lru_cache(maxsize=None)
def _in_use(word: str) -> bool:
    """Attested in present-day German text (wordfreq's German list): the lexicon also knows archaic forms and bare
    suffixes (weigerlich, förmig) that are no positive a reader would accept."""
    import wordfreq

    return wordfreq.zipf_frequency(word, "de") > 0


def positive_exists(rest: str, lemma_rest: str) -> bool:
    """The word without un- is German in use, as a form (unerwartet: erwartet) or through the un-word's lemma
    (unsittliche: sittlich)."""
    forms = [rest] + ([lemma_rest] if lemma_rest else [])
    return any(is_word(f) for f in forms) and any(_in_use(f) for f in forms)


def keeps_inflection(word: str, rest: str) -> bool:
    """A noun's positive is the same case and number as the un-noun wherever the lexicon knows the un-noun's forms:
    Unruhen (a plural) has no positive, since Ruhe has no plural (Ruhen is only the verb's noun)."""
    own = {(case, number) for case, number, _ in noun_readings(word)}
    return not own or bool(own & {(case, number) for case, number, _ in noun_readings(rest)})


def _cased(word: str, capital: bool) -> str:
    return word[:1].upper() + word[1:] if capital else word.lower()


class PolarityAffixDel(Rule):
    """Delete the prefix un- of an adjective, adverb, participle or noun when the rest is a word (unerwartet -> erwartet)."""

    name = "polarity_affix_del"
    description = "the negating prefix un- deleted"

    def candidates(self, analysis) -> list[Edit]:
        out = []
        for w in analysis.words:
            rest = w.text[len(PREFIX):]
            adjectival = w.upos in ("ADJ", "ADV", "NOUN") or w.xpos == "VVPP"  # a participle: unausgewogen, ungeklärt
            too_long = len(rest) > MAX_STEM and not self.every_position
            if not adjectival or w.text[:len(PREFIX)].lower() != PREFIX or not rest.isalpha() or len(rest) < MIN_STEM or too_long:
                continue
            # A noun and a sentence-initial word keep their capital (Unklar ist ... -> Klar ist ...).
            capital = w.upos == "NOUN" or w.text[:1].isupper()
            lemma = w.lemma or ""
            lemma_rest = lemma[len(PREFIX):] if lemma[:len(PREFIX)].lower() == PREFIX and len(lemma) > len(PREFIX) + MIN_STEM else ""
            rest = _cased(rest, capital)
            if w.upos == "NOUN" and not keeps_inflection(w.text, rest):
                continue
            if positive_exists(rest, _cased(lemma_rest, w.upos == "NOUN") if lemma_rest else ""):
                # the lemma where it is the un-word's own (a participle's lemma is its verb: the participle itself)
                out.append(replace(w, rest, ((lemma if lemma_rest and w.xpos != "VVPP" else w.text).lower(),)))
        return out
