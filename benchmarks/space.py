"""``wordbench space export``: a folder that deploys as a Hub Space running the leaderboard app over a Hub queue and
results dataset, as it is. The token comes from the Space's secrets (``HF_TOKEN``) and is never written or shown;
submitters sign in with the Hub and their Hub name is the submitter.

The folder holds this wordbench's own code (``wordbench/``, so the Space runs what was exported, with nothing to
publish first), ``app.py``, and ``requirements.txt``: a lock, every package the code needs pinned to the version that
runs here (what ``make test`` ran), with torch's CPU build (the page scores nothing; a plain ``torch`` pin would pull
several GB of CUDA packages)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from wordbench.errors import ConfigError

from . import __version__

REPO = re.compile(r"^hf:[A-Za-z0-9][\w.-]*/[\w.-]+$")
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
SUBPACKAGES = ("wordbench", "wordbench.builders", "wordbench.benchmarks", "wordbench.scorers")

APP = '''"""The wordbench leaderboard Space (written by wordbench space export, wordbench {version})."""

import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

from wordbench.benchmarks.app import build_app, launch  # noqa: E402 - the wordbench/ folder beside this file

# HF_TOKEN: a Space secret with write access to both repositories; it is never shown.
demo = build_app({queue!r}, {results!r}, token=os.environ.get("HF_TOKEN"), hub_login=True)
launch(demo)
'''

README = '''---
title: {title}
emoji: 📊
colorFrom: indigo
colorTo: gray
sdk: gradio
sdk_version: {gradio}
python_version: "{python}"
app_file: app.py
pinned: false
hf_oauth: true
---

# {title}

Word-level benchmarks of language models (wordbench {version}, whose code is in `wordbench/`). Submit a model (sign
in with the Hub first), follow its request in the Queue tab, read its scores in the Leaderboard tab.

Requests: `{queue}`. Results: `{results}`. Workers score the queue with
`wordbench worker --queue {queue} --results {results}`.

Set `HF_TOKEN` in the Space's secrets: a token with write access to both dataset repositories.
'''


def locked_requirements(roots: tuple[str, ...] = ("wordbench[space]",)) -> list[str]:
    """``NAME==VERSION`` for every installed distribution ``roots`` need (their requirements and those of each, with
    the extras asked for, markers evaluated on this machine), wordbench itself left out; torch pinned to its CPU
    build. One line naming the package where something needed is not installed."""
    from importlib.metadata import PackageNotFoundError, distribution

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins: dict[str, str] = {}
    seen: set[tuple[str, frozenset]] = set()
    todo = [(Requirement(r), None) for r in roots]
    while todo:
        req, wanted_by = todo.pop()
        name = canonicalize_name(req.name)
        key = (name, frozenset(req.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = distribution(req.name)
        except PackageNotFoundError:
            raise ConfigError(f"{req.name} (needed by {wanted_by or 'the Space'}) is not installed here, so the Space's "
                              f"requirements cannot be locked: pip install '{req}'") from None
        if name != "wordbench":
            pins[name] = dist.version
        for text in dist.requires or []:
            sub = Requirement(text)
            extras = req.extras or {""}
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in extras):
                todo.append((sub, name))
    lines = []
    for name, version in sorted(pins.items()):
        if name == "torch":
            version = version if "+" in version else f"{version}+cpu"
        lines.append(f"{name}=={version}")
    return lines


def copy_package(out: Path) -> Path:
    """This wordbench's code (core and its three layers, with their data files) as one ``wordbench/`` package under
    ``out``, laid out as it is installed."""
    import importlib

    target = out / "wordbench"
    for name in SUBPACKAGES:
        source = Path(importlib.import_module(name).__path__[0])
        dest = target.joinpath(*name.split(".")[1:])
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "tests"), dirs_exist_ok=True)
    return target


def export_space(queue: str, results: str, out: Path, title: str = "wordbench leaderboard") -> list[Path]:
    """Write app.py, requirements.txt (a lock of what runs here), README.md (the Space's front matter) and the
    ``wordbench/`` code beside them."""
    for flag, spec in (("--queue", queue), ("--results", results)):
        if not REPO.match(spec):
            raise ConfigError(f"{flag} {spec}: a Space reads Hub repositories; give hf:ORG/NAME")
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError(f"--out {out} exists and is not an empty folder: choose a new or empty folder")
    if "\n" in title or not title.strip():
        raise ConfigError("--title is one non-empty line")
    from importlib.metadata import version

    try:
        gradio = version("gradio")
    except Exception:  # noqa: BLE001 - a one-line error, not a Space that cannot start
        raise ConfigError("the Space runs the leaderboard app: pip install 'wordbench[space]' before exporting it") from None
    lock = locked_requirements()
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    out.mkdir(parents=True, exist_ok=True)
    requirements = (f"# wordbench {__version__}'s Space: every package pinned to what ran where it was exported (Python {python})\n"
                    f"--extra-index-url {TORCH_CPU_INDEX}\n" + "\n".join(lock) + "\n")
    files = {"app.py": APP.format(queue=queue, results=results, version=__version__),
             "requirements.txt": requirements,
             "README.md": README.format(title=title.strip().replace(":", " -"), gradio=gradio, python=python, version=__version__,
                                        queue=queue, results=results)}
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return [out / name for name in files] + [copy_package(out)]
