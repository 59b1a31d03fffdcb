"""The scorer contract, kept apart from the benchmarks that implement it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from wordbench import spec
from wordbench.hashing import content_tag
from wordbench.spec import Spec

from .models import ModelError, ModelInfo, ScoringModel


def _new_tokens(model) -> tuple[int | None, str]:
    positions = model.max_length
    return (None, "") if positions is None else (positions - 1, f"it takes {positions} positions, and a prompt holds at least one")


# Each ``model_max`` bound of wordbench.spec.MODEL_BOUNDS on a model or a plan: (the largest value, the range in words).
MODEL_LIMITS = {
    "layers": lambda m: (m.num_layers, f"layers 0..{m.num_layers} (0: the embeddings)"),
    "new_tokens": _new_tokens,
}


@dataclass(frozen=True)
class NoOptions(Spec):
    """A scorer without options of its own."""


@dataclass(frozen=True)
class RunContext:
    """What a run is, given to the scorer once (``prepare``) before the model loads: the data, the selected
    rows, the --limit, the --faithful switch and the paper it names. The model comes with its own identity
    (``model.info``) to ``score``. Nothing else sets state on a scorer from outside."""

    data: dict = field(default_factory=dict)  # {dataset config: DatasetDict}
    rows: tuple = ()  # the rows selected for scoring (config, split, --limit sample)
    limit: int | None = None
    faithful: bool = False
    paper: str = ""
    config: str = "default"
    split: str = "test"


class Scorer:
    """Scores items of one benchmark; ``settings`` are the options that change its numbers."""

    name: ClassVar[str]
    families: ClassVar[tuple[str, ...]] = ("causal", "masked")
    chunk_size: ClassVar[int] = 64  # items scored between two appends to records.jsonl
    # The version of ``summarize`` (how records become metrics): bumped for a new statistic or a corrected formula. A
    # version above 1 is named in the run signature; ``wordbench rescore`` re-derives a run's metrics from its records.
    metric_version: ClassVar[int] = 1
    Options: ClassVar[type] = NoOptions  # the declared options (``--option KEY=VALUE``), see wordbench.spec

    def __init__(self, faithful: bool | str = False, paper: str = "", **options):
        # --faithful: every behaviour of the paper and the authors' code, bugs that change numbers included.
        self.faithful = spec.parse_bool("faithful", faithful)
        self.paper = paper  # the paper's id: the signature names it under --faithful
        # Typed and range-checked by the declaration: `n=abc` or `beams=-1` is a one-line error.
        self.options = spec.parse(self.Options, options, source="--option")
        # What the user gave (summary.json's "options"); ``settings`` are what changes the numbers (the signature).
        self.given_options = {**{k: getattr(self.options, k) for k in options}, **({"faithful": True} if self.faithful else {})}
        self.context = RunContext(faithful=self.faithful, paper=paper)
        # {file it read itself: {"lines": n}}: texts holding characters a model cannot see (summary.json reports them)
        self.invisible_text: dict[str, dict[str, int]] = {}

    @property
    def limit(self) -> int | None:
        return self.context.limit

    @property
    def opts(self):
        """The former name of ``options``."""
        return self.options

    @property
    def settings(self) -> dict[str, object]:
        """The settings that change this scorer's numbers (by default, the options given)."""
        return dict(self.given_options)

    def settings_for(self, family: str | None) -> dict[str, object]:
        """The settings for a model of ``family`` (a scorer whose behaviour depends on the family overrides it)."""
        return self.settings

    def signature_settings(self, family: str | None = None) -> dict[str, object]:
        """The settings as the run signature names them: ``faithful:<paper>`` when the switch is on, and every setting
        that names local files with their content hash (``content_tag``: a fine-tuning corpus, a prompts file)."""
        settings = {k: content_tag(v) for k, v in self.settings_for(family).items() if k != "faithful"}
        return {**settings, **({"faithful": self.paper or "paper"} if self.faithful else {}),
                **({"metrics": f"v{self.metric_version}"} if self.metric_version != 1 else {})}

    # --- stratified --limit: one rule for every benchmark (benchmarks.runner.select) ---------------
    limit_help: ClassVar[str | None] = None  # what --limit does, where it is not only a sample stratified by ``stratum``

    def stratum(self, row: dict) -> object:
        """The stratum a row is sampled in (relation x bin, phenomenon x reference, ...); None: one stratum. The first
        line of an override's docstring says what it stratifies by: ``score --help`` lists it under ``--limit``."""
        return None

    def sample_unit(self, row: dict) -> str:
        """Rows with the same unit are kept or dropped together (e.g. one word's contexts)."""
        return row["id"]

    def always_keep(self, row: dict) -> bool:
        """Rows a sample always holds whatever the limit (e.g. VAST's polar words); they do not count in it."""
        return False

    def check_model(self, model: ScoringModel) -> None:
        """What the scorer asks of ``model`` (a plan knows it from the config, before the data and the weights load):
        its family, and every declared option bounded by the model (``opt(model_max=...)``) within the model's range."""
        self.check_family(model.family, model.info.name)
        for f in dataclasses.fields(self.Options):
            bound, value = f.metadata.get("model_max"), getattr(self.options, f.name)
            if bound is None or value is None or not self.uses_option(f.name):
                continue
            most, allowed = MODEL_LIMITS[bound](model)
            if most is not None and value > most:
                raise ModelError(f"{self.name}: --option {f.name}={value} is out of {model.info.name}'s range: {allowed}; "
                                 f"give {f.name} <= {most}")

        if self.context.rows:
            self.check_lengths(model)

    def model_texts(self, rows: tuple, family: str) -> list[tuple[str, str]]:
        """(row id, text) of every text the model reads whole for the selected ``rows`` (a scorer whose texts can be
        long declares them: the run is then checked against the model's positions before any scoring)."""
        return []

    def check_lengths(self, model) -> None:
        """One line naming the first row whose text is longer than the model's positions (with the special tokens the
        family adds), before the weights load; not a ModelError after part of the run was scored."""
        positions = getattr(model, "max_length", None)
        texts = self.model_texts(self.context.rows, model.family) if positions else []
        if not texts:
            return
        # BOS; [CLS] and [SEP]; a seq2seq target's start token and EOS
        extra = {"causal": 1, "masked": 2, "encoder": 2, "seq2seq": 2}.get(model.family, 0)
        lengths = model.tokenizer([t for _, t in texts], add_special_tokens=False)["input_ids"]
        for (row, _), ids in zip(texts, lengths):
            if len(ids) + extra > positions:
                raise ModelError(f"{self.name}: row {row} needs {len(ids) + extra} positions, but {model.info.name} takes {positions}: "
                                 "score a model with more positions, or data without such rows")

    def uses_option(self, key: str) -> bool:
        """Whether this run uses option ``key`` (an option a run ignores is not checked against the model)."""
        return True

    def check_family(self, family: str, model_name: str) -> None:
        """Refuse a model family the benchmark cannot score (the CLI asks before the weights load)."""
        if family not in self.families:
            raise ModelError(
                f"{self.name} needs a {', '.join(self.families[:-1]) + ' or ' if len(self.families) > 1 else ''}{self.families[-1]} model; "
                f"{model_name} is {family}"
                + (" (no LM head)" if family == "encoder" else "")
            )

    def run_info(self, model: ScoringModel | None) -> ModelInfo:
        """What the run scores (the model, by default): its name and version go into the signature."""
        if model is None:
            raise ModelError(f"{self.name} needs a model (--model)")
        self.check_model(model)
        return model.info

    def work_items(self, rows: list[dict]) -> list[dict]:
        """The items to score, from the selected dataset rows (by default the rows themselves)."""
        return rows

    def generation_units(self, items: list[dict]) -> int | None:
        """How many texts scoring ``items`` generates, where that is not one per item (minpairs translates each
        distinct source once): a cost estimate scales the time spent generating by it. None: with the items."""
        return None

    def prepare(self, context: RunContext) -> None:
        """Take the run's context; subclasses also read what scoring needs beyond the items (e.g. another
        config of ``context.data``). Called once per run, before the model loads."""
        if context.faithful != self.faithful:
            raise ValueError("the run context's faithful switch differs from the scorer's")
        self.context = context

    def score(self, model: ScoringModel, items: list[dict]) -> list[dict]:
        raise NotImplementedError

    def summarize(self, records: list[dict]) -> dict:
        raise NotImplementedError

    decision_name: ClassVar[str] = ""  # what ``decision`` is, in the report's precision line

    def decision(self, record: dict) -> object:
        """The item's decision the benchmark counts (a minimal pair's choice, a rank, a hit); None: the
        benchmark has none per item (its numbers are aggregates). The precision check compares them."""
        return None

    def headline_value(self, record: dict) -> float | None:
        """The item's part of the headline when the headline is a mean over items (a pair's 1 or 0, a reciprocal
        rank); None: the item is not counted in it. ``benchmarks.compare`` uses it for a paired bootstrap over the
        items two models share, after checking that the mean gives the headline; a scorer whose headline is no mean
        keeps this default (None everywhere)."""
        return None

    def report(self, summaries: list[dict]) -> str:
        """Markdown tables of one or several runs side by side."""
        raise NotImplementedError

    def plots(self, records: list[dict], summary: dict, folder: Path) -> list[str]:
        """Figures of one run (default: the comparison figures with this run alone)."""
        return self.compare_plots([summary], folder)

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        """Figures with several runs side by side (``wordbench report --plots``)."""
        return []
