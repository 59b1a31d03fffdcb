"""Corpus counting in several processes over byte ranges equals one process's streamed count."""

import json
import random
from collections import Counter

import pytest

from wordbench.builders.sources import parallel_count
from wordbench.builders.sources.corpora import iter_corpus_lines
from wordbench.builders.sources.frequencies import WORD_TOKEN, count_words, load_frequencies


@pytest.fixture()
def corpus(tmp_path):
    rng = random.Random(0)
    words = [f"w{i}" for i in range(300)] + ["Don't", "e.g.", "naïve", "Über", "--", "x-ray"]
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "a.txt").write_text("".join(" ".join(rng.choices(words, k=rng.randint(0, 25))) + ("\r\n" if i % 7 == 0 else "\n")
                                                  for i in range(3000)) + "no final newline")
    (tmp_path / "c" / "b.jsonl").write_text("".join(json.dumps({"text": " ".join(rng.choices(words, k=9))}) + "\n" for _ in range(800)))
    return tmp_path / "c"


def test_block_count_equals_per_line_count(corpus):
    lines = list(iter_corpus_lines(str(corpus)))
    per_line = Counter(w for line in lines for w in WORD_TOKEN.findall(line.lower()))
    assert count_words(lines) == per_line and per_line["don't"] > 0 and per_line["über"] > 0
    assert count_words(lines, lowercase=False, whitespace=True) == Counter(w for line in lines for w in line.split())


def test_parallel_ranges_equal_one_process(corpus, monkeypatch):
    monkeypatch.setattr(parallel_count, "MIN_RANGE", 997)  # many ranges, most starting mid-line
    files = sorted(corpus.iterdir())
    assert len(parallel_count._ranges(files, 3)) > 6
    assert parallel_count.count_files(files, 3) == count_words(iter_corpus_lines(str(corpus)))
    serial = load_frequencies.__wrapped__(str(corpus))
    monkeypatch.setenv("WORDBENCH_NUM_PROC", "2")
    parallel = load_frequencies.__wrapped__(str(corpus))
    assert parallel.info == serial.info and parallel.counts == serial.counts  # same source tag: same signatures
