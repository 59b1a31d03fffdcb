"""VAST offline: the offline-en corpus, its random-context coverage, and what the PCA basis does to isolation.

Each part is one short run and writes its figures into perf/results/vast-offline.json (the other parts' kept):

    python perf/vast_offline.py corpus     # tokens of each part of the offline-en corpus
    python perf/vast_offline.py coverage   # random-context coverage of the default build, and with corpus=gensim-wiki
    python perf/vast_offline.py basis      # a Bellezza-sized lexicon (VADER's words of Zipf >= 4 in Bellezza's layout),
                                           # bleached, packaged MiniLM: union_lexica=none against the default
    python perf/vast_offline.py limit      # the default build, --limit 50, packaged MiniLM: pca_basis=union against run
"""

from __future__ import annotations

import argparse
import csv
import json
import tempfile
import warnings
from pathlib import Path

OUT = Path(__file__).parent / "results" / "vast-offline.json"
FLOWERS = "flowers/insects, pleasant/unpleasant"


def corpus() -> dict:
    from wordbench.builders.sources.corpora import offline_english_parts

    parts = {name: sum(len(line.split()) for line in lines) for name, lines in offline_english_parts()}
    return {"tokens": parts, "total": sum(parts.values())}


def _data(overrides: list[str]):
    from wordbench.benchmarks.hub import build, load_data

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        folder, _ = build("vast", overrides, progress=False)
    return folder, load_data("vast", str(folder), progress=False)[1]["default"]["test"]


def _coverage(overrides: list[str]) -> dict:
    from wordbench.builders.vast_words import POLAR, WORD_SETS
    from wordfreq import zipf_frequency

    _, ds = _data(overrides)
    rows = list(zip(ds["word"], ds["group"], ds["setting"]))
    found = {w for w, _, s in rows if s == "random"}
    lexicon = {w for w, g, _ in rows if g == "lexicon"}
    common = {w for w in lexicon if zipf_frequency(w, "en") >= 3}
    polar = {w for p in POLAR for w in WORD_SETS[p]}
    terms = {w for name, ws in WORD_SETS.items() if name not in POLAR for w in ws} - polar
    share = lambda words: {"words": len(words), "found": len(words & found), "share": round(len(words & found) / len(words), 4)}
    return {"options": overrides, "lexicon": share(lexicon), "lexicon_zipf_3": share(common), "terms": share(terms), "polar": share(polar)}


def coverage() -> dict:
    return {"offline-en": _coverage([]), "gensim-wiki": _coverage(["corpus=gensim-wiki"])}


def _minilm():
    from wordbench.benchmarks.cli import packaged_minilm
    from wordbench.scorers.models import load_model

    return load_model(str(packaged_minilm()))


def _score(model, folder, out: Path, **options) -> dict:
    from wordbench.benchmarks.runner import score

    run = score("vast", model, str(folder), out=out, progress=False, **options)
    return json.loads((run.path / "summary.json").read_text())["metrics"]


def basis() -> dict:
    from wordbench.builders.sources.lexica import load_lexicon
    from wordfreq import zipf_frequency

    model, out = _minilm(), {}
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = Path(tmp) / "bellezza-sized.csv"
        vader = load_lexicon("vader").valence
        words = sorted(w for w in vader if zipf_frequency(w, "en") >= 4)
        with open(lexicon, "w", newline="") as f:  # Bellezza's layout: 1..5, VADER's -4..+4 mapped linearly
            writer = csv.writer(f)
            writer.writerow(["word", "combined_pleasantness"])
            writer.writerows((w, f"{vader[w] / 2 + 3:.4f}") for w in words)
        for name, extra in (("lexicon_and_weat", ["union_lexica=none"]), ("default", [])):
            folder, _ = _data([f"lexicon=bellezza:{lexicon}", "settings=bleached", *extra])
            m = _score(model, folder, Path(tmp) / "runs")
            iso, top = m["isolation"]["bleached"], m["table1"]["bleached"]["top"]
            flowers = m["bias"]["tests"][FLOWERS]
            out[name] = {"options": extra, "basis_words": iso["basis_words"], "null_pcs": m["null_pcs"],
                         "vast_before": round(top["before"], 3), "vast_after": round(top["after"], 3),
                         "curve_1_to_n": [round(v, 3) for v in iso["curve_top"][1 : m["null_pcs"] + 1]],
                         "flowers_d": round(flowers["d"], 2), "flowers_d_nullified": round(flowers["d_nullified"], 2)}
    return {"lexicon_words": len(words), **out}


def limit() -> dict:
    model, out = _minilm(), {}
    folder, _ = _data([])
    with tempfile.TemporaryDirectory() as tmp:
        for basis_rule in ("run", "union"):
            m = _score(model, folder, Path(tmp) / "runs", limit=50, pca_basis=basis_rule)
            out[basis_rule] = {"null_pcs": m["null_pcs"], "aligned_top_after": round(m["table1"]["aligned"]["top"]["after"], 3)}
    return out


PARTS = {"corpus": corpus, "coverage": coverage, "basis": basis, "limit": limit}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=list(PARTS))
    args = ap.parse_args()
    figures = PARTS[args.part]()
    result = json.loads(OUT.read_text()) if OUT.exists() else {
        "benchmark": "VAST offline: corpus, random-context coverage, the PCA basis", "command": "python perf/vast_offline.py PART", "parts": {}}
    result["parts"][args.part] = figures
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
