"""A benchmark of the ratings kind: the similarity of two English words against a rating of it (a toy example)."""

from wordbench.builders.kinds import ratings

BENCHMARK = ratings(
    name="relatedness",
    data="relatedness.jsonl",
    group="pos",
    group_help="the words' part of speech",
    summary="Cosine of two words' hidden states against a 0-10 similarity rating: Spearman's rho with a bootstrap interval",
    reference="a toy example of the ratings kind, after SimLex-999 (Hill et al. 2015)",
    card="Pairs of English words with a similarity rating from 0 (unrelated) to 10 (the same meaning).",
    citation="@misc{relatedness,\n  title={Relatedness: a toy ratings example},\n  year={2026}\n}",
    paper="relatedness",
    limitations="- Twelve pairs whose ratings were written for this example, not collected from people.",
)
