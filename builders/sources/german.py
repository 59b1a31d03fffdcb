"""German analysis behind one interface: per sentence, words with UPOS, lemma and UD features, and segments.

Analyzers: ``stanza`` (the paper's tool; needs ``stanza.download('de')``), ``offline`` (PyPI HanTa for
POS and lemma, german-nouns for gender and case x number forms, article paradigms, verb endings), and
CoNLL-U text (``read_conllu``) for analyses made elsewhere. Features with several possible values
(an offline noun form that is nominative or accusative) hold them comma-separated, as UD does.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib.metadata import version as pkg_version
from typing import Iterable, Sequence

from wordbench.errors import DataFormatError, SourceError
from .base import SourceInfo, offline

Reading = tuple  # (Case, Number, Gender | None); plural readings have no gender


@dataclass
class Word:
    text: str
    start: int  # character span in the sentence
    end: int
    upos: str
    lemma: str
    feats: dict[str, str] = field(default_factory=dict)
    xpos: str = ""
    readings: frozenset | None = None  # (Case, Number, Gender) readings when the analyzer knows them jointly


    def values(self, feat: str) -> set[str]:
        return set(filter(None, self.feats.get(feat, "").split(",")))


@dataclass
class Analysis:
    text: str
    words: list[Word]
    segments: list[tuple[int, int]]  # character spans of the sentence splitter's segments
    splitter: str = "wordbench"  # who made the segments: wordbench's split_segments, or "stanza"

    def words_in(self, span: tuple[int, int]) -> list[Word]:
        return [w for w in self.words if w.start >= span[0] and w.end <= span[1]]


# --- segments: the sentence splitter, also at ; and : as the paper's stanza segments ------------------------
_SEGMENT_END = re.compile(r"(?<=[.!?;:])[\"'“”»«)]*\s+(?=\S)")
# Known abbreviations, initials ("J."), dotted ones ("z.B.", "u.a.") and ordinals ("1.") do not end a sentence;
# any other word does, however short ("Das ist gut. Wir gehen." is two sentences).
ABBREVIATIONS = frozenset("""abb abs abt allg anm bd bspw bzgl bzw ca chr co dr engl etc evtl frl frz ggf gr hl hr hrn hrsg
inkl jh jhd jr kap kath lt max mind min mio mrd mr mrs nr od oh orig pfd prof rd sek sog st std str tel urspr usw vgl
vs wg zb zz zzt""".split())
_DOTTED = re.compile(r"^(?:\w{1,2}\.){2,}$|^\d+\.$|^[A-ZÄÖÜ]\.$")


TITLES = frozenset("dr prof hr hrn frl mr mrs st".split())  # before a name: no sentence end, also for stanza


def is_abbreviation(token: str, stanza_like: bool = False) -> bool:
    """``token`` (ending in a period) is an abbreviation, an initial or an ordinal rather than a sentence end; for
    ``stanza_like`` (the authors' segments) only initials, dotted abbreviations (z.B.) and titles are."""
    word = token.lstrip("\"'„“”»«(")
    if stanza_like:
        return bool(re.match(r"^(?:\w{1,2}\.){2,}$|^[A-ZÄÖÜ]\.$", word)) or word[:-1].lower() in TITLES
    return bool(_DOTTED.match(word)) or word[:-1].lower() in ABBREVIATIONS


def split_segments(text: str, stanza_like: bool = False) -> list[tuple[int, int]]:
    """Character spans of sentences (and ;/: segments) of ``text``; abbreviations and ordinals do not split
    (``stanza_like``: they do, as the stanza segments of the authors' sets: "am 12. | September", "2 Mrd. | Pfund")."""
    spans, start = [], 0
    for m in _SEGMENT_END.finditer(text):
        head = text[start : m.start()].rstrip("\"'“”»«)")
        if head.endswith(".") and head.split() and is_abbreviation(head.split()[-1], stanza_like):
            continue
        spans.append((start, m.start() + len(m.group(0).rstrip())))
        start = m.end()
    spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]


# --- article paradigms ------------------------------------------------------------------------------
def _r(spec: str) -> frozenset:
    """'Nom.Sing.Masc Dat.Plur' -> readings."""
    out = set()
    for item in spec.split():
        case, number, *gender = item.split(".")
        out.add((case, number, gender[0] if gender else None))
    return frozenset(out)


DEFINITE = {
    "der": _r("Nom.Sing.Masc Gen.Sing.Fem Dat.Sing.Fem Gen.Plur"),
    "die": _r("Nom.Sing.Fem Acc.Sing.Fem Nom.Plur Acc.Plur"),
    "das": _r("Nom.Sing.Neut Acc.Sing.Neut"),
    "des": _r("Gen.Sing.Masc Gen.Sing.Neut"),
    "dem": _r("Dat.Sing.Masc Dat.Sing.Neut"),
    "den": _r("Acc.Sing.Masc Dat.Plur"),
}
EIN_ENDINGS = {
    "": _r("Nom.Sing.Masc Nom.Sing.Neut Acc.Sing.Neut"),
    "e": _r("Nom.Sing.Fem Acc.Sing.Fem Nom.Plur Acc.Plur"),
    "en": _r("Acc.Sing.Masc Dat.Plur"),
    "em": _r("Dat.Sing.Masc Dat.Sing.Neut"),
    "er": _r("Gen.Sing.Fem Dat.Sing.Fem Gen.Plur"),
    "es": _r("Gen.Sing.Masc Gen.Sing.Neut"),
}
DIESER_ENDINGS = dict(EIN_ENDINGS, **{"": frozenset(), "er": _r("Nom.Sing.Masc Gen.Sing.Fem Dat.Sing.Fem Gen.Plur"),
                                      "es": _r("Nom.Sing.Neut Acc.Sing.Neut Gen.Sing.Masc Gen.Sing.Neut")})
EIN_STEMS = ("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer", "eur")
DIESER_STEMS = ("dies", "jen", "jed", "welch", "manch", "solch")


@functools.lru_cache(maxsize=4096)
def determiner_paradigm(form: str) -> tuple[str, dict[str, frozenset]] | None:
    """(stem, {ending: readings}) of an article-like determiner; ``("", DEFINITE)`` for der/die/das..."""
    low = form.lower()
    if low in DEFINITE:
        return "", DEFINITE
    for stems, endings in ((EIN_STEMS, EIN_ENDINGS), (DIESER_STEMS, DIESER_ENDINGS)):
        for stem in sorted(stems, key=len, reverse=True):
            if low.startswith(stem) and low[len(stem):] in endings and endings[low[len(stem):]]:
                return stem, endings
    return None


def determiner_readings(form: str) -> frozenset:
    found = determiner_paradigm(form)
    if found is None:
        return frozenset()
    stem, table = found
    readings = table[form.lower()[len(stem):]] if stem else table[form.lower()]
    if stem == "ein":  # the indefinite article has no plural
        readings = frozenset(r for r in readings if r[1] == "Sing")
    return readings


# --- nouns: german-nouns (Wiktionary) ---------------------------------------------------------------
_GENUS = {"m": "Masc", "f": "Fem", "n": "Neut"}
_CASE = {"nominativ": "Nom", "genitiv": "Gen", "dativ": "Dat", "akkusativ": "Acc"}
_NUMBER = {"singular": "Sing", "plural": "Plur"}
_LEXICON_CASE = {v: k for k, v in _CASE.items()}
_LEXICON_NUMBER = {v: k for k, v in _NUMBER.items()}


@functools.lru_cache(maxsize=1)
def _nouns():
    try:
        from german_nouns.lookup import Nouns
    except ImportError as exc:
        raise SourceError("German noun forms need german-nouns: pip install german-nouns") from exc
    return Nouns()


def _genders(entry: dict) -> str:
    """Gender codes of an entry: ``genus``, or ``genus 1``, ``genus 2``... for nouns with several (der/das Monat)."""
    return entry.get("genus") or "".join(entry.get(f"genus {k}", "") for k in range(1, 5))


def _flexion_entries(word: str) -> list[dict]:
    try:
        entries = _nouns()[word]
    except (KeyError, IndexError):
        return []
    return [e for e in entries if "flexion" in e and word in e["flexion"].values()]


@functools.lru_cache(maxsize=200_000)
def noun_forms(word: str) -> tuple[tuple[dict, str], ...]:
    """((flexion table, gender code), ...) of the nouns that have ``word`` as a form; a compound unknown
    to the lexicon uses its longest known head noun (the head decides gender and inflection)."""
    found = [(e["flexion"], _genders(e)) for e in _flexion_entries(word)]
    if found or len(word) < 6:
        return tuple(found)
    for i in range(1, len(word) - 2):
        head = word[i].upper() + word[i + 1 :]
        heads = _flexion_entries(head)
        if heads:
            prefix = word[:i]
            lower = not prefix.endswith("-")  # Frauen-Nationalmannschaft keeps its capital, Nationalmannschaft does not
            return tuple(({k: prefix + (v[0].lower() if lower else v[0]) + v[1:] for k, v in e["flexion"].items()}, _genders(e))
                         for e in heads)
    if word.endswith(_FEMININE_SUFFIXES) and word[:1].isupper():  # Vernetzung: every -ung noun is feminine, -en plural
        cases = ("nominativ", "genitiv", "dativ", "akkusativ")
        return (({**{f"{c} singular": word for c in cases}, **{f"{c} plural": word + "en" for c in cases}}, "f"),)
    return ()


# Suffixes that make a noun feminine, its singular uninflected and its plural -en (Grammar facts, not a word list).
_FEMININE_SUFFIXES = ("ung", "heit", "keit", "schaft", "ion", "tät")


def noun_readings(word: str) -> frozenset:
    out = set()
    for flexion, genus in noun_forms(word):
        for key, form in flexion.items():
            if form != word:
                continue
            case, number = key.rstrip("*").split()[:2]
            if case in _CASE and number in _NUMBER:
                genders = ([_GENUS[g] for g in genus if g in _GENUS] or [None]) if number == "singular" else [None]
                out.update((_CASE[case], _NUMBER[number], g) for g in genders)
    return frozenset(out)


def noun_forms_in(word: str, case: str, number: str) -> list[str]:
    """The forms of ``word``'s noun in ``case``/``number``, lexicon variants in its order (Monates, Monats); [] if unknown."""
    key = f"{_LEXICON_CASE[case]} {_LEXICON_NUMBER[number]}"
    for flexion, _ in noun_forms(word):
        if word in flexion.values():
            forms = [f for k, f in flexion.items() if k.rstrip("*").split()[:2] == key.split() and f and f != "—"
                     and not k.endswith((" stark", " gemischt"))]  # nominalised adjectives: the weak form (des Abgeordneten)
            if forms:
                return list(dict.fromkeys(forms))
    return []


def noun_form(word: str, case: str, number: str) -> str | None:
    """The first form of ``word``'s noun in ``case``/``number`` (where the lexicon lists variants: Monates), or None."""
    forms = noun_forms_in(word, case, number)
    return forms[0] if forms else None


def ud_feats(text: str | None) -> dict[str, str]:
    """``Case=Dat|Number=Sing`` -> {"Case": "Dat", "Number": "Sing"}; ``_`` or nothing -> {}."""
    return dict(f.split("=", 1) for f in text.split("|")) if text and text != "_" else {}


def readings_feats(readings: Iterable[Reading]) -> dict[str, str]:
    """UD features of a set of readings (values comma-separated when ambiguous)."""
    readings = list(readings)
    if not readings:
        return {}
    feats = {"Case": ",".join(sorted({r[0] for r in readings})), "Number": ",".join(sorted({r[1] for r in readings}))}
    genders = sorted({r[2] for r in readings if r[2]})
    if genders:
        feats["Gender"] = ",".join(genders)
    return feats


# --- analyzers --------------------------------------------------------------------------------------
class Analyzer:
    name = "base"

    @property
    def info(self) -> SourceInfo:
        raise NotImplementedError

    def analyze(self, texts: Sequence[str]) -> list[Analysis | None]:
        """One analysis per text; None where the analyzer cannot process it (counted as a skip)."""
        raise NotImplementedError


_TOKEN = re.compile(r"(?:[A-Za-zÄÖÜäöü]\.){2,}|\d+(?:[.,:]\d+)*(?:er(?!\w)|\.)?|\w+(?:[-'’]\w+)*|[^\w\s]")
_STTS_UPOS = {
    "NN": "NOUN", "NE": "PROPN", "ART": "DET", "PDAT": "DET", "PIAT": "DET", "PIDAT": "DET", "PPOSAT": "DET",
    "PWAT": "DET", "PRELAT": "DET", "ADJA": "ADJ", "ADJD": "ADJ", "ADV": "ADV", "PAV": "ADV", "PROAV": "ADV",
    "PWAV": "ADV", "APPR": "ADP", "APPRART": "ADP", "APPO": "ADP", "APZR": "ADP", "KON": "CCONJ", "KOKOM": "CCONJ",
    "KOUS": "SCONJ", "KOUI": "SCONJ", "CARD": "NUM", "PTKNEG": "PART", "PTKZU": "PART", "PTKVZ": "ADP",
    "PTKANT": "INTJ", "PTKA": "PART", "ITJ": "INTJ", "VVFIN": "VERB", "VVINF": "VERB", "VVIZU": "VERB", "VVPP": "VERB",
    "VVIMP": "VERB", "VAFIN": "AUX", "VAINF": "AUX", "VAPP": "AUX", "VAIMP": "AUX", "VMFIN": "AUX", "VMINF": "AUX",
    "VMPP": "AUX", "PPER": "PRON", "PRF": "PRON", "PIS": "PRON", "PDS": "PRON", "PPOSS": "PRON", "PRELS": "PRON",
    "PWS": "PRON", "FM": "X", "XY": "X", "TRUNC": "X",
    "NNA": "NOUN", "NNI": "NOUN",  # HanTa: nominalised adjectives and participles (Abgeordnete), infinitives (Verhalten)
}
_SUBJECT_PRONOUNS = {"ich": ("1", "Sing"), "du": ("2", "Sing"), "er": ("3", "Sing"), "es": ("3", "Sing"),
                     "man": ("3", "Sing"), "wir": ("1", "Plur"), "ihr": ("2", "Plur")}


def verb_number(form: str) -> str:
    """Number of a finite verb form by its ending: -en/-n and 'sind' are plural, others singular."""
    low = form.lower()
    return "Plur" if low in ("sind", "seid") or (low.endswith("n") and not low.endswith(("ann", "inn"))) else "Sing"


_E_FORMS_THIRD = {"habe", "sei", "werde", "möge", "wisse", "könne", "müsse", "dürfe", "solle", "wolle"}  # also subjunctive 3rd


def verb_person(form: str, lemma: str) -> str:
    """Person of a finite verb without an adjacent subject pronoun: a present stem + -e (warte, stehe, gehe) is
    first person ("Ich stehe ... und warte"); every other form (a past -te form: wartete) is taken as third."""
    low, lemma = form.lower(), lemma.lower()
    stem = lemma[:-2] if lemma.endswith("en") else lemma[:-1]
    if len(low) > 2 and low not in _E_FORMS_THIRD and low == stem[-(len(low) - 1):] + "e":
        return "1"
    return "3"


@functools.lru_cache(maxsize=1)
def _hanta():
    try:
        from HanTa import HanoverTagger
    except ImportError as exc:
        raise SourceError("the offline German analyzer needs HanTa: pip install HanTa") from exc
    return HanoverTagger.HanoverTagger("morphmodel_ger.pgz")


@functools.lru_cache(maxsize=None)
def morphemes(word: str) -> tuple[tuple[str, str], ...]:
    """HanTa's segmentation of ``word`` into (morpheme, tag): unklar -> (un, PREF_NEG), (klar, ADJ). A word its lexicon
    holds whole (a noun, a lexicalised adverb such as unbedingt "necessarily") is one morpheme."""
    return tuple(tuple(m) for m in _hanta().analyze(word, taglevel=3)[1])


class OfflineAnalyzer(Analyzer):
    """HanTa STTS tags and lemmas; noun and determiner readings from german-nouns and the article paradigms;
    person/number of finite verbs from an adjacent subject pronoun, else third person by the ending."""

    name = "offline"

    def __init__(self):
        self.tagger = _hanta()

    @property
    def info(self) -> SourceInfo:
        versions = "+".join(f"{p}-{pkg_version(p)}" for p in ("HanTa", "german-nouns"))
        return SourceInfo("analyzer", "offline German analyzer (HanTa, german-nouns, article paradigms)", versions)

    def analyze(self, texts: Sequence[str]) -> list[Analysis | None]:
        return [self._analyze(t) for t in texts]

    def _analyze(self, text: str) -> Analysis | None:
        matches = list(_TOKEN.finditer(text))
        if not matches:
            return None
        tagged = self.tagger.tag_sent([m.group(0) for m in matches], taglevel=1)
        words = []
        for m, (_, lemma, tag) in zip(matches, tagged):
            stts = tag.replace("(", "").replace(")", "")  # HanTa writes VV(FIN), ADJ(A)
            upos = "PUNCT" if stts.startswith("$") else _STTS_UPOS.get(stts, "X")
            words.append(Word(m.group(0), m.start(), m.end(), upos, lemma, {}, stts))
        for i, w in enumerate(words):
            w.feats = self._feats(w, words, i)
        return Analysis(text, words, split_segments(text))

    def _feats(self, w: Word, words: list[Word], i: int) -> dict[str, str]:
        """UD features; nouns and determiners also get their joint readings (``w.readings``): the comma-joined
        features alone would allow every combination ("den": Acc.Sing.Masc and Dat.Plur, not Dat.Sing.Masc)."""
        low = w.text.lower()
        if w.upos in ("NOUN", "PROPN"):
            w.readings = noun_readings(w.text)
            return readings_feats(w.readings)
        if w.upos in ("DET", "PRON") and determiner_paradigm(low):
            w.readings = determiner_readings(low)
            feats = readings_feats(w.readings)
            if low.startswith("kein"):
                feats["Polarity"] = "Neg"
            return feats
        if low == "nicht":
            return {"Polarity": "Neg"}
        if w.xpos.endswith("FIN"):
            person, number = verb_person(w.text, w.lemma), verb_number(w.text)
            for j in (i - 1, i + 1, i - 2, i + 2):
                between = words[min(i, j) + 1 : max(i, j)] if 0 <= j < len(words) else [None]
                if all(b is not None and b.upos != "PUNCT" for b in between) and words[j].text.lower() in _SUBJECT_PRONOUNS:
                    person, number = _SUBJECT_PRONOUNS[words[j].text.lower()]
                    break
            return {"VerbForm": "Fin", "Person": person, "Number": number}
        return {}


class StanzaAnalyzer(Analyzer):
    """stanza's German pipeline (tokenize, mwt, pos, lemma); its sentences are the segments."""

    name = "stanza"

    def __init__(self, download: bool = True):
        try:
            import stanza
        except ImportError as exc:
            raise SourceError("the stanza analyzer needs stanza: pip install stanza") from exc
        try:
            self.nlp = stanza.Pipeline("de", processors="tokenize,mwt,pos,lemma", verbose=False,
                                       download_method=None if (offline() or not download) else "reuse_resources")
        except Exception as exc:  # noqa: BLE001 - missing models raise several types
            raise SourceError("stanza's German models are missing: run python -c \"import stanza; stanza.download('de')\" "
                              "with network, or use analyzer=offline") from exc
        self.version = pkg_version("stanza")

    @property
    def info(self) -> SourceInfo:
        return SourceInfo("analyzer", "stanza German pipeline (tokenize, mwt, pos, lemma)", f"stanza-{self.version}")

    def analyze(self, texts: Sequence[str]) -> list[Analysis | None]:
        import stanza

        docs = self.nlp.bulk_process([stanza.Document([], text=t) for t in texts])
        out = []
        for text, doc in zip(texts, docs):
            words, segments = [], []
            for sent in doc.sentences:
                segments.append((sent.tokens[0].start_char, sent.tokens[-1].end_char))
                for token in sent.tokens:
                    if len(token.words) > 1:  # "zum" = zu dem: not editable, kept as one opaque word
                        words.append(Word(token.text, token.start_char, token.end_char, "X", token.text, {}, "MWT"))
                        continue
                    w = token.words[0]
                    words.append(Word(w.text, token.start_char, token.end_char, w.upos, w.lemma or w.text, ud_feats(w.feats), w.xpos or ""))
            out.append(Analysis(text, words, segments, "stanza") if words else None)
        return out


def read_conllu(text: str) -> list[Analysis]:
    """Analyses from CoNLL-U (one sentence block per analysis; ``# text =`` required; multiword token
    lines are skipped; ``SpaceAfter=No`` is honoured). Segments come from the splitter over the text."""
    out = []
    for n, block in enumerate(re.split(r"\n\s*\n", text.strip()), 1):
        lines = block.splitlines()
        sent_text = next((ln.split("=", 1)[1].strip() for ln in lines if ln.startswith("# text")), None)
        if sent_text is None:
            raise DataFormatError(f"CoNLL-U sentence {n} has no '# text =' line")
        words, pos = [], 0
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.split("\t")
            if len(cols) != 10:
                raise DataFormatError(f"CoNLL-U sentence {n}: a token line needs 10 tab-separated columns: {line!r}")
            if "-" in cols[0] or "." in cols[0]:
                continue
            start = sent_text.find(cols[1], pos)
            if start < 0:
                raise DataFormatError(f"CoNLL-U sentence {n}: token {cols[1]!r} is not in the text")
            pos = start + len(cols[1])
            words.append(Word(cols[1], start, pos, cols[3], cols[2], ud_feats(cols[5]), cols[4] if cols[4] != "_" else ""))
        out.append(Analysis(sent_text, words, split_segments(sent_text)))
    return out


ANALYZERS = ("auto", "offline", "stanza")


def load_analyzer(name: str = "auto") -> Analyzer:
    """``stanza``, ``offline``, or ``auto``: stanza where its German models are installed, else offline."""
    if name == "offline":
        return OfflineAnalyzer()
    if name == "stanza":
        return StanzaAnalyzer()
    if name == "auto":
        try:
            return StanzaAnalyzer(download=False)
        except SourceError:
            return OfflineAnalyzer()
    raise SourceError(f"unknown German analyzer '{name}': use {', '.join(ANALYZERS)}")
