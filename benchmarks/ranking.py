"""The leaderboard's rows and ranks, shared by the static page and the app: one row per model identity with each
benchmark's headline, its interval and its rank group (models whose intervals overlap share a rank), and why a cell
is empty."""

from __future__ import annotations

from pathlib import Path

from .registry import get
from .results_folder import list_order, read_runs, stored_summaries, submission_rows
from .submissions import read_submissions, slug_of


def cell_text(cell: dict | None) -> str:
    if not cell or cell["value"] is None:
        return "–"
    text = f"{cell['value']:.4g}" + (f" [{cell['ci'][0]:.3g}, {cell['ci'][1]:.3g}]" if cell["ci"] else "")
    if cell["profile"] is None:
        text += " † " + ", ".join(f"{k}={v}" for k, v in sorted(cell["options"].items()))
    return text


RANKS_TEXT = ("Ranks are rank groups, not a strict order: in each benchmark a model's rank is 1 + the number of models whose "
              "headline interval lies wholly above its own (below, where lower is better), so models whose intervals overlap "
              "share a group, shown as =N. The overall rank orders models by the mean of their groups over the benchmarks "
              "they have; equal means share a rank.")
SHORT_DTYPES = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}  # a request's dtype as run summaries name it


def profile_text(name: str | None, names: list[str]) -> str:
    """A submission profile as readers see it: its name and its limits on ``names`` (``quick (at most 200 items)``)."""
    if not name:
        return "no profile"
    limits = sorted({get(b).profile(name).limit for b in names if name in dict(get(b).profiles)} - {None})
    if not limits:
        return f"{name} (every item)"
    span = f"{limits[0]}" if len(limits) == 1 else f"{limits[0]}-{limits[-1]}"
    return f"{name} (at most {span} items per benchmark)"


def separated_ranks(values: list[tuple[int, float, tuple | None]], higher: bool) -> dict[int, int]:
    """Ranks that claim no order the intervals do not show: a row's rank is 1 + the number of rows clearly better
    than it, clearly meaning that the two headline intervals do not overlap (without an interval, a strictly better
    value). Rows whose intervals overlap share a rank group (1, 1, 3: the third is clearly behind both)."""
    def better(a, b):  # a clearly better than b
        (_, va, ca), (_, vb, cb) = a, b
        if ca is None or cb is None:
            return va > vb if higher else va < vb
        return ca[0] > cb[1] if higher else ca[1] < cb[0]

    return {v[0]: 1 + sum(better(w, v) for w in values if w is not v) for v in values}


def board_profiles(names: list[str], rows: list[dict]) -> str:
    """The profiles of the rows, each with its limits (``quick (at most 200 items per benchmark)``)."""
    return "; ".join(p if "†" in p or "," in p else profile_text(p, names) for p in sorted({r["profile"] for r in rows}))


def _ranked(values: list[tuple[int, float]], higher: bool) -> dict[int, int]:
    """Competition ranks (1, 2, 2, 4) of (row, value) pairs, best first."""
    order = sorted(values, key=lambda p: -p[1] if higher else p[1])
    ranks, last = {}, None
    for i, (row, value) in enumerate(order):
        ranks[row] = ranks[order[i - 1][0]] if last is not None and value == last else i + 1
        last = value
    return ranks


def board(folder: Path | None, requests: list | None = None) -> tuple[list[str], list[dict]]:
    """(benchmarks, rows) of the leaderboard: the submissions table (``submission_rows``) with, per row, the weights'
    precision, family, parameters, submission date, profile, model link and an overall rank (the rank of its mean
    rank over the benchmarks it has), and per benchmark a cell ``{text, sort, why, report}``: ``sort`` None where the
    cell is empty and ``why`` then says why (skipped for the family, failed, not yet scored). ``requests`` (the
    queue's, where the caller reads one) add rows for models not scored yet or failed."""
    names, rows = submission_rows(folder) if folder is not None else ([], [])
    entries = read_submissions(folder)[0] if folder is not None else {}
    damaged = read_runs(folder)[1] if folder is not None else {}
    families = {(s["model"]["name"], s["model"].get("version", ""), s["model"].get("dtype", "")): s["model"].get("family", "")
                for s in (stored_summaries(folder) if folder is not None else [])}
    skipped = {b for e in entries.values() for b in e.get("skipped", {})}
    recorded = {e.get("request") for e in entries.values()}
    waiting = [r for r in requests or [] if r.id not in recorded and r.status != "FINISHED"]
    names = sorted(set(names) | skipped | {b for r in waiting for b in r.suite}, key=list_order)
    out = []
    seen = {(r["model"], r["version"], r["dtype"]) for r in rows}
    rows = rows + [{"model": k[0], "version": k[1], "dtype": k[2], "cells": {}} for k in entries if k not in seen]  # all skipped
    for r in rows:
        key = (r["model"], r["version"], r["dtype"])
        e = entries.get(key, {})
        row = {"model": r["model"], "revision": r["version"], "dtype": r["dtype"], "family": e.get("family") or families.get(key, ""),
               "params": e.get("params"), "submitted": (e.get("submitted") or "")[:10], "status": "scored",
               "weights": e.get("weights"), "cost": scoring_cost(e), "device": e.get("device"),
               "link": e.get("link"), "request": e.get("request"), "cells": {}}
        profiles = {c["profile"] for c in r["cells"].values()} or {e.get("profile")}
        row["profile"] = ", ".join(sorted(p or "† other options" for p in profiles))
        for n in names:
            c = r["cells"].get(n)
            if c and c["value"] is not None:
                row["cells"][n] = {"text": cell_text(c), "sort": c["value"], "ci": c["ci"], "why": None, "report": c["report"],
                                   "run": c["report"].rpartition("/")[0], "profile": c["profile"]}
            elif n in e.get("skipped", {}):
                row["cells"][n] = {"text": "skipped", "sort": None, "why": f"skipped: {e['skipped'][n]}", "report": None}
            elif (n, slug_of(r["model"])) in damaged:  # published, but its summary cannot be read: said so, not "never published"
                row["cells"][n] = {"text": "damaged", "sort": None, "why": f"damaged: {damaged[(n, slug_of(r['model']))]}", "report": None}
            else:
                row["cells"][n] = {"text": "–", "sort": None, "why": "not scored: no run of this benchmark was published for this model",
                                   "report": None}
        out.append(row)
    for q in waiting:
        why = {"FAILED": f"failed: {q.reason}", "RUNNING": f"not yet scored: running ({q.holders()})",
               "PENDING": "not yet scored: pending in the queue"}[q.status]
        out.append({"model": q.model, "revision": q.revision, "dtype": SHORT_DTYPES.get(q.dtype, q.dtype), "family": q.family, "params": q.params,
                    "submitted": q.submitted[:10], "status": q.status.lower(), "weights": None, "cost": None,
                    "link": hub_link(q.model, q.revision),
                    "request": q.id, "profile": q.profile,
                    "cells": {n: {"text": "failed" if q.status == "FAILED" else "–", "sort": None, "why": why, "report": None} for n in names}})
    per_bench = {n: separated_ranks([(i, r["cells"][n]["sort"], r["cells"][n].get("ci")) for i, r in enumerate(out)
                                     if r["cells"][n]["sort"] is not None], get(n).headline.higher_is_better) for n in names}
    for n, ranks in per_bench.items():
        for i, rank in ranks.items():
            out[i]["cells"][n]["rank"] = rank
            out[i]["cells"][n]["tied"] = sum(v == rank for v in ranks.values())
    means = {i: sum(per_bench[n][i] for n in names if i in per_bench[n]) / k
             for i in range(len(out)) if (k := sum(i in per_bench[n] for n in names))}
    ranks = _ranked(list(means.items()), higher=False)
    for i, row in enumerate(out):
        row["rank"] = ranks.get(i)
        row["mean_rank"] = means.get(i)
        row["scored_on"] = sum(i in per_bench[n] for n in names)
        row["tied"] = sum(v == ranks.get(i) for v in ranks.values()) if i in ranks else 0
    return names, out


def scoring_cost(entry: dict) -> float | None:
    """The minutes a submission's scoring took its workers (every benchmark and every load of the model, from their own
    timing); None where its entry has no timing (published by hand, or by an older wordbench)."""
    seconds = entry.get("seconds") or {}
    return round(sum(seconds.values()) / 60, 2) if seconds else None


def hub_link(model: str, revision: str) -> str | None:
    """The model's page on the Hub at its pinned revision; None for a local model."""
    if Path(model).expanduser().exists() or model.startswith(("/", ".", "~")) or model.count("/") != 1:
        return None
    return f"https://huggingface.co/{model}/tree/{revision}"


def board_value(row: dict, column: str):
    """What ``column`` sorts ``row`` by; None (missing) sorts last in either direction."""
    if column in row["cells"]:
        return row["cells"][column]["sort"]
    value = row.get(column)
    return None if value in (None, "") else value


def sort_board(rows: list[dict], column: str, descending: bool = False) -> list[dict]:
    """Rows by ``column``, missing values last whichever the direction."""
    have = [r for r in rows if board_value(r, column) is not None]
    missing = [r for r in rows if board_value(r, column) is None]
    key = (lambda r: board_value(r, column)) if all(isinstance(board_value(r, column), (int, float)) for r in have) else \
        (lambda r: str(board_value(r, column)).lower())
    return sorted(have, key=key, reverse=descending) + missing
