"""A benchmark declared outside wordbench, of the pairs kind: English grammatical minimal pairs read from a JSONL file
(one object per line: ``good``, ``bad``, ``phenomenon``), scored as the share of pairs whose good sentence the model
finds at least as probable. It is the worked example of docs/adding-a-benchmark.md; tests/test_example_benchmark.py
registers it through an entry point, then lists, builds and scores it as a user would."""

from wordbench.builders.kinds import pairs

BENCHMARK = pairs(
    name="grammar",
    data=None,  # no default data: a user gives a file of pairs (grammar_pairs.jsonl beside this module is one)
    needs_data="it reads its pairs from a JSONL file: give --data FILE (or build with --set file=FILE)",
    group="phenomenon",
    group_help="the grammatical phenomenon the pair tests",
    title="Grammatical pairs (example)",
    summary="English grammatical minimal pairs from a JSONL file: accuracy of s(good) >= s(bad) per phenomenon",
    reference="an example benchmark, after BLiMP (Warstadt et al. 2020)",
    card="Pairs of English sentences that differ in one change which makes the second ungrammatical, read as given.",
    citation="@article{warstadt2020blimp,\n  title={BLiMP: The Benchmark of Linguistic Minimal Pairs for English},\n"
             "  author={Warstadt, Alex and others},\n  journal={TACL},\n  year={2020}\n}",
    paper="warstadt2020",
    limitations="- The pairs are whatever the file holds; the example file is twelve hand-written pairs.",
    faithful="nothing: the recipe has no published code to follow",
    page="grammar_pairs.md",  # beside this module
)
