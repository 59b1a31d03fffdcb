"""DistilLingEval (Vamvas & Sennrich 2021): contrastive pairs from human and from machine references.

Each rule (``rules/``) finds the positions of a German reference where its error type applies; the
``variants`` mode keeps what the authors' sets keep (``paper``: one seeded variant per sentence for Ding,
clause omission and genitive, one per edited position for the others), every distinct variant (``all``) or
one per sentence (``one``), each a (source, correct, incorrect) row. Human-reference pairs edit the human
translation. Machine-reference pairs edit a beam translation of the same source by one of several MT
systems (each a share of the sources; the paper: four systems, 25% each), each edit kept where the human
reference has the same phenomenon word(s) at a position where the rule applies too, at every position of the
machine reference (section 3.3's lexical overlap, ``licensed``); every drop is counted by reason in the ``counts``
config.
"""

from __future__ import annotations

import random
from collections import Counter
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Sequence

import datasets

from wordbench.declaration import Benchmark, Figure, Headline, Profile
from wordbench.errors import ConfigError, SourceError
from wordbench.identity import model_version
from wordbench.spec import Spec, faithful_opt, opt, seed_opt, template_problem

from ..base import Builder, free_text
from ..sources.base import SourceInfo, file_sha8, seeded_key
from ..sources.german import Analysis, load_analyzer
from ..sources.parallel import TRANS_DE_EN, Pair, load_pairs, parallel_info, parallel_problem, sentence_lines
from .edits import Edit
from .formats import read_distillingeval, read_lingeval97, write_distillingeval, write_lingeval97
from .rules import PHENOMENA, RULES
from .rules.polarity_affix_del import polarity_sources

REFERENCE_TYPES = ("human", "mt")
EDIT = {"start": datasets.Value("int32"), "end": datasets.Value("int32"), "before": datasets.Value("string"), "after": datasets.Value("string")}
FEATURES = datasets.Features({
    "id": datasets.Value("string"), "phenomenon": datasets.Value("string"), "reference_type": datasets.Value("string"),
    "source": datasets.Value("string"), "correct": datasets.Value("string"), "incorrect": datasets.Value("string"),
    "edit": EDIT, "pair_id": datasets.Value("string"), "reference": datasets.Value("string"),
    "system": datasets.Value("string"),  # the MT system of a machine reference ("" for human ones)
})
DROPS = ("unanalyzable", "no_position", "anchor_missing", "human_not_applicable")
COUNT_FEATURES = datasets.Features({
    "phenomenon": datasets.Value("string"), "reference_type": datasets.Value("string"), "sentences": datasets.Value("int64"),
    "pairs": datasets.Value("int64"), **{f"dropped_{d}": datasets.Value("int64") for d in DROPS},
})
ANALYZE_CHUNK = 512
# Table 2 of the paper: contrastive variants per set (human / mt), for the build table.
PAPER_SIZES = {"clause_omission": (1104, 1025), "hypercorrect_genitive": (3404, 635), "np_agreement": (24055, 10595),
               "placeholder_ding": (18647, 18659), "polarity_affix_del": (408, 180), "polarity_particle_kein_del": (554, 201),
               "polarity_particle_nicht_del": (2561, 888), "subj_verb_agreement": (31978, 6701)}


Phenomenon = Literal["clause_omission", "hypercorrect_genitive", "np_agreement", "placeholder_ding", "polarity_affix_del",
                     "polarity_particle_kein_del", "polarity_particle_nicht_del", "subj_verb_agreement"]
assert set(typing.get_args(Phenomenon)) == set(PHENOMENA), "the declared phenomena are the rules"


def _import_problem(value: str | None) -> str | None:
    path = Path(value).expanduser() if value else None
    if path is None or path.is_dir() or (path.is_file() and path.suffix == ".json"):
        return None
    return f"{value} is no DistilLingEval folder nor LingEval97 .json file: give the folder of <phenomenon>.<human|mt> sets"


def _rules_run(c) -> str | None:
    return "import takes its pairs as published, so no rule runs" if c.import_ is not None else None


def _translating(c) -> str | None:
    return _rules_run(c) or (None if c.mt_model else "it sets how mt_model translates, and no mt_model is given")


def _affix_built(c) -> str | None:
    return _rules_run(c) or (None if c.phenomena == "all" or "polarity_affix_del" in c.phenomena
                             else "polarity_affix_del is not among the phenomena built")


@dataclass
class Config(Spec):
    parallel: str = opt(TRANS_DE_EN, "English-German pairs: trans-de-en | ding:PATH | SRC.en,TGT.de | hf:ID[:CONFIG[:SPLIT]]",
                        check=parallel_problem, applies=_rules_run)
    analyzer: Literal["auto", "stanza", "offline"] = opt("auto", "German analysis: stanza if its German models are installed, else "
                                                         "offline (HanTa)", applies=_rules_run)
    phenomena: Literal["all"] | tuple[Phenomenon, ...] = opt("all", "error types to build: all or a list of them", nonempty=True)
    references: tuple[Literal["human", "mt"], ...] = opt(("human",), "reference types: human, mt, or human,mt", nonempty=True,
                                                         applies=_rules_run)
    mt_model: tuple[str, ...] = opt((), "MT model(s), HF id or path, one per system, making the machine references (the translate stage)",
                                    applies=_rules_run)
    mt_translations: tuple[str, ...] = opt((), "or file(s) of machine translations, one per system, line-aligned with the parallel pairs",
                                           applies=_rules_run)
    mt_shares: tuple[float, ...] = opt((), "share of the sources per MT system (default: equal shares)", ge=0, applies=_rules_run)
    mt_beam: int = opt(5, "beam size of the machine translations", ge=1, applies=_translating)
    mt_prompt: str | None = opt(None, "for a causal mt_model: a translation prompt with {source}",
                                check=lambda p: template_problem(p.replace("\\n", "\n")), applies=_translating)
    mt_max_new_tokens: int = opt(256, "longest machine translation in model tokens", ge=1, applies=_translating)
    max_pairs: int | None = opt(None, "a seeded sample of the parallel pairs", ge=1, applies=_rules_run)
    max_per_phenomenon: int | None = opt(None, "a seeded sample of each phenomenon x reference type", ge=1)
    variants: Literal["paper", "all", "one"] = opt("paper", "paper: as the authors' sets, one seeded variant per edited position, one per "
                                                     "sentence for placeholder_ding, clause_omission and hypercorrect_genitive; all: every "
                                                     "distinct variant (np_agreement: every determiner; polarity_affix_del: stems longer than the authors' too); "
                                                     "one: one seeded variant per sentence", applies=_rules_run)
    affix_polarity: Literal["lookup", "dictionary"] = opt(
        "lookup", "polarity_affix_del: lookup (the authors' sets: un- + a positive in use) or dictionary (also the paper's "
        "polarity condition, checked through the Ding dictionary's glosses and WordNet antonyms, a positive in free use, no "
        "un-word grading an adjective)", applies=_affix_built)
    seed: int = seed_opt()
    faithful: bool = faithful_opt()
    import_: str | None = opt(None, "a DistilLingEval folder (or one of its sets) or a LingEval97 .json whose pairs are the data, "
                                    "as published (no rule runs; phenomena and max_per_phenomenon select from them)", check=_import_problem)

    def validate(self) -> None:
        if self.import_ is not None:
            if self.mt_model or self.mt_translations:
                raise ConfigError("import takes its pairs as published: give no mt_model or mt_translations with it")
            return
        if self.mt_model and self.mt_translations:
            raise ConfigError("give mt_model or mt_translations, not both")
        if "mt" in self.references and not (self.mt_model or self.mt_translations):
            raise ConfigError("machine references need --set mt_model=HF_ID_OR_PATH (a seq2seq MT model) or --set mt_translations=FILE")
        systems = self.mt_translations or self.mt_model
        if self.mt_shares and (len(self.mt_shares) != len(systems) or not sum(self.mt_shares)):
            raise ConfigError(f"mt_shares needs one non-negative share per MT system ({len(systems)}), not {','.join(map(str, self.mt_shares))}")


# How the translate stage's beam search (and the scorer's, for the discrepancy) ends a source, as fairseq's does: once
# ``beam`` hypotheses have finished, none before its first token. The signatures of an MT model's build and of a
# discrepancy run name it.
TRANSLATION_STOP = "beam-size finished, at least one token (fairseq)"


@dataclass(frozen=True)
class TranslationJob:
    """What the translate stage must translate for a build: one MT system's share of the sources."""

    system: str
    sources: tuple[str, ...]
    beam: int
    prompt: str | None
    max_new_tokens: int


# The authors' sets hold one variant per sentence for these (a random noun, clause or preposition), one per
# edited position for the others (each "nicht", each definite article).
ONE_PER_SENTENCE = frozenset({"placeholder_ding", "clause_omission", "hypercorrect_genitive"})


def distinct_variants(text: str, edits: Sequence[Edit]) -> list[tuple[str, Edit]]:
    """(incorrect, edit) per distinct variant of ``text``, the first edit of each, in edit order."""
    variants: dict[str, Edit] = {}
    for e in edits:
        variants.setdefault(e.apply(text), e)
    return [(incorrect, e) for incorrect, e in variants.items() if incorrect != text]


def select_variants(text: str, edits: Sequence[Edit], phenomenon: str, mode: str, key: int) -> list[tuple[int, str, Edit]]:
    """(index, incorrect, edit) of the variants a ``variants`` mode keeps: ``all`` every distinct variant; ``one`` one
    seeded variant per sentence; ``paper`` one seeded variant per edited position (per sentence in ONE_PER_SENTENCE)."""
    unique = [(k, incorrect, e) for k, (incorrect, e) in enumerate(distinct_variants(text, edits))]
    if mode == "all" or not unique:
        return unique
    rng = random.Random(key)
    if mode == "one" or phenomenon in ONE_PER_SENTENCE:
        return [rng.choice(unique)]
    positions: dict[tuple[int, int], list] = {}
    for v in unique:
        positions.setdefault((v[2].start, v[2].end), []).append(v)
    return sorted(rng.choice(group) for group in positions.values())


def licensed(edits: Sequence[Edit], human_edits: Sequence[Edit]) -> list[Edit]:
    """The machine reference's edits that its human reference validates (section 3.3: "lexical overlap with the human
    references regarding the phenomenon ... the same polarity word as the human reference"): an edit is kept when the
    human reference has a position of the same rule with the same phenomenon words (anchors: the polarity word, the
    preposition), wherever either stands; the machine reference's own positions are all kept (3.1's steps, repeated
    on it). An edit without anchors (a clause, Ding's random noun) needs only that the rule applies to the human
    reference."""
    if not human_edits:
        return []
    words = {e.anchors for e in human_edits}
    return [e for e in edits if not e.anchors or e.anchors in words]


class MinPairsBuilder(Builder):
    name = "minpairs"
    version = "1.9.0"
    Config = Config
    schema = {"default": FEATURES, "counts": COUNT_FEATURES}
    configs = ("default", "counts")
    labels = {"phenomenon": PHENOMENA, "reference_type": REFERENCE_TYPES}
    fields = {
        "id": "stable pair id", "phenomenon": "the error type (one rule each, section 3.1)",
        "reference_type": "human: the human translation edited; mt: a machine translation of the same source edited",
        "source": free_text("the English source sentence"), "correct": free_text("the German reference"),
        "incorrect": free_text("the contrastive variant"),
        "edit": "character span of the reference that was replaced (start, end, before, after)",
        "pair_id": "id of the source-reference pair the variant comes from", "reference": free_text("the human reference"),
        "system": "the MT system of a machine reference (empty for human ones)",
        "sentences": "references the rule was tried on", "pairs": "contrastive pairs made",
        **{f"dropped_{d}": f"references dropped: {d.replace('_', ' ')}" for d in DROPS},
    }

    def __init__(self):
        self._analyzers: dict[str, object] = {}

    def analyzer(self, name: str):
        if name not in self._analyzers:
            self._analyzers[name] = load_analyzer(name)
        return self._analyzers[name]

    def _check(self, config: Config) -> tuple[list[str], list[str]]:
        phenomena = list(PHENOMENA) if config.phenomena == "all" else list(config.phenomena)
        return phenomena, list(config.references)

    @staticmethod
    def _systems(config: Config) -> list[str]:
        """The MT systems: translation files, or models."""
        return list(config.mt_translations or config.mt_model)

    def _shares(self, config: Config) -> list[float]:
        shares = list(config.mt_shares) or [1.0] * len(self._systems(config))
        return [x / sum(shares) for x in shares]

    def sources(self, config: Config) -> list[SourceInfo]:
        if config.import_ is not None:
            path = Path(config.import_).expanduser()
            return [SourceInfo("import", f"published pairs {path.name}", f"file-sha256-{file_sha8(path)}")]
        _, refs = self._check(config)
        out = [parallel_info(config.parallel), self.analyzer(config.analyzer).info]
        if config.affix_polarity == "dictionary" and (config.phenomena == "all" or "polarity_affix_del" in config.phenomena):
            out += polarity_sources()  # the polarity condition's dictionaries
        if "mt" in refs:
            for system, share in zip(self._systems(config), self._shares(config)):
                if config.mt_translations:
                    out.append(SourceInfo("mt", f"machine translations {Path(system).name} ({share:.0%})",
                                          f"file-sha256-{file_sha8(Path(system).expanduser())}"))
                    continue
                version = model_version(system)  # the same identity as a scored model: every weight, config and tokenizer file
                tag = version if version.startswith("sha256-") else f"{system}@{version}"
                out.append(SourceInfo("mt", f"MT model {system} ({share:.0%}), beam {config.mt_beam}, max {config.mt_max_new_tokens} new tokens, "
                                      f"stop {TRANSLATION_STOP}" + (", prompted" if config.mt_prompt else ""), f"{tag}+stop:fairseq"))
        return out

    def _pairs(self, config: Config) -> tuple[list[Pair], list[int], int]:
        """The selected pairs, their positions among all pairs of the source, and how many pairs it has."""
        pairs = load_pairs(config.parallel)
        if not pairs:
            raise SourceError(f"no sentence pairs in {config.parallel}")
        index = list(range(len(pairs)))
        if config.max_pairs is not None and config.max_pairs < len(pairs):
            index = sorted(sorted(index, key=lambda i: seeded_key(config.seed, pairs[i].id))[: config.max_pairs])
        return [pairs[i] for i in index], index, len(pairs)

    def _analyze(self, analyzer, texts: list[str], progress: bool, desc: str) -> list[Analysis | None]:
        from tqdm.auto import tqdm

        out: list[Analysis | None] = []
        with tqdm(total=len(texts), desc=desc, disable=not progress, leave=False) as bar:
            for i in range(0, len(texts), ANALYZE_CHUNK):
                chunk = texts[i : i + ANALYZE_CHUNK]
                out.extend(analyzer.analyze(chunk))
                bar.update(len(chunk))
        return out

    def build(self, config: Config, progress: bool = False,
              translations: dict[str, list[str]] | None = None) -> dict[str, datasets.DatasetDict]:
        """``translations``: each mt_model's translations of its ``translation_jobs`` sources (the translate stage's output)."""
        if config.import_ is not None:
            return self._imported(config)
        phenomena, refs = self._check(config)
        pairs, index, total = self._pairs(config)
        analyzer = self.analyzer(config.analyzer)
        human = self._analyze(analyzer, [p.reference for p in pairs], progress, "analyze human references")
        machine = systems = None
        if "mt" in refs:
            mt_texts, systems = self._machine_translations(config, pairs, index, total, translations)
            machine = self._analyze(analyzer, mt_texts, progress, "analyze machine references")
        made = {ref: ([], []) for ref in REFERENCE_TYPES}  # (rows, counts); all human ones come first
        for phenomenon in phenomena:
            rule = RULES[phenomenon](faithful=config.faithful, every_position=config.variants == "all",
                                     strict=config.affix_polarity == "dictionary")
            human_edits = [rule.candidates(a) if a is not None else None for a in human]  # shared by both reference types
            built = {}
            if "human" in refs:
                built["human"] = self._human_rows(config, phenomenon, pairs, human, human_edits)
            if machine is not None:
                built["mt"] = self._machine_rows(config, rule, pairs, human, human_edits, machine, systems)
            for ref, (ref_rows, drops) in built.items():
                made[ref][0].extend(ref_rows)
                made[ref][1].append(self._count(phenomenon, ref, len(pairs), drops))
        rows = [r for ref in REFERENCE_TYPES for r in made[ref][0]]
        counts = [c for ref in REFERENCE_TYPES for c in made[ref][1]]
        if not rows:
            raise SourceError(f"no contrastive pair could be made for {', '.join(phenomena)} from {config.parallel}: "
                              "no sentence has a position where the rules apply")
        rows = self._sample(config, rows)
        per_set = Counter((r["phenomenon"], r["reference_type"]) for r in rows)
        for c in counts:
            c["pairs"] = per_set[(c["phenomenon"], c["reference_type"])]
        return {
            "default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)}),
            "counts": datasets.DatasetDict({"test": datasets.Dataset.from_list(counts, features=COUNT_FEATURES)}),
        }

    def _imported(self, config: Config) -> dict[str, datasets.DatasetDict]:
        """The pairs of a published folder or file, unchanged, with the selected phenomena and sample; ``counts`` holds
        their sentences and pairs per set (nothing is dropped: no rule ran)."""
        path = Path(config.import_).expanduser()
        phenomena, _ = self._check(config)
        rows = read_distillingeval(path) if path.is_dir() else read_lingeval97(path)
        rows = self._sample(config, [r for r in rows if r["phenomenon"] in phenomena])
        if not rows:
            raise SourceError(f"{path} holds no pairs of {', '.join(phenomena)}")
        sets: dict[tuple[str, str], list[dict]] = {}
        for r in rows:
            sets.setdefault((r["phenomenon"], r["reference_type"]), []).append(r)
        counts = [{**self._count(ph, ref, len({r["correct"] for r in items}), Counter()), "pairs": len(items)}
                  for (ph, ref), items in sorted(sets.items(), key=lambda k: (REFERENCE_TYPES.index(k[0][1]), k[0][0]))]
        return {
            "default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)}),
            "counts": datasets.DatasetDict({"test": datasets.Dataset.from_list(counts, features=COUNT_FEATURES)}),
        }

    @staticmethod
    def _count(phenomenon, ref, sentences, drops: Counter) -> dict:
        """A counts row; ``pairs`` is filled in after sampling."""
        return {"phenomenon": phenomenon, "reference_type": ref, "sentences": sentences, "pairs": 0,
                **{f"dropped_{d}": drops[d] for d in DROPS}}

    def _rows(self, config, phenomenon, ref, pair: Pair, analysis: Analysis, edits, system: str = "") -> list[dict]:
        """One row per variant the ``variants`` mode keeps (``select_variants``)."""
        text = analysis.text
        chosen = select_variants(text, edits, phenomenon, config.variants, seeded_key(config.seed, f"{phenomenon}:{ref}:{pair.id}"))
        return [{
            "id": f"{phenomenon}.{ref}-{pair.id}.{k}",
            "phenomenon": phenomenon, "reference_type": ref, "source": pair.source, "correct": text, "incorrect": incorrect,
            "edit": {"start": edit.start, "end": edit.end, "before": edit.before(text), "after": edit.after},
            "pair_id": pair.id, "reference": pair.reference, "system": system,
        } for k, incorrect, edit in chosen]

    def _human_rows(self, config, phenomenon, pairs, human, human_edits) -> tuple[list[dict], Counter]:
        rows, drops = [], Counter()
        for pair, analysis, edits in zip(pairs, human, human_edits):
            if analysis is None:
                drops["unanalyzable"] += 1
            elif edits:
                rows.extend(self._rows(config, phenomenon, "human", pair, analysis, edits))
            else:
                drops["no_position"] += 1
        return rows, drops

    @classmethod
    def row_problem(cls, config: str, table) -> str | None:
        """A variant identical to its reference scores a tie, which counts as correct: no such pair is scored."""
        import pyarrow.compute as pc

        if config != "default" or table.num_rows == 0:
            return None
        same = pc.equal(table.column("correct"), table.column("incorrect"))
        if not pc.any(same).as_py():
            return None
        n = pc.index(same, True).as_py()
        return (f"row {n + 1} (id {table.column('id')[n].as_py()}): the incorrect variant is the correct reference itself "
                "(a tie would count as correct); remove the pair or give its variant")

    def _machine_rows(self, config, rule, pairs, human, human_edits, machine, systems) -> tuple[list[dict], Counter]:
        """The paper's validation (``licensed``): the human reference must hold the edit's anchor words, at a position
        where the rule applies too."""
        rows, drops = [], Counter()
        for pair, ref, ref_edits, mt, system in zip(pairs, human, human_edits, machine, systems):
            if ref is None or mt is None:
                drops["unanalyzable"] += 1
                continue
            edits = rule.candidates(mt)
            if not edits:
                drops["no_position"] += 1
                continue
            ref_words = {w.text.lower() for w in ref.words}
            kept = licensed(edits, ref_edits)
            if not any(set(e.anchors) <= ref_words for e in edits):
                drops["anchor_missing"] += 1
            elif not kept:
                drops["human_not_applicable"] += 1
            else:
                rows.extend(self._rows(config, rule.name, "mt", pair, mt, kept, system))
        return rows, drops

    def _assign(self, config: Config, pairs: list[Pair]) -> list[int]:
        """The MT system of each pair: a seeded shuffle cut into blocks by the systems' shares (exact proportions)."""
        shares = self._shares(config)
        order = sorted(range(len(pairs)), key=lambda i: seeded_key(config.seed, f"mt:{pairs[i].id}"))
        bounds = [round(sum(shares[: k + 1]) * len(pairs)) for k in range(len(shares))]
        out = [0] * len(pairs)
        for rank, i in enumerate(order):
            out[i] = next(k for k, b in enumerate(bounds) if rank < b)
        return out

    def translation_jobs(self, config: Config) -> list[TranslationJob]:
        """The sources each MT model must translate before the build (none with mt_translations or human references)."""
        if "mt" not in config.references or not config.mt_model:
            return []
        pairs, _, _ = self._pairs(config)
        assigned = self._assign(config, pairs)
        return [TranslationJob(system, tuple(p.source for p, a in zip(pairs, assigned) if a == k), config.mt_beam, config.mt_prompt,
                               config.mt_max_new_tokens) for k, system in enumerate(self._systems(config))]

    def _machine_translations(self, config: Config, pairs: list[Pair], index: list[int], total: int,
                              translations: dict[str, list[str]] | None) -> tuple[list[str], list[str]]:
        """(translation, system) per pair, each pair translated by the one system it is assigned to."""
        systems = self._systems(config)
        assigned = self._assign(config, pairs)
        out = [""] * len(pairs)
        for k, system in enumerate(systems):
            mine = [i for i, a in enumerate(assigned) if a == k]
            if not mine:
                continue
            if config.mt_translations:
                path = Path(system).expanduser()
                lines = sentence_lines(path)
                if len(lines) != total:
                    raise ConfigError(f"{path} has {len(lines)} lines but {config.parallel} has {total} pairs: the translations must be line-aligned")
                texts = [lines[index[i]] for i in mine]
            else:
                sources = tuple(pairs[i].source for i in mine)
                texts = (translations or {}).get(system)
                if texts is None or len(texts) != len(sources):
                    raise ConfigError(f"mt_model {system}: its translations come from the translate stage, which this build did not run: "
                                      "build with `wordbench build minpairs` (it translates first) or give mt_translations=FILE "
                                      "(`wordbench translate` writes one)")
            for i, t in zip(mine, texts):
                out[i] = t
        names = [Path(s).name if config.mt_translations else s for s in systems]
        return out, [names[a] for a in assigned]

    def _sample(self, config: Config, rows: list[dict]) -> list[dict]:
        if config.max_per_phenomenon is None:
            return rows
        groups: dict[tuple, list[dict]] = {}
        for r in rows:
            groups.setdefault((r["phenomenon"], r["reference_type"]), []).append(r)
        keep = {r["id"] for g in groups.values() for r in sorted(g, key=lambda r: seeded_key(config.seed, r["id"]))[: config.max_per_phenomenon]}
        return [r for r in rows if r["id"] in keep]

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        lines = ["| phenomenon | reference | sentences | pairs | paper (Table 2) | dropped: unanalyzable / no position / anchor missing / human n/a |",
                 "|---|---|---|---|---|---|"]
        empty = []
        for c in data["counts"]["test"]:
            drops = " / ".join(str(c[f"dropped_{d}"]) for d in DROPS)
            paper = PAPER_SIZES.get(c["phenomenon"], ("–", "–"))[REFERENCE_TYPES.index(c["reference_type"])]
            lines.append(f"| {c['phenomenon']} | {c['reference_type']} | {c['sentences']} | {c['pairs']} | {paper} | {drops} |")
            if not c["pairs"]:
                empty.append(f"{c['phenomenon']}.{c['reference_type']}")
        if empty:
            lines.append(f"\nNo applicable sentence for {', '.join(empty)} (skipped).")
        return "\n".join(lines)

    def export_extra(self, data: dict[str, datasets.DatasetDict], folder: Path) -> list[str]:
        rows = list(data["default"]["test"])
        sets = write_distillingeval(rows, folder / "distillingeval")
        write_lingeval97(rows, folder / "lingeval97.json")
        return [f"distillingeval/{s}" for s in sets] + ["lingeval97.json"]

    def read_file(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """A LingEval97 JSON file."""
        if path.suffix != ".json":
            raise ConfigError(f"{path}: give a LingEval97 .json file or a DistilLingEval folder")
        return self._dataset(read_lingeval97(path))

    def read_folder(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """A DistilLingEval data folder, or one of its ``<phenomenon>.<human|mt>`` sets."""
        return self._dataset(read_distillingeval(path))

    @staticmethod
    def _dataset(rows: list[dict]) -> dict[str, datasets.DatasetDict]:
        return {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}


# The benchmark's declaration, collected by wordbench.benchmarks.registry.
CARD = """\
English-German contrastive minimal pairs following Vamvas & Sennrich (2021), "On the Limits of Minimal
Pairs in Contrastive Evaluation" (DistilLingEval). Each row is an English source, a correct German
translation and a contrastive variant that differs from it in exactly one edit (`edit`: character
span, text before and after). Eight error types, one rule each:

- **placeholder_ding**: one random noun replaced by the uninflected placeholder "Ding".
- **hypercorrect_genitive**: after entgegen, entsprechend, gegenüber, gemäß, nahe, nebst, samt, mitsamt
  or seit, the dative noun phrase turned into the genitive (determiner, strong adjective endings, noun).
- **polarity_affix_del**: the prefix un- deleted from an adjective, adverb, participle or noun when the rest, a stem
  of at most nine letters as in the authors' sets (`variants=all`: any length), is a German word in use, in the
  un-noun's case and number, not inside a dictionary's "( ... )"; `affix_polarity=dictionary` also checks that the
  un-word is a negation (its Ding glosses against its positive's, WordNet antonyms, a positive in free use, no
  degree modifier such as unglaublich dumm).
- **polarity_particle_kein_del**: kein* -> ein*; **polarity_particle_nicht_del**: "nicht" deleted.
- **clause_omission**: one segment of a reference that the sentence splitter (also at ; and :) divides.
- **np_agreement**: a determiner replaced by a form of its paradigm that agrees with none of the noun's
  readings (same case and number, another gender where possible).
- **subj_verb_agreement**: the number of a clause's first third-person finite verb swapped.

`reference_type` **human** edits the human reference; **mt** edits a machine translation of the same
source (beam search that ends a source once `mt_beam` hypotheses have finished, as fairseq's) by one of the MT systems (`system`; each translates its share of the sources, the
paper mixes four at 25%), an edit kept where the human reference has the same phenomenon word(s) at a
position where the rule applies too, at every position of the machine reference (section 3.3's lexical overlap;
Ding's noun and a clause need only that the rule applies to the human reference). The `counts` config lists, per
phenomenon and reference type, the sentences, the pairs and every drop by reason. By default (`variants=paper`)
variants are made as in the authors' sets: one seeded variant per edited position, one per sentence for
placeholder_ding, clause_omission and hypercorrect_genitive (`variants=all`: every distinct variant; `one`: one
seeded variant per sentence and rule). `faithful` adds the
authors' behaviours: "nicht" deleted in "nicht nur"/"nicht wahr" too, the short genitive (Monats) where
German allows both. German analysis: stanza where its German models are installed, else the offline
analyzer (HanTa tags and lemmas, german-nouns gender and forms, article paradigms, verb endings),
which is less accurate than stanza: expect some noisy variants. The offline default source is the
example sentences of the Ding dictionary (Debian trans-de-en, GPL-2+); the paper used WMT newstest
2009-2016. The folder also holds the DistilLingEval layout (`distillingeval/<phenomenon>.<ref>/src.en,
tgt.correct.de, tgt.incorrect.de`) and LingEval97 JSON (`lingeval97.json`).
"""
CITATION = """\
@inproceedings{vamvas-sennrich-2021-limits,
  title={On the Limits of Minimal Pairs in Contrastive Evaluation},
  author={Vamvas, Jannis and Sennrich, Rico},
  booktitle={Proceedings of the Fourth BlackboxNLP Workshop on Analyzing and Interpreting Neural Networks for NLP},
  pages={58--68},
  year={2021}
}"""

BENCHMARK = Benchmark(
    kind_name="pairs",  # its scorer extends the kind's (wordbench.scorers.kinds)
    name="minpairs",
    headline=Headline("overall/human/accuracy", "minpairs accuracy (human refs)", True, "wilson", "overall/human/n"),
    profiles=(("full", Profile()), ("quick", Profile((("discrepancy", False),), limit=200))),
    paper_url="https://aclanthology.org/2021.blackboxnlp-1.5/",
    task_ids=("multiple-choice-qa",),
    source_datasets=("original",),
    limitations=(
        "- Offline, the German analysis is HanTa and german-nouns, not the authors' stanza; the rules are held against "
        "the authors' published sets by `python -m wordbench.builders.minpairs.compare` (docs/benchmarks/minpairs.md).\n"
        "- Offline sentences come from the Ding dictionary (Debian trans-de-en), shorter and simpler than WMT newstest.\n"
        "- np_agreement and subj_verb_agreement: by default every singular definite article and each clause's first "
        "finite verb is edited, about 1.9 variants per sentence on the authors' sentences, where their machine sets "
        "have 1.29 and 1.15. Neither the paper nor LingEval97's description says which positions were kept, and "
        "their human sets are not published in a readable form, so the machine sets cannot be checked against them "
        "(section 3.3). `variants=one` makes one seeded variant per sentence, the nearer choice where the number of "
        "pairs per sentence matters.\n"
        "- polarity_affix_del follows the authors' lookup, with an un- that is a negating prefix (German morphology, "
        "else the Ding glosses: no Union -> Ion, Unfall -> Fall, unbedingt \"necessarily\" -> bedingt); on the "
        "idiom-rich Ding sentences some variants are still idioms or rare positives (Nichts für ungut, glaublich); "
        "`affix_polarity=dictionary` "
        "checks the paper's polarity condition through the Ding glosses and WordNet (207 of 230 Ding variants kept), "
        "at the cost of agreement with the authors' sets.\n"
        "- `import=FOLDER` builds the authors' published pairs as they are (no rule runs)."),
    summary="English-German contrastive minimal pairs from human and machine references: accuracy and distributional discrepancy",
    scorer_path="wordbench.scorers.minpairs:MinPairsScorer",
    card=CARD,
    citation=CITATION,
    paper="vamvas2021",
    license="gpl-2.0",
    language=("en", "de"),
    task_categories=("translation",),
    tags=("wordbench", "machine-translation", "contrastive-evaluation", "minimal-pairs"),
    title="Minimal pairs",
    reference="Vamvas & Sennrich 2021, *On the Limits of Minimal Pairs in Contrastive Evaluation*",
    faithful=(
        "\"nicht\" deleted in \"nicht nur\"/\"nicht wahr\" too, the short genitive (-s), sum instead of mean for causal "
        "models"),
    sampling="phenomenon x reference type",
    figure=Figure("smollm2", "accuracy.png", "pairs", limit=32, options=(("discrepancy", False),)),
)
