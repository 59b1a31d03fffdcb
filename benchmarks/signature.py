"""Reproducibility signatures (sacrebleu style): every setting that changes a number is named.

data: ``wnlampro@1.0.0|wordnet:3.0|freq:wordfreq-3.1.1|tok:...|seed:0|cfg:ab12cd34``
run:  ``<data sig>|split:test|limit:300|[metrics:v2|]model:NAME@REV|fam:causal|dtype:bf16|wordbench:0.1.0|transformers:4.x``
"""

from __future__ import annotations

import re
from importlib.metadata import version as pkg_version

from wordbench.spec import spec_hash as config_hash
from wordbench.builders.sources.base import SourceInfo
from wordbench.hashing import sha8

from . import __version__


def data_signature(name: str, version: str, sources: list[SourceInfo], config, paper: str = "") -> str:
    parts = [f"{name}@{version}", *(s.tag for s in sources)]
    if hasattr(config, "seed"):
        parts.append(f"seed:{config.seed}")
    if getattr(config, "faithful", False):
        parts.append(f"faithful:{paper}")
    parts.append(f"cfg:{config_hash(config)}")
    return "|".join(parts)


def library_versions() -> dict[str, str]:
    out = {"wordbench": __version__}
    for pkg in ("torch", "transformers", "datasets", "tokenizers", "nltk"):
        try:
            out[pkg] = pkg_version(pkg)
        except Exception:  # noqa: BLE001 - a missing optional package is simply not listed
            pass
    return out


def run_signature(data_sig: str, model_tag: str, settings: dict[str, object]) -> str:
    """The full run signature; ``settings`` are the scorer options that change the numbers."""
    versions = library_versions()
    parts = [data_sig, *(f"{k}:{v}" for k, v in settings.items()), model_tag]
    parts += [f"wordbench:{versions['wordbench']}", f"transformers:{versions.get('transformers', '?')}"]
    return "|".join(parts)


def short_hash(signature: str) -> str:
    return sha8(signature)


METRICS = re.compile(r"^metrics:v(\d+)$")


def metric_version(signature: str) -> int:
    """The metric version a run signature names (``metrics:vN``; none named: 1)."""
    found = [int(m.group(1)) for part in signature.split("|") if (m := METRICS.match(part))]
    return found[0] if found else 1


def with_metric_version(signature: str, version: int) -> str:
    """``signature`` naming metric version ``version`` where a fresh scoring's would: after the scorer's settings,
    before the model's tag (none for version 1)."""
    parts = [p for p in signature.split("|") if not METRICS.match(p)]
    at = next(i for i, p in enumerate(parts) if p.startswith("model:"))
    return "|".join(parts[:at] + ([f"metrics:v{version}"] if version != 1 else []) + parts[at:])


def signature_limit(signature: str) -> int | None:
    """The ``--limit`` a run's signature names (``|limit:200|``); None: every item."""
    found = re.search(r"\|limit:(\d+)(\||$)", signature)
    return int(found.group(1)) if found else None
