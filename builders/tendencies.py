"""The human reference sample of Meister & Cotterell (2021), "Language Model Evaluation Beyond Perplexity".

Documents of a corpus are split (seeded, by document) into a ``test`` split, the reference that model
samples are compared with, and a ``train`` split, from which equally sized human samples give the
spread of each statistic between human texts. Text is preprocessed as in the paper: lower-cased,
Moses-tokenized, whole words; a document's length is its number of whitespace tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator

import datasets

from .base import Builder
from .errors import ConfigError, SourceError
from .sources.base import SourceInfo, seeded_key
from .sources.corpora import GENSIM_WIKI, corpus_info, iter_corpus_documents, iter_corpus_lines, split_documents

UNITS = ("document", "article", "line")
FEATURES = datasets.Features(
    {"id": datasets.Value("string"), "text": datasets.Value("string"), "length": datasets.Value("int64")}
)
_WIKITEXT_TITLE = re.compile(r"^ = [^=].* = $")


@dataclass
class Config:
    corpus: str = GENSIM_WIKI  # file, folder, hf:ID:CONFIG:SPLIT or gensim-wiki
    test: str | None = None  # a separate reference corpus (e.g. WikiText-103 test); None = a seeded split of `corpus`
    text_column: str = "text"
    unit: str = "document"  # document (blank-line runs; gensim-wiki articles), article (WikiText " = Title = " headings), line
    test_fraction: float = 0.1  # share of documents in the reference when `test` is None
    lowercase: bool = True
    min_words: int = 1  # shorter documents are dropped
    max_documents: int | None = None  # a seeded sample of this many reference documents
    seed: int = 0
    faithful: bool = False  # every behaviour of the paper / the authors' code (--faithful)


class Normalizer:
    """The paper's preprocessing: lower-case, Moses tokenization (no escaping); returns whitespace tokens."""

    def __init__(self, lowercase: bool = True, lang: str = "en"):
        try:
            from sacremoses import MosesTokenizer
        except ImportError as exc:
            raise SourceError("preprocessing needs sacremoses: pip install sacremoses") from exc
        self.moses = MosesTokenizer(lang=lang)
        self.lowercase = lowercase

    def __call__(self, text: str) -> list[str]:
        return self.moses.tokenize(text.lower() if self.lowercase else text, escape=False)


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
    version = "1.0.0"
    Config = Config

    def sources(self, config: Config) -> list[SourceInfo]:
        from importlib.metadata import version

        out = [corpus_info(config.corpus, config.text_column, "corpus")]
        if config.test is not None:
            out.append(corpus_info(config.test, config.text_column, "reference"))
        out.append(SourceInfo("tok", "sacremoses Moses tokenizer (en, no escaping)", f"sacremoses-{version('sacremoses')}"))
        return out

    def _rows(self, docs: Iterable[list[str]], prefix: str, config: Config, normalize: Normalizer) -> list[dict]:
        rows = []
        for n, doc in enumerate(docs):
            words = [w for line in doc for w in normalize(line)]
            if len(words) >= config.min_words:
                rows.append({"id": f"{prefix}-{n:06d}", "text": " ".join(words), "length": len(words)})
        return rows

    def build(self, config: Config, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        if config.unit not in UNITS:
            raise ConfigError(f"unit must be one of {', '.join(UNITS)}, not '{config.unit}'")
        normalize = Normalizer(config.lowercase)
        docs = list(_documents(config.corpus, config.text_column, config.unit))
        if config.test is None:
            train, test = split_documents(docs, config.test_fraction, config.seed)
        else:
            train, test = docs, list(_documents(config.test, config.text_column, config.unit))
        test_rows = self._rows(test, "test", config, normalize)
        train_rows = self._rows(train, "train", config, normalize)
        if config.max_documents is not None and config.max_documents < len(test_rows):
            keep = sorted(test_rows, key=lambda r: seeded_key(config.seed, r["id"]))[: config.max_documents]
            test_rows = sorted(keep, key=lambda r: r["id"])
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
