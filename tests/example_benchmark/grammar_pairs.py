"""A benchmark declared outside wordbench: English grammatical minimal pairs read from a JSONL file (one object per
line: ``good``, ``bad``, ``phenomenon``), scored as the share of pairs whose good sentence the model finds more
probable. It is the worked example of docs/adding-a-benchmark.md; tests/test_example_benchmark.py registers it
through an entry point, then lists, builds and scores it as a user would."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import datasets

from wordbench.builders.base import Builder, free_text
from wordbench.builders.sources.base import SourceInfo
from wordbench.declaration import Benchmark, Headline
from wordbench.errors import ConfigError, DataFormatError
from wordbench.hashing import file_sha8
from wordbench.scorers.pairs import PairScorer
from wordbench.spec import Spec, faithful_opt, opt

FEATURES = datasets.Features({name: datasets.Value("string") for name in ("id", "phenomenon", "good", "bad")})


def read_pairs(path: Path) -> list[dict]:
    """The rows of a JSONL file of pairs; a line that is no such object is one error naming the line."""
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataFormatError(f"{path} line {n}: not JSON ({exc.msg})") from None
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) and item[k].strip() for k in ("good", "bad", "phenomenon")):
            raise DataFormatError(f"{path} line {n}: expected an object with the strings good, bad and phenomenon")
        rows.append({"id": f"{item['phenomenon']}-{len(rows):05d}", "phenomenon": item["phenomenon"],
                     "good": item["good"], "bad": item["bad"]})
    return rows


@dataclass(frozen=True)
class Config(Spec):
    file: str = opt("", "the JSONL file of pairs: one {good, bad, phenomenon} object per line")
    faithful: bool = faithful_opt()


class GrammarBuilder(Builder):
    name = "grammar"
    version = "1.0.0"
    Config = Config
    schema = {"default": FEATURES}
    fields = {"id": "phenomenon and line number", "phenomenon": "the grammatical phenomenon the pair tests",
              "good": free_text("the grammatical sentence"), "bad": free_text("the same sentence made ungrammatical by one change")}

    def sources(self, config: Config) -> list[SourceInfo]:
        path = Path(config.file)
        if not path.is_file():
            raise ConfigError(f"grammar reads its pairs from a file: --set file=PATH (got {config.file!r})")
        return [SourceInfo("pairs", path.name, f"sha256-{file_sha8(path)}")]  # keyed by content: an edit is new data

    def build(self, config: Config, progress: bool = False) -> dict[str, datasets.DatasetDict]:
        return self.read_file(Path(config.file))

    def read_file(self, path: Path) -> dict[str, datasets.DatasetDict]:
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(read_pairs(path), features=FEATURES)})}


class GrammarScorer(PairScorer):
    name = "grammar"
    families = ("causal", "masked")

    def score(self, model, items: list[dict]) -> list[dict]:
        scores = model.sequence_logprobs([text for it in items for text in (it["good"], it["bad"])])
        return [{"id": it["id"], "phenomenon": it["phenomenon"], "score_correct": good.total, "score_incorrect": bad.total}
                for it, good, bad in zip(items, scores[::2], scores[1::2])]


BENCHMARK = Benchmark(
    name="grammar",
    title="Grammatical pairs (example)",
    summary="English grammatical minimal pairs from a JSONL file: accuracy of s(good) >= s(bad) per phenomenon",
    reference="an example benchmark, after BLiMP (Warstadt et al. 2020)",
    scorer_path="grammar_pairs:GrammarScorer",
    card="Pairs of English sentences that differ in one change which makes the second ungrammatical, read as given.",
    citation="@article{warstadt2020blimp,\n  title={BLiMP: The Benchmark of Linguistic Minimal Pairs for English},\n"
             "  author={Warstadt, Alex and others},\n  journal={TACL},\n  year={2020}\n}",
    paper="warstadt2020",
    limitations="- The pairs are whatever the file holds; the example file is twelve hand-written pairs.",
    headline=Headline("overall/accuracy", "grammar accuracy", True, "wilson", "overall/n"),
    faithful="nothing: the recipe has no published code to follow",
    sampling="phenomenon",
    needs_data="it reads its pairs from a JSONL file: give --data FILE (or build with --set file=FILE)",
    page="grammar_pairs.md",  # beside this module
)
