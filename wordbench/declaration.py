"""A benchmark's declaration: everything the registry, the CLI, cards, docs and the leaderboard read about it,
declared once beside its builder (``BENCHMARK = Benchmark(...)`` in the builder's module) and collected by
``wordbench.benchmarks.registry``. Plain data: the builder and scorer are named by ``module:Class`` paths and imported
only when used (scorers import torch)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from .errors import ConfigError


@dataclass(frozen=True)
class Headline:
    """A benchmark's one figure on the submissions leaderboard: a path into its summary's metrics, which way is better,
    and its interval (the path of a [low, high] pair, ``wilson`` for a proportion's 95% Wilson interval from the path
    ``n``, or None where the scorer gives none)."""

    metric: str
    label: str
    higher_is_better: bool = True
    interval: str | None = None
    n: str | None = None

    def read(self, metrics: dict) -> tuple[float | None, tuple[float, float] | None]:
        """(value, interval) of a run's metrics; (None, None) where the run has no such figure."""
        value = _at(metrics, self.metric)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return None, None
        if self.interval == "wilson":
            from scipy.stats import binomtest

            n = _at(metrics, self.n or "")
            if not isinstance(n, int) or n < 1:
                return float(value), None
            ci = binomtest(round(value * n), n).proportion_ci(method="wilson")
            return float(value), (round(ci.low, 4), round(ci.high, 4))
        pair = _at(metrics, self.interval) if self.interval else None
        return float(value), (tuple(pair) if isinstance(pair, (list, tuple)) and len(pair) == 2 else None)


def _at(metrics: dict, path: str):
    for key in path.split("/"):
        if not isinstance(metrics, dict) or key not in metrics:
            return None
        metrics = metrics[key]
    return metrics


@dataclass(frozen=True)
class Profile:
    """The options and ``--limit`` a submitted model is scored with (``full`` on a GPU, ``quick`` on a CPU)."""

    options: tuple[tuple[str, object], ...] = ()
    limit: int | None = None

    def as_dict(self) -> dict:
        return {"options": dict(self.options), "limit": self.limit}


@dataclass(frozen=True)
class Figure:
    """The documentation page's figure: a seeded sample of the default build scored by a packaged model
    (``smollm2`` or ``minilm``), and which of the run's plots is shown."""

    model: str
    plot: str  # a file of the run's plots/ folder
    unit: str  # what the sample counts ("test entries")
    limit: int | None = None  # the sample; None: all of it
    overrides: tuple[str, ...] = ()  # --set KEY=VALUE for the build
    options: tuple[tuple[str, object], ...] = ()  # --option KEY=VALUE for the score


@dataclass(frozen=True)
class Benchmark:
    name: str  # the registry key; the builder and the scorer declare the same name (tested)
    summary: str
    scorer_path: str  # "module:Class" (imported when a model is scored: scorers import torch)
    card: str  # how the data is built, for the dataset card
    citation: str
    paper: str  # the paper's id, named in signatures by --faithful (``faithful:dudy2020``)
    builder_path: str = ""  # "module:Class"; empty: the Builder of this name that the declaring module defines (the registry finds it)
    license: str = "other"
    license_name: str | None = None
    license_link: str | None = None
    language: tuple[str, ...] = ("en",)
    task_categories: tuple[str, ...] = ("fill-mask", "text-generation")
    tags: tuple[str, ...] = field(default_factory=tuple)
    paper_url: str = ""  # the paper, linked from the card
    task_ids: tuple[str, ...] = ()
    source_datasets: tuple[str, ...] = ("original",)
    limitations: str = ""  # the card's "Known limitations" section
    headline: Headline | None = None  # the submissions leaderboard's column
    profiles: tuple[tuple[str, Profile], ...] = (("full", Profile()), ("quick", Profile(limit=100)))  # submission profiles
    title: str = ""  # the documentation's name for it (its page title in the nav); default: the name
    reference: str = ""  # the paper in one line, for tables: "Authors YEAR, *Title*"
    faithful: str = ""  # what --faithful changes, in one table cell (docs/concepts.md)
    sampling: str = ""  # what --limit stratifies by, in a few words (the scorer's ``stratum()``)
    needs_data: str = ""  # non-empty: it has no default data, and this says what to give (a suite skips it without)
    figure: Figure | None = None  # the figure of its documentation page (docs/figures.py draws it)
    page: str | None = None  # its documentation page, for a benchmark outside this repository (default docs/benchmarks/NAME.md)
    kind: object | None = None  # a benchmark of a known kind (``wordbench.builders.kinds``): its builder and scorer are the kind's
    kind_name: str = ""  # the known kind it is of (pairs, cloze, ratings): its scorer extends that kind's (tested); "": a kind of its own

    @property
    def kind_label(self) -> str:
        """Its kind, for lists and pages: the known kind's name, or "its own"."""
        return self.kind_name or "its own"

    def profile(self, name: str | None) -> Profile:
        """A submission profile by name; None: no profile (no options, no limit)."""
        if name is None:
            return Profile()
        found = dict(self.profiles).get(name)
        if found is None:
            raise ConfigError(f"{self.name} has no submission profile '{name}'; it has {', '.join(dict(self.profiles))}")
        return found

    @staticmethod
    def _load(path: str):
        """The object a ``module:Class`` path names; a path of another form, or one that does not import, is a
        ``ConfigError`` that names it."""
        module, sep, name = path.partition(":") if isinstance(path, str) else ("", "", "")
        if not (sep and module and name) or ":" in name:
            raise ConfigError(f"{path!r} is not a 'module:Class' path")
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            raise ConfigError(f"{path} cannot be imported ({type(exc).__name__}: {exc})") from None

    @property
    def builder_class(self):
        return self.kind.builder(self) if self.kind is not None else self._load(self.builder_path)

    @property
    def scorer_class(self):
        return self.kind.scorer(self) if self.kind is not None else self._load(self.scorer_path)

    @property
    def version(self) -> str:
        """The builder's version, declared once beside the code that makes the data."""
        return self.builder_class.version

    def builder(self):
        return self.builder_class()

    def scorer(self, **options):
        return self.scorer_class(paper=self.paper, **options)
