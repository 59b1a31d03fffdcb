"""Scores re-derived without the model: a run's metrics recomputed from its stored per-item records when a scorer's
metric version (``Scorer.metric_version``: a new statistic, a corrected formula) is newer than the run's. The new run
folder has the records, the new metrics, report and figures, and a signature naming the metric version; its summary
says which run it was re-derived from. Where the records cannot give the new metrics, one line says so."""

from __future__ import annotations

import re
import shutil
from datetime import datetime, timezone
from pathlib import Path

from wordbench.errors import ConfigError
from wordbench.scorers.base import RunContext
from wordbench.text import as_code

from .hub import load_data
from .registry import get
from .results import RunFolder, for_tables
from .scoring import precision_line, select
from .signature import metric_version, signature_limit, with_metric_version


class UpToDate(ConfigError):
    """The run is already at its scorer's current metric version."""


def rescore(run_path: Path, data: str | None = None, out: Path | None = None, progress: bool = False) -> RunFolder:
    """Re-derive the finished run at ``run_path`` at its scorer's current metric version into a new run folder (under
    ``out``, default the run's own root); returns it. Refused in one line: an unfinished run, one already at the
    current version, data other than the run's, records missing items or a field the new metrics need."""
    run = RunFolder(Path(run_path))
    if not (run.path / "summary.json").is_file():
        raise ConfigError(f"{run.path} holds no finished run (no summary.json): score it to the end first")
    summary = run.summary()
    bench = get(summary["benchmark"])
    scorer = bench.scorer(**summary.get("options", {}))
    old, new = metric_version(summary["signature"]), scorer.metric_version
    if old >= new:
        raise UpToDate(f"{run.path}: already at {bench.name}'s metric version {new}; nothing to re-derive")
    spec = data if data is not None else (None if summary["data"] == "default build" else summary["data"])
    data_sig, dataset = load_data(bench.name, spec, progress=progress, faithful=scorer.faithful)
    if not summary["signature"].startswith(data_sig + "|"):
        raise ConfigError(f"{run.path} was scored on other data than {spec or 'the default build'} ({data_sig}): give its "
                          "data with --data")
    limit = signature_limit(summary["signature"])
    config = re.search(r"\|config:([^|]+)", summary["signature"])
    config = config.group(1) if config else "default"
    rows = select(dataset, config, summary["split"], limit, scorer=scorer)
    scorer.prepare(RunContext(data=dataset, rows=tuple(rows), limit=limit,
                              faithful=scorer.faithful, paper=scorer.paper, config=config, split=summary["split"]))
    wanted = [it["id"] for it in scorer.work_items(rows)]
    have = {r["id"]: r for r in run.records()}
    missing = [i for i in wanted if i not in have]
    if missing:
        raise ConfigError(f"{run.path}: the records lack {len(missing)} of the run's {len(wanted)} items (e.g. {missing[0]}): "
                          "score it to the end first")
    records = [have[i] for i in wanted]
    try:
        metrics = scorer.summarize(records)
    except KeyError as exc:
        raise ConfigError(f"{run.path}: its stored records have no {exc.args[0]!r}, which {bench.name}'s metric version {new} "
                          "needs: score the model again") from None
    signature = with_metric_version(summary["signature"], new)
    target = RunFolder.for_run(out or run.path.parents[2], bench.name, summary["model"]["name"], signature)
    if target.path.resolve() == run.path.resolve():
        raise ConfigError(f"{run.path}: its signature does not change with the metric version")
    shutil.copyfile(run.records_path, target.records_path)
    for name in ("precision.json",):
        if (run.path / name).is_file():
            shutil.copyfile(run.path / name, target.path / name)
    at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    rescored = {**summary, "signature": signature, "metrics": metrics,
                "rescored": {"from": summary["signature"], "metric_version": new, "from_metric_version": old, "at": at,
                             "how": "metrics re-derived from the stored records; the model was not run"}}
    target.write_json("summary.json", rescored)
    plots = scorer.plots(records, rescored, target.plots_dir)
    report = scorer.report(for_tables([rescored])) + precision_line(rescored.get("precision")) + "\n"
    report += "".join(f"![{p}](plots/{p})\n" for p in plots)
    report += (f"\nRe-derived from the records of {as_code(summary['signature'])} at metric version {new} (the model was not "
               "run again).\n")
    target.write_text("report.md", report + ("" if signature in report else f"\nSignature: {as_code(signature)}\n"))
    return target
