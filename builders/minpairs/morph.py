"""German inflection the rules need: dative -> genitive noun phrases, determiner forms, verb number."""

from __future__ import annotations

import functools
import itertools

from ..sources.german import DEFINITE, Word, determiner_paradigm, determiner_readings, noun_forms_in


def readings(word: Word) -> frozenset:
    """(Case, Number, Gender) readings of a word: the analyzer's joint readings where it has them, else every
    combination its features allow (one value each in stanza's UD features; plural readings carry no gender)."""
    if word.readings is not None:
        return word.readings
    cases, numbers, genders = word.values("Case"), word.values("Number"), word.values("Gender") or {None}
    return frozenset((case, number, None if number == "Plur" else gender)
                     for case, number, gender in itertools.product(cases, numbers, genders))


def match_case(template: str, form: str) -> str:
    """``form`` capitalised like ``template`` (sentence-initial words keep their capital)."""
    return form[:1].upper() + form[1:] if template[:1].isupper() else form


def determiner_forms(form: str) -> dict[str, frozenset]:
    """The other forms of a determiner's paradigm with their readings (``der`` -> die, das, dem, ...)."""
    found = determiner_paradigm(form)
    if found is None:
        return {}
    stem, table = found  # the definite table is keyed by whole forms, with stem ""
    others = (stem + ending for ending in table if stem + ending != form.lower())
    return {f: r for f in others if (r := determiner_readings(f))}


# --- dative -> genitive ------------------------------------------------------------------------------
_DAT_TO_GEN_DEFINITE = {("dem", "Sing"): "des", ("der", "Sing"): "der", ("den", "Plur"): "der"}
_DAT_TO_GEN_ENDING = {"em": "es", "er": "er", "en": "er"}  # ein-/dieser-series, Sing masc/neut, fem, Plur
_STRONG_ADJ = {"em": "en", "er": "er", "en": "er"}  # adjective without determiner: dative -> genitive ending


def genitive_determiner(det: str, number: str) -> str | None:
    low = det.lower()
    if low in DEFINITE:
        out = _DAT_TO_GEN_DEFINITE.get((low, number))
    else:
        found = determiner_paradigm(low)
        if found is None or not found[0]:
            return None
        ending = low[len(found[0]):]
        out = found[0] + _DAT_TO_GEN_ENDING[ending] if ending in _DAT_TO_GEN_ENDING else None
    return match_case(det, out) if out else None


def genitive_adjective(adj: str, has_determiner: bool) -> str:
    """Weak endings (after a determiner) are -en in dative and genitive alike; strong ones change."""
    if has_determiner:
        return adj
    for dat, gen in _STRONG_ADJ.items():
        if adj.endswith(dat):
            return adj[: -len(dat)] + gen
    return adj


_SIBILANT = ("s", "ß", "x", "z")


def genitive_noun(noun: str, number: str, authors: bool = False) -> str | None:
    """The genitive of a dative noun form (Hund -> Hundes, Kindern -> Kinder) from the noun lexicon, None for a noun
    it does not know. Where German allows both, the lexicon's first variant (Krieges, Monates); with ``authors`` the
    forms of the authors' sets: the short -s (Kriegs, Monats, Colleges), but -es for Jahr and after a sibilant (Gesetzes)."""
    forms = noun_forms_in(noun, "Gen", number)
    if not forms or not authors or number != "Sing":
        return forms[0] if forms else None
    with_s = [f for f in forms if f.endswith("s")] or forms
    long = noun.lower() == "jahr" or noun.lower().endswith(_SIBILANT)
    return max(with_s, key=len) if long else min(with_s, key=len)


# --- verb number ---------------------------------------------------------------------------------------
_IRREGULAR = [  # (singular, plural) of 3rd-person finite forms
    ("ist", "sind"), ("war", "waren"), ("hat", "haben"), ("hatte", "hatten"), ("wird", "werden"), ("wurde", "wurden"),
    ("kann", "können"), ("konnte", "konnten"), ("muss", "müssen"), ("muß", "müssen"), ("musste", "mussten"),
    ("will", "wollen"), ("wollte", "wollten"), ("darf", "dürfen"), ("durfte", "durften"), ("soll", "sollen"),
    ("sollte", "sollten"), ("mag", "mögen"), ("mochte", "mochten"), ("weiß", "wissen"), ("wusste", "wussten"),
    ("tut", "tun"), ("tat", "taten"), ("wäre", "wären"), ("hätte", "hätten"), ("würde", "würden"), ("könnte", "könnten"),
    ("müsste", "müssten"), ("sei", "seien"), ("gibt", "geben"), ("tritt", "treten"),
]
_SG_TO_PL = dict(_IRREGULAR)
_PL_TO_SG = {pl: sg for sg, pl in reversed(_IRREGULAR)}
_VOWEL_CHANGES = [("e", "i"), ("e", "ie"), ("a", "ä"), ("au", "äu"), ("o", "ö")]


@functools.lru_cache(maxsize=1)
def _simplemma():
    try:
        import simplemma
    except ImportError as exc:
        from wordbench.errors import SourceError

        raise SourceError("German word forms need simplemma: pip install simplemma") from exc
    return simplemma


def is_word(text: str) -> bool:
    """Known to the German lexicon (simplemma's dictionary) as a form of some word."""
    return _simplemma().is_known(text, lang="de")


def _known_form_of(candidate: str, lemma: str) -> bool:
    sm = _simplemma()
    return sm.is_known(candidate, lang="de") and sm.lemmatize(candidate, lang="de").lower() == lemma.lower()


def _infinitive(form: str, lemma: str) -> str:
    """The lemma without a separable prefix the finite form lacks (kommt + ankommen -> kommen)."""
    low, lemma = form.lower(), lemma.lower()
    if lemma[:2] == low[:2]:
        return lemma
    for i in range(1, len(lemma) - 2):
        if lemma[i:i + 2] == low[:2]:
            return lemma[i:]
    return lemma


def _stem(infinitive: str) -> str:
    return infinitive[:-2] if infinitive.endswith("en") else infinitive[:-1]


def _present_singular(infinitive: str) -> list[str]:
    """Candidate 3rd-person singulars, vowel-changed ones first: a changed stem in -t takes no ending
    (halten -> hält, raten -> rät), one in -d takes -t (laden -> lädt); else -et after d/t (arbeitet) or -t."""
    stem = _stem(infinitive)
    regular = stem + ("et" if stem.endswith(("d", "t", "chn", "ffn", "gn", "dm", "tm")) else "t")
    changed = []
    for old, new in _VOWEL_CHANGES:
        i = stem.rfind(old)
        if i >= 0:
            alt = stem[:i] + new + stem[i + len(old):]
            changed.append(alt if alt.endswith("t") else alt + "t")
    return changed + [regular]


def swap_verb_number(form: str, lemma: str) -> str | None:
    """The finite form with the other number, 3rd person (geht <-> gehen, ging <-> gingen, ist <-> sind);
    None when no form can be derived and confirmed by the lexicon."""
    low = form.lower()
    if low in _SG_TO_PL:
        return match_case(form, _SG_TO_PL[low])
    if low in _PL_TO_SG:
        return match_case(form, _PL_TO_SG[low])
    inf = _infinitive(form, lemma)
    if low == inf:  # present plural -> singular: a vowel-changed form first (liest before lest)
        for cand in _present_singular(inf):
            if _known_form_of(cand, inf):
                return match_case(form, cand)
        return None
    if low.endswith("en") or (low.endswith("n") and low[:-1].endswith("te")):  # past plural -> singular
        cand = low[:-1] if low.endswith("ten") else low[:-2]
        return match_case(form, cand) if _known_form_of(cand, inf) else None
    if low in (c.lower() for c in _present_singular(inf)):  # present singular -> plural
        return match_case(form, inf)
    cand = low + ("n" if low.endswith("e") else "en")  # past singular -> plural
    return match_case(form, cand) if _known_form_of(cand, inf) else None


# First and second person (ich <-> wir, du -> ihr): forms the third-person tables do not give.
_FIRST_SG_TO_PL = {"bin": "sind", "habe": "haben", "hab": "haben", "werde": "werden", "tue": "tun"}
_FIRST_PL_TO_SG = {pl: sg for sg, pl in _FIRST_SG_TO_PL.items() if sg != "hab"}
_SECOND_SG_TO_PL = {"bist": "seid", "hast": "habt", "wirst": "werdet", "kannst": "könnt", "musst": "müsst", "willst": "wollt",
                    "darfst": "dürft", "sollst": "sollt", "magst": "mögt", "weißt": "wisst", "warst": "wart"}


def swap_person_number(form: str, lemma: str, person: str, number: str) -> str | None:
    """A first- or second-person finite form in the other number, the person kept (ich gehe -> ich gehen,
    wir gingen -> wir ging, du gehst -> du geht); None when no form can be derived and confirmed by the lexicon."""
    low, inf = form.lower(), _infinitive(form, lemma)
    stem = _stem(inf)
    if person == "1" and number == "Sing":
        if low in _FIRST_SG_TO_PL:
            return match_case(form, _FIRST_SG_TO_PL[low])
        if low in _SG_TO_PL:  # ich kann, ich war: as the third person
            return match_case(form, _SG_TO_PL[low])
        cand = inf if low == stem + "e" else low + ("n" if low.endswith("e") else "en")  # ich gehe / ich ging(e)
    elif person == "1":
        if low in _FIRST_PL_TO_SG:
            return match_case(form, _FIRST_PL_TO_SG[low])
        if low in _PL_TO_SG:  # wir können, wir waren
            return match_case(form, _PL_TO_SG[low])
        cand = stem + "e" if low == inf else (low[:-1] if low.endswith("ten") else low[:-2])  # wir gehen / wir gingen
    elif person == "2" and number == "Sing":
        if low in _SECOND_SG_TO_PL:
            return match_case(form, _SECOND_SG_TO_PL[low])
        present = stem + ("et" if stem.endswith(("d", "t")) else "t")
        present_sg = {f.lower() for f in _present_singular(inf)}
        is_present = low[:-2] + "t" in present_sg or low in present_sg or low in (stem + "st", stem + "est")  # gehst, liest
        cand = present if is_present else low[:-2] + "t"  # du gehst -> geht, du liest -> lest / du gingst -> gingt
    else:
        return None
    known = is_word(cand) if cand == inf else _known_form_of(cand, inf)  # the infinitive is the tagger's lemma itself
    return match_case(form, cand) if cand != low and known else None
