"""The benchmarks, collected from their declarations: each builder module declares ``BENCHMARK = Benchmark(...)``
beside its code (``wordbench.declaration``); this module lists the built-in ones, one line each, and adds those other
packages declare under the entry-point group ``wordbench.benchmarks`` or pass to :func:`register`. A declaration
without a ``builder_path`` gets the one ``Builder`` of its name that its module defines.

``REGISTRY`` maps names to records in that order. It is filled on first use: the builder modules import ``datasets``,
which ``wordbench --help`` need not wait for."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator, MutableMapping
from importlib.metadata import entry_points

from wordbench.declaration import Benchmark, Figure, Headline, Profile
from wordbench.errors import ConfigError

__all__ = ["REGISTRY", "Benchmark", "Figure", "Headline", "Profile", "get", "register"]

BUILTIN = (  # the modules that declare the built-in benchmarks, in the order tables list them
    "wordbench.builders.wnlampro",
    "wordbench.builders.wordpred",
    "wordbench.builders.paraphrase",
    "wordbench.builders.tendencies",
    "wordbench.builders.vast",
    "wordbench.builders.minpairs.builder",
)
ENTRY_POINTS = "wordbench.benchmarks"  # pyproject: [project.entry-points."wordbench.benchmarks"] NAME = "module:BENCHMARK"


class _Registry(MutableMapping):
    """name -> Benchmark, filled from the declarations on first access."""

    def __init__(self) -> None:
        self._records: dict[str, Benchmark] | None = None

    def _all(self) -> dict[str, Benchmark]:
        if self._records is None:
            records: dict[str, Benchmark] = {}
            for module in BUILTIN:
                _add(records, importlib.import_module(module).BENCHMARK, module, module)
            for point in entry_points(group=ENTRY_POINTS):
                try:
                    declared = point.load()
                except Exception as exc:  # a broken plugin names itself instead of breaking every command
                    raise ConfigError(f"the benchmark '{point.name}' declared by entry point {point.value} cannot be "
                                      f"imported: {type(exc).__name__}: {exc}") from None
                _add(records, declared, f"entry point {point.value}", point.module)
            self._records = records
        return self._records

    def __getitem__(self, name: str) -> Benchmark:
        return self._all()[name]

    def __setitem__(self, name: str, bench: Benchmark) -> None:
        self._all()[name] = bench

    def __delitem__(self, name: str) -> None:
        del self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def _add(records: dict[str, Benchmark], bench, where: str, module: str | None = None) -> None:
    if not isinstance(bench, Benchmark):
        raise ConfigError(f"{where} declares {type(bench).__name__}, not a wordbench.declaration.Benchmark")
    if bench.name in records:
        raise ConfigError(f"two benchmarks are named '{bench.name}' (the second from {where}): rename one")
    if not bench.builder_path:
        bench = dataclasses.replace(bench, builder_path=_builder_path(bench.name, module, where))
    records[bench.name] = bench


def _builder_path(name: str, module: str | None, where: str) -> str:
    """The ``module:Class`` of the one Builder named ``name`` that the declaring ``module`` defines."""
    from wordbench.builders.base import Builder

    if module is None:
        raise ConfigError(f"the benchmark '{name}' from {where} declares no builder_path: give builder_path='module:Class'")
    found = [cls.__name__ for cls in vars(importlib.import_module(module)).values()
             if isinstance(cls, type) and issubclass(cls, Builder) and cls.__module__ == module and getattr(cls, "name", None) == name]
    if len(found) != 1:
        raise ConfigError(f"the benchmark '{name}' declares no builder_path and its module {module} defines "
                          f"{len(found)} Builder subclasses named '{name}': give builder_path='module:Class'")
    return f"{module}:{found[0]}"


REGISTRY: MutableMapping[str, Benchmark] = _Registry()


def register(bench: Benchmark) -> Benchmark:
    """Add ``bench`` to the registry (a benchmark declared outside an installed package's entry points); returns the
    registered record (its builder found in the module that holds ``bench`` as ``BENCHMARK``, unless it names one)."""
    import sys

    module = next((name for name, m in list(sys.modules.items()) if getattr(m, "BENCHMARK", None) is bench), None)
    _add(REGISTRY._all(), bench, "register()", module)
    return REGISTRY[bench.name] if isinstance(bench, Benchmark) else bench


def get(name: str) -> Benchmark:
    try:
        return REGISTRY[name]
    except KeyError:
        raise ConfigError(f"unknown benchmark '{name}'; available: {', '.join(REGISTRY)}") from None
