"""The scorer contract, kept apart from the benchmarks that implement it."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import ClassVar

from .models import ModelError, ModelInfo, ScoringModel


class Scorer:
    """Scores items of one benchmark; ``settings`` are the options that change its numbers."""

    name: ClassVar[str]
    paper: str = ""  # the paper's id (set from the registry): the signature names it under --faithful
    families: ClassVar[tuple[str, ...]] = ("causal", "masked")
    chunk_size: ClassVar[int] = 64  # items scored between two appends to records.jsonl
    option_names: ClassVar[tuple[str, ...]] = ()  # keyword options the scorer accepts (``--option KEY=VALUE``)
    Options: ClassVar[type | None] = None  # a dataclass of the options with their defaults; sets ``option_names``
    limit: int | None = None  # --limit, set by the runner before ``work_items``

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.Options is not None:
            cls.option_names = tuple(f.name for f in dataclasses.fields(cls.Options))

    def __init__(self, faithful: bool | str = False, **options):
        from wordbench.builders.base import parse_bool

        # --faithful: every behaviour of the paper and the authors' code, bugs that change numbers included.
        self.faithful = parse_bool("faithful", faithful)
        unknown = sorted(set(options) - set(self.option_names))
        if unknown:
            from wordbench.builders.errors import ConfigError

            accepted = ", ".join(self.option_names) or "none"
            raise ConfigError(f"{self.name} has no scoring option {', '.join(unknown)} (accepted: {accepted})")
        if self.Options is not None:
            from wordbench.builders.base import parse_overrides

            # Typed and range-checked like a builder config: `n=abc` or `beams=-1` is a one-line error.
            self.opts = parse_overrides(self.Options, options)
            options = {k: getattr(self.opts, k) for k in options}
        else:
            self.opts = None
        self.options = {**options, **({"faithful": True} if self.faithful else {})}

    @property
    def settings(self) -> dict[str, object]:
        return dict(self.options)

    def signature_settings(self) -> dict[str, object]:
        """The settings as the run signature names them: ``faithful:<paper>`` when the switch is on."""
        settings = {k: v for k, v in self.settings.items() if k != "faithful"}
        return {**settings, **({"faithful": self.paper or "paper"} if self.faithful else {})}

    # --- stratified --limit: one rule for every benchmark (benchmarks.runner.select) ---------------
    def stratum(self, row: dict) -> object:
        """The stratum a row is sampled in (relation x bin, phenomenon x reference, ...); None: one stratum."""
        return None

    def sample_unit(self, row: dict) -> str:
        """Rows with the same unit are kept or dropped together (e.g. one word's contexts)."""
        return row["id"]

    def always_keep(self, row: dict) -> bool:
        """Rows a sample always holds whatever the limit (e.g. VAST's polar words); they do not count in it."""
        return False

    def check_model(self, model: ScoringModel) -> None:
        self.check_family(model.family, model.info.name)

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

    def prepare(self, data: dict) -> None:
        """Read what scoring needs beyond the items (e.g. another config of the dataset); called once per run."""

    def score(self, model: ScoringModel, items: list[dict]) -> list[dict]:
        raise NotImplementedError

    def summarize(self, records: list[dict]) -> dict:
        raise NotImplementedError

    def report(self, summaries: list[dict]) -> str:
        """Markdown tables of one or several runs side by side."""
        raise NotImplementedError

    def plots(self, records: list[dict], summary: dict, folder: Path) -> list[str]:
        """Figures of one run (default: the comparison figures with this run alone)."""
        return self.compare_plots([summary], folder)

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        """Figures with several runs side by side (``wordbench report --plots``)."""
        return []
