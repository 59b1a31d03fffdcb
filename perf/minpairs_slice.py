"""minpairs' rules held against the development slice of the authors' sets, and the affix rule on the Ding source.

Each part writes its figures into perf/results/minpairs-slice.json (the other parts' kept); the slice is not part of
the repository (``--slice``, default ../shared/reference/minpairs beside the checkout), the file keeps counts only:

    python perf/minpairs_slice.py compare     # minpairs.compare on the slice, default and --faithful (about 80 s)
    python perf/minpairs_slice.py affix       # polarity_affix_del: the prefix test, held-back third, --strict, stems
    python perf/minpairs_slice.py clause      # clause_omission: sentences of one segment, and those losing a clause
    python perf/minpairs_slice.py positions   # np_agreement and subj_verb_agreement: which of our positions they vary
    python perf/minpairs_slice.py ding        # the affix rule's pairs on the Ding source (builds, about a minute)
    python perf/minpairs_slice.py source      # the Ding source's sentence pairs

"Without the prefix test" runs the affix rule with ``negating_prefix`` always true. The held-back third is the sources
whose ``int(sha256(source)[:8], 16) % 3 == 0``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import tempfile
import warnings
from collections import Counter, defaultdict
from contextlib import contextmanager
from pathlib import Path

from wordbench.builders.minpairs import compare as mp_compare
from wordbench.builders.minpairs.builder import distinct_variants
from wordbench.builders.minpairs.formats import DISTIL_FILES, read_distillingeval
from wordbench.builders.minpairs.rules import RULES
from wordbench.builders.minpairs.rules import polarity_affix_del as affix_rule

OUT = Path(__file__).parent / "results" / "minpairs-slice.json"
SLICE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "minpairs"
AFFIX = "polarity_affix_del"


@contextmanager
def no_prefix_test():
    """The affix rule without its prefix test (every un- counts as a negating prefix)."""
    saved = affix_rule.negating_prefix
    affix_rule.negating_prefix = lambda *args: True
    try:
        yield
    finally:
        affix_rule.negating_prefix = saved


def held_back(source: str) -> bool:
    return int(hashlib.sha256(source.encode("utf-8")).hexdigest()[:8], 16) % 3 == 0


def _analyzer():
    from wordbench.builders.sources.german import load_analyzer

    return load_analyzer("offline")


def _row(r) -> dict:
    """A set's comparison as ``compare_sets`` gives it (shares unrounded, so that the page's rounding is the table's)."""
    return {"sentences": r.sentences, "fires": r.fires, "theirs_among_ours": r.theirs_among_ours, "ours_among_theirs": r.ours_among_theirs,
            "exact": r.exact, "per_sentence_ours": r.per_sentence_ours, "per_sentence_theirs": r.per_sentence_theirs}


def compare(folder: Path) -> dict:
    return {mode: {r.name: _row(r) for r in mp_compare.compare_sets(folder, faithful=mode == "faithful")}
            for mode in ("default", "faithful")}


def _subset(folder: Path, out: Path, keep) -> Path:
    """The slice's affix sets (human and mt), only the lines whose source ``keep`` accepts."""
    for ref in ("human", "mt"):
        src = folder / f"{AFFIX}.{ref}"
        columns = [(src / f).read_text(encoding="utf-8").splitlines() for f in DISTIL_FILES]
        kept = [line for line in zip(*columns) if keep(line[0])]
        (out / src.name).mkdir(parents=True)
        for k, f in enumerate(DISTIL_FILES):
            (out / src.name / f).write_text("".join(line[k] + "\n" for line in kept), encoding="utf-8")
    return out


def _exact(folder: Path, strict: bool = False) -> dict:
    rows = {r.name.split(".")[1]: r for r in mp_compare.compare_sets(folder, strict=strict) if r.name.startswith(AFFIX)}
    return {ref: {"sentences": r.sentences, "exact": round(r.exact, 4)} for ref, r in rows.items()}


def _un_word(text: str, start: int) -> str:
    return re.match(r"\w+", text[start:].lstrip()).group(0)


def _deleted_un_word(correct: str, incorrect: str) -> str:
    """The un-word of ``correct`` that ``incorrect`` holds without its un-."""
    ours, theirs = re.findall(r"\w+", correct), re.findall(r"\w+", incorrect)
    return next(a for a, b in zip(ours, theirs + [""] * len(ours)) if a != b)


def affix(folder: Path) -> dict:
    analyzer, rule = _analyzer(), RULES[AFFIX]()
    texts = sorted({row["correct"] for row in read_distillingeval(folder)})
    analyses = [a for a in analyzer.analyze(texts) if a is not None]
    edits = {}
    for name, ctx in (("with", None), ("without", no_prefix_test())):
        with ctx or _nothing():
            edits[name] = {(a.text, e) for a in analyses for e in rule.candidates(a)}
    dropped = Counter(_un_word(text, e.start) for text, e in edits["without"] - edits["with"])
    stems = Counter()
    for row in read_distillingeval(folder):
        if row["phenomenon"] == AFFIX:
            stems[len(_deleted_un_word(row["correct"], row["incorrect"])) - 2] += 1
    with tempfile.TemporaryDirectory() as tmp:
        back = _subset(folder, Path(tmp) / "back", held_back)
        rest = _subset(folder, Path(tmp) / "rest", lambda s: not held_back(s))
        third = {"default": _exact(back), "strict": _exact(back, strict=True)}
        with no_prefix_test():
            third["without_prefix_test"] = _exact(back)
        other = {"default": _exact(rest)}
    return {"sentences": len(texts), "analysed": len(analyses), "edits_without_prefix_test": len(edits["without"]),
            "edits_with_prefix_test": len(edits["with"]), "dropped": dict(dropped.most_common()),
            "their_variants": sum(stems.values()), "stem_letters": dict(sorted(stems.items())),
            "held_back_third": third, "other_two_thirds": other, "strict_whole_slice": _exact(folder, strict=True)}


@contextmanager
def _nothing():
    yield


def clause(folder: Path) -> dict:
    from wordbench.builders.sources.german import split_segments  # noqa: F401 - the rule's own splitter

    analyzer, rule, out = _analyzer(), RULES["clause_omission"](), {}
    rows = [r for r in read_distillingeval(folder) if r["phenomenon"] == "clause_omission"]
    for ref in ("human", "mt"):
        texts = sorted({r["correct"] for r in rows if r["reference_type"] == ref})
        one = varied = 0
        for a in analyzer.analyze(texts):
            if a is None:
                continue
            segments = [(s, e) for s, e in a.segments if any(w.upos != "PUNCT" for w in a.words_in((s, e)))]
            if len(segments) < 2:
                one += 1
                varied += bool(rule.candidates(a))
        out[ref] = {"sentences": len(texts), "one_segment": one, "one_segment_varied": varied}
    return out


def positions(folder: Path) -> dict:
    """Per sentence of the machine sets: our positions (the rule's edits, licensed by nothing: the slice has no human
    np/subj-verb sets) and which of them carry one of the authors' variants."""
    analyzer = _analyzer()
    rows = read_distillingeval(folder)
    out = {}
    for phenomenon in ("np_agreement", "subj_verb_agreement"):
        rule = RULES[phenomenon]()
        theirs = defaultdict(set)
        for r in rows:
            if r["phenomenon"] == phenomenon and r["reference_type"] == "mt":
                theirs[r["correct"]].add(r["incorrect"])
        texts = sorted(theirs)
        kept_by_form, verbs_by_count = defaultdict(lambda: [0, 0]), defaultdict(list)
        for text, a in zip(texts, analyzer.analyze(texts)):
            if a is None:
                continue
            by_position = defaultdict(set)
            for incorrect, e in distinct_variants(text, rule.candidates(a)):
                by_position[(e.start, e.end)].add(incorrect)
            kept = {p for p, variants in by_position.items() if variants & theirs[text]}
            if phenomenon == "np_agreement":
                for p in by_position:
                    cell = kept_by_form[text[p[0]:p[1]].lower()]
                    cell[0] += 1
                    cell[1] += p in kept
            elif by_position:
                verbs_by_count[min(len(by_position), 4)].append((len(kept), len(theirs[text])))
        if phenomenon == "np_agreement":
            out[phenomenon] = {form: {"positions": n, "varied": k, "share": round(k / n, 4)}
                               for form, (n, k) in sorted(kept_by_form.items()) if n >= 20}
        else:
            out[phenomenon] = {str(n): {"sentences": len(v), "ours_varied_per_sentence": round(sum(k for k, _ in v) / len(v), 2),
                                        "their_variants_per_sentence": round(sum(m for _, m in v) / len(v), 2)}
                               for n, v in sorted(verbs_by_count.items())}
    return out


def ding() -> dict:
    from wordbench.benchmarks.hub import build, load_data

    out, variants = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for polarity in ("lookup", "dictionary"):
            for name, ctx in (("with", None), ("without", no_prefix_test())):
                with ctx or _nothing(), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    folder, _ = build("minpairs", [f"phenomena={AFFIX}", f"affix_polarity={polarity}"], out=Path(tmp) / f"{polarity}-{name}",
                                      force=True, progress=False)
                rows = load_data("minpairs", str(folder), progress=False)[1]["default"]["test"]
                variants[polarity, name] = {(r["correct"], r["incorrect"]) for r in rows}
                out.setdefault(polarity, {})[f"pairs_{name}_prefix_test"] = len(rows)
        lost = variants["lookup", "without"] - variants["lookup", "with"]
        out["lookup"]["dropped"] = dict(Counter(_deleted_un_word(c, i) for c, i in lost).most_common())
    return out


def source() -> dict:
    from wordbench.builders.sources.parallel import TRANS_DE_EN, load_pairs

    return {"trans-de-en": len(load_pairs(TRANS_DE_EN))}


PARTS = {"compare": compare, "affix": affix, "clause": clause, "positions": positions, "ding": lambda folder: ding(),
         "source": lambda folder: source()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=list(PARTS))
    ap.add_argument("--slice", type=Path, default=SLICE)
    args = ap.parse_args()
    figures = PARTS[args.part](args.slice)
    result = json.loads(OUT.read_text()) if OUT.exists() else {
        "benchmark": "minpairs' rules on the development slice of the authors' DistilLingEval sets (offline analyzer)",
        "command": "python perf/minpairs_slice.py PART", "parts": {}}
    result["parts"][args.part] = figures
    OUT.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(figures, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
