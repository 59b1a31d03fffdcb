"""The builder contract: a named, versioned recipe whose ``Config`` defaults are the paper's."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any, ClassVar

import datasets

from wordbench import spec
from wordbench.errors import ConfigError
from wordbench.spec import parse_bool  # noqa: F401 - an old import path

from .sources.base import SourceInfo


def config_dict(config) -> dict[str, Any]:
    return spec.as_dict(config)


def config_hash(config) -> str:
    """8 hex digits over every knob of the config (sorted JSON)."""
    return spec.spec_hash(config)


def parse_overrides(config_cls, overrides: typing.Iterable[str] | dict[str, Any] = (), fixed: dict[str, Any] | None = None):
    """Build ``config_cls`` from ``key=value`` strings (or a dict): :func:`wordbench.spec.parse` with ``--set``."""
    return spec.parse(config_cls, overrides, source="--set", fixed=fixed)


class FreeText(str):
    """A column's help that declares it free text a model reads (see ``Builder.fields``)."""


def free_text(help: str) -> FreeText:
    return FreeText(help)


def free_text_columns(fields: dict[str, str]) -> frozenset[str]:
    """The columns ``fields`` declares free text; every other string column is compared or looked up."""
    return frozenset(c for c, h in fields.items() if isinstance(h, FreeText))


class Builder:
    """Base class of the dataset builders. Subclasses set ``name``, ``version``, ``Config`` and implement the hooks."""

    name: ClassVar[str]
    version: ClassVar[str]
    Config: ClassVar[type]
    configs: ClassVar[tuple[str, ...]] = ("default",)
    # The declared data: {dataset config: its datasets.Features}; "default" is the one scored. Every way data
    # arrives (built or published folder, own-format file, Hub id) is checked against it before a model loads.
    schema: ClassVar[dict[str, datasets.Features]] = {}
    # Categorical columns: {column: its values}; published as ``datasets.ClassLabel`` and read back as strings.
    labels: ClassVar[dict[str, tuple[str, ...]]] = {}
    # One line of help per declared column, for the card's Data Fields table (a test checks every column has one).
    # It also declares the role of a string column: a plain line is a string compared or looked up (a target, a
    # keyword, a lexicon word), where a character a model cannot see is refused at load; ``free_text(help)`` marks
    # text a model reads (a sentence, a context), kept as published and counted per column.
    fields: ClassVar[dict[str, str]] = {}
    # Declared columns a later builder version added: {column: the value data from an earlier version reads as}, so a
    # dataset published before the column existed still loads (every other missing column is an error).
    column_defaults: ClassVar[dict[str, object]] = {}

    @classmethod
    def row_problem(cls, config: str, table) -> str | None:
        """What makes rows of ``config`` unscorable beyond their types (a pyarrow Table, checked when data arrives):
        the first such row described, or None. A benchmark with such a rule overrides it."""
        return None

    def sources(self, config) -> list[SourceInfo]:
        """Resolve every external resource the build reads and report its name and version."""
        raise NotImplementedError

    def build(self, config) -> dict[str, datasets.DatasetDict]:
        """Build the data: ``{dataset config name: DatasetDict of splits}``, deterministic for ``config``."""
        raise NotImplementedError

    def translation_jobs(self, config) -> list:
        """Model work the build needs done first (minpairs' machine translations); the benchmarks layer runs it."""
        return []

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        """A markdown table describing the built data (printed after a build and put in the card)."""
        return ""

    def export_extra(self, data: dict[str, datasets.DatasetDict], folder: Path) -> list[str]:
        """Write extra files (e.g. the paper's original format) into a published folder; return their names."""
        return []

    def read_file(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """Read data in the benchmark's original published format (if it has one)."""
        raise ConfigError(f"{self.name} has no file format of its own: pass a built or published folder")

    def read_files(self, paths: list[Path]) -> dict[str, datasets.DatasetDict]:
        """Several files of the published format as one dataset (``--data a.txt,b.txt``); one file by default."""
        if len(paths) != 1:
            raise ConfigError(f"{self.name} reads one file at a time: {', '.join(map(str, paths))}")
        return self.read_file(paths[0])

    def read_folder(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """Read a folder in the benchmark's original published layout (if it has one)."""
        raise ConfigError(f"{path} is not a wordbench dataset folder (no signature.json); build or publish one first")
