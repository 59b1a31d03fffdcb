"""The submissions store of a results folder: per model identity, what its request said (dtype, weights, cost,
submitter) and why benchmarks were skipped, one JSON file each under ``submissions/``."""

from __future__ import annotations

import json
from pathlib import Path

from wordbench.errors import warn

from .results_folder import stored_runs

# The leaderboard table shared by the static page and the app: one row per model identity, with why a cell is empty.
SUBMISSIONS_DIR = "submissions"  # per model identity: what its request said and why benchmarks were skipped


def record_submission(folder: Path, entry: dict) -> None:
    """Store what the leaderboard knows of a scored submission beside its runs: the model identity as its summaries
    name it (model, version, dtype), family, parameters, submission date, the weights' precision, the profile, the
    request id, and each skipped benchmark's reason."""
    from wordbench.files import write_output
    from wordbench.hashing import sha8

    key = f"{entry['model']}|{entry['version']}|{entry['dtype']}"
    (Path(folder) / SUBMISSIONS_DIR).mkdir(parents=True, exist_ok=True)
    write_output(Path(folder) / SUBMISSIONS_DIR / f"{slug_of(entry['model'])}-{sha8(key)}.json",
                 json.dumps(entry, indent=1, sort_keys=True) + "\n", "results")


def slug_of(name: str) -> str:
    from .results import slug

    return slug(name)


def read_submissions(folder: Path) -> tuple[dict[tuple, dict], list[str]]:
    """(the stored submission entries by (model, version, dtype), one line naming each file that is no entry)."""
    out, damaged = {}, []
    for path in sorted((Path(folder) / SUBMISSIONS_DIR).glob("*.json")):
        try:
            e = json.loads(path.read_text(encoding="utf-8"))
            out[(e["model"], e["version"], e["dtype"])] = e
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            damaged.append(f"{path}: not a submission entry ({type(exc).__name__}: {str(exc)[:120]}); its model's weights, "
                           "parameters and date are unknown until it is published again")
    return out, damaged


def stored_submissions(folder: Path) -> dict[tuple, dict]:
    """The stored submission entries by (model, version, dtype); an unreadable one is left out with a warning."""
    out, damaged = read_submissions(folder)
    for line in damaged:
        warn(line)
    return out


def damaged_files(folder: Path) -> list[str]:
    """One line naming each file of the results folder that cannot be read (a run's summary, a submission entry), so
    a page shows it as damaged rather than as something never published."""
    return stored_runs(folder)[1] + read_submissions(folder)[1]
