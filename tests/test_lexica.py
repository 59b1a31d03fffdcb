"""Valence lexica (VAST groundwork): published CSV layouts, the VADER default, scales and clear errors."""

import pytest

from wordbench.errors import DataFormatError, SourceError
from wordbench.builders.sources.lexica import load_lexicon


def test_vader_default_keeps_alphabetic_words():
    lex = load_lexicon("vader")
    assert lex.scale == (-4.0, 4.0) and len(lex) > 7000
    assert all(w.isalpha() for w in lex.valence) and ":)" not in lex.valence
    assert lex.nine_point("good") == pytest.approx(lex.valence["good"] + 5)
    assert lex.info.version.startswith("vader-")


def test_published_layouts_and_scales(tmp_path):
    warriner = tmp_path / "Ratings_Warriner_et_al.csv"
    warriner.write_text(",Word,V.Mean.Sum,A.Mean.Sum\n1,aardvark,6.26,2.41\n2,null,3.5,3.0\n3,abandon,2.84,3.73\n")
    lex = load_lexicon(f"warriner:{warriner}")
    assert lex.valence == {"aardvark": 6.26, "null": 3.5, "abandon": 2.84}  # "null" is a word, not a missing value
    bellezza = tmp_path / "bellezza.csv"
    bellezza.write_text("word,combined_pleasantness\nbaby,4.8\nbomb,1.0\nbaby,4.0\n")
    lex = load_lexicon(f"bellezza:{bellezza}")
    assert lex.nine_point("baby") == pytest.approx((4.8 - 1) * 2 + 1) and lex.nine_point("bomb") == 1.0
    assert lex.duplicates == ["baby"] and lex.valence["baby"] == 4.8
    anew = tmp_path / "anew.tsv"
    anew.write_text("Description\tWord No.\tValence Mean\nabduction\t621\t2.76\n")
    assert load_lexicon(f"anew:{anew}").valence == {"abduction": 2.76}
    generic = tmp_path / "de.csv"
    generic.write_text("wort,valenz\nHund,0.5\n")
    assert load_lexicon(str(generic), "wort", "valenz", (-1.0, 1.0)).nine_point("Hund") == pytest.approx(7.0)


def test_bad_lexica_are_clear_errors(tmp_path):
    bad = tmp_path / "w.csv"
    bad.write_text("Word,V.Mean.Sum\nfine,5.0\nbroken,high\n")
    with pytest.raises(DataFormatError, match=r"w.csv:3: valence 'high' of 'broken' is not a number"):
        load_lexicon(f"warriner:{bad}")
    bad.write_text("Word,Valence\nfine,5.0\n")
    with pytest.raises(DataFormatError, match="no column 'V.Mean.Sum'"):
        load_lexicon(f"warriner:{bad}")
    bad.write_text("word,combined_pleasantness\nfine,7.5\n")
    with pytest.raises(DataFormatError, match=r":2: valence 7.5 .* outside the scale 1..5"):
        load_lexicon(f"bellezza:{bad}")
    bad.write_text("Word,V.Mean.Sum\n")
    with pytest.raises(DataFormatError, match="empty"):
        load_lexicon(f"warriner:{bad}")
    with pytest.raises(SourceError, match="word column"):
        load_lexicon(str(bad))
    with pytest.raises(SourceError, match="does not exist"):
        load_lexicon(f"anew:{tmp_path / 'missing.csv'}")


def test_the_authors_multilingual_layouts_read_unchanged(tmp_path):
    files = {
        "imbir": ("ANEW_Polish_Imbir.csv", "Number,Polish word,English word,Val_Mean,SD,Mean,SD\n1,aborcja,abortion,2.37,1.96,2.55,2.26\n", {"aborcja": 2.37}),
        "redondo": ("ANEW_Spanish_Redondo.csv", "Number,E-Word,S-Word,Val-Mn-All,Val-Sd-All\n722,derelict,abandonado,1.68,1.00\n", {"abandonado": 1.68}),
        "cvaw": ("CVAW4_Chinese.csv", "No.,Word,Valence_Mean,Valence_SD\n1,爱,8.2,0.5\n", {"爱": 8.2}),
        "fan": ("FAN_French.csv", "Words,Valence_Mean,Arousal_Mean\ncaresse,7.9,4.1\n", {"caresse": 7.9}),
        "pt-anew": ("PT_anew_Portuguese.csv", "EP-Word,Val-M,Aro-M\ncarícia,7.6,5.0\n", {"carícia": 7.6}),
        "turkish": ("TurkishEmotionalWordNorms.csv", "word;nSub;ValenceM;ValenceSD\nANNE;38;5.67;3.74\nIRMAK;37;6.89;1.64\nİYİLEŞMEK;39;8.38;0.85\nGÜN DOĞUMU;34;7.39;1.89\n",
                    {"anne": 5.67, "ırmak": 6.89, "iyileşmek": 8.38, "gün doğumu": 7.39}),
    }
    languages = {"imbir": "pl", "redondo": "es", "cvaw": "zh", "fan": "fr", "pt-anew": "pt", "turkish": "tr"}
    for kind, (name, text, expected) in files.items():
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))  # UTF-8 with a byte-order mark, as exported
        lex = load_lexicon(f"{kind}:{path}")
        assert lex.valence == expected and lex.language == languages[kind] and lex.scale == (1.0, 9.0), kind
    assert load_lexicon("vader").language == "en"
