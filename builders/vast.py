"""VAST, the valence-assessing semantics test (Wolfe & Caliskan 2022): lexicon words in four kinds of context.

- bleached: ``This is WORD`` (other languages: a translation, ``BLEACHED``);
- aligned: ``It is very unpleasant / unpleasant / neither pleasant nor unpleasant / pleasant / very
  pleasant to think of WORD`` by the word's valence on 1..9 in the paper's classes 1.0-2.49 / 2.50-3.99 /
  4.00-5.99 / 6.00-7.49 / 7.50-9.00 (``--faithful``: the authors' code, "think about" and <= 2.5 / <= 4.0 /
  <= 6.0 / <= 7.5 / above, the template valence taken Warriner > ANEW > Bellezza);
- misaligned: the same templates with the classes reversed (neutral keeps its own);
- random: a window of +-10 tokens around a seeded occurrence of the word (or multi-word entry) in a corpus.
The polar words of the language get contexts in every setting (aligned by their lexicon valence, else 8.0 /
2.0 as the authors' code), and the WEAT bias-test words bleached ones. The PCA basis of the isolation step is
the union of every lexicon the run knows and the WEAT terms (the authors' VAST.py): words of ``union_lexica``
and the WEAT / dominance / arousal word sets that are not scored get contexts in every setting (group
``basis``; aligned by their valence, else 8 / 2 / 5 for the pleasant / unpleasant / neutral WEAT sets).
``union_lexica=auto`` (the default) makes that basis as large as the paper's whatever lexicon is scored: in
English every lexicon readable offline (``sources.lexica.offline_lexica``: VADER, and Warriner / ANEW / Bellezza
files in the wordbench cache) joins; those lexica only add words (each aligned by its own lexicon's valence),
so the scored, polar and WEAT rows are the ones a build without them has. Other languages: no other lexicon.
"""

from __future__ import annotations

import unicodedata
import warnings
from dataclasses import dataclass, replace
from typing import Literal

import datasets

from wordbench.declaration import Benchmark, Figure, Headline, Profile
from wordbench.errors import ConfigError
from wordbench.progress import bar, stage
from wordbench.spec import Spec, faithful_opt, opt, seed_opt

from .base import Builder, free_text
from .sources.base import SourceInfo, seeded_key
from .sources.corpora import GENSIM_WIKI, OFFLINE_EN, corpus_info, iter_corpus_lines
from .sources.lexica import Lexicon, lexicon_problem, load_lexicon, offline_lexica
from .sources.similarity import SimilarityTask, load_similarity, similarity_problem
from .vast_words import CLASS_EDGES, LANGUAGES, POLAR, WEAT_TESTS, WORD_SETS, polar_words, valence_class  # noqa: F401 - re-exported

SETTINGS = ("bleached", "aligned", "misaligned", "random")
TEMPLATE_SETTINGS = ("aligned", "misaligned")  # English templates only (the paper publishes no translation)
# "This is WORD" (May et al. 2019); the other languages are wordbench's translations, not the authors'.
BLEACHED = {"en": "This is WORD", "pt": "Isto é WORD", "es": "Esto es WORD", "fr": "C'est WORD", "pl": "To jest WORD",
            "tr": "Bu WORD", "zh": "这是WORD"}
# The template wording: the paper's text, and the authors' code (--faithful); their code also closes the
# classes on the right (<= 2.5, ...) and takes a template valence Warriner > ANEW > Bellezza.
PHRASE = {"paper": "think of", "faithful": "think about"}
AUTHORS_VALENCE_ORDER = ("warriner", "anew", "bellezza")
CLASS_PHRASES = ("very unpleasant", "unpleasant", "neither pleasant nor unpleasant", "pleasant", "very pleasant")
POLAR_DEFAULT_VALENCE = {"pleasant": 8.0, "unpleasant": 2.0}  # polar words missing from the lexicon
# The authors' embedding_collection.py: WEAT terms without a lexicon valence get 8 / 2 / 5 for the aligned templates.
WEAT_PLEASANT = ("flower", "instrument", "ea_name", "ea_name_2", "pleasant", "pleasant_2", "young")
WEAT_UNPLEASANT = ("insect", "weapon", "aa_name", "aa_name_2", "unpleasant", "unpleasant_2", "old")
PAIR_FEATURES = datasets.Features({
    "id": datasets.Value("string"),
    "task": datasets.Value("string"),
    "word1": datasets.Value("string"),
    "word2": datasets.Value("string"),
    "score": datasets.Value("float64"),
})
FEATURES = datasets.Features({
    "id": datasets.Value("string"),
    "word": datasets.Value("string"),
    "group": datasets.Value("string"),  # lexicon | pleasant | unpleasant | basis | weat:<word set>
    "setting": datasets.Value("string"),
    "valence": datasets.Value("float64"),  # on the lexicon's scale (NaN when the word is not in it)
    "valence9": datasets.Value("float64"),  # on 1..9, used by the aligned templates
    "context": datasets.Value("string"),
    "start": datasets.Value("int64"),  # character span of the word in the context
    "end": datasets.Value("int64"),
    "lexicon": datasets.Value("string"),  # the scored lexicon's name (same in every row)
    "language": datasets.Value("string"),
})


Setting = Literal["bleached", "aligned", "misaligned", "random"]


def _union_problem(specs) -> str | None:
    if not isinstance(specs, tuple):  # auto or none
        return None
    if "auto" in specs:
        return "auto stands alone: give auto, or lexicon specs without it"
    return next(filter(None, map(lexicon_problem, specs)), None)


@dataclass
class Config(Spec):
    lexicon: str = opt("vader", "valence lexicon: vader | warriner:PATH | anew:PATH | bellezza:PATH | imbir:/redondo:/cvaw:/fan:/"
                       "pt-anew:/turkish:PATH | a CSV/TSV path or hf:ID with word_column, valence_column and the scale", check=lexicon_problem)
    word_column: str | None = opt(None, "the word column of a CSV/TSV/hf: lexicon")
    valence_column: str | None = opt(None, "the valence column of a CSV/TSV/hf: lexicon")
    scale_low: float | None = opt(None, "the lowest valence of a CSV/TSV/hf: lexicon's scale (mapped to 1)")
    scale_high: float | None = opt(None, "the highest valence of that scale (mapped to 9)")
    language: Literal["en", "pt", "zh", "es", "fr", "pl", "tr"] = opt("en", "polar words (and templates) of this language")
    union_lexica: Literal["auto"] | tuple[str, ...] | None = opt(
        "auto", "lexica whose words join the PCA basis: auto (English: every lexicon readable offline, VADER and any "
        "warriner/anew/bellezza.csv in the wordbench cache's lexica/ folder; other languages: none), lexicon specs (the paper: "
        "warriner:PATH,anew:PATH,bellezza:PATH; they also give the template valence of words the scored lexicon lacks), "
        "or none (the scored lexicon and the WEAT words only)", check=_union_problem)
    settings: Literal["auto"] | tuple[Setting, ...] = opt(
        "auto", "contexts to build: auto (all four in English, bleached otherwise) or a list of bleached, aligned, misaligned, random",
        nonempty=True)
    phrase: str | None = opt(None, "the aligned templates' verb phrase; none: 'think of' (the paper), 'think about' under --faithful")
    corpus: str = opt(OFFLINE_EN, "random contexts: a file, folder, hf:ID:CONFIG:SPLIT, offline-en or gensim-wiki", nonempty=True)
    text_column: str = opt("text", "the text column of a jsonl or hf: corpus", nonempty=True)
    window: int = opt(10, "tokens on each side of the word in random contexts", ge=1)
    similarity: tuple[str, ...] = opt((), "word-similarity validation (English): ws353:PATH, simlex:PATH, rw:PATH, men:PATH",
                                      check=lambda specs: next(filter(None, map(similarity_problem, specs)), None))
    max_words: int | None = opt(None, "a seeded sample of this many lexicon words", ge=1)
    seed: int = seed_opt()
    faithful: bool = faithful_opt()

    def validate(self) -> None:
        settings = () if self.settings == "auto" else self.settings
        if self.language != "en" and set(settings) & set(TEMPLATE_SETTINGS):
            raise ConfigError(f"the aligned and misaligned templates exist in English only (the paper publishes no translation): "
                              f"use settings=bleached (or bleached,random with a {LANGUAGES[self.language]} corpus) for language={self.language}")
        if self.language != "en" and "random" in settings and self.corpus in (OFFLINE_EN, GENSIM_WIKI):
            raise ConfigError(f"random contexts for language={self.language} need a {LANGUAGES[self.language]} corpus (corpus=FILE|FOLDER|hf:ID)")
        if self.similarity and self.language != "en":
            raise ConfigError("the word-similarity tasks are English: use them with language=en")
        if (self.scale_low is None) != (self.scale_high is None):
            raise ConfigError("give scale_low and scale_high together (the lexicon's scale)")
        if self.scale_low is not None and self.scale_high is not None and not self.scale_low < self.scale_high:
            raise ConfigError(f"scale_low ({self.scale_low}) must be below scale_high ({self.scale_high})")


def template_context(word: str, setting: str, valence9: float, phrase: str, language: str = "en", right_closed: bool = False) -> str:
    if setting == "bleached":
        return BLEACHED[language].replace("WORD", word)
    c = valence_class(valence9, right_closed)
    if setting == "misaligned":
        c = len(CLASS_PHRASES) - 1 - c
    return f"It is {CLASS_PHRASES[c]} to {phrase} {word}"


def _ending_in(context: str, word: str) -> tuple[str, int, int]:
    """A template context and the span of its last word (every template ends with the word)."""
    return context, len(context) - len(word), len(context)


def weat_valence9(word: str) -> float:
    """The authors' aligned-template valence of a WEAT term with no lexicon valence: 8 / 2 / 5."""
    if any(word in WORD_SETS[s] for s in WEAT_PLEASANT):
        return 8.0
    return 2.0 if any(word in WORD_SETS[s] for s in WEAT_UNPLEASANT) else 5.0


class RandomContexts:
    """Windows of +-``window`` whitespace tokens around a seeded occurrence of a word or multi-word entry
    (case-insensitive token sequence) in a corpus. Only the first tokens of ``words`` are indexed."""

    def __init__(self, lines, window: int, seed: int, words):
        firsts = {w.lower().split()[0] for w in words if w.split()}
        self.lines: list[list[str]] = []
        self.window, self.seed = window, seed
        self.where: dict[str, list[tuple[int, int]]] = {}
        for line in lines:
            tokens = line.split()
            hits = [(t, tok.lower()) for t, tok in enumerate(tokens) if tok.lower() in firsts]
            if hits:
                s = len(self.lines)
                self.lines.append(tokens)
                for t, low in hits:
                    self.where.setdefault(low, []).append((s, t))

    def __call__(self, word: str) -> tuple[str, int, int] | None:
        parts = word.lower().split()
        if not parts:
            return None
        k = len(parts)
        spots = [(s, t) for s, t in self.where.get(parts[0], ())
                 if k == 1 or [x.lower() for x in self.lines[s][t : t + k]] == parts]
        if not spots:
            return None
        s, t = min(spots, key=lambda st: seeded_key(self.seed, f"{word}:{st[0]}:{st[1]}"))
        tokens = self.lines[s]
        left, right = tokens[max(0, t - self.window) : t], tokens[t + k : t + k + self.window]
        start = len(" ".join(left)) + (1 if left else 0)
        found = " ".join(tokens[t : t + k])
        return " ".join(left + [found] + right), start, start + len(found)


def span_problem(word: str | None, context: str | None, start: int | None, end: int | None) -> str | None:
    """What is wrong with a word's span, or None: the model's states are read at ``context[start:end]``, which must be
    the word (case aside), so a span off it would score another piece of text."""
    if None in (word, context, start, end):
        return "no " + " or ".join(c for c, v in zip(("word", "context", "start", "end"), (word, context, start, end)) if v is None)
    if not 0 <= start < end <= len(context) or context[start:end].lower() != word.lower():
        return f"the word {word!r} is not at {start}:{end} of its context {context!r}"
    for inside, outside in ((context[start], context[start - 1] if start else ""), (context[end - 1], context[end:end + 1])):
        if outside and _joined(inside, outside):
            return (f"the span {start}:{end} of {word!r} lies inside a longer word of its context {context!r}: a span starts "
                    "and ends at word boundaries (the model's states of that word would pool other letters)")
    return None


def _joined(a: str, b: str) -> bool:
    """Two neighbouring characters belong to one word: both letters or digits, in a script that separates its words
    with spaces (Chinese, Japanese, Thai and their like do not, so a character boundary is a word boundary there)."""
    return a.isalnum() and b.isalnum() and not (_unspaced(a) or _unspaced(b))


def _unspaced(c: str) -> bool:
    return unicodedata.name(c, "").startswith(("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR", "TIBETAN"))


class VASTBuilder(Builder):
    name = "vast"
    version = "2.2.0"
    Config = Config
    schema = {"default": FEATURES, "similarity": PAIR_FEATURES}
    labels = {"setting": SETTINGS}
    fields = {
        "id": "stable row id", "word": "the embedded word (a lexicon word, polar word, basis or WEAT term)",
        "group": "lexicon | pleasant | unpleasant | basis (PCA basis only) | weat:<word set>",
        "setting": "the context: bleached, aligned, misaligned or random", "valence": "the word's valence on the lexicon's scale (NaN when not in it)",
        "valence9": "the valence on 1..9, which picks the aligned template", "context": free_text("the text the word is embedded in"),
        "start": "character start of the word in the context", "end": "character end of the word in the context",
        "lexicon": "the scored lexicon's name", "language": "the language of the words and contexts",
        "task": "the word-similarity set (similarity config)", "word1": "first word of the pair", "word2": "second word of the pair",
        "score": "the human similarity score",
    }

    @classmethod
    def row_problem(cls, config: str, table) -> str | None:
        """Every row's span holds its word (``span_problem``), checked when data arrives, before a model loads."""
        if config != "default" or table.num_rows == 0:
            return None
        columns = [table.column(c).to_pylist() for c in ("id", "word", "context", "start", "end")]
        for n, (ident, *span) in enumerate(zip(*columns)):
            problem = span_problem(*span)
            if problem:
                return f"row {n + 1} (id {ident}): {problem} (start and end are the word's character span in the context)"
        return None

    def _lexicon(self, config: Config) -> Lexicon:
        scale = None if config.scale_low is None or config.scale_high is None else (config.scale_low, config.scale_high)
        lex = load_lexicon(config.lexicon, config.word_column, config.valence_column, scale)
        self._check_language(config, lex)
        return lex

    @staticmethod
    def _check_language(config: Config, lex: Lexicon) -> None:
        if lex.language is not None and lex.language != config.language:
            raise ConfigError(f"lexicon {lex.name} is {LANGUAGES[lex.language]} but the polar words are {LANGUAGES[config.language]}: "
                              f"set language={lex.language}")

    def _union(self, config: Config) -> list[Lexicon]:
        """The lexica of ``union_lexica``; auto: every lexicon of the language readable offline (none outside English)."""
        specs = offline_lexica(config.language) if config.union_lexica == "auto" else config.union_lexica or ()
        out = []
        for spec in specs:
            lex = load_lexicon(spec)
            self._check_language(config, lex)
            out.append(lex)
        return out

    def _settings(self, config: Config) -> list[str]:
        if config.settings == "auto":
            return list(SETTINGS) if config.language == "en" else ["bleached"]
        settings = list(config.settings)
        return settings

    def _similarity(self, config: Config) -> list[SimilarityTask]:
        return [load_similarity(spec) for spec in config.similarity]

    @staticmethod
    def _basis_info(config: Config, lex: Lexicon) -> SourceInfo:
        """A union lexicon's source record: kind ``basis`` (so card and signature name the lexica of the PCA basis)."""
        role = ("union_lexica=auto: PCA basis" if config.union_lexica == "auto"
                else "union_lexica: PCA basis and the template valence of words the scored lexicon lacks")
        return replace(lex.info, kind="basis", detail=f"{role}, {len(lex):,} words")

    def sources(self, config: Config) -> list[SourceInfo]:
        out = ([self._lexicon(config).info] + [self._basis_info(config, lex) for lex in self._union(config)]
               + [t.info for t in self._similarity(config)])
        if "random" in self._settings(config):
            out.append(corpus_info(config.corpus, config.text_column, "random contexts"))
        return out

    def build(self, config: Config, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        if config.phrase is None:
            config = replace(config, phrase=PHRASE["faithful" if config.faithful else "paper"])
        settings = self._settings(config)
        with stage("vast: reading the lexicon and the PCA basis lexica", progress):
            lexicon, union = self._lexicon(config), self._union(config)
        if lexicon.duplicates:
            warnings.warn(f"lexicon {lexicon.name}: {len(lexicon.duplicates)} duplicate word(s), first rating kept: "
                          + ", ".join(lexicon.duplicates[:10]), stacklevel=2)
        words = list(lexicon.valence)
        if config.max_words is not None and config.max_words < len(words):
            keep = set(sorted(words, key=lambda w: seeded_key(config.seed, w))[: config.max_words])
            words = [w for w in words if w in keep]
        auto = config.union_lexica == "auto"
        named = [] if auto else union  # lexica the user named give words and template valences; auto ones words only
        known = [lexicon, *named]  # a template's valence: the scored lexicon's first
        if config.faithful:
            rank = {name: i for i, name in enumerate(AUTHORS_VALENCE_ORDER)}
            known.sort(key=lambda lex: rank.get(lex.name, len(rank)))

        def valence9(word: str, default: float) -> float:
            return next((round(lex.nine_point(word), 6) for lex in known if word in lex.valence), default)

        entries = [(w, "lexicon", lexicon.valence[w], valence9(w, float("nan"))) for w in words]
        polar = polar_words(config.language)
        for pole in POLAR:
            for w in polar[pole]:
                entries.append((w, pole, lexicon.valence.get(w, float("nan")), valence9(w, POLAR_DEFAULT_VALENCE[pole])))
        taken = {w for w, *_ in entries}
        english = config.language == "en"
        basis = [w for lex in named for w in lex.valence] + ([w for ws in WORD_SETS.values() for w in ws] if english else [])
        for w in dict.fromkeys(basis):
            if w not in taken:
                entries.append((w, "basis", float("nan"), valence9(w, weat_valence9(w))))
        if auto and english and not union:
            warnings.warn("union_lexica=auto: no other English lexicon is readable offline (pip install vaderSentiment, or copy "
                          "warriner.csv / anew.csv / bellezza.csv into the wordbench cache's lexica/ folder): the PCA basis holds "
                          "the scored lexicon and the WEAT words only", stacklevel=2)
        own = len(entries)  # the rows a build without the default basis has
        if auto:  # the default basis: every word of the lexica readable offline, after the rows a build without them has
            taken = {w for w, *_ in entries}
            for lex in union:
                for w in lex.valence:
                    if w not in taken:
                        taken.add(w)
                        entries.append((w, "basis", float("nan"), valence9(w, round(lex.nine_point(w), 6))))
        # Random contexts: the default basis' words are searched apart (a seeded occurrence depends on every word
        # searched with it), so the other rows keep the contexts a build without them has.
        finders: dict[str, RandomContexts] = {}
        if "random" in settings:
            for part in (entries[:own], entries[own:]):
                if part:
                    lines = bar(iter_corpus_lines(config.corpus, config.text_column),
                                f"vast: random contexts of {len(part):,} words (corpus lines)", progress, unit="line")
                    finder = RandomContexts(lines, config.window, config.seed, [w for w, *_ in part])
                    finders.update({w: finder for w, *_ in part})

        base = {"lexicon": lexicon.name, "language": config.language}
        used = {name for test in WEAT_TESTS.values() for name in test} if english else set()
        weat_words = {w for name in used for w in WORD_SETS[name]}
        rows = []
        for setting in settings:
            for word, group, valence, v9 in entries:
                if setting == "bleached" and group == "basis" and word in weat_words:
                    continue  # embedded as a WEAT row in this setting: the union basis takes it from there
                if setting == "random":
                    found = finders[word](word)
                    if found is None:
                        continue
                    context, start, end = found
                else:
                    context, start, end = _ending_in(template_context(word, setting, v9, config.phrase, config.language, config.faithful), word)
                rows.append({"id": f"{setting}-{group}-{word}", "word": word, "group": group, "setting": setting, "valence": valence,
                             "valence9": v9, "context": context, "start": start, "end": end, **base})
        for name in sorted(used):
            for word in WORD_SETS[name]:
                context, start, end = _ending_in(template_context(word, "bleached", float("nan"), config.phrase), word)
                rows.append({"id": f"weat-{name}-{word}", "word": word, "group": f"weat:{name}", "setting": "bleached",
                             "valence": float("nan"), "valence9": float("nan"), "context": context, "start": start, "end": end, **base})
        out = {}
        tasks = self._similarity(config)
        if tasks:  # each task's words in the bleached setting; the pairs in their own config
            pairs = []
            for task in tasks:
                for word in dict.fromkeys(w for a, b, _ in task.pairs for w in (a, b)):
                    context, start, end = _ending_in(template_context(word, "bleached", float("nan"), config.phrase), word)
                    rows.append({"id": f"sim-{task.name}-{word}", "word": word, "group": f"sim:{task.name}", "setting": "bleached",
                                 "valence": float("nan"), "valence9": float("nan"), "context": context, "start": start, "end": end, **base})
                pairs += [{"id": f"{task.name}-{n:05d}", "task": task.name, "word1": a, "word2": b, "score": score}
                          for n, (a, b, score) in enumerate(task.pairs, 1)]
            out["similarity"] = datasets.DatasetDict({"test": datasets.Dataset.from_list(pairs, features=PAIR_FEATURES)})
        # the lexicon, polar, WEAT and similarity-word rows, built once
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)}), **out}

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        ds = data["default"]["test"]
        counts: dict[tuple[str, str], int] = {}
        for setting, group in zip(ds["setting"], ds["group"]):
            key = (setting, group.split(":")[0] if ":" in group else group)
            counts[key] = counts.get(key, 0) + 1
        settings = list(dict.fromkeys(ds["setting"]))
        groups = ("lexicon", "pleasant", "unpleasant", "basis", "weat", "sim")
        lexicon, language = (ds[0]["lexicon"], ds[0]["language"]) if len(ds) else ("", "")
        lines = [f"Lexicon {lexicon}, language {language}.", "",
                 "| setting | lexicon words | pleasant | unpleasant | basis words | WEAT words | similarity words |", "|---|---|---|---|---|---|---|"]
        for s in settings:
            lines.append(f"| {s} | " + " | ".join(str(counts.get((s, g), 0)) for g in groups) + " |")
        lines += ["", "PCA basis of the isolation step (the scorer's default `pca_basis=union`: every word embedded in the setting, "
                  "each once; `basis` rows: the words of the lexica listed under sources as `basis`, and the WEAT / dominance / "
                  "arousal terms):", ""]
        rows = list(zip(ds["word"], ds["group"], ds["setting"]))
        terms = {w for ws in WORD_SETS.values() for w in ws}
        for s in settings:
            groups_of: dict[str, set[str]] = {}
            for w, g, st in rows:
                if st == s and not g.startswith("sim:"):
                    groups_of.setdefault(w, set()).add(g)
            scored = {w for w, gs in groups_of.items() if "lexicon" in gs}
            polar = {w for w, gs in groups_of.items() if gs & set(POLAR)} - scored
            weat = {w for w in groups_of if w in terms} - scored - polar
            lines.append(f"- {s}: {len(groups_of):,} words: {len(scored):,} scored, {len(polar):,} polar, {len(weat):,} WEAT / "
                         f"dominance / arousal terms, {len(groups_of) - len(scored | polar | weat):,} more words of the basis lexica")
        if "random" in settings:
            lines += ["", "Random-context coverage (words with a corpus occurrence):", ""]
            for group in groups[:4]:
                every = {w for w, g, s in zip(ds["word"], ds["group"], ds["setting"]) if g == group and s != "random"}
                found = {w for w, g, s in zip(ds["word"], ds["group"], ds["setting"]) if g == group and s == "random"}
                if every:
                    multi = {w for w in every if " " in w}
                    lines.append(f"- {group}: {len(found)}/{len(every)} ({100 * len(found) / len(every):.1f}%)"
                                 + (f"; multi-word entries {len(found & multi)}/{len(multi)}" if multi else ""))
            lexicon_words = {w for w, g in zip(ds["word"], ds["group"]) if g == "lexicon"}
            found = {w for w, g, s in zip(ds["word"], ds["group"], ds["setting"]) if g == "lexicon" and s == "random"}
            missing = sorted(lexicon_words - found)
            if missing:
                lines += ["", f"{len(missing)} lexicon words have no occurrence in the corpus (no random context): "
                          + ", ".join(missing[:30]) + (" ..." if len(missing) > 30 else "")]
        return "\n".join(lines)


# The benchmark's declaration, collected by wordbench.benchmarks.registry.
CARD = """\
VAST, the valence-assessing semantics test of contextual embeddings (Wolfe & Caliskan 2022). Each row
is a word in a context, with the character span of the word: lexicon words with their human valence in
four settings (**bleached** `This is WORD`; **aligned** `It is <very unpleasant ... very pleasant> to
think of WORD` by the word's valence on 1..9, the paper's classes 1.0-2.49 / 2.50-3.99 / 4.00-5.99 /
6.00-7.49 / 7.50-9.00; **misaligned** the classes reversed; **random** a window of +-10 tokens around a seeded occurrence in
a corpus, multi-word entries searched as token sequences), the polar words of the language in every
setting, PCA-basis words (`group=basis`: by default every other lexicon wordbench reads offline, in English VADER
and any Warriner/ANEW/Bellezza file in the wordbench cache, so the basis is as large as the paper's whatever
lexicon is scored; `union_lexica=SPEC,...` sets it, `none` leaves the scored lexicon alone; and the WEAT and
dominance/arousal terms of the authors' code) in every setting, and the WEAT bias-test words (Caliskan
et al. 2017) in the bleached setting. `--faithful` builds the authors' code: "think about", classes
closed on the right (<= 2.5 / 4.0 / 6.0 / 7.5) and a template valence taken Warriner > ANEW > Bellezza.
Seven languages (`language`): polar words from the authors' published
lists (repeats dropped, first position kept); outside English the bleached setting alone (the
templates are English), with wordbench's own translation of "This is WORD". **Offline default:** the
VADER lexicon shipped in PyPI vaderSentiment (mean of 10 ratings on -4..+4, mapped to 1..9 by v + 5;
alphabetic word entries only; the paper uses Warriner et al. 2013, ANEW and Bellezza, which users supply
as CSV files) and the `offline-en` corpus (gensim's Wikipedia sample, WordNet glosses and examples,
gensim's Lee corpus, Ding example sentences; 2.24M tokens) for random contexts. Words with no corpus
occurrence have no random context; `build` prints the coverage per group.
"""
CITATION = """\
@inproceedings{wolfe2022vast,
  title={VAST: The Valence-Assessing Semantics Test for Contextualizing Language Models},
  author={Wolfe, Robert and Caliskan, Aylin},
  booktitle={Proceedings of the AAAI Conference on Artificial Intelligence},
  year={2022}
}"""

BENCHMARK = Benchmark(
    kind_name="ratings",  # its scorer extends the kind's (wordbench.scorers.kinds)
    name="vast",
    headline=Headline("table1/bleached/top/before", "VAST r (bleached, top layer)", True, "table1/bleached/top/before_ci"),
    profiles=(("full", Profile()), ("quick", Profile((("n_resamples", 99), ("max_pcs", 4), ("probe_words", 200)), limit=300))),
    paper_url="https://arxiv.org/abs/2203.07504",
    task_ids=("sentiment-scoring",),
    source_datasets=("original", "extended|vader"),
    limitations=(
        "- Offline, the English lexica the paper used (Bellezza, ANEW, Warriner) are not shipped; a build uses the "
        "lexicon it names (VADER by default offline), whose scale and words differ.\n"
        "- The PC-nullification result depends on the PCA basis; the card's summary names the words that made it."),
    summary="Valence of contextual embeddings: per-layer SC-WEAT vs human valence, tokenization, PC nullification, WEAT bias",
    scorer_path="wordbench.scorers.vast:VASTScorer",
    card=CARD,
    citation=CITATION,
    paper="wolfe2022",
    license="mit",
    language=("en", "pt", "zh", "es", "fr", "pl", "tr"),
    task_categories=("feature-extraction",),
    tags=("wordbench", "valence", "embeddings", "weat"),
    title="VAST",
    reference="Wolfe & Caliskan 2022, *VAST: The Valence-Assessing Semantics Test for Contextualizing Language Models*",
    faithful=(
        "data: aligned templates \"to think about WORD\" with classes <= 2.5 / 4.0 / 6.0 / 7.5 and template valence "
        "Warriner > ANEW > Bellezza (`embedding_collection.py`); scoring: polar and dominance/arousal words stacked "
        "into the PCA basis twice, as `VAST.py` does (causal models get no BOS, as the authors' GPT-2 runs: the "
        "default too, and under `--faithful` even with `bos=auto`)"),
    sampling="valence class, with the polar and WEAT words always kept",
    figure=Figure("minilm", "layers.png", "words", overrides=("settings=bleached", "union_lexica=none", "max_words=300")),
)
