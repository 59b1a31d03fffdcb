"""The benchmarks, collected from their declarations: each builder module declares ``BENCHMARK = Benchmark(...)``
beside its code (``wordbench.declaration``); this module lists the built-in ones, one line each, and adds those other
packages declare under the entry-point group ``wordbench.benchmarks`` or pass to :func:`register`.

``REGISTRY`` maps names to records in that order. It is filled on first use: the builder modules import ``datasets``,
which ``wordbench --help`` need not wait for."""

from __future__ import annotations

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
                _add(records, importlib.import_module(module).BENCHMARK, module)
            for point in entry_points(group=ENTRY_POINTS):
                try:
                    declared = point.load()
                except Exception as exc:  # a broken plugin names itself instead of breaking every command
                    raise ConfigError(f"the benchmark '{point.name}' declared by entry point {point.value} cannot be "
                                      f"imported: {type(exc).__name__}: {exc}") from None
                _add(records, declared, f"entry point {point.value}")
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


def _add(records: dict[str, Benchmark], bench, where: str) -> None:
    if not isinstance(bench, Benchmark):
        raise ConfigError(f"{where} declares {type(bench).__name__}, not a wordbench.declaration.Benchmark")
    if bench.name in records:
        raise ConfigError(f"two benchmarks are named '{bench.name}' (the second from {where}): rename one")
    records[bench.name] = bench


REGISTRY: MutableMapping[str, Benchmark] = _Registry()


def register(bench: Benchmark) -> Benchmark:
    """Add ``bench`` to the registry (a benchmark declared outside an installed package's entry points); returns it."""
    _add(REGISTRY._all(), bench, "register()")
    return bench


def get(name: str) -> Benchmark:
    try:
        return REGISTRY[name]
    except KeyError:
        raise ConfigError(f"unknown benchmark '{name}'; available: {', '.join(REGISTRY)}") from None
