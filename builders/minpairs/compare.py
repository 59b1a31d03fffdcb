"""Hold the rules against published DistilLingEval sets: each set's (source, correct) sentences go through our
rule, and our variants are compared with the authors' variants of the same sentence.

    python -m wordbench.builders.minpairs.compare PATH/TO/DistilLingEval [--faithful] [--analyzer offline]

Per set: how often the rule fires, the share of our variants (every candidate) that are among theirs and of
theirs among ours, the share of their sentences whose variant set we reproduce exactly, and variants per
sentence (ours under the default ``variants=paper``, theirs). Where the folder holds a phenomenon's ``.human`` set
beside its ``.mt`` set, a machine reference keeps only the edits that the human reference of the same source licenses
(section 3.3, ``licensed`` as the builder); without it (the development slice) every edit counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from wordbench.errors import user_errors

from .builder import distinct_variants, licensed, select_variants
from .formats import read_distillingeval
from .rules import RULES


@dataclass
class SetComparison:
    name: str
    sentences: int
    fires: float  # share of sentences with at least one candidate of ours
    ours_among_theirs: float  # of our candidates (sentences where both have some)
    theirs_among_ours: float
    exact: float  # sentences whose variant set is exactly theirs (under variants=all)
    per_sentence_ours: float  # under the default variants mode, among sentences where ours fires
    per_sentence_theirs: float
    human_checked: int  # machine-reference sentences whose human reference (same source) filtered the edits
    misses: list[tuple[str, str]]  # (correct, their variant) we do not make
    extras: list[tuple[str, str]]  # (correct, our variant) they do not have


def compare_sets(folder, analyzer_name: str = "offline", faithful: bool = False, strict: bool = False) -> list[SetComparison]:
    from ..sources.german import load_analyzer

    analyzer = load_analyzer(analyzer_name)
    by_set: dict[tuple[str, str], dict[str, set[str]]] = {}
    source_of: dict[tuple[str, str], str] = {}
    for row in read_distillingeval(folder):
        by_set.setdefault((row["phenomenon"], row["reference_type"]), {}).setdefault(row["correct"], set()).add(row["incorrect"])
        source_of[(row["phenomenon"], row["correct"])] = row["source"]
    # Section 3.3: a machine reference keeps only the edits its human reference (same source) licenses, as the
    # builder does; possible where the folder holds the phenomenon's .human set too.
    human_analyses: dict[tuple[str, str], object] = {}
    human_sets = {(ph, text) for (ph, ref), sents in by_set.items() if ref == "human" for text in sents}
    if human_sets:
        texts = sorted({t for _, t in human_sets})
        analysed = dict(zip(texts, analyzer.analyze(texts)))
        for ph, text in human_sets:
            if analysed[text] is not None:
                human_analyses[(ph, source_of[(ph, text)])] = analysed[text]
    out = []
    for (phenomenon, ref), sentences in sorted(by_set.items()):
        if phenomenon not in RULES:
            continue
        rule = RULES[phenomenon](faithful=faithful, strict=strict)
        texts = list(sentences)
        analyses = analyzer.analyze(texts)
        fired = own = own_in = theirs_n = theirs_in = exact = checked = 0
        per_sentence = []
        misses, extras = [], []
        for text, analysis in zip(texts, analyses):
            theirs = sentences[text]
            edits = rule.candidates(analysis) if analysis else []
            human = human_analyses.get((phenomenon, source_of[(phenomenon, text)])) if ref == "mt" else None
            if human is not None:
                checked += 1
                edits = licensed(edits, rule.candidates(human))
            ours = {v for v, _ in distinct_variants(text, edits)}
            fired += bool(ours)
            theirs_n += len(theirs)
            theirs_in += len(theirs & ours)
            exact += ours == theirs
            misses += [(text, v) for v in sorted(theirs - ours)]
            if ours:
                own += len(ours)
                own_in += len(ours & theirs)
                extras += [(text, v) for v in sorted(ours - theirs)]
                per_sentence.append(len(select_variants(text, edits, phenomenon, "paper", 0)))
        n = len(texts)
        out.append(SetComparison(f"{phenomenon}.{ref}", n, fired / n, own_in / max(own, 1), theirs_in / max(theirs_n, 1), exact / n,
                                 sum(per_sentence) / max(len(per_sentence), 1), theirs_n / n, checked, misses, extras))
    return out


def table(results: list[SetComparison]) -> str:
    lines = ["| set | sentences | fires % | ours among theirs % | theirs among ours % | exact % | variants/sentence ours vs theirs "
             "| human reference checked |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r.name} | {r.sentences} | {100 * r.fires:.1f} | {100 * r.ours_among_theirs:.1f} | {100 * r.theirs_among_ours:.1f} "
                     f"| {100 * r.exact:.1f} | {r.per_sentence_ours:.2f} vs {r.per_sentence_theirs:.2f} "
                     f"| {r.human_checked if r.name.endswith('.mt') else '-'} |")
    return "\n".join(lines)


@click.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--analyzer", default="offline", show_default=True, help="German analyzer: offline or stanza")
@click.option("--faithful", is_flag=True, help="the rules' --faithful behaviour (the authors' code)")
@click.option("--strict", is_flag=True, help="the rules' stricter reading of the paper (the builder's affix_polarity=dictionary)")
@click.option("--show", default=0, show_default=True, help="print up to N misses and extras per set")
@user_errors
def main(folder, analyzer, faithful, strict, show):
    """Compare the rules with the DistilLingEval sets in FOLDER."""
    results = compare_sets(folder, analyzer, faithful, strict)
    click.echo(table(results))
    for r in results:
        for kind, items in (("miss", r.misses), ("extra", r.extras)):
            for correct, variant in items[:show]:
                click.echo(f"{r.name} {kind}: {correct}\n    -> {variant}")


if __name__ == "__main__":
    main()
