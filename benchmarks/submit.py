"""Admission of a submitted model, before anything is queued: each check that fails is one line.

The model must resolve (config and tokenizer, no weights read); its revision is pinned (a Hub commit; a local
model's content hash); its family is detected; its weights are safetensors or GGUF (pickle only where the queue's
settings allow it); it ships no code of its own (no Python file, no ``auto_map`` in any config, no class transformers
does not define); its parameters are under the queue's limit; and the same model
content (weights, config and tokenizer, wherever they lie), dtype and suite versions is not already queued or finished.
A worker checks a claimed request again (``readmit``) before it scores it."""

from __future__ import annotations

import getpass
import json
import struct
from math import prod
from pathlib import Path

from wordbench.errors import ConfigError, WordbenchError
from wordbench.identity import PICKLE_SUFFIXES, gguf_header, local_model_version
from wordbench.scorers.models import ModelError, plan_model
from wordbench.text import typed_line

from .hubfaults import hub_errors, hub_fault
from .queue import DTYPES, SETTINGS_FILE, Queue, Request, Task, new_id, now_iso
from .registry import get
from .suite import parse_names


MODEL_CAP, REVISION_CAP, SUBMITTER_CAP = 500, 200, 64  # characters of what a submitter types


def admit(model: str, queue: Queue, dtype: str | None = None, submitter: str | None = None, revision: str | None = None,
          token: str | None = None, step=None, split: bool | None = None) -> Request:
    """Check ``model`` against the queue's settings and add its PENDING request; returns it. What the submitter typed
    is one line each, capped, with no invisible character; ``step(line)`` hears each check as it starts. ``split``
    (default: the queue's setting) makes each benchmark a task of its own, for several workers at once."""
    step = step or (lambda line: None)
    model = typed_line(model, "the model", MODEL_CAP)
    if not model:
        raise ConfigError("give a model: a Hub id (ORG/NAME)")
    submitter = typed_line(submitter if submitter is not None else getpass.getuser(), "the submitter", SUBMITTER_CAP)
    if not submitter:
        raise ConfigError("give the submitter's name: each submitter may have a limited number of pending requests")
    revision = typed_line(revision, "the revision", REVISION_CAP) or None
    step("reading the queue's settings")
    settings = queue.settings()
    check_queue_data(settings, step)
    checked = examine(model, settings, dtype, revision, token, step)
    step("adding the request")
    split = bool(settings["split"]) if split is None else split
    tasks = {name: Task() for name in checked["suite"]} if split else {}
    request = Request(id=new_id(model), submitter=submitter, submitted=now_iso(), tasks=tasks, **checked)
    return queue.add(request)


def check_queue_data(settings: dict, step=None) -> None:
    """The data the queue's settings give its benchmarks, read and checked against their schemas (by content, as a
    worker would read it), so a submission is refused now rather than failed after its model loads."""
    from .hub import load_data

    for name, spec in sorted(settings["data"].items()):
        if step:
            step(f"checking the queue's {name} data")
        try:
            load_data(name, spec, progress=False)
        except WordbenchError as exc:
            raise ConfigError(f"this queue's data for {name} ({spec}) cannot be scored, so nothing is queued: {exc}") from None


def examine(model: str, settings: dict, dtype: str | None = None, revision: str | None = None, token: str | None = None,
            step=None) -> dict:
    """Every admission check of ``model`` under the queue's ``settings``, each failure one line; returns the request's
    fields that the checks decide (model, pinned revision, dtype, family, params, suite versions, profile).
    ``step(line)`` hears each check as it starts."""
    step = step or (lambda line: None)
    dtype = dtype or settings["dtype"]
    if dtype not in DTYPES:
        raise ConfigError(f"--dtype {dtype}: a submission computes in {', '.join(DTYPES)}")
    path = Path(model).expanduser()
    local = path.exists()
    if local and revision is not None:
        raise ConfigError(f"a revision ({revision}) names a Hub commit; {model} is a local model, pinned by the hash of its "
                          "files: leave the revision out")
    allow_pickle = bool(settings["allow_pickle"])
    if local:  # code of its own is looked for first: nothing of such a model (not even its tokenizer) is loaded
        step("looking for code of its own")
        refuse_code(model, own_code(model, [p.name for p in path.iterdir()] if path.is_dir() else [],
                                    lambda name: (path / name).read_text("utf-8")))
        if path.is_dir() and not allow_pickle and not any(p.suffix in (".safetensors", ".gguf") for p in path.iterdir()) \
                and any(p.suffix in PICKLE_SUFFIXES for p in path.iterdir()):
            raise ModelError(f"{model} has only pickle weights, which can run code when loaded: this queue refuses them "
                             f"(its allow_pickle setting, in {SETTINGS_FILE}, is false)")
    step("reading its config and tokenizer")
    plan = plan_model(str(path.resolve()) if local else model, device="cpu", dtype=dtype, revision=revision,
                      allow_pickle=allow_pickle)  # resolves, reads config and tokenizer, detects the family
    if local:
        step("hashing its files (its pinned revision) and counting its parameters")
        pinned, params = local_model_version(path), local_parameters(path, allow_pickle)
    else:  # a Hub model's files are listed at the commit it is pinned to
        step("pinning its revision on the Hub")
        pinned, params, names = hub_pin(model, revision, allow_pickle, token)
        refuse_code(model, own_code(model, names, lambda name: _hub_text(model, name, pinned, token)))
    if params is not None and params > int(settings["max_params"]):
        raise ModelError(f"{model} has {params:,} parameters; this queue takes at most {int(settings['max_params']):,}")
    suite = {name: get(name).version for name in parse_names(settings["suite"])}
    return {"model": str(path.resolve()) if local else model, "revision": pinned, "dtype": dtype, "family": plan.family,
            "params": params, "suite": suite, "profile": settings["profile"]}


def readmit(request: Request, settings: dict, token: str | None = None) -> None:
    """A claimed request checked again before it is scored, as ``admit`` checks a submission (so a request written by
    hand or by an older wordbench skips nothing): the same checks, the same model content and family, and the suite
    versions and profile this wordbench and queue score now. Each failure is one line."""
    current = {name: get(name).version for name in parse_names(settings["suite"])}
    if request.suite != current:
        old = ", ".join(f"{k}@{v}" for k, v in sorted(request.suite.items()))
        new = ", ".join(f"{k}@{v}" for k, v in sorted(current.items()))
        raise ConfigError(f"request {request.id} names the suite {old}, but this queue now scores {new}: submit the model again")
    if request.profile != settings["profile"]:
        raise ConfigError(f"request {request.id} asks for profile {request.profile}; this queue scores {settings['profile']}: "
                          "submit the model again")
    local = Path(request.model).exists()
    checked = examine(request.model, settings, request.dtype, None if local else request.revision, token)
    if checked["revision"] != request.revision:
        raise ModelError(f"{request.model} changed since it was submitted (now {checked['revision']}, pinned {request.revision}): "
                         "submit it again")
    if checked["family"] != request.family:
        raise ModelError(f"{request.model} is a {checked['family']} model, not {request.family} as its request says: submit it again")
    if request.params is not None and checked["params"] != request.params:
        raise ModelError(f"{request.model} has {checked['params']} parameters, not {request.params} as its request says: submit it again")


CODE_KEYS = ("auto_map", "custom_pipelines")  # what makes transformers import a repository's own Python
CONFIG_FILES = ("config.json", "tokenizer_config.json", "processor_config.json", "preprocessor_config.json",
                "feature_extractor_config.json", "image_processor_config.json", "generation_config.json")


def own_code(model: str, names: list[str], read) -> str | None:
    """Why ``model`` (whose files are ``names``, read by ``read(name) -> text``) ships code of its own, or None: a
    Python file, an ``auto_map`` or ``custom_pipelines`` in any config, or a class transformers does not define (a
    tokenizer class, an architecture)."""
    import transformers

    python = sorted(n for n in names if n.endswith(".py"))
    if python:
        return f"Python file(s) {', '.join(python[:3])}"
    for name in CONFIG_FILES:
        if name not in names:
            continue
        try:
            config = json.loads(read(name))
        except (OSError, ValueError) as exc:
            raise ModelError(f"{model}: {name} cannot be read ({exc})") from None
        if not isinstance(config, dict):
            raise ModelError(f"{model}: {name} is not a JSON object")
        for key in CODE_KEYS:
            if config.get(key):
                return f"{key} in {name}"
        classes = [config.get("tokenizer_class")] if name == "tokenizer_config.json" else []
        classes += list(config.get("architectures") or []) if name == "config.json" else []
        unknown = [c for c in classes if isinstance(c, str) and not hasattr(transformers, c) and not hasattr(transformers, c + "Fast")
                   and not hasattr(transformers, c.removesuffix("Fast"))]
        if unknown or any(c is not None and not isinstance(c, str) for c in classes):
            return f"class {unknown[0] if unknown else classes} in {name}, which transformers does not define"
    return None


def refuse_code(model: str, code: str | None) -> None:
    if code:
        raise ModelError(f"{model} ships code of its own ({code}): submissions run no remote code")


def _hub_text(model: str, name: str, revision: str, token: str | None) -> str:
    from huggingface_hub import hf_hub_download

    with hub_errors(f"reading {name} of {model}@{revision}", token):
        return Path(hf_hub_download(model, name, revision=revision, token=token)).read_text(encoding="utf-8")


def local_parameters(path: Path, allow_pickle: bool) -> int | None:
    """Parameters of a local model from its safetensors headers or GGUF tensor table (no weights read); a folder with
    neither is refused (pickle weights only where ``allow_pickle``; then the count is unknown)."""
    if path.is_file() and path.suffix == ".gguf":
        return sum(n for _, n, _ in gguf_header(path)[1])
    weights = sorted(path.glob("*.safetensors"))
    if weights:
        return sum(safetensors_parameters(f) for f in weights)
    if allow_pickle and any(p.suffix in PICKLE_SUFFIXES for p in path.iterdir()):
        return None
    raise ModelError(f"{path} has no safetensors or GGUF weights: submissions take those (pickle only where the queue's allow_pickle setting, in queue.json, is true)")


def safetensors_parameters(file: Path) -> int:
    """The number of values in a safetensors file, from its JSON header."""
    with open(file, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
    return sum(prod(t["shape"]) for name, t in header.items() if name != "__metadata__")


def hub_pin(model: str, revision: str | None, allow_pickle: bool, token: str | None) -> tuple[str, int | None, list[str]]:
    """(commit, parameters, file names) of a Hub model at ``revision``: the commit the revision resolves to now, so later pushes
    to the repository are not what gets scored."""
    from huggingface_hub import HfApi

    try:
        info = HfApi(token=token).model_info(model, revision=revision, files_metadata=False)
    except Exception as exc:  # noqa: BLE001 - offline, private, missing: one line
        raise hub_fault(f"pinning {model}@{revision or 'main'} on the Hub", exc, token) from None
    names = [s.rfilename for s in info.siblings or []]
    if not any(n.endswith((".safetensors", ".gguf")) for n in names) and not allow_pickle:
        raise ModelError(f"{model} has no safetensors or GGUF weights on the Hub: submissions take those (pickle only where the queue's allow_pickle setting, in queue.json, is true)")
    total = getattr(getattr(info, "safetensors", None), "total", None)
    return info.sha, total, names
