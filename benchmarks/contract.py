"""What every benchmark's declaration must satisfy, checked in one place: ``wordbench check [NAME]`` runs it for a
contributor, and the test suite runs it on every registered benchmark (docs/adding-a-benchmark.md lists the rules).
A broken declaration is a list of one-line problems, never a traceback."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

from wordbench import spec
from wordbench.declaration import Benchmark, Figure, Headline, Profile
from wordbench.errors import WordbenchError

ROOT = Path(__file__).resolve().parents[1]
PAGE_PLACEHOLDERS = ("options", "limitations")
TEXTS = ("summary", "card", "citation", "paper", "limitations", "reference")


def page_path(bench: Benchmark) -> Path:
    """The benchmark's documentation page: ``page`` as declared (absolute, beside the module that declares its builder,
    or relative to this repository), or docs/benchmarks/NAME.md."""
    if not bench.page:
        return ROOT / f"docs/benchmarks/{bench.name}.md"
    page = Path(bench.page)
    if page.is_absolute():
        return page
    home = getattr(bench.kind, "home", None)  # a benchmark of a known kind: the module that declares it
    module = None if home else _imported(str(bench.builder_path).partition(":")[0])
    beside = home / page if home else Path(module.__file__).parent / page if getattr(module, "__file__", None) else None
    return beside if beside is not None and beside.is_file() else ROOT / page


def _imported(module: str):
    try:
        return importlib.import_module(module)
    except Exception:  # noqa: BLE001 - the page is then looked for in this repository; the import is reported elsewhere
        return None


def _declared_types(bench: Benchmark) -> list[str]:
    """The declaration's fields of the wrong type (a plain dict for a Profile, a string for a Headline, ...)."""
    out = [f"the declaration's {what} is not text" for what in ("name",) + TEXTS if not isinstance(getattr(bench, what), str)]
    if not isinstance(bench.headline, (Headline, type(None))):
        out.append(f"its headline is a {type(bench.headline).__name__}, not a wordbench.declaration.Headline")
    if not isinstance(bench.figure, (Figure, type(None))):
        out.append(f"its figure is a {type(bench.figure).__name__}, not a wordbench.declaration.Figure")
    if not isinstance(bench.page, (str, type(None))):
        out.append(f"its page is a {type(bench.page).__name__}, not a path as text")
    profiles = bench.profiles if isinstance(bench.profiles, (tuple, list)) else [bench.profiles]
    for entry in profiles:
        if not (isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], Profile)):
            out.append(f"its profiles hold {entry!r}: each must be (name, wordbench.declaration.Profile(...))")
    return out


def _classes(bench: Benchmark) -> tuple[type, type] | str:
    """(builder, scorer) as the declaration's paths name them, or the one-line reason they are not usable."""
    from wordbench.builders.base import Builder
    from wordbench.scorers.base import Scorer

    found = []
    for kind, path, base in (("builder", bench.builder_path, Builder), ("scorer", bench.scorer_path, Scorer)):
        try:
            cls = bench.builder_class if kind == "builder" else bench.scorer_class
        except WordbenchError as exc:
            return f"its {kind}_path: {exc}"
        if not (isinstance(cls, type) and issubclass(cls, base)):
            what = f"the class {cls.__name__}" if isinstance(cls, type) else f"a {type(cls).__name__}"
            return f"its {kind}_path {path} names {what}, not a subclass of {base.__module__}.{base.__name__}"
        found.append(cls)
    return found[0], found[1]


def problems(bench: Benchmark) -> list[str]:
    """Every rule the declaration breaks, one line each; empty when it holds. A rule whose check itself fails (a
    declaration broken in a way no rule foresaw) is one line too."""
    name = bench.name if isinstance(bench.name, str) and bench.name else repr(bench.name)
    typed = _declared_types(bench)
    if typed:
        return [f"{name}: {line}" for line in typed]
    empty = [f"{name}: the declaration's {what} is empty" for what in TEXTS if not getattr(bench, what).strip()]
    classes = _classes(bench)
    if isinstance(classes, str):
        return empty + [f"{name}: {classes}"]
    try:
        return empty + _rules(bench, *classes)
    except Exception as exc:  # noqa: BLE001 - reported, not raised: check lists what is wrong
        return [f"{name}: checking the declaration failed: {type(exc).__name__}: {exc}"]


def _kind_rules(bench: Benchmark, scorer: type) -> list[str]:
    """A benchmark that names a known kind has a scorer of that kind (it extends the kind's scorer); one that names
    none has a scorer of no known kind."""
    from wordbench.builders.kinds import KINDS

    if not isinstance(bench.kind_name, str) or (bench.kind_name and bench.kind_name not in KINDS):
        return [f"{bench.name}: its kind_name {bench.kind_name!r} is no known kind; the kinds are {', '.join(KINDS)} ('' for its own)"]
    has = getattr(scorer, "kind", "")
    if has != bench.kind_name:
        said = f"of the {bench.kind_name} kind" if bench.kind_name else "of a kind of its own (kind_name '')"
        return [f"{bench.name}: it is declared {said} but its scorer {scorer.__name__} is "
                + (f"of the {has} kind" if has else "of none (extend the kind's scorer in wordbench.scorers.kinds)")]
    return []


def _rules(bench: Benchmark, builder: type, scorer: type) -> list[str]:
    out: list[str] = []
    for kind, cls in (("builder", builder), ("scorer", scorer)):
        if getattr(cls, "name", None) != bench.name:
            out.append(f"{bench.name}: the {kind} {cls.__name__} is named {getattr(cls, 'name', None)!r}, not {bench.name!r}")
    if not getattr(builder, "version", ""):
        out.append(f"{bench.name}: the builder declares no version")
    for what, cls in (("builder Config", getattr(builder, "Config", None)), ("scorer Options", getattr(scorer, "Options", None))):
        if not (isinstance(cls, type) and issubclass(cls, spec.Spec)):
            out.append(f"{bench.name}: the {what} is not a wordbench.spec.Spec dataclass")
            continue
        try:
            spec.parse(cls, {}, source="defaults")
        except WordbenchError as exc:
            out.append(f"{bench.name}: the {what} defaults are not valid: {exc}")
        for field in dataclasses.fields(cls):
            if not field.metadata.get("help"):
                out.append(f"{bench.name}: {what} field '{field.name}' has no help (declare it with opt(default, help))")
    config = getattr(builder, "Config", None)
    if not (dataclasses.is_dataclass(config) and "faithful" in {f.name for f in dataclasses.fields(config)}):
        out.append(f"{bench.name}: the builder Config has no 'faithful' field (faithful: bool = faithful_opt())")
    schema = getattr(builder, "schema", {})
    if "default" not in schema or "id" not in schema["default"]:
        out.append(f"{bench.name}: the builder's schema needs a 'default' config with an 'id' column (scoring reads it)")
    for config, features in schema.items():
        missing = [c for c in features if not builder.fields.get(c)]
        if missing:
            out.append(f"{bench.name}: no help line in the builder's fields for {config} column(s) {', '.join(missing)}")
    declared = {c for f in schema.values() for c in f}
    for what in ("labels", "column_defaults"):
        extra = set(getattr(builder, what, {})) - declared
        if extra:
            out.append(f"{bench.name}: the builder's {what} name undeclared column(s) {', '.join(sorted(extra))}")
    out += _kind_rules(bench, scorer)
    for name, profile in bench.profiles:
        try:
            bench.scorer(**dict(profile.options))
        except WordbenchError as exc:
            out.append(f"{bench.name}: the submission profile '{name}' has options the scorer refuses: {exc}")
    if bench.kind is not None and not bench.page:  # its page is made from the declaration (builders/kinds.page_markdown)
        return out
    page = page_path(bench)
    if not (ROOT / "docs").is_dir() and page.is_relative_to(ROOT):  # an installed wordbench: its pages live in its repository
        return out
    if not page.is_file():
        out.append(f"{bench.name}: no documentation page at {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}")
    else:
        text = page.read_text(encoding="utf-8")
        wanted = PAGE_PLACEHOLDERS + (("figure",) if bench.figure else ())
        for kind in wanted:
            if f"<!-- wordbench:{kind} {bench.name} -->" not in text:
                out.append(f"{bench.name}: its page {page.name} lacks the line <!-- wordbench:{kind} {bench.name} -->")
    return out
