"""``load_model``: one entry point for HF ids, local folders and ``.gguf`` files, with safe defaults."""

from __future__ import annotations

import re
from pathlib import Path

import torch

from wordbench import spec
from wordbench.identity import PICKLE_SUFFIXES, local_model_version

from .base import ModelError, ModelInfo, ScoringModel
from .causal import CausalLM
from .masked import EncoderModel, MaskedLM
from .seq2seq import Seq2SeqLM, Seq2SeqOptions

FAMILIES = ("causal", "masked", "encoder", "seq2seq")
HUB_ID = re.compile(r"^[\w.-]+(/[\w.-]+)?$")
DTYPES = {"float32": torch.float32, "fp32": torch.float32, "bfloat16": torch.bfloat16, "bf16": torch.bfloat16,
          "float16": torch.float16, "fp16": torch.float16}
SHORT = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}


DEVICE = re.compile(r"^(auto|cpu|mps|shard|cuda(:\d+)?)$")


def resolve_device(device: str = "auto") -> torch.device:
    if not DEVICE.match(str(device)):
        raise ModelError(f"unknown device '{device}': use auto, cpu, cuda, cuda:N, mps or shard")
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ModelError(f"--device {device}: CUDA is not available here (torch {torch.__version__}); use --device cpu or auto")
    if device.startswith("cuda:") and int(device[5:]) >= torch.cuda.device_count():
        raise ModelError(f"--device {device}: this machine has {torch.cuda.device_count()} CUDA device(s)")
    if device == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise ModelError("--device mps: MPS is not available here; use --device cpu or auto")
    if device == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    return torch.device(device)


def resolve_dtype(dtype: str, device: torch.device) -> torch.dtype:
    """``auto``: bf16 on a GPU that supports it, else float32."""
    if dtype == "auto":
        if device.type == "cuda" and torch.cuda.is_bf16_supported():
            return torch.bfloat16
        return torch.float32
    if dtype not in DTYPES:
        raise ModelError(f"unknown dtype '{dtype}': use auto, float32, bfloat16 or float16")
    return DTYPES[dtype]


def detect_family(config) -> str:
    """causal / masked / encoder / seq2seq from the config's architectures (or model type)."""
    if getattr(config, "is_encoder_decoder", False):
        return "seq2seq"
    archs = getattr(config, "architectures", None) or []
    if any(a.endswith(("ForCausalLM", "LMHeadModel")) for a in archs):
        return "causal"
    if any(a.endswith(("ForMaskedLM", "ForPreTraining")) for a in archs):
        return "masked"
    if archs:
        return "encoder"
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES, MODEL_FOR_MASKED_LM_MAPPING_NAMES

    if config.model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        return "causal"
    if config.model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES:
        return "masked"
    return "encoder"


def _looks_like_path(name: str) -> bool:
    return name.startswith((".", "/", "~")) or name.endswith(".gguf") or not HUB_ID.match(name)




def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


def _display_name(path: Path) -> str:
    """A readable name for a local model: the file stem, or the folder (with its parent when generic)."""
    name = path.stem if path.is_file() else path.resolve().name
    if name.lower() in ("model", "models", "checkpoint", "weights", "snapshot"):
        name = f"{path.resolve().parent.name}-{name}"
    return name


def _config(source: str, name_or_path: str, common: dict):
    import transformers

    try:
        return transformers.AutoConfig.from_pretrained(source, **common)
    except Exception as exc:  # noqa: BLE001 - a truncated .gguf raises struct.error, a bad config KeyError: one line
        raise ModelError(f"cannot load model {name_or_path}: {_first_line(exc)}") from exc


def model_family(name_or_path: str, family: str | None = None, revision: str | None = None, trust_remote_code: bool = False) -> str:
    """The family ``load_model`` would give, from the config alone (no weights are read)."""
    if family is not None:
        return family
    _, gguf, source = _resolve(name_or_path)
    return "causal" if gguf else detect_family(_config(source, name_or_path, {"revision": revision, "trust_remote_code": trust_remote_code}))


def _resolve(name_or_path: str) -> tuple[Path, bool, str]:
    """(path, gguf, source): where transformers reads the model from (a Hub id, a folder, a .gguf file's
    folder); a name that looks like a path and does not exist is an error."""
    path = Path(name_or_path).expanduser()
    if not path.exists() and _looks_like_path(name_or_path):
        raise ModelError(f"model path {name_or_path} does not exist")
    gguf = path.suffix == ".gguf"
    return path, gguf, str(path.parent if gguf else (path if path.exists() else name_or_path))


def load_model(
    name_or_path: str,
    family: str | None = None,
    device: str = "auto",
    dtype: str = "auto",
    batch_size: int | str = "auto",
    revision: str | None = None,
    trust_remote_code: bool = False,
    allow_pickle: bool = False,
    options: dict | None = None,
    progress: bool = False,
) -> ScoringModel:
    """Load a model for scoring; one object per family with one vocabulary (see DESIGN.md).

    ``device="shard"`` spreads a model too big for one GPU over all GPUs (``device_map="auto"``).
    Pickle checkpoints are refused unless ``allow_pickle``; remote code runs only with ``trust_remote_code``.
    ``options`` are the family's own settings (seq2seq: ``infill=auto|sentinel|mask``, ``states=encoder|decoder``);
    the run signature names them.
    """
    import transformers

    path, gguf, source = _resolve(name_or_path)
    local = path.exists()
    if batch_size != "auto" and not (isinstance(batch_size, int) and batch_size >= 1):
        raise ModelError(f"batch size must be auto or a positive integer, got {batch_size!r}")
    if family is not None and family not in FAMILIES:
        raise ModelError(f"unknown model family '{family}': use one of {', '.join(FAMILIES)}")

    common = {"revision": revision, "trust_remote_code": trust_remote_code}
    if gguf:
        common["gguf_file"] = path.name
    if local and path.is_dir() and not allow_pickle:
        files = {p.suffix for p in path.iterdir()}
        if ".safetensors" not in files and files & set(PICKLE_SUFFIXES):
            raise ModelError(f"{name_or_path} has only pickle weights, which can run code when loaded: pass --allow-pickle if you trust it")

    config = _config(source, name_or_path, common)
    family = family or ("causal" if gguf else detect_family(config))
    options = {k: v for k, v in (options or {}).items() if v is not None}
    if options and family != "seq2seq":
        raise ModelError(f"model options ({', '.join(sorted(options))}) apply to seq2seq models only; {name_or_path} is {family}")
    if options:  # typed by the declaration; the signature names only the options given
        declared = spec.parse(Seq2SeqOptions, options, source="--model-option")
        options = {k: getattr(declared, k) for k in options}

    dev = resolve_device("cuda" if device == "shard" else device)
    torch_dtype = resolve_dtype(dtype, dev)
    auto_cls = {"causal": transformers.AutoModelForCausalLM, "masked": transformers.AutoModelForMaskedLM, "encoder": transformers.AutoModel,
                "seq2seq": transformers.AutoModelForSeq2SeqLM}[family]
    kwargs = dict(common, dtype=torch_dtype)
    if not gguf and not allow_pickle:
        kwargs["use_safetensors"] = True
    if device == "shard":
        kwargs["device_map"] = "auto"
    if dev.type == "cuda":
        kwargs["attn_implementation"] = "sdpa"
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(source, **common)
        model = auto_cls.from_pretrained(source, **kwargs)
    except Exception as exc:  # noqa: BLE001 - corrupt or untrusted files fail in many ways: one line for the user
        msg = _first_line(exc)
        if "safetensors" in msg and not allow_pickle:
            msg += " (pickle weights are refused unless --allow-pickle)"
        raise ModelError(f"cannot load {family} model {name_or_path}: {msg}") from exc
    if device != "shard":
        model.to(dev)
    version = local_model_version(path) if local else (revision or getattr(config, "_commit_hash", None) or "main")
    info = ModelInfo(_display_name(path) if local else name_or_path, version, family, SHORT.get(torch_dtype, str(torch_dtype)),
                     {"source": str(path) if local else name_or_path, "revision": revision},
                     ",".join(f"{k}={v}" for k, v in sorted(options.items())))
    cls = {"causal": CausalLM, "masked": MaskedLM, "encoder": EncoderModel, "seq2seq": Seq2SeqLM}[family]
    return cls(model, tokenizer, info, model.device if device == "shard" else dev, batch_size, progress, **options)
