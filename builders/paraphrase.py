"""Paraphrase triples (Dudy & Bedrick 2020, section 3): (x, x_h, x_a) with carrier sentences.

x is a noun with a single WordNet noun sense (so the carrier cannot use another sense), x_h a
single-word lemma of a hypernym of that sense whose own first noun sense is that hypernym ("mistake",
not "boner"; the most used, by SemCor count), x_a a sibling of x_h (a hyponym of x_h's own hypernym)
meaning its synset the same way (a seeded draw among those SemCor attests), e.g. (poodle, dog, cat).
Rare set: x occurs fewer than 50 times per 103M tokens (the paper's WikiText-103 counts, stored as
rates so other corpora scale), x_h and x_a at least 50 (Appendix C: "mid/high"); common set:
all three at least 50. Each triple gets a carrier: a whole corpus sentence (>= 8 words, capitalized,
ending in . ! or ?) where x, or its plural, is the head noun right after a definite, demonstrative or
possessive determiner, or in the plural anywhere but first (not a compound modifier). The probes replace x
by x_h and x_a in the same number (inflect plurals), keeping capitalization; a/an before a replacement follows
inflect. The default corpus, offline-en, is gensim's Wikipedia sample, WordNet's glosses and examples, gensim's Lee
news sample and the Ding dictionary's example sentences (the paper's annotator took carriers from dictionaries).

Since 2.1.0 three rules keep a triple a paraphrase test a linguist accepts:
- x_h is never an abstract top noun (``too_general``): one below abstraction.n.06 on every path whose hyponym tree
  spans more than ``abstract_span`` synsets (group, relation, measure, act, attribute, quality, activity); x's next
  hypernym is tried, and x without one is left out ("halogen", whose only hypernym is group).
- the carrier holds no form of x_h or x_a (``mentions``: any inflection, part of a hyphenated word): x_a is the first
  sibling of the seeded draw that the carrier lacks, and a carrier holding x_h gives way to x's next carrier.
- the carrier uses WordNet's sense of x (``other_sense``, a simplified Lesk over ``sense_window`` content words each
  side): no sense of x's token in another part of speech, other than those x's sense is derived from, shares more of
  them than x's own sense ("the secular or religious thought"); an -ing x before "of" is its verb's act and needs an
  act, event or process sense ("the signing of the treaty" is no sign language); a plural that WordNet lists as a
  noun of its own ("species" of specie, "assets" of asset) is never read as x; and a noun-or-verb after a singular x
  is the noun, as a bare verb cannot agree ("the conjugate base": x is a modifier there).

Since 2.2.0 (an automatic reader accepted 10 of 20 of 2.1.0) x_h must stand in for x, and x_a be a plain, different thing:
- x_h is x's genus (``names_kind``): the head of the first noun phrase of x's definition (``gloss_heads``) is a lemma of
  x_h's synset or of its parent ("a harp used by ancient Greeks": lyre -> harp; not notochord -> spine, "a flexible
  rodlike structure"; not hairdo -> hair, "the arrangement of the hair"); that very word is x_h when it can be, and
  triples whose x_h is it are drawn first.
- x_h and x_a read as their synset alone: it is their first noun sense, holds more than half of their tagged uses
  (``dominant``: not "establishment" for constitution.n.02), is tagged or their only noun sense (``attested``: not
  "browse", "sodom"); no verb's -ing form of an abstract sense (``verbal``: "traveling", "deciding"); and x, x_h, x_a
  are ``plain``: no sense marked slang, colloquial, disparaging or obscene ("lefty"), none under ``LOADED_TOPICS``.
- x_a's family is comparable (``loose_family``): x_h's parent spans at most ``sibling_span`` synsets, at most
  ``abstract_sibling_span`` when abstract (no siblings drawn from person, animal, act, change of state), and x_h, x_a and
  the parent share a lexicographer file; x_a is no parent-like word (x_h's definition names it, or its own names x_h:
  fortress -> fortification); each sibling synset gives its most used word, and x_a is drawn among the three most used.
- a carrier holds no other word of x's synset ("glamor ( glamour )"), and one using x's plural needs x_h and x_a whose
  plurals are in use (``plural_share``: no "transportations", "swines").

Since 2.3.0 (an automatic reader accepted 11 of 20 of 2.2.0) x_a must clearly change the meaning and x_h read as a paraphrase in the carrier:
- x_a is a different thing (``distinct_sibling``, ``near_sibling``): no noun sense of it is, or is above or below, one of x_h's
  or x's ("haze" and "fog" are both daze.n.02; limit.n.03 is above range.n.02), no word names a kind of both (``kind_words``:
  a "bazaar" is a shop and a mart, a "sleeping pill" a medication and a hypnotic), it is no part or whole of x_h or x (beach of
  shore, forest of undergrowth), x's definition does not name it, and its word is not the parent's in other words (roadway).
- x_h and x_a are words a reader uses as plain nouns: at least ``hypernym_zipf`` / ``sibling_zipf`` on the Zipf scale (no
  "thicket", "sill", "bracing", "frontage", "acorn"), not adjectives tagged as often as nouns (``nominal``: "equine",
  "humanist", "hypnotic"), and x_h is in x's lexicographer file (``same_field``: not website -> computer, tomb -> spot).
- a carrier uses x freely: not coordinated with a kind above x or a kind of x_h (``coordination``: "drugs or anticonvulsants",
  "incisors and canines"), an abstract x not inside a complex preposition (``complex_prepositions``: "under the purview of"),
  x not named (``naming``: "are called syncategoremes"), no modifier x ("Caesium compounds are", "the centennial meeting").
- triples with a corpus carrier are drawn first; while a set is short, WordNet's example sentences serve the rest
  (``wordnet_examples``, carrier_source "wordnet"; offline-en's copies are lower-case fragments no carrier rule accepts).

Since 2.4.0 (an automatic reader accepted 20 of 40 of 2.3.0) x_a reads in its sense and the carrier uses x as a free noun in a sentence:
- x_a's word has at most ``sibling_senses`` WordNet noun senses (no "caller", "cup", "inversion", "word").
- no carrier uses x inside a WordNet compound with the word before or after it (``compounds``, ``in_compound``: "bank robbers",
  "sand dunes": a sibling may still fill the head, "sand hills").
- no WordNet example opening with a/an has a relative pronoun before its first verb (``fragments``, ``relative_first``: "A
  purblind oligarchy that flatly refused ...": a noun phrase).

Since 2.5.0 (automatic readers read the whole 2.4.0 build and accepted 63 of 95) a review file does what the paper's annotator
did (``review``, ``paraphrase_review``): the rules above cannot know that a pope is a clergyman or a yacht a boat, so readers'
verdicts replace the part of a triple that failed (the carrier, x_h, or x_a under that x_h for every x) and each row says
whether a reader accepted it (``reviewed``). No carrier uses x as its verb (``verb_use``: "the prosecutor will consent",
"Agamemnon consents"). 2.5.1: the builtin review reads every triple of the offline default build (the review file's
rounds 7-9). The readers are a large language model prompted with the paper's criteria.
"""

from __future__ import annotations

import os
import re
import warnings
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import datasets

from wordbench.declaration import Benchmark, Figure, Headline, Profile
from wordbench.errors import ConfigError, SourceError
from wordbench.progress import bar, stage
from wordbench.spec import Spec, faithful_opt, opt, seed_opt

from .base import Builder, free_text
from .paraphrase_format import SETS, files_in, read_sets
from .paraphrase_review import Review, load_review
from .sources.base import SourceInfo, seeded_key
from .sources.corpora import OFFLINE_EN, corpus_info, iter_corpus_lines
from .sources.frequencies import PER_BILLION, WIKITEXT103_TRAIN_TOKENS, load_frequencies, zipf
from .sources.stopwords import CLOSED_CLASS
from .sources.wordnet import lemma_count, load_wordnet, tagged_counts
from .wordpred import CITATION as DUDY_CITATION

NOUN = re.compile(r"[a-z]{3,}")
# A corpus carrier uses x as a common noun right after one of these: they take singular and plural, count
# and mass nouns alike, so the hypernym and the sibling fit after them too ("a progress" cannot arise).
POSSESSIVES = frozenset("his her its their our my your".split())
DETERMINERS = frozenset("the this these those".split()) | POSSESSIVES  # not "that": a relative too
# After x, a word of these closed classes (or punctuation) shows that x is the head of its noun phrase.
FUNCTION_WORDS = frozenset("""of in on at to for with by from as and or but nor is was are were be been being has have had
will would can could may might must shall should do does did not that which who whom whose when where while than into onto
over under after before during since about between through across against among within without upon toward towards
also only then there here so because if although though until unless""".split())
SENTENCE_END = (".", "!", "?")
# "from in", "of ,": a value the wiki-markup filter removed left a hole (gensim's sample has many).
HOLE_BEFORE = frozenset("of from to at in by with about approximately around nearly reach reaches reached".split())
HOLE_AFTER = frozenset([",", ".", ")", ";", ":", "in", "to"])
MEASURES = frozenset("length width height depth diameter area size weight".split())  # "greater than in length": a number was removed
AUXILIARIES = frozenset("is was are were has have had will would can could may might must shall should does did do".split())
MODALS = frozenset("will would can could may might must shall should does did do to".split())  # a word after one is its verb
SUBJECTS = frozenset("he she it who".split())  # "she consents": the -s form after one is the verb's
CONTENT_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # a lower-cased token or gloss word that can carry a sense
# Nouns that take the head of a gloss's noun phrase after "of" ("one of the bony segments", "a pair of appendages").
PARTITIVES = frozenset("any one either each several various kind type sort form variety class pair member group part".split())
GERUND_SENSES = frozenset(["noun.act", "noun.event", "noun.process"])  # what "the x-ing of ..." can mean
# WordNet's register labels (usage domains) of a sense that make a word no plain probe word.
LOADED_REGISTERS = frozenset(["slang.n.02", "colloquialism.n.01", "disparagement.n.01", "ethnic_slur.n.01", "obscenity.n.02"])
# A stated stop list of loaded topics (each synset with its hyponyms): a probe about them reads as a provocation.
LOADED_TOPICS = frozenset("""sexual_activity.n.01 sexual_desire.n.01 sex_organ.n.01 genitalia.n.01 erotica.n.01 sexual_abuse.n.01
homosexual.n.01 bisexual.n.01 heterosexual.n.01 prostitute.n.01 pimp.n.01 raper.n.01 body_waste.n.01 semen.n.01
swastika.n.01""".split())

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "set": datasets.Value("string"),
        "word": datasets.Value("string"),
        "hypernym": datasets.Value("string"),
        "sibling": datasets.Value("string"),
        "sentence": datasets.Value("string"),  # s(x), the carrier
        "sentence_hypernym": datasets.Value("string"),  # s(x_h)
        "sentence_sibling": datasets.Value("string"),  # s(x_a)
        "carrier_source": datasets.Value("string"),  # corpus | wordnet | file
        "word_rate": datasets.Value("float64"),  # per billion tokens
        "hypernym_rate": datasets.Value("float64"),
        "sibling_rate": datasets.Value("float64"),
        "synsets": datasets.Sequence(datasets.Value("string")),  # x, x_h, x_a synset names
        "reviewed": datasets.Value("bool"),  # the review accepted this triple with this carrier
    }
)


@dataclass
class Config(Spec):
    n_rare: int = opt(50, "triples in the rare set (the paper: 50)", ge=1)
    n_common: int = opt(50, "triples in the common set (the paper: 50)", ge=1)
    rare_below: int = opt(50, "x is rare below this count per reference_tokens", ge=1)
    common_from: int = opt(50, "every word of a common triple, and x_h, x_a, occur at least this often (Appendix C: mid/high >= 50)", ge=1)
    reference_tokens: int = opt(WIKITEXT103_TRAIN_TOKENS, "the counts above are per this many tokens (WikiText-103 train)", ge=1)
    frequencies: str = opt("wordfreq", "word frequencies: wordfreq, a corpus spec (counts) or hf:ID:CONFIG:SPLIT", nonempty=True)
    corpus: str = opt(OFFLINE_EN, "carrier sentences: a file, folder, hf:ID:CONFIG:SPLIT, offline-en (gensim-wiki + WordNet, news and dictionary sentences) or gensim-wiki", nonempty=True)
    text_column: str = opt("text", "the text column of a jsonl or hf: corpus", nonempty=True)
    min_sentence_words: int = opt(8, "carrier sentences have at least this many words", ge=1)
    max_sentence_words: int = opt(40, "and at most this many", ge=1)
    abstract_span: int = opt(1000, "x_h is never an abstract noun (below abstraction.n.06) whose hyponym tree spans more synsets than this: group, relation, act ... (0: no limit)", ge=0)
    sibling_span: int = opt(1000, "x_a's parent (x_h's hypernym) spans at most this many synsets: siblings under person, animal, act or structure are no comparable alternative (0: no limit)", ge=0)
    abstract_sibling_span: int = opt(300, "and at most this many when it is abstract (below abstraction.n.06): abstract families are loose (change of state: cooking, passage) (0: no limit)", ge=0)
    plural_share: float = opt(0.02, "a carrier using x's plural needs x_h and x_a whose plural has at least this share of the singular's rate: no \"transportations\" (0: no check)", ge=0, le=1)
    genus: bool = opt(True, "x's WordNet definition names x_h's synset, or its parent, as its genus (\"a harp used by ancient Greeks\": lyre -> harp), so x_h can stand in for x")
    same_field: bool = opt(True, "x_h is in x's lexicographer file, the same kind of thing (not website -> computer, tomb -> spot, chelicera -> extremity)")
    hypernym_zipf: float = opt(3.0, "x_h occurs at least 10**this times per billion tokens (Zipf scale; 3: once per million): a plain word, not \"thicket\", \"orifice\", \"depository\" (0: common_from only)", ge=0)
    sibling_zipf: float = opt(3.2, "x_a occurs at least 10**this times per billion tokens (Zipf scale): not \"bracing\", \"frontage\", \"acorn\", \"boson\" (0: common_from only)", ge=0)
    nominal: bool = opt(True, "x_h and x_a that WordNet also lists as adjectives are tagged more often as nouns: no \"equine\", \"humanist\", \"hypnotic\", \"reformist\"")
    distinct_sibling: bool = opt(True, "x_a is a different thing from x_h and x: no sense of it is, is above or below a sense of theirs (haze: fog, limit: range), no word names a kind of both (mart, shop: bazaar), no part or whole of either (beach of shore, forest of undergrowth), x's definition does not name it")
    complex_prepositions: bool = opt(True, "no carrier uses an abstract x as the noun of a complex preposition, \"PREP the x of\" (\"under the purview of\", \"in the guise of\", \"to the detriment of\"): the hypernym reads oddly in a fixed frame")
    wordnet_examples: bool = opt(True, "while a set is short of triples with a corpus carrier, WordNet's example sentences serve the rest (capitalized, closed with \" .\"; carrier_source wordnet): dictionary sentences, as the paper's annotator used")
    naming: bool = opt(True, "no carrier names x instead of using it, right after called / termed / named / dubbed / known as (\"conjunctions are called syncategoremes\"): s(x_h) would only rename")
    coordination: bool = opt(True, "no carrier coordinates x with a word for a kind above x or a kind of x_h (\"drugs or anticonvulsants\", \"incisors and canines\", \"horses and zebras\"): s(x_h) would be vacuous")
    sibling_senses: int = opt(6, "x_a's word has at most this many WordNet noun senses: a reader takes a very polysemous word in another sense (no \"caller\", 7; \"cup\", 8; \"inversion\", 9; \"word\", 10) (0: no limit)", ge=0)
    compounds: bool = opt(True, "no carrier uses x inside a WordNet compound noun with the word before or after it (\"bank robbers\": bank_robber, \"sand dunes\": sand_dune): the probes change a fixed name, whose head a sibling may still fill (\"sand hills\")")
    fragments: bool = opt(True, "no WordNet example sentence is a carrier that opens with a/an and has a relative pronoun before its first verb (\"A purblind oligarchy that flatly refused to see ...\", \"A man who had gone mad\"): a noun phrase, not a sentence")
    review: str = opt("builtin", "a reader's verdicts on triples, the paper's annotator step (Appendix C): a TSV of word, hypernym, sibling, verdict A/R, criterion, sentence, reason; a rejected triple's failing part is replaced (1: the carrier, 2: x_h, 3: x_a) and each row says whether the review accepted it (column reviewed). builtin: independent readers' verdicts on the offline default builds; none: WordNet rules alone", nonempty=True)
    sense_window: int = opt(2, "content words each side of x that must not point to another part of speech's sense (simplified Lesk; 0: no sense check)", ge=0)
    wordnet: str | None = opt(None, "WordNet folder; none: nltk data, Debian wordnet-base, or a download")
    seed: int = seed_opt()
    faithful: bool = faithful_opt()

    def validate(self) -> None:
        if self.min_sentence_words > self.max_sentence_words:
            raise ConfigError(f"min_sentence_words ({self.min_sentence_words}) must not exceed max_sentence_words ({self.max_sentence_words})")


@lru_cache(maxsize=2)
def _inflect(herd: bool = True):
    """inflect's engine: ``herd`` gives herd animals their zero plural ("bison", not "bisons") when a probe word is
    made plural; without it, "bison" still reads as a singular form (``_singular``)."""
    import inflect

    engine = inflect.engine()
    engine.classical(ancient=True, herd=herd)  # larva -> larvae, as in the encyclopedic text of the carriers
    return engine


def article_for(word: str) -> str:
    """a or an by pronunciation (inflect: "an hour", "a unit")."""
    return _inflect().a(word).split(" ", 1)[0]


def plural(word: str) -> str:
    return _inflect().plural_noun(word)


def use_irregular_plurals(wn, words: set[str]) -> None:
    """Teach inflect WordNet's irregular noun plurals of ``words`` (larva -> larvae; inflect says "larvas")."""
    irregular: dict[str, str] = {}
    for form, lemmas in sorted(wn._exception_map["n"].items()):
        for lemma in lemmas:
            if lemma in words and lemma != form:
                irregular.setdefault(lemma, form)
    for lemma, form in irregular.items():
        _inflect().defnoun(lemma, form)


def _singular(word: str) -> bool:
    """Not a plural form ("businessmen", "cattle" as inflect reads them are left out)."""
    return _inflect(herd=False).singular_noun(word) is False


def _cased(replacement: str, tok: str) -> str:
    return replacement.upper() if tok.isupper() and len(tok) > 1 else replacement.capitalize() if tok[:1].isupper() else replacement


def substitute(sentence: str, word: str, replacement: str) -> str | None:
    """Replace every whole-token occurrence of ``word`` or its plural (any case) by ``replacement`` in the same number.

    Capitalization of each occurrence is kept; a preceding a/an is fixed for the new word. None if ``word`` is absent.
    """
    tokens = sentence.split(" ")
    forms = {word: replacement, plural(word): plural(replacement)}
    found = False
    for i, tok in enumerate(tokens):
        new = forms.get(tok.lower())
        if new is None:
            continue
        found = True
        tokens[i] = _cased(new, tok)
        if i > 0 and tokens[i - 1].lower() in ("a", "an"):
            tokens[i - 1] = _cased(article_for(new), tokens[i - 1])
    return " ".join(tokens) if found else None


def _mostly_noun(wn, word: str) -> bool:
    """WordNet's tagged sense counts: the word is used as a noun at least as often as otherwise ("find" is not)."""
    counts = tagged_counts(wn, word)
    return 2 * counts["n"][0] >= sum(c for c, _ in counts.values())


def _first_sense_is(wn, word: str, synset) -> bool:
    """``synset`` is the word's first (most frequent) noun sense: the word read alone means it."""
    senses = wn.synsets(word, "n")
    return bool(senses) and senses[0] == synset


def _is_sentence(tokens: list[str], low: int, high: int) -> bool:
    """A whole sentence: ``low``..``high`` words, capitalized, ending in . ! ?, brackets and quotes balanced."""
    return (low <= len(tokens) <= high and tokens[0][:1].isupper() and tokens[-1] in SENTENCE_END
            and tokens.count("(") == tokens.count(")") and tokens.count('"') % 2 == 0
            and not any(t in ("|", "=", "[[", "]]", "{", "}") for t in tokens)
            and not any(a.lower() in HOLE_BEFORE and b in HOLE_AFTER for a, b in zip(tokens, tokens[1:]))
            and not any(a.lower() == "than" and b == "in" and c.lower() in MEASURES for a, b, c in zip(tokens, tokens[1:], tokens[2:])))


def _has_finite_verb(wn, tokens: list[str], clear: bool = False) -> bool:
    """An auxiliary or an inflected verb form (not -ing) after the first word: a caption such as
    "A chariot clock depicting the god and his lyre ." has none. ``clear``: an inflected form that is no noun too
    ("the shrilling of trumpets" has none: "trumpets" may be a noun)."""
    for tok in tokens[1:]:
        low = tok.lower()
        if low in AUXILIARIES:
            return True
        lemma = wn.morphy(low, "v") if tok.islower() and not low.endswith("ing") else None
        if lemma is not None and lemma != low and not (clear and wn.morphy(low, "n") is not None):
            return True
    return False


def wordnet_examples(wn, forms: set[str]) -> list[str]:
    """WordNet's example sentences holding one of ``forms``, Moses-tokenized as in ``offline-en``, capitalized and closed
    with " ." where they lack an end mark (WordNet writes "the archeologists chanced upon an old tomb")."""
    from sacremoses import MosesTokenizer

    moses = MosesTokenizer(lang="en")
    out = set()
    for synset in wn.all_synsets():
        for example in synset.examples():
            if not forms & set(re.findall(r"[a-z]+", example.lower())):
                continue
            text = moses.tokenize(" ".join(example.split()), escape=False, return_str=True)
            if text:
                text = text[:1].upper() + text[1:]
                out.add(text if text.split()[-1] in SENTENCE_END else text + " .")
    return sorted(out)


def _heads_phrase(wn, nxt: str, singular: bool = False, after: str = "") -> bool:
    """The token after x shows x heads its phrase: punctuation, a function word, or a WordNet word that is not
    mostly a noun (a noun after x, as in "purse snatcher", makes x a compound modifier); after a ``singular`` x a
    bare verb form cannot agree, so a noun-or-verb there is the noun ("the conjugate base"), as is a noun in -ing ("the
    centennial meeting"), and so is a noun-or-verb followed by an auxiliary (``after``: "Caesium compounds are ...")."""
    low = nxt.lower()
    if not any(ch.isalpha() for ch in nxt) or low in FUNCTION_WORDS:
        return True
    if nxt[:1].isupper():
        return False  # a name after x ("the canna Lily") is read as part of it
    verb = wn.morphy(low, "v")
    if wn.morphy(low, "n") is None:  # a verb, adjective or adverb; a word WordNet lacks may be a name ("enzyme chitinase")
        return verb is not None or wn.morphy(low, "a") is not None or wn.morphy(low, "r") is not None
    if wn.morphy(low, "r") is not None:
        return True  # "its journey back"
    if singular and low.endswith("ing") and verb is not None:
        return False  # "the centennial meeting": a noun in -ing after a singular x, which a bare -ing form cannot follow as its verb
    return verb is not None and not _mostly_noun(wn, verb) and not (singular and verb == low) and after.lower() not in AUXILIARIES


def too_general(wn, synset, span: int) -> bool:
    """An abstract top noun: below abstraction.n.06 on every hypernym path, with more than ``span`` synsets below it
    (group, relation, measure, act, attribute, quality, activity: "the halogens" -> "the groups" paraphrases nothing)."""
    return span > 0 and _abstract(wn, synset) and spans_more(synset, span)


def _abstract(wn, synset) -> bool:
    top = wn.synset("abstraction.n.06")
    return all(top in path for path in synset.hypernym_paths())


def spans_more(synset, span: int) -> bool:
    """More than ``span`` synsets below ``synset`` (0: no limit)."""
    below = synset.closure(lambda s: s.hyponyms() + s.instance_hyponyms())  # nltk yields each synset once
    return span > 0 and any(i >= span for i, _ in enumerate(below))


def loose_family(wn, synset, span: int, abstract_span: int) -> bool:
    """Too broad a parent for its hyponyms to be comparable alternatives: more than ``span`` synsets below it (person, animal,
    act, structure), or more than ``abstract_span`` where it is abstract (change of state: cooking, passage, ...)."""
    return spans_more(synset, span) or (abstract_span > 0 and _abstract(wn, synset) and spans_more(synset, abstract_span))


def attested(wn, word: str, synset) -> bool:
    """``word`` in ``synset`` is sense-tagged in WordNet's cntlist, or ``synset`` is ``word``'s only noun sense: no reader takes
    "browse" (three noun senses, none tagged) as browse.n.01, the young shoots animals eat, nor "sodom" as sodom.n.01."""
    return any(lemma.name() == word and lemma_count(wn, lemma) > 0 for lemma in synset.lemmas()) or wn.synsets(word, "n") == [synset]


@lru_cache(maxsize=None)
def plain(wn, word: str, synset) -> bool:
    """A plain word for ``synset``: no sense of ``word`` carries a ``LOADED_REGISTERS`` label (slang, colloquial, disparaging,
    obscene: "lefty", "hood") and ``synset`` is not under ``LOADED_TOPICS`` ("homosexual", "mating"; "seed" of a plant is)."""
    if any(d.name() in LOADED_REGISTERS for pos in "nvar" for lemma in wn.lemmas(word, pos) for d in lemma.synset().usage_domains()):
        return False
    return not ({synset.name()} | {s.name() for s in synset.closure(lambda s: s.hypernyms())}) & LOADED_TOPICS


def dominant(wn, word: str, synset) -> bool:
    """``synset`` holds more than half of ``word``'s sense-tagged noun uses in WordNet's cntlist (``lemma.count()``; a word
    never tagged passes): "establishment" (10 of 21 tagged uses) does not read as constitution.n.02."""
    counts = {lemma.synset(): lemma_count(wn, lemma) for lemma in wn.lemmas(word, "n") if lemma.name() == word}
    total = sum(counts.values())
    return total == 0 or 2 * counts.get(synset, 0) > total


def verbal(wn, word: str, synset) -> bool:
    """A verb's -ing form naming something abstract (its act, a process, a thought: "traveling", "compounding", "deciding"):
    in most frames it reads as the verb ("its traveling back", "his deciding is not convincing"); "building" is a thing."""
    return (word.endswith("ing") and any(b != word for b in wn._morphy(word, "v"))
            and (synset.lexname() in GERUND_SENSES or _abstract(wn, synset)))


@lru_cache(maxsize=None)
def named_in_gloss(wn, synset) -> frozenset[str]:
    """Words ``synset``'s definition names: its content words with their base forms, and the words WordNet derives from them
    ("a larval frog" names larva, "a fortified structure" fortification); a multiword phrase as lemma_name ("political_orientation")."""
    words = _content_words(wn, synset.definition())
    tokens = CONTENT_WORD.findall(synset.definition().lower())
    phrases = {"_".join(tokens[i:i + n]) for n in (2, 3) for i in range(len(tokens) - n + 1)}
    return frozenset(words | phrases | {d.name() for w in words for pos in "nvar" for lemma in wn.lemmas(w, pos) if lemma.name() == w
                                        for d in lemma.derivationally_related_forms() + lemma.pertainyms()})


def defines_by(wn, synset, other) -> bool:
    """``synset``'s definition names ``other`` by one of its lemmas: "a harp used by ancient Greeks" (lyre) names harp.n.01."""
    return bool(named_in_gloss(wn, synset) & {name.lower() for name in other.lemma_names()})


@lru_cache(maxsize=None)
def gloss_heads(wn, synset) -> frozenset[str]:
    """WordNet's genus term for ``synset``: the head nouns of the first noun phrase of each clause of its definition ("a harp used
    by ancient Greeks": harp; "the arrangement of the hair": arrangement, not hair; "elaborate or showy attire and accessories":
    attire, accessory; after a partitive, the noun it takes: "any of several seeds", "one of the bony segments"), with the nouns
    its adjectives pertain to ("a larval frog": larva) and a multiword head as a lemma name ("political_orientation")."""
    heads: set[str] = set()
    for clause in synset.definition().lower().split(";"):
        tokens = re.findall(r"[a-z]+(?:[-'][a-z]+)*|\S", clause)
        i = 0
        while i < len(tokens):
            run = []  # open-class words, and/or/but between them
            while i < len(tokens) and CONTENT_WORD.fullmatch(tokens[i]) and (tokens[i] not in CLOSED_CLASS or tokens[i] in ("and", "or", "but")):
                run.append(tokens[i])
                i += 1
            nouns = [j for j, w in enumerate(run) if w not in ("and", "or", "but") and wn.morphy(w, "n")
                     and (j + 1 == len(run) or not _modified_noun(wn, run[j + 1]))]
            if run and run[-1] in PARTITIVES and i < len(tokens) and tokens[i] == "of":
                i += 1  # "any of several seeds", "a pair of appendages": the head follows
                continue
            if nouns:
                for j in nouns:
                    heads |= _base_forms(wn, run[j]) | {"_".join(run[k:j + 1]) for k in range(max(0, j - 2), j)}
                heads |= {p.name() for w in run for lemma in wn.lemmas(w, "a") for p in lemma.pertainyms()}
                break
            i += 1
    return frozenset(heads)


def _modified_noun(wn, word: str) -> bool:
    """``word`` continues a gloss's noun phrase as its head: a noun, not and/or/but, nor a verb's -ing or -ed form
    ("a mountain rising", "a harp used")."""
    if word in ("and", "or", "but") or wn.morphy(word, "n") is None:
        return False
    return not (word.endswith(("ing", "ed")) and any(b != word for b in wn._morphy(word, "v")))


def names_kind(wn, synset, hyper, span: int, abstract_span: int) -> bool:
    """``synset``'s genus term (``gloss_heads``) is a lemma of its hypernym ``hyper`` ("a harp used by ancient Greeks": lyre),
    or of the kind above ``hyper`` unless that is a ``loose_family`` ("a drug used to treat convulsions": anticonvulsant ->
    medicine, a drug); "the arrangement of the hair" (hairdo -> hair) and "a person who is absent" (exile -> absentee) name none."""
    heads = gloss_heads(wn, synset)
    return bool(heads & set(hyper.lemma_names())) or any(heads & set(g.lemma_names()) and not loose_family(wn, g, span, abstract_span)
                                                         for g in hyper.hypernyms())


def adjectival(wn, word: str) -> bool:
    """``word`` is also an adjective in WordNet and its noun senses are not tagged more often than its adjective senses:
    "equine", "humanist", "hypnotic", "reformist" read as adjectives, or as a sense other than the probe's."""
    counts = tagged_counts(wn, word)
    return counts["a"][1] > 0 and counts["n"][0] <= counts["a"][0]


def _up(synset) -> list:
    return synset.hypernyms() + synset.instance_hypernyms()


@lru_cache(maxsize=None)
def above(synset) -> frozenset:
    """``synset`` and every synset above it (hypernyms and instance hypernyms, transitively)."""
    return frozenset({synset, *synset.closure(_up)})


@lru_cache(maxsize=None)
def below(synset) -> frozenset:
    """``synset`` and every synset below it (hyponyms, transitively; instances left out: a person holding two offices is
    no kind of either)."""
    return frozenset({synset, *synset.closure(lambda s: s.hyponyms())})


@lru_cache(maxsize=None)
def kind_words(synset) -> frozenset[str]:
    """The words for ``synset`` and its kinds (lemmas of ``below``)."""
    return frozenset(name.lower() for s in below(synset) for name in s.lemma_names())


def _parts(synset) -> list:
    return (synset.part_holonyms() + synset.member_holonyms() + synset.substance_holonyms()
            + synset.part_meronyms() + synset.member_meronyms() + synset.substance_meronyms())


def near_sibling(wn, word: str, synset, hyper_word: str, hyper, x_word: str, x_sense) -> str | None:
    """Why the sibling ``word`` (``synset``) is no clearly different alternative to x_h (``hyper_word``, ``hyper``) and x,
    or None:
    - a noun sense of ``word`` is, or is above or below, a noun sense of x_h or of x ("haze" and "fog" share daze.n.02;
      limit.n.03 is above range.n.02, "theatre" is a "house");
    - it is a part or whole of x_h or x (beach.n.01 is part of shore.n.01; underbrush.n.01 is part of forest.n.01);
    - a word names a kind of both (``kind_words``: a "bazaar" is a shop and a mart; a "sleeping pill" a medication and a
      hypnotic; a "tender" a boat and a ship);
    - x's definition names it, or its own names x ("the brush ... growing beneath taller trees in a wood or forest");
    - its word is built on a word of its parent, the parent in other words (roadway: road; businessman: businessperson)."""
    for parent in synset.hypernyms():
        for name in parent.lemma_names():
            name = name.lower()
            if NOUN.fullmatch(name) and len(name) >= 4 and word != name and (word.startswith(name) or len(os.path.commonprefix([word, name])) >= 6):
                return f"the parent in other words: {name}"
    mine = wn.synsets(word, "n")
    for other_word, other in ((hyper_word, hyper), (x_word, x_sense)):
        for s in mine:
            for t in wn.synsets(other_word, "n"):
                if s in above(t) or t in above(s):
                    return f"{s.name()} ~ {t.name()}"
        if other in _parts(synset) or synset in _parts(other):
            return f"part or whole of {other.name()}"
    shared = kind_words(synset) & kind_words(hyper)
    if shared:
        return f"names a kind of both: {sorted(shared)[0]}"
    if defines_by(wn, x_sense, synset) or defines_by(wn, synset, x_sense):
        return f"definitions name {x_word}"
    return None


PREPOSITIONS = frozenset("""in on at to under by with for from into onto upon within without beyond against outside inside over through
across about among after before behind below beneath above around toward towards""".split())


NAMING = frozenset("called termed named dubbed titled nicknamed".split())  # "... are called syncategoremes": x is mentioned


def verb_use(wn, i: int, prev: str, tok: str, word: str) -> bool:
    """Whether the use ``tok`` of x (``word``) at ``i`` after ``prev`` reads as x's verb: after a modal, do or "to" ("the
    prosecutor will consent"), or its -s form after a name or he/she/it/who ("Agamemnon consents ,")."""
    if not wn.synsets(word, "v"):
        return False
    if tok.lower() == word:
        return prev.lower() in MODALS  # "will consent", "to consent"; not "to boats"
    if prev.lower() in SUBJECTS:
        return True
    names = wn.synsets(prev.lower())
    return prev[:1].isupper() and bool(names) and all(s.instance_hypernyms() for s in names)  # "Agamemnon", not "Greek", "The"


def names_x(tokens: list[str], uses: list[int]) -> bool:
    """x is named, not used: right after "called", "termed", ... or "known as" / "referred to as" ("conjunctions are called
    syncategoremes"); replacing it by x_h renames the thing instead of paraphrasing the sentence."""
    return any(u >= 1 and (tokens[u - 1].lower() in NAMING or (u >= 2 and tokens[u - 1].lower() == "as" and tokens[u - 2].lower() in ("known", "to")))
               for u in uses)


def in_compound(wn, tokens: list[str], uses: list[int], word: str) -> str | None:
    """A WordNet compound noun that x forms with the word before or after one of its ``uses`` ("The bank robbers fled":
    bank_robber; "ergs , or sand dunes": sand_dune), or None: the probes rewrite a fixed name, and a sibling may still
    fill its head ("sand hills" are sand dunes, "bank gangsters" bank robbers)."""
    for u in uses:
        around = ([f"{tokens[u - 1].lower()}_{word}"] if u >= 1 else []) + ([f"{word}_{tokens[u + 1].lower()}"] if u + 1 < len(tokens) else [])
        for name in around:
            if CONTENT_WORD.fullmatch(name.replace("_", "-")) and wn.lemmas(name, "n"):
                return name
    return None


RELATIVES = frozenset("that which who whom whose".split())


def relative_first(wn, tokens: list[str]) -> bool:
    """A noun phrase, not a sentence: it opens with a/an and a relative pronoun comes before its first verb (an auxiliary
    or a clearly inflected verb that is no noun): "A purblind oligarchy that flatly refused to see that history was
    condemning it to the dustbin .", "A city in which ...", "A man who had gone mad ."."""
    if not tokens or tokens[0].lower() not in ("a", "an"):
        return False
    for tok in tokens[1:]:
        if tok.lower() in RELATIVES:
            return True
        if _has_finite_verb(wn, ["", tok], clear=True):
            return False
    return False


def complex_preposition(wn, tokens: list[str], uses: list[int], sense) -> bool:
    """An abstract ``sense`` used as the noun of a complex preposition, "PREP the x of" ("under the purview of", "in the guise
    of", "to the detriment of"), or of a fixed "PREP his x" closing its clause ("in their incipiency .", "in his stead ,"):
    frames where x's hypernym reads oddly ("under the range of the Board")."""
    if not _abstract(wn, sense):
        return False
    return any(2 <= u and u + 1 < len(tokens) and tokens[u - 2].lower() in PREPOSITIONS
               and ((tokens[u - 1].lower() in DETERMINERS | {"a", "an"} and tokens[u + 1].lower() == "of")
                    or (tokens[u - 1].lower() in POSSESSIVES and not any(ch.isalnum() for ch in tokens[u + 1]))) for u in uses)


COORDINATORS = frozenset(["and", "or", "nor", ",", "&", "/"])


def conjuncts(tokens: list[str], uses: list[int]) -> set[str]:
    """Lower-cased words coordinated with the tokens at ``uses``: the word before a coordinator that precedes x, its
    modifiers between ("drugs or anticonvulsants", "drugs or new anticonvulsants"), and the words of the phrase after a
    coordinator that follows x, up to a function word or punctuation ("incisors and canines at ...", "X and other Y")."""
    out: set[str] = set()
    for u in uses:
        j = u - 1  # left: over up to two modifiers to a coordinator, then the head before it
        while j > u - 3 and j > 0 and tokens[j].lower() not in COORDINATORS and CONTENT_WORD.fullmatch(tokens[j].lower()) \
                and tokens[j].lower() not in FUNCTION_WORDS and tokens[j].lower() not in DETERMINERS:
            j -= 1
        if j >= 1 and tokens[j].lower() in COORDINATORS:
            while j >= 1 and tokens[j].lower() in COORDINATORS:
                j -= 1
            if CONTENT_WORD.fullmatch(tokens[j].lower()):
                out.add(tokens[j].lower())
        k = u + 1  # right: past the coordinators (", and"), then the words of the next phrase
        if k < len(tokens) and tokens[k].lower() in COORDINATORS:
            while k < len(tokens) and tokens[k].lower() in COORDINATORS:
                k += 1
            while k < len(tokens) and k <= u + 6 and CONTENT_WORD.fullmatch(tokens[k].lower()) and tokens[k].lower() not in FUNCTION_WORDS:
                out.add(tokens[k].lower())
                k += 1
    return out


def vacuous_coordination(wn, sentence: str, x: str, x_sense, hyper, sibling=None) -> str | None:
    """A word coordinated with x (``conjuncts``) that names, in some noun sense, a kind above x (x_h and up: "drugs or
    anticonvulsants" -> "drugs or medications") or a kind of x_h ("incisors and canines" -> "teeth and canines", "horses
    and zebras" -> "horses and equines"), or with ``sibling``, a kind of it: s(x_h) or s(x_a) says "X and X"; None if none."""
    tokens = sentence.split()
    forms = {x, plural(x)}
    uses = [i for i, tok in enumerate(tokens) if tok.lower() in forms]
    around = above(x_sense) | below(hyper) | (below(sibling) if sibling is not None else frozenset())
    for word in sorted(conjuncts(tokens, uses) - forms):
        for base in _base_forms(wn, word):
            if any(s in around for s in wn.synsets(base, "n")):
                return word
    return None


def _base_forms(wn, token: str) -> set[str]:
    """``token`` and its base forms by WordNet's morphology in every part of speech (grouped -> group, bushes -> bush)."""
    return {token}.union(*(wn._morphy(token, pos) for pos in "nvar"))


def mentions(wn, sentence: str, word: str) -> bool:
    """Some token of ``sentence``, or a part of a hyphenated one, is ``word`` in any inflection (trees, grouped, tree-lined)."""
    forms = {word, plural(word)}
    for token in CONTENT_WORD.findall(sentence.lower()):
        for part in {token, *token.split("-")}:
            if part in forms or word in _base_forms(wn, part):
                return True
    return False


def synonyms(synset, word: str) -> set[str]:
    """The other single-word lemmas of ``synset`` and their plurals (glamour beside glamor, thumb beside pollex)."""
    return {form for name in synset.lemma_names() if name.lower() != word and NOUN.fullmatch(name.lower())
            for form in (name.lower(), plural(name.lower()))}


def _reads_as(wn, form: str, sense) -> bool:
    """WordNet has no noun of its own spelled ``form`` beside ``sense`` ("species" is a noun itself, never specie's plural)."""
    return all(lemma.synset() == sense for lemma in wn.lemmas(form, "n") if lemma.name().lower() == form)


def _content_words(wn, text: str) -> set[str]:
    """Open-class words of ``text`` (lower-cased, 3+ letters, not closed-class) with their base forms."""
    return {b for w in CONTENT_WORD.findall(text.lower()) if len(w) > 2 and w not in CLOSED_CLASS for b in _base_forms(wn, w)}


def _signature(wn, synset) -> set[str]:
    """A sense's Lesk signature: the content words of its gloss and examples, its lemmas and those of its hypernyms and hyponyms."""
    lemmas = [name.replace("_", " ") for s in (synset, *synset.hypernyms(), *synset.hyponyms()) for name in s.lemma_names()]
    return _content_words(wn, " ".join([synset.definition(), *synset.examples(), *lemmas]))


def other_sense(wn, tokens: list[str], uses: list[int], sense, window: int) -> str | None:
    """Simplified Lesk: the name of a sense of x's token in another part of speech, not one x's sense is derived from, whose
    signature shares more of the ``window`` content words each side of x than x's own sense does; None if there is none.
    An -ing x before "of" is its verb's act ("the signing of the treaty"): x's sense must be an act, event or process."""
    if window <= 0:
        return None
    for u in uses:
        word = tokens[u].lower()
        if u + 1 < len(tokens) and tokens[u + 1] == "of" and word.endswith("ing") and sense.lexname() not in GERUND_SENSES:
            verbs = [b for b in wn._morphy(word, "v") if b != word]
            if verbs:
                return wn.synsets(verbs[0], "v")[0].name()
    content = [i for i, tok in enumerate(tokens) if i not in uses and _content_words(wn, tok)]
    near: set[str] = set()
    for u in uses:
        for i in [i for i in content if i < u][-window:] + [i for i in content if i > u][:window]:
            near |= _content_words(wn, tokens[i])
    own = len(near & _signature(wn, sense))
    derived = {d.synset() for lemma in sense.lemmas() for d in lemma.derivationally_related_forms() + lemma.pertainyms()}
    others = {syn for u in uses for syn in wn.synsets(tokens[u].lower())} - derived - {sense}
    for syn in sorted(others, key=lambda s: s.name()):
        if len(near & _signature(wn, syn)) > own:
            return syn.name()
    return None


class ParaphraseBuilder(Builder):
    name = "paraphrase"
    version = "2.5.1"
    Config = Config
    schema = {"default": FEATURES}
    labels = {"set": SETS, "carrier_source": ("corpus", "wordnet", "file")}
    fields = {
        "id": "stable triple id, SET-NNNNN", "set": "rare or common by the word's frequency (see the card)",
        "word": "x, the probed noun", "hypernym": "x_h, a WordNet hypernym of x that can stand in for it",
        "sibling": "x_a, a sibling of x under the same hypernym, which cannot", "sentence": free_text("s(x), the carrier sentence"),
        "sentence_hypernym": free_text("s(x_h), the carrier with x replaced by x_h"),
        "sentence_sibling": free_text("s(x_a), the carrier with x replaced by x_a"),
        "carrier_source": "where the carrier came from: a corpus, WordNet's example sentences, or a file of the authors' layout",
        "word_rate": "x's occurrences per billion tokens", "hypernym_rate": "x_h's occurrences per billion tokens",
        "sibling_rate": "x_a's occurrences per billion tokens", "synsets": "the WordNet synsets of x, x_h and x_a",
        "reviewed": "true where the review (option review) read this triple with this carrier and accepted it",
    }
    column_defaults = {"reviewed": False}  # added in 2.5.0: a dataset published before reads as unreviewed

    def _resolve(self, config: Config):
        wn, wn_info = load_wordnet(config.wordnet)
        freq = load_frequencies(config.frequencies)
        return wn, freq, [wn_info, freq.info]

    def sources(self, config: Config) -> list[SourceInfo]:
        review = load_review(config.review)[1]
        return self._resolve(config)[2] + [corpus_info(config.corpus, config.text_column)] + ([review] if review else [])

    def candidates(self, config: Config, wn, freq, progress: bool = False, review: Review | None = None) -> dict[str, list[tuple]]:
        """Every qualifying (x, x_h, siblings, x's synset, x_h's synset) per set, in a stable order; one per x. ``siblings``
        holds (x_a, its synset) in the seeded order of the draw: the build takes the first its carrier does not hold. An
        x_h the ``review`` rejected for x is never x's (nor any word of its synset), an x_a it rejected under an x_h is never drawn under that x_h."""
        review = load_review(config.review)[0] if review is None else review
        scale = PER_BILLION / config.reference_tokens
        rare_edge, common_edge = config.rare_below * scale, config.common_from * scale
        rate = freq.rate

        named: dict[str, list[tuple[str, int]]] = {}
        general: dict[str, bool] = {}

        def words_for(synset, exclude: set[str]) -> list[tuple[str, int]]:
            """(lemma, SemCor count) of single-word singular plain lemmas that mean ``synset`` when read alone (its first
            and dominant sense, no verbal -ing), frequent enough, most used first (SemCor count, then WordNet's lemma order:
            "semen" before "cum", whose rate comes from other uses)."""
            if synset.name() not in named:
                ok = [(w, lemma_count(wn, lem)) for lem in synset.lemmas() if NOUN.fullmatch(w := lem.name()) and rate(w) >= common_edge
                      and _singular(w) and _first_sense_is(wn, w, synset) and _mostly_noun(wn, w) and dominant(wn, w, synset)
                      and attested(wn, w, synset) and not verbal(wn, w, synset) and plain(wn, w, synset)
                      and not (config.nominal and adjectival(wn, w))]
                named[synset.name()] = sorted(ok, key=lambda wc: (-wc[1], synset.lemma_names().index(wc[0])))
            return [wc for wc in named[synset.name()] if wc[0] not in exclude]

        def is_general(synset, top: bool) -> bool:
            """``too_general`` (x_h) or, for x_a's parent, a ``loose_family``, computed once."""
            key = f"{synset.name()}|{top}"
            if key not in general:
                general[key] = (too_general(wn, synset, config.abstract_span) if top
                                else loose_family(wn, synset, config.sibling_span, config.abstract_sibling_span))
            return general[key]

        out: dict[str, list[tuple]] = {s: [] for s in SETS}
        nouns = sorted({n for n in wn.all_lemma_names("n") if NOUN.fullmatch(n)})
        for x in bar(nouns, "paraphrase: (x, x_h, x_a) candidates from WordNet nouns", progress):
            senses = wn.synsets(x, "n")
            if len(senses) != 1 or x not in senses[0].lemma_names() or not _mostly_noun(wn, x) or not _singular(x) or plural(x) == x:
                continue  # several noun senses: the carrier's sense would be a guess; "the bison": its number too
            sense = senses[0]
            x_rate = rate(x)
            kind = "rare" if x_rate < rare_edge else "common" if x_rate >= common_edge else None
            if kind is None or not plain(wn, x, senses[0]):
                continue
            own = set(sense.lemma_names())  # x is one of them (checked above)
            genus = gloss_heads(wn, sense)
            for hyper in sorted(sense.hypernyms(), key=lambda syn: syn.name()):
                if any((x, name) in review.hypernyms for name in hyper.lemma_names()):
                    continue  # a reader rejected this hypernym as x's (politico): none of its words stands in (pol)
                heads = [wc for wc in words_for(hyper, own) if zipf(rate(wc[0])) >= config.hypernym_zipf]
                if (not heads or is_general(hyper, True) or (config.same_field and hyper.lexname() != sense.lexname())
                        or (config.genus and not names_kind(wn, sense, hyper, config.sibling_span, config.abstract_sibling_span))):
                    continue  # group, relation, act, a kind x's definition does not name, another field ...: x's next hypernym
                x_h = next((w for w, _ in heads if w in genus), heads[0][0])  # the word x's definition uses, if it is one
                # x_a: a sibling in x_h's field (lexname, its parent's too) under a parent specific enough to make it comparable;
                # x_h's definition does not name it, nor does its own name x_h (no kind of x_h, no parent of it: fortification).
                siblings: dict[str, tuple] = {}  # word -> (SemCor count, the sibling synset it names)
                for grand in hyper.hypernyms():
                    if grand.lexname() != hyper.lexname() or is_general(grand, False):
                        continue
                    for sib in grand.hyponyms():
                        if sib in (hyper, sense) or sib.lexname() != hyper.lexname() or defines_by(wn, hyper, sib) or defines_by(wn, sib, hyper):
                            continue
                        for w, count in words_for(sib, own | {x_h})[:1]:  # its most used word ("magazine", not "mag")
                            if ((x_h, w) in review.siblings or zipf(rate(w)) < config.sibling_zipf or (config.sibling_senses and len(wn.synsets(w, "n")) > config.sibling_senses)
                                    or (config.distinct_sibling and near_sibling(wn, w, sib, x_h, hyper, x, sense))):
                                continue  # a rare or very polysemous word ("frontage"), or no clearly different thing (shore: beach, shop: mart)
                            siblings.setdefault(w, (count, sib))
                if siblings:
                    # A seeded draw among the three most used sibling words attested in SemCor (else among all; by SemCor count,
                    # then rate): a familiar alternative ("word", not "formative"); the rest follow, most used first, for a
                    # carrier that holds the drawn ones.
                    pool = [w for w in siblings if siblings[w][0] > 0] or list(siblings)
                    ranked = sorted(pool, key=lambda w: (-siblings[w][0], -rate(w), w))
                    drawn = sorted(ranked[:3], key=lambda w: seeded_key(config.seed, f"{x}|{w}")) + ranked[3:]
                    out[kind].append((x, x_h, tuple((w, siblings[w][1].name()) for w in drawn), sense.name(), hyper.name()))
                    break
        return out

    def _carriers(self, config: Config, words: dict[str, object], wn, progress: bool = False) -> dict[str, list[str]]:
        """Whole corpus sentences (up to 20, in a seeded order) using each word (name -> its synset), or its plural, as
        a head noun after a determiner, in WordNet's sense of it (``other_sense``); a plural that is a noun of its own
        ("species" of specie) is no use of x, and a sentence holding it is none of x's carriers; nor is one holding another
        word of x's synset, which the probes would keep ("All the glamor ( glamour ) is gone")."""
        lines = bar(iter_corpus_lines(config.corpus, config.text_column), f"paraphrase: carrier sentences of {len(words):,} words (corpus lines)",
                    progress, unit="line")
        return self._carriers_in(config, words, wn, lines)

    def _example_carriers(self, config: Config, words: dict[str, object], wn) -> dict[str, list[str]]:
        """WordNet's example sentences as carriers, by the rules of ``_carriers``: Moses-tokenized like ``offline-en``,
        capitalized and closed with " ." (WordNet gives "the archeologists chanced upon an old tomb"), and holding a verb
        form that is no noun ("the clash of swords and the shrilling of trumpets" is a phrase)."""
        return self._carriers_in(config, words, wn, wordnet_examples(wn, {f for w in words for f in (w, plural(w))}), clear_verb=True)

    def _carriers_in(self, config: Config, words: dict[str, object], wn, lines, clear_verb: bool = False) -> dict[str, list[str]]:
        forms = {f: w for w in sorted(words) for f in (w, plural(w))}
        not_x = {f for f, w in forms.items() if not _reads_as(wn, f, words[w])}
        found: dict[str, list[str]] = defaultdict(list)
        for line in lines:
            tokens = line.split()
            uses = [(i, prev, tok, nxt) for i, (prev, tok, nxt) in enumerate(zip([""] + tokens, tokens, tokens[1:])) if tok.lower() in forms]
            if not uses:  # most lines: the cheap test first, WordNet's morphology only for candidates
                continue
            if (not _is_sentence(tokens, config.min_sentence_words, config.max_sentence_words) or not _has_finite_verb(wn, tokens)
                    or (clear_verb and not _has_finite_verb(wn, tokens, clear=True))
                    or (clear_verb and config.fragments and relative_first(wn, tokens))):
                continue
            for word in {forms[tok.lower()] for _, _, tok, _ in uses}:
                mine = [(i, prev, tok, nxt) for i, prev, tok, nxt in uses if forms[tok.lower()] == word]
                at = [i for i, _, _, _ in mine]
                # Every use of x in the sentence (all are replaced) is a common noun heading its phrase; one follows a determiner,
                # or all are plural (plural x_h and x_a fit wherever a plural count noun does: "conventional incisors").
                if (len(found[word]) < 20 and not any(tok.lower() in not_x for _, _, tok, _ in mine)
                        and (any(prev.lower() in DETERMINERS for _, prev, _, _ in mine) or all(i > 0 and tok.lower() != word for i, _, tok, _ in mine))
                        and all((i == 0 or tok.islower()) and _heads_phrase(wn, nxt, tok.lower() == word, tokens[i + 2] if i + 2 < len(tokens) else "")
                                for i, _, tok, nxt in mine)
                        and not (config.complex_prepositions and complex_preposition(wn, tokens, at, words[word]))
                        and not (config.naming and names_x(tokens, at))
                        and not any(verb_use(wn, i, prev, tok, word) for i, prev, tok, _ in mine)
                        and not (config.compounds and in_compound(wn, tokens, at, word))
                        and not synonyms(words[word], word) & {tok.lower() for tok in tokens}
                        and other_sense(wn, tokens, at, words[word], config.sense_window) is None):
                    found[word].append(" ".join(tokens))
        return {w: sorted(s, key=lambda t: seeded_key(config.seed, t)) for w, s in found.items() if s}

    @staticmethod
    def _countable(config: Config, freq):
        """word -> its plural is in use: at least ``plural_share`` of the singular's rate ("swines", "transportations" are not)."""
        return lambda word: freq.rate(plural(word)) >= config.plural_share * freq.rate(word)

    @staticmethod
    def _fit(wn, x: str, x_h: str, siblings: tuple, sentences: list[str], countable=lambda word: True, senses: tuple | None = None) -> tuple | None:
        """The first carrier (seeded order) holding no form of x_h, with the first sibling of the seeded draw it holds no
        form of: (carrier, s(x_h), s(x_a), x_a, x_a's synset); None where no carrier fits. A carrier using x's plural
        needs ``countable`` x_h and x_a ("transportations" is no word). With ``senses`` (x's and x_h's synsets), a carrier
        coordinating x with a kind above x or a kind of x_h, or of x_a, is passed over (``vacuous_coordination``)."""
        for sentence in sentences:
            many = plural(x) in sentence.lower().split()
            if mentions(wn, sentence, x_h) or (many and not countable(x_h)):
                continue
            if senses is not None and vacuous_coordination(wn, sentence, x, *senses):
                continue
            x_a, s_a = next(((w, syn) for w, syn in siblings if not mentions(wn, sentence, w) and (not many or countable(w))
                             and (senses is None or not vacuous_coordination(wn, sentence, x, *senses, wn.synset(syn)))), (None, None))
            if x_a is None:
                continue
            probe_h, probe_a = substitute(sentence, x, x_h), substitute(sentence, x, x_a)
            if probe_h is not None and probe_a is not None:
                return sentence, probe_h, probe_a, x_a, s_a
        return None

    def build(self, config: Config, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        if config.n_rare < 0 or config.n_common < 0:
            raise ConfigError("n_rare and n_common must be >= 0")
        if config.min_sentence_words < 1 or config.max_sentence_words < config.min_sentence_words:
            raise ConfigError("need 1 <= min_sentence_words <= max_sentence_words")
        with stage("paraphrase: loading WordNet and frequencies", progress):
            wn, freq, _ = self._resolve(config)
        review = load_review(config.review)[0]
        cands = self.candidates(config, wn, freq, progress, review)
        use_irregular_plurals(wn, {w for s in SETS for c in cands[s] for w in (c[0], c[1], *(a for a, _ in c[2]))})
        words = {c[0]: wn.synset(c[3]) for s in SETS for c in cands[s]}
        carriers = self._carriers(config, words, wn, progress)
        # WordNet's example sentences serve triples without a corpus carrier (dictionary sentences, as the paper's annotator used).
        examples = self._example_carriers(config, words, wn) if config.wordnet_examples else {}
        rows = []
        for kind, wanted in (("rare", config.n_rare), ("common", config.n_common)):
            picked, done = 0, set()
            # Triples whose x_h is the very word x's definition uses (its genus) first, then the others, each in seeded order;
            # all with a corpus carrier first, then, while the set is short, those with a WordNet example sentence.
            order = sorted(cands[kind], key=lambda c: (c[1] not in gloss_heads(wn, wn.synset(c[3])), seeded_key(config.seed, c[0])))
            for source, sentences in (("corpus", carriers), ("wordnet", examples)):
                for x, x_h, siblings, s_x, s_h in order:
                    if picked == wanted:
                        break
                    if x in done:
                        continue
                    usable = [s for s in sentences.get(x, []) if (x, s) not in review.carriers]
                    fit = self._fit(wn, x, x_h, siblings, usable, self._countable(config, freq),
                                    (wn.synset(s_x), wn.synset(s_h)) if config.coordination else None)
                    if fit is None:
                        continue
                    sentence, probe_h, probe_a, x_a, s_a = fit
                    picked += 1
                    done.add(x)
                    row = {
                        "id": f"{kind}-{picked:05d}", "set": kind, "word": x, "hypernym": x_h, "sibling": x_a,
                        "sentence": sentence, "sentence_hypernym": probe_h, "sentence_sibling": probe_a, "carrier_source": source,
                        "word_rate": freq.rate(x), "hypernym_rate": freq.rate(x_h), "sibling_rate": freq.rate(x_a), "synsets": [s_x, s_h, s_a],
                    }
                    rows.append(row | {"reviewed": review.read(row)})
            if picked < wanted:
                warnings.warn(f"paraphrase: only {picked} {kind} triples have a carrier sentence in the corpus (asked for {wanted})", stacklevel=2)
        if not rows:
            raise SourceError(f"paraphrase: no triple has a carrier sentence in the corpus {config.corpus} that the review ({config.review}) "
                              "leaves: give a larger corpus, or another review")
        if review.accepted and not any(r["reviewed"] for r in rows):
            warnings.warn(f"paraphrase: the review ({config.review}) accepted none of this build's triples with their carriers (another "
                          "corpus or seed?): every row is unreviewed, its rejections still apply", stacklevel=2)
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        rows = list(data["default"]["test"])
        lines = ["| set | triples | accepted by the review | example |", "|---|---|---|---|"]
        for kind in SETS:
            part = [r for r in rows if r["set"] == kind]
            ex = f"({part[0]['word']}, {part[0]['hypernym']}, {part[0]['sibling']})" if part else "-"
            lines.append(f"| {kind} | {len(part)} | {sum(r.get('reviewed', False) for r in part)} | {ex} |")
        return "\n".join(lines)

    # --- the published format: three lines per triple (s(x), s(x_h), s(x_a)), blank lines between ---
    def export_extra(self, data, folder: Path) -> list[str]:
        names = []
        rows = list(data["default"]["test"])
        for kind in SETS:
            part = [r for r in rows if r["set"] == kind]
            name = f"paraphrase_{kind}.txt"
            (folder / name).write_text("".join(f"{r['sentence']}\n{r['sentence_hypernym']}\n{r['sentence_sibling']}\n\n" for r in part))
            names.append(name)
        return names

    def read_file(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """One published file (the set from its name: rare/common); see ``paraphrase_format``."""
        return self.read_files([path])

    def read_files(self, paths: list[Path]) -> dict[str, datasets.DatasetDict]:
        """The published rare and common files as one dataset (both sets, so the chi-square can run)."""
        rows = [{k: v for k, v in r.items() if k != "line"} | {"carrier_source": "file", "word_rate": 0.0, "hypernym_rate": 0.0,
                                                                "sibling_rate": 0.0, "synsets": [], "reviewed": False} for r in read_sets(list(paths))]
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}

    def read_folder(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """A folder holding the published rare and common files."""
        return self.read_files(files_in(path))


# The benchmark's declaration, collected by wordbench.benchmarks.registry.
CARD = """\
Paraphrase triples from Dudy & Bedrick (2020), section 3: (x, x_h, x_a) where x is a noun with a
single WordNet noun sense (so the carrier cannot use another one), x_h a single-word lemma of a
hypernym of that sense whose own first noun sense is that hypernym ("mistake", never "boner") and x_a
a sibling of x_h (a hyponym of x_h's own hypernym) chosen the same way, e.g. (poodle, dog, cat); x_h
is the word x's definition names as its kind (its genus: "a harp used by ancient Greeks" for lyre), x_a
a seeded draw among the three most used words of a comparable sibling family (same lexicographer file,
a parent that is not a catch-all such as person or act), none of them slang, obscene or loaded.
**Rare** set: x occurs fewer than 50 times per 103,227,021 tokens (the paper's WikiText-103 counts, as
rates per billion) while x_h and x_a occur at least 50 times; **common** set: all three at least 50
(Appendix C's low / mid-high edge). Each triple has a carrier s(x): a whole corpus sentence (8-40 words,
capitalized, ending in . ! or ?, a finite verb, no hole left by removed markup) where every use of x,
or of its plural, is a lower-case noun heading its phrase (not a compound modifier as in "purse
snatcher"), one of them right after the/this/these/those or a possessive, or all plural. The probes s(x_h), s(x_a)
replace x in the same number (inflect plurals, WordNet's irregular ones), capitalization kept, a/an by
inflect. A model passes a triple when the similarity of s(x_h) to s(x) beats its similarity to s(x_a).
Offline default: wordfreq rates and the offline-en corpus (gensim's Wikipedia sample, WordNet's glosses and
examples, gensim's Lee news sample, the Ding dictionary's example sentences).
`paraphrase_rare.txt` / `paraphrase_common.txt` hold the triples in the published layout (three lines
per triple); the authors' own files load with `--data rare.txt,common.txt` or a folder holding both.
"""

BENCHMARK = Benchmark(
    name="paraphrase",
    headline=Headline("rare/hit_rate", "paraphrase rare hit rate", True, "wilson", "rare/total"),
    profiles=(("full", Profile()), ("quick", Profile())),
    paper_url="https://aclanthology.org/2020.eval4nlp-1.13/",
    task_ids=("semantic-similarity-scoring",),
    source_datasets=("original", "extended|wordnet"),
    limitations=(
        "- Who annotated: the `reviewed` column and the triples the review replaced come from automatic readers, large "
        "language models prompted with the paper's three criteria (section 4) with no access to the builder or earlier "
        "verdicts (2026-11-24, builds 2.4.0-2.5.0; builders/paraphrase_review.tsv). No person annotated them. The "
        "rules alone: 63 of 95 triples accepted (66%, builder 2.4.0, read whole); with the review, 75 of 75 of the "
        "default build are triples a reader accepted (perf/results/paraphrase-build.json). "
        "`--set review=FILE` uses your own annotation; the authors' files load unchanged (--data rare.txt,common.txt).\n"
        "- The offline corpus holds too few rare words: 9 of the 25 rare carriers are WordNet's example sentences "
        "(carrier_source wordnet), shorter dictionary sentences, against 2 of the 50 common ones.\n"
        "- Rare vs common follows the build's frequency source, not the paper's WikiText-103 counts unless given."),
    summary="(word, hypernym, sibling) carrier-sentence triples, rare vs common: BERTScore hits and a chi-square test",
    scorer_path="wordbench.scorers.paraphrase:ParaphraseScorer",
    card=CARD,
    citation=DUDY_CITATION,
    paper="dudy2020",
    license="cc-by-sa-3.0",
    task_categories=("sentence-similarity",),
    tags=("wordbench", "wordnet", "rare-words", "paraphrase"),
    title="Paraphrase triples",
    reference="Dudy & Bedrick 2020, *Are Some Words Worth More than Others?*",
    faithful=(
        "nothing: the defaults are the paper's recipe; the authors' own files load with `--data rare.txt,common.txt`"),
    sampling="rare/common",
    figure=Figure("minilm", "hit_rate.png", "triples"),
)
