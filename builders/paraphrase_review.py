"""A reader's verdicts on paraphrase triples: the step the paper's annotator took (Appendix C), kept as a file.

The paper's 50 + 50 triples were chosen by a human annotator. WordNet rules alone give triples of which an
automatic reader accepted 63 of 95 (builder 2.4.0, the offline default build read whole): the rest fail on
ordinary-English facts WordNet does not hold (a pope is a clergyman, a yacht a boat). A review file records
what a reader decided, one triple per line, tab-separated, with a header line::

    word  hypernym  sibling  verdict  criterion  sentence  reason

``verdict`` is ``A`` (acceptable) or ``R`` (not); a rejection names the criteria that fail (``2`` or ``1,3``), and
the build replaces each part named: ``1`` the carrier (x's next carrier), ``2`` x_h (x's next hypernym, no other word of
x_h's synset; x is left out without one), ``3`` x_a (the next sibling; a sibling that is no clear alternative to x_h, a pope to a
clergyman, is none for any x under it). ``sentence`` is the carrier s(x) as built. Lines
starting with ``#`` are comments. A triple two readers disagree on is rejected: the rejection holds. ``builtin`` is wordbench's own file (``paraphrase_review.tsv``: the verdicts
of automatic readers, large language models prompted with the paper's three criteria and no access to the builder or
earlier verdicts, on the offline default builds, reasons quoted; its header says when and on which builds); ``none``
reads nothing: the rules alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from wordbench.errors import DataFormatError, SourceError

from .sources.base import SourceInfo, file_sha8
from .sources.readers import numbered_lines, split_fields

BUILTIN = Path(__file__).with_name("paraphrase_review.tsv")
COLUMNS = ("word", "hypernym", "sibling", "verdict", "criterion", "sentence", "reason")
CRITERIA = {"1": "the carrier", "2": "x_h", "3": "x_a"}


@dataclass
class Review:
    """What a review decided, keyed by the part a rejection replaces."""

    carriers: set[tuple[str, str]] = field(default_factory=set)  # (x, s(x)) rejected on criterion 1
    hypernyms: set[tuple[str, str]] = field(default_factory=set)  # (x, x_h) rejected on criterion 2
    siblings: set[tuple[str, str]] = field(default_factory=set)  # (x_h, x_a) rejected on criterion 3, for every x
    accepted: set[tuple[str, str, str, str]] = field(default_factory=set)  # (x, x_h, x_a, s(x)) read and accepted

    def read(self, row: dict) -> bool:
        """Whether a built row is a triple, with its carrier, that the review accepted."""
        return (row["word"], row["hypernym"], row["sibling"], row["sentence"]) in self.accepted


def load_review(spec: str) -> tuple[Review, SourceInfo | None]:
    """The review ``spec`` names (``builtin``, ``none`` or a path) and its provenance (None for ``none``)."""
    if spec == "none":
        return Review(), None
    path = BUILTIN if spec == "builtin" else Path(spec).expanduser()
    if not path.is_file():
        raise SourceError(f"review file {path} does not exist: give a TSV of {', '.join(COLUMNS)}, builtin or none")
    review, read, rejected = Review(), 0, 0
    header_seen = False
    for lineno, line in numbered_lines(path):
        text = line.rstrip("\r\n")
        if not text.strip() or text.startswith("#"):
            continue
        cells = text.split("\t")
        if not header_seen:
            if tuple(c.strip() for c in cells) != COLUMNS:
                raise DataFormatError(f"{path}:{lineno}: a review file opens with the header {' | '.join(COLUMNS)} (tab-separated)")
            header_seen = True
            continue
        x, x_h, x_a, verdict, criterion, sentence, _ = (c.strip() for c in split_fields(path, lineno, text, COLUMNS))
        if not (x and x_h and x_a and sentence):
            raise DataFormatError(f"{path}:{lineno}: word, hypernym, sibling and sentence must not be empty")
        if any(w != w.lower() for w in (x, x_h, x_a)):
            raise DataFormatError(f"{path}:{lineno}: word, hypernym and sibling are lower-case, as the build writes them ({x}, {x_h}, {x_a})")
        if verdict == "A":
            if criterion:
                raise DataFormatError(f"{path}:{lineno}: an accepted triple names no failing criterion (found {criterion!r})")
            review.accepted.add((x, x_h, x_a, sentence))
        elif verdict == "R":
            failed = {c.strip() for c in criterion.split(",")}
            if not failed <= CRITERIA.keys():
                raise DataFormatError(f"{path}:{lineno}: a rejection names the criteria that fail, comma-separated: 1 (carrier), 2 (x_h), 3 (x_a); not {criterion!r}")
            rejected += 1
            if "1" in failed:
                review.carriers.add((x, sentence))
            if "2" in failed:
                review.hypernyms.add((x, x_h))
            if "3" in failed:
                review.siblings.add((x_h, x_a))
        else:
            raise DataFormatError(f"{path}:{lineno}: verdict must be A (acceptable) or R (not), not {verdict!r}")
        read += 1
    if not header_seen:
        raise DataFormatError(f"{path}: a review file needs the header line {' | '.join(COLUMNS)} (tab-separated)")
    name = "wordbench's review of the offline default builds" if spec == "builtin" else str(path)
    return review, SourceInfo("review", name, f"sha256-{file_sha8(path)}", f"{read} triples read, {rejected} rejected")


def rounds(path: Path = BUILTIN) -> list[tuple[str, int, int]]:
    """(round heading, triples read, accepted) per ``# Round`` section of a review file."""
    out: list[list] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# Round"):
            out.append([line[2:].strip(), 0, 0])
        elif out and line.strip() and not line.startswith("#") and not line.startswith("word\t"):
            fields = line.split("\t")
            out[-1][1] += 1
            out[-1][2] += len(fields) > 3 and fields[3] == "A"
    return [tuple(r) for r in out]


if __name__ == "__main__":  # python -m wordbench.builders.paraphrase_review [FILE]: the verdicts per round
    import sys

    for heading, read, accepted in rounds(Path(sys.argv[1]) if len(sys.argv) > 1 else BUILTIN):
        print(f"{accepted:>3} of {read:>3} accepted  {heading}")
