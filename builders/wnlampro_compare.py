"""Hold a WNLaMPro build against a published ``WNLaMPro.txt`` (the authors' release, or another build's file):
the keywords both hold, and for each published keyword ours lacks, the rule that left it out.

    python -m wordbench.builders.wnlampro_compare PATH/TO/WNLaMPro.txt [--set KEY=VALUE ...] [--faithful]
    python -m wordbench.builders.wnlampro_compare --keywords [--share S] PATH/TO/keywords.txt [--set ...] [--faithful]

Overlap is counted on distinct keywords of the antonym, hypernym and cohyponym entries, both ways (corruption keys
are random edits, so they are left out), per relation on its keywords, and on the targets of the entries both hold.
Table 4 is printed for both files.
A missing keyword is explained by the first rule of our build it fails, in the order of ``REASONS``; a keyword of
ours the file lacks is counted by our frequency bin, and by whether the file holds another form of it.

With ``--keywords`` PATH is a plain list of published keywords (one a line, ``#`` comments and blank lines
skipped): the same overlap, reasons and extras, with no relation, targets or Table 4. ``--share S`` says the list
is a part of the published keywords drawn independently of the words (a hash split): S is its share of them
(7609/15250 for a half), and ours among the published is estimated as shared / (S x ours), since a share S of our
keywords that the whole list holds falls in the part; published among ours is shared / listed, as it stands.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

import click
import datasets

from wordbench.errors import DataFormatError, user_errors

from .sources.base import read_utf8
from .sources.stopwords import CLOSED_CLASS
from .sources.wordnet import class_lemmas, is_lemma
from .wnlampro import BINS, RELATIONS, WORD, _Context, antonym_targets, cohyponym_targets, hypernym_targets

PROBED = ("antonym", "hypernym", "cohyponym")
POS = {"antonym": "a", "hypernym": "n", "cohyponym": "n"}
TARGETS = {"antonym": antonym_targets, "hypernym": hypernym_targets, "cohyponym": cohyponym_targets}
REASONS = {  # why a published keyword is not one of ours: the first rule it fails, in this order
    "pattern": "outside the paper's [a-z.-]*",
    "hyphen_or_dot": "a hyphen or dot: the frequency source splits such words (wordfreq), so V cannot attest them",
    "not_in_v": "not attested by the frequency source (nor, for the rare bin, the word list or WordNet's text)",
    "no_sense": "no WordNet sense of the relation's part of speech, even through its morphology",
    "capitalized": "WordNet has it only capitalized (Sunday, Dane) and capitalized=false matches a lemma's case",
    "named_entity": "WordNet has it only capitalized, as a named entity (an instance: Aachen, Paris): no hypernym pointer",
    "inflected_adjective": "an inflected adjective (bigger): no antonym key in any mode",
    "inflected": "an inflected noun form, no WordNet lemma (keyword_forms=inflected considers those of the frequency list)",
    "inflected_unlisted": "an inflected noun form the frequency list lacks (keyword_forms=unmarked/inflected take only listed ones)",
    "marked_plural": "an inflected noun form whose ending marks a plural (keyword_forms=unmarked; inflected keeps it)",
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
    share: float = 1.0  # the published list's share of all published keywords (a hash-split part: below 1)

    @property
    def ours_among_theirs(self) -> float:
        """Shared / ours; for a part of the published list, shared / (share x ours), capped at 1."""
        return min(1.0, self.shared / (self.share * self.ours)) if self.ours else 0.0

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
    classes = config.capitalized and not is_lemma(wn, word) and class_lemmas(wn, word, pos)
    if word not in names and not classes:
        if names and not set(wn._morphy(word, pos)) - {word}:  # acts: a form of act before the book Acts
            return "named_entity" if config.capitalized else "capitalized"
        if pos == "a":
            return "inflected_adjective"
        if config.keyword_forms == "lemma":
            return "inflected"
        if not ctx.freq.known(word):  # _candidates takes inflected forms from the frequency list only
            return "inflected_unlisted"
        if config.keyword_forms == "unmarked" and not ctx.unmarked(word):
            return "marked_plural"
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
    _explain(result, ctx, {w: [r for r in PROBED if w in theirs_by[r]] for w in their_keys}, ours_by)
    return result


def compare_keywords(words: Iterable[str], ours: datasets.DatasetDict, ctx: _Context, share: float = 1.0) -> KeywordComparison:
    """Keyword overlap of our build with a plain list of published keywords (no relations: a missing word's reason is
    the furthest our rules take it in any probed relation); ``share``: see ``KeywordComparison.share``."""
    if not 0 < share <= 1:
        raise ValueError(f"share must be in (0, 1], got {share}")
    ours_by = keywords(ours)
    listed = set(words)
    our_keys = set().union(*(ours_by[r] for r in PROBED))
    result = KeywordComparison(len(our_keys), len(listed), len(our_keys & listed), {}, {}, share=share)
    _explain(result, ctx, {w: list(PROBED) for w in listed}, ours_by)
    return result


def read_keyword_list(path: Path) -> list[str]:
    """One keyword a line (surrounding spaces dropped); blank lines and ``#`` comments skipped; a line with a tab
    or inner space (a WNLaMPro.txt given by mistake) is an error naming it."""
    words = []
    for lineno, line in enumerate(read_utf8(Path(path), "keyword list").splitlines(), 1):
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        if any(c.isspace() for c in word):
            raise DataFormatError(f"{path}:{lineno}: expected one keyword a line, got {word[:40]!r} "
                                  "(a WNLaMPro.txt is compared without --keywords)")
        words.append(word)
    return words


def _explain(result: KeywordComparison, ctx: _Context, their_relations: dict[str, list[str]], ours_by: dict) -> None:
    """Fill ``result.missing`` (each published keyword we lack, by the furthest rule of its relations) and
    ``result.extra`` (our keywords they lack, by our bin, or other_form when they hold another form of it)."""
    our_keys = set().union(*(ours_by[r] for r in PROBED))
    missing: dict[str, list[str]] = defaultdict(list)
    order = list(REASONS)
    for word in sorted(their_relations.keys() - our_keys):  # of its relations, the one our rules take furthest
        reasons = [why_missing(ctx, word, r) for r in their_relations[word]]
        missing[max(reasons, key=order.index)].append(word)
    result.missing = {k: missing[k] for k in REASONS if missing[k]}
    their_forms = set().union(*(_forms(ctx, w) for w in their_relations))
    extra: dict[str, list[str]] = defaultdict(list)
    our_bin = {k: b for r in PROBED for k, b in ours_by[r].items()}
    for word in sorted(our_keys - their_relations.keys()):
        extra["other_form" if _forms(ctx, word) & their_forms else our_bin[word]].append(word)
    result.extra = {k: extra[k] for k in (*BINS, "other_form") if extra[k]}


def _cells(data: datasets.DatasetDict) -> Counter:
    """(relation, bin) -> entries: Table 4."""
    return Counter(cell for split in data.values() for cell in zip(split["relation"], split["keyword_bin"]))


def _forms(ctx: _Context, word: str) -> set[str]:
    """``word`` and its noun base forms by WordNet's morphology."""
    return {word, *ctx.wn._morphy(word, "n")}


def render(result: KeywordComparison, examples: int = 8) -> str:
    part = f" (the list is a share {result.share:.4f} of the published keywords: ours among them estimated as " \
           f"shared / (share x ours))" if result.share < 1 else ""
    lines = [
        f"distinct keywords (antonym, hypernym, cohyponym): ours {result.ours:,}, published {result.theirs:,}, "
        f"shared {result.shared:,}{part}",
        f"  ours among the published: {result.ours_among_theirs:.1%}; published among ours: {result.theirs_among_ours:.1%}",
    ]
    if result.per_relation:
        lines += ["", "| relation | ours | published | shared | ours among published | published among ours |",
                  "|---|---|---|---|---|---|"]
    for r, (o, t, s) in result.per_relation.items():
        lines.append(f"| {r} | {o:,} | {t:,} | {s:,} | {s / o if o else 0:.1%} | {s / t if t else 0:.1%} |")
    if result.targets:
        lines += ["", "Targets of the entries both hold (mean share per entry): "
                  + "; ".join(f"{r} ours among published {a:.1%}, published among ours {b:.1%}" for r, (a, b) in result.targets.items())]
    if result.cells:
        lines += ["", "Table 4, entries ours / published:", "", "| relation | " + " | ".join(BINS) + " |", "|---|---|---|---|"]
    for r, by_bin in result.cells.items():
        lines.append(f"| {r} | " + " | ".join(f"{o:,} / {t:,}" for o, t in by_bin.values()) + " |")
    if result.missing:
        lines += ["", "Published keywords we lack, by the first rule of our build that leaves them out:"]
        for reason, words in result.missing.items():
            lines.append(f"- {len(words):,} {REASONS[reason]} ({reason}): {', '.join(words[:examples])}")
    if result.extra:
        lines += ["", "Our keywords the file lacks, by our bin" + (" (of all our keywords: the list is a part)" if result.share < 1 else "") + ":"]
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
@click.option("--keywords", "keyword_list", is_flag=True, help="PATH is a plain keyword list (one a line), not a WNLaMPro.txt")
@click.option("--share", type=click.FloatRange(0, 1, min_open=True), default=1.0, show_default=True,
              help="with --keywords: the list's share of all published keywords (a hash-split part, e.g. 7609/15250)")
@click.option("--examples", default=8, show_default=True, help="keywords quoted per reason")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="write every count and word list here")
@user_errors
def main(path, overrides, faithful, keyword_list, share, examples, json_path):
    """Compare our WNLaMPro build with the WNLaMPro.txt at PATH, binned by our build's thresholds; as the
    authors' loader (and the paper's Table 4), corruptions with a frequent key are dropped. With --keywords,
    PATH is a plain list of published keywords."""
    from .wnlampro import read_wnlampro_txt

    if share < 1 and not keyword_list:
        raise click.UsageError("--share applies to a keyword list (--keywords)")
    words = read_keyword_list(path) if keyword_list else None  # a malformed list fails before the build
    ours, ctx = our_build(tuple(overrides), faithful)
    if words is not None:
        result = compare_keywords(words, ours, ctx, share)
    else:
        published = read_wnlampro_txt(path, ctx.config.rare_below, ctx.config.frequent_from)
        result = compare(published, ours, ctx)
    click.echo(render(result, examples))
    if json_path:
        json_path.write_text(json.dumps({**asdict(result), "ours_among_theirs": result.ours_among_theirs,
                                         "theirs_among_ours": result.theirs_among_ours}, indent=1) + "\n")


if __name__ == "__main__":
    main()
