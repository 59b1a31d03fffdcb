"""VAST, the valence-assessing semantics test (Wolfe & Caliskan 2022): lexicon words in four kinds of context.

- bleached: ``This is WORD``;
- aligned: ``It is very unpleasant / unpleasant / neither pleasant nor unpleasant / pleasant / very
  pleasant to think about WORD`` by the word's valence on 1..9 (<= 2.5 / <= 4.0 / <= 6.0 / <= 7.5 / above);
- misaligned: the same templates with the classes reversed (neutral keeps its own);
- random: a window of +-10 tokens around a seeded occurrence of the word in a corpus.
The WEAT pleasant/unpleasant polar words get contexts in every setting (aligned by their lexicon valence,
else 8.0 / 2.0 as the authors' code), and the WEAT bias-test words get bleached contexts.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import datasets

from .base import Builder
from .errors import ConfigError
from .sources.base import SourceInfo, seeded_key
from .sources.corpora import GENSIM_WIKI, corpus_info, iter_corpus_lines
from .sources.lexica import Lexicon, load_lexicon
from .vast_words import POLAR, WEAT_TESTS, WORD_SETS

SETTINGS = ("bleached", "aligned", "misaligned", "random")
BLEACHED = "This is WORD"
CLASS_EDGES = (2.5, 4.0, 6.0, 7.5)  # valence classes 0..4 on the 1-9 scale
CLASS_PHRASES = ("very unpleasant", "unpleasant", "neither pleasant nor unpleasant", "pleasant", "very pleasant")
POLAR_DEFAULT_VALENCE = {"pleasant": 8.0, "unpleasant": 2.0}  # polar words missing from the lexicon
FEATURES = datasets.Features({
    "id": datasets.Value("string"),
    "word": datasets.Value("string"),
    "group": datasets.Value("string"),  # lexicon | pleasant | unpleasant | weat:<word set>
    "setting": datasets.Value("string"),
    "valence": datasets.Value("float64"),  # on the lexicon's scale (NaN when the word is not in it)
    "valence9": datasets.Value("float64"),  # on 1..9, used by the aligned templates
    "context": datasets.Value("string"),
    "start": datasets.Value("int64"),  # character span of the word in the context
    "end": datasets.Value("int64"),
})


@dataclass
class Config:
    lexicon: str = "vader"  # vader | warriner:PATH | anew:PATH | bellezza:PATH | a CSV/TSV/hf: spec with the columns below
    word_column: str | None = None
    valence_column: str | None = None
    scale_low: float | None = None
    scale_high: float | None = None
    settings: str = ",".join(SETTINGS)
    phrase: str = "think about"  # the authors' code; the paper's text says "think of"
    corpus: str = GENSIM_WIKI  # random contexts: file, folder, hf:ID:CONFIG:SPLIT or gensim-wiki
    text_column: str = "text"
    window: int = 10  # tokens on each side of the word in random contexts
    max_words: int | None = None  # a seeded sample of this many lexicon words
    seed: int = 0
    faithful: bool = False  # every behaviour of the paper / the authors' code (--faithful)

    def validate(self) -> None:
        if self.scale_low is not None and self.scale_high is not None and not self.scale_low < self.scale_high:
            raise ConfigError(f"scale_low ({self.scale_low}) must be below scale_high ({self.scale_high})")


def valence_class(valence9: float) -> int:
    return next((c for c, edge in enumerate(CLASS_EDGES) if valence9 <= edge), len(CLASS_EDGES))


def template_context(word: str, setting: str, valence9: float, phrase: str) -> str:
    if setting == "bleached":
        return BLEACHED.replace("WORD", word)
    c = valence_class(valence9)
    if setting == "misaligned":
        c = len(CLASS_PHRASES) - 1 - c
    return f"It is {CLASS_PHRASES[c]} to {phrase} {word}"


def _ending_in(context: str, word: str) -> tuple[str, int, int]:
    """A template context and the span of its last word (every template ends with the word)."""
    return context, len(context) - len(word), len(context)


class RandomContexts:
    """Windows of +-``window`` whitespace tokens around a seeded occurrence of a word (case-insensitive) in a corpus."""

    def __init__(self, lines: list[str], window: int, seed: int):
        self.lines = [line.split() for line in lines]
        self.window, self.seed = window, seed
        self.where: dict[str, list[tuple[int, int]]] = {}
        for s, tokens in enumerate(self.lines):
            for t, tok in enumerate(tokens):
                self.where.setdefault(tok.lower(), []).append((s, t))

    def __call__(self, word: str) -> tuple[str, int, int] | None:
        spots = self.where.get(word.lower())
        if not spots:
            return None
        s, t = min(spots, key=lambda st: seeded_key(self.seed, f"{word}:{st[0]}:{st[1]}"))
        tokens = self.lines[s]
        left, right = tokens[max(0, t - self.window) : t], tokens[t + 1 : t + 1 + self.window]
        start = len(" ".join(left)) + (1 if left else 0)
        return " ".join(left + [tokens[t]] + right), start, start + len(tokens[t])


class VASTBuilder(Builder):
    name = "vast"
    version = "1.0.0"
    Config = Config

    def _lexicon(self, config: Config) -> Lexicon:
        scale = None if config.scale_low is None or config.scale_high is None else (config.scale_low, config.scale_high)
        return load_lexicon(config.lexicon, config.word_column, config.valence_column, scale)

    def _settings(self, config: Config) -> list[str]:
        settings = [s.strip() for s in config.settings.split(",") if s.strip()]
        bad = [s for s in settings if s not in SETTINGS]
        if bad or not settings:
            raise ConfigError(f"settings must be a comma-separated subset of {', '.join(SETTINGS)}")
        return settings

    def sources(self, config: Config) -> list[SourceInfo]:
        out = [self._lexicon(config).info]
        if "random" in self._settings(config):
            out.append(corpus_info(config.corpus, config.text_column, "random contexts"))
        return out

    def build(self, config: Config, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        settings = self._settings(config)
        lexicon = self._lexicon(config)
        if lexicon.duplicates:
            warnings.warn(f"lexicon {lexicon.name}: {len(lexicon.duplicates)} duplicate word(s), first rating kept: "
                          + ", ".join(lexicon.duplicates[:10]), stacklevel=2)
        words = list(lexicon.valence)
        if config.max_words is not None and config.max_words < len(words):
            keep = set(sorted(words, key=lambda w: seeded_key(config.seed, w))[: config.max_words])
            words = [w for w in words if w in keep]
        entries = [(w, "lexicon", lexicon.valence[w], round(lexicon.nine_point(w), 6)) for w in words]
        for pole in POLAR:
            for w in WORD_SETS[pole]:
                known = w in lexicon.valence
                entries.append((w, pole, lexicon.valence[w] if known else float("nan"),
                                round(lexicon.nine_point(w), 6) if known else POLAR_DEFAULT_VALENCE[pole]))
        random = RandomContexts(list(iter_corpus_lines(config.corpus, config.text_column)), config.window, config.seed) \
            if "random" in settings else None

        rows = []
        for setting in settings:
            for word, group, valence, valence9 in entries:
                if setting == "random":
                    found = random(word)
                    if found is None:
                        continue
                    context, start, end = found
                else:
                    context, start, end = _ending_in(template_context(word, setting, valence9, config.phrase), word)
                rows.append({"id": f"{setting}-{group}-{word}", "word": word, "group": group, "setting": setting, "valence": valence,
                             "valence9": valence9, "context": context, "start": start, "end": end})
        used = {name for test in WEAT_TESTS.values() for name in test}
        for name in sorted(used):
            for word in WORD_SETS[name]:
                context, start, end = _ending_in(template_context(word, "bleached", float("nan"), config.phrase), word)
                rows.append({"id": f"weat-{name}-{word}", "word": word, "group": f"weat:{name}", "setting": "bleached",
                             "valence": float("nan"), "valence9": float("nan"), "context": context, "start": start, "end": end})
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        ds = data["default"]["test"]
        counts: dict[tuple[str, str], int] = {}
        for setting, group in zip(ds["setting"], ds["group"]):
            key = (setting, "weat" if group.startswith("weat:") else group)
            counts[key] = counts.get(key, 0) + 1
        settings = list(dict.fromkeys(ds["setting"]))
        lines = ["| setting | lexicon words | pleasant | unpleasant | WEAT words |", "|---|---|---|---|---|"]
        for s in settings:
            lines.append(f"| {s} | {counts.get((s, 'lexicon'), 0)} | {counts.get((s, 'pleasant'), 0)} | {counts.get((s, 'unpleasant'), 0)} | "
                         f"{counts.get((s, 'weat'), 0)} |")
        if "random" in settings:
            lexicon = {w for w, g in zip(ds["word"], ds["group"]) if g == "lexicon"}
            found = {w for w, g, s in zip(ds["word"], ds["group"], ds["setting"]) if g == "lexicon" and s == "random"}
            missing = sorted(lexicon - found)
            if missing:
                lines += ["", f"{len(missing)} lexicon words have no occurrence in the corpus (no random context): "
                          + ", ".join(missing[:30]) + (" ..." if len(missing) > 30 else "")]
        return "\n".join(lines)
