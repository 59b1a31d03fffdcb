"""``load_model``: one entry point for HF ids, local folders and ``.gguf`` files, with safe defaults."""

from __future__ import annotations

import copy
import functools
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import torch

from wordbench import spec
from wordbench.errors import warn
from wordbench.identity import PICKLE_SUFFIXES, local_model_version

from .base import ModelError, ModelInfo, ScoringModel, config_layers, config_positions
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


_GGUF_LOCK = threading.Lock()
_GGUF_LAST: dict = {}  # (path, size, mtime) -> transformers' parse of the last GGUF's metadata


def _gguf_metadata_once() -> None:
    """transformers parses a GGUF's metadata anew for the config and again for the tokenizer (5-7 s each for a 49k-token
    vocabulary on 2 cores): keep its parse of the last file (keyed by path, size and mtime), so a plan reads it once.
    Installed once over transformers' function, which its callers import when they call it; weights pass through."""
    import transformers.modeling_gguf_pytorch_utils as gguf_utils

    with _GGUF_LOCK:
        original = gguf_utils.load_gguf_checkpoint
        if getattr(original, "wordbench_once", False):
            return

        @functools.wraps(original)
        def once(path, return_tensors=False, *args, **kwargs):
            if return_tensors or args or kwargs:
                return original(path, return_tensors, *args, **kwargs)
            stat = os.stat(path)
            key = (os.path.realpath(path), stat.st_size, stat.st_mtime_ns)
            with _GGUF_LOCK:
                if key not in _GGUF_LAST:
                    _GGUF_LAST.clear()
                    import gguf

                    reader, gguf.GGUFReader = gguf.GGUFReader, _plain_reader(gguf.GGUFReader)
                    try:
                        _GGUF_LAST[key] = original(path, return_tensors=False)
                    finally:
                        gguf.GGUFReader = reader
                return copy.deepcopy(_GGUF_LAST[key])

        once.wordbench_once = True
        gguf_utils.load_gguf_checkpoint = once


@functools.lru_cache(maxsize=1)
def _plain_reader(base: type) -> type:
    """gguf's reader over the file's mapping as a plain array: its many small slices of a ``np.memmap`` each pay for
    the memmap subclass (2.2 s against 5.4 s for SmolLM2's metadata on 2 cores); the values are the same."""
    import numpy as np

    class PlainReader(base):
        def _get(self, offset, dtype, count=1, override_order=None):
            if type(self.data) is not np.ndarray:
                self.data = self.data.view(np.ndarray)  # the same memory, no copy
            return super()._get(offset, dtype, count, override_order)

    return PlainReader


def _config(source: str, name_or_path: str, common: dict):
    import transformers

    if "gguf_file" in common:
        _gguf_metadata_once()

    try:
        return transformers.AutoConfig.from_pretrained(source, **common)
    except Exception as exc:  # noqa: BLE001 - a truncated .gguf raises struct.error, a bad config KeyError: one line
        raise ModelError(f"cannot load model {name_or_path}: {_first_line(exc)}") from exc


def model_family(name_or_path: str, family: str | None = None, revision: str | None = None, trust_remote_code: bool = False) -> str:
    """The family ``load_model`` would give, from the config alone (no weights are read)."""
    if family is not None:
        return family
    path, gguf, source = _resolve(name_or_path)
    return detect_family(_config(source, name_or_path, _common(path, gguf, revision, trust_remote_code)))  # a .gguf too


def _remote_code_home(name_or_path: str) -> None:
    """Where transformers copies a --trust-remote-code model's Python files before it runs them: the wordbench cache
    (``hf-modules``) rather than the user's HuggingFace home, unless ``HF_MODULES_CACHE`` names a folder; said once."""
    import os

    import transformers.dynamic_module_utils as modules

    from wordbench.cache import cache_dir

    if not os.environ.get("HF_MODULES_CACHE"):
        modules.HF_MODULES_CACHE = str(cache_dir("hf-modules"))
    if name_or_path not in _REMOTE_CODE_SAID:
        _REMOTE_CODE_SAID.add(name_or_path)
        warn(f"{name_or_path}: --trust-remote-code runs the model's own Python code, copied to {modules.HF_MODULES_CACHE}")


_REMOTE_CODE_SAID: set[str] = set()


def _common(path: Path, gguf: bool, revision: str | None, trust_remote_code: bool) -> dict:
    """The from_pretrained arguments shared by the config, the tokenizer and the weights."""
    return {"revision": revision, "trust_remote_code": trust_remote_code, **({"gguf_file": path.name} if gguf else {})}


def _resolve(name_or_path: str) -> tuple[Path, bool, str]:
    """(path, gguf, source): where transformers reads the model from (a Hub id, a folder, a .gguf file's
    folder); a name that looks like a path and does not exist is an error."""
    path = Path(name_or_path).expanduser()
    if not path.exists() and _looks_like_path(name_or_path):
        raise ModelError(f"model path {name_or_path} does not exist")
    gguf = path.suffix == ".gguf"
    return path, gguf, str(path.parent if gguf else (path if path.exists() else name_or_path))


TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "vocab.json", "spiece.model", "sentencepiece.bpe.model",
                   "tokenizer.model", "source.spm", "merges.txt")
MIN_TOKENS = 5  # fewer: special tokens at most, a stand-in transformers built from nothing
HEADLESS_OK = ("pooler.",)  # weights the scorers never read: missing ones may stay initialised


@dataclass
class ModelPlan:
    """A model inspected without its weights: the family, the tokenizer and the run's ``ModelInfo`` are
    known and checked, so a run can be signed and locked before the weights load (``load()``)."""

    name_or_path: str
    family: str
    info: ModelInfo
    tokenizer: object
    config: object
    source: str
    kwargs: dict
    device: str
    dev: torch.device
    batch_size: int | str
    progress: bool
    options: dict

    @property
    def num_layers(self) -> int:
        """Transformer layers, from the config (as ``ScoringModel.num_layers`` after loading)."""
        return config_layers(self.config, self.family, self.options.get("states", "encoder"))

    @property
    def max_length(self) -> int | None:
        """Positions the model can take, from the config (as ``ScoringModel.max_length`` after loading)."""
        return config_positions(self.config)

    def load(self) -> ScoringModel:
        """Read the weights; a head the family needs that the checkpoint lacks, or token ids beyond the
        embedding, stop with one line instead of scoring a randomly initialised model."""
        import transformers

        auto_cls = {"causal": transformers.AutoModelForCausalLM, "masked": transformers.AutoModelForMaskedLM,
                    "encoder": transformers.AutoModel, "seq2seq": transformers.AutoModelForSeq2SeqLM}[self.family]
        try:
            model, loading = auto_cls.from_pretrained(self.source, output_loading_info=True, **self.kwargs)
        except Exception as exc:  # noqa: BLE001 - corrupt or untrusted files fail in many ways: one line for the user
            msg = _first_line(exc)
            if "safetensors" in msg and "use_safetensors" in self.kwargs:
                msg += " (pickle weights are refused unless --allow-pickle)"
            raise ModelError(f"cannot load {self.family} model {self.name_or_path}: {msg}") from exc
        missing = sorted(k for k in loading.get("missing_keys", ()) if not k.startswith(HEADLESS_OK))
        mismatched = sorted(str(k[0] if isinstance(k, tuple) else k) for k in loading.get("mismatched_keys", ()))
        if missing or mismatched:
            names = missing or mismatched
            hint = " (an encoder without an MLM head: --family encoder)" if self.family == "masked" else ""
            raise ModelError(f"{self.name_or_path} lacks {len(names)} weight(s) the {self.family} family needs, which would be "
                             f"randomly initialised: {', '.join(names[:4])}{' ...' if len(names) > 4 else ''}{hint}")
        rows = model.get_input_embeddings().num_embeddings if model.get_input_embeddings() is not None else None
        top = max(self.tokenizer.get_vocab().values(), default=-1)
        if rows is not None and top >= rows:
            raise ModelError(f"{self.name_or_path}: the tokenizer has ids up to {top} but the model embeds {rows} tokens: "
                             "they do not belong together")
        if self.device != "shard":
            model.to(self.dev)
        cls = {"causal": CausalLM, "masked": MaskedLM, "encoder": EncoderModel, "seq2seq": Seq2SeqLM}[self.family]
        return cls(model, self.tokenizer, self.info, model.device if self.device == "shard" else self.dev, self.batch_size,
                   self.progress, **self.options)


def _check_tokenizer_files(path: Path, name_or_path: str) -> None:
    if path.is_dir() and not any((path / f).exists() for f in TOKENIZER_FILES):
        raise ModelError(f"{name_or_path} has no tokenizer files ({', '.join(TOKENIZER_FILES[:3])}, ...): "
                         "save the tokenizer with the model (tokenizer.save_pretrained)")


def plan_model(
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
) -> ModelPlan:
    """Everything ``load_model`` checks before the weights: path, pickle, config, family (a ``.gguf`` one from its
    architecture), model options, device, dtype and a tokenizer that fits the model; reads no weights."""
    import transformers

    path, gguf, source = _resolve(name_or_path)
    local = path.exists()
    if batch_size != "auto" and not (isinstance(batch_size, int) and batch_size >= 1):
        raise ModelError(f"batch size must be auto or a positive integer, got {batch_size!r}")
    if family is not None and family not in FAMILIES:
        raise ModelError(f"unknown model family '{family}': use one of {', '.join(FAMILIES)}")

    common = _common(path, gguf, revision, trust_remote_code)
    if trust_remote_code:
        _remote_code_home(name_or_path)
    if local and path.is_dir() and not allow_pickle:
        files = {p.suffix for p in path.iterdir()}
        if ".safetensors" not in files and files & set(PICKLE_SUFFIXES):
            raise ModelError(f"{name_or_path} has only pickle weights, which can run code when loaded: pass --allow-pickle if you trust it")
    if local and not gguf:
        _check_tokenizer_files(path, name_or_path)

    config = _config(source, name_or_path, common)
    if getattr(config, "auto_map", None) and not trust_remote_code:
        warn(f"{name_or_path} ships its own modelling code (auto_map), which is not run: the built-in "
             f"{getattr(config, 'model_type', '?')} class scores it (--trust-remote-code runs its code, if you trust it)")
    family = family or detect_family(config)
    options = {k: v for k, v in (options or {}).items() if v is not None}
    if options and family != "seq2seq":
        raise ModelError(f"model options ({', '.join(sorted(options))}) apply to seq2seq models only; {name_or_path} is {family}")
    if options:  # typed by the declaration; the signature names only the options given
        declared = spec.parse(Seq2SeqOptions, options, source="--model-option")
        options = {k: getattr(declared, k) for k in options}

    dev = resolve_device("cuda" if device == "shard" else device)
    torch_dtype = resolve_dtype(dtype, dev)
    kwargs = dict(common, dtype=torch_dtype)
    if not gguf and not allow_pickle:
        kwargs["use_safetensors"] = True
    if device == "shard":
        kwargs["device_map"] = "auto"
    if dev.type == "cuda":
        kwargs["attn_implementation"] = "sdpa"
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(source, **common)
    except Exception as exc:  # noqa: BLE001 - a missing or broken tokenizer fails in many ways: one line
        raise ModelError(f"cannot load the tokenizer of {name_or_path}: {_first_line(exc)}") from exc
    if len(tokenizer) < MIN_TOKENS:
        raise ModelError(f"{name_or_path}: its tokenizer has {len(tokenizer)} token(s), which cannot spell text: "
                         "save the model's own tokenizer with it")
    vocab = getattr(config, "vocab_size", None) or getattr(getattr(config, "text_config", None), "vocab_size", None)
    top = max(tokenizer.get_vocab().values(), default=-1)
    if isinstance(vocab, int) and top >= vocab:
        raise ModelError(f"{name_or_path}: the tokenizer has ids up to {top} but the model's vocabulary has {vocab} tokens: "
                         "they do not belong together")
    version = local_model_version(path) if local else (revision or getattr(config, "_commit_hash", None) or "main")
    info = ModelInfo(_display_name(path) if local else name_or_path, version, family, SHORT.get(torch_dtype, str(torch_dtype)),
                     {"source": str(path) if local else name_or_path, "revision": revision},
                     ",".join(f"{k}={v}" for k, v in sorted(options.items())))
    return ModelPlan(name_or_path, family, info, tokenizer, config, source, kwargs, device, dev, batch_size, progress, options)


def load_model(name_or_path: str, *args, **kwargs) -> ScoringModel:
    """Load a model for scoring; one object per family with one vocabulary (see DESIGN.md). The arguments are
    ``plan_model``'s: ``family``, ``device`` (``"shard"`` spreads a model too big for one GPU over all GPUs),
    ``dtype``, ``batch_size``, ``revision``, ``trust_remote_code`` (remote code runs only when asked),
    ``allow_pickle`` (pickle checkpoints are refused otherwise), ``options`` (seq2seq: ``infill``, ``states``;
    the run signature names them) and ``progress``. ``plan_model(...).load()`` does the same in two steps."""
    return plan_model(name_or_path, *args, **kwargs).load()
