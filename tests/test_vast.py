"""VAST (Wolfe & Caliskan 2022): contexts, SC-WEAT and WEAT math by hand, selection of polar words, end to end."""

from pathlib import Path
import json

import numpy as np
import pytest
from scipy import stats as sps

from wordbench.benchmarks.hub import _load_folder, build
from wordbench.benchmarks.runner import score
from wordbench.scorers.base import RunContext
from wordbench.builders.vast import template_context, valence_class
from wordbench.builders.vast_words import POLAR, VAD_SETS, WEAT_TESTS, WORD_SETS
from wordbench.scorers import vast
from wordbench.scorers.models import ModelError, load_model

LEXICON = {"sunshine": 8.1, "mud": 3.9, "table": 5.0, "grief": 1.6, "puppy": 7.6, "dirt": 3.0, "gift": 7.0, "snake": 2.5,
           "chair": 5.2, "storm": 3.4, "love": 8.7, "death": 1.5}
CORPUS = ("The sunshine was warm on the table .\nA storm left mud and dirt everywhere .\nShe gave the puppy a gift .\n"
          "Their love and peace made everyone happy .\nThe death and grief after the murder .\n")


def _test_rows(folder):
    """The built test split as wordbench reads it (categorical columns published as ClassLabel come back as strings)."""
    return _load_folder(Path(folder))["default"]["test"]


@pytest.fixture(scope="module")
def vast_data(tmp_path_factory):
    root = tmp_path_factory.mktemp("vast")
    lexicon = root / "lexicon.csv"
    lexicon.write_text("Word,V.Mean.Sum\n" + "".join(f"{w},{v}\n" for w, v in LEXICON.items()))
    corpus = root / "corpus.txt"
    corpus.write_text(CORPUS)
    # union_lexica=none: a small basis (the scored and WEAT words) keeps the tiny models' runs short; the default basis
    # (every offline lexicon, 7k VADER words) has its own tests below
    folder, _ = build("vast", [f"lexicon=warriner:{lexicon}", f"corpus={corpus}", "union_lexica=none"], out=root / "data", progress=False)
    return folder


def test_templates_follow_the_paper_and_faithful_the_authors_code():
    # the paper's classes 1.0-2.49 / 2.50-3.99 / 4.00-5.99 / 6.00-7.49 / 7.50-9.00; the authors' code: <= 2.5, ...
    assert [valence_class(v) for v in (1.0, 2.49, 2.5, 3.99, 4.0, 5.99, 6.0, 7.49, 7.5, 9.0)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert [valence_class(v, right_closed=True) for v in (1.0, 2.5, 2.51, 4.0, 6.0, 7.5, 7.51, 9.0)] == [0, 0, 1, 1, 2, 3, 4, 4]
    assert template_context("cake", "aligned", 7.5, "think of") == "It is very pleasant to think of cake"
    assert template_context("cake", "aligned", 7.5, "think about", right_closed=True) == "It is pleasant to think about cake"
    assert template_context("cake", "bleached", 8.0, "think about") == "This is cake"
    assert template_context("cake", "aligned", 8.0, "think about") == "It is very pleasant to think about cake"
    assert template_context("cake", "misaligned", 8.0, "think about") == "It is very unpleasant to think about cake"
    assert template_context("cake", "misaligned", 5.0, "think of") == "It is neither pleasant nor unpleasant to think of cake"
    assert len(WORD_SETS["pleasant"]) == len(WORD_SETS["unpleasant"]) == 25
    assert all(s in WORD_SETS for test in WEAT_TESTS.values() for s in test)


def test_builder_rows(vast_data):
    import datasets

    rows = list(_test_rows(vast_data))
    assert all(r["context"][r["start"]:r["end"]].lower() == r["word"].lower() for r in rows)
    by = {(r["setting"], r["group"], r["word"]): r for r in rows}
    assert by[("aligned", "lexicon", "snake")]["context"] == "It is unpleasant to think of snake"  # 2.5: the paper's 2.50-3.99
    assert by[("aligned", "pleasant", "caress")]["valence9"] == 8.0  # polar words missing from the lexicon: 8.0 / 2.0
    assert by[("aligned", "unpleasant", "grief")]["valence9"] == 1.6  # ... else their lexicon valence
    assert by[("random", "lexicon", "puppy")]["context"] == "She gave the puppy a gift ."
    assert ("random", "lexicon", "snake") not in by  # no occurrence in the corpus
    assert sum(1 for r in rows if r["group"].startswith("weat:")) == sum(len(WORD_SETS[s]) for s in {s for t in WEAT_TESTS.values() for s in t})
    from wordbench.benchmarks.registry import get
    from wordbench.benchmarks.hub import load_data

    summary = get("vast").builder().summary(load_data("vast", str(vast_data), progress=False)[1])
    assert "no occurrence in the corpus" in summary and "snake" in summary


def test_faithful_build_uses_the_authors_templates_and_valence_order(tmp_path):
    """--faithful: "think about", classes closed on the right (snake at 2.5 is very unpleasant), and a word's
    template valence from Warriner before the scored lexicon (the authors' shared order)."""
    import datasets

    bellezza = tmp_path / "bellezza.csv"  # 1..5: table 3.0 -> 5.0 on 1..9
    bellezza.write_text("word,combined_pleasantness\n" + "".join(f"{w},{(v - 1) / 2 + 1}\n" for w, v in LEXICON.items()))
    warriner = tmp_path / "warriner.csv"
    warriner.write_text("Word,V.Mean.Sum\ntable,8.2\n")
    rows = {}
    for faithful in (False, True):
        folder, _ = build("vast", [f"lexicon=bellezza:{bellezza}", f"union_lexica=warriner:{warriner}", "settings=aligned"],
                          out=tmp_path / f"data-{faithful}", progress=False, faithful=faithful)
        rows[faithful] = {(r["group"], r["word"]): r for r in _test_rows(folder)}
    assert rows[False][("lexicon", "snake")]["context"] == "It is unpleasant to think of snake"
    assert rows[True][("lexicon", "snake")]["context"] == "It is very unpleasant to think about snake"
    assert rows[False][("lexicon", "table")]["context"] == "It is neither pleasant nor unpleasant to think of table"
    assert rows[True][("lexicon", "table")]["context"] == "It is very pleasant to think about table"  # Warriner's 8.2
    assert rows[True][("lexicon", "table")]["valence"] == rows[False][("lexicon", "table")]["valence"] == 3.0  # scored: Bellezza's
    folder, _ = build("vast", [f"lexicon=bellezza:{bellezza}", "settings=aligned", "phrase=think of"], out=tmp_path / "own",
                      progress=False, faithful=True)  # a phrase the user sets is kept under --faithful
    own = {(r["group"], r["word"]): r for r in _test_rows(folder)}
    assert own[("lexicon", "snake")]["context"] == "It is very unpleasant to think of snake"


def test_sc_weat_pearson_nullify_weat_by_hand():
    rng = np.random.default_rng(0)
    w, a, b = rng.normal(size=(4, 3, 5)), rng.normal(size=(3, 3, 5)), rng.normal(size=(2, 3, 5))
    got = vast.sc_weat(w, a, b)
    cos = lambda x, y: x @ y / np.linalg.norm(x) / np.linalg.norm(y)  # noqa: E731
    for i in range(4):
        for layer in range(3):
            ca = [cos(w[i, layer], v) for v in a[:, layer]]
            cb = [cos(w[i, layer], v) for v in b[:, layer]]
            assert got[i, layer] == pytest.approx((np.mean(ca) - np.mean(cb)) / np.std(ca + cb, ddof=1))
    valence = rng.normal(size=4)
    assert vast.pearson_by_layer(got, valence) == pytest.approx([sps.pearsonr(got[:, l], valence)[0] for l in range(3)])
    x = rng.normal(size=(20, 6))
    mean, comps = vast.top_components(x, 2)
    assert np.abs(vast.nullify(x, mean, comps) @ comps.T).max() < 1e-10
    d, p = vast.weat(np.eye(3)[[0, 0]], np.eye(3)[[1, 1]], np.eye(3)[[0]], np.eye(3)[[1]], 999, 0)
    assert d == pytest.approx(2 / np.std([1, 1, -1, -1], ddof=1)) and p == pytest.approx(1 / 6)  # exact: 6 splits


def test_polar_selection_equalizes_and_refuses_none():
    entries = [("a", "pleasant", 1), ("b", "pleasant", 1), ("c", "pleasant", 2), ("d", "unpleasant", 1)]
    chosen = vast.select_polar(entries, seed=0)
    assert len(chosen["pleasant"]) == len(chosen["unpleasant"]) == 1 and chosen["unpleasant"] == [3]
    with pytest.raises(ModelError, match="no unpleasant polar word as one token"):
        vast.select_polar([("a", "pleasant", 1), ("d", "unpleasant", 3)], seed=0)


@pytest.fixture(scope="module")
def word_level_encoder(tmp_path_factory, vast_data):
    """A tiny BERT encoder whose word-level vocabulary keeps every VAST word one token (polar words included)."""
    import datasets
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = {w for text in _test_rows(vast_data)["context"] for w in text.split()}
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                                sep_token="[SEP]", mask_token="[MASK]")
    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                                     num_attention_heads=2, max_position_embeddings=64)
    folder = tmp_path_factory.mktemp("wl-encoder")
    transformers.BertModel(config).eval().save_pretrained(folder, safe_serialization=True)
    fast.save_pretrained(folder)
    return load_model(str(folder), device="cpu", batch_size=8)


def test_score_end_to_end_and_resume(word_level_encoder, vast_data, tmp_path):
    run = score("vast", word_level_encoder, str(vast_data), out=tmp_path, progress=False, n_resamples=99, max_pcs=3,
                tokenization_setting="bleached")
    metrics = json.loads((run.path / "summary.json").read_text())["metrics"]
    assert set(metrics["layers"]) == {"bleached", "aligned", "misaligned", "random"}
    assert all(len(v["vast"]) == 3 for v in metrics["layers"].values())  # embeddings + 2 layers
    assert all(-1 <= r <= 1 for v in metrics["layers"].values() for r in v["vast"])
    assert metrics["null_pcs"] == 0 and metrics["dim"] == 16  # round(16 / 100)
    for setting, iso in metrics["isolation"].items():
        assert iso["layer"] == 2 and iso["best_layer"] == iso["argmax_layer"]  # the probe holds every lexicon word here
        assert len(iso["curve_top"]) == 4 and ("curve_best" in iso) == (iso["best_layer"] != 2)
        t1 = metrics["table1"][setting]
        assert t1["top"]["before"] == pytest.approx(metrics["layers"][setting]["vast"][2])
        assert t1["best"]["before"] == pytest.approx(max(metrics["layers"][setting]["vast"]))
    assert len(metrics["bias"]["tests"]) == len(WEAT_TESTS)
    assert all(len(t["d_by_pcs"]) == 4 for t in metrics["bias"]["tests"].values())
    assert metrics["tokenization"]["single"] is None  # a word-level vocabulary has no multiply tokenized word
    records = run.records()
    lexicon = [r for r in records if r["group"] == "lexicon" and r["setting"] == "bleached"]
    assert len(lexicon) == len(LEXICON) and all(len(r["effect_sizes"]) == 3 for r in lexicon)
    assert {r["group"] for r in records} >= {"basis", "pleasant", "unpleasant", "lexicon"}
    assert sorted(p.name for p in run.plots_dir.iterdir()) == ["bias.png", "isolation.png", "layers.png", "tokenization.png"]
    report = (run.path / "report.md").read_text()
    assert "| layer | bleached (n=12)" in report and "WEAT bias tests" in report and "Table 1" in report
    assert "Lexicon **warriner** (en)" in report and "PCA basis **union**" in report and "Signature: `vast@" in report
    again = score("vast", word_level_encoder, str(vast_data), out=tmp_path, progress=False, n_resamples=99, max_pcs=3,
                  tokenization_setting="bleached")
    assert json.loads((again.path / "summary.json").read_text())["items_scored_now"] == 0


def test_faithful_bias_tests_project_with_the_isolation_basis(word_level_encoder, vast_data, tmp_path):
    """--faithful stacks the polar and dominance/arousal words twice into the PCA basis (VAST.py); the WEAT bias
    tests must nullify the PCs of that same basis, not of the words each once."""
    run = score("vast", word_level_encoder, str(vast_data), out=tmp_path, progress=False, n_resamples=9, max_pcs=3, faithful=True)
    tests = json.loads((run.path / "summary.json").read_text())["metrics"]["bias"]["tests"]
    recs = [r for r in run.records() if r["setting"] == "bleached" and not r["group"].startswith("sim:")]
    once = list({r["word"]: r for r in recs}.values())
    twice = {w for name in (*POLAR, *VAD_SETS) for w in WORD_SETS[name]}
    assert any(r["word"] in twice for r in once)
    basis = np.stack([vast.decode_vector(r["vector"]) for r in once + [r for r in once if r["word"] in twice]])
    mean, comps = vast.top_components(basis, 3)
    name, sets = next((n, s) for n, s in WEAT_TESTS.items() if n in tests)
    vectors = [np.stack([vast.decode_vector(r["vector"]) for r in recs if r["group"] == f"weat:{s}"]) for s in sets]
    by_hand = [vast.weat_scores(*(vast.nullify(v, mean, comps[:j]) for v in vectors))[0] for j in range(4)]
    assert tests[name]["d_by_pcs"] == pytest.approx(by_hand)


def test_batched_effect_sizes_equal_one_at_a_time(word_level_encoder, vast_data, tmp_path):
    import datasets

    rows = [r for r in _test_rows(vast_data) if r["setting"] == "bleached" and r["group"] == "lexicon"]
    scorer = vast.VASTScorer()
    scorer.prepare(RunContext(data={"default": _load_folder(Path(vast_data))["default"]}))
    together = scorer.score(word_level_encoder, rows)
    alone = [scorer.score(word_level_encoder, [r])[0] for r in rows]
    for a, b in zip(together, alone):
        assert a["effect_sizes"] == pytest.approx(b["effect_sizes"], abs=1e-5)


def test_a_word_not_at_its_span_is_a_clear_error(word_level_encoder):
    from wordbench.errors import DataFormatError

    row = {"id": "x", "word": "cake", "group": "lexicon", "setting": "bleached", "valence": 5.0, "context": "This is pie", "start": 8, "end": 11}
    with pytest.raises(DataFormatError, match="row x: the word 'cake' is not at 8:11"):
        vast.VASTScorer().score(word_level_encoder, [row])


def test_no_single_token_polar_word_is_a_clear_error(tiny_models, vast_data, tmp_path):
    model = load_model(str(tiny_models["gpt2"]), device="cpu", batch_size=8)
    with pytest.raises(ModelError, match="polar word as one token"):  # filtered everywhere: nothing to score with
        score("vast", model, str(vast_data), out=tmp_path, progress=False, polar_filter="all", n_resamples=9, max_pcs=2)
    # the paper's default filters the tokenization experiment only: the run goes on and says why that part is empty
    run = score("vast", model, str(vast_data), out=tmp_path, limit=4, progress=False, n_resamples=9, max_pcs=2, faithful=True)
    summary = json.loads((run.path / "summary.json").read_text())
    assert "polar word of a pole one token" in summary["metrics"]["tokenization"]["note"]
    assert summary["metrics"]["bos"] == "none" and "bos:none" in summary["signature"] and "polar_filter:tokenization" in summary["signature"]
    assert "faithful:wolfe2022" in summary["signature"]  # --faithful: the authors' GPT-2 runs add no BOS


def test_limit_keeps_polar_rows_and_reports_name_the_lexicon(word_level_encoder, vast_data, tmp_path):
    from wordbench.benchmarks.runner import report as compare

    run = score("vast", word_level_encoder, str(vast_data), out=tmp_path, limit=5, progress=False, n_resamples=9, max_pcs=2)
    records = run.records()
    assert len({r["word"] for r in records if r["group"] == "lexicon"}) <= 5
    assert {r["word"] for r in records if r["group"] == "pleasant"} == set(WORD_SETS["pleasant"])
    text = compare([run.path])
    assert "wl-encoder" in text.split("\n")[0] or "· warriner" in text


def test_default_pca_basis_holds_every_offline_lexicon_and_the_weat_words(tmp_path, monkeypatch):
    """With one lexicon the PCA basis was that lexicon and the WEAT words (759 words for Bellezza), whose
    top PCs carry valence. By default every English lexicon readable offline (VADER; Warriner / ANEW / Bellezza in
    the cache's lexica/ folder) joins, adding rows only; union_lexica set by the user replaces it."""
    import datasets
    from wordbench.builders.sources.lexica import load_lexicon

    monkeypatch.setenv("WORDBENCH_CACHE", str(tmp_path / "cache"))
    lexicon = tmp_path / "lexicon.csv"
    lexicon.write_text("Word,V.Mean.Sum\n" + "".join(f"{w},{v}\n" for w, v in LEXICON.items()))
    anew = tmp_path / "ANEW.csv"
    anew.write_text("Description,Valence Mean\nzebra,6.5\nadore,8.0\n")
    vader = load_lexicon("vader").valence
    terms = {w for ws in WORD_SETS.values() for w in ws}
    rows, metas = {}, {}
    for name, extra in (("auto", []), ("none", ["union_lexica=none"]), ("named", [f"union_lexica=anew:{anew}"])):
        folder, metas[name] = build("vast", [f"lexicon=warriner:{lexicon}", "settings=bleached", *extra], out=tmp_path / name, progress=False)
        rows[name] = list(_test_rows(folder))
    words = {name: {r["word"] for r in rs} for name, rs in rows.items()}
    assert set(vader) | terms | set(LEXICON) <= words["auto"]  # VADER's 7k words, the WEAT terms, the scored words
    assert "adore" in vader and "adore" not in words["none"] and "zebra" not in words["auto"]
    assert words["named"] == words["none"] | {"zebra", "adore"}  # a basis the user sets replaces the default
    by = {(r["group"], r["word"]): r for r in rows["auto"]}
    assert by[("basis", "adore")]["valence9"] == pytest.approx(vader["adore"] + 5)  # aligned by its own lexicon
    ids, same = {r["id"] for r in rows["none"]}, lambda rs: [json.dumps(r, sort_keys=True) for r in rs]  # noqa: E731 - NaN == NaN
    assert same(r for r in rows["auto"] if r["id"] in ids) == same(rows["none"])  # the default basis adds rows and changes none
    assert "|basis:vader-" in metas["auto"]["signature"] and "basis:" not in metas["none"]["signature"]
    assert "|basis:anew-" in metas["named"]["signature"] and "basis:vader" not in metas["named"]["signature"]
    card = (tmp_path / "auto" / "README.md").read_text()
    assert "| basis | VADER lexicon" in card and "union_lexica=auto: PCA basis, " in card
    assert f"- bleached: {len(words['auto']):,} words: 12 scored" in card  # the summary counts the basis
    # a Warriner / ANEW / Bellezza file in the cache joins the default too; other languages keep their own basis
    (tmp_path / "cache" / "lexica").mkdir(parents=True, exist_ok=True)
    (tmp_path / "cache" / "lexica" / "anew.csv").write_text(anew.read_text())
    folder, meta = build("vast", [f"lexicon=warriner:{lexicon}", "settings=bleached"], out=tmp_path / "cached", progress=False)
    assert "zebra" in {r["word"] for r in _test_rows(folder)} and "|basis:anew-" in meta["signature"]
    polish = tmp_path / "ANEW_Polish_Imbir.csv"
    polish.write_text("Number,Polish word,English word,Val_Mean,SD,Mean,SD\n1,miłość,love,8.7,1,2,3\n2,bieda,poverty,2.3,1,2,3\n")
    folder, meta = build("vast", [f"lexicon=imbir:{polish}", "language=pl"], out=tmp_path / "pl", progress=False)
    assert not any(r["group"] == "basis" for r in _test_rows(folder)) and "basis:" not in meta["signature"]
    from wordbench.errors import ConfigError

    with pytest.raises(ConfigError, match="auto stands alone"):
        build("vast", [f"lexicon=warriner:{lexicon}", f"union_lexica=auto,anew:{anew}"], out=tmp_path / "x", progress=False)


def test_limit_keeps_the_whole_pca_basis(word_level_encoder, tmp_path):
    """--limit samples the scored words only: every basis word (other lexica included) stays, so the basis of a
    sample is the full run's; the report gives its size."""
    import datasets

    lexicon = tmp_path / "lexicon.csv"
    lexicon.write_text("Word,V.Mean.Sum\n" + "".join(f"{w},{v}\n" for w, v in LEXICON.items()))
    anew = tmp_path / "ANEW.csv"
    anew.write_text("Description,Valence Mean\nzebra,6.5\ncloud,6.0\nmud,3.0\ngift,7.2\n")
    folder, _ = build("vast", [f"lexicon=warriner:{lexicon}", f"union_lexica=anew:{anew}", "settings=bleached", "max_words=8"],
                      out=tmp_path / "d", progress=False)
    basis = {r["word"] for r in _test_rows(folder) if r["group"] == "basis"}
    assert {"zebra", "cloud"} <= basis  # and the WEAT / dominance / arousal terms
    run = score("vast", word_level_encoder, str(folder), out=tmp_path, limit=4, progress=False, n_resamples=9, max_pcs=2)
    records = run.records()
    assert {r["word"] for r in records if r["group"] == "basis"} == basis
    assert 3 <= len({r["word"] for r in records if r["group"] == "lexicon"}) <= 4
    m = json.loads((run.path / "summary.json").read_text())["metrics"]
    seen = {r["word"] for r in records if not r.get("excluded")}  # this encoder's vocabulary lacks two basis words
    assert m["excluded_unknown_token"]["words"] == len({r["word"] for r in records}) - len(seen) == 2
    assert m["isolation"]["bleached"]["basis_words"] == len(seen)
    assert f"PCA basis **union** (bleached {len(seen):,} words)" in (run.path / "report.md").read_text()


def test_words_the_tokenizer_cannot_see_are_excluded_and_counted(word_level_encoder, tmp_path):
    """A lexicon word the tokenizer maps to its unknown token only is never embedded as a word: it is left out of
    every correlation and basis, and the summary and report count it."""
    lexicon = tmp_path / "lexicon.csv"
    unseen = {"xylophonics": 7.9, "quagmirish": 2.2}  # in no context the encoder's vocabulary was built from
    lexicon.write_text("Word,V.Mean.Sum\n" + "".join(f"{w},{v}\n" for w, v in {**LEXICON, **unseen}.items()))
    folder, _ = build("vast", [f"lexicon=warriner:{lexicon}", "settings=bleached", "max_words=14"], out=tmp_path / "d", progress=False)
    run = score("vast", word_level_encoder, str(folder), out=tmp_path, progress=False, n_resamples=9, max_pcs=2)
    records = run.records()
    excluded = {r["word"] for r in records if r.get("excluded") == "unknown_token"}
    assert set(unseen) <= excluded and all(r["effect_sizes"] is None and r["vector"] is None for r in records if r.get("excluded"))
    m = json.loads((run.path / "summary.json").read_text())["metrics"]
    lexicon_seen = {r["word"] for r in records if r["group"] == "lexicon" and not r.get("excluded")}
    assert m["layers"]["bleached"]["n"] == len(lexicon_seen) and not set(unseen) & lexicon_seen
    assert m["excluded_unknown_token"]["words"] == len(excluded)
    assert f"Excluded: {len(excluded)} word(s) the model's tokenizer maps to its unknown token only" in (run.path / "report.md").read_text()


@pytest.fixture(scope="module")
def valence_pc1(tmp_path_factory):
    """A bleached dataset and a one-layer encoder whose layer 0 is (nearly) the word embedding: lexicon and polar
    words lie along a valence direction v, every other word (WEAT and basis terms) far along another direction u.
    Over the lexicon and polar words alone PC1 is v; over the union of every embedded word it is u."""
    import datasets
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers

    root = tmp_path_factory.mktemp("pc1")
    lexicon = root / "lexicon.csv"
    lexicon.write_text("Word,V.Mean.Sum\n" + "".join(f"{w},{v}\n" for w, v in LEXICON.items()))
    folder, _ = build("vast", [f"lexicon=warriner:{lexicon}", "settings=bleached", "union_lexica=none"], out=root / "data", progress=False)
    rows = list(_test_rows(folder))
    words = sorted({w for r in rows for w in r["context"].split()})
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words])}
    valence9 = {r["word"]: (r["valence9"] if r["group"] == "lexicon" else 8.5 if r["group"] == "pleasant" else 1.5)
                for r in rows if r["group"] in ("lexicon", "pleasant", "unpleasant")}
    dim, rng = 16, np.random.default_rng(0)
    v, u = np.zeros(dim), np.zeros(dim)
    v[[0, 1]], u[[2, 3]] = (1, -1), (1, -1)
    emb = rng.normal(scale=0.2, size=(len(vocab), dim))
    for word, i in vocab.items():
        emb[i] += (valence9[word] - 5) * v if word in valence9 else rng.choice([-4.0, 4.0]) * u
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                                sep_token="[SEP]", mask_token="[MASK]")
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=dim, intermediate_size=32, num_hidden_layers=1,
                                     num_attention_heads=2, max_position_embeddings=32, layer_norm_eps=1e4)
    model = transformers.BertModel(config).eval()
    with torch.no_grad():  # layer 0 = LayerNorm(word embedding), nearly linear: var << eps, weight sqrt(eps)
        model.embeddings.word_embeddings.weight.copy_(torch.tensor(emb, dtype=torch.float32))
        model.embeddings.position_embeddings.weight.zero_()
        model.embeddings.token_type_embeddings.weight.zero_()
        model.embeddings.LayerNorm.weight.fill_(100.0)
        model.embeddings.LayerNorm.bias.zero_()
    model_dir = root / "model"
    model.save_pretrained(model_dir, safe_serialization=True)
    fast.save_pretrained(model_dir)
    return folder, load_model(str(model_dir), device="cpu", batch_size=64)


def test_union_basis_keeps_valence_that_the_run_basis_nullifies(valence_pc1, tmp_path):
    data, model = valence_pc1
    curves = {}
    for basis in ("union", "run"):
        run = score("vast", model, str(data), out=tmp_path, progress=False, layer=0, best_layer=0, max_pcs=3, n_resamples=9,
                    null_pcs="1", pca_basis=basis)
        m = json.loads((run.path / "summary.json").read_text())["metrics"]
        curves[basis] = m["isolation"]["bleached"]["curve_top"]
        assert m["table1"]["bleached"]["top"]["after"] == pytest.approx(curves[basis][1])
    assert curves["union"][0] > 0.8 and curves["run"][0] > 0.8
    assert curves["run"][1] < 0  # PC1 of lexicon + polar words is valence itself: nullifying it destroys VAST
    assert curves["union"][1] == pytest.approx(curves["union"][0], abs=0.01)  # the union's PC1 is another direction


def test_multi_word_random_contexts_and_coverage(tmp_path):
    from wordbench.builders.vast import RandomContexts

    lines = ["we ate ice cream on the beach", "the ice was thin", "Ice Cream again"]
    found = RandomContexts(lines, 2, 0, ["ice cream", "thin", "snow"])
    context, start, end = found("ice cream")
    assert context[start:end].lower() == "ice cream" and context in ("we ate ice cream on the", "Ice Cream again")
    assert found("thin") == ("ice was thin", 8, 12) and found("snow") is None
    lexicon = tmp_path / "w.csv"
    lexicon.write_text("Word,V.Mean.Sum\nice cream,7.5\nthin,5.0\nsnow,6.0\n")
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(lines) + "\n")
    folder, _ = build("vast", [f"lexicon=warriner:{lexicon}", f"corpus={corpus}", "settings=bleached,random"], out=tmp_path / "d", progress=False)
    from wordbench.benchmarks.hub import load_data
    from wordbench.benchmarks.registry import get

    summary = get("vast").builder().summary(load_data("vast", str(folder), progress=False)[1])
    assert "- lexicon: 2/3 (66.7%); multi-word entries 1/1" in summary


def test_seven_languages_polar_words_templates_and_mismatch(tmp_path):
    from wordbench.errors import ConfigError
    from wordbench.builders.vast_words import polar_words

    pt = polar_words("pt")
    assert len(pt["unpleasant"]) == 25 and pt["unpleasant"].count("divórcio") == 1  # published with 6 repeats
    assert "arc en ciel" in polar_words("fr")["pleasant"] and "ölüm" in polar_words("tr")["unpleasant"]
    assert (len(polar_words("zh")["pleasant"]), len(polar_words("zh")["unpleasant"])) == (16, 24)
    polish = tmp_path / "ANEW_Polish_Imbir.csv"
    polish.write_text("Number,Polish word,English word,Val_Mean,SD,Mean,SD\n1,miłość,love,8.7,1,2,3\n2,bieda,poverty,2.3,1,2,3\n", encoding="utf-8")
    folder, _ = build("vast", [f"lexicon=imbir:{polish}", "language=pl"], out=tmp_path / "pl", progress=False)
    import datasets

    rows = list(_test_rows(folder))
    assert {r["setting"] for r in rows} == {"bleached"} and not any(r["group"].startswith("weat:") for r in rows)
    assert any(r["context"] == "To jest miłość" and r["group"] == "lexicon" for r in rows)
    assert any(r["word"] == "pieszczota" and r["group"] == "pleasant" for r in rows)
    with pytest.raises(ConfigError, match="lexicon imbir is Polish but the polar words are English: set language=pl"):
        build("vast", [f"lexicon=imbir:{polish}"], out=tmp_path / "x", progress=False)
    with pytest.raises(ConfigError, match="aligned and misaligned templates exist in English only"):
        build("vast", [f"lexicon=imbir:{polish}", "language=pl", "settings=bleached,aligned"], out=tmp_path / "y", progress=False)


def test_similarity_loaders_read_the_published_layouts(tmp_path):
    from wordbench.errors import DataFormatError
    from wordbench.builders.sources.similarity import load_similarity

    files = {
        "ws353": ("combined.csv", "Word 1,Word 2,Human (mean)\nlove,sex,6.77\ntiger,cat,7.35\n"),
        "simlex": ("SimLex-999.txt", "word1\tword2\tPOS\tSimLex999\tconc(w1)\nold\tnew\tA\t1.58\t2.72\nsmart\tintelligent\tA\t9.2\t1.75\n"),
        "rw": ("rw.txt", "squishing\tsquirt\t5.88\t7\t7\t6\nundated\tunnamed\t3.66\t0\t9\t6\n"),
        "men": ("MEN_dataset_lemma_form_full", "sun-n sunlight-n 50.000000\nautomobile-n car-n 50.000000\n"),
    }
    got = {kind: load_similarity(f"{kind}:{tmp_path / name}") for kind, (name, text) in files.items()
           if (tmp_path / name).write_text(text) or True}
    assert got["ws353"].pairs == [("love", "sex", 6.77), ("tiger", "cat", 7.35)]
    assert got["simlex"].pairs[1] == ("smart", "intelligent", 9.2)
    assert got["rw"].pairs[0] == ("squishing", "squirt", 5.88)
    assert got["men"].pairs == [("sun", "sunlight", 50.0), ("automobile", "car", 50.0)]
    (tmp_path / "bad.txt").write_text("a b\n")
    with pytest.raises(DataFormatError, match="bad.txt:1: expected word, word, score"):
        load_similarity(f"rw:{tmp_path / 'bad.txt'}")


def test_similarity_spearman_per_layer_and_after_isolation(word_level_encoder, tmp_path):
    from scipy import stats as sps

    lexicon = tmp_path / "lexicon.csv"
    lexicon.write_text("Word,V.Mean.Sum\n" + "".join(f"{w},{v}\n" for w, v in LEXICON.items()))
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS)
    words = list(LEXICON)
    ws = tmp_path / "combined.csv"
    ws.write_text("Word 1,Word 2,Human (mean)\n" + "".join(f"{a},{b},{(i * 7) % 10}\n" for i, (a, b) in enumerate(zip(words, words[1:] + words[:1]))))
    folder, _ = build("vast", [f"lexicon=warriner:{lexicon}", f"corpus={corpus}", "settings=bleached", f"similarity=ws353:{ws}"],
                      out=tmp_path / "d", progress=False)
    run = score("vast", word_level_encoder, str(folder), out=tmp_path, progress=False, n_resamples=9, max_pcs=2, best_layer=1)
    sim = json.loads((run.path / "summary.json").read_text())["metrics"]["similarity"]["ws353"]
    assert sim["pairs"] == sim["pairs_total"] == 12 and len(sim["by_layer"]) == 3
    vec = {r["word"]: vast.decode_vector(r["vectors"]).reshape(3, -1) for r in run.records() if r["group"] == "sim:ws353"}
    cos = [float(vec[a][2] @ vec[b][2] / np.linalg.norm(vec[a][2]) / np.linalg.norm(vec[b][2])) for a, b in zip(words, words[1:] + words[:1])]
    assert sim["by_layer"][2] == pytest.approx(sps.spearmanr(cos, [(i * 7) % 10 for i in range(12)])[0])
    assert sim["top"]["layer"] == 2 and sim["best"]["layer"] == 1 and len(sim["top"]["curve"]) == 3
    assert "Word similarity after isolation" in (run.path / "report.md").read_text()


def test_causal_models_get_no_bos_by_default():
    """The authors' GPT-2 runs add no BOS: the default; prepend and the former auto stay as options."""
    from wordbench.scorers.vast import VASTScorer

    assert not VASTScorer().bos_on and VASTScorer(bos="prepend").bos_on
    assert VASTScorer(bos="auto").bos_on and not VASTScorer(bos="auto", faithful=True).bos_on
    assert VASTScorer().settings["bos"] == "none" and VASTScorer(bos="prepend").settings["bos"] == "prepend"


# --- degenerate runs: words the model cannot embed are excluded and counted; too few left is one line -----------------
def _lexicon_build(tmp_path, lexicon: dict):
    path = tmp_path / "lexicon.csv"
    path.write_text("Word,V.Mean.Sum\n" + "".join(f"{w},{v}\n" for w, v in lexicon.items()))
    folder, _ = build("vast", [f"lexicon=warriner:{path}", "settings=bleached", f"max_words={len(lexicon)}"], out=tmp_path / "d", progress=False)
    return folder


@pytest.mark.parametrize("lexicon, needle", [
    ({"sunshine": 8.1, "grief": 1.6, "xylophonics": 7.9, "quagmirish": 2.2, "zorbulent": 5.0}, "sees 2 of the 5 lexicon words"),
    ({"sunshine": 5.0, "grief": 5.0, "table": 5.0, "xylophonics": 7.9, "quagmirish": 2.2}, "every one has the valence 5.0"),
], ids=["too-few-seen", "one-valence-seen"])
def test_too_few_words_the_model_sees_is_one_line_before_any_state(word_level_encoder, tmp_path, monkeypatch, lexicon, needle):
    """The data passes (5 words, several valences) but the model sees too few of them, or only words of one valence:
    one line before any state is computed, not an All-NaN layer search or a report of empty tables."""
    folder = _lexicon_build(tmp_path, lexicon)
    monkeypatch.setattr(word_level_encoder, "hidden_states", lambda *a, **k: pytest.fail("states computed"))
    with pytest.raises(ModelError) as exc:
        score("vast", word_level_encoder, str(folder), out=tmp_path / "runs", progress=False, n_resamples=9, max_pcs=2)
    assert needle in str(exc.value) and "bleached" in str(exc.value) and "\n" not in str(exc.value)
    assert not list((tmp_path / "runs").rglob("summary.json"))


def _zero_states_of(model, monkeypatch, words: set[str]):
    """The model's pooled states, with every layer zero for ``words``: equally close to every polar word."""
    original = model.hidden_states

    def states(texts, spans, pool, **kw):
        out = original(texts, spans, pool, **kw)
        for n, (text, (a, b)) in enumerate(zip(texts, spans)):
            if text[a:b] in words:
                out[n] = 0.0
        return out

    monkeypatch.setattr(model, "hidden_states", states)


def test_a_word_whose_state_gives_no_effect_size_is_excluded_and_counted(word_level_encoder, vast_data, tmp_path, monkeypatch):
    _zero_states_of(word_level_encoder, monkeypatch, {"table", "chair"})
    run = score("vast", word_level_encoder, str(vast_data), out=tmp_path, progress=False, n_resamples=9, max_pcs=2)
    records = run.records()
    constant = {r["word"] for r in records if r.get("excluded") == "constant_state"}
    assert constant == {"table", "chair"}
    m = json.loads((run.path / "summary.json").read_text())["metrics"]
    assert m["excluded_constant_state"]["words"] == 2
    assert all(np.isfinite(v) for setting in m["layers"].values() for v in setting["vast"])
    for setting, cell in m["layers"].items():
        kept = {r["word"] for r in records if r["setting"] == setting and r["group"] == "lexicon" and not r.get("excluded")}
        assert cell["n"] == len(kept) and not kept & constant
    assert "Excluded: 2 word(s) whose state is equally close to every polar word" in (run.path / "report.md").read_text()


def test_no_setting_left_for_a_correlation_is_one_line_not_a_report(word_level_encoder, tmp_path, monkeypatch):
    folder = _lexicon_build(tmp_path, {w: LEXICON[w] for w in ("sunshine", "grief", "table", "puppy")})
    _zero_states_of(word_level_encoder, monkeypatch, {"table", "puppy"})
    with pytest.raises(Exception) as exc:
        score("vast", word_level_encoder, str(folder), out=tmp_path / "runs", progress=False, n_resamples=9, max_pcs=2)
    assert "no setting keeps lexicon words enough for a correlation" in str(exc.value) and "2 constant state" in str(exc.value)
    assert "bleached: 2 lexicon word(s)" in str(exc.value)
    assert not list((tmp_path / "runs").rglob("report.md"))


def test_finite_argmax_and_too_few():
    from wordbench.scorers import stats

    assert stats.finite_argmax([np.nan, 0.2, np.inf, 0.5]) == 3 and stats.finite_argmax([np.nan, np.nan]) is None
    assert vast.too_few([1.0, 2.0]) and vast.too_few([3.0, 3.0, 3.0, None]) and vast.too_few([1.0, 2.0, np.nan, 3.0]) is None


@pytest.mark.parametrize("change", [{"start": 1}, {"end": 10_000}, {"start": 3, "end": 3}])
def test_a_span_off_its_word_is_refused_when_data_arrives(vast_data, tmp_path, change):
    """``context[start:end]`` is where a word's states are read: a span off the word (or out of its context) is a
    one-line error naming the row when the data loads, before a model does."""
    import shutil

    import datasets

    from wordbench.benchmarks.hub import load_data
    from wordbench.errors import DataFormatError

    folder = shutil.copytree(vast_data, tmp_path / "bad")
    parquet = next((folder / "data" / "default").glob("test-*.parquet"))
    rows = datasets.Dataset.from_parquet(str(parquet)).to_list()
    assert all(r["context"][r["start"]:r["end"]].lower() == r["word"].lower() for r in rows)  # as built
    rows[2].update(change)
    datasets.Dataset.from_list(rows, features=datasets.Dataset.from_parquet(str(parquet)).features).to_parquet(str(parquet))
    with pytest.raises(DataFormatError, match=rf"row 3 \(id {rows[2]['id']}\): the word .* is not at "):
        load_data("vast", str(folder), progress=False)


def test_a_span_inside_a_longer_word_is_refused():
    """The model's states of ``context[start:end]`` are pooled: "happy" inside "unhappy" would pool that word's pieces,
    so a span must start and end at word boundaries (a character boundary in a script without spaces)."""
    from wordbench.builders.vast import span_problem

    assert "inside a longer word" in span_problem("happy", "He was unhappy.", 9, 14)
    assert "inside a longer word" in span_problem("happy", "happyness rules", 0, 5)
    assert span_problem("happy", "He was happy.", 7, 12) is None
    assert span_problem("happy", "a happy-go-lucky day", 2, 7) is None  # a hyphen is a boundary
    assert span_problem("好", "这很好吃", 2, 3) is None  # Chinese has no spaces: every character boundary counts
    assert "inside a longer word" in span_problem("Glück", "Unglück kommt", 2, 7)
