import random
import re

import pytest

from wordbench.builders.base import parse_overrides
from wordbench.errors import ConfigError, DataFormatError, SourceError
from wordbench.builders.wnlampro import (
    Config,
    WNLaMProBuilder,
    _Context,
    antonym_targets,
    cohyponym_targets,
    corrupt,
    hypernym_targets,
    read_wnlampro_txt,
    write_wnlampro_txt,
)
from wordbench.builders.sources.frequencies import Frequencies, bin_of, corpus_frequencies
from wordbench.builders.sources.base import SourceInfo
from wordbench.builders.sources.stopwords import CLOSED_CLASS
from wordbench.builders.sources.wordnet import dominant_use, first_sense_pos, lexnames_text, load_wordnet


@pytest.fixture(scope="module")
def wn():
    return load_wordnet()[0]


def _ctx(wn, rates, targets, missing_is_rare=True, **cfg):
    freq = Frequencies(rates, SourceInfo("freq", "test", "test"), None, missing_is_rare=missing_is_rare)
    return _Context(wn, freq, set(targets), Config(**cfg))


def test_wordnet_from_debian_files_is_3_0(wn):
    assert wn.get_version() == "3.0"
    assert len(lexnames_text().splitlines()) == 45
    assert wn.synset("dog.n.01").min_depth() == 8


def test_hand_checked_antonym_and_hypernym(wn):
    ctx = _ctx(wn, {"bad": 100.0, "dog": 50.0}, ["bad", "evil", "canine", "carnivore", "placental", "animal", "mammal"])
    assert antonym_targets(ctx, "good") == ["bad"]  # good.a.01 <-> bad.a.01
    # poodle -> dog (1) -> canine, domestic_animal (2) -> carnivore, animal (3); placental is 4 steps away
    assert hypernym_targets(ctx, "poodle") == ["animal", "canine", "carnivore"]  # T-words, most frequent first
    ctx = _ctx(wn, {}, ["canine", "carnivore", "placental"])
    assert hypernym_targets(ctx, "poodle") == []  # fewer than 3 valid targets
    ctx = _ctx(wn, {"dog": 5.0, "canine": 1.0}, ["dog", "canine", "carnivore", "placental", "animal"])
    assert hypernym_targets(ctx, "poodle") == ["dog", "canine", "animal", "carnivore"]


def test_dominant_use_and_closed_class(wn):
    assert dominant_use(wn, "good", "a") and dominant_use(wn, "dog", "n") and dominant_use(wn, "poodle", "n")
    # marginal adjective senses (the examples) and a noun mostly used as a verb
    for word in ("like", "live", "side", "found"):
        assert not dominant_use(wn, word, "a"), word
    assert not dominant_use(wn, "run", "n")
    assert dominant_use(wn, "aperiodic", "a")  # no tagged occurrence, adjective senses only
    assert {"a", "he", "so", "can", "will", "x"} <= CLOSED_CLASS and "dog" not in CLOSED_CLASS
    ctx = _ctx(wn, {"he": 1e6, "case": 1e5, "good": 1e5}, [])
    assert not ctx.keyword("he", "n") and ctx.keyword("case", "n") and ctx.keyword("good", "a")
    assert _ctx(wn, {"he": 1e6}, [], keep_closed_class=True).keyword("he", "n")


def test_pos_rules(wn):
    # a participle is mostly its verb (made: make), a tagged adjective with minor noun senses is an adjective
    assert not dominant_use(wn, "made", "a") and not dominant_use(wn, "closed", "a")
    assert dominant_use(wn, "general", "a") and dominant_use(wn, "canine", "n")  # canine: untagged, a tie goes to the noun
    # the authors' rule (--faithful): the part of speech of nltk's first synset, nouns first
    assert first_sense_pos(wn, "general") == "n" and first_sense_pos(wn, "new") == "a" and first_sense_pos(wn, "made") == "v"
    ctx = _ctx(wn, {}, [])
    assert ctx.has_pos("general", "a") and not _ctx(wn, {}, [], faithful=True).has_pos("general", "a")
    assert _ctx(wn, {}, [], pos_rule="any").has_pos("made", "a")


def test_antonym_scope(wn):
    # the paper's own query "something that is unaccessible is not ___": unaccessible is a second lemma of
    # inaccessible.a.01 with no antonym pointer of its own; its sense's antonym is accessible
    targets = ["accessible", "bad"]
    assert antonym_targets(_ctx(wn, {}, targets), "unaccessible") == []
    assert antonym_targets(_ctx(wn, {}, targets, antonym_scope="sense"), "unaccessible") == ["accessible"]
    assert antonym_targets(_ctx(wn, {}, targets, faithful=True), "unaccessible") == ["accessible"]


def test_targets_pass_the_keyword_conditions(wn):
    # a target is held to the keyword conditions: no closed-class word (can), the relation's part of speech (made is a verb form)
    ctx = _ctx(wn, {}, ["canine", "dog", "made", "can"])
    assert ctx.target("canine", "n") and not ctx.target("made", "a") and not ctx.target("can", "n")
    assert _ctx(wn, {}, ["made", "can"], clean_targets=False).target("can", "n")
    # found by an independent reading of a build: may (hawthorn), despite, gerunds, the keyword's own plural
    assert {"may", "despite"} <= CLOSED_CLASS and not _ctx(wn, {}, ["using"]).target("using", "n")
    assert _ctx(wn, {}, []).other_words("cow", ["cows", "cattle"]) == {"cattle"}
    assert _ctx(wn, {}, [], faithful=True).other_words("cow", ["cows", "cattle"]) == {"cows", "cattle"}
    # a cohyponym target in one of its word's four most frequent noun senses; --faithful takes C' as the paper writes it
    confession = wn.synsets("confession", "n")[4]  # a doctrine's statement: confession's fifth sense
    ctx = _ctx(wn, {}, [])
    assert not ctx.common_sense("confession", confession) and ctx.common_sense("confession", wn.synsets("confession", "n")[0])
    assert _ctx(wn, {}, [], faithful=True).common_sense("confession", confession)
    assert _ctx(wn, {}, []).is_word("dog") and not _ctx(wn, {}, []).is_word("prtal")  # a corruption must be no word


def test_cohyponym_path_from_the_keyword(wn):
    def words(ctx):
        return set(cohyponym_targets(ctx, "samosa"))

    vocab = [w for s in wn.all_synsets("n") for w in s.lemma_names() if w.isalpha() and w.islower()]
    near, far = words(_ctx(wn, {}, vocab, cohyponym_max_targets=10**6)), words(_ctx(wn, {}, vocab, cohyponym_path="hypernym", cohyponym_max_targets=10**6))
    assert {"pizza", "sandwich", "salad"} <= near < far  # the paper's Table 2 targets; the 1.1.0 reading is a superset


def test_dictionary_fills_the_rare_bin(wn, tmp_path, monkeypatch):
    import wordbench.builders.sources.dictionary as dictionary

    words = tmp_path / "words.txt"
    words.write_text("bulghur\nAaron\n")
    listed, info = dictionary.load_dictionary(str(words))
    # "bulghur", a rare spelling the paper names, is in no WordNet gloss but in a dictionary
    assert not _ctx(wn, {}, [], rare_words="dictionary").in_vocabulary("bulghur")
    assert _ctx(wn, {}, []).in_vocabulary("bulghur")  # the default V: WordNet's lemmas, bulghur among them
    config = Config(rare_words="dictionary")
    assert _Context(wn, Frequencies({}, SourceInfo("freq", "t", "t"), None, missing_is_rare=True), set(), config, listed).in_vocabulary("bulghur")
    assert "aaron" not in listed and info.kind == "dict"
    monkeypatch.setattr(dictionary, "DEBIAN_HUGE", tmp_path / "missing")
    dictionary.load_dictionary.cache_clear()
    with pytest.raises(SourceError, match="apt-get install wamerican-huge"):
        dictionary.load_dictionary()
    dictionary.load_dictionary.cache_clear()


def test_rare_words_fill(wn):
    # nothing listed, rare_words=dictionary: V is what WordNet's text attests ("dog" occurs in glosses; "cephalometry" nowhere)
    ctx = _ctx(wn, {}, [], rare_words="dictionary")
    assert ctx.in_vocabulary("dog") and not ctx.in_vocabulary("cephalometry")
    assert not ctx.in_vocabulary("all-time")  # wordfreq splits hyphens: no rate for the compound
    # the default (1.0.0 and 1.6.0): every WordNet lemma and irregular form, hyphenated ones too; no other word
    ctx = _ctx(wn, {}, [])
    assert all(ctx.in_vocabulary(w) for w in ("cephalometry", "all-time", "acanthi", "dog"))
    assert not ctx.in_vocabulary("aaronite") and not ctx.in_vocabulary("xqzv")
    assert not _ctx(wn, {}, [], rare_words="none").in_vocabulary("dog")
    assert not _ctx(wn, {}, [], missing_is_rare=False).in_vocabulary("dog")  # corpus counts: seen words only
    with pytest.raises(ConfigError, match="'rare_words' must be one of"):
        WNLaMProBuilder().sources(Config(rare_words="all"))


def test_hypernym_min_depth_excludes_shallow_synsets(wn):
    ctx = _ctx(wn, {}, ["animal", "organism", "canine", "carnivore", "placental", "mammal"])
    # animal.n.01 has min depth 6 and is 2 steps from dog via domestic_animal: kept; organism (depth 5) is too shallow anyway
    assert wn.synset("animal.n.01").min_depth() == 6
    assert "animal" in hypernym_targets(ctx, "dog")
    assert "organism" not in hypernym_targets(ctx, "dog")


@pytest.mark.parametrize("seed", range(20))
def test_corruption_is_one_edit(seed):
    word = "mountain"
    out = corrupt(word, random.Random(seed))
    assert out != word
    if len(out) == len(word):  # adjacent swap
        diff = [i for i in range(len(word)) if word[i] != out[i]]
        assert len(diff) == 2 and diff[1] == diff[0] + 1 and word[diff[0]] == out[diff[1]]
    else:  # one insertion or deletion
        longer, shorter = (out, word) if len(out) > len(word) else (word, out)
        assert len(longer) == len(shorter) + 1
        assert any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))


def test_bins_and_corpus_frequencies():
    assert bin_of(9.99, (0.0, 10.0, 100.0), ("rare", "medium", "frequent")) == "rare"
    assert bin_of(10.0, (0.0, 10.0, 100.0), ("rare", "medium", "frequent")) == "medium"
    assert bin_of(100.0, (0.0, 10.0, 100.0), ("rare", "medium", "frequent")) == "frequent"
    freq = corpus_frequencies(["The dog, the cat.", "the dog"], "mini")
    assert freq.n_tokens == 6 and freq.counts["the"] == 3
    assert freq.rate("dog") == pytest.approx(2 / 6 * 1e9)
    assert not freq.missing_is_rare and not freq.known("poodle")


def test_config_overrides():
    cfg = parse_overrides(Config, ["seed=3", "dev_fraction=0.2", "wordnet=none"])
    assert cfg.seed == 3 and cfg.dev_fraction == 0.2 and cfg.wordnet is None
    with pytest.raises(ConfigError, match="unknown config key 'sede'"):
        parse_overrides(Config, ["sede=3"])
    with pytest.raises(ConfigError, match="expects an integer"):
        parse_overrides(Config, ["seed=x"])


def test_missing_wordnet_names_the_package(tmp_path, monkeypatch):
    import nltk

    import wordbench.builders.sources.wordnet as wnmod

    monkeypatch.setenv("WORDBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(wnmod, "DEBIAN_DIR", tmp_path / "nothing")
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "no-nltk")])
    wnmod.load_wordnet.cache_clear()
    try:
        with pytest.raises(SourceError, match="apt-get install wordnet-base"):
            wnmod.load_wordnet()
    finally:
        wnmod.load_wordnet.cache_clear()


def test_default_build(wnlampro_build):
    folder, meta = wnlampro_build
    from wordbench.benchmarks.hub import load_data

    _, data = load_data("wnlampro", str(folder))
    test, dev = data["default"]["test"], data["default"]["dev"]
    ids = list(test["id"]) + list(dev["id"])
    assert len(ids) == len(set(ids))
    for rel in ("antonym", "hypernym", "cohyponym", "corruption"):
        n_dev = sum(r == rel for r in dev["relation"])
        n_all = n_dev + sum(r == rel for r in test["relation"])
        assert n_all > 0 and abs(n_dev - round(0.1 * n_all)) <= 1
    rows = {r["id"]: r for r in test} | {r["id"]: r for r in dev}
    assert "bad" in rows["antonym/good"]["targets"]
    assert rows["hypernym/poodle"]["targets"][:1] == ["dog"] and rows["hypernym/poodle"]["keyword_bin"] == "frequent"
    for r in rows.values():
        if r["relation"] == "hypernym":
            assert 3 <= len(r["targets"]) <= 20
        if r["relation"] == "cohyponym":
            assert 10 <= len(r["targets"]) <= 50 and r["key"] not in r["targets"]
        if r["relation"] == "corruption":
            assert r["keyword_bin"] == "rare" and r["keyword_count"] < 10
        assert r["key"] not in CLOSED_CLASS and r["keyword_corpus_count"] is None  # wordfreq: no corpus counts
    assert meta["signature"].startswith(f"wnlampro@{WNLaMProBuilder.version}|wordnet:3.0|freq:wordfreq-")
    assert "hypernym/using" not in rows and "cohyponym/using" not in rows and "cohyponym/building" in rows  # no gerund keys
    assert "|dict:" not in meta["signature"]  # V is WordNet's: no word list is read
    assert "hypernym/acanthi" in rows or "cohyponym/acanthi" in rows  # an irregular plural WordNet lists (acanthus)
    assert any("-" in r["key"] and r["keyword_bin"] == "rare" for r in rows.values())  # hyphenated lemmas, binned rare
    assert "dict" in {s.kind for s in WNLaMProBuilder().sources(Config(rare_words="dictionary"))}  # a named source there
    summary = WNLaMProBuilder().summary(data)
    ratios = [float(x) for x in re.findall(r"(\d+\.\d+)x", summary)]
    assert len(ratios) == 10 and all(0.5 <= r <= 2.0 for r in ratios), summary  # every Table 4 cell within 0.5x-2x
    assert "| cohyponym |" in summary and "1960/2740/6126" in summary and "x) |" in summary
    for line in (folder / "WNLaMPro.txt").read_text().splitlines()[:200]:  # integer counts, as the authors' loader reads
        assert all(c.rsplit(",", 1)[1].rstrip(")").isdigit() for c in line.split("\t")[2:3] + line.split("\t")[4:])


def test_build_is_byte_identical(wnlampro_build, tmp_path):
    from wordbench.benchmarks.hub import build

    folder, _ = wnlampro_build
    again, _ = build("wnlampro", out=tmp_path / "again", force=True, progress=False)
    for name in ("data/default/dev-00000-of-00001.parquet", "data/default/test-00000-of-00001.parquet", "WNLaMPro.txt", "jsonl/default/test.jsonl"):
        assert (folder / name).read_bytes() == (again / name).read_bytes(), name


def test_wnlampro_txt_round_trip(wnlampro_file, tmp_path):
    data = read_wnlampro_txt(wnlampro_file)
    assert len(data["test"]) == 5 and len(data["dev"]) == 1
    dog = [r for r in data["test"] if r["key"] == "dog"][0]
    assert dog["targets"] == ["animal", "pet", "beast"] and dog["keyword_bin"] == "frequent"
    assert [r for r in data["test"] if r["key"] == "dgo"][0]["keyword_bin"] == "rare"
    out = tmp_path / "again.txt"
    write_wnlampro_txt(data, out)
    again = read_wnlampro_txt(out)
    for split in ("dev", "test"):
        assert again[split].to_list() == data[split].to_list()


def test_reader_drops_frequent_corruptions_as_the_authors(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("1\ttest\tdgo (n,0,3)\tcorruption\tdog (n,5.1,125000)\n2\ttest\ttge (n,1.4,25)\tcorruption\tthe (n,7,9000000)\n")
    assert read_wnlampro_txt(path)["test"]["key"] == ["dgo"]
    kept = read_wnlampro_txt(path, keep_frequent_corruptions=True)["test"]
    assert kept["key"] == ["dgo", "tge"] and kept["keyword_corpus_count"] == [3, 25]


def test_corpus_counts_are_written_as_integers(tmp_path):
    import datasets

    from wordbench.builders.wnlampro import FEATURES, _dataset

    row = {"id": "hypernym/oak", "key": "oak", "relation": "hypernym", "pos": "n", "keyword_count": 123.4567, "keyword_corpus_count": 12,
           "keyword_zipf": 2.09, "keyword_bin": "frequent", "targets": ["tree"], "target_counts": [9999.9], "target_corpus_counts": [987]}
    data = datasets.DatasetDict({"dev": _dataset([]), "test": _dataset([row])})
    write_wnlampro_txt(data, tmp_path / "c.txt")
    assert (tmp_path / "c.txt").read_text() == "hypernym/oak\ttest\toak (n,2.09,12)\thypernym\ttree (n,4.0,987)\n"
    row |= {"keyword_corpus_count": None, "target_corpus_counts": None, "keyword_count": 9.99}  # wordfreq: rate rounded down
    data["test"] = datasets.Dataset.from_list([row], features=FEATURES)
    write_wnlampro_txt(data, tmp_path / "w.txt")
    assert "oak (n,1.0,9)" in (tmp_path / "w.txt").read_text()
    assert read_wnlampro_txt(tmp_path / "w.txt")["test"][0]["keyword_bin"] == "rare"  # still rare after rounding down


def test_malformed_wnlampro_line_names_it(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1\ttest\tgood (a,5.5,300000)\tantonym\tbad (a,5.3,200000)\n2\ttest\tdog n 5\thypernym\tanimal (n,4,1)\n")
    with pytest.raises(DataFormatError, match=r"bad.txt:2: 'dog n 5' is not 'word \(pos,zipf,count\)'"):
        read_wnlampro_txt(bad)
    bad.write_text("1\tvalid\tgood (a,5.5,300000)\tantonym\tbad (a,5.3,200000)\n")
    with pytest.raises(DataFormatError, match="bad.txt:1: set type must be dev or test"):
        read_wnlampro_txt(bad)


def test_faithful_cohyponyms_never_hold_the_keyword_itself(wn):
    """The paper's C' = (C minus w) ∩ T, under --faithful too: the keyword was in 3,565 of 15,399 faithful cohyponym
    entries ("X and X" ranked a target first). Inflected forms stay under --faithful, as in the authors' data."""
    from wordbench.builders.wnlampro import cohyponym_targets

    targets = ["dog", "wolf", "fox", "jackal", "coyote", "hyena", "cat", "lion", "tiger", "bear", "puppy", "hound"]
    for faithful in (False, True):
        ctx = _ctx(wn, {}, targets, faithful=faithful, cohyponym_min_targets=3, clean_targets=False, pos_rule="any")
        found = cohyponym_targets(ctx, "dog")
        assert len(found) >= 3 and "dog" not in found, (faithful, found)
    assert _ctx(wn, {}, [], faithful=True).other_words("cow", ["cow", "cows"]) == {"cow", "cows"}  # hypernyms: as the authors


def test_verb_forms_are_no_noun_keywords(wn):
    """An inflected verb form whose noun senses WordNet never saw tagged (using, fucking) is no noun keyword by the
    dominant use; nouns with tagged uses stay though their verb is used more (building, meeting, playing)."""
    rates = {w: 1e4 for w in ("using", "fucking", "building", "meeting", "playing", "times")}
    ctx = _ctx(wn, rates, [])
    assert not ctx.keyword("using", "n") and not ctx.keyword("fucking", "n")
    assert all(ctx.keyword(w, "n") for w in ("building", "meeting", "playing", "times"))
    assert _ctx(wn, rates, [], faithful=True).keyword("using", "n")  # the authors' first-sense rule keeps it


def test_inflected_keywords_read_through_their_base_form(wn):
    """keyword_forms=inflected: a noun form of the frequency source that is no lemma (algorithms) is a noun keyword
    with its base form's senses and hypernyms; the base form is no target of its own entry."""
    from wordbench.builders.wnlampro import WNLaMProBuilder, hypernym_targets

    targets = ["rule", "procedure", "process", "formula", "algorithm", "activity", "method"]
    ctx = _ctx(wn, {"algorithms": 500.0, "algorithm": 5000.0}, targets, keyword_forms="inflected")
    assert ctx.keyword("algorithms", "n") and ctx.senses("algorithms", "n") == ctx.senses("algorithm", "n")
    assert "algorithm" not in hypernym_targets(ctx, "algorithms")
    assert hypernym_targets(ctx, "algorithms") == hypernym_targets(ctx, "algorithm")
    nouns, adjectives = WNLaMProBuilder._candidates(ctx, ["algorithm", "big"], progress=False)
    assert "algorithms" in nouns and "algorithm" in nouns and "algorithms" not in adjectives
    lemma_nouns, _ = WNLaMProBuilder._candidates(_ctx(wn, {"algorithms": 500.0}, []), [], progress=False)
    assert "algorithms" not in lemma_nouns and "algorithm" in lemma_nouns  # the default: WordNet lemmas


def test_unmarked_forms_are_keywords(wn):
    """keyword_forms=unmarked (the default): a listed noun form that is no lemma is a keyword, read through its base
    form, when its last two letters mark no plural by WordNet's own nouns (amphorae: -ae ends more singular nouns
    than plurals); a form ending as most plurals do (amphoras, jars, foxes) is none; keyword_forms=inflected
    keeps every form, lemma none."""
    from wordbench.builders.sources.wordnet import _regular_plural, singular_endings

    assert [_regular_plural(w) for w in ("city", "box", "chairman", "cat", "day")] == ["cities", "boxes", "chairmen", "cats", "days"]
    endings = singular_endings(wn)
    assert "ae" in endings and "as" not in endings and "ts" not in endings and "es" not in endings and "en" not in endings
    rates = {"amphorae": 50.0, "amphoras": 50.0, "jars": 5000.0, "foxes": 5000.0, "amphora": 500.0}
    ctx = _ctx(wn, rates, ["jar", "container"], hypernym_min_targets=1)
    nouns, adjectives = WNLaMProBuilder._candidates(ctx, ["amphora", "jar", "fox"], progress=False)
    assert "amphorae" in nouns and not {"amphoras", "jars", "foxes"} & set(nouns) and "amphorae" not in adjectives
    assert ctx.keyword("amphorae", "n") and ctx.senses("amphorae", "n") == ctx.senses("amphora", "n")
    assert hypernym_targets(ctx, "amphorae") == hypernym_targets(ctx, "amphora") == ["container"]  # jar: mostly a verb
    every, _ = WNLaMProBuilder._candidates(_ctx(wn, rates, [], keyword_forms="inflected"), [], progress=False)
    assert {"amphorae", "amphoras", "jars", "foxes"} <= set(every)
    lemma_ctx = _ctx(wn, rates, [], keyword_forms="lemma")
    assert not {"amphorae", "amphoras"} & set(WNLaMProBuilder._candidates(lemma_ctx, [], progress=False)[0])
    assert lemma_ctx.senses("amphorae", "n") == []


def test_faithful_antonyms_keep_new_old_and_big_small(wn):
    """The paper's A ∩ T tests no part of speech on targets: new -> old (the release's first line) under
    --faithful, although old's first sense is a noun; the default keeps its dominant-use test on targets."""
    targets = ["old", "little", "small", "large", "bad"]
    faithful = _ctx(wn, {}, targets, faithful=True)
    assert faithful.keyword("new", "a") or faithful.has_pos("new", "a")
    assert antonym_targets(faithful, "new") == ["old"]
    assert set(antonym_targets(faithful, "big")) == {"little", "small"}
    assert antonym_targets(_ctx(wn, {}, targets), "new") == ["old"]


def test_compare_names_the_rule_that_leaves_a_published_keyword_out(wn, tmp_path):
    """``wnlampro_compare``: overlap both ways over distinct keywords (dev and test), Table 4 side by side, targets of
    the entries both hold, and for each published keyword we lack the first rule of our build it fails."""
    from wordbench.builders.wnlampro_compare import compare, render, why_missing

    rates = {"algorithms": 500.0, "algorithm": 5000.0, "using": 1e4, "run": 1e5, "will": 1e5, "dog": 1e5, "cat": 1e5,
             "sunday": 1e5, "aachen": 1e4, "happier": 1e4}
    ctx = _ctx(wn, rates, ["dog", "animal", "canine", "carnivore", "mammal"], rare_words="dictionary")
    expected = {"algorithms": "marked_plural", "by-product": "hyphen_or_dot", "zzxq": "not_in_v", "the": "no_sense",
                "aachen": "named_entity", "sunday": "targets", "using": "verb_form", "run": "part_of_speech",
                "will": "closed_class", "cat": "targets", "poodle": "unexplained"}
    assert {w: why_missing(ctx, w, "hypernym") for w in expected} == expected
    assert why_missing(ctx, "happier", "antonym") == "inflected_adjective"
    assert why_missing(_ctx(wn, {"acts": 1e4}, [], keyword_forms="lemma", capitalized=False, rare_words="dictionary"), "acts", "hypernym") == "inflected"
    assert why_missing(_ctx(wn, {"amphoras": 5.0}, [], rare_words="dictionary"), "amphoras", "hypernym") == "marked_plural"  # amphorae is not
    inflected = _ctx(wn, rates, ["dog", "animal", "canine", "rule", "procedure", "formula"], keyword_forms="inflected", rare_words="dictionary")
    assert why_missing(inflected, "dogs", "hypernym") == "inflected_unlisted"  # attested by WordNet's text, not listed
    assert why_missing(inflected, "algorithms", "hypernym") == "unexplained"  # a keyword of that build
    assert why_missing(_ctx(wn, rates, [], capitalized=False, rare_words="dictionary"), "sunday", "hypernym") == "capitalized"
    # the default V holds every WordNet word: a hyphenated lemma then lacks only targets, a non-word stays out
    default = _ctx(wn, rates, ["dog", "animal", "canine", "carnivore", "mammal"])
    assert [why_missing(default, w, "hypernym") for w in ("by-product", "the", "zzxq")] == ["targets", "not_in_v", "not_in_v"]

    def entries(keys, relation="hypernym", split="test"):
        return "".join(f"{k}{i}\t{split}\t{k} (n,4.0,{c})\t{relation}\tanimal (n,5.0,90000)\n" for i, (k, c) in enumerate(keys))

    published = tmp_path / "published.txt"
    published.write_text(entries([("algorithms", 50), ("by-product", 5)]) + entries([("run", 500)], split="dev")
                         + "9\ttest\tdog (n,5.0,5000)\thypernym\tanimal (n,5,1)\tpet (n,5,1)\tbeast (n,5,1)\n")
    ours = tmp_path / "ours.txt"
    ours.write_text(entries([("algorithm", 500)]) + entries([("poodle", 5)], split="dev")
                    + "9\ttest\tdog (n,5.0,5000)\thypernym\tanimal (n,5,1)\tcanine (n,5,1)\n")
    result = compare(read_wnlampro_txt(published), read_wnlampro_txt(ours), ctx)
    assert result.targets == {"hypernym": (0.5, 1 / 3)}  # dog: animal of our two, of their three
    assert (result.ours, result.theirs, result.shared) == (3, 4, 1)
    assert result.per_relation["hypernym"] == (3, 4, 1) and result.per_relation["antonym"] == (0, 0, 0)
    assert result.cells["hypernym"] == {"rare": (1, 1), "medium": (0, 1), "frequent": (2, 2)}
    assert result.missing == {"hyphen_or_dot": ["by-product"], "marked_plural": ["algorithms"], "part_of_speech": ["run"]}
    assert result.extra == {"rare": ["poodle"], "other_form": ["algorithm"]}  # the file has algorithms
    text = render(result)
    assert "ours among the published: 33.3%; published among ours: 25.0%" in text and "| hypernym | 1 / 1 | 0 / 1 | 2 / 2 |" in text


def test_compare_agrees_with_the_default_build(wnlampro_build, wnlampro_file, tmp_path, monkeypatch):
    """Every keyword the default build kept passes every rule ``why_missing`` checks (so a reason is never a rule the
    build did not apply), and ``python -m wordbench.builders.wnlampro_compare FILE`` compares it with a file."""
    import json

    from click.testing import CliRunner

    from wordbench.benchmarks.hub import load_data
    from wordbench.builders import wnlampro_compare
    from wordbench.builders.wnlampro_compare import PROBED, context, keywords, why_missing

    ours, ctx = load_data("wnlampro", str(wnlampro_build[0]), progress=False)[1]["default"], context(Config())
    kept = keywords(ours)
    for relation in PROBED:
        sample = random.Random(0).sample(sorted(kept[relation]), min(60, len(kept[relation])))
        assert {w: why_missing(ctx, w, relation) for w in sample} == {w: "unexplained" for w in sample}
    with_missing = tmp_path / "published.txt"
    with_missing.write_text(wnlampro_file.read_text() + "7\ttest\taachen (n,5,50000)\thypernym\tcity (n,5,1)\n"
                            "8\tdev\talgorithms (n,4,5000)\thypernym\trule (n,5,1)\n")
    monkeypatch.setattr(wnlampro_compare, "our_build", lambda overrides, faithful: (ours, ctx))
    out = tmp_path / "compare.json"
    result = CliRunner().invoke(wnlampro_compare.main, [str(with_missing), "--json", str(out)])
    assert result.exit_code == 0, result.output
    numbers = json.loads(out.read_text())
    assert numbers["theirs"] == 7 and numbers["shared"] == 5  # good, dog, poodle, cat, oak are default keywords
    assert numbers["missing"] == {"named_entity": ["aachen"], "marked_plural": ["algorithms"]}
    assert numbers["cells"]["corruption"]["rare"][1] == 1
    keyword_list = tmp_path / "keywords.txt"  # a plain list, a hash-split half of a published list
    keyword_list.write_text("# published keywords\ngood\ndog\n\naachen\nalgorithms\n")
    result = CliRunner().invoke(wnlampro_compare.main, ["--keywords", "--share", "0.5", str(keyword_list), "--json", str(out)])
    assert result.exit_code == 0, result.output
    numbers = json.loads(out.read_text())
    assert (numbers["theirs"], numbers["shared"], numbers["share"]) == (4, 2, 0.5) and numbers["cells"] == {}
    assert numbers["theirs_among_ours"] == 0.5 and numbers["ours_among_theirs"] == min(1.0, 2 / (0.5 * numbers["ours"]))
    assert numbers["missing"] == {"named_entity": ["aachen"], "marked_plural": ["algorithms"]}
    assert "published among ours: 50.0%" in result.output and "Table 4" not in result.output
    bad = CliRunner().invoke(wnlampro_compare.main, ["--share", "0.5", str(keyword_list)])
    assert bad.exit_code != 0 and "--keywords" in bad.output


def test_compare_reads_a_keyword_list(wn, tmp_path):
    """A plain keyword list: overlap both ways (ours among a part of the list estimated through its share), each
    missing word's furthest reason over the probed relations, our extras by bin; a WNLaMPro.txt line is refused."""
    from wordbench.builders.wnlampro_compare import compare_keywords, read_keyword_list, render

    path = tmp_path / "keywords.txt"
    path.write_text("# one keyword a line\n poodle \n\nby-product\ncat\n")
    assert read_keyword_list(path) == ["poodle", "by-product", "cat"]
    ours = read_wnlampro_txt(_write(tmp_path / "ours.txt", "1\ttest\tpoodle (n,4.0,5)\thypernym\tdog (n,5,1)\n"
                                                           "2\ttest\tgood (a,5.0,500)\tantonym\tbad (a,5,1)\n"))
    ctx = _ctx(wn, {"cat": 1e5, "good": 1e5, "poodle": 5.0}, ["dog", "animal"])
    result = compare_keywords(read_keyword_list(path), ours, ctx, share=0.5)
    assert (result.ours, result.theirs, result.shared) == (2, 3, 1)
    assert result.theirs_among_ours == 1 / 3 and result.ours_among_theirs == 1.0  # 1 / (0.5 x 2)
    assert result.missing == {"targets": ["by-product", "cat"]}  # the default V holds the hyphenated lemma
    assert result.extra == {"frequent": ["good"]} and result.per_relation == {} and result.cells == {}
    assert compare_keywords(["poodle"], ours, ctx).ours_among_theirs == 0.5
    text = render(result)
    assert "share 0.5000" in text and "ours among the published: 100.0%; published among ours: 33.3%" in text
    _write(path, "1\ttest\tpoodle (n,4.0,5)\thypernym\tdog (n,5,1)\n")
    with pytest.raises(DataFormatError, match="one keyword a line"):
        read_keyword_list(path)
    with pytest.raises(ValueError, match="share"):
        compare_keywords([], ours, ctx, share=0)


def _write(path, text):
    path.write_text(text)
    return path


def test_capitalized_lemmas_are_keywords_by_their_class_senses(wn):
    """A lemma WordNet spells only capitalized is a keyword in lower case with its class senses (tuesday: Tuesday, a
    weekday), as the authors' case-blind lookup; a named entity (aachen: only an instance, a city) is none, as its
    class is reached by an instance pointer; capitalized=false matches a lemma's case (1.3.0)."""
    from wordbench.builders.sources.wordnet import class_lemmas, own_lemmas

    assert [lemma.name() for lemma in class_lemmas(wn, "tuesday", "n")] == ["Tuesday"] and not class_lemmas(wn, "aachen", "n")
    assert own_lemmas(wn, "tuesday", "n") == [] and own_lemmas(wn, "tuesday", "n", capitalized=True)
    assert own_lemmas(wn, "dog", "n", capitalized=True) == own_lemmas(wn, "dog", "n")  # a lower-case lemma: its own
    rates = {"tuesday": 1e4, "aachen": 1e4}
    ctx = _ctx(wn, rates, ["weekday"], hypernym_min_targets=1)
    assert ctx.keyword("tuesday", "n") and hypernym_targets(ctx, "tuesday") == ["weekday"]
    assert not ctx.keyword("aachen", "n") and ctx.senses("aachen", "n") == []
    faithful = _ctx(wn, rates, ["weekday"], hypernym_min_targets=1, faithful=True)
    assert faithful.keyword("tuesday", "n") and hypernym_targets(faithful, "tuesday") == ["weekday"]
    assert faithful.senses("aachen", "n") == []  # first-sense noun, but no class sense: no entries
    old = _ctx(wn, rates, ["weekday"], hypernym_min_targets=1, capitalized=False)
    assert not old.keyword("tuesday", "n") and hypernym_targets(old, "tuesday") == []


def test_compare_builds_what_the_options_name(monkeypatch):
    """The compared build is the one ``wordbench build wnlampro --set ... [--faithful]`` makes."""
    from wordbench.builders import wnlampro_compare

    seen = []
    monkeypatch.setattr(WNLaMProBuilder, "build", lambda self, config, progress=True: seen.append(config) or {"default": None})
    monkeypatch.setattr(wnlampro_compare, "context", lambda config: config)
    _, config = wnlampro_compare.our_build(("keyword_forms=inflected",), True, progress=False)
    assert seen == [config] and config.keyword_forms == "inflected" and config.faithful
    with pytest.raises(ConfigError, match="unknown config key"):
        wnlampro_compare.our_build(("nonsense=1",), False)
