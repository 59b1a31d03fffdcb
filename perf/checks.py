"""What the input checks cost: ``schema.check_data`` (declared columns and types, ids, text a model cannot see,
each builder's row check) on every cached default build, against loading that data and against scoring it.

    python perf/checks.py    # writes perf/results/checks.json

A default build must exist in the cache (``wordbench build NAME`` once). The scoring time is the suite's
quick profile (``perf/results/suite.json``), the shortest score a user runs: a full score costs more.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT.parent))

from wordbench.benchmarks import hub  # noqa: E402
from wordbench.benchmarks.registry import REGISTRY, get  # noqa: E402
from wordbench.benchmarks.schema import check_data  # noqa: E402
from wordbench.cache import cache_dir  # noqa: E402


def newest_build(name: str) -> Path | None:
    folders = [p for p in cache_dir("builds", name).iterdir() if (p / "signature.json").exists()]
    return max(folders, key=lambda p: p.stat().st_mtime, default=None)


def main() -> None:
    suite = json.loads((ROOT / "perf" / "results" / "suite.json").read_text())["suite"]["per_benchmark_s"]
    out = {}
    for name in REGISTRY:
        folder = newest_build(name)
        if folder is None:
            print(f"{name}: no cached build; run `wordbench build {name}` first")
            continue
        t0 = time.perf_counter()
        _, data = hub.load_data(name, str(folder), progress=False)
        load_s = time.perf_counter() - t0
        builder = get(name).builder_class
        rows = sum(len(ds) for dsd in data.values() for ds in dsd.values())
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            check_data(name, builder.schema, data, str(folder), builder.labels, builder.column_defaults, builder.row_problem)
            runs.append(time.perf_counter() - t0)
        check_s = min(runs)
        out[name] = {"rows": rows, "check_s": round(check_s, 4), "load_s": round(load_s, 3), "quick_score_s": suite.get(name),
                     "share_of_quick_score": round(check_s / suite[name], 5) if suite.get(name) else None}
        print(f"{name:11s} {rows:>8,} rows  check {check_s:7.3f} s  load {load_s:6.2f} s  "
              f"{100 * out[name]['share_of_quick_score']:.2f}% of a quick-profile score ({suite.get(name)} s)")
    (ROOT / "perf" / "results" / "checks.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
