"""The human reference sample of Meister & Cotterell (2021), "Language Model Evaluation Beyond Perplexity".

The paper's data: English Wikipedia preprocessed as XLM does (Conneau & Lample 2019: Moses punctuation
normalization and tokens, lower-cased, accents removed), one line per sample, split into train /
test by line. Lines of a corpus are split (seeded) into a ``test`` split, the reference that model
samples are compared with, and a ``train`` split, from which equally sized human samples give the
spread of each statistic between human texts (and on which the trigram baseline is trained). A
sample's length is its number of whitespace tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator, Literal

import datasets

from wordbench.declaration import Benchmark, Figure, Headline, Profile
from wordbench.errors import SourceError
from wordbench.spec import Spec, faithful_opt, opt, seed_opt

from .base import Builder, free_text
from .sources.normalize import Normalizer, strip_accents  # noqa: F401 - re-exported
from .sources.base import SourceInfo, seeded_key
from .sources.corpora import GENSIM_WIKI, corpus_info, iter_corpus_documents, iter_corpus_lines, split_documents

UNITS = ("document", "article", "line")
FEATURES = datasets.Features(
    {"id": datasets.Value("string"), "text": datasets.Value("string"), "length": datasets.Value("int64")}
)
_WIKITEXT_TITLE = re.compile(r"^ = [^=].* = $")
# The paper's corpus online: English Wikipedia (an HF dump; append a split slice such as ``:train[:10%]``).
PAPER_CORPUS = "hf:wikimedia/wikipedia:20231101.en:train"


@dataclass
class Config(Spec):
    corpus: str = opt(GENSIM_WIKI, "a file, folder, hf:ID:CONFIG:SPLIT, gensim-wiki, or paper (English Wikipedia, as the paper)", nonempty=True)
    test: str | None = opt(None, "a separate reference corpus; none: a seeded split of corpus")
    text_column: str = opt("text", "the text column of a jsonl or hf: corpus", nonempty=True)
    unit: Literal["line", "document", "article"] = opt(
        "line", "one sample is a line (the paper), a document (blank-line runs; gensim-wiki articles), or an article (WikiText headings)")
    test_fraction: float = opt(0.1, "share of samples in the reference when test is none", gt=0, lt=1)
    lowercase: bool = opt(True, "XLM preprocessing: lower-case")
    strip_accents: bool = opt(True, "XLM preprocessing: NFD, combining marks (Mn) removed")
    normalize_punct: bool = opt(True, "XLM preprocessing: Moses punctuation normalization and non-printing characters removed")
    min_words: int = opt(1, "shorter samples are dropped", ge=1)
    max_documents: int | None = opt(None, "a seeded sample of this many reference samples (the paper: 1M)", ge=1)
    max_train: int | None = opt(None, "a seeded sample of this many train samples", ge=1)
    seed: int = seed_opt()
    faithful: bool = faithful_opt()


def _documents(spec: str, text_column: str, unit: str) -> Iterator[list[str]]:
    if unit == "line":
        yield from ([line] for line in iter_corpus_lines(spec, text_column) if line.strip())
    elif unit == "article" and spec != GENSIM_WIKI:
        doc: list[str] = []
        for line in iter_corpus_lines(spec, text_column):
            if _WIKITEXT_TITLE.match(line) and doc:
                yield doc
                doc = []
            if line.strip():
                doc.append(line)
        if doc:
            yield doc
    else:
        yield from iter_corpus_documents(spec, text_column)


class TendenciesBuilder(Builder):
    name = "tendencies"
    version = "2.0.0"
    Config = Config
    schema = {"default": FEATURES}
    fields = {"id": "stable text id", "text": free_text("a human-written reference text"), "length": "its length in whitespace tokens"}

    def sources(self, config: Config) -> list[SourceInfo]:
        from importlib.metadata import version

        out = [corpus_info(PAPER_CORPUS if config.corpus == "paper" else config.corpus, config.text_column, "corpus")]
        if config.test is not None:
            out.append(corpus_info(config.test, config.text_column, "reference"))
        steps = [name for name, on in (("Moses punctuation normalization", config.normalize_punct), ("Moses tokens (en, no escaping)", True),
                                       ("lower-cased", config.lowercase), ("accents stripped (NFD, Mn removed)", config.strip_accents)) if on]
        out.append(SourceInfo("tok", "XLM preprocessing: " + ", ".join(steps), f"sacremoses-{version('sacremoses')}"))
        return out

    def _rows(self, docs: Iterable[tuple[int, list[str]]], prefix: str, config: Config, normalize: Normalizer, progress: bool) -> list[dict]:
        from tqdm.auto import tqdm

        rows = []
        for n, doc in tqdm(docs, desc=f"tendencies {prefix}", disable=not progress):
            words = [w for line in doc for w in normalize(line)]
            if len(words) >= config.min_words:
                rows.append({"id": f"{prefix}-{n:08d}", "text": " ".join(words), "length": len(words)})
        return rows

    def build(self, config: Config, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        normalize = Normalizer(config.lowercase, accents=config.strip_accents, punct=config.normalize_punct)
        corpus = PAPER_CORPUS if config.corpus == "paper" else config.corpus
        docs = list(_documents(corpus, config.text_column, config.unit))
        if config.test is None:
            train, test = split_documents(docs, config.test_fraction, config.seed)
        else:
            train, test = docs, list(_documents(config.test, config.text_column, config.unit))
        test_rows = self._rows(_cap(test, config.max_documents, config.seed), "test", config, normalize, progress)
        train_rows = self._rows(_cap(train, config.max_train, config.seed), "train", config, normalize, progress)
        for split, rows in (("test", test_rows), ("train", train_rows)):
            if len(rows) < 2:
                raise SourceError(f"the {split} split has {len(rows)} document(s) of {config.min_words}+ words; "
                                  "the statistics need at least 2 (try unit=line or another corpus)")
        return {"default": datasets.DatasetDict({
            "test": datasets.Dataset.from_list(test_rows, features=FEATURES),
            "train": datasets.Dataset.from_list(train_rows, features=FEATURES),
        })}

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        lines = ["| split | documents | tokens | types | mean length | median length |", "|---|---|---|---|---|---|"]
        for split in ("test", "train"):
            ds = data["default"][split]
            lengths = sorted(ds["length"])
            types = len({w for text in ds["text"] for w in text.split()})
            lines.append(f"| {split} | {len(ds)} | {sum(lengths)} | {types} | {sum(lengths) / len(lengths):.1f} | "
                         f"{lengths[len(lengths) // 2]} |")
        return "\n".join(lines)


def _cap(docs: list, limit: int | None, seed: int) -> list[tuple[int, list[str]]]:
    """(index, document) of a seeded sample of ``limit`` documents, in corpus order (all when ``limit`` is None)."""
    indexed = list(enumerate(docs))
    if limit is None or limit >= len(indexed):
        return indexed
    keep = sorted(range(len(indexed)), key=lambda i: seeded_key(seed, f"doc{i}"))[:limit]
    return [indexed[i] for i in sorted(keep)]


# The benchmark's declaration, collected by wordbench.benchmarks.registry.
CARD = """\
The human reference sample for "Language Model Evaluation Beyond Perplexity" (Meister & Cotterell
2021): do texts generated by a model follow the statistical tendencies of the human text it imitates
(Zipf's and Heaps' laws, the unigram distribution, length, stopword and symbol shares)? Lines of a
corpus are split by a seeded draw into `test`, the reference that model samples are compared with, and
`train`, from which equally sized human samples give the spread of every statistic between human texts
and on which the trigram baseline is trained. Text is preprocessed as the paper's (XLM, Conneau &
Lample 2019): Moses punctuation normalization, Moses tokens (sacremoses, no escaping), lower-cased,
accents removed (NFD, combining marks dropped); one line per row, `text` holds the whitespace-joined
tokens and `length` their number.
**The paper's data** is an English Wikipedia dump so preprocessed, one line (paragraph) per sample,
test lines of 57.45 tokens on average, 1M samples per side; `corpus=paper max_documents=1000000
max_train=1000000` rebuilds it from the Hub's `wikimedia/wikipedia` (20231101.en, articles split into
lines; a newer dump than the paper's). **Offline default:** the same preprocessing on the English
Wikipedia sample in gensim's test data, whose lines are sentences (about 24 tokens on average), 10% of
the lines as reference.
"""
CITATION = """\
@inproceedings{meister2021beyond,
  title={Language Model Evaluation Beyond Perplexity},
  author={Meister, Clara and Cotterell, Ryan},
  booktitle={Proceedings of the 59th Annual Meeting of the Association for Computational Linguistics},
  pages={5328--5339},
  year={2021}
}"""

BENCHMARK = Benchmark(
    name="tendencies",
    headline=Headline("samples/ancestral/rank_ks", "tendencies rank KS (ancestral)", False),
    profiles=(("full", Profile((("strategies", "ancestral,nucleus,beam"),))),
              ("quick", Profile((("strategies", "ancestral"), ("n", 50), ("max_new_tokens", 40), ("n_resamples", 99),
                                 ("baseline_draws", 2)), limit=50))),
    paper_url="https://aclanthology.org/2021.acl-long.414/",
    task_ids=("language-modeling",),
    limitations=(
        "- The reference sample is the build's corpus (offline: a shortened Wikipedia dump), not the paper's "
        "WikiText-103 test set; the statistics compare a model with that sample only."),
    summary="Statistical tendencies of generated text vs human text: Zipf, Heaps, TVD, length/stopword/symbol tests",
    scorer_path="wordbench.scorers.tendencies:TendenciesScorer",
    card=CARD,
    citation=CITATION,
    paper="meister2021",
    license="cc-by-sa-3.0",
    task_categories=("text-generation",),
    tags=("wordbench", "language-modeling", "zipf", "heaps-law"),
    title="Statistical tendencies",
    reference="Meister & Cotterell 2021, *Language Model Evaluation Beyond Perplexity*",
    faithful=(
        "Zipf laws normalised by zeta(alpha) over all ranks (the paper's Table 2 implies it), not renormalised over "
        "the first 10,000"),
    sampling="none: a seeded sample of reference lines",
    figure=Figure("smollm2", "type_token.png", "reference lines", limit=16, options=(("strategies", "ancestral"), ("max_new_tokens", 24), ("perplexity", False), ("baseline_draws", 2), ("n_resamples", 99))),
)
