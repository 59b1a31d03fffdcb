import json

import pytest

from wordbench.scorers.wnlampro import PATTERNS, TOP, WNLaMProScorer, fill, rank_and_precision, rank_count_grid


def test_seventeen_patterns_and_filling():
    assert sum(len(p) for p in PATTERNS.values()) == 17
    assert fill("<A> <W> is a ___", "owl") == ("an owl is a ", " .")
    assert fill("<A> <W> is a kind of ___", "dog") == ("a dog is a kind of ", " .")
    assert fill('" <W> " and " ___ "', "cat") == ('" cat " and " ', ' " .')
    assert fill('" <W> " . did you mean " ___ " ?', "dgo") == ('" dgo " . did you mean " ', ' " ?')
    # a keyword holding the slot (or a pattern's other markers) as text of its own is text, not a second slot
    assert fill("<A> <W> is a ___", "a___b") == ("an a___b is a ", " .")
    assert fill("<W> is not ___", "<W>") == ("<W> is not ", " .")
    assert fill("<W> is a ___", "U.S.") == ("U.S. is a ", " .")
    assert fill('" <W> " is a misspelling of " ___ " .', "dgo")[1] == ' " .'
    assert fill("<W> is a ___", "dog", faithful=True) == ("dog is a ", ".")  # the authors append "." with no space


def test_hand_computed_rank_mrr_and_precision():
    predictions = [["cat", "animal", "pet", "thing"], ["pet", "dog", "animal"]]
    r = rank_and_precision(predictions, ["animal", "pet"])
    assert r["rank"] == 1 and r["rr"] == 1.0 and r["best_pattern"] == 1
    assert r["p@3"] == pytest.approx(2 / 3) and r["p@10"] == pytest.approx(2 / 10)
    r = rank_and_precision([["a", "b", "c", "x"]], ["x"])
    assert r["rank"] == 4 and r["rr"] == 0.25 and r["p@3"] == 0.0 and r["p@10"] == 0.1
    r = rank_and_precision([["w"] * 5 + [f"w{i}" for i in range(200)]], ["w150"])
    assert r["rank"] is None and r["rr"] == 0.0  # past the top 100


def test_summary_reports_bins_with_ten_entries():
    records = [{"id": str(i), "relation": "hypernym", "keyword_bin": "rare", "rr": 1.0 / (i + 1), "p@3": 0.0, "p@10": 0.1} for i in range(10)]
    records += [{"id": "x", "relation": "hypernym", "keyword_bin": "medium", "rr": 1.0, "p@3": 1.0, "p@10": 1.0}]
    m = WNLaMProScorer().summarize(records)
    assert m["hypernym"]["rare"]["mrr"] == pytest.approx(sum(1 / (i + 1) for i in range(10)) / 10, abs=1e-4)
    lo, hi = m["hypernym"]["rare"]["mrr_ci"]
    assert 0.1 <= lo < m["hypernym"]["rare"]["mrr"] < hi <= 1.0
    assert m["hypernym"]["medium"] == {"n": 1}
    assert m["hypernym"]["all"]["n"] == 11
    assert "rare_vs_frequent" not in m["hypernym"]  # no frequent entries


def test_rare_vs_frequent_test_and_report_cells():
    records = [{"id": f"r{i}", "relation": "antonym", "keyword_bin": "rare", "rr": 0.0, "p@3": 0.0, "p@10": 0.0} for i in range(12)]
    records += [{"id": f"f{i}", "relation": "antonym", "keyword_bin": "frequent", "rr": 1.0, "p@3": 0.3, "p@10": 0.1} for i in range(12)]
    records += [{"id": f"m{i}", "relation": "antonym", "keyword_bin": "medium", "rr": 1.0, "p@3": 0.3, "p@10": 0.1} for i in range(3)]
    scorer = WNLaMProScorer()
    m = scorer.summarize(records)
    assert m["antonym"]["rare_vs_frequent"]["difference"] == -1.0 and m["antonym"]["rare_vs_frequent"]["p"] < 0.001
    summary = {"model": {"name": "m"}, "metrics": m, "split": "test", "signature": "sig"}
    report = scorer.report([summary])
    assert "| m | ANT | 0.000 [0.000, 0.000] (12) | n<10 (3) | 1.000 [1.000, 1.000] (12) | -1.000 (p=" in report


def test_figure3_power_of_two_bins(tmp_path):
    # (count, rank): count 256 is in (128, 256] -> "2^8"; 257 in (256, 512] -> "2^9"; rank 16 in (8, 16] -> row 4
    records = [{"keyword_count": 256.0, "rank": 16}, {"keyword_count": 257.0, "rank": 17}, {"keyword_count": 0.0, "rank": None},
               {"keyword_count": 256.0, "rank": 1}, {"keyword_count": 300.0, "rank": 100}]
    grid, labels = rank_count_grid(records)
    assert labels == ["0", "2^8", "2^9"]  # empty columns 2^0..2^7 dropped
    assert grid.shape == (9, 3) and grid.sum() == 5
    assert grid[4, 1] == 1 and grid[0, 1] == 1 and grid[5, 2] == 1 and grid[7, 2] == 1  # 17 -> (16, 32]; 100 -> (64, 128]
    assert grid[8, 0] == 1  # past the top 100
    run = [dict(r, relation="cohyponym") for r in records]
    assert WNLaMProScorer._rank_heatmap(run, tmp_path) == "cohyponym_rank_heatmap.png"
    assert WNLaMProScorer._rank_heatmap([], tmp_path) == "cohyponym_rank_heatmap.png"  # no entries: an empty figure


def test_masked_ranks_over_the_whole_vocabulary(tiny_models):
    """The paper ranks every token: ``##`` pieces take ranks (and never match); the old word-start
    restriction moved targets up."""
    from wordbench.scorers.models import load_model

    model = load_model(str(tiny_models["bert"]), device="cpu", batch_size=4)
    scorer = WNLaMProScorer()
    assert scorer.settings_for(model.family)["word_start_only"] is False
    left, right = fill("<W> and ___", "dog")
    words = scorer.predicted_words(model, [left], [right])[0]
    assert any(w.startswith("##") for w in words)  # pieces are ranked
    ids, _ = model.topk_next([left], len(model.words.words), right_contexts=[right])[0]
    labels = scorer.token_labels(model)
    assert words == list(dict.fromkeys(labels[int(i)] for i in ids))[:TOP]
    restricted = WNLaMProScorer(word_start_only=True).predicted_words(model, [left], [right])[0]
    assert not any(w.startswith("##") for w in restricted)
    pieces_before = [w for w in words if w.startswith("##")]
    target = next(w for w in words if not w.startswith("##") and words.index(w) > words.index(pieces_before[0]))
    full_rank = rank_and_precision([words], [target])["rank"]
    assert full_rank == words.index(target) + 1
    assert rank_and_precision([restricted], [target])["rank"] < full_rank


def test_word_start_only_option_and_signature(tiny_models):
    from wordbench.errors import ConfigError
    from wordbench.scorers.models import load_model

    causal = WNLaMProScorer()
    assert causal.signature_settings(load_model(str(tiny_models["gpt2"]), device="cpu").family)["word_start_only"] is True
    assert causal.signature_settings()["word_start_only"] == "auto"  # no model yet: the option's own value
    assert WNLaMProScorer(word_start_only="false").settings["word_start_only"] is False
    assert WNLaMProScorer(faithful=True).signature_settings()["faithful"]  # the paper's id (registry) or "paper"
    with pytest.raises(ConfigError):
        WNLaMProScorer(word_start_only="maybe")


@pytest.mark.parametrize("name", ["gpt2", "bert"])
def test_score_end_to_end_and_resume(tiny_models, wnlampro_file, tmp_path, name, monkeypatch):
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model

    model = load_model(str(tiny_models[name]), device="cpu", batch_size=3)
    scorer_cls = WNLaMProScorer
    monkeypatch.setattr(scorer_cls, "chunk_size", 2)
    calls = {"n": 0}
    original = scorer_cls.score

    def flaky(self, m, items):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # killed after the first chunk
        return original(self, m, items)

    monkeypatch.setattr(scorer_cls, "score", flaky)
    with pytest.raises(KeyboardInterrupt):
        score("wnlampro", model, str(wnlampro_file), "test", None, tmp_path / "runs", progress=False)
    monkeypatch.setattr(scorer_cls, "score", original)
    run = score("wnlampro", model, str(wnlampro_file), "test", None, tmp_path / "runs", progress=False)
    lines = (run.path / "records.jsonl").read_text().splitlines()
    ids = [json.loads(line)["id"] for line in lines]
    assert sorted(ids) == ["1", "2", "4", "5", "6"]  # each test entry once, none lost or duplicated
    summary = json.loads((run.path / "summary.json").read_text())
    assert summary["n"] == 5 and summary["model"]["family"] == model.family
    assert "Table 6" in (run.path / "report.md").read_text()
    assert (run.path / "plots" / "mrr_by_bin.png").exists() and (run.path / "plots" / "cohyponym_rank_heatmap.png").exists()
    # batch size does not change the records
    model.sizer.size = 1
    again = score("wnlampro", model, str(wnlampro_file), "test", None, tmp_path / "runs-bs1", progress=False)
    key = lambda r: r["id"]  # noqa: E731
    a = sorted((json.loads(x) for x in lines), key=key)
    b = sorted((json.loads(x) for x in (again.path / "records.jsonl").read_text().splitlines()), key=key)
    assert [(r["id"], r["rank"], r["top10"]) for r in a] == [(r["id"], r["rank"], r["top10"]) for r in b]


def test_torn_last_line_is_dropped_on_resume(tmp_path):
    from wordbench.benchmarks.results import RunFolder

    run = RunFolder(tmp_path)
    run.append([{"id": "a"}, {"id": "b"}])
    with open(run.records_path, "a") as f:
        f.write('{"id": "c", "ra')  # killed mid-write
    assert run.done_ids() == {"a", "b"}
    run.append([{"id": "c"}])
    assert [r["id"] for r in run.records()] == ["a", "b", "c"]


def test_record_query_is_the_input_the_model_saw(tiny_models):
    from wordbench.scorers.models import load_model

    model = load_model(str(tiny_models["gpt2"]), device="cpu")
    item = {"id": "hypernym/dog", "key": "dog", "relation": "hypernym", "keyword_bin": "frequent", "keyword_count": 1.0, "targets": ["animal"]}
    for faithful, end in ((False, "___ ."), (True, "___.")):
        scorer = WNLaMProScorer(faithful=faithful)
        scorer.run_info(model)
        query = scorer.score(model, [item])[0]["query"]
        assert query.endswith(end) and "dog" in query, query  # the authors' "." with no space under --faithful


def test_reachable_share_and_mrr_over_reachable_entries(tiny_models):
    """An entry whose targets the model cannot rank (no word-start token spells them) is counted as unreachable;
    the cell reports the share and the MRR over the reachable entries only."""
    from wordbench.scorers.models import load_model

    model = load_model(str(tiny_models["gpt2"]), device="cpu")
    scorer = WNLaMProScorer()
    scorer.run_info(model)
    producible = scorer.producible(model)
    word = next(iter(sorted(producible)))
    items = [{"id": f"h{i}", "key": "dog", "relation": "hypernym", "keyword_bin": "rare", "keyword_count": 0.0,
              "targets": [word] if i % 2 else ["zzqxjunreachable"]} for i in range(4)]
    records = scorer.score(model, items)
    assert [r["reachable"] for r in records] == [False, True, False, True]
    rows = [{"id": str(i), "relation": "cohyponym", "keyword_bin": "rare", "rr": 0.5 if i < 10 else 0.0, "reachable": i < 10,
             "p@3": 0.0, "p@10": 0.0} for i in range(20)]
    cell = scorer.summarize(rows)["cohyponym"]["rare"]
    assert cell["reachable"] == 0.5 and cell["mrr"] == 0.25 and cell["mrr_reachable"] == 0.5
    summary = {"model": {"name": "m"}, "split": "test", "metrics": scorer.summarize(rows), "signature": "wnlampro@1|freq:wordfreq-3|x"}
    report = scorer.report([summary])
    assert "| cohyponym | rare | 20 | 0.250 |" in report and "| 50% | 0.500 |" in report
    assert "not the paper's 'seen 1-9 times" in report


def test_figure3_merges_short_columns():
    import numpy as np

    from wordbench.scorers.wnlampro import merge_columns

    grid = np.zeros((9, 5))
    grid[0, :] = [24, 4, 6, 10, 3]  # column totals: "0" 24, then 4 + 6, 10, and a short rest of 3
    merged, labels = merge_columns(grid, ["0", "2^4", "2^5", "2^6", "2^7"], 10)
    assert labels == ["0", "2^4-2^5", "2^6-2^7"] and merged.sum(0).tolist() == [24, 10, 13]
    merged, labels = merge_columns(grid[:, 1:3], ["2^4", "2^5"], 20)  # never enough: one column with everything
    assert labels == ["2^4-2^5"] and merged.sum() == 10
