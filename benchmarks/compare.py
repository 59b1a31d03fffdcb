"""Two models side by side on one benchmark, from a results folder: both headlines with their intervals, the
difference with its interval, and the items where their per-item decisions differ.

The difference's interval is a paired bootstrap over the items both runs scored, where the headline is a mean over
items (the scorer's ``headline_value``, checked against the published headline), since one item's two values are
not independent; otherwise it is built from the two headline intervals (MOVER, Zou & Donner 2008), which treats
the runs as independent.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from wordbench.errors import ConfigError

from .registry import get
from .results_folder import read_config, stored_runs
from .signature import metric_version

SHOWN = 50  # disagreeing items listed at most


def _run_of(folder: Path, benchmark: str, model: str) -> tuple[str, dict]:
    """(run name, summary) of ``model``'s run of ``benchmark``: the newest metric version, then the last published."""
    runs = [(path.parent.name, s) for path, s in stored_runs(folder)[0] if s["benchmark"] == benchmark and s["model"]["name"] == model]
    if not runs:
        raise ConfigError(f"{folder} holds no run of {benchmark} by {model}")
    return max(runs, key=lambda r: (metric_version(r[1]["signature"]), r[1].get("published", ""), r[0]))


def _records(rows: list[dict], benchmark: str, model: str, run: str) -> dict[str, dict]:
    return {r["id"]: json.loads(r["record"]) for r in rows if (r["benchmark"], r["model"], r["run"]) == (benchmark, model, run)}


def _mover(a: float, ci_a, b: float, ci_b) -> tuple[float, float] | None:
    """The interval of a - b from the two intervals (Zou & Donner 2008's method of variance estimates recovery)."""
    if not ci_a or not ci_b:
        return None
    d = a - b
    return (d - float(np.hypot(a - ci_a[0], ci_b[1] - b)), d + float(np.hypot(ci_a[1] - a, b - ci_b[0])))


def compare(folder: Path, benchmark: str, first: str, second: str, seed: int = 0) -> dict:
    """The comparison of models ``first`` and ``second`` on ``benchmark`` (model names as the results folder holds them)."""
    from wordbench.scorers.stats import paired_difference_ci

    bench = get(benchmark)
    if bench.headline is None:
        raise ConfigError(f"{benchmark} has no headline to compare")
    (run_a, s_a), (run_b, s_b) = _run_of(folder, benchmark, first), _run_of(folder, benchmark, second)
    (va, ci_a), (vb, ci_b) = bench.headline.read(s_a["metrics"]), bench.headline.read(s_b["metrics"])
    out = {"benchmark": benchmark, "label": bench.headline.label, "higher_is_better": bench.headline.higher_is_better,
           "models": [{"name": first, "run": run_a, "value": va, "ci": ci_a}, {"name": second, "run": run_b, "value": vb, "ci": ci_b}],
           "difference": None if va is None or vb is None else va - vb, "interval": None, "method": None, "shared": 0,
           "disagree": [], "disagreeing": 0}
    rows = read_config(folder, "details")
    rec_a, rec_b = _records(rows, benchmark, first, run_a), _records(rows, benchmark, second, run_b)
    shared = sorted(set(rec_a) & set(rec_b))
    out["shared"] = len(shared)
    same_options = s_a.get("options", {}) == s_b.get("options", {})
    scorer = bench.scorer(**s_a.get("options", {}))
    paired = None
    if shared and same_options:
        def values(records):
            return np.array([np.nan if (v := scorer.headline_value(r)) is None else v for r in records], dtype=float)

        whole_a, whole_b = values(rec_a.values()), values(rec_b.values())
        means_headline = all(v is not None and np.isfinite(w).any() and abs(np.nanmean(w) - v) < 1e-3
                             for w, v in ((whole_a, va), (whole_b, vb)))
        if means_headline:
            a, b = values([rec_a[i] for i in shared]), values([rec_b[i] for i in shared])
            counted = np.isfinite(a) & np.isfinite(b)
            if counted.sum() > 1:
                paired = (float(a[counted].mean() - b[counted].mean()), paired_difference_ci(a[counted], b[counted], seed=seed),
                          int(counted.sum()))
    if paired is not None:
        out["difference"], out["interval"] = paired[0], tuple(paired[1])
        out["method"] = f"paired bootstrap over the {paired[2]:,} items both runs scored (the difference of their means on those)"
    elif out["difference"] is not None:
        out["interval"] = _mover(va, ci_a, vb, ci_b)
        why = "the runs used different options" if not same_options else "the headline is no mean over items" if shared else "no item in common"
        out["method"] = f"from the two headline intervals (MOVER, Zou & Donner 2008; {why})" if out["interval"] else f"no interval ({why})"
    if same_options:
        decided = {i: (scorer.decision(rec_a[i]), scorer.decision(rec_b[i])) for i in shared}
        differ = [i for i in shared if decided[i][0] is not None and decided[i][0] != decided[i][1]]
        out["disagreeing"] = len(differ)
        out["disagree"] = [{"id": i, first: decided[i][0], second: decided[i][1]} for i in differ[:SHOWN]]
    return out


def compare_markdown(result: dict) -> str:
    """The comparison as Markdown: the headlines, the difference, the disagreeing items."""
    from wordbench.text import as_markdown

    (a, b), fmt = result["models"], lambda v: "–" if v is None else f"{v:.4g}"  # noqa: E731
    na, nb = as_markdown(a["name"]), as_markdown(b["name"])  # names a submitter typed: the one escaping rule
    ci = lambda c: f" [{c[0]:.3g}, {c[1]:.3g}]" if c else ""  # noqa: E731
    lines = [f"### {result['benchmark']}: {result['label']}", "", f"| model | {result['label']} |", "|---|---|",
             f"| {na} | {fmt(a['value'])}{ci(a['ci'])} |", f"| {nb} | {fmt(b['value'])}{ci(b['ci'])} |", ""]
    if result["difference"] is not None:
        separated = result["interval"] is not None and (result["interval"][0] > 0 or result["interval"][1] < 0)
        lines.append(f"{na} - {nb}: **{result['difference']:+.4g}**{ci(result['interval'])}, {result['method']}: "
                     + ("the interval excludes 0." if separated else "the interval holds 0: no difference shown." if result["interval"] else ""))
    if result["disagree"]:
        lines += ["", f"They decide differently on {result['disagreeing']:,} of {result['shared']:,} shared items"
                  + (f" (the first {len(result['disagree'])}):" if result["disagreeing"] > len(result["disagree"]) else ":"), "",
                  f"| item | {na} | {nb} |", "|---|---|---|"]
        lines += [f"| {as_markdown(str(d['id']))} | {as_markdown(str(d[a['name']]))} | {as_markdown(str(d[b['name']]))} |" for d in result["disagree"]]
    elif result["shared"]:
        lines += ["", f"They decide alike on all {result['shared']:,} shared items."]
    return "\n".join(lines) + "\n"
