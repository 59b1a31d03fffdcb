"""WNLaMPro (Schick & Schütze 2020, section 5): WordNet probing of rare, medium and frequent words.

Entries are (keyword, relation, targets) for four relations; keywords are binned by frequency
(RARE < 10, MEDIUM 10-99, FREQUENT >= 100 occurrences per billion tokens, the paper's counts in a
~1B-word Wikipedia corpus) and targets are restricted to single tokens of a reference tokenizer.
Keywords and targets are attested content words: no closed-class word, and a noun (hypernym, cohyponym)
or an adjective (antonym) in its dominant use by WordNet's sense-tagged counts (``--faithful``: the part
of speech of nltk's first synset, as the authors' data suggests).
"""

from __future__ import annotations

import math
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Literal

import datasets

from wordbench.declaration import Benchmark, Figure, Headline, Profile
from wordbench.errors import ConfigError, DataFormatError
from wordbench.progress import bar, stage
from wordbench.spec import Spec, faithful_opt, opt, seed_opt

from .base import Builder
from .sources.base import SourceInfo, read_utf8
from .sources.readers import split_fields
from .sources.dictionary import load_dictionary
from .sources.frequencies import Frequencies, bin_of, load_frequencies, zipf
from .sources.stopwords import CLOSED_CLASS
from .sources.vocab import load_reference_tokenizer, single_token_words
from .sources.wordnet import (dominant_use, first_sense_pos, gloss_words, load_wordnet, own_lemmas, singular_endings,
                              tagged_counts)

RELATIONS = ("antonym", "hypernym", "cohyponym", "corruption")
BINS = ("rare", "medium", "frequent")
WORD = re.compile(r"[a-z.-]*[a-z][a-z.-]*")  # single lower-case words of V
LETTERS = "abcdefghijklmnopqrstuvwxyz"
PAPER_TABLE4 = {  # entries per bin in the paper's Table 4
    "antonym": (41, 59, 266),
    "hypernym": (1191, 1785, 4750),
    "cohyponym": (1960, 2740, 6126),
    "corruption": (2880, 0, 0),
}

# What --faithful sets (and keeps inflected targets, word-like corruptions): the paper's A ∩ T, H ∩ T and C' ∩ T
# take WordNet's relation words as they are, with no part-of-speech test on targets: "new -> old", the release's
# first line and Table 2's first example, needs it, since old's first sense is a noun.
FAITHFUL = {"pos_rule": "first-sense", "antonym_scope": "sense", "clean_targets": False, "cohyponym_sense_rank": 0}

_List = getattr(datasets, "List", datasets.Sequence)
FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "key": datasets.Value("string"),
        "relation": datasets.Value("string"),
        "pos": datasets.Value("string"),
        "keyword_count": datasets.Value("float64"),  # occurrences per billion tokens
        "keyword_corpus_count": datasets.Value("int64"),  # raw corpus count; None with a blended list (wordfreq)
        "keyword_zipf": datasets.Value("float64"),
        "keyword_bin": datasets.Value("string"),
        "targets": _List(datasets.Value("string")),
        "target_counts": _List(datasets.Value("float64")),
        "target_corpus_counts": _List(datasets.Value("int64")),
    }
)


@dataclass(frozen=True)
class Config(Spec):
    """The build recipe: the paper's numbers and rules; where the paper is silent, the card names our choice."""

    wordnet: str | None = opt(None, "WordNet folder; none: nltk data, Debian wordnet-base, or a download")
    frequencies: str = opt("wordfreq", "word frequencies: wordfreq, a corpus file/folder, or hf:ID[:CONFIG[:SPLIT]]", nonempty=True)
    tokenizer: str = opt("bert-base-uncased", "reference tokenizer: targets are its single tokens", nonempty=True)
    rare_below: float = opt(10.0, "a keyword below this many occurrences per billion tokens is rare", gt=0)
    frequent_from: float = opt(100.0, "a keyword with at least this many occurrences per billion is frequent", gt=0)
    senses: int = opt(2, "hypernyms of the keyword's this many most frequent senses", ge=1)
    hypernym_max_distance: int = opt(3, "hypernym targets at most this many steps above the keyword", ge=1)
    hypernym_min_depth: int = opt(6, "hypernym targets at least this deep in WordNet (no abstract tops)", ge=0)
    hypernym_min_targets: int = opt(3, "an entry needs at least this many hypernym targets", ge=1)
    hypernym_max_targets: int = opt(20, "the most frequent this many hypernym targets are kept", ge=1)
    cohyponym_hypernym_distance: int = opt(2, "cohyponyms hang below hypernyms at most this far above the keyword", ge=1)
    cohyponym_min_depth: int = opt(6, "those hypernyms are at least this deep (the paper: 'hypernyms as above')", ge=0)
    cohyponym_hyponym_distance: int = opt(4, "the paper's maximum path distance of cohyponyms (see cohyponym_path)", ge=1)
    cohyponym_path: Literal["keyword", "hypernym"] = opt(
        "keyword", "what the distance bounds: the path keyword -> hypernym -> cohyponym, or steps below each hypernym (1.1.0)")
    cohyponym_words: Literal["head", "all"] = opt(
        "head", "the words a cohyponym synset gives: its head word, its first lemma (1.5.0; the authors' list and Table 4 "
        "follow it), or every lemma (1.4.0)")
    cohyponym_sense_rank: int = opt(
        4, "a cohyponym target's synset is among its word's this many most frequent noun senses (no obscure sense: "
        "'confession' as a doctrine, its 5th; 1.6.0); 0: any sense", ge=0)
    cohyponym_min_targets: int = opt(10, "an entry needs at least this many cohyponym targets", ge=1)
    cohyponym_max_targets: int = opt(50, "the most frequent this many cohyponym targets are kept", ge=1)
    corruption_max_key_count: float = opt(10.0, "drop a corrupted key that is a word this frequent (per billion)", ge=0)
    rare_words: Literal["wordnet", "dictionary", "glosses", "none"] = opt(
        "wordnet", "with wordfreq, how an unlisted word enters V as rare: wordnet (every WordNet lemma and irregular noun "
        "form, as a 1-billion-word Wikipedia holds nearly all; 1.0.0 and 1.6.0), dictionary (glosses or a word list, "
        "1.2.0-1.5.0), glosses, none")
    dictionary: str | None = opt(None, "word list for rare_words=dictionary; none: SCOWL size 70 (Debian wamerican-huge)")
    keyword_forms: Literal["lemma", "unmarked", "inflected"] = opt(
        "unmarked", "keywords: WordNet lemmas of V; unmarked (1.4.0): also the frequency source's noun forms WordNet's "
        "morphology resolves whose ending marks no plural (amphorae, antennae, atria: singular_endings; not dogs, boxes); "
        "inflected: every such form (algorithms -> algorithm; about doubles the medium and frequent cells)")
    antonym_scope: Literal["lemma", "sense"] = opt(
        "lemma", "antonyms of the keyword's own pointers (lemma), or of every lemma of its sense (the authors'; --faithful)")
    keep_closed_class: bool = opt(False, "keep closed-class keywords (NLTK English stopwords, single letters)")
    pos_rule: Literal["dominant", "first-sense", "any"] = opt(
        "dominant", "part of speech of keys and targets: dominant use, nltk's first sense (the authors'; --faithful), or any")
    capitalized: bool = opt(
        True, "a lemma WordNet has only capitalized (Tuesday, Dane) is a keyword in lower case, as the authors' case-blind "
        "lookup, by its class senses: no named entity (instance: Aachen, Paris) (1.4.0; false: a lemma's case must match)")
    clean_targets: bool = opt(True, "targets pass the keyword conditions (not closed-class, the relation's part of speech)")
    corruption_source: Literal["keywords", "vocabulary"] = opt(
        "keywords", "corrupted words: frequent keywords of the other relations, or every frequent noun/adjective of V")
    dev_fraction: float = opt(0.1, "seeded share of each relation in the dev split", ge=0, lt=1)
    seed: int = seed_opt()
    faithful: bool = faithful_opt()

    def validate(self) -> None:
        if not self.rare_below < self.frequent_from:
            raise ConfigError(f"rare_below ({self.rare_below:g}) must be below frequent_from ({self.frequent_from:g}): "
                              "otherwise the medium bin is empty or the bins overlap")
        for low, high in (("hypernym_min_targets", "hypernym_max_targets"), ("cohyponym_min_targets", "cohyponym_max_targets")):
            if getattr(self, low) > getattr(self, high):
                raise ConfigError(f"{low} ({getattr(self, low)}) must not exceed {high} ({getattr(self, high)})")


@dataclass
class _Context:
    wn: object
    freq: Frequencies
    targets: set[str]  # T
    config: Config
    dictionary: frozenset[str] = frozenset()  # rare_words=dictionary
    _target_cache: dict = field(default_factory=dict)
    _hyponym_cache: dict = field(default_factory=dict)
    _noun_senses: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.config.faithful:  # the authors' rules, read from Config like any other choice
            self.config = replace(self.config, **FAITHFUL)

    def has_pos(self, word: str, pos: str) -> bool:
        """``word`` is a ``pos`` word by ``Config.pos_rule``."""
        rule = self.config.pos_rule
        if rule == "any":
            return True
        if rule == "first-sense":
            return first_sense_pos(self.wn, word) == pos
        c = self.config
        return dominant_use(self.wn, word, pos, base_forms=c.keyword_forms != "lemma", capitalized=c.capitalized)

    def content_word(self, word: str, pos: str) -> bool:
        """Not closed-class (unless ``keep_closed_class``) and a ``pos`` word by ``Config.pos_rule``."""
        return (self.config.keep_closed_class or word not in CLOSED_CLASS) and self.has_pos(word, pos)

    def in_vocabulary(self, word: str) -> bool:
        """V: words of the regex attested in the frequency source (see ``Config.rare_words`` for wordfreq)."""
        if not WORD.fullmatch(word):
            return False
        if self.freq.known(word):
            return True
        if self.freq.missing_is_rare and self.config.rare_words == "wordnet":
            return bool(self.wn.synsets(word))  # a lemma, or a form WordNet resolves (its irregular plurals)
        if not self.freq.missing_is_rare or self.config.rare_words == "none" or not word.isalpha():
            return False  # wordfreq splits hyphens and dots: it cannot say such a compound is rare
        if self.config.rare_words == "dictionary" and word in self.dictionary:
            return True
        return word in gloss_words(self.wn) or any(c for c, _ in tagged_counts(self.wn, word).values())

    def keyword(self, word: str, pos: str) -> bool:
        """A keyword of V: attested, not closed-class, a ``pos`` word by ``Config.pos_rule``; by the dominant use,
        no verb form taken for a noun (``verb_form_noun``)."""
        if not (self.in_vocabulary(word) and self.content_word(word, pos)):
            return False
        return not (pos == "n" and self.config.pos_rule == "dominant" and self.verb_form_noun(word))

    def verb_form_noun(self, word: str) -> bool:
        """An inflected verb form whose noun senses WordNet never saw tagged (using, fucking): a gerund, not a
        thing. Nouns with tagged uses (building, meeting, playing) stay; counting their verb's every use would
        drop them (build: 139 tagged verb uses against 52 of the noun building)."""
        return tagged_counts(self.wn, word, base_forms=True)["n"][0] == 0 and bool(set(self.wn._morphy(word, "v")) - {word})

    def target(self, word: str, pos: str) -> bool:
        """A target word: in T and, with ``clean_targets``, a ``pos`` word by the keyword conditions."""
        if word not in self.targets:
            return False
        if not self.config.clean_targets:
            return True
        if (word, pos) not in self._target_cache:
            gerund = pos == "n" and self.verb_form_noun(word)
            self._target_cache[word, pos] = not gerund and self.content_word(word, pos)
        return self._target_cache[word, pos]

    def hyponym_words(self, synset, depth: int) -> set[str]:
        """Noun targets among ``synset`` and its hyponyms within ``depth`` steps (cached: hypernyms are shared): each
        synset's head word (its first lemma), or with ``cohyponym_words=all`` every lemma."""
        if (synset, depth) not in self._hyponym_cache:
            below = _closure(synset, _down, depth)
            head = self.config.cohyponym_words == "head"
            self._hyponym_cache[synset, depth] = {w for s in below for w in _lemma_words(s, head)
                                                  if self.target(w, "n") and self.common_sense(w, s)}
        return self._hyponym_cache[synset, depth]

    def common_sense(self, word: str, synset) -> bool:
        """``synset`` is among ``word``'s ``cohyponym_sense_rank`` most frequent noun senses (WordNet's order)."""
        rank = self.config.cohyponym_sense_rank
        if not rank:
            return True
        if word not in self._noun_senses:  # a target word recurs under many hypernyms
            self._noun_senses[word] = self.wn.synsets(word, "n")[:rank]
        return synset in self._noun_senses[word]

    def is_word(self, word: str) -> bool:
        """A word of English by WordNet (its base forms included), its text or the dictionary."""
        return bool(self.wn.synsets(word)) or word in self.dictionary or word in gloss_words(self.wn)

    def other_words(self, word: str, candidates: Iterable[str]) -> set[str]:
        """``candidates`` without ``word`` and its forms (cows for cow); ``--faithful`` keeps them, as the authors'
        data does (the cohyponym step removes the keyword itself in both modes, as the paper says)."""
        if self.config.faithful:
            return set(candidates)
        own = {word, *self.wn._morphy(word, "n")}
        return {t for t in candidates if not own & {t, *self.wn._morphy(t, "n")}}

    def senses(self, word: str, pos: str) -> list:
        """The synsets of ``word``, most frequent first: its own, or its base forms' for an inflected form."""
        c = self.config
        return [lemma.synset() for lemma in own_lemmas(self.wn, word, pos, c.keyword_forms != "lemma", c.capitalized)]

    def unmarked(self, word: str) -> bool:
        """An inflected form kept by keyword_forms=unmarked: its last two letters mark no plural (``singular_endings``)."""
        return word[-2:] in singular_endings(self.wn)

    def bin(self, word: str) -> str:
        c = self.config
        return bin_of(self.freq.rate(word), (0.0, c.rare_below, c.frequent_from), BINS)

    def most_frequent(self, words: Iterable[str], k: int) -> list[str]:
        return sorted(words, key=lambda w: (-self.freq.rate(w), w))[:k]


def _closure(synset, step: Callable, max_distance: int) -> dict:
    """Synsets reachable from ``synset`` in 1..max_distance steps, with their shortest distance."""
    seen: dict = {}
    frontier = [synset]
    for distance in range(1, max_distance + 1):
        nxt = []
        for s in frontier:
            for t in step(s):
                if t not in seen and t != synset:
                    seen[t] = distance
                    nxt.append(t)
        frontier = nxt
    return seen


def _up(s):
    return s.hypernyms() + s.instance_hypernyms()


def _down(s):
    return s.hyponyms() + s.instance_hyponyms()


def _lemma_words(synset, head: bool = False) -> list[str]:
    """The synset's lemmas that fit the paper's pattern; ``head``: its first lemma only (a capitalized or multi-word
    head gives none)."""
    names = synset.lemma_names()
    return [name for name in (names[:1] if head else names) if WORD.fullmatch(name)]


def _hypernyms(ctx: _Context, word: str, max_distance: int, min_depth: int) -> dict:
    """Hypernyms of the keyword's most frequent noun senses at least ``min_depth`` deep, with their distance."""
    found: dict = {}
    for sense in ctx.senses(word, "n")[: ctx.config.senses]:
        for h, distance in _closure(sense, _up, max_distance).items():
            if h.min_depth() >= min_depth:
                found[h] = min(distance, found.get(h, distance))
    return found


def antonym_targets(ctx: _Context, word: str) -> list[str]:
    """Antonyms of the adjective's most frequent sense that are in T (``Config.antonym_scope``)."""
    senses = ctx.senses(word, "a")
    if not senses:
        return []
    forms = {word, *ctx.wn._morphy(word, "a")}
    own = [lemma for lemma in senses[0].lemmas() if lemma.name() in forms] or senses[0].lemmas()[:1]
    sources = senses[0].lemmas() if ctx.config.antonym_scope == "sense" else own[:1]
    antonyms = {a.name() for lemma in sources for a in lemma.antonyms()}
    return ctx.most_frequent((a for a in antonyms if a != word and ctx.target(a, "a")), len(antonyms))


def hypernym_targets(ctx: _Context, word: str) -> list[str]:
    c = ctx.config
    hypernyms = _hypernyms(ctx, word, c.hypernym_max_distance, c.hypernym_min_depth)
    valid = ctx.other_words(word, (w for h in hypernyms for w in _lemma_words(h) if ctx.target(w, "n")))
    return ctx.most_frequent(valid, c.hypernym_max_targets) if len(valid) >= c.hypernym_min_targets else []


def cohyponym_targets(ctx: _Context, word: str) -> list[str]:
    """Target words below the keyword's near hypernyms (``Config.cohyponym_path``)."""
    c = ctx.config
    hypernyms = _hypernyms(ctx, word, c.cohyponym_hypernym_distance, c.cohyponym_min_depth)
    budget = c.cohyponym_hyponym_distance
    depth = {h: budget - d if c.cohyponym_path == "keyword" else budget for h, d in hypernyms.items()}
    below = set().union(*(ctx.hyponym_words(h, k) for h, k in depth.items())) if hypernyms else set()
    valid = ctx.other_words(word, below - {word})  # the paper's C' = (C minus {w}) ∩ T, under --faithful too
    return ctx.most_frequent(valid, c.cohyponym_max_targets) if len(valid) >= c.cohyponym_min_targets else []


def corrupt(word: str, rng: random.Random) -> str:
    """One random character insertion, deletion or adjacent swap that changes the word."""
    for _ in range(100):
        op = rng.choice(("insert", "delete", "swap"))
        if op == "insert":
            i = rng.randrange(len(word) + 1)
            out = word[:i] + rng.choice(LETTERS) + word[i:]
        elif op == "delete" and len(word) > 1:
            i = rng.randrange(len(word))
            out = word[:i] + word[i + 1 :]
        elif op == "swap" and len(word) > 1:
            i = rng.randrange(len(word) - 1)
            out = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        else:
            continue
        if out != word:
            return out
    raise ValueError(f"cannot corrupt {word!r}")


class WNLaMProBuilder(Builder):
    name = "wnlampro"
    version = "1.6.0"
    Config = Config
    schema = {"default": FEATURES}
    labels = {"relation": RELATIONS, "keyword_bin": BINS}
    fields = {
        "id": "stable id, RELATION/KEYWORD",
        "key": "the keyword (<W> in the patterns); a misspelling for corruption",
        "relation": "the WordNet relation the targets hold to the keyword",
        "pos": "the keyword's part of speech (n, a)",
        "keyword_count": "keyword occurrences per billion tokens in the frequency source (0: below its list)",
        "keyword_corpus_count": "raw corpus count (empty with a blended list such as wordfreq)",
        "keyword_zipf": "log10 of occurrences per billion tokens (wordfreq's Zipf scale)",
        "keyword_bin": "rare < 10, medium 10-99, frequent >= 100 per billion tokens (see Known limitations)",
        "targets": "the correct fillers of ___: single tokens of the reference tokenizer",
        "target_counts": "each target's occurrences per billion tokens",
        "target_corpus_counts": "each target's raw corpus count (empty with wordfreq)",
    }

    def _resolve(self, config: Config):
        wn, wn_info = load_wordnet(config.wordnet)
        freq = load_frequencies(config.frequencies)
        tok, tok_info = load_reference_tokenizer(config.tokenizer)
        infos = [wn_info, freq.info, tok_info]
        words: frozenset[str] = frozenset()
        if config.rare_words == "dictionary" and freq.missing_is_rare:  # only a cut list (wordfreq) needs it
            words, dict_info = load_dictionary(config.dictionary)
            infos.append(dict_info)
        return wn, freq, tok, words, infos

    def sources(self, config: Config) -> list[SourceInfo]:
        return self._resolve(config)[-1]

    def context(self, config: Config, progress: bool = False) -> tuple[_Context, list[str]]:
        """The build's context (WordNet, frequencies, T, word list) and every WordNet lemma of the pattern."""
        with stage("wnlampro: loading WordNet, frequencies, tokenizer and word list", progress):
            wn, freq, tok, dictionary, _ = self._resolve(config)
            every = sorted({w for pos in "nvar" for w in wn.all_lemma_names(pos) if WORD.fullmatch(w)})
        with stage(f"wnlampro: single-token targets among {len(every):,} WordNet lemmas", progress):
            return _Context(wn, freq, single_token_words(tok, every), config, dictionary), every

    def build(self, config: Config, progress: bool = True) -> dict[str, datasets.DatasetDict]:
        ctx, every = self.context(config, progress)
        wn, freq = ctx.wn, ctx.freq
        if freq.missing_is_rare and config.rare_words in ("dictionary", "glosses"):
            with stage("wnlampro: words of WordNet's glosses and examples (the rare bin's attestation)", progress):
                gloss_words(wn)
        nouns, adjectives = self._candidates(ctx, every, progress)

        rows: list[dict] = []

        def corpus_count(word: str) -> int | None:
            return freq.counts.get(word, 0) if freq.n_tokens else None

        def add(relation: str, key: str, pos: str, targets: list[str]):
            rate = freq.rate(key)
            rows.append(
                {
                    "id": f"{relation}/{key}",
                    "key": key,
                    "relation": relation,
                    "pos": pos,
                    "keyword_count": round(rate, 4),
                    "keyword_corpus_count": corpus_count(key),
                    "keyword_zipf": zipf(rate),
                    "keyword_bin": ctx.bin(key),
                    "targets": targets,
                    "target_counts": [round(freq.rate(t), 4) for t in targets],
                    "target_corpus_counts": [corpus_count(t) for t in targets] if freq.n_tokens else None,
                }
            )

        keywords_a = [w for w in bar(adjectives, "wnlampro adjective keywords (V, part of speech)", progress) if ctx.keyword(w, "a")]
        keywords_n = [w for w in bar(nouns, "wnlampro noun keywords (V, part of speech)", progress) if ctx.keyword(w, "n")]
        for w in bar(keywords_a, "wnlampro antonym", progress):
            if targets := antonym_targets(ctx, w):
                add("antonym", w, "a", targets)
        for w in bar(keywords_n, "wnlampro hypernym/cohyponym", progress):
            if targets := hypernym_targets(ctx, w):
                add("hypernym", w, "n", targets)
            if targets := cohyponym_targets(ctx, w):
                add("cohyponym", w, "n", targets)

        noun_set = set(nouns)
        if config.corruption_source == "keywords":  # the words the other relations probe
            sources = {r["key"] for r in rows}
        else:
            sources = set(keywords_n) | set(keywords_a)
        seen_keys: set[str] = set()
        for w in sorted(sources):
            if w not in ctx.targets or ctx.bin(w) != "frequent":
                continue
            key = corrupt(w, random.Random(f"{config.seed}:corruption:{w}"))
            if freq.rate(key) >= config.corruption_max_key_count or key in seen_keys:
                continue
            if not config.faithful and ctx.is_word(key):  # tubae is a plural of tuba, no misspelling
                continue
            seen_keys.add(key)
            add("corruption", key, "n" if w in noun_set else "a", [w])

        return {"default": self._split(rows, config)}

    @staticmethod
    def _candidates(ctx: _Context, lemmas: list[str], progress: bool) -> tuple[list[str], list[str]]:
        """Noun and adjective keyword candidates: WordNet's lemmas, and with ``keyword_forms`` other than
        ``lemma`` the words of the frequency source that WordNet's morphology resolves to a noun (``unmarked``: those
        whose ending marks no plural; adjectives stay lemmas), as the paper looks up the words of its corpus."""
        wn = ctx.wn
        lemma_lists = tuple(sorted(w for w in wn.all_lemma_names(pos) if WORD.fullmatch(w)) for pos in "na")
        if ctx.config.keyword_forms == "lemma":
            return lemma_lists
        # Inflected forms come from the frequency source, and with rare_words=wordnet from WordNet's own exception list
        # too; never from a word list or WordNet's glosses, which stand in for corpus attestation of lemmas only (a
        # word list spells out every regular plural).
        if ctx.config.keyword_forms == "unmarked":
            every = set(lemmas)
            listed = set(ctx.freq.rates)
            if ctx.freq.missing_is_rare and ctx.config.rare_words == "wordnet":  # WordNet's own irregular forms (acanthi)
                listed |= set(wn._exception_map["n"])
            forms = [w for w in sorted(listed) if WORD.fullmatch(w) and w not in every and ctx.unmarked(w)
                     and wn._morphy(w, "n")]
            return sorted(lemma_lists[0] + forms), lemma_lists[1]
        pool = set(lemmas) | {w for w in ctx.freq.rates if WORD.fullmatch(w)}
        lemma_adjectives = set(wn.all_lemma_names("a"))
        nouns, adjectives = [], []
        for w in bar(sorted(pool), "wnlampro keywords (WordNet lookup of V)", progress):
            if wn._morphy(w, "n"):
                nouns.append(w)
            if w in lemma_adjectives:  # a comparative is no antonym key (bigger -> small)
                adjectives.append(w)
        return nouns, adjectives

    @staticmethod
    def _split(rows: list[dict], config: Config) -> datasets.DatasetDict:
        order = {r: i for i, r in enumerate(RELATIONS)}
        rows.sort(key=lambda r: (order[r["relation"]], r["id"]))
        dev_ids: set[str] = set()
        for relation in RELATIONS:
            ids = [r["id"] for r in rows if r["relation"] == relation]
            random.Random(f"{config.seed}:split:{relation}").shuffle(ids)
            dev_ids.update(ids[: round(len(ids) * config.dev_fraction)])
        return datasets.DatasetDict(
            {
                split: datasets.Dataset.from_list([r for r in rows if (r["id"] in dev_ids) == (split == "dev")], features=FEATURES)
                for split in ("dev", "test")
            }
        )

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        """Table 4 of the paper for this build: entries (mean targets, ratio to the paper) per relation x bin."""
        cells: dict = defaultdict(list)
        for split in data["default"].values():
            for rel, b, targets in zip(split["relation"], split["keyword_bin"], split["targets"]):
                cells[rel, b].append(len(targets))
        lines = ["| relation | " + " | ".join(BINS) + " | paper (rare/medium/frequent) |", "|---|---|---|---|---|"]
        for rel in RELATIONS:
            row = []
            for b, paper in zip(BINS, PAPER_TABLE4[rel]):
                n = len(cells[rel, b])
                ratio = f", {n / paper:.2f}x" if paper else ""
                row.append(f"{n} ({sum(cells[rel, b]) / n:.1f}{ratio})" if n else f"0{' (0.00x)' if paper else ''}")
            lines.append(f"| {rel} | " + " | ".join(row) + " | " + "/".join(map(str, PAPER_TABLE4[rel])) + " |")
        head = "Entries (mean number of targets, ratio to the paper's Table 4) per relation and keyword frequency bin, dev+test:"
        return head + "\n\n" + "\n".join(lines)

    def export_extra(self, data: dict[str, datasets.DatasetDict], folder: Path) -> list[str]:
        write_wnlampro_txt(data["default"], folder / "WNLaMPro.txt")
        return ["WNLaMPro.txt"]

    def read_file(self, path: Path) -> dict[str, datasets.DatasetDict]:
        return {"default": read_wnlampro_txt(path)}


# --- the original file format: ID, dev|test, KEY (pos,zipf,count), RELATION, TARGET (pos,zipf,count)...
# COUNT is an integer, as the authors' loader reads it: the corpus count when the build has corpus counts;
# with a blended list (wordfreq) the rate per billion tokens rounded down (the paper's corpus had ~1e9
# words, and rounding down keeps every word in its bin).
WORDNET_POS = ("n", "a", "s", "r", "v")
_ANNOTATED = re.compile(r"^(?P<word>.+) \((?P<pos>[^,()]*),(?P<zipf>[^,()]*),(?P<count>[^,()]*)\)$")


def _annotate(word: str, pos: str, rate: float, count: int | None) -> str:
    return f"{word} ({pos},{zipf(rate)},{int(rate) if count is None else count})"


def write_wnlampro_txt(data: datasets.DatasetDict, path: Path) -> None:
    """Write the tab-separated ``WNLaMPro.txt`` of the original release."""
    with open(path, "w", encoding="utf-8") as f:
        for split in ("dev", "test"):
            for r in data[split]:
                pos = "n" if r["relation"] in ("hypernym", "cohyponym") else r["pos"]
                counts = r["target_corpus_counts"] or [None] * len(r["targets"])
                targets = [_annotate(t, pos, rate, c) for t, rate, c in zip(r["targets"], r["target_counts"], counts)]
                key = _annotate(r["key"], r["pos"], r["keyword_count"], r["keyword_corpus_count"])
                f.write("\t".join([r["id"], split, key, r["relation"], *targets]) + "\n")


def read_wnlampro_txt(
    path: Path, rare_below: float = 10.0, frequent_from: float = 100.0, keep_frequent_corruptions: bool = False
) -> datasets.DatasetDict:
    """Read ``WNLaMPro.txt`` (ours or the original release); a malformed line is an error naming it.

    As the authors' loader does, CORRUPTION entries whose key has a count >= ``rare_below`` are dropped
    unless ``keep_frequent_corruptions`` (the released file holds them; the paper's Table 4 does not).
    """
    splits: dict[str, list[dict]] = {"dev": [], "test": []}
    text = read_utf8(Path(path), "WNLaMPro")  # a BOM dropped, not kept in the first id; a NUL refused
    first_line: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        cols = split_fields(path, lineno, line, ("ID", "dev|test", "KEY", "RELATION", "TARGET"), more=True)
        try:
            split, row = _parse_line(cols, rare_below, frequent_from)
        except ValueError as exc:
            raise DataFormatError(f"{path}:{lineno}: {exc}") from None
        if row["id"] in first_line:
            raise DataFormatError(f"{path}:{lineno}: the id {row['id']!r} is already on line {first_line[row['id']]}")
        first_line[row["id"]] = lineno
        if row["relation"] == "corruption" and row["keyword_count"] >= rare_below and not keep_frequent_corruptions:
            continue
        splits[split].append(row)
    return datasets.DatasetDict({s: _dataset(rows) for s, rows in splits.items()})


def _dataset(rows: list[dict]) -> datasets.Dataset:
    """Rows as a Dataset of FEATURES (an empty split too, which ``from_list`` cannot type)."""
    return datasets.Dataset.from_list(rows, features=FEATURES) if rows else datasets.Dataset.from_dict({k: [] for k in FEATURES}, features=FEATURES)


def _parse_annotated(text: str) -> tuple[str, str, float]:
    m = _ANNOTATED.match(text.strip())
    if not m:
        raise ValueError(f"'{text}' is not 'word (pos,zipf,count)'")
    try:
        count = float(m["count"])
    except ValueError:
        raise ValueError(f"count in '{text}' is not a number") from None
    if not math.isfinite(count) or count < 0:
        raise ValueError(f"count in '{text}' must be a finite number >= 0")
    try:
        zipf_value = float(m["zipf"])
    except ValueError:
        raise ValueError(f"zipf in '{text}' is not a number") from None
    if not math.isfinite(zipf_value):
        raise ValueError(f"zipf in '{text}' must be a finite number")
    if m["pos"] not in WORDNET_POS:
        raise ValueError(f"part of speech in '{text}' must be one of {', '.join(WORDNET_POS)} (WordNet's), got '{m['pos']}'")
    word = m["word"]
    if not word.strip() or any(ch.isspace() for ch in word):
        raise ValueError(f"'{text}': the word is empty or holds a space (one word per field)")
    if word != word.lower():
        raise ValueError(f"'{text}': the word has capitals; a model's predictions are compared lower-cased, so it could never match")
    return word, m["pos"], count


def _parse_line(cols: list[str], rare_below: float, frequent_from: float) -> tuple[str, dict]:
    ident, split, key, relation, *targets = cols
    if targets and not targets[-1].strip():
        targets = targets[:-1]  # a trailing tab (or CR) ends the line: harmless
    if not ident.strip():
        raise ValueError("the id is empty")
    if any(not t.strip() for t in targets) or not targets:
        raise ValueError(f"an empty TARGET field (the {next((i for i, t in enumerate(targets) if not t.strip()), 0) + 1}. target)")
    if split not in ("dev", "test"):
        raise ValueError(f"set type must be dev or test, got '{split}'")
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {', '.join(RELATIONS)}, got '{relation}'")
    word, pos, count = _parse_annotated(key)
    parsed = [_parse_annotated(t) for t in targets]
    if any(t[0] == word for t in parsed):
        raise ValueError(f"the keyword '{word}' is among its own targets: predicting the keyword would count as a hit")
    integral = all(c.is_integer() for c in [count, *(t[2] for t in parsed)])
    return split, {
        "id": ident,
        "key": word,
        "relation": relation,
        "pos": pos,
        "keyword_count": count,  # the original's counts are in a ~1e9-word corpus: read as per billion
        "keyword_corpus_count": int(count) if integral else None,
        "keyword_zipf": zipf(count),
        "keyword_bin": bin_of(count, (0.0, rare_below, frequent_from), BINS),
        "targets": [t[0] for t in parsed],
        "target_counts": [t[2] for t in parsed],
        "target_corpus_counts": [int(t[2]) for t in parsed] if integral else None,
    }


# The benchmark's declaration, collected by wordbench.benchmarks.registry.
CARD = """\
WordNet Language Model Probing (WNLaMPro), rebuilt from WordNet 3.0 following section 5 of
Schick & Schütze (2020). Each entry is a keyword, a relation and the valid target words:

- **antonym**: antonyms of an adjective's most frequent sense: the keyword's own antonym pointers in it
  (WordNet's antonymy relates word forms; `antonym_scope=sense` and `--faithful` take the antonyms of every
  lemma of that sense, as the authors' data does: their query "unaccessible" -> "accessible").
- **hypernym**: hypernyms of a noun's two most frequent senses at path distance <= 3 with minimum depth
  >= 6; at least 3 targets, the 20 most frequent kept.
- **cohyponym** (COHYPONYM+): the hypernyms at distance <= 2 (same depth rule) and their hyponyms, such
  that the path keyword -> hypernym -> cohyponym is at most 4 long. This is our reading of the paper's
  "hyponyms ... with a maximum path distance of 4": it measures hypernym distance from the keyword. Each cohyponym
  synset gives its head word, its first lemma (`cohyponym_words=all`: every lemma, builder 1.4.0), which gives 26
  mean targets per entry as the paper's 26 (28 with every lemma; about 32 for `cohyponym_path=hypernym`, 4 steps
  below each hypernym, wordbench 1.1.0). The keyword and its own forms (cow: cows) removed; at least 10
  targets, the 50 most frequent kept.
- **corruption**: a frequent keyword of the other three relations that is a single token, with one
  random character inserted, deleted or swapped (seeded per word); dropped when the corrupted key is
  itself a word with count >= 10 (the authors' loader drops those too) or, except with `--faithful`, a word
  at all (WordNet, its glosses or the dictionary: `tubae` is a plural of tuba). The paper says "frequent words
  from V and T" without saying how 2,880 were chosen; `corruption_source=vocabulary` takes every
  frequent noun and adjective of V.

**Keyword vocabulary V** (paper: words of the regex `[a-z.-]*` seen at least once in its corpus). Ours:
words of the regex attested in the frequency source, minus closed-class words (NLTK's English stopword
list, written out as a constant, and the 26 single letters), and a part-of-speech condition the paper
leaves implicit (`pos_rule`): an antonym key is an adjective, a hypernym/cohyponym key a noun, **in its
dominant use** (more than half of the word's sense-tagged occurrences in WordNet's `cntlist` are of that
part of speech, a participle's verb counted: `made` is the verb make; a word with no tagged occurrence is
the part of speech with most senses, a tie going to the noun). This drops keys such as `a`, `he`, `like`,
`live`, `side`, `unmade`. **Targets** are single tokens of the reference tokenizer (bert-base-uncased
vocabulary) that pass the same conditions (`clean_targets`: no `can`, `still` or `given` as a cohyponym;
the original file gives every target a part of speech too; an untagged gerund such as `using` is no noun
target); hypernyms include WordNet instance hypernyms. Closed-class words are NLTK's list plus the modals
and prepositions it lacks (`may`, `despite`). Known losses of the dominant-use rule: adjectives used more
often otherwise (`open`, `right`, `male`, `female`, `married`, `closed`) are no antonym keys or targets.
Without a corpus, hyphenated and dotted words are in V only as WordNet lemmas (`rare_words=wordnet`), binned rare:
wordfreq splits them, so it gives them no rate.
A noun key is no inflected verb form whose noun senses WordNet never saw tagged (`using`). Keywords are
WordNet lemmas, looked up case-blind as the authors' nltk lookup: a lemma WordNet spells only capitalized
(`Tuesday`, `Dane`) is a keyword in lower case by its class senses; a named entity (only instance senses:
`Aachen`) is none, since its class is reached by an instance pointer, not a hypernym (`capitalized=false`:
1.3.0). Inflected forms (`keyword_forms=unmarked`, 1.4.0): a noun form of the frequency source that is no
lemma is a keyword, read through its base form, when its last two letters mark no plural, i.e. most of
WordNet's single-word nouns and their plurals (regular, `-men`, and the exception list's) that end in them
are singular (`amphorae`, `antennae`, `atria`; not `dogs`, `boxes`, `men`), as a suffix-based tagger would read
it; the authors' keyword list holds such forms and few marked plurals. `keyword_forms=lemma` (1.3.0) takes
none, `keyword_forms=inflected` every listed form (about doubling the medium and frequent cells).
`--faithful` (`pos_rule=first-sense`) takes the part of speech of nltk's first synset for keys, which lists
nouns first: `general`, `good` and `old` are no antonym keys there; targets are the paper's A ∩ T, H ∩ T and
C' ∩ T with no part-of-speech test (`new -> old`, the release's first line, is kept).

**Frequency bins**, as occurrences per billion tokens: rare < 10, medium 10-99, frequent >= 100 (the
paper's counts in a ~1B-word Wikipedia corpus). **With the default wordfreq source**, whose English
list stops near 10 per billion, a word it does not list cannot be told rare from unseen. The paper's V is every word
seen once in a ~1B-word Wikipedia, which holds nearly every WordNet lemma, so by default (`rare_words=wordnet`)
every WordNet lemma of the pattern and every irregular noun form WordNet lists is in V, and one wordfreq does not
list is rare with `keyword_count` 0 (below the list's floor); hyphenated and dotted lemmas, which wordfreq splits
and cannot count, are rare too. `rare_words=dictionary` (builders 1.2.0-1.5.0) admits an unlisted word only where a
WordNet gloss or example sentence (about 1.5M tokens) or a sense-tagged occurrence attests it or SCOWL's size-70
American English word list holds it (Debian `wamerican-huge`; `dictionary=PATH` for another list);
`rare_words=glosses` drops the word list, `rare_words=none` leaves the rare bin empty. A cohyponym target must hold
the cohyponym synset among its word's four most frequent noun senses (`cohyponym_sense_rank`). With corpus counts
(`frequencies=FILE|hf:ID`), V is the words seen in the corpus and `keyword_corpus_count` holds the raw
counts. Split: a seeded 10% of each relation is dev. `WNLaMPro.txt` holds integer counts as the original:
corpus counts, or with wordfreq the rate per billion rounded down.
"""
CITATION = """\
@inproceedings{schick2020rare,
  title={Rare Words: A Major Problem for Contextualized Embeddings and How to Fix it by Attentive Mimicking},
  author={Schick, Timo and Sch{\\"u}tze, Hinrich},
  booktitle={Proceedings of the AAAI Conference on Artificial Intelligence},
  year={2020}
}"""

BENCHMARK = Benchmark(
    kind_name="cloze",  # its scorer extends the kind's (wordbench.scorers.kinds)
    name="wnlampro",
    headline=Headline("all/mrr", "WNLaMPro MRR", True, "all/mrr_ci"),
    profiles=(("full", Profile()), ("quick", Profile(limit=200))),
    paper_url="https://arxiv.org/abs/1904.06707",
    task_ids=("slot-filling",),
    source_datasets=("original", "extended|wordnet"),
    limitations=(
        "- With the default wordfreq frequencies (no corpus offline), the rare bin holds the WordNet words wordfreq does "
        "not list (its floor is near 10 per billion) with count 0, hyphenated ones included, which wordfreq cannot count: "
        "not the paper's \"seen 1-9 times in a ~1B-word Wikipedia\", and the rare cells are 1.4-1.5x the paper's. "
        "Build with `frequencies=` a corpus for the paper's bins.\n"
        "- Targets are single tokens of bert-base-uncased; a causal or seq2seq model ranks its own word-start tokens, "
        "so some targets are out of its reach: the scorer reports the reachable share and the MRR over it per cell.\n"
        "- WordNet 3.0's senses and sense-tagged counts decide parts of speech; the Known losses are listed above."),
    summary="WordNet probing of rare vs frequent words: MRR, P@3, P@10 per relation x frequency bin",
    scorer_path="wordbench.scorers.wnlampro:WNLaMProScorer",
    card=CARD,
    citation=CITATION,
    paper="schick2020",
    license_name="wordnet-3.0",
    license_link="https://wordnet.princeton.edu/license-and-commercial-use",
    tags=("wordbench", "wordnet", "rare-words", "probing"),
    title="WNLaMPro",
    reference="Schick & Schütze 2020, *Rare Words: A Major Problem for Contextualized Embeddings*",
    faithful=(
        "data: part of speech from nltk's first synset (nouns first) for keys and targets, antonyms of the whole "
        "sense; scoring: the authors' code ranks the top 100 *tokens*, duplicates kept, labels with `Ġ`/`▁` stripped "
        "and lower-cased, \".\" appended with no space"),
    sampling="relation x frequency bin",
    figure=Figure("smollm2", "mrr_by_bin.png", "test entries", limit=100),
)
