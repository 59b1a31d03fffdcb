"""Runs collected into one results dataset, a leaderboard that grows with every published run: ``collect`` writes the
results folder (``results_folder``), records the submission (``submissions``) and regenerates the card and the static
page (``board_page``, ranked by ``ranking``) from the stored summaries. A run published again (same signature)
replaces its rows.
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

from .board_page import (
    card,
    leaderboard_html,
    leaderboard_markdown,
    submissions_markdown,
)
from .results import RunFolder
from .results_folder import (
    DETAIL_FEATURES,
    MARKER,
    RESULT_FEATURES,
    read_config,
    write_config,
    check_results_folder,
    check_summary,
    detail_rows,
    result_rows,
    stored_summaries,
)
from .submissions import record_submission


def collect(runs: list[Path], folder: Path, records: bool = True, repo_id: str | None = None, submission: dict | None = None) -> dict:
    """Add ``runs`` to the results folder (replacing the rows of a run published before), rewrite its card;
    returns counts of what it holds. ``submission``: the entry of the request they score (``record_submission``)."""
    folder = Path(folder)
    check_results_folder(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).write_text(json.dumps({"kind": "wordbench-results"}) + "\n")
    if submission:
        record_submission(folder, submission)
    unique = {}
    for run in (RunFolder(Path(p)) for p in runs):
        s = run.summary()  # one-line error: not a finished run
        check_summary(s, run.path / "summary.json")
        unique[(s["benchmark"], run.path.parent.name, run.path.name)] = (run, s)  # a run given twice is stored once
    new = list(unique.values())
    today = date.today().isoformat()
    replaced = {run.path.name for run, _ in new}
    results = [r for r in read_config(folder, "results") if r["run"] not in replaced]
    details = [r for r in read_config(folder, "details") if r["run"] not in replaced]
    for run, s in new:
        results += result_rows(run, s, today)
        if records:
            details += detail_rows(run, s)
        dest = folder / "runs" / s["benchmark"] / run.path.parent.name / run.path.name
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        for name in ("summary.json", "report.md", "signature.txt"):
            if (run.path / name).is_file():
                shutil.copy2(run.path / name, dest / name)
        if (run.path / "plots").is_dir():
            shutil.copytree(run.path / "plots", dest / "plots")
    results.sort(key=lambda r: (r["benchmark"], r["model"], r["run"], r["metric"]))
    details.sort(key=lambda r: (r["benchmark"], r["model"], r["run"], r["id"]))
    write_config(folder, "results", results, RESULT_FEATURES)
    write_config(folder, "details", details, DETAIL_FEATURES, by_model=True)
    summaries = stored_summaries(folder)
    (folder / "README.md").write_text(card(summaries, repo_id, submissions_markdown(folder)))
    (folder / "leaderboard.md").write_text(submissions_markdown(folder) + leaderboard_markdown(summaries))
    (folder / "leaderboard.html").write_text(leaderboard_html(folder, summaries))
    return {"runs": len(summaries), "models": len({s["model"]["name"] for s in summaries}), "result_rows": len(results),
            "detail_rows": len(details)}
