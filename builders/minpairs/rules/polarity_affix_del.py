from functools import lru_cache

from ..edits import Edit, Rule, replace
from ..morph import is_word

# Lemmas whose un- does not negate, so deleting it flips no polarity: the augmentative un- (Unmenge, Unsumme, Unzahl,
# Unkosten, Untiefe), the pejorative un- of concrete nouns (Unkraut, Untier, Unwetter, Unmensch, Untat, Unwort, Unort,
# Unding, Unwesen, Unrat), and words whose rest is another word rather than the positive (Unfall is no negated Fall,
# Unmut no negated Mut, unvergesslich no negated vergesslich, unheimlich no negated heimlich, unbedingt "absolutely"
# no negated bedingt, -förmig only a suffix, ungemein an intensifier).
_NOT_NEGATING = frozenset((
    "unmenge", "unsumme", "unzahl", "unkosten", "untiefe", "unkraut", "untier", "unwetter", "unmensch", "untat",
    "unwort", "unort", "unding", "unwesen", "unrat", "ungeziefer", "unfall", "unmut", "unruhen", "ungeheuer",
    "ungeheur", "ungeheuerlich", "unvergesslich", "unvergeßlich", "unheimlich", "unbedingt", "unförmig", "ungemein",
    "ungeachtet", "unlängst", "unwillkürlich", "ungar", "ungarn",
))
_ENDINGS = ("", "e", "en", "es", "er", "em", "n", "s", "ns", "ern")
_LINKS = ("", "s", "es", "n", "en", "-")  # linking elements between a compound's parts
_TAIL_MIN = 3  # a compound's last part
_LEXICAL_TAIL_MIN = 4  # what follows a _NOT_NEGATING stem to make a compound of it (Unratshaufen; not unrat + sam)
_HEAD_MIN = 5  # a compound's first part: Sicherheits-, not Ions- (Unionsebene is no un- + Ionsebene)
_ADJECTIVE_SUFFIXES = ("lich", "bar", "ig", "sam", "haft", "isch")


def _not_negating(w) -> bool:
    """A form of a _NOT_NEGATING lemma, or a compound it begins (Unfallstelle, Unwetterwarnung)."""
    for low in {w.text.lower(), (w.lemma or "").lower()}:
        for stem in _NOT_NEGATING:
            tail = low[len(stem):]
            if low.startswith(stem) and (tail in _ENDINGS or len(tail) >= _LEXICAL_TAIL_MIN and (
                    is_word(tail.capitalize()) or is_word(tail) or tail[0] == "s" and is_word(tail[1:].capitalize()))):
                return True
    return False


@lru_cache(maxsize=None)
def _in_use(word: str) -> bool:
    """Attested in present-day German text (wordfreq's German list): the lexicon also knows archaic forms and bare
    suffixes (weigerlich, förmig) that are no positive a reader would accept."""
    import wordfreq

    return wordfreq.zipf_frequency(word, "de") > 0


def _known(word: str) -> bool:
    return is_word(word) and _in_use(word)


def _positive_exists(rest: str, lemma_rest: str, noun: bool) -> bool:
    """The word without un- is German in use: as a form or through the un-word's lemma (unsittliche: sittlich), as
    the -heit or -keit noun of such an adjective (Unerträglichkeit: erträglich), or as a compound whose first part
    is such a word and whose last part is a word (Unsicherheitsmarge: Sicherheit + Marge)."""
    forms = [rest if noun else rest.lower()] + ([lemma_rest] if lemma_rest else [])
    if any(is_word(f) for f in forms) and any(_in_use(f) for f in forms):
        return True
    base = rest[:-4].lower() if noun and rest.endswith(("heit", "keit")) else ""
    if base.endswith(_ADJECTIVE_SUFFIXES) and _known(base):
        return True
    for i in range(len(rest) - _TAIL_MIN, _HEAD_MIN - 1, -1):
        head, tail = rest[:i], rest[i:]
        if not tail.isalpha() or not is_word(tail.capitalize() if noun else tail):
            continue
        for link in _LINKS:
            if head.endswith(link) and len(head) - len(link) >= _HEAD_MIN:
                first = head[:len(head) - len(link)] if link else head
                if any(_known(f) for f in (first, first.capitalize(), first.lower())):
                    return True
    return False


class PolarityAffixDel(Rule):
    """Delete the prefix un- of an adjective, adverb or noun when the rest is a word (unerwartet -> erwartet)."""

    name = "polarity_affix_del"
    description = "the negating prefix un- deleted"

    def candidates(self, analysis) -> list[Edit]:
        out = []
        for w in analysis.words:
            low = w.text.lower()
            adjectival = w.upos in ("ADJ", "ADV", "NOUN") or w.xpos == "VVPP"  # a participle: unausgewogen, ungeklärt
            # un + at least a four-letter word; "unter" (Unterschied) is a prefix of its own, not un- + ter-.
            if not adjectival or not low.startswith("un") or len(low) < 6 or low.startswith("unter") or _not_negating(w):
                continue
            noun = w.upos == "NOUN"
            rest = w.text[2:]
            # A noun and a sentence-initial word keep their capital (Unklar ist ... -> Klar ist ...).
            rest = rest[:1].upper() + rest[1:] if noun or w.text[:1].isupper() else rest
            lemma = w.lemma or ""
            lemma_rest = lemma[2:] if lemma.lower().startswith("un") and len(lemma) > 5 else ""
            if lemma_rest:
                lemma_rest = lemma_rest[:1].upper() + lemma_rest[1:] if noun else lemma_rest.lower()
            if _positive_exists(rest, lemma_rest, noun):
                out.append(replace(w, rest))
        return out
