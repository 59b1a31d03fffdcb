"""A benchmark of the cloze kind: a country's capital ranked among four cities (a toy example of the kind)."""

from wordbench.builders.kinds import cloze

BENCHMARK = cloze(
    name="capitals",
    data="capitals.jsonl",
    group="region",
    group_help="the part of the world the country is in",
    summary="A country's capital among four cities filled into a sentence: MRR and precision@k of the capital",
    reference="a toy example of the cloze kind",
    card="Sentences naming a country with its capital left blank; the candidates are four capitals, the right one among them.",
    citation="@misc{capitals,\n  title={Capitals: a toy cloze example},\n  year={2026}\n}",
    paper="capitals",
    limitations="- Ten hand-written sentences: a test of the kind, not a measure of knowledge.",
)
