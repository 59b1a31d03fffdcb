"""``wordbench space export``: a folder that deploys as a Hub Space running the leaderboard app over a Hub queue and
results dataset. The token comes from the Space's secrets (``HF_TOKEN``) and is never written or shown; submitters
sign in with the Hub and their Hub name is the submitter."""

from __future__ import annotations

import re
from pathlib import Path

from wordbench.errors import ConfigError

from . import __version__

REPO = re.compile(r"^hf:[A-Za-z0-9][\w.-]*/[\w.-]+$")
GRADIO = "gradio[oauth]>=5.0,<6"  # pyproject's space extra, with what Hub sign-in needs

APP = '''"""The wordbench leaderboard Space (written by wordbench space export)."""

import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

from wordbench.benchmarks.app import build_app, launch  # noqa: E402

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
app_file: app.py
pinned: false
hf_oauth: true
---

# {title}

Word-level benchmarks of language models ([wordbench](https://pypi.org/project/wordbench/) {version}). Submit a model
(sign in with the Hub first), follow its request in the Queue tab, read its scores in the Leaderboard tab.

Requests: `{queue}`. Results: `{results}`. Workers score the queue with
`wordbench worker --queue {queue} --results {results}`.

Set `HF_TOKEN` in the Space's secrets: a token with write access to both dataset repositories.
'''


def export_space(queue: str, results: str, out: Path, title: str = "wordbench leaderboard") -> list[Path]:
    """Write app.py, requirements.txt (wordbench pinned to this version) and README.md (the Space's front matter)."""
    for flag, spec in (("--queue", queue), ("--results", results)):
        if not REPO.match(spec):
            raise ConfigError(f"{flag} {spec}: a Space reads Hub repositories; give hf:ORG/NAME")
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError(f"--out {out} exists and is not an empty folder: choose a new or empty folder")
    if "\n" in title or not title.strip():
        raise ConfigError("--title is one non-empty line")
    try:
        from importlib.metadata import version

        gradio = version("gradio")
    except Exception:  # noqa: BLE001 - not installed here: the extra's lowest version
        gradio = "5.0.0"
    out.mkdir(parents=True, exist_ok=True)
    files = {"app.py": APP.format(queue=queue, results=results),
             "requirements.txt": f"wordbench[space]=={__version__}\n{GRADIO}\n",
             "README.md": README.format(title=title.strip().replace(":", " -"), gradio=gradio, version=__version__, queue=queue,
                                        results=results)}
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return [out / name for name in files]
