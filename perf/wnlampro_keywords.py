"""WNLaMPro builds held against half of the authors' keyword list, and against our own faithful build.

Each part builds WNLaMPro afresh with its options (about a minute) and writes its figures into
perf/results/wnlampro-keywords.json (the other parts' figures are kept), so that each part is one short run:

    python perf/wnlampro_keywords.py PART [--list ../shared/reference/wnlampro/keywords_dev.txt]

Parts: ``default``, ``faithful``, ``rank3``, ``rank6``, ``rank0`` (``cohyponym_sense_rank``) hold a build against the
list (``wnlampro_compare --keywords --share 0.498951``: 7,609 of the 15,250 distinct published keywords); ``inflected``
counts the inflected keywords of ``keyword_forms=inflected`` and its Table 4; ``faithful_inflected`` holds the default
build against ``--faithful --set keyword_forms=inflected`` as ``wnlampro_compare fi/WNLaMPro.txt`` would, on the builds
themselves (keyword and target overlap; it also records whether reading that build's WNLaMPro.txt back is refused).
The list is not part of the repository; the file keeps counts only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
from pathlib import Path

from wordbench.builders.sources.wordnet import is_lemma
from wordbench.builders.wnlampro import (
    BINS,
    PAPER_TABLE4,
    RELATIONS,
    read_wnlampro_txt,
    write_wnlampro_txt,
)
from wordbench.builders.wnlampro_compare import (
    PROBED,
    compare,
    compare_keywords,
    keywords,
    our_build,
    read_keyword_list,
)

from wordbench.errors import DataFormatError

OUT = Path(__file__).parent / "results" / "wnlampro-keywords.json"
SHARE = 0.498951  # 7609 / 15250
LIST_PARTS = {"default": ((), False), "faithful": ((), True), "rank3": (("cohyponym_sense_rank=3",), False),
              "rank6": (("cohyponym_sense_rank=6",), False), "rank0": (("cohyponym_sense_rank=0",), False)}


def table4(data) -> dict:
    """relation -> bin -> entries, and each cell's ratio to the paper's Table 4."""
    cells = {r: {b: 0 for b in BINS} for r in RELATIONS}
    for split in data.values():
        for r, b in zip(split["relation"], split["keyword_bin"]):
            cells[r][b] += 1
    return {r: {b: {"entries": n, "ratio": round(n / p, 2) if p else None} for (b, n), p in zip(cells[r].items(), PAPER_TABLE4[r])}
            for r in RELATIONS}


def against_list(words: list[str], overrides: tuple[str, ...], faithful: bool) -> dict:
    ours, ctx = our_build(overrides, faithful, progress=False)
    result = compare_keywords(words, ours, ctx, SHARE)
    ours_by = keywords(ours)
    listed = set(words)
    antonyms = set(ours_by["antonym"])
    halves = {}
    for half in (0, 1):  # the list split again by a hash of the word: each half a share SHARE / 2 of the published
        part = [w for w in words if int(hashlib.sha256(f"half:{w}".encode()).hexdigest(), 16) % 2 == half]
        r = compare_keywords(part, ours, ctx, SHARE * len(part) / len(words))
        halves[f"half{half}"] = {"listed": r.theirs, "ours_among_published": round(r.ours_among_theirs, 4),
                                 "published_among_ours": round(r.theirs_among_ours, 4)}
    return {
        "options": list(overrides) + (["--faithful"] if faithful else []),
        "ours": result.ours, "listed": result.theirs, "shared": result.shared, "share": SHARE,
        "ours_among_published": round(result.ours_among_theirs, 4),
        "published_among_ours": round(result.theirs_among_ours, 4),
        "missing": {reason: len(ws) for reason, ws in result.missing.items()},
        "antonym_keys": len(antonyms), "antonym_ours_among_published": round(len(antonyms & listed) / (SHARE * len(antonyms)), 4),
        "listed_with_hyphen_or_dot": sum(any(c in w for c in "-.") for w in words),
        "list_halves": halves,
        "table4": table4(ours),
    }


def inflected() -> dict:
    data, ctx = our_build(("keyword_forms=inflected",), False, progress=False)
    keys = set().union(*(keywords(data)[r] for r in PROBED))
    return {"options": ["keyword_forms=inflected"], "distinct_keywords": len(keys),
            "inflected_keywords": sum(not is_lemma(ctx.wn, k) for k in keys), "table4": table4(data)}


def faithful_inflected() -> dict:
    fi, _ = our_build(("keyword_forms=inflected",), True, progress=False)
    ours, ctx = our_build((), False, progress=False)
    refused = None
    with tempfile.TemporaryDirectory() as tmp:  # the file route of `wnlampro_compare fi/WNLaMPro.txt`
        path = Path(tmp) / "WNLaMPro.txt"
        write_wnlampro_txt(fi, path)
        try:
            read_wnlampro_txt(path, ctx.config.rare_below, ctx.config.frequent_from)
        except DataFormatError as exc:
            refused = str(exc).replace(str(path), "WNLaMPro.txt")
    result = compare(fi, ours, ctx)  # the builds themselves: keywords and targets as the file holds them
    return {"published": "our --faithful --set keyword_forms=inflected build", "file_refused": refused, "ours": result.ours,
            "published_keywords": result.theirs, "shared": result.shared,
            "ours_among_published": round(result.ours_among_theirs, 4), "published_among_ours": round(result.theirs_among_ours, 4),
            "missing": {reason: len(ws) for reason, ws in result.missing.items()},
            "targets": {r: [round(a, 4), round(b, 4)] for r, (a, b) in result.targets.items()}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=[*LIST_PARTS, "inflected", "faithful_inflected"])
    ap.add_argument("--list", type=Path, default=Path(__file__).resolve().parents[2] / "shared/reference/wnlampro/keywords_dev.txt")
    args = ap.parse_args()
    if args.part in LIST_PARTS:
        figures = against_list(read_keyword_list(args.list), *LIST_PARTS[args.part])
    else:
        figures = inflected() if args.part == "inflected" else faithful_inflected()
    result = json.loads(OUT.read_text()) if OUT.exists() else {
        "benchmark": "WNLaMPro builds against half of the authors' keyword list (keywords_dev.txt) and our faithful build",
        "command": "python perf/wnlampro_keywords.py PART", "parts": {}}
    result["parts"][args.part] = figures
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
