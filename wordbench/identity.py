"""Model identity: one rule for naming a model's version in signatures, for the scorers and the builders alike."""

from __future__ import annotations

from pathlib import Path

from .hashing import file_sha8

PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".pkl")
# The files that make a local model what it is: weights, config and tokenizer files, and the Python files a
# --trust-remote-code model runs (an edited modeling_*.py is another model).
MODEL_FILES = (".safetensors", ".gguf", ".json", ".model", ".txt", ".tiktoken", ".py") + PICKLE_SUFFIXES


def local_model_version(path: Path) -> str:
    """A local model is keyed by its content: weights, config and tokenizer files (a changed config.json
    or tokenizer is a new version even when the weights are the same)."""
    path = Path(path)
    files = [path] if path.is_file() else sorted(p for p in path.iterdir() if p.is_file() and p.suffix in MODEL_FILES)
    return "sha256-" + file_sha8(*files) if files else "local"


def model_version(name_or_path: str, revision: str | None = None, commit: str | None = None) -> str:
    """``sha256-XXXXXXXX`` of a local model's files, else the Hub revision, else the commit it resolves to (given,
    or the one the local Hub cache holds for ``main``, as a scored model's config names it), else ``main``."""
    path = Path(name_or_path).expanduser()
    if path.exists():
        return local_model_version(path)
    return revision or commit or cached_commit(name_or_path) or "main"


def cached_commit(repo_id: str, revision: str = "main") -> str | None:
    """The commit the local Hub cache resolved ``revision`` of a model repo to (no network)."""
    from huggingface_hub.constants import HF_HUB_CACHE

    ref = Path(HF_HUB_CACHE) / f"models--{repo_id.replace('/', '--')}" / "refs" / revision
    return ref.read_text().strip() or None if ref.is_file() else None
