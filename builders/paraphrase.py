"""Paraphrase triples (Dudy & Bedrick 2020, section 3): (x, x_h, x_a) with carrier sentences.

x is a noun with a single WordNet noun sense (so the carrier cannot use another sense), x_h a
single-word lemma of a hypernym of that sense whose own first noun sense is that hypernym ("mistake",
not "boner"; the most used, by SemCor count), x_a a sibling of x_h (a hyponym of x_h's own hypernym)
meaning its synset the same way (a seeded draw among those SemCor attests), e.g. (poodle, dog, cat).
Rare set: x occurs fewer than 50 times per 103M tokens (the paper's WikiText-103 counts, stored as
rates so other corpora scale), x_h and x_a at least 50 (Appendix C: "mid/high"); common set:
all three at least 50. Each triple gets a carrier: a whole corpus sentence (>= 8 words, capitalized,
ending in . ! or ?) where x, or its plural, is the head noun right after a definite, demonstrative or
possessive determiner (not a compound modifier). The probes replace x by x_h and x_a in the same
number (inflect plurals), keeping capitalization; a/an before a replacement follows inflect.

Since 2.1.0 (issue 26) three rules keep a triple a paraphrase test a linguist accepts:
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
"""

from __future__ import annotations

import re
import warnings
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import datasets

from wordbench.errors import ConfigError
from wordbench.progress import bar, stage
from wordbench.spec import Spec, faithful_opt, opt, seed_opt

from .base import Builder
from .paraphrase_format import SETS, files_in, read_sets
from .sources.base import SourceInfo, seeded_key
from .sources.corpora import GENSIM_WIKI, corpus_info, iter_corpus_lines
from .sources.frequencies import PER_BILLION, WIKITEXT103_TRAIN_TOKENS, load_frequencies
from .sources.stopwords import CLOSED_CLASS
from .sources.wordnet import lemma_count, load_wordnet, tagged_counts

NOUN = re.compile(r"[a-z]{3,}")
# A corpus carrier uses x as a common noun right after one of these: they take singular and plural, count
# and mass nouns alike, so the hypernym and the sibling fit after them too ("a progress" cannot arise).
DETERMINERS = frozenset("the this these those its his her their our my your".split())  # not "that": a relative too
# After x, a word of these closed classes (or punctuation) shows that x is the head of its noun phrase.
FUNCTION_WORDS = frozenset("""of in on at to for with by from as and or but nor is was are were be been being has have had
will would can could may might must shall should do does did not that which who whom whose when where while than into onto
over under after before during since about between through across against among within without upon toward towards
also only then there here so because if although though until unless""".split())
SENTENCE_END = (".", "!", "?")
# "from in", "of ,": a value the wiki-markup filter removed left a hole (gensim's sample has many).
HOLE_BEFORE = frozenset("of from to at in by with about approximately around nearly reach reaches reached".split())
HOLE_AFTER = frozenset([",", ".", ")", ";", ":", "in", "to"])
AUXILIARIES = frozenset("is was are were has have had will would can could may might must shall should does did do".split())
CONTENT_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # a lower-cased token or gloss word that can carry a sense
GERUND_SENSES = frozenset(["noun.act", "noun.event", "noun.process"])  # what "the x-ing of ..." can mean

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
    corpus: str = opt(GENSIM_WIKI, "carrier sentences: a file, folder, hf:ID:CONFIG:SPLIT or gensim-wiki", nonempty=True)
    text_column: str = opt("text", "the text column of a jsonl or hf: corpus", nonempty=True)
    min_sentence_words: int = opt(8, "carrier sentences have at least this many words", ge=1)
    max_sentence_words: int = opt(40, "and at most this many", ge=1)
    abstract_span: int = opt(1000, "x_h is never an abstract noun (below abstraction.n.06) whose hyponym tree spans more synsets than this: group, relation, act ... (0: no limit)", ge=0)
    sense_window: int = opt(2, "content words each side of x that must not point to another part of speech's sense (simplified Lesk; 0: no sense check)", ge=0)
    wordnet: str | None = opt(None, "WordNet folder; none: nltk data, Debian wordnet-base, or a download")
    seed: int = seed_opt()
    faithful: bool = faithful_opt()

    def validate(self) -> None:
        if self.min_sentence_words > self.max_sentence_words:
            raise ConfigError(f"min_sentence_words ({self.min_sentence_words}) must not exceed max_sentence_words ({self.max_sentence_words})")


@lru_cache(maxsize=1)
def _inflect():
    import inflect

    engine = inflect.engine()
    engine.classical(ancient=True)  # larva -> larvae, as in the encyclopedic text of the carriers
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
    return _inflect().singular_noun(word) is False


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
            and not any(a.lower() in HOLE_BEFORE and b in HOLE_AFTER for a, b in zip(tokens, tokens[1:])))


def _has_finite_verb(wn, tokens: list[str]) -> bool:
    """An auxiliary or an inflected verb form (not -ing) after the first word: a caption such as
    "A chariot clock depicting the god and his lyre ." has none."""
    for tok in tokens[1:]:
        low = tok.lower()
        if low in AUXILIARIES:
            return True
        lemma = wn.morphy(low, "v") if tok.islower() and not low.endswith("ing") else None
        if lemma is not None and lemma != low:
            return True
    return False


def _heads_phrase(wn, nxt: str, singular: bool = False) -> bool:
    """The token after x shows x heads its phrase: punctuation, a function word, or a WordNet word that is not
    mostly a noun (a noun after x, as in "purse snatcher", makes x a compound modifier); after a ``singular`` x a
    bare verb form cannot agree, so a noun-or-verb there is the noun ("the conjugate base")."""
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
    return verb is not None and not _mostly_noun(wn, verb) and not (singular and verb == low)


def too_general(wn, synset, span: int) -> bool:
    """An abstract top noun: below abstraction.n.06 on every hypernym path, with more than ``span`` synsets below it
    (group, relation, measure, act, attribute, quality, activity: "the halogens" -> "the groups" paraphrases nothing)."""
    if span <= 0:
        return False
    top = wn.synset("abstraction.n.06")
    if not all(top in path for path in synset.hypernym_paths()):
        return False
    below = synset.closure(lambda s: s.hyponyms() + s.instance_hyponyms())  # nltk yields each synset once
    return any(i >= span for i, _ in enumerate(below))


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
    version = "2.1.0"
    Config = Config
    schema = {"default": FEATURES}
    labels = {"set": SETS, "carrier_source": ("corpus", "wordnet", "file")}
    fields = {
        "id": "stable triple id, SET-NNNNN", "set": "rare or common by the word's frequency (see the card)",
        "word": "x, the probed noun", "hypernym": "x_h, a WordNet hypernym of x that can stand in for it",
        "sibling": "x_a, a sibling of x under the same hypernym, which cannot", "sentence": "s(x), the carrier sentence",
        "sentence_hypernym": "s(x_h), the carrier with x replaced by x_h", "sentence_sibling": "s(x_a), the carrier with x replaced by x_a",
        "carrier_source": "where the carrier came from: a corpus, WordNet's example sentences, or a file of the authors' layout",
        "word_rate": "x's occurrences per billion tokens", "hypernym_rate": "x_h's occurrences per billion tokens",
        "sibling_rate": "x_a's occurrences per billion tokens", "synsets": "the WordNet synsets of x, x_h and x_a",
    }

    def _resolve(self, config: Config):
        wn, wn_info = load_wordnet(config.wordnet)
        freq = load_frequencies(config.frequencies)
        return wn, freq, [wn_info, freq.info]

    def sources(self, config: Config) -> list[SourceInfo]:
        return self._resolve(config)[2] + [corpus_info(config.corpus, config.text_column)]

    def candidates(self, config: Config, wn, freq, progress: bool = False) -> dict[str, list[tuple]]:
        """Every qualifying (x, x_h, siblings, x's synset, x_h's synset) per set, in a stable order; one per x. ``siblings``
        holds (x_a, its synset) in the seeded order of the draw: the build takes the first its carrier does not hold."""
        scale = PER_BILLION / config.reference_tokens
        rare_edge, common_edge = config.rare_below * scale, config.common_from * scale
        rate = freq.rate

        named: dict[str, list[tuple[str, int]]] = {}
        general: dict[str, bool] = {}

        def words_for(synset, exclude: set[str]) -> list[tuple[str, int]]:
            """(lemma, SemCor count) of single-word singular lemmas that mean ``synset`` when read alone, frequent
            enough, most used first (SemCor count, then rate)."""
            if synset.name() not in named:
                ok = [(lem.name(), lemma_count(wn, lem)) for lem in synset.lemmas() if NOUN.fullmatch(lem.name()) and rate(lem.name()) >= common_edge
                      and _singular(lem.name()) and _first_sense_is(wn, lem.name(), synset) and _mostly_noun(wn, lem.name())]
                named[synset.name()] = sorted(ok, key=lambda wc: (-wc[1], -rate(wc[0]), wc[0]))
            return [wc for wc in named[synset.name()] if wc[0] not in exclude]

        out: dict[str, list[tuple]] = {s: [] for s in SETS}
        nouns = sorted({n for n in wn.all_lemma_names("n") if NOUN.fullmatch(n)})
        for x in bar(nouns, "paraphrase: (x, x_h, x_a) candidates from WordNet nouns", progress):
            senses = wn.synsets(x, "n")
            if len(senses) != 1 or x not in senses[0].lemma_names() or not _mostly_noun(wn, x) or not _singular(x):
                continue  # several noun senses: the carrier's sense would be a guess
            sense = senses[0]
            x_rate = rate(x)
            kind = "rare" if x_rate < rare_edge else "common" if x_rate >= common_edge else None
            if kind is None:
                continue
            own = set(sense.lemma_names())  # x is one of them (checked above)
            for hyper in sorted(sense.hypernyms(), key=lambda syn: syn.name()):
                heads = words_for(hyper, own)
                if not heads:
                    continue
                if hyper.name() not in general:
                    general[hyper.name()] = too_general(wn, hyper, config.abstract_span)
                if general[hyper.name()]:
                    continue  # group, relation, act ...: x's next hypernym, if it has one
                x_h = heads[0][0]
                siblings: dict[str, tuple] = {}  # word -> (SemCor count, the sibling synset it names)
                for grand in hyper.hypernyms():
                    for sib in grand.hyponyms():
                        if sib in (hyper, sense):
                            continue
                        for w, count in words_for(sib, own | {x_h}):
                            siblings.setdefault(w, (count, sib))
                if siblings:
                    # A seeded draw among sibling words attested in SemCor (count >= 1: no "holy", "sodom"), else among all.
                    pool = [w for w in siblings if siblings[w][0] > 0] or list(siblings)
                    drawn = sorted(pool, key=lambda w: seeded_key(config.seed, f"{x}|{w}"))
                    out[kind].append((x, x_h, tuple((w, siblings[w][1].name()) for w in drawn), sense.name(), hyper.name()))
                    break
        return out

    def _carriers(self, config: Config, words: dict[str, object], wn, progress: bool = False) -> dict[str, list[str]]:
        """Whole corpus sentences (up to 20, in a seeded order) using each word (name -> its synset), or its plural, as
        a head noun after a determiner, in WordNet's sense of it (``other_sense``); a plural that is a noun of its own
        ("species" of specie) is no use of x, and a sentence holding it is none of x's carriers."""
        forms = {f: w for w in sorted(words) for f in (w, plural(w))}
        not_x = {f for f, w in forms.items() if not _reads_as(wn, f, words[w])}
        found: dict[str, list[str]] = defaultdict(list)
        lines = bar(iter_corpus_lines(config.corpus, config.text_column), f"paraphrase: carrier sentences of {len(words):,} words (corpus lines)",
                    progress, unit="line")
        for line in lines:
            tokens = line.split()
            uses = [(i, prev, tok, nxt) for i, (prev, tok, nxt) in enumerate(zip([""] + tokens, tokens, tokens[1:])) if tok.lower() in forms]
            if not uses:  # most lines: the cheap test first, WordNet's morphology only for candidates
                continue
            if not _is_sentence(tokens, config.min_sentence_words, config.max_sentence_words) or not _has_finite_verb(wn, tokens):
                continue
            for word in {forms[tok.lower()] for _, _, tok, _ in uses}:
                mine = [(i, prev, tok, nxt) for i, prev, tok, nxt in uses if forms[tok.lower()] == word]
                # Every use of x in the sentence (all are replaced) is a common noun heading its phrase; one follows a determiner.
                if (len(found[word]) < 20 and not any(tok.lower() in not_x for _, _, tok, _ in mine)
                        and any(prev.lower() in DETERMINERS for _, prev, _, _ in mine)
                        and all((i == 0 or tok.islower()) and _heads_phrase(wn, nxt, tok.lower() == word) for i, _, tok, nxt in mine)
                        and other_sense(wn, tokens, [i for i, _, _, _ in mine], words[word], config.sense_window) is None):
                    found[word].append(" ".join(tokens))
        return {w: sorted(s, key=lambda t: seeded_key(config.seed, t)) for w, s in found.items() if s}

    @staticmethod
    def _fit(wn, x: str, x_h: str, siblings: tuple, sentences: list[str]) -> tuple | None:
        """The first carrier (seeded order) holding no form of x_h, with the first sibling of the seeded draw it holds no
        form of: (carrier, s(x_h), s(x_a), x_a, x_a's synset); None where no carrier fits."""
        for sentence in sentences:
            if mentions(wn, sentence, x_h):
                continue
            x_a, s_a = next(((w, syn) for w, syn in siblings if not mentions(wn, sentence, w)), (None, None))
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
        cands = self.candidates(config, wn, freq, progress)
        use_irregular_plurals(wn, {w for s in SETS for c in cands[s] for w in (c[0], c[1], *(a for a, _ in c[2]))})
        carriers = self._carriers(config, {c[0]: wn.synset(c[3]) for s in SETS for c in cands[s]}, wn, progress)
        rows = []
        for kind, wanted in (("rare", config.n_rare), ("common", config.n_common)):
            picked = 0
            for x, x_h, siblings, s_x, s_h in sorted(cands[kind], key=lambda c: seeded_key(config.seed, c[0])):
                if picked == wanted:
                    break
                fit = self._fit(wn, x, x_h, siblings, carriers.get(x, []))
                if fit is None:
                    continue
                sentence, probe_h, probe_a, x_a, s_a = fit
                picked += 1
                rows.append({
                    "id": f"{kind}-{picked:05d}", "set": kind, "word": x, "hypernym": x_h, "sibling": x_a,
                    "sentence": sentence, "sentence_hypernym": probe_h, "sentence_sibling": probe_a, "carrier_source": "corpus",
                    "word_rate": freq.rate(x), "hypernym_rate": freq.rate(x_h), "sibling_rate": freq.rate(x_a), "synsets": [s_x, s_h, s_a],
                })
            if picked < wanted:
                warnings.warn(f"paraphrase: only {picked} {kind} triples have a carrier sentence in the corpus (asked for {wanted})", stacklevel=2)
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        rows = list(data["default"]["test"])
        lines = ["| set | triples | example |", "|---|---|---|"]
        for kind in SETS:
            part = [r for r in rows if r["set"] == kind]
            ex = f"({part[0]['word']}, {part[0]['hypernym']}, {part[0]['sibling']})" if part else "-"
            lines.append(f"| {kind} | {len(part)} | {ex} |")
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
                                                                "sibling_rate": 0.0, "synsets": []} for r in read_sets(list(paths))]
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}

    def read_folder(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """A folder holding the published rare and common files."""
        return self.read_files(files_in(path))
