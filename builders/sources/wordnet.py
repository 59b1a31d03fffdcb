"""WordNet 3.0 through nltk, resolved offline where possible.

Order: an explicit folder -> the wordbench cache -> nltk data the user already has -> the Debian
``wordnet-base`` files (copied into an nltk_data folder in the cache, with a generated ``lexnames``)
-> ``nltk.download`` when online -> an error naming what to install.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import warnings
from collections import Counter
from pathlib import Path

from wordbench.errors import SourceError
from .base import SourceInfo, cache_dir, offline

DEBIAN_DIR = Path(os.environ.get("WORDBENCH_DEBIAN_WORDNET", "/usr/share/wordnet"))
REQUIRED = ("data.noun", "index.noun", "data.adj", "index.adj")

# The 45 lexicographer files of WordNet 3.0 (Debian does not ship ``lexnames``; nltk needs it).
LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location "
    "noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process "
    "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change "
    "verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation "
    "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl"
).split()
_SYNTACTIC_CATEGORY = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}


def lexnames_text() -> str:
    """The ``lexnames`` file: ``NN<TAB>name<TAB>category`` for the 45 lexicographer files."""
    return "".join(f"{i:02d}\t{name}\t{_SYNTACTIC_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES))


def _is_wordnet_dir(path: Path) -> bool:
    return all((path / f).is_file() for f in REQUIRED)


def _copy_into_cache(src_dir: Path, target: Path) -> Path:
    """Copy WordNet dictionary files into ``target`` below the cache's nltk_data (nltk refuses
    symlinks and paths outside its data path) and add ``lexnames`` where the source has none."""
    target.mkdir(parents=True, exist_ok=True)
    for src in src_dir.iterdir():
        dst = target / src.name
        if src.is_file() and not (dst.exists() and dst.stat().st_size == src.stat().st_size):
            shutil.copyfile(src, dst)
    if not (target / "lexnames").exists():
        (target / "lexnames").write_text(lexnames_text())
    return target


def _reader(root: Path):
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    nltk_root = str(cache_dir("nltk_data"))
    if nltk_root not in nltk.data.path:  # nltk only reads corpora below its data path
        nltk.data.path.append(nltk_root)

    if not (root / "lexnames").exists():
        raise SourceError(f"WordNet folder {root} has no 'lexnames' file; pass the folder of a complete WordNet 3.0")
    class _Reader(WordNetCorpusReader):
        def map_wn(self, version="wordnet"):
            # The files are WordNet 3.0 itself: no sense-key map to the 3.0 OMW data is needed
            # (nltk would look for an ``index.sense`` that Debian does not ship).
            return None

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available": none are used
        return _Reader(str(root), None)


def _nltk_path() -> Path | None:
    import nltk

    try:
        found = Path(str(nltk.data.find("corpora/wordnet")))
    except LookupError:
        try:  # nltk may hold the zipped corpus only
            return Path(str(nltk.data.find("corpora/wordnet.zip")))
        except LookupError:
            return None
    return found


@functools.lru_cache(maxsize=4)
def load_wordnet(path: str | None = None):
    """Return ``(reader, SourceInfo)`` for WordNet, resolving as the module docstring says."""
    if path:
        root = Path(path).expanduser()
        if (root / "corpora" / "wordnet").is_dir():
            root = root / "corpora" / "wordnet"
        if not _is_wordnet_dir(root):
            raise SourceError(f"{root} is not a WordNet dictionary folder (needs {', '.join(REQUIRED)})")
        target = cache_dir("nltk_data", "corpora", "wordnet-user", root.resolve().as_posix().strip("/").replace("/", "_"))
        return _with_info(_reader(_copy_into_cache(root, target)), f"path:{root}")

    cached = cache_dir("nltk_data", "corpora") / "wordnet"
    origin_file = cached / "wordbench-origin.txt"  # where the cached copy came from: the same record every build
    if _is_wordnet_dir(cached) and (cached / "lexnames").exists():
        origin = origin_file.read_text().strip() if origin_file.exists() else "wordbench cache"
        return _with_info(_reader(cached), origin)

    found = _nltk_path()
    if found is not None:
        from nltk.corpus import wordnet

        wordnet.ensure_loaded()
        return _with_info(wordnet, f"nltk data {found}")

    if _is_wordnet_dir(DEBIAN_DIR):
        origin = f"Debian wordnet-base ({DEBIAN_DIR})"
        reader = _reader(_copy_into_cache(DEBIAN_DIR, cached))
        origin_file.write_text(origin + "\n")
        return _with_info(reader, origin)

    if not offline():
        import nltk

        try:
            if nltk.download("wordnet", quiet=True, raise_on_error=True):
                from nltk.corpus import wordnet

                wordnet.ensure_loaded()
                return _with_info(wordnet, "nltk.download")
        except Exception:  # noqa: BLE001 - any network failure ends in the error below
            pass
    raise SourceError(
        "WordNet 3.0 not found: install it with 'apt-get install wordnet-base' (Debian/Ubuntu) "
        "or \"python -m nltk.downloader wordnet\", or pass a WordNet folder with wordnet=PATH"
    )


_NLTK_RELATED: dict = {}


def _sorted(cls, key):
    """nltk 3.10 keeps pointers in sets, so hypernyms(), hyponyms(), antonyms() ... come in hash order
    (PYTHONHASHSEED); wordbench reads them sorted so that every build is byte-identical."""
    original = _NLTK_RELATED.setdefault(cls, cls._related)

    def _related(self, relation_symbol, *args, **kwargs):
        return sorted(original(self, relation_symbol, *args, **kwargs), key=key)

    _related.wordbench_sorted = True
    return _related


def _deterministic_pointers() -> None:
    from nltk.corpus.reader.wordnet import Lemma, Synset

    for cls, key in ((Synset, lambda syn: syn.name()), (Lemma, lambda lem: (lem.synset().name(), lem.name()))):
        if not getattr(cls._related, "wordbench_sorted", False):
            cls._related = _sorted(cls, key)


def _with_info(reader, origin: str):
    _deterministic_pointers()
    return reader, SourceInfo("wordnet", "WordNet", reader.get_version(), origin)


_GLOSS_WORD = re.compile(r"[a-z][a-z.-]*[a-z]|[a-z]")


@functools.lru_cache(maxsize=4)
def gloss_words(wn) -> frozenset[str]:
    """Words of WordNet's own running text (every gloss and example sentence, about 1.5M tokens),
    lower-cased, with the base forms WordNet's morphology gives them (``kumquats`` attests ``kumquat``)."""
    forms: set[str] = set()
    for synset in wn.all_synsets():
        forms.update(_GLOSS_WORD.findall(" ".join([synset.definition(), *synset.examples()]).lower()))
    base = {b for f in forms for pos in "nav" for b in wn._morphy(f, pos)}
    return frozenset(forms | base)


@functools.lru_cache(maxsize=4)
def _sense_counts(wn) -> dict[str, int]:
    """WordNet's ``cntlist.rev`` read once: sense key -> sense-tagged count (nltk's ``Lemma.count()`` does a
    binary search of the file on every call, which dominated the WNLaMPro build)."""
    with wn.open("cntlist.rev") as f:
        return {key: int(line.rsplit(" ", 1)[-1]) for line in f if (key := line.split(" ", 1)[0])}


def lemma_count(wn, lemma) -> int:
    """``lemma.count()``: the lemma's sense-tagged count in ``cntlist`` (0 when it has none)."""
    return _sense_counts(wn).get(lemma.key(), 0)


def own_lemmas(wn, word: str, pos: str, base_forms: bool = False, capitalized: bool = False) -> list:
    """``word``'s own lemmas of ``pos``; with ``base_forms``, a word that is no lemma of any part of speech
    (algorithms, antennae, bigger) takes those of its base forms by WordNet's morphology; with ``capitalized``,
    a word WordNet has only capitalized takes those lemmas (``class_lemmas``)."""
    lemmas = [lemma for lemma in wn.lemmas(word, pos) if lemma.name() == word]
    if lemmas or is_lemma(wn, word):
        return lemmas
    if capitalized and (lemmas := class_lemmas(wn, word, pos)):
        return lemmas
    if not base_forms:
        return []
    return [lemma for b in wn._morphy(word, pos) for lemma in wn.lemmas(b, pos) if lemma.name() == b]


def class_lemmas(wn, word: str, pos: str) -> list:
    """The lemmas of a lower-case ``word`` that WordNet spells only capitalized (tuesday: Tuesday, dane: Dane), as a
    case-blind lookup finds them, without instances: a named entity (Aachen, Paris) reaches its class through an
    instance pointer, no hypernym, so it has no hypernym in a walk of hypernym pointers."""
    return [lemma for lemma in wn.lemmas(word, pos)
            if lemma.name() != word and lemma.name().lower() == word and not lemma.synset().instance_hypernyms()]


@functools.lru_cache(maxsize=None)
def is_lemma(wn, word: str) -> bool:
    """``word`` is itself a WordNet lemma of some part of speech (not only an inflected form)."""
    return any(lemma.name() == word for pos in "nvar" for lemma in wn.lemmas(word, pos))


def tagged_counts(wn, word: str, verb_forms: bool = False, base_forms: bool = False, capitalized: bool = False) -> dict[str, tuple[int, int]]:
    """Per part of speech (n, v, a with satellites, r): (summed sense-tagged count of ``word``'s own
    lemmas in WordNet's ``cntlist``, number of its senses). ``verb_forms``: a word that is an inflected
    form of a verb (``made`` of make, by WordNet's morphology) also counts that verb's senses.
    ``base_forms``: a word that is no lemma counts its base forms' lemmas (``own_lemmas``); ``capitalized``: a
    word WordNet has only capitalized counts those lemmas (``class_lemmas``)."""
    out = {}
    for pos in "nvar":
        lemmas = own_lemmas(wn, word, pos, base_forms, capitalized)
        if pos == "v" and verb_forms:
            bases = [b for b in wn._morphy(word, "v") if b != word]
            lemmas += [lemma for b in bases for lemma in wn.lemmas(b, "v") if lemma.name() == b]
        out[pos] = (sum(lemma_count(wn, lemma) for lemma in lemmas), len(lemmas))
    return out


def dominant_use(wn, word: str, pos: str, base_forms: bool = False, capitalized: bool = False) -> bool:
    """``word`` is a ``pos`` in its dominant use: more than half its tagged occurrences are ``pos`` senses; a
    word with no tagged occurrence is the part of speech with most senses (a tie goes to the first of noun, verb,
    adjective, adverb: ``canine`` is a noun). For an adjective, a participle's verb counts too (``made``,
    ``closed`` and ``wanted`` are mostly verb forms). ``base_forms``: an inflected form that is no lemma is read
    through its base forms (``algorithms`` as ``algorithm``); ``capitalized``: see ``own_lemmas``."""
    counts = tagged_counts(wn, word, verb_forms=pos == "a", base_forms=base_forms, capitalized=capitalized)
    total = sum(c for c, _ in counts.values())
    if total:
        return 2 * counts[pos][0] > total
    return counts[pos][1] > 0 and max("nvar", key=lambda p: counts[p][1]) == pos


def _regular_plural(noun: str) -> str:
    """English spelling's regular plural (city -> cities, box -> boxes, chairman -> chairmen, dog -> dogs)."""
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", noun):
        return noun + "es"
    return noun[:-3] + "men" if noun.endswith("man") else noun + "s"


@functools.lru_cache(maxsize=4)
def singular_endings(wn) -> frozenset[str]:
    """Two-letter endings that mark no plural: of WordNet's single-word nouns and their plurals (the regular ones of
    English spelling, and the exception list's irregular ones) ending in them, most are singular nouns. A form ending
    so reads as a singular word to a suffix-based tagger: amphorae, antennae, atria (but dogs, boxes, men)."""
    nouns = {w for w in wn.all_lemma_names("n") if w.isalpha()}
    plurals = {_regular_plural(w) for w in nouns} | {f for f in wn._exception_map["n"] if f.isalpha() and f not in nouns}
    singular, plural = Counter(w[-2:] for w in nouns), Counter(w[-2:] for w in plurals)
    return frozenset(e for e in singular if singular[e] > plural[e])


def first_sense_pos(wn, word: str) -> str | None:
    """The part of speech of ``wn.synsets(word)[0]`` (satellites as ``a``): nltk lists nouns, then verbs,
    adjectives and adverbs, base forms included, so a word with any noun sense is a noun."""
    synsets = wn.synsets(word)
    return None if not synsets else synsets[0].pos().replace("s", "a")
