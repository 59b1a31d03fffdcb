"""WNLaMPro: the share of entries whose targets the packaged SmolLM2 can rank at all (``reachable``), per relation.

Scores the default build's seeded stratified sample (``wordbench score wnlampro --model SMOLLM2.gguf --limit 100``,
a few minutes on 2 busy cores) and writes each relation's n, reachable share and MRR over the reachable entries to
perf/results/wnlampro-reach.json:

    python perf/wnlampro_reach.py [--limit 100]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from wordbench.benchmarks.cli import packaged_smollm2
from wordbench.benchmarks.runner import score
from wordbench.scorers.models import load_model

OUT = Path(__file__).parent / "results" / "wnlampro-reach.json"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=100)
    args = ap.parse_args()
    model = load_model(str(packaged_smollm2()))
    with tempfile.TemporaryDirectory() as tmp:
        run = score("wnlampro", model, limit=args.limit, out=Path(tmp), progress=False)
        summary = json.loads((run.path / "summary.json").read_text())
    metrics = summary["metrics"]
    result = {"command": f"wordbench score wnlampro --model SMOLLM2.gguf --limit {args.limit}", "signature": summary["signature"],
              "relations": {r: {k: metrics[r]["all"].get(k) for k in ("n", "reachable", "mrr_reachable")}
                            for r in ("antonym", "hypernym", "cohyponym", "corruption")}}
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
