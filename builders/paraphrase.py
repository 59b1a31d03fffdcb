"""Paraphrase triples (Dudy & Bedrick 2020, section 3): (x, x_h, x_a) with carrier sentences.

x is a noun, x_h a single-word WordNet hypernym of x's first sense, x_a a sibling of x_h (another
single-word hyponym of x_h's own hypernym), e.g. (poodle, dog, cat). Rare set: x occurs fewer than 50
times per 103M tokens (the paper's WikiText-103 counts; stored as rates so other corpora scale) and
x_h, x_a at least 100 times; common set: all three at least 100 times. Each triple gets a carrier
sentence where x occurs naturally (a corpus sentence, else a WordNet usage example); the two probes
replace x by x_h and by x_a, keeping capitalization and fixing a/an.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import datasets

from .base import Builder
from .errors import ConfigError
from .paraphrase_format import files_in, read_sets
from .sources.base import SourceInfo, seeded_key
from .sources.corpora import GENSIM_WIKI, corpus_info, iter_corpus_lines
from .sources.frequencies import PER_BILLION, WIKITEXT103_TRAIN_TOKENS, load_frequencies
from .sources.wordnet import load_wordnet

SETS = ("rare", "common")
NOUN = re.compile(r"[a-z]{3,}")
# A corpus carrier must use x as a common noun: lower-case, right after a determiner.
DETERMINERS = frozenset("the a an this that these those its his her their our my your each every no some any".split())

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
class Config:
    n_rare: int = 50
    n_common: int = 50
    rare_below: int = 50  # count of x per reference_tokens for the rare set
    common_from: int = 100  # count of every word of a common triple, and of x_h, x_a (mid/high)
    reference_tokens: int = WIKITEXT103_TRAIN_TOKENS
    frequencies: str = "wordfreq"  # wordfreq, a corpus spec (counts) or hf:ID:CONFIG:SPLIT
    corpus: str = GENSIM_WIKI  # carrier sentences: file, folder, hf:ID:CONFIG:SPLIT or gensim-wiki
    text_column: str = "text"
    wordnet_examples: bool = True  # fall back to WordNet usage examples when the corpus has no sentence
    min_sentence_words: int = 5
    max_sentence_words: int = 40
    wordnet: str | None = None
    seed: int = 0
    faithful: bool = False  # every behaviour of the paper / the authors' code (--faithful)


def article_for(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def substitute(sentence: str, word: str, replacement: str) -> str | None:
    """Replace every whole-word occurrence of ``word`` (any case) by ``replacement``; None if there is none.

    Capitalization of each occurrence is kept; a preceding a/an is fixed for the new word.
    """
    tokens = sentence.split(" ")
    found = False
    for i, tok in enumerate(tokens):
        if tok.lower() != word:
            continue
        found = True
        tokens[i] = replacement.upper() if tok.isupper() and len(tok) > 1 else replacement.capitalize() if tok[:1].isupper() else replacement
        if i > 0 and tokens[i - 1].lower() in ("a", "an"):
            art = article_for(replacement)
            tokens[i - 1] = art.capitalize() if tokens[i - 1][:1].isupper() else art
    return " ".join(tokens) if found else None


def _mostly_noun(wn, word: str) -> bool:
    """WordNet's tagged sense counts: the word is used as a noun at least as often as otherwise ("find" is not)."""
    noun = other = 0
    for lemma in wn.lemmas(word):
        if lemma.name() == word:
            if lemma.synset().pos() == "n":
                noun += lemma.count()
            else:
                other += lemma.count()
    return noun >= other


class ParaphraseBuilder(Builder):
    name = "paraphrase"
    version = "1.0.0"
    Config = Config

    def _resolve(self, config: Config):
        wn, wn_info = load_wordnet(config.wordnet)
        freq = load_frequencies(config.frequencies)
        return wn, freq, [wn_info, freq.info]

    def sources(self, config: Config) -> list[SourceInfo]:
        return self._resolve(config)[2] + [corpus_info(config.corpus, config.text_column)]

    def candidates(self, config: Config, wn, freq) -> dict[str, list[tuple]]:
        """Every qualifying (x, x_h, x_a) per set, in a stable order; one triple per x."""
        scale = PER_BILLION / config.reference_tokens
        rare_edge, common_edge = config.rare_below * scale, config.common_from * scale

        def rate(w: str) -> float:
            return freq.rate(w)

        def single_words(synset) -> list[str]:
            return [n for n in synset.lemma_names() if NOUN.fullmatch(n)]

        out: dict[str, list[tuple]] = {s: [] for s in SETS}
        for x in sorted({n for n in wn.all_lemma_names("n") if NOUN.fullmatch(n)}):
            senses = [lemma.synset() for lemma in wn.lemmas(x, "n") if lemma.name() == x]
            if not senses:
                continue
            sense = senses[0]
            if not _mostly_noun(wn, x):
                continue
            x_rate = rate(x)
            kind = "rare" if x_rate < rare_edge else "common" if x_rate >= common_edge else None
            if kind is None:
                continue
            own = set(sense.lemma_names())
            for hyper in sorted(sense.hypernyms(), key=lambda s: s.name()):
                heads = sorted((w for w in single_words(hyper) if rate(w) >= common_edge and w not in own), key=lambda w: (-rate(w), w))
                if not heads:
                    continue
                x_h = heads[0]
                siblings: dict[str, object] = {}  # word -> the first sibling synset it came from
                for grand in hyper.hypernyms():
                    for sib in grand.hyponyms():
                        if sib == hyper or sib == sense:
                            continue
                        for w in single_words(sib):
                            if rate(w) >= common_edge and w not in own and w != x_h:
                                siblings.setdefault(w, sib)
                if siblings:
                    x_a = min(siblings, key=lambda w: seeded_key(config.seed, f"{x}|{w}"))
                    out[kind].append((x, x_h, x_a, sense.name(), hyper.name(), siblings[x_a].name()))
                    break
        return out

    def _carriers(self, config: Config, words: set[str]) -> dict[str, str]:
        """A corpus sentence (seeded choice) of acceptable length using each word as a noun after a determiner."""
        found: dict[str, list[str]] = defaultdict(list)
        for line in iter_corpus_lines(config.corpus, config.text_column):
            tokens = line.split()
            if not config.min_sentence_words <= len(tokens) <= config.max_sentence_words:
                continue
            for prev, tok in zip(tokens, tokens[1:]):
                if tok in words and prev.lower() in DETERMINERS and len(found[tok]) < 20:
                    found[tok].append(" ".join(tokens))
        return {w: min(s, key=lambda t: seeded_key(config.seed, t)) for w, s in found.items()}

    @staticmethod
    def _wordnet_example(wn, synset_name: str, word: str) -> str | None:
        for example in wn.synset(synset_name).examples():
            if re.search(rf"\b{re.escape(word)}\b", example, re.IGNORECASE):
                return " ".join(re.sub(rf"\b({re.escape(word)})\b", r" \1 ", example, count=1, flags=re.IGNORECASE).split())
        return None

    def build(self, config: Config, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        if config.n_rare < 0 or config.n_common < 0:
            raise ConfigError("n_rare and n_common must be >= 0")
        wn, freq, _ = self._resolve(config)
        cands = self.candidates(config, wn, freq)
        carriers = self._carriers(config, {c[0] for s in SETS for c in cands[s]})
        rows = []
        for kind, wanted in (("rare", config.n_rare), ("common", config.n_common)):
            picked = 0
            for x, x_h, x_a, s_x, s_h, s_a in sorted(cands[kind], key=lambda c: seeded_key(config.seed, c[0])):
                if picked == wanted:
                    break
                sentence, source = carriers.get(x), "corpus"
                if sentence is None and config.wordnet_examples:
                    sentence, source = self._wordnet_example(wn, s_x, x), "wordnet"
                if sentence is None:
                    continue
                probe_h, probe_a = substitute(sentence, x, x_h), substitute(sentence, x, x_a)
                if probe_h is None or probe_a is None:
                    continue
                picked += 1
                rows.append({
                    "id": f"{kind}-{picked:05d}", "set": kind, "word": x, "hypernym": x_h, "sibling": x_a,
                    "sentence": sentence, "sentence_hypernym": probe_h, "sentence_sibling": probe_a, "carrier_source": source,
                    "word_rate": freq.rate(x), "hypernym_rate": freq.rate(x_h), "sibling_rate": freq.rate(x_a), "synsets": [s_x, s_h, s_a],
                })
            if picked < wanted:
                import warnings

                warnings.warn(f"paraphrase: only {picked} {kind} triples have a carrier sentence (asked for {wanted})", stacklevel=2)
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        rows = list(data["default"]["test"])
        lines = ["| set | triples | carrier from corpus | from WordNet example | example |", "|---|---|---|---|---|"]
        for kind in SETS:
            part = [r for r in rows if r["set"] == kind]
            ex = f"({part[0]['word']}, {part[0]['hypernym']}, {part[0]['sibling']})" if part else "-"
            lines.append(f"| {kind} | {len(part)} | {sum(r['carrier_source'] == 'corpus' for r in part)} | "
                         f"{sum(r['carrier_source'] == 'wordnet' for r in part)} | {ex} |")
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
