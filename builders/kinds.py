"""Benchmarks of a known kind, from a declaration and a data file: no builder or scorer of their own.

A kind is a scoring pattern the built-in benchmarks already use, with its scorer, report, headline, interval and
plot (``wordbench.scorers.kinds``):

- ``pairs``: which of two texts the model prefers (``good`` over ``bad``): accuracy with a Wilson interval, as minpairs;
- ``cloze``: a ``target`` ranked among ``candidates`` filled into a ``context`` at ``___``: MRR and precision@k with a
  bootstrap interval, as WNLaMPro;
- ``ratings``: the model's similarity of ``first`` and ``second`` (cosine of their hidden states) against a human
  ``rating``: Spearman's rho with a paired bootstrap interval, as VAST.

A declaration is one call beside its data file (JSONL, one object per line; a relative path is read beside the
declaring module), e.g. ``BENCHMARK = pairs(name="grammar", data="grammar.jsonl", group="phenomenon", ...)`` with
the ``Benchmark`` fields (summary, card, citation, paper, ...) as keywords. ``--data FILE`` scores another file of the
same form. A benchmark that fits no kind declares its own builder and scorer.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import datasets

from wordbench.declaration import Benchmark, Headline
from wordbench.errors import ConfigError, DataFormatError
from wordbench.hashing import file_sha8
from wordbench.spec import Spec, faithful_opt, opt

from .base import Builder, free_text
from .sources.base import SourceInfo

TEXT, WORD, NUMBER, WORDS = "text", "word", "number", "words"  # a column's type: free text, a string, a float, strings
FEATURE = {TEXT: datasets.Value("string"), WORD: datasets.Value("string"), NUMBER: datasets.Value("float64"),
           WORDS: datasets.Sequence(datasets.Value("string"))}


@dataclass(frozen=True)
class Kind:
    """What a kind reads: its columns ({name: (type, help)}), its scorer and its headline."""

    name: str
    columns: tuple[tuple[str, str, str], ...]  # (column, type, help)
    scorer: str  # "module:Class" of the kind's scorer
    headline: Headline
    task_categories: tuple[str, ...]


KINDS = {
    "pairs": Kind("pairs", (("good", TEXT, "the text the model should prefer"), ("bad", TEXT, "the same text made wrong by one change")),
                  "wordbench.scorers.kinds:PairsScorer", Headline("overall/accuracy", "accuracy", True, "wilson", "overall/n"),
                  ("text-classification",)),
    "cloze": Kind("cloze", (("context", TEXT, "the text with ___ where a candidate goes"), ("target", WORD, "the right filler"),
                            ("candidates", WORDS, "the fillers ranked, the target among them")),
                  "wordbench.scorers.kinds:ClozeScorer", Headline("overall/mrr", "MRR", True, "overall/mrr_ci"), ("fill-mask",)),
    "ratings": Kind("ratings", (("first", TEXT, "the first text (a word or more)"), ("second", TEXT, "the second text"),
                                ("rating", NUMBER, "the human rating of their similarity")),
                    "wordbench.scorers.kinds:RatingsScorer", Headline("overall/spearman", "Spearman rho", True, "overall/spearman_ci"),
                    ("sentence-similarity",)),
}


@dataclass(frozen=True)
class Declared:
    """A declared benchmark's kind, data file, version and group column (``Benchmark.kind``)."""

    kind: Kind
    data: Path | None  # None: no default data (the declaration's ``needs_data`` says what to give)
    version: str
    group: str | None = None
    group_help: str = ""
    home: Path | None = None  # the declaring module's folder (its page is looked for there)
    classes: dict = field(default_factory=dict, compare=False, hash=False, repr=False)  # (what, name): each class made once

    def builder(self, bench: Benchmark) -> type:
        if ("builder", bench.name) not in self.classes:
            self.classes["builder", bench.name] = type(f"{bench.name.title()}Builder", (KindBuilder,), {
                "name": bench.name, "version": self.version, "declared": self, "__module__": __name__,
                "schema": {"default": self.features()}, "fields": self.fields()})
        return self.classes["builder", bench.name]

    def scorer(self, bench: Benchmark) -> type:
        if ("scorer", bench.name) not in self.classes:
            base = Benchmark._load(self.kind.scorer)
            self.classes["scorer", bench.name] = type(f"{bench.name.title()}Scorer", (base,), {
                "name": bench.name, "group_key": self.group or "group", "__module__": base.__module__})
        return self.classes["scorer", bench.name]

    def features(self) -> datasets.Features:
        group = {self.group or "group": datasets.Value("string")}
        return datasets.Features({"id": datasets.Value("string"), **group, **{c: FEATURE[t] for c, t, _ in self.kind.columns}})

    def fields(self) -> dict[str, str]:
        group = {self.group or "group": self.group_help or "the group an item is reported in"}
        columns = {c: free_text(h) if t == TEXT else h for c, t, h in self.kind.columns}
        return {"id": "the item's group and line number", **group, **columns}

    def read(self, path: Path) -> list[dict]:
        """The rows of a JSONL data file; a line that does not hold the kind's columns is an error naming it."""
        rows = []
        group = self.group or "group"
        try:
            lines = path.read_text(encoding="utf-8-sig").splitlines()  # a byte-order mark is no part of line 1
        except (OSError, UnicodeDecodeError) as exc:
            raise DataFormatError(f"{path}: cannot be read as UTF-8 text ({exc})") from None
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataFormatError(f"{path} line {n}: not JSON ({exc.msg})") from None
            problem = self._problem(item)
            if problem:
                raise DataFormatError(f"{path} line {n}: {problem}")
            row = {c: item[c] if t != NUMBER else float(item[c]) for c, t, _ in self.kind.columns}
            name = str(item.get(group, "all")) if self.group is None or group in item else None
            if name is None:
                raise DataFormatError(f"{path} line {n}: no '{group}' (the declaration's group column)")
            rows.append({"id": f"{name}-{len(rows):05d}", group: name, **row})
        if not rows:
            raise DataFormatError(f"{path}: no items")
        return rows

    def _problem(self, item) -> str | None:
        if not isinstance(item, dict):
            return "expected a JSON object"
        for c, t, _ in self.kind.columns:
            value = item.get(c)
            ok = {TEXT: isinstance(value, str) and value.strip(), WORD: isinstance(value, str) and value.strip(),
                  NUMBER: isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value),
                  WORDS: isinstance(value, list) and len(value) > 1 and all(isinstance(v, str) and v.strip() for v in value)}[t]
            if not ok:
                return f"'{c}' must be {dict(text='a non-empty string', word='a non-empty string', number='a finite number', words='a list of two or more strings')[t]}"
        if self.kind.name == "cloze":
            if item["context"].count("___") != 1:
                return "the context must hold ___ once (where a candidate goes)"
            if item["target"] not in item["candidates"] or len(set(item["candidates"])) != len(item["candidates"]):
                return "the candidates must be distinct and hold the target"
        return None


@dataclass(frozen=True)
class KindConfig(Spec):
    file: str = opt("", "a JSONL data file of the declaration's form to build from (default: the declaration's own)")
    faithful: bool = faithful_opt()


class KindBuilder(Builder):
    """The builder of a declared benchmark: its data file, checked and given ids."""

    Config = KindConfig
    declared: Declared

    def _path(self, config: KindConfig) -> Path:
        path = Path(config.file) if config.file else self.declared.data
        if path is None:
            raise ConfigError(f"{self.name} has no default data: give --data FILE (or build with --set file=FILE)")
        if not path.is_file():
            raise ConfigError(f"{self.name}: no data file at {path}")
        return path

    def sources(self, config: KindConfig) -> list[SourceInfo]:
        path = self._path(config)
        return [SourceInfo("data", path.name, f"sha256-{file_sha8(path)}")]  # keyed by content: an edit is new data

    def build(self, config: KindConfig, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        return self.read_file(self._path(config))

    def read_file(self, path: Path) -> dict[str, datasets.DatasetDict]:
        rows = self.declared.read(Path(path))
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=self.declared.features())})}


def declare(kind: str, *, name: str, data: str | Path | None, version: str = "1.0.0", group: str | None = None,
            group_help: str = "", **fields) -> Benchmark:
    """A ``Benchmark`` of ``kind`` whose items are the JSONL file ``data`` (relative: beside the calling module; None:
    no default data, and ``needs_data`` says what to give)."""
    depth = 2 if fields.pop("_via_kind", False) else 1  # the declaring module's frame: pairs() calls declare()
    if kind not in KINDS:
        raise ConfigError(f"unknown kind '{kind}'; the kinds are {', '.join(KINDS)}")
    if data is None and not fields.get("needs_data"):
        raise ConfigError(f"{name}: a declaration without data must say in needs_data what to give")
    caller = sys._getframe(depth).f_globals.get("__file__")
    home = Path(caller).resolve().parent if caller else Path.cwd()
    path = None if data is None else home / data  # an absolute ``data`` stays as it is
    declared = Declared(KINDS[kind], path, version, group, group_help, home)
    fields.setdefault("headline", KINDS[kind].headline)
    fields.setdefault("task_categories", KINDS[kind].task_categories)
    fields.setdefault("sampling", group or "")
    fields.setdefault("faithful", "nothing: a declared benchmark reads its file as given")
    return Benchmark(name=name, scorer_path=KINDS[kind].scorer, builder_path=f"{__name__}:KindBuilder", kind=declared,
                     kind_name=kind, **fields)


def pairs(**declaration) -> Benchmark:
    """A pairs benchmark: items ``{"good", "bad"}`` (and the group column): accuracy of s(good) >= s(bad)."""
    return declare("pairs", _via_kind=True, **declaration)


def cloze(**declaration) -> Benchmark:
    """A cloze ranking benchmark: items ``{"context", "target", "candidates"}``: the target's rank among the candidates."""
    return declare("cloze", _via_kind=True, **declaration)


def ratings(**declaration) -> Benchmark:
    """A ratings benchmark: items ``{"first", "second", "rating"}``: the model's similarity against the human rating."""
    return declare("ratings", _via_kind=True, **declaration)


def page_markdown(bench: Benchmark) -> str:
    """The documentation page of a declared benchmark that brings none: its summary, its kind, how to run it, and the
    placeholders the docs build fills (the option tables, the limitations)."""
    declared: Declared = bench.kind
    columns = ", ".join(f"`{c}`" for c, _, _ in declared.kind.columns) + (f", `{declared.group}`" if declared.group else "")
    data = f"`--data FILE` (each line a JSON object with {columns})"
    return "\n".join([
        f"# {bench.title or bench.name}", "", f"{bench.summary}.", "",
        f"A benchmark of the `{declared.kind.name}` kind ({bench.reference}); {bench.card}", "",
        "```bash", f"wordbench score {bench.name} --model M" + (" --data FILE" if declared.data is None else ""), "```", "",
        f"Another file of the same form is scored with {data}.", "",
        "## Options", "", f"<!-- wordbench:options {bench.name} -->", "",
        "## Known limitations", "", f"<!-- wordbench:limitations {bench.name} -->", ""])
