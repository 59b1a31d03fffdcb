"""Running text: local text/jsonl files or folders, or HF datasets (``hf:ID[:CONFIG[:SPLIT]]``)."""

from __future__ import annotations

import bz2
import json
import re
from importlib.metadata import version as pkg_version
from pathlib import Path
from typing import Iterator

from wordbench.errors import ConfigError, SourceError

from .base import SourceInfo, cache_dir, file_sha8, seeded_key
from .parallel import TRANS_DE_EN, load_pairs
from .readers import _file_lines, _hf_lines, corpus_files, load_hf_dataset, numbered_lines  # noqa: F401 - re-exported
from .wordnet import load_wordnet


def corpus_problem(spec: str) -> str | None:
    """What is wrong with a corpus spec before it is read (None: nothing): a local path must exist."""
    if spec in (GENSIM_WIKI, OFFLINE_EN) or (spec.startswith("hf:") and spec[3:].strip()):
        return None
    return None if Path(spec).expanduser().exists() else f"corpus {spec} does not exist: give a file, a folder, hf:ID, gensim-wiki or offline-en"


def iter_corpus_lines(spec: str, text_column: str = "text") -> Iterator[str]:
    """Yield the lines of a corpus spec: a file, a folder of ``*.txt``/``*.jsonl``, ``hf:ID[:CONFIG[:SPLIT]]``,
    or ``gensim-wiki`` (the offline default, one sentence per line)."""
    if spec == GENSIM_WIKI:
        for doc in gensim_wiki_documents():
            yield from doc
        return
    if spec == OFFLINE_EN:
        yield from offline_english_lines()
        return
    if spec.startswith("hf:"):
        yield from _hf_lines(spec[3:], text_column)
        return
    for file in corpus_files(spec):
        yield from _file_lines(file, text_column)


# --- the offline default: gensim's shortened English Wikipedia dump ---------------------------------

GENSIM_WIKI = "gensim-wiki"
_WIKI_FILE = "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
_SKIP_LINE = tuple("=*#|{}!:;<")


def gensim_wiki_info() -> SourceInfo:
    return SourceInfo("corpus", "English Wikipedia sample shipped in gensim's test data (wiki markup removed, sentences "
                      "split by pysbd, one Moses-tokenized sentence per line)",
                      f"gensim-wiki-{pkg_version('gensim')}+pysbd-{pkg_version('pysbd')}", _WIKI_FILE)


def corpus_info(spec: str, text_column: str = "text", role: str = "") -> SourceInfo:
    """The provenance record of a corpus spec (an hf/file corpus is named by its spec)."""
    prefix = f"{role}: " if role else ""
    if spec in (GENSIM_WIKI, OFFLINE_EN):
        info = gensim_wiki_info() if spec == GENSIM_WIKI else offline_english_info()
        return SourceInfo("corpus", prefix + info.name, info.version, info.detail)
    path = Path(spec).expanduser()
    if path.exists():  # a local file or folder is keyed by its bytes: an edit in place is a new version
        return SourceInfo("corpus", prefix + spec, f"{path.name}-sha256-{file_sha8(path)}", f"text column '{text_column}'")
    return SourceInfo("corpus", prefix + spec, spec, f"text column '{text_column}'")


def sentence_splitter():
    """pysbd's English segmenter (abbreviation-aware rules), text kept as it is."""
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def gensim_wiki_documents() -> list[list[str]]:
    """Articles of the shortened Wikipedia dump in gensim's test data, as lists of tokenized sentences.

    Markup is removed with gensim's own ``filter_wiki``; headings, lists and tables are dropped;
    sentences are split by pysbd's rule-based segmenter (no cut after "Mr." or "U.S.") and tokenized
    WikiText-style (Moses, no escaping).
    The result is cached as jsonl under the wordbench cache.
    """
    cached = cache_dir("corpora") / f"{gensim_wiki_info().version}.jsonl"
    if cached.exists():
        with open(cached, encoding="utf-8") as f:
            return [json.loads(line) for line in f]
    try:
        import gensim
        from gensim.corpora.wikicorpus import extract_pages, filter_wiki
    except ImportError as exc:
        raise SourceError("the offline corpus needs gensim: pip install gensim") from exc
    dump = Path(gensim.__file__).parent / "test" / "test_data" / _WIKI_FILE
    if not dump.exists():
        raise SourceError(f"gensim {pkg_version('gensim')} does not ship {_WIKI_FILE}: give a corpus (file, folder or hf:ID)")
    from sacremoses import MosesTokenizer

    moses = MosesTokenizer(lang="en")
    segmenter = sentence_splitter()
    docs = []
    with bz2.BZ2File(dump) as raw:
        for _title, text, _pageid in extract_pages(raw):
            sentences = []
            for para in filter_wiki(text).replace("'''", "").replace("''", "").splitlines():
                para = " ".join(para.split())
                if not para or para.startswith(_SKIP_LINE) or para.upper().startswith("#REDIRECT"):
                    continue
                for sent in segmenter.segment(para):
                    tokens = moses.tokenize(sent, escape=False, return_str=True)
                    if len(tokens.split()) >= 3:
                        sentences.append(tokens)
            if sentences:
                docs.append(sentences)
    tmp = cached.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for doc in docs:
            f.write(json.dumps(doc, ensure_ascii=False) + "\n")
    tmp.replace(cached)
    return docs


# --- a larger offline English corpus: everything running text that ships on this kind of machine ----

OFFLINE_EN = "offline-en"
_GLOSS_EXAMPLE = re.compile(r'"([^"]+)"')


def offline_english_info() -> SourceInfo:
    return SourceInfo("corpus", "offline English text: gensim's Wikipedia sample + WordNet 3.0 glosses and example sentences "
                      "+ gensim's Lee news corpus + the English example sentences of the Ding dictionary (trans-de-en); "
                      "one Moses-tokenized sentence per line (sentences split by pysbd)",
                      f"offline-en-2-gensim-{pkg_version('gensim')}+pysbd-{pkg_version('pysbd')}")


def offline_english_lines() -> list[str]:
    """The ``offline-en`` corpus (cached): gensim-wiki sentences, then WordNet glosses and examples, the Lee
    background corpus of gensim's test data and the Ding example sentences, each Moses-tokenized. A part
    whose package is missing is left out (``offline_english_parts`` says which are there)."""
    cached = cache_dir("corpora") / f"{offline_english_info().version}.txt"
    if cached.exists():
        return cached.read_text(encoding="utf-8").splitlines()
    lines = [line for _, part in offline_english_parts() for line in part]
    tmp = cached.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(cached)
    return lines


def offline_english_parts() -> list[tuple[str, list[str]]]:
    """(name, tokenized sentences) of each available part of ``offline-en``."""
    from sacremoses import MosesTokenizer

    moses = MosesTokenizer(lang="en")
    tok = lambda texts: [t for t in (moses.tokenize(" ".join(x.split()), escape=False, return_str=True) for x in texts) if t]  # noqa: E731
    parts = [("gensim-wiki", [s for doc in gensim_wiki_documents() for s in doc])]
    try:
        reader, _ = load_wordnet()
        texts = []
        for synset in reader.all_synsets():
            texts.append(synset.definition())
            texts.extend(synset.examples())
        parts.append(("wordnet-glosses", tok(texts)))
    except SourceError:
        pass
    try:
        import gensim

        lee = Path(gensim.__file__).parent / "test" / "test_data" / "lee_background.cor"
        split = sentence_splitter().segment
        parts.append(("gensim-lee", tok(s for doc in lee.read_text(encoding="utf-8").splitlines() for s in split(doc))))
    except (ImportError, OSError):
        pass
    try:
        parts.append(("ding-en", tok(p.source for p in load_pairs(TRANS_DE_EN))))
    except SourceError:
        pass
    return parts


def iter_corpus_documents(spec: str, text_column: str = "text") -> Iterator[list[str]]:
    """Documents of a corpus: gensim-wiki articles, else runs of non-empty lines between blank lines."""
    if spec == GENSIM_WIKI:
        yield from gensim_wiki_documents()
        return
    doc: list[str] = []
    for line in iter_corpus_lines(spec, text_column):
        if line.strip():
            doc.append(line)
        elif doc:
            yield doc
            doc = []
    if doc:
        yield doc


def split_documents(docs: list, test_fraction: float, seed: int) -> tuple[list, list]:
    """A seeded document-level split: (train documents, test documents), each in corpus order."""
    if not 0 < test_fraction < 1:
        raise ConfigError("test_fraction must be between 0 and 1")
    if len(docs) < 2:
        raise SourceError(f"the corpus has {len(docs)} document(s): a train/test split needs at least 2")
    order = sorted(range(len(docs)), key=lambda d: seeded_key(seed, f"doc{d}"))
    test_ids = set(order[: max(1, round(len(docs) * test_fraction))])
    return [d for i, d in enumerate(docs) if i not in test_ids], [d for i, d in enumerate(docs) if i in test_ids]
