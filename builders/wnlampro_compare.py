"""Hold a WNLaMPro build against a published ``WNLaMPro.txt`` (the authors' release, or another build's file):
the keywords both hold, and for each published keyword ours lacks, the rule that left it out.

    python -m wordbench.builders.wnlampro_compare PATH/TO/WNLaMPro.txt [--set KEY=VALUE ...] [--faithful]

Overlap is counted on distinct keywords of the antonym, hypernym and cohyponym entries, both ways (corruption keys
are random edits, so they are left out), per relation on its keywords, and on the targets of the entries both hold.
Table 4 is printed for both files.
A missing keyword is explained by the first rule of our build it fails, in the order of ``REASONS``; a keyword of
ours the file lacks is counted by our frequency bin, and by whether the file holds another form of it.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

import click
import datasets

from wordbench.errors import user_errors

from .sources.stopwords import CLOSED_CLASS
from .wnlampro import BINS, RELATIONS, WORD, _Context, antonym_targets, cohyponym_targets, hypernym_targets

PROBED = ("antonym", "hypernym", "cohyponym")
POS = {"antonym": "a", "hypernym": "n", "cohyponym": "n"}
TARGETS = {"antonym": antonym_targets, "hypernym": hypernym_targets, "cohyponym": cohyponym_targets}
REASONS = {  # why a published keyword is not one of ours: the first rule it fails, in this order
    "pattern": "outside the paper's [a-z.-]*",
    "hyphen_or_dot": "a hyphen or dot: the frequency source splits such words (wordfreq), so V cannot attest them",
    "not_in_v": "not attested by the frequency source (nor, for the rare bin, the word list or WordNet's text)",
    "no_sense": "no WordNet sense of the relation's part of speech, even through its morphology",
    "capitalized": "WordNet has it only capitalized (Sunday, Paris): our build matches a lemma's case",
    "inflected_adjective": "an inflected adjective (bigger): no antonym key in any mode",
    "inflected": "an inflected noun form, no WordNet lemma (keyword_forms=inflected considers those of the frequency list)",
    "inflected_unlisted": "an inflected noun form the frequency list lacks (keyword_forms=inflected takes only listed ones)",
    "closed_class": "a closed-class word (keep_closed_class=true keeps it)",
    "part_of_speech": "not of the relation's part of speech by pos_rule (default: its dominant tagged use)",
    "verb_form": "an inflected verb form whose noun senses WordNet never saw tagged",
    "targets": "too few targets in T for the relation's thresholds (with clean_targets, targets pass the keyword rules)",
    "unexplained": "passes every rule checked here (a rule this comparison does not know, or a build of other options)",
}


@dataclass
class KeywordComparison:
    ours: int  # distinct keywords of the probed relations
    theirs: int
    shared: int
    per_relation: dict[str, tuple[int, int, int]]  # relation -> (ours, theirs, shared)
    cells: dict[str, dict[str, tuple[int, int]]]  # relation -> bin -> (our entries, their entries): Table 4
    targets: dict[str, tuple[float, float]] = field(default_factory=dict)  # relation -> mean share of targets, both ways
    missing: dict[str, list[str]] = field(default_factory=dict)  # reason -> published keywords we lack
    extra: dict[str, list[str]] = field(default_factory=dict)  # our bin (or "other_form") -> our keywords they lack

    @property
    def ours_among_theirs(self) -> float:
        return self.shared / self.ours if self.ours else 0.0

    @property
    def theirs_among_ours(self) -> float:
        return self.shared / self.theirs if self.theirs else 0.0


def keywords(data: datasets.DatasetDict) -> dict[str, dict[str, str]]:
    """relation -> {keyword: its frequency bin} over every split."""
    out: dict[str, dict[str, str]] = {r: {} for r in RELATIONS}
    for split in data.values():
        for key, relation, b in zip(split["key"], split["relation"], split["keyword_bin"]):
            out[relation][key] = b
    return out


def target_sets(data: datasets.DatasetDict) -> dict[tuple[str, str], set[str]]:
    """(relation, keyword) -> its targets, over every split (an entry repeated: their union)."""
    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    for split in data.values():
        for r, k, ts in zip(split["relation"], split["key"], split["targets"]):
            out[r, k].update(ts)
    return out


def target_overlap(ours: datasets.DatasetDict, published: datasets.DatasetDict) -> dict[str, tuple[float, float]]:
    """Per relation, over the entries both hold: the mean share of our targets the file has, and of its targets we have."""
    mine, theirs = target_sets(ours), target_sets(published)
    out = {}
    for relation in PROBED:
        shared = [(mine[e], theirs[e]) for e in mine.keys() & theirs.keys() if e[0] == relation]
        if shared:
            out[relation] = (sum(len(m & t) / len(m) for m, t in shared) / len(shared),
                             sum(len(m & t) / len(t) for m, t in shared) / len(shared))
    return out


def why_missing(ctx: _Context, word: str, relation: str) -> str:
    """The first rule of our build that keeps ``word`` from being a ``relation`` keyword (a key of ``REASONS``)."""
    pos, wn, config = POS[relation], ctx.wn, ctx.config
    if not WORD.fullmatch(word):
        return "pattern"
    if not ctx.in_vocabulary(word):
        return "hyphen_or_dot" if ctx.freq.missing_is_rare and not word.isalpha() else "not_in_v"
    if not wn.synsets(word, pos):
        return "no_sense"
    names = {lemma.name() for lemma in wn.lemmas(word, pos)}  # case-blind lookup: Sunday for sunday
    if word not in names:
        if names and not set(wn._morphy(word, pos)) - {word}:  # acts: a form of act before the book Acts
            return "capitalized"
        if pos == "a":
            return "inflected_adjective"
        if config.keyword_forms == "lemma":
            return "inflected"
        if not ctx.freq.known(word):  # _candidates takes inflected forms from the frequency list only
            return "inflected_unlisted"
    if word in CLOSED_CLASS and not config.keep_closed_class:
        return "closed_class"
    if not ctx.has_pos(word, pos):
        return "part_of_speech"
    if not ctx.keyword(word, pos):
        return "verb_form"
    if not TARGETS[relation](ctx, word):
        return "targets"
    return "unexplained"


def compare(published: datasets.DatasetDict, ours: datasets.DatasetDict, ctx: _Context) -> KeywordComparison:
    """Keyword overlap of two WNLaMPro datasets, and each missing keyword's reason by ``ctx`` (our build's context)."""
    theirs_by, ours_by = keywords(published), keywords(ours)
    their_keys = set().union(*(theirs_by[r] for r in PROBED))
    our_keys = set().union(*(ours_by[r] for r in PROBED))
    per_relation = {r: (len(ours_by[r]), len(theirs_by[r]), len(ours_by[r].keys() & theirs_by[r].keys())) for r in PROBED}
    our_cells, their_cells = _cells(ours), _cells(published)
    cells = {r: {b: (our_cells[r, b], their_cells[r, b]) for b in BINS} for r in RELATIONS}
    result = KeywordComparison(len(our_keys), len(their_keys), len(our_keys & their_keys), per_relation, cells,
                               target_overlap(ours, published))
    missing: dict[str, list[str]] = defaultdict(list)
    order = list(REASONS)
    for word in sorted(their_keys - our_keys):  # of its relations in the file, the one our rules take furthest
        reasons = [why_missing(ctx, word, r) for r in PROBED if word in theirs_by[r]]
        missing[max(reasons, key=order.index)].append(word)
    result.missing = {k: missing[k] for k in REASONS if missing[k]}
    their_forms = set().union(*(_forms(ctx, w) for w in their_keys))
    extra: dict[str, list[str]] = defaultdict(list)
    our_bin = {k: b for r in PROBED for k, b in ours_by[r].items()}
    for word in sorted(our_keys - their_keys):
        extra["other_form" if _forms(ctx, word) & their_forms else our_bin[word]].append(word)
    result.extra = {k: extra[k] for k in (*BINS, "other_form") if extra[k]}
    return result


def _cells(data: datasets.DatasetDict) -> Counter:
    """(relation, bin) -> entries: Table 4."""
    return Counter(cell for split in data.values() for cell in zip(split["relation"], split["keyword_bin"]))


def _forms(ctx: _Context, word: str) -> set[str]:
    """``word`` and its noun base forms by WordNet's morphology."""
    return {word, *ctx.wn._morphy(word, "n")}


def render(result: KeywordComparison, examples: int = 8) -> str:
    lines = [
        f"distinct keywords (antonym, hypernym, cohyponym): ours {result.ours:,}, published {result.theirs:,}, "
        f"shared {result.shared:,}",
        f"  ours among the published: {result.ours_among_theirs:.1%}; published among ours: {result.theirs_among_ours:.1%}",
        "",
        "| relation | ours | published | shared | ours among published | published among ours |",
        "|---|---|---|---|---|---|",
    ]
    for r, (o, t, s) in result.per_relation.items():
        lines.append(f"| {r} | {o:,} | {t:,} | {s:,} | {s / o if o else 0:.1%} | {s / t if t else 0:.1%} |")
    if result.targets:
        lines += ["", "Targets of the entries both hold (mean share per entry): "
                  + "; ".join(f"{r} ours among published {a:.1%}, published among ours {b:.1%}" for r, (a, b) in result.targets.items())]
    lines += ["", "Table 4, entries ours / published:", "", "| relation | " + " | ".join(BINS) + " |", "|---|---|---|---|"]
    for r, by_bin in result.cells.items():
        lines.append(f"| {r} | " + " | ".join(f"{o:,} / {t:,}" for o, t in by_bin.values()) + " |")
    if result.missing:
        lines += ["", "Published keywords we lack, by the first rule of our build that leaves them out:"]
        for reason, words in result.missing.items():
            lines.append(f"- {len(words):,} {REASONS[reason]} ({reason}): {', '.join(words[:examples])}")
    if result.extra:
        lines += ["", "Our keywords the file lacks, by our bin:"]
        for b, words in result.extra.items():
            what = "the file holds another form of it (plural or base form)" if b == "other_form" else b
            lines.append(f"- {len(words):,} {what}: {', '.join(words[:examples])}")
    return "\n".join(lines)


def context(config) -> _Context:
    """The build context of ``config``, for ``why_missing``."""
    from .wnlampro import WNLaMProBuilder

    return WNLaMProBuilder().context(config)[0]


def our_build(overrides: tuple[str, ...], faithful: bool, progress: bool = True) -> tuple[datasets.DatasetDict, _Context]:
    """The build ``wordbench build wnlampro --set ... [--faithful]`` makes (the same config), and its context."""
    from wordbench.spec import parse

    from .wnlampro import Config, WNLaMProBuilder

    config = parse(Config, overrides, source="--set", fixed={"faithful": True} if faithful else None)
    return WNLaMProBuilder().build(config, progress=progress)["default"], context(config)


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="our build's options, as for `wordbench build wnlampro` (built afresh, about a minute)")
@click.option("--faithful", is_flag=True, help="compare our --faithful build (the authors' rules)")
@click.option("--examples", default=8, show_default=True, help="keywords quoted per reason")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="write every count and word list here")
@user_errors
def main(path, overrides, faithful, examples, json_path):
    """Compare our WNLaMPro build with the WNLaMPro.txt at PATH, binned by our build's thresholds; as the
    authors' loader (and the paper's Table 4), corruptions with a frequent key are dropped."""
    from .wnlampro import read_wnlampro_txt

    ours, ctx = our_build(tuple(overrides), faithful)
    published = read_wnlampro_txt(path, ctx.config.rare_below, ctx.config.frequent_from)
    result = compare(published, ours, ctx)
    click.echo(render(result, examples))
    if json_path:
        json_path.write_text(json.dumps({**asdict(result), "ours_among_theirs": result.ours_among_theirs,
                                         "theirs_among_ours": result.theirs_among_ours}, indent=1) + "\n")


if __name__ == "__main__":
    main()
