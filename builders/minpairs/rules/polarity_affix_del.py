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

By default the rule is that lookup, as the authors' sets show it (they hold unmittelbar -> mittelbar, unlängst ->
längst, unheimlich -> heimlich), and no edit is made inside "( ... )" (a dictionary's optional material, no sentence;
``faithful`` makes it there too). ``affix_polarity=dictionary`` (``strict``) also checks the paper's condition beyond
what their sets show, that the un-word is a negation. Where the Ding dictionary (the builders' offline bilingual
dictionary) glosses both the un-word and its positive, one of the un-word's English glosses must be a negated form of
a gloss of the positive (unbedingt "unconditional" / bedingt "conditional"), a WordNet antonym of one (Unrecht
"wrong" / Recht "right"), or an un-, in-, dis-, non-, not or -less form of an English word in use ("unhampered",
"needless"); Unfall "accident", Unart "bad habit", ungemein "tremendously" are none; where it lacks either word,
nothing is judged. An un-word that grades the adjective after it (unglaublich dumm, nicht unbedingt ideale) keeps no
polarity reading. Nor does one whose positive is much rarer than itself (``FREE_MARGIN``: under 1/30 as frequent in
wordfreq's German list): such a positive lives on only in the un-word, whose meaning has become its own (unglaublich:
glaublich, unbeirrt: beirrt, unversehrt: versehrt).
"""

from functools import lru_cache

from wordbench.errors import SourceError
from ...sources.base import SourceInfo
from ...sources.german import morphemes, noun_readings
from ...sources.glosses import ding_glosses, glosses_info
from ...sources.wordnet import load_wordnet
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


_NEGATING = ("un", "un-", "in", "im", "il", "ir", "dis", "non", "non-", "not ")  # English negating prefixes


@lru_cache(maxsize=None)
def _english(word: str) -> bool:
    """An English word in use (wordfreq); four letters at least, so the un- of union, until, uncle is no prefix."""
    import wordfreq

    return len(word) >= 4 and wordfreq.zipf_frequency(word, "en") >= 2.5


def _gloss_forms(gloss: str) -> set[str]:
    """A gloss's words and, for an adverb, its adjective (unconditionally: unconditional), so parts of speech meet."""
    words = gloss.removeprefix("to ").split()
    return set(words) | {w[:-2] for w in words if w.endswith("ly") and len(w) > 5} | {" ".join(words)}


@lru_cache(maxsize=None)
def _antonyms(gloss: str) -> frozenset[str]:
    """WordNet's antonyms of an English gloss (wrong: right; innocence: guilt); none without WordNet."""
    try:
        wn = load_wordnet()[0]
    except SourceError:
        return frozenset()
    return frozenset(a.name().replace("_", " ") for s in wn.synsets(gloss.replace(" ", "_")) for lemma in s.lemmas()
                     for a in lemma.antonyms())


def polarity_sources() -> list[SourceInfo]:
    """The resources the polarity condition reads, for the build's provenance."""
    try:
        wordnet = [load_wordnet()[1]]
    except SourceError:
        wordnet = []
    return [glosses_info()] + wordnet


def negates(un_glosses, base_glosses) -> bool:
    """One English gloss of the un-word is a negated form of a gloss of the positive (unconditional / conditional,
    disorder / order, not possibly / possibly) or its WordNet antonym (wrong / right), or a negated form of an
    English word (unhampered, needless, incomprehensible): the un-word is a negation in English too."""
    # a stem of three letters is no English word made negative: "union" is no un- + "ion" (nor "until", "uncle")
    negated = {n for g in base_glosses for b in _gloss_forms(g) if len(b) >= 4 for n in [p + b for p in _NEGATING] + [b + "less"]}
    if any(_antonyms(g) & set(base_glosses) for g in un_glosses):
        return True
    for gloss in un_glosses:
        for form in _gloss_forms(gloss):
            if form in negated or form.endswith("less") and _english(form[:-4]) \
                    or any(form.startswith(p) and (p == "not " or _english(form[len(p):])) for p in _NEGATING):
                return True
    return False


def polarity_changes(un_keys: tuple[str, ...], base_keys: tuple[str, ...]) -> bool:
    """The paper's condition, judged through the bilingual dictionary: where it glosses both the un-word and its
    positive, one of the un-word's glosses must be a negation (Unfall 'accident' is none, so no Fall; unbedingt
    'unconditional' is, of bedingt 'conditional'); where it lacks either, nothing is judged."""
    glosses = ding_glosses()
    un = set().union(*(glosses.get(k, ()) for k in un_keys if k))
    base = set().union(*(glosses.get(k, ()) for k in base_keys if k))
    return not (un and base) or negates(un, base)


def degree_modifier(words, i: int) -> bool:
    """The un-word modifies the degree of the adjective after it (unglaublich dumm, nicht unbedingt ideale): no
    polarity is read. An adjective before an attributive one (unnatürlich hohes) stays, as its own attribute may."""
    w, nxt = words[i], words[i + 1] if i + 1 < len(words) else None
    return nxt is not None and nxt.start == w.end + 1 and (nxt.xpos == "ADJD" and w.xpos in ("ADJD", "ADV")
                                                           or nxt.xpos == "ADJA" and w.xpos == "ADV")


def in_parentheses(text: str, start: int) -> bool:
    """Inside "( ... )", which a dictionary's example marks as optional material."""
    before = text[:start]
    return before.count("(") > before.count(")")


FREE_MARGIN = 1.5  # in zipf (log10 per billion words): a positive at least 1/30 as frequent as its un-word


def _zipf(words) -> float:
    import wordfreq

    return max((wordfreq.zipf_frequency(w, "de") for w in words if w), default=0.0)


def free_positive(un_forms: tuple[str, ...], base_forms: tuple[str, ...]) -> bool:
    """The positive is a word of its own, used at least 1/30 as often as its un-word (``FREE_MARGIN``): one much rarer
    lives on only in the un-word, whose meaning is then its own (unglaublich "amazing": glaublich; unbeirrt: beirrt;
    unversehrt: versehrt)."""
    return _zipf(base_forms) >= _zipf(un_forms) - FREE_MARGIN


def negating_prefix(w, un_keys: tuple[str, ...], base_keys: tuple[str, ...]) -> bool:
    """The word's un- is the prefix of a negated word, not the first letters of its stem (Union: Ion; Unfall: Fall).
    German morphology says yes where HanTa's lexicon segments an adjective, adverb or participle at the negating
    prefix (un|klar, un|mittel|bar). An adverb it holds whole is lexicalised: its un- negates where the positive is an
    adverb the lexicon holds whole too (unlängst: längst, ungern: gern), not where the positive is another word class
    (unbedingt "necessarily": the participle bedingt; ungemein "tremendously": the adjective gemein). Elsewhere (every
    noun, a stem it does not know) the bilingual dictionary's glosses decide, where it has both words: one of the
    un-word's must negate one of the positive's (Unrecht "wrong" / Recht "right"; Union "union" / Ion "ion" and
    Unfall "accident" / Fall "case" do not)."""
    parts = morphemes(w.text) if w.upos != "NOUN" else ()
    if parts and parts[0][0].lower() == PREFIX and parts[0][1] == "PREF_NEG":
        return True
    if len(parts) == 1 and parts[0][1] == "ADV":  # a lexicalised adverb: its positive is an adverb of its own or none
        positive = morphemes(w.text[len(PREFIX):].lower())
        return len(positive) == 1 and positive[0][1] == "ADV"
    return polarity_changes(un_keys, base_keys)


def _cased(word: str, capital: bool) -> str:
    return word[:1].upper() + word[1:] if capital else word.lower()


class PolarityAffixDel(Rule):
    """Delete the prefix un- of an adjective, adverb, participle or noun when the rest is a word (unerwartet -> erwartet)."""

    name = "polarity_affix_del"
    description = "the negating prefix un- deleted"

    def candidates(self, analysis) -> list[Edit]:
        out = []
        for i, w in enumerate(analysis.words):
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
            lemma_rest = _cased(lemma_rest, w.upos == "NOUN") if lemma_rest else ""
            if not positive_exists(rest, lemma_rest):
                continue
            noun = w.upos == "NOUN"
            if not negating_prefix(w, (lemma, _cased(w.text, noun)), (_cased(rest, noun), lemma_rest)):
                continue  # un- is the first letters of a stem (Union: Ion), not a negating prefix
            if not self.faithful and in_parentheses(analysis.text, w.start):
                continue  # a dictionary's optional material, no sentence
            if self.strict and (not polarity_changes((lemma, _cased(w.text, noun)), (_cased(rest, noun), lemma_rest))
                                or not free_positive((w.text, lemma), (rest, lemma_rest)) or degree_modifier(analysis.words, i)):
                continue  # the paper's polarity condition, beyond what the authors' sets show (affix_polarity=dictionary)
            # the lemma where it is the un-word's own (a participle's lemma is its verb: the participle itself)
            out.append(replace(w, rest, ((lemma if lemma_rest and w.xpos != "VVPP" else w.text).lower(),)))
        return out
