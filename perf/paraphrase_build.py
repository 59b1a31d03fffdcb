"""The offline paraphrase build's counts, with the builtin review and with the rules alone (``review=none``).

Per set: triples, triples a reader accepted (``reviewed``) and carriers by source (corpus, WordNet examples). Writes
perf/results/paraphrase-build.json (about two minutes where the builds are not cached):

    python perf/paraphrase_build.py
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path

from wordbench.benchmarks.hub import build, load_data

OUT = Path(__file__).parent / "results" / "paraphrase-build.json"


def counts(overrides: list[str]) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        folder, meta = build("paraphrase", overrides, progress=False)
    _, data = load_data("paraphrase", str(folder))
    rows = list(data["default"]["test"])
    sets = {}
    for name in ("rare", "common"):
        mine = [r for r in rows if r["set"] == name]
        sets[name] = {"triples": len(mine), "reviewed": sum(bool(r["reviewed"]) for r in mine),
                      "carrier_source": dict(sorted(Counter(r["carrier_source"] for r in mine).items()))}
    return {"signature": meta["signature"], "sets": sets}


def main():
    result = {"benchmark": "the offline paraphrase build (wordbench build paraphrase), with the review and without",
              "builtin_review": counts([]), "rules_alone": counts(["review=none"])}
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
