"""Valence lexica (Wolfe & Caliskan 2022 use Warriner et al. 2013, ANEW and Bellezza et al. 1986 in English,
and six more in the seven-language appendix, read here in the layouts of the authors' repository).

Users supply the published CSV files; the offline default is the VADER lexicon shipped in PyPI
``vaderSentiment`` (mean of 10 human ratings on -4..+4, alphabetic word entries only). Every lexicon
keeps its own scale; ``nine_point`` maps a valence linearly onto the 1-9 scale the templates use
(Bellezza: (v - 1) * 2 + 1, VADER: v + 5). Rows are read as text (the word "null" is a word, not a
missing value); a malformed row is an error naming the file and line; duplicate words keep their
first rating and are reported. Files are UTF-8 (a byte-order mark is skipped); the delimiter (comma,
semicolon or tab) is sniffed from the header. Every lexicon knows its language (None for a generic file).
``offline_lexica`` names every lexicon of a language readable without the network (VADER where its package is
installed; Warriner, ANEW or Bellezza copied into the wordbench cache as ``lexica/warriner.csv`` and so on).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.metadata import version as pkg_version
from importlib.util import find_spec
from pathlib import Path

from wordbench.errors import DataFormatError, SourceError
from .base import SourceInfo, cache_dir, file_sha8
from .tables import Table, read_table
from .corpora import load_hf_dataset
from .readers import split_fields


@dataclass(frozen=True)
class LexiconFormat:
    word: str
    valence: str
    scale: tuple[float, float]
    reference: str
    language: str = "en"


FORMATS = {
    "warriner": LexiconFormat("Word", "V.Mean.Sum", (1.0, 9.0), "Warriner, Kuperman & Brysbaert (2013)"),
    "anew": LexiconFormat("Description", "Valence Mean", (1.0, 9.0), "Bradley & Lang (1999), ANEW"),
    "bellezza": LexiconFormat("word", "combined_pleasantness", (1.0, 5.0), "Bellezza, Greenwald & Banaji (1986)"),
    # The seven-language appendix, as the files of the authors' repository ("Multilingual Lexica/").
    "imbir": LexiconFormat("Polish word", "Val_Mean", (1.0, 9.0), "Imbir (2016), Polish ANEW (ANEW_Polish_Imbir.csv)", "pl"),
    "redondo": LexiconFormat("S-Word", "Val-Mn-All", (1.0, 9.0), "Redondo et al. (2007), Spanish ANEW (ANEW_Spanish_Redondo.csv)", "es"),
    "cvaw": LexiconFormat("Word", "Valence_Mean", (1.0, 9.0), "Yu et al. (2016), CVAW 4.0 (CVAW4_Chinese.csv)", "zh"),
    "fan": LexiconFormat("Words", "Valence_Mean", (1.0, 9.0), "Monnier & Syssau (2014), FAN (FAN_French.csv)", "fr"),
    "pt-anew": LexiconFormat("EP-Word", "Val-M", (1.0, 9.0), "Soares et al. (2012), European Portuguese ANEW (PT_anew_Portuguese.csv)", "pt"),
    "turkish": LexiconFormat("word", "ValenceM", (1.0, 9.0), "Turkish emotional word norms (TurkishEmotionalWordNorms.csv)", "tr"),
}
VADER_SCALE = (-4.0, 4.0)
PAPER_LEXICA = ("warriner", "anew", "bellezza")  # the paper's English lexica, in the authors' valence order


@dataclass
class Lexicon:
    name: str
    scale: tuple[float, float]
    valence: dict[str, float]  # word -> valence on the lexicon's own scale, in file order
    info: SourceInfo
    duplicates: list[str] = field(default_factory=list)
    language: str | None = None  # ISO 639-1; None: not known (a generic file)

    def nine_point(self, word: str) -> float:
        """The word's valence mapped linearly onto 1..9."""
        lo, hi = self.scale
        return 1.0 + (self.valence[word] - lo) * 8.0 / (hi - lo)

    def __len__(self) -> int:
        return len(self.valence)


def lexicon_problem(spec: str) -> str | None:
    """What is wrong with a lexicon spec's form (None: nothing); files are read at build time."""
    kind, sep, rest = spec.partition(":")
    if not spec.strip():
        return "give a lexicon (vader, warriner:PATH, ...)"
    if sep and kind in FORMATS and not rest.strip():
        return f"'{spec}' names no file: give {kind}:PATH"
    if spec == "hf:":
        return "'hf:' names no dataset: give hf:ID"
    return None


def offline_lexica(language: str = "en") -> list[str]:
    """Specs of every lexicon of ``language`` that can be read without the network: a Warriner, ANEW or
    Bellezza file in the wordbench cache (``lexica/warriner.csv``, ``lexica/anew.csv``, ``lexica/bellezza.csv``,
    in the published layouts), then VADER where vaderSentiment is installed. English only (none otherwise)."""
    if language != "en":
        return []
    folder = cache_dir("lexica")
    specs = [f"{kind}:{folder / f'{kind}.csv'}" for kind in PAPER_LEXICA if (folder / f"{kind}.csv").is_file()]
    return specs + (["vader"] if find_spec("vaderSentiment") is not None else [])


def load_lexicon(spec: str = "vader", word_column: str | None = None, valence_column: str | None = None,
                 scale: tuple[float, float] | None = None) -> Lexicon:
    """``vader`` (offline default), ``warriner:PATH``, ``anew:PATH``, ``bellezza:PATH``, or a CSV/TSV path /
    ``hf:ID[:CONFIG[:SPLIT]]`` with ``word_column``, ``valence_column`` and ``scale`` given."""
    if spec == "vader":
        return _vader()
    kind, sep, rest = spec.partition(":")
    if sep and kind in FORMATS:
        fmt = FORMATS[kind]
        lex = _from_rows(kind, _csv_rows(Path(rest)), fmt.word, fmt.valence, fmt.scale, f"{fmt.reference}: {Path(rest).name}",
                         f"{kind}-{file_sha8(Path(rest))}", turkish_lower if fmt.language == "tr" else None)
        lex.language = fmt.language
        return lex
    if word_column is None or valence_column is None or scale is None:
        raise SourceError(f"lexicon {spec}: give its word column, valence column and scale (or use vader, warriner:PATH, anew:PATH, bellezza:PATH)")
    if spec.startswith("hf:"):
        return _from_rows(spec, _hf_rows(spec[3:]), word_column, valence_column, scale, spec, spec)
    path = Path(spec)
    return _from_rows(path.stem, _csv_rows(path), word_column, valence_column, scale, path.name, f"{path.stem}-{file_sha8(path)}")


def _csv_rows(path: Path):
    """(line number, row dict) of a CSV or TSV file (delimiter sniffed), every value as text, by the one
    table rule (``tables.read_table``: no duplicate header, no row of another width, no line break in a field)."""
    return read_table(path, "lexicon")


def _hf_rows(spec: str) -> Table:
    dataset_id, ds = load_hf_dataset(spec, what="lexicon dataset")
    return Table(dataset_id, list(ds.column_names), [(n + 1, {k: str(v) for k, v in row.items()}) for n, row in enumerate(ds)])


def turkish_lower(word: str) -> str:
    """Lower case with the Turkish dotted and dotless i (I -> ı, İ -> i); the Turkish norms are upper case."""
    return word.replace("I", "ı").replace("İ", "i").lower()


def _from_rows(name, table: Table, word_column, valence_column, scale, detail, version, normalize=None) -> Lexicon:
    table.require(word_column, valence_column)
    where, rows = table.where, table.rows
    lo, hi = scale
    valence: dict[str, float] = {}
    duplicates = []
    for line, row in rows:
        word, raw = (row.get(word_column) or "").strip(), (row.get(valence_column) or "").strip()
        word = normalize(word) if normalize and word else word
        if not word:
            raise DataFormatError(f"{where}:{line}: empty word")
        try:
            value = float(raw)
        except ValueError:
            raise DataFormatError(f"{where}:{line}: valence {raw!r} of {word!r} is not a number") from None
        if not lo <= value <= hi:
            raise DataFormatError(f"{where}:{line}: valence {value} of {word!r} is outside the scale {lo:g}..{hi:g}; is the scale right?")
        if word in valence:
            duplicates.append(word)
            continue
        valence[word] = value
    if not valence:
        raise DataFormatError(f"{where}: the lexicon is empty")
    return Lexicon(name, (lo, hi), valence, SourceInfo("lexicon", detail, version), duplicates)


def _vader() -> Lexicon:
    """VADER's lexicon: token, mean rating (-4..+4), std, raw ratings; alphabetic words only (no emoticons)."""
    try:
        import vaderSentiment
    except ImportError:
        raise SourceError("the offline valence lexicon needs vaderSentiment: pip install vaderSentiment") from None
    path = Path(vaderSentiment.__file__).parent / "vader_lexicon.txt"
    valence: dict[str, float] = {}
    duplicates = []
    with open(path, encoding="utf-8") as f:
        for line, text in enumerate(f, 1):
            parts = split_fields(path, line, text, ("token", "mean rating", "standard deviation", "ratings"))
            word = parts[0]
            if not word.isalpha():
                continue
            if word in valence:
                duplicates.append(word)
                continue
            try:
                valence[word] = float(parts[1])
            except ValueError:
                raise DataFormatError(f"{path}:{line}: the mean rating {parts[1]!r} is not a number") from None
    info = SourceInfo("lexicon", "VADER lexicon (Hutto & Gilbert 2014; mean of 10 ratings, -4..+4; alphabetic words only)",
                      f"vader-{pkg_version('vaderSentiment')}")
    return Lexicon("vader", VADER_SCALE, valence, info, duplicates, "en")
