"""English-German sentence pairs: the Ding dictionary (Debian ``trans-de-en``), line-aligned files, or HF datasets.

Specs: ``trans-de-en`` (the offline default), ``ding:PATH`` (a Ding-format dictionary file),
``SRC.en,TGT.de`` (two line-aligned files), ``hf:ID[:CONFIG[:SPLIT]]`` (WMT-style ``translation``
column of ``{"en": ..., "de": ...}`` dicts, or ``en``/``de`` columns).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from wordbench.errors import DataFormatError, SourceError
from .base import SourceInfo, file_sha8
from .german import split_segments
from .readers import load_hf_dataset, numbered_lines, split_fields

TRANS_DE_EN = "trans-de-en"
TRANS_FILE = Path("/usr/share/trans/de-en")
ANNOTATION = re.compile(r"\s*(\{[^}]*\}|\[[^\]]*\]|<[^>]*>|/[A-Z][A-Za-z.]*/)")
_ALTERNATIVE = re.compile(r"(?<=[.!?])\s*;\s+")
_PLACEHOLDER = re.compile(r"\b(etw|jdm|jdn|jds|jd|sth|sb|sb's)\.|…|\.\.\.|\bo\.ä\.|/")


@dataclass(frozen=True)
class Pair:
    id: str
    source: str  # English
    reference: str  # German (human)


def parallel_problem(spec: str) -> str | None:
    """What is wrong with a parallel spec's form (None: nothing); files are read at build time."""
    if spec == TRANS_DE_EN or spec.startswith(("ding:", "hf:")):
        return None if spec.partition(":")[2].strip() or spec == TRANS_DE_EN else f"'{spec}' names nothing after the colon"
    parts = spec.split(",")
    if len(parts) == 2 and all(p.strip() for p in parts):
        return None
    return f"'{spec}' is not trans-de-en, ding:PATH, SRC.en,TGT.de (two line-aligned files) or hf:DATASET_ID"


def load_pairs(spec: str = TRANS_DE_EN) -> list[Pair]:
    """The sentence pairs of ``spec`` in file order; empty or misaligned input is a one-line error."""
    if spec == TRANS_DE_EN or spec.startswith("ding:"):
        path = TRANS_FILE if spec == TRANS_DE_EN else Path(spec[5:]).expanduser()
        if not path.exists():
            hint = "sudo apt-get install trans-de-en (Debian/Ubuntu), or give SRC.en,TGT.de files" if spec == TRANS_DE_EN else "check the path"
            raise SourceError(f"the Ding dictionary {path} is missing: {hint}")
        return ding_pairs(path)
    if spec.startswith("hf:"):
        return _hf_pairs(spec[3:])
    if "," in spec:
        src, tgt = (Path(p).expanduser() for p in spec.split(",", 1))
        return aligned_pairs(src, tgt)
    raise SourceError(f"parallel data '{spec}': give trans-de-en, ding:PATH, SRC.en,TGT.de or hf:DATASET_ID")


def sentence_lines(path: Path) -> list[str]:
    """One sentence per line; a missing file or an empty line is an error naming it."""
    if not path.is_file():
        raise SourceError(f"file {path} does not exist")
    lines = [line.strip() for _, line in numbered_lines(path)]
    for n, line in enumerate(lines, 1):
        if not line:
            raise DataFormatError(f"{path}:{n}: empty line (every line must hold one sentence)")
    return lines


def aligned_pairs(src: Path, tgt: Path) -> list[Pair]:
    """Two line-aligned files; different line counts or an empty line are errors naming the file and line."""
    sources, targets = sentence_lines(src), sentence_lines(tgt)
    if len(sources) != len(targets):
        raise DataFormatError(f"{src} has {len(sources)} lines but {tgt} has {len(targets)}: the files must be line-aligned")
    return [Pair(f"line-{n:06d}", s, t) for n, (s, t) in enumerate(zip(sources, targets), 1)]


def _clean(text: str) -> str:
    text = ANNOTATION.sub("", text)
    return _ALTERNATIVE.split(text)[0].strip()


def _is_sentence(text: str) -> bool:
    return (len(text.split()) >= 3 and text[:1].isupper() and text[-1:] in ".!?" and not _PLACEHOLDER.search(text)
            and text.count('"') % 2 == 0)


def _sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_segments(text) if text[e - 1:e] in ".!?"]


def _first_alternative(german: str, english: str) -> str:
    """Ding gives alternative translations as further sentences ("Mich beeindruckt er nicht. Mir imponiert er nicht."
    for "He cuts no ice with me.") or after "; " and a capital: the first is kept, with the English final stop."""
    if ";" not in english:  # "Das bleibt dir überlassen; Das liegt bei dir." for "This is up to you."
        first = re.split(r";\s+(?=[A-ZÄÖÜ])", german)[0]
        german = first if first == german or first[-1:] in ".!?" else first + english[-1:]
    de = _sentences(german)
    return de[0] if len(de) > max(1, len(_sentences(english))) else german


def ding_pairs(path: Path) -> list[Pair]:
    """Example sentences of a Ding dictionary: sub-entries (``|``) whose German and English sides are both
    sentences (capitalised, end in . ! ?, 3+ words, no etw./sth. placeholders); annotations and alternative
    translations (after ``;``, or further German sentences) are removed; a German sentence seen before is skipped."""
    pairs, seen = [], set()
    for lineno, line in numbered_lines(path):
        if line.startswith("#") or " :: " not in line:
            continue
        german, english = split_fields(path, lineno, line, ("German", "English"), " :: ")
        de_parts, en_parts = german.split(" | "), english.split(" | ")
        if len(de_parts) != len(en_parts):  # sub-entries pair by position: a missing one would shift every pair after it
            raise DataFormatError(f"{path}:{lineno}: {len(de_parts)} German and {len(en_parts)} English sub-entries (' | '-separated); "
                                  "a Ding line pairs them one to one")
        for k, (de, en) in enumerate(zip(de_parts, en_parts)):
            de, en = _clean(de), _clean(en)
            de = _first_alternative(de, en)
            if _is_sentence(de) and _is_sentence(en) and de not in seen:
                seen.add(de)
                pairs.append(Pair(f"ding-{lineno:06d}-{k}", en, de))
    return pairs


def _hf_pairs(spec: str) -> list[Pair]:
    dataset_id, ds = load_hf_dataset(spec, default_split="test")
    split = (spec.split(":") + [None, None])[2] or "test"
    if "translation" in ds.column_names:
        rows = [(t["en"], t["de"]) for t in ds["translation"]]
    elif {"en", "de"} <= set(ds.column_names):
        rows = list(zip(ds["en"], ds["de"]))
    else:
        raise SourceError(f"dataset {dataset_id} has neither a 'translation' column nor 'en'/'de' columns (columns: {', '.join(ds.column_names)})")
    return [Pair(f"{split}-{n:06d}", s.strip(), t.strip()) for n, (s, t) in enumerate(rows, 1) if s.strip() and t.strip()]


def parallel_info(spec: str) -> SourceInfo:
    if spec == TRANS_DE_EN:
        return SourceInfo("parallel", "Ding dictionary example sentences (Debian trans-de-en)", f"trans-de-en-{_deb_version()}",
                          "https://dict.tu-chemnitz.de/")
    if spec.startswith("ding:"):
        return SourceInfo("parallel", f"Ding dictionary {spec[5:]}", f"ding-sha256-{file_sha8(Path(spec[5:]).expanduser())}")
    if spec.startswith("hf:"):
        return SourceInfo("parallel", f"HF dataset {spec[3:]}", spec[3:].replace(":", "/"))
    src, tgt = (Path(p).expanduser() for p in spec.split(",", 1))
    return SourceInfo("parallel", f"line-aligned {src.name} / {tgt.name}", f"files-sha256-{file_sha8(src, tgt)}")


def _deb_version() -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "trans-de-en"], capture_output=True, text=True, timeout=10)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return "sha256-" + file_sha8(TRANS_FILE)
