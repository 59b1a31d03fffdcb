"""The published layouts: DistilLingEval folders and LingEval97 JSON, written and read back as rows."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

from wordbench.errors import DataFormatError
from ..sources.base import read_utf8
from ..sources.corpora import numbered_lines

DISTIL_FILES = ("src.en", "tgt.correct.de", "tgt.incorrect.de")
_SET_NAME = re.compile(r"^(?P<phenomenon>[\w-]+)\.(?P<ref>human|mt)$")


def diff_edit(correct: str, incorrect: str) -> dict:
    """The one edit that turns ``correct`` into ``incorrect``: the span between their common prefix and suffix."""
    start = 0
    while start < min(len(correct), len(incorrect)) and correct[start] == incorrect[start]:
        start += 1
    end_c, end_i = len(correct), len(incorrect)
    while end_c > start and end_i > start and correct[end_c - 1] == incorrect[end_i - 1]:
        end_c, end_i = end_c - 1, end_i - 1
    return {"start": start, "end": end_c, "before": correct[start:end_c], "after": incorrect[start:end_i]}


def _line(text: str) -> str:
    """``text`` as one line of the layout: a line break becomes a space, every other character is kept as published
    (a zero-width space, a soft hyphen, a double space), so the files read back as the same text."""
    return text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def write_distillingeval(rows: list[dict], folder: Path) -> list[str]:
    """``<phenomenon>.<human|mt>/src.en, tgt.correct.de, tgt.incorrect.de`` (line-aligned); returns the set names."""
    sets: dict[str, list[dict]] = {}
    for row in rows:
        sets.setdefault(f"{row['phenomenon']}.{row['reference_type']}", []).append(row)
    for name, items in sorted(sets.items()):
        (folder / name).mkdir(parents=True, exist_ok=True)
        for file, key in zip(DISTIL_FILES, ("source", "correct", "incorrect")):
            (folder / name / file).write_text("".join(_line(r[key]) + "\n" for r in items), encoding="utf-8")
    return sorted(sets)


def _lines(path: Path) -> list[str]:
    return [line.rstrip("\r\n") for _, line in numbered_lines(path)]


def _sets(folder: Path) -> list[Path]:
    """The ``<phenomenon>.<human|mt>`` sets of a folder, of its ``data/`` (the authors' repository), or the folder itself."""
    if _SET_NAME.match(folder.name) and any((folder / f).exists() for f in DISTIL_FILES):
        return [folder]
    for root in (folder, folder / "data"):
        sets = sorted(p for p in root.iterdir() if p.is_dir() and _SET_NAME.match(p.name)) if root.is_dir() else []
        if sets:
            return sets
    raise DataFormatError(f"{folder} holds no DistilLingEval sets (<phenomenon>.<human|mt>/ with {', '.join(DISTIL_FILES)})")


def read_distillingeval(folder: Path) -> list[dict]:
    """Rows from a DistilLingEval data folder (its ``<phenomenon>.<human|mt>`` sets, also under ``data/``) or one set,
    one row per line (a sentence with several variants repeats its source). A line empty in any file is skipped,
    and an empty set or one lacking files is skipped, each with a warning naming it; misaligned files are errors."""
    rows = []
    for set_dir in _sets(folder):
        m = _SET_NAME.match(set_dir.name)
        missing = [f for f in DISTIL_FILES if not (set_dir / f).is_file()]
        if missing:
            warnings.warn(f"DistilLingEval set {set_dir} lacks {', '.join(missing)}: skipped", stacklevel=2)
            continue
        columns = [_lines(set_dir / f) for f in DISTIL_FILES]
        if len({len(c) for c in columns}) != 1:
            counts = ", ".join(f"{f}: {len(c)}" for f, c in zip(DISTIL_FILES, columns))
            raise DataFormatError(f"{set_dir}: the files are not line-aligned ({counts})")
        empty = []
        for n, line in enumerate(zip(*columns), 1):
            blank = [f for f, text in zip(DISTIL_FILES, line) if not text.strip()]
            if blank:
                empty.append(f"{set_dir / blank[0]}:{n}")
                continue
            rows.append(_row(f"{set_dir.name}-{n:06d}", m["phenomenon"], m["ref"], *line, f"{set_dir.name}:{n}"))
        if len(empty) == len(columns[0]):  # no line, or only empty ones
            warnings.warn(f"DistilLingEval set {set_dir.name} is empty ({set_dir}): skipped", stacklevel=2)
        elif empty:
            shown = ", ".join(empty[:5]) + (f" and {len(empty) - 5} more" if len(empty) > 5 else "")
            warnings.warn(f"DistilLingEval set {set_dir.name}: {len(empty)} empty line(s) skipped: {shown}", stacklevel=2)
    if not rows:
        raise DataFormatError(f"{folder}: the DistilLingEval sets hold no lines")
    return rows


def write_lingeval97(rows: list[dict], path: Path) -> None:
    """LingEval97 JSON: one object per (source, reference) with its contrastive variants under ``errors``."""
    items: dict[tuple, dict] = {}
    for row in rows:
        key = (row["source"], row["correct"], row["reference_type"])
        item = items.setdefault(key, {"source": row["source"], "reference": row["correct"], "reference_type": row["reference_type"], "errors": []})
        item["errors"].append({"type": row["phenomenon"], "contrastive": row["incorrect"]})
    path.write_text(json.dumps(list(items.values()), ensure_ascii=False, indent=1), encoding="utf-8")


def read_lingeval97(path: Path) -> list[dict]:
    """Rows from LingEval97 JSON (``source``, ``reference``, ``errors: [{type, contrastive, ...}]``)."""
    try:
        items = json.loads(read_utf8(path, "LingEval97"))
    except ValueError as exc:
        raise DataFormatError(f"{path}: not LingEval97 JSON ({exc})") from None
    if not isinstance(items, list):
        raise DataFormatError(f"{path}: LingEval97 JSON is a list of objects")
    rows = []
    for n, item in enumerate(items):
        if not isinstance(item, dict) or not {"source", "reference", "errors"} <= set(item):
            raise DataFormatError(f"{path}: item {n} lacks source, reference or errors")
        _text_fields(path, f"item {n}", item, ("source", "reference"))
        if not isinstance(item["errors"], list):
            raise DataFormatError(f"{path}: item {n} errors is {type(item['errors']).__name__}, not a list of "
                                  "{type, contrastive} objects")
        ref = item.get("reference_type", "human")
        if ref not in ("human", "mt"):
            raise DataFormatError(f"{path}: item {n} reference_type is {ref!r}; give human or mt")
        for k, err in enumerate(item["errors"]):
            if not isinstance(err, dict) or "type" not in err or "contrastive" not in err:
                raise DataFormatError(f"{path}: item {n} error {k} lacks type or contrastive")
            _text_fields(path, f"item {n} error {k}", err, ("type", "contrastive"))
            rows.append(_row(f"{err['type']}.{ref}-{n:06d}-{k}", err["type"], ref, item["source"], item["reference"], err["contrastive"], f"{n}"))
    if not rows:
        raise DataFormatError(f"{path}: no contrastive variants")
    return rows


def _text_fields(path: Path, what: str, obj: dict, keys: tuple[str, ...]) -> None:
    for key in keys:
        if not isinstance(obj[key], str):
            raise DataFormatError(f"{path}: {what} {key} is {type(obj[key]).__name__}, not text")


def _row(row_id, phenomenon, ref, source, correct, incorrect, pair_id) -> dict:
    return {"id": row_id, "phenomenon": phenomenon, "reference_type": ref, "source": source, "correct": correct,
            "incorrect": incorrect, "edit": diff_edit(correct, incorrect), "pair_id": pair_id, "reference": correct if ref == "human" else "",
            "system": ""}
