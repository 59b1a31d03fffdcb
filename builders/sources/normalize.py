"""The paper's (XLM's) text preprocessing, shared by the tendencies builder and scorer (no datasets import)."""

from __future__ import annotations

import unicodedata

from wordbench.errors import SourceError


def strip_accents(text: str) -> str:
    """XLM's accent removal: NFD decomposition, combining marks (category Mn) dropped."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


class Normalizer:
    """The paper's (XLM's) preprocessing: Moses punctuation normalization, Moses tokens (no escaping),
    lower-case, accents stripped; returns whitespace tokens."""

    def __init__(self, lowercase: bool = True, lang: str = "en", accents: bool = True, punct: bool = True):
        try:
            from sacremoses import MosesPunctNormalizer, MosesTokenizer
        except ImportError as exc:
            raise SourceError("preprocessing needs sacremoses: pip install sacremoses") from exc
        self.moses = MosesTokenizer(lang=lang)
        self.punct = MosesPunctNormalizer(lang=lang, pre_replace_unicode_punct=True, post_remove_control_chars=True) if punct else None
        self.lowercase, self.accents = lowercase, accents

    def __call__(self, text: str) -> list[str]:
        if self.punct is not None:
            text = self.punct.normalize(text)
        text = " ".join(self.moses.tokenize(text, escape=False))
        if self.lowercase:
            text = text.lower()
        if self.accents:
            text = strip_accents(text)
        return text.split()
