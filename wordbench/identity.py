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


SAFETENSORS_DTYPES = {"F64": "fp64", "F32": "fp32", "F16": "fp16", "BF16": "bf16", "F8_E4M3": "fp8", "F8_E5M2": "fp8",
                      "I8": "int8", "U8": "uint8"}


def weights_precision(path: Path) -> str | None:
    """How a local model's weights are stored, read from the files' headers (no weights read): a GGUF's quantisation
    (``Q4_1``, from its file type, else its largest tensor type), or the safetensors dtypes by share of values
    (``bf16``, ``fp32+int8``: each type holding 5% of the values or more); None where neither is there (pickle weights, or no model)."""
    import json
    import struct
    from collections import Counter
    from math import prod

    path = Path(path)
    if path.is_file() and path.suffix == ".gguf":
        from gguf import GGUFReader, LlamaFileType

        reader = GGUFReader(str(path))
        field = reader.fields.get("general.file_type")
        if field is not None:
            try:
                return LlamaFileType(int(field.parts[field.data[0]][0])).name.removeprefix("MOSTLY_")
            except ValueError:
                pass  # a file type this gguf version does not know: the tensors say it
        share = Counter()
        for t in reader.tensors:
            share[t.tensor_type.name] += int(t.n_elements)
        return share.most_common(1)[0][0] if share else None
    files = sorted(path.glob("*.safetensors")) if path.is_dir() else []
    share = Counter()
    for file in files:
        with open(file, "rb") as f:
            (size,) = struct.unpack("<Q", f.read(8))
            header = json.loads(f.read(size))
        for name, t in header.items():
            if name != "__metadata__":
                share[SAFETENSORS_DTYPES.get(t["dtype"], t["dtype"].lower())] += prod(t["shape"])
    total = sum(share.values())  # a type under 5% of the values is a buffer (position ids), not how the weights are stored
    return "+".join(k for k, v in share.most_common() if v >= 0.05 * total) or None
