"""Whole words over subword vocabularies: which tokens start a word, and the word each one spells."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

WORD_START_MARKERS = ("Ġ", "▁")  # byte-level BPE (GPT-2, Llama 3, SmolLM) and SentencePiece


@dataclass(frozen=True)
class WordVocabulary:
    is_start: np.ndarray  # bool per logit index: the token begins a new word and contains a letter
    words: tuple[str, ...]  # the word a start token spells (marker removed), "" otherwise

    def word(self, token_id: int) -> str:
        return self.words[token_id]


@functools.lru_cache(maxsize=8)
def _build(tokenizer, size: int) -> WordVocabulary:
    tokens = tokenizer.convert_ids_to_tokens(list(range(min(size, len(tokenizer)))))
    special = set(tokenizer.all_special_ids)
    wordpiece = any(t.startswith("##") for t in tokens if t)
    is_start = np.zeros(size, dtype=bool)
    words = [""] * size
    for i, tok in enumerate(tokens):
        if tok is None or i in special:
            continue
        if wordpiece:
            start = not tok.startswith("##")
        else:
            start = tok.startswith(WORD_START_MARKERS)
        if not start:
            continue
        word = tokenizer.convert_tokens_to_string([tok]).strip()
        if any(ch.isalpha() for ch in word):
            is_start[i] = True
            words[i] = word
    return WordVocabulary(is_start, tuple(words))


def word_vocabulary(tokenizer, size: int | None = None) -> WordVocabulary:
    """The word-start table of ``tokenizer`` over ``size`` logits (the model's output size)."""
    return _build(tokenizer, size or len(tokenizer))
