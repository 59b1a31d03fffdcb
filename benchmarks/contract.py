"""What every benchmark's declaration must satisfy, checked in one place: ``wordbench check [NAME]`` runs it for a
contributor, and the test suite runs it on every registered benchmark (docs/adding-a-benchmark.md lists the rules)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from wordbench import spec
from wordbench.declaration import Benchmark
from wordbench.errors import WordbenchError

ROOT = Path(__file__).resolve().parents[1]
PAGE_PLACEHOLDERS = ("options", "limitations")


def page_path(bench: Benchmark) -> Path:
    """The benchmark's documentation page: ``page`` as declared (relative to this repository), or docs/benchmarks/NAME.md."""
    return ROOT / (bench.page or f"docs/benchmarks/{bench.name}.md")


def problems(bench: Benchmark) -> list[str]:
    """Every rule the declaration breaks, one line each; empty when it holds."""
    out: list[str] = []
    for what, text in (("summary", bench.summary), ("card", bench.card), ("citation", bench.citation), ("paper", bench.paper),
                       ("limitations", bench.limitations), ("reference", bench.reference)):
        if not text.strip():
            out.append(f"{bench.name}: the declaration's {what} is empty")
    try:
        builder, scorer = bench.builder_class, bench.scorer_class
    except (ImportError, AttributeError) as exc:
        return out + [f"{bench.name}: its builder or scorer cannot be imported ({type(exc).__name__}: {exc})"]
    for kind, cls in (("builder", builder), ("scorer", scorer)):
        if getattr(cls, "name", None) != bench.name:
            out.append(f"{bench.name}: the {kind} {cls.__name__} is named {getattr(cls, 'name', None)!r}, not {bench.name!r}")
    if not getattr(builder, "version", ""):
        out.append(f"{bench.name}: the builder declares no version")
    for what, cls in (("builder Config", getattr(builder, "Config", None)), ("scorer Options", getattr(scorer, "Options", None))):
        if cls is None or not issubclass(cls, spec.Spec):
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
    for name, profile in bench.profiles:
        try:
            bench.scorer(**dict(profile.options))
        except WordbenchError as exc:
            out.append(f"{bench.name}: the submission profile '{name}' has options the scorer refuses: {exc}")
    if not (ROOT / "docs").is_dir():  # an installed wordbench: the pages live in its repository
        return out
    page = page_path(bench)
    if not page.is_file():
        out.append(f"{bench.name}: no documentation page at {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}")
    else:
        text = page.read_text(encoding="utf-8")
        wanted = PAGE_PLACEHOLDERS + (("figure",) if bench.figure else ())
        for kind in wanted:
            if f"<!-- wordbench:{kind} {bench.name} -->" not in text:
                out.append(f"{bench.name}: its page {page.name} lacks the line <!-- wordbench:{kind} {bench.name} -->")
    return out
