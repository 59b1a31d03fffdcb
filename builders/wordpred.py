"""Frequency-binned whole-word prediction (Dudy & Bedrick 2020, "Are Some Words Worth More than Others?").

Each item is one test line; every word after the first is a prediction event whose target carries a
frequency bin from the train corpus: high >= 1000, mid 100-999, low 10-99 occurrences in the paper's
WikiText-103 train split (103,227,021 tokens). Bins are stored as rates per billion tokens, so a
different corpus scales. The ``types`` config lists each target type with its counts, bin and its
100 nearest word2vec neighbours (50-dim, trained on the train corpus) for the soft-match metric.
"""

from __future__ import annotations

import dataclasses
import zlib
from collections import Counter
from dataclasses import dataclass

import datasets
import numpy as np

from wordbench.declaration import Benchmark, Figure, Headline, Profile
from wordbench.progress import bar, stage
from wordbench.spec import Spec, faithful_opt, opt, seed_opt

from .base import Builder, free_text
from wordbench.errors import ConfigError, SourceError
from .sources.base import SourceInfo, seeded_key
from .sources.corpora import GENSIM_WIKI, corpus_info, iter_corpus_documents, iter_corpus_lines, split_documents
from .sources.frequencies import PER_BILLION, WIKITEXT103_TRAIN_TOKENS, Frequencies, bin_of, corpus_frequencies, count_words, load_frequencies

BINS = ("high", "mid", "low")
NEIGHBOURS = 100  # stored per type; soft match reads the first k

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "text": datasets.Value("string"),
        "words": datasets.Sequence(datasets.Value("string")),
        "bins": datasets.Sequence(datasets.Value("string")),  # "" = in no bin
        "rates": datasets.Sequence(datasets.Value("float64")),
    }
)
TYPE_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "word": datasets.Value("string"),
        "bin": datasets.Value("string"),
        "rate": datasets.Value("float64"),
        "train_count": datasets.Value("int64"),
        "events": datasets.Value("int64"),
        "neighbours": datasets.Sequence(datasets.Value("string")),
    }
)


@dataclass
class Config(Spec):
    train: str = opt(GENSIM_WIKI, "corpus for word2vec and train counts: a file, folder, hf:ID:CONFIG:SPLIT or gensim-wiki", nonempty=True)
    test: str = opt(GENSIM_WIKI, "test lines; the same spec as train means a seeded split by document", nonempty=True)
    text_column: str = opt("text", "the text column of a jsonl or hf: corpus", nonempty=True)
    test_fraction: float = opt(0.1, "share of documents held out when train == test", gt=0, lt=1)
    frequencies: str = opt("wordfreq", "bins from: train (counts of the train corpus, the paper), wordfreq, or a corpus spec", nonempty=True)
    reference_tokens: int = opt(WIKITEXT103_TRAIN_TOKENS, "the bin thresholds are counts in a corpus this size", ge=1)
    high: int = opt(1000, "high bin: at least this count", ge=1)
    mid: int = opt(100, "mid bin: at least this count (below high)", ge=1)
    low: int = opt(10, "low bin: at least this count (below mid)", ge=1)
    min_words: int = opt(3, "shorter test lines are skipped", ge=1)
    max_lines: int | None = opt(None, "keep a seeded sample of this many test lines", ge=1)
    w2v_dim: int = opt(50, "word2vec dimensions (soft match)", ge=1)
    w2v_window: int = opt(5, "word2vec window", ge=1)
    w2v_min_count: int = opt(5, "word2vec minimum count", ge=1)
    w2v_epochs: int = opt(5, "word2vec epochs", ge=1)
    seed: int = seed_opt()
    faithful: bool = faithful_opt()

    def validate(self) -> None:
        if not self.high > self.mid > self.low >= 1:
            raise ConfigError(f"bin thresholds must be ordered high > mid > low >= 1, got {self.high}/{self.mid}/{self.low}")


def bin_edges(config: Config) -> tuple[float, float, float]:
    """(low, mid, high) lower edges as rates per billion tokens."""
    scale = PER_BILLION / config.reference_tokens
    return config.low * scale, config.mid * scale, config.high * scale


class WordPredBuilder(Builder):
    name = "wordpred"
    version = "1.1.0"
    Config = Config
    schema = {"default": FEATURES, "types": TYPE_FEATURES}
    configs = ("default", "types")
    fields = {
        "id": "stable line id", "text": free_text("the test line"), "words": "its whitespace tokens (prediction events after the first)",
        "bins": "each word's frequency bin: high, mid, low, or empty (in no bin)", "rates": "each word's occurrences per billion tokens",
        "word": "a target word type", "bin": "its frequency bin (empty: in no bin)", "rate": "occurrences per billion tokens",
        "train_count": "its count in the train corpus", "events": "its prediction events in the test lines",
        "neighbours": "its nearest word2vec neighbours (soft match)",
    }

    def _corpora(self, config: Config) -> tuple[list[str], list[str]]:
        """(train lines, test lines); a document-level seeded split when both specs are equal."""
        if config.train == config.test:
            train_docs, test_docs = split_documents(list(iter_corpus_documents(config.train, config.text_column)), config.test_fraction, config.seed)
            train = [line for doc in train_docs for line in doc]
            test = [line for doc in test_docs for line in doc]
        else:
            train = list(iter_corpus_lines(config.train, config.text_column))
            test = list(iter_corpus_lines(config.test, config.text_column))
        return train, test

    def _frequencies(self, config: Config, train_counts: Counter) -> Frequencies:
        if config.frequencies == "train":
            return corpus_frequencies((), f"train counts of {config.train}", counts=train_counts)
        return load_frequencies(config.frequencies)

    def sources(self, config: Config) -> list[SourceInfo]:
        # The signature names each corpus by its role: train-corpus:... | test-corpus:...
        out = [dataclasses.replace(corpus_info(spec, config.text_column, role), kind=f"{role}-corpus")
               for role, spec in (("train", config.train), ("test", config.test))]
        if config.frequencies != "train":
            out.append(load_frequencies(config.frequencies).info)
        try:
            from importlib.metadata import version

            out.append(SourceInfo("w2v", "gensim word2vec", f"gensim-{version('gensim')}", f"{config.w2v_dim}-dim, trained on the train corpus"))
        except Exception as exc:  # noqa: BLE001
            raise SourceError("soft match needs gensim: pip install gensim") from exc
        return out

    def build(self, config: Config, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        with stage("wordpred: reading the train and test corpora", progress):
            train, test = self._corpora(config)
        with stage(f"wordpred: counting the words of {len(train):,} train lines", progress):
            train_counts = count_words(train, lowercase=False, whitespace=True)  # whitespace tokens, case kept
            freqs = self._frequencies(config, train_counts)
        if not train_counts:
            raise SourceError(f"train corpus {config.train} has no words")
        train_freqs = freqs if config.frequencies == "train" else corpus_frequencies((), f"train counts of {config.train}", counts=train_counts)
        lines = [line.split() for line in test]
        lines = [words for words in lines if len(words) >= config.min_words]
        if not lines:
            raise SourceError(f"test corpus {config.test} has no line of {config.min_words}+ words")
        if config.max_lines is not None and config.max_lines < len(lines):
            keep = sorted(range(len(lines)), key=lambda i: seeded_key(config.seed, f"line{i}"))[: config.max_lines]
            lines = [lines[i] for i in sorted(keep)]

        edges = bin_edges(config)
        cache: dict[str, tuple[float, str]] = {}

        def rate_bin(word: str) -> tuple[float, str]:
            if word not in cache:
                rate = freqs.rate(word) or (0.0 if freqs.counts else freqs.rate(word.lower()))  # wordfreq is case-folded
                if not rate and not any(ch.isalnum() for ch in word):  # punctuation: wordfreq has no rate, the train corpus has
                    rate = train_freqs.rate(word)
                cache[word] = (rate, bin_of(rate, edges, ("low", "mid", "high")) or "")
            return cache[word]

        rows = []
        events: Counter[str] = Counter()
        for n, words in enumerate(bar(lines, "wordpred: binning test words", progress, unit="line")):
            info = [rate_bin(w) for w in words]
            rows.append({"id": f"line-{n:06d}", "text": " ".join(words), "words": words,
                         "bins": [b for _, b in info], "rates": [r for r, _ in info]})
            events.update(words[1:])

        neighbours = self._neighbours(config, train, sorted(events), progress)
        types = [
            {"id": f"type-{i:06d}", "word": w, "bin": rate_bin(w)[1], "rate": rate_bin(w)[0], "train_count": train_counts.get(w, 0),
             "events": events[w], "neighbours": neighbours.get(w, [])}
            for i, w in enumerate(sorted(events))
        ]
        return {
            "default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)}),
            "types": datasets.DatasetDict({"test": datasets.Dataset.from_list(types, features=TYPE_FEATURES)}),
        }

    def _neighbours(self, config: Config, train: list[str], words: list[str], progress: bool) -> dict[str, list[str]]:
        """The 100 nearest word2vec neighbours (cosine) of each test type in the model's vocabulary."""
        try:
            from gensim.models import Word2Vec
        except ImportError as exc:
            raise SourceError("soft match needs gensim: pip install gensim") from exc
        from gensim.models.callbacks import CallbackAny2Vec

        class EpochBar(CallbackAny2Vec):
            def __init__(self):
                self.epochs = iter(bar(range(config.w2v_epochs), "wordpred: word2vec for soft match (epochs)", progress))

            def on_epoch_end(self, model):
                next(self.epochs, None)

        sentences = [line.split() for line in train if line.strip()]
        # One worker and a stable hash make the vectors reproducible (gensim seeds them with hash()).
        w2v = Word2Vec(sentences, vector_size=config.w2v_dim, window=config.w2v_window, min_count=config.w2v_min_count,
                       epochs=config.w2v_epochs, seed=config.seed, workers=1, hashfxn=lambda s: zlib.crc32(s.encode()),
                       callbacks=[epochs := EpochBar()])
        next(epochs.epochs, None)  # closes the bar
        kv = w2v.wv
        vectors = kv.get_normed_vectors()
        known = [w for w in words if w in kv.key_to_index]
        out = {}
        for start in bar(range(0, len(known), 1024), f"wordpred: 100 neighbours of {len(known):,} test types", progress, unit="chunk"):
            chunk = known[start : start + 1024]
            idx = np.array([kv.key_to_index[w] for w in chunk])
            sims = vectors[idx] @ vectors.T
            sims[np.arange(len(chunk)), idx] = -np.inf
            top = np.argpartition(-sims, min(NEIGHBOURS, sims.shape[1] - 1), axis=1)[:, : NEIGHBOURS + 1]
            for row, w in enumerate(chunk):
                cand = top[row][np.argsort(-sims[row, top[row]], kind="stable")]
                out[w] = [kv.index_to_key[j] for j in cand if j != idx[row]][:NEIGHBOURS]
        return out

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        rows = data["default"]["test"]
        types = data["types"]["test"]
        events = Counter(b for bins in rows["bins"] for b in list(bins)[1:])
        type_bins = Counter(types["bin"])
        with_nb = sum(1 for n in types["neighbours"] if len(n))
        total_events = sum(events.values())
        lines = [
            f"{len(rows)} test lines, {total_events} prediction events, {len(types)} target types "
            f"({with_nb} with word2vec neighbours).",
            "",
            "| bin | events | types |",
            "|---|---|---|",
        ]
        for b in (*BINS, ""):
            lines.append(f"| {b or 'none'} | {events.get(b, 0)} | {type_bins.get(b, 0)} |")
        return "\n".join(lines)


# The benchmark's declaration, collected by wordbench.benchmarks.registry.
CARD = """\
Frequency-binned whole-word prediction from Dudy & Bedrick (2020), "Are Some Words Worth More than
Others?". Config `default`: one row per test line (`words` = its whitespace tokens, punctuation kept,
case-sensitive; lines under 3 words skipped); every word after the first is a prediction event from
the words before it on the same line. Each word carries the frequency bin of its rate in the
frequency source: **high** >= 1000, **mid** 100-999, **low** 10-99 occurrences per 103,227,021 tokens
(the paper's WikiText-103 train counts), stored as rates per billion so other corpora scale; words in
no bin (rarer or unseen) stay prediction events but count in no bin; punctuation, which wordfreq has no
rate for, takes its rate from the train corpus counts. The signature names the two corpora
(`train-corpus:...|test-corpus:...`).
Config `types`: every target type with its rate, bin, train count, number of events and its 100
nearest neighbours in a 50-dim word2vec model trained on the train corpus (soft match, section 2.4.2).

**Offline default:** the English Wikipedia sample in gensim's test data (markup removed, sentences split
by pysbd, which does not cut after "Mr." or "U.S.", one Moses-tokenized sentence per line, a seeded 10%
of the articles as test) and wordfreq rates, because
counts from a corpus of under 0.5M tokens cannot fill the low bin once scaled. The paper's recipe:
`train=hf:Salesforce/wikitext:wikitext-103-raw-v1:train test=hf:Salesforce/wikitext:wikitext-103-raw-v1:test frequencies=train`.
"""
CITATION = """\
@inproceedings{dudy2020words,
  title={Are Some Words Worth More than Others?},
  author={Dudy, Shiran and Bedrick, Steven},
  booktitle={Proceedings of the First Workshop on Evaluation and Comparison of NLP Systems},
  pages={131--142},
  year={2020}
}"""

BENCHMARK = Benchmark(
    name="wordpred",
    headline=Headline("top10", "wordpred top-10 %", True, "top10_ci"),
    profiles=(("full", Profile()), ("quick", Profile(limit=40))),
    paper_url="https://aclanthology.org/2020.eval4nlp-1.13/",
    task_ids=("language-modeling",),
    limitations=(
        "- Frequency bins come from the train corpus the build names; offline that is a shortened Wikipedia dump, "
        "not the paper's WikiText-103, so bin sizes differ from the paper's.\n"
        "- Whole-word scores need a word-boundary convention; tokenizers without one are scored by their own pieces."),
    summary="Whole-word next-word prediction by frequency bin: top-1/top-10, type coverage, soft match, word-level perplexity",
    scorer_path="wordbench.scorers.wordpred:WordPredScorer",
    card=CARD,
    citation=CITATION,
    paper="dudy2020",
    license="cc-by-sa-3.0",
    task_categories=("text-generation",),
    tags=("wordbench", "rare-words", "language-modeling"),
    title="Whole-word prediction",
    reference="Dudy & Bedrick 2020, *Are Some Words Worth More than Others?*",
    faithful=(
        "the seed's `spin_evaluate.py`: first step over the full vocabulary, paths up to 6 subtokens, the boundary "
        "token's probability in a top-1 hit, ppx = mean -ln p of any hit with +100 per miss (not exponentiated), "
        "top-k numerators over binned words, T over high+mid types"),
    sampling="a line's rarest bin",
    figure=Figure("smollm2", "token_coverage_by_bin.png", "test lines", limit=4),
)
