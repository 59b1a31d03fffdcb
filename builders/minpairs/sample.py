"""A seeded sample of a build's contrastive variants for a reader to judge, and the tally of a judged sample.

    python -m wordbench.builders.minpairs.sample DIR --phenomenon polarity_affix_del --n 30 --seed 20261129 > sample.tsv
    python -m wordbench.builders.minpairs.sample --tally sample.tsv

The sample is a TSV with a ``verdict`` column (A accept, B borderline, R reject) and a ``reason`` column to fill; its
``#`` lines say which build it came from and, once judged, who judged it. ``--tally`` counts the verdicts of a
judged file; the documentation's reader figures come from the judged files kept in docs/benchmarks/readers/.
"""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from pathlib import Path

import click

from wordbench.errors import DataFormatError, user_errors

COLUMNS = ("id", "source", "correct", "incorrect", "before", "after", "verdict", "reason")
VERDICTS = {"A": "accepted", "B": "borderline", "R": "rejected"}


def draw(rows: list[dict], phenomenon: str, n: int, seed: int) -> list[dict]:
    """``n`` distinct-sentence variants of ``phenomenon``, drawn with ``seed`` from the build's rows (sorted by id first, so
    the draw does not depend on the file's order)."""
    pool = sorted((r for r in rows if r["phenomenon"] == phenomenon), key=lambda r: r["id"])
    if not pool:
        raise DataFormatError(f"the build has no {phenomenon} rows")
    return random.Random(seed).sample(pool, min(n, len(pool)))


def sample_tsv(rows: list[dict], header: list[str]) -> str:
    out = io.StringIO()
    for line in header:
        out.write(f"# {line}\n")
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow([r["id"], r["source"], r["correct"], r["incorrect"], r["edit"]["before"], r["edit"]["after"], "", ""])
    return out.getvalue()


def read_judged(path: Path) -> list[dict]:
    """The rows of a judged sample; a row without a verdict A, B or R is an error naming its line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    body = [(n, line) for n, line in enumerate(lines, 1) if line and not line.startswith("#")]
    if not body or tuple(body[0][1].split("\t")) != COLUMNS:
        raise DataFormatError(f"{path}: expected a header line {' '.join(COLUMNS)} (tab-separated)")
    rows = []
    for n, line in body[1:]:
        cells = line.split("\t")
        if len(cells) != len(COLUMNS) or cells[6] not in VERDICTS:
            raise DataFormatError(f"{path} line {n}: expected {len(COLUMNS)} tab-separated cells with a verdict A, B or R")
        rows.append(dict(zip(COLUMNS, cells)))
    return rows


def tally(path: Path) -> dict[str, int]:
    """{accepted, borderline, rejected, judged}: accepted counts the borderline ones too, as the documentation states it."""
    counts = Counter(r["verdict"] for r in read_judged(path))
    return {"accepted": counts["A"] + counts["B"], "borderline": counts["B"], "rejected": counts["R"], "judged": sum(counts.values())}


@click.command()
@click.argument("build", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--phenomenon", default="polarity_affix_del", show_default=True, help="The phenomenon whose variants are drawn.")
@click.option("--n", "count", default=30, show_default=True, help="Variants drawn.")
@click.option("--seed", default=0, show_default=True, help="Seed of the draw.")
@click.option("--tally", "judged", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Count the verdicts of a judged sample instead of drawing one.")
@user_errors
def main(build, phenomenon, count, seed, judged):
    """Draw a seeded sample of BUILD's variants to judge (a TSV on stdout), or --tally a judged one."""
    if judged is not None:
        t = tally(judged)
        click.echo(f"{judged}: {t['accepted']} of {t['judged']} accepted ({t['borderline']} borderline), {t['rejected']} rejected")
        return
    if build is None:
        raise click.UsageError("give a build folder to draw from, or --tally FILE")
    import json

    import datasets

    files = sorted((build / "data" / "default").glob("*.parquet"))
    if not files:
        raise DataFormatError(f"{build}: no data/default/*.parquet (a folder `wordbench build minpairs --out DIR` wrote)")
    table = datasets.load_dataset("parquet", data_files=[str(f) for f in files], split="train")
    names = table.features["phenomenon"]
    rows = [dict(r, phenomenon=names.int2str(r["phenomenon"]) if isinstance(r["phenomenon"], int) else r["phenomenon"]) for r in table]
    meta = json.loads((build / "signature.json").read_text()) if (build / "signature.json").is_file() else {}
    signature, config = meta.get("signature", "unknown"), meta.get("config", {})
    header = [f"build: {signature}", f"config: {json.dumps(config, sort_keys=True)}" if config else "config: as published",
              f"drawn: python -m wordbench.builders.minpairs.sample BUILD --phenomenon {phenomenon} --n {count} --seed {seed}",
              "verdict: A accept, B borderline, R reject (the contrastive sentence is the variant the paper's method means)"]
    click.echo(sample_tsv(draw(rows, phenomenon, count, seed), header), nl=False)


if __name__ == "__main__":
    main()
