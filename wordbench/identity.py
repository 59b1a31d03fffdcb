"""Model identity: one rule for naming a model's version in signatures, for the scorers and the builders alike."""

from __future__ import annotations

from math import prod
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
        from gguf import GGMLQuantizationType, LlamaFileType

        values, tensors = gguf_header(path)
        if "general.file_type" in values:
            try:
                return LlamaFileType(int(values["general.file_type"])).name.removeprefix("MOSTLY_")
            except ValueError:
                pass  # a file type this gguf version does not know: the tensors say it
        share = Counter()
        for _, n, kind in tensors:
            try:
                share[GGMLQuantizationType(kind).name] += n
            except ValueError:
                share[f"type {kind}"] += n
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


_GGUF_SIZES = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}  # scalar types


def gguf_header(path: Path) -> tuple[dict[str, object], list[tuple[str, int, int]]]:
    """(scalar metadata values, (name, values, type id) of each tensor) of a GGUF file, read from its header with no
    array element made into an object: gguf's own reader takes seconds on a large vocabulary, this takes milliseconds.
    A file that is no GGUF (version 2 or 3) is a one-line error naming it."""
    import mmap
    import struct

    from .errors import DataFormatError

    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        try:
            if m[:4] != b"GGUF" or struct.unpack_from("<I", m, 4)[0] not in (2, 3):
                raise DataFormatError(f"{path}: not a GGUF file of version 2 or 3")
            n_tensors, n_kv = struct.unpack_from("<QQ", m, 8)
            at = 24

            def string() -> str:
                nonlocal at
                (n,) = struct.unpack_from("<Q", m, at)
                at += 8 + n
                return bytes(m[at - n:at]).decode("utf-8", "replace")

            def skip_or_read(kind: int):
                nonlocal at
                if kind == 8:
                    return string()
                if kind == 9:
                    item, count = struct.unpack_from("<IQ", m, at)
                    at += 12
                    if item in _GGUF_SIZES:
                        at += struct.calcsize("<" + _GGUF_SIZES[item]) * count
                    else:
                        for _ in range(count):
                            skip_or_read(item)
                    return None
                code = "<" + _GGUF_SIZES[kind]
                (value,) = struct.unpack_from(code, m, at)
                at += struct.calcsize(code)
                return value

            values = {}
            for _ in range(n_kv):
                key = string()
                (kind,) = struct.unpack_from("<I", m, at)
                at += 4
                value = skip_or_read(kind)
                if value is not None:
                    values[key] = value
            tensors = []
            for _ in range(n_tensors):
                name = string()
                (dims,) = struct.unpack_from("<I", m, at)
                shape = struct.unpack_from(f"<{dims}Q", m, at + 4)
                kind, _ = struct.unpack_from("<IQ", m, at + 4 + 8 * dims)
                at += 4 + 8 * dims + 12
                tensors.append((name, prod(shape), kind))
        except (struct.error, KeyError, IndexError, ValueError) as exc:
            raise DataFormatError(f"{path}: a damaged GGUF header ({type(exc).__name__}: {exc})") from None
    return values, tensors
