"""Admission of a submitted model, before anything is queued: each check that fails is one line.

The model must resolve (config and tokenizer, no weights read); its revision is pinned (a Hub commit; a local
model's content hash); its family is detected; its weights are safetensors or GGUF (pickle only where the queue's
settings allow it); it runs no code of its own; its parameters are under the queue's limit; and the same model
identity, dtype and suite versions is not already queued or finished."""

from __future__ import annotations

import getpass
import json
import struct
from math import prod
from pathlib import Path

from wordbench.errors import ConfigError
from wordbench.identity import PICKLE_SUFFIXES, local_model_version
from wordbench.scorers.models import ModelError, plan_model

from .queue import Queue, Request, new_id, now_iso
from .registry import get
from .suite import parse_names


def admit(model: str, queue: Queue, dtype: str | None = None, submitter: str | None = None, revision: str | None = None,
          token: str | None = None) -> Request:
    """Check ``model`` against the queue's settings and add its PENDING request; returns it."""
    settings = queue.settings()
    dtype = dtype or settings["dtype"]
    if dtype not in ("float32", "bfloat16", "float16"):
        raise ConfigError(f"--dtype {dtype}: a submission computes in float32, bfloat16 or float16")
    path = Path(model).expanduser()
    local = path.exists()
    plan = plan_model(str(path.resolve()) if local else model, device="cpu", dtype=dtype, revision=revision,
                      allow_pickle=bool(settings["allow_pickle"]))  # resolves, reads config and tokenizer, detects the family
    if getattr(plan.config, "auto_map", None):
        raise ModelError(f"{model} ships its own modelling code (auto_map in its config): submissions run no remote code")
    if local:
        pinned, params = local_model_version(path), local_parameters(path, bool(settings["allow_pickle"]))
    else:
        pinned, params = hub_pin(model, revision, bool(settings["allow_pickle"]), token)
    if params is not None and params > int(settings["max_params"]):
        raise ModelError(f"{model} has {params:,} parameters; this queue takes at most {int(settings['max_params']):,}")
    suite = {name: get(name).version for name in parse_names(settings["suite"])}
    request = Request(id=new_id(model), model=str(path.resolve()) if local else model, revision=pinned, dtype=dtype,
                      family=plan.family, submitter=submitter or getpass.getuser(), submitted=now_iso(), suite=suite,
                      profile=settings["profile"], params=params)
    return queue.add(request)


def local_parameters(path: Path, allow_pickle: bool) -> int | None:
    """Parameters of a local model from its safetensors headers or GGUF tensor table (no weights read); a folder with
    neither is refused (pickle weights only where ``allow_pickle``; then the count is unknown)."""
    if path.is_file() and path.suffix == ".gguf":
        from gguf import GGUFReader

        return int(sum(int(t.n_elements) for t in GGUFReader(str(path)).tensors))
    weights = sorted(path.glob("*.safetensors"))
    if weights:
        return sum(safetensors_parameters(f) for f in weights)
    if allow_pickle and any(p.suffix in PICKLE_SUFFIXES for p in path.iterdir()):
        return None
    raise ModelError(f"{path} has no safetensors or GGUF weights: submissions take those (pickle only where the queue allows it)")


def safetensors_parameters(file: Path) -> int:
    """The number of values in a safetensors file, from its JSON header."""
    with open(file, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
    return sum(prod(t["shape"]) for name, t in header.items() if name != "__metadata__")


def hub_pin(model: str, revision: str | None, allow_pickle: bool, token: str | None) -> tuple[str, int | None]:
    """(commit, parameters) of a Hub model at ``revision``: the commit the revision resolves to now, so later pushes
    to the repository are not what gets scored."""
    from huggingface_hub import HfApi

    try:
        info = HfApi(token=token).model_info(model, revision=revision, files_metadata=False)
    except Exception as exc:  # noqa: BLE001 - offline, private, missing: one line
        raise ModelError(f"cannot pin {model}@{revision or 'main'} on the Hub: {str(exc).splitlines()[0]}") from None
    names = [s.rfilename for s in info.siblings or []]
    if not any(n.endswith((".safetensors", ".gguf")) for n in names) and not allow_pickle:
        raise ModelError(f"{model} has no safetensors or GGUF weights on the Hub: submissions take those (pickle only where the queue allows it)")
    total = getattr(getattr(info, "safetensors", None), "total", None)
    return info.sha, total
