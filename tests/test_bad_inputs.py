"""Bad input through the CLI: a one-line error (exit 1 or 2), never a traceback, never a silent wrong result."""

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from wordbench.benchmarks.cli import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture()
def runner():
    return CliRunner()


def assert_one_line_error(result, *needles):
    assert result.exit_code in (1, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit), result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for needle in needles:
        assert needle in errors[0], errors[0]


# --- builder configs: types and ranges (a negative size must not act as a Python slice) ------------------
BUILD_CASES = [
    ("wnlampro", "sede=1", "unknown config key 'sede'"),
    ("wnlampro", "dev_fraction=-0.5", "'dev_fraction' must be >= 0"),
    ("wnlampro", "dev_fraction=1.5", "'dev_fraction' must be < 1"),
    ("wnlampro", "seed=abc", "'seed' expects an integer"),
    ("wordpred", "max_lines=-2", "'max_lines' must be >= 1"),
    ("wordpred", "max_lines=0", "'max_lines' must be >= 1"),
    ("wordpred", "reference_tokens=0", "'reference_tokens' must be >= 1"),
    ("wordpred", "w2v_dim=0", "'w2v_dim' must be >= 1"),
    ("wordpred", "min_words=-1", "'min_words' must be >= 1"),
    ("wordpred", "test_fraction=2", "'test_fraction' must be < 1"),
    ("wordpred", "faithful=flase", "'faithful' expects true or false"),
    ("tendencies", "max_documents=-1", "'max_documents' must be >= 1"),
    ("tendencies", "min_words=abc", "'min_words' expects an integer"),
    ("vast", "max_words=-5", "'max_words' must be >= 1"),
    ("vast", "window=-3", "'window' must be >= 1"),
    ("vast", "window=0", "'window' must be >= 1"),
    ("vast", "scale_low=5", "give scale_low and scale_high together"),  # alone it used to be ignored silently
    ("minpairs", "max_pairs=-5", "'max_pairs' must be >= 1"),
    ("minpairs", "mt_beam=0", "'mt_beam' must be >= 1"),
    ("minpairs", "mt_max_new_tokens=-1", "'mt_max_new_tokens' must be >= 1"),
    ("paraphrase", "n_rare=-1", "'n_rare' must be >= 1"),
]


@pytest.mark.parametrize("name,override,needle", BUILD_CASES)
def test_build_config_values_are_checked(name, override, needle):
    from wordbench.benchmarks.registry import get
    from wordbench.builders.base import parse_overrides
    from wordbench.errors import ConfigError

    cls = get(name).builder().Config
    if needle is None:
        parse_overrides(cls, [override])
        return
    with pytest.raises(ConfigError) as exc:
        parse_overrides(cls, [override])
    assert needle in str(exc.value) and "\n" not in str(exc.value)


@pytest.mark.parametrize("overrides,needle", [
    (["scale_low=5", "scale_high=5"], "scale_low (5.0) must be below scale_high (5.0)"),
    (["high=10", "mid=100", "low=1000"], "high > mid > low"),
])
def test_ordered_thresholds(overrides, needle):
    from wordbench.benchmarks.registry import get
    from wordbench.builders.base import parse_overrides
    from wordbench.errors import ConfigError

    name = "vast" if "scale_low=5" in overrides else "wordpred"
    with pytest.raises(ConfigError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        parse_overrides(get(name).builder().Config, overrides)


def test_api_config_none_and_wrong_types():
    from wordbench.benchmarks.registry import get
    from wordbench.builders.base import parse_overrides
    from wordbench.errors import ConfigError

    cfg = get("wordpred").builder().Config
    with pytest.raises(ConfigError, match="'min_words' cannot be none"):
        parse_overrides(cfg, {"min_words": None})
    with pytest.raises(ConfigError, match="'min_words' expects an integer"):
        parse_overrides(cfg, {"min_words": 2.5})
    assert parse_overrides(cfg, {"max_lines": None}).max_lines is None


def test_cli_build_errors(runner, tmp_path):
    assert_one_line_error(runner.invoke(cli, ["build", "vast", "--set", "window=-3"]), "'window' must be >= 1")
    assert_one_line_error(runner.invoke(cli, ["build", "nope"]), "unknown benchmark 'nope'")
    assert_one_line_error(runner.invoke(cli, ["build", "wnlampro", "--set", "noequals"]), "is not KEY=VALUE")
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert runner.invoke(cli, ["build", "wnlampro", "--out", str(a_file)]).exit_code == 2
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    assert_one_line_error(runner.invoke(cli, ["build", "wnlampro", "--out", str(foreign)]), "holds no wordbench build")
    assert (foreign / "keep.txt").read_text() == "mine"


# --- scoring: options, model flags, data files --------------------------------------------------------------
@pytest.mark.parametrize("args,needles", [
    (["--batch-size", "abc"], ["'abc' is not auto or a positive integer"]),
    (["--batch-size", "0"], ["'0' is not auto or a positive integer"]),
    (["--batch-size", "-3"], ["'-3' is not auto or a positive integer"]),
    (["--device", "foo"], ["unknown device 'foo'"]),
    (["--device", "cuda:7"], ["cuda:7"]),
    (["--dtype", "int3"], ["unknown dtype 'int3'"]),
    (["--family", "rnn"], ["'rnn' is not one of"]),
    (["--option", "top=5"], ["unknown scoring option 'top' for wnlampro.Options"]),
    (["--option", "noequals"], ["'noequals' is not KEY=VALUE"]),
    (["--option", "faithful=flase"], ["'faithful' expects true or false"]),
    (["--split", "train"], ["'train' is not one of"]),
    (["--limit", "0"], ["0 is not in the range x>=1"]),
    (["--limit", "-5"], ["-5 is not in the range x>=1"]),
    (["--config", "nope"], ["no dataset config 'nope'"]),
])
def test_score_option_errors(runner, tiny_models, wnlampro_file, tmp_path, args, needles):
    base = ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--data", str(wnlampro_file), "--out", str(tmp_path / "runs")]
    assert_one_line_error(runner.invoke(cli, base + args), *needles)


@pytest.mark.parametrize("name,option,needle", [
    ("tendencies", "n=abc", "'n' expects an integer"),
    ("tendencies", "max_new_tokens=-1", "'max_new_tokens' must be >= 1"),
    ("tendencies", "bigrams=flase", "'bigrams' expects true or false"),
    ("vast", "layer=abc", "'layer' expects an integer"),
    ("vast", "n_resamples=-1", "'n_resamples' must be >= 1"),
    ("minpairs", "beam=abc", "'beam' expects an integer"),
    ("minpairs", "max_new_tokens=-1", "'max_new_tokens' must be >= 1"),
    ("minpairs", "reduce=median", "'reduce' must be one of mean, sum"),
    ("wordpred", "dudy2020=flase", "'dudy2020' expects true or false"),
])
def test_scoring_options_are_typed(runner, tiny_models, tmp_path, name, option, needle):
    result = runner.invoke(cli, ["score", name, "--model", str(tiny_models["gpt2"]), "--option", option, "--out", str(tmp_path)])
    assert_one_line_error(result, needle)


def test_bad_data_files(runner, tiny_models, tmp_path):
    base = ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--out", str(tmp_path / "runs")]
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("1\ttest\tcaf\xe9 (n,1,1)\tantonym\tbad (a,1,1)\n".encode("latin-1"))
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    for path in (latin1, empty):
        result = runner.invoke(cli, base + ["--data", str(path)])
        assert_one_line_error(result, path.name)
    assert_one_line_error(runner.invoke(cli, base + ["--data", str(tmp_path / "missing.txt")]), "not found")


def test_truncated_parquet(runner, tiny_models, tmp_path):
    import datasets

    folder = tmp_path / "build"
    (folder / "data" / "default").mkdir(parents=True)
    (folder / "signature.json").write_text(json.dumps({"benchmark": "wnlampro", "signature": "wnlampro@test"}))
    test = folder / "data" / "default" / "test-00000-of-00001.parquet"
    datasets.Dataset.from_dict({"id": ["a", "b"]}).to_parquet(str(test))
    test.write_bytes(test.read_bytes()[:200])
    result = runner.invoke(cli, ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--data", str(folder), "--out", str(tmp_path / "runs")])
    assert_one_line_error(result, "not a readable parquet file")


def test_truncated_gguf_and_bad_model_files(runner, tiny_models, wnlampro_file, tmp_path):
    gguf = tmp_path / "broken.gguf"
    gguf.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\x00" * 7)
    base = ["score", "wnlampro", "--data", str(wnlampro_file), "--out", str(tmp_path / "runs")]
    assert_one_line_error(runner.invoke(cli, base + ["--model", str(gguf)]), "cannot load")
    assert_one_line_error(runner.invoke(cli, base + ["--model", str(tiny_models["gpt2-pickle"])]), "--allow-pickle")
    assert_one_line_error(runner.invoke(cli, base + ["--model", str(tiny_models["bert-encoder"])]), "needs a causal")


def test_records_and_summaries(runner, tiny_models, wnlampro_file, tmp_path):
    args = ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--data", str(wnlampro_file), "--split", "all",
            "--out", str(tmp_path / "runs")]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    run = result.output.strip().splitlines()[-1].split("run folder: ")[1]
    records = os.path.join(run, "records.jsonl")
    lines = open(records).read().splitlines()
    # A duplicated record is read once: n stays the number of items.
    with open(records, "a") as f:
        f.write(lines[0] + "\n")
    result = runner.invoke(cli, args)
    assert result.exit_code == 0 and json.load(open(os.path.join(run, "summary.json")))["n"] == 6
    assert "duplicate record id" in result.output
    # A record without an id names its line.
    with open(records, "a") as f:
        f.write('{"score": 1}\n')
    assert_one_line_error(runner.invoke(cli, args), "records.jsonl:8", "without an id")
    # report on a corrupt summary, on an unfinished run.
    with open(os.path.join(run, "summary.json"), "w") as f:
        f.write("{not json")
    assert_one_line_error(runner.invoke(cli, ["report", run]), "summary.json", "not a JSON summary")
    os.remove(os.path.join(run, "summary.json"))
    assert_one_line_error(runner.invoke(cli, ["report", run]), "no finished run")


def test_out_must_be_a_folder(runner, tiny_models, wnlampro_file, tmp_path):
    a_file = tmp_path / "runs-file"
    a_file.write_text("")
    result = runner.invoke(cli, ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--data", str(wnlampro_file), "--out", str(a_file)])
    assert result.exit_code == 2 and "is a file" in result.output


def test_publish_bad_repo_id(runner):
    result = runner.invoke(cli, ["publish", "wnlampro", "--repo-id", "not a valid//repo id!!", "--version", "1.0.0", "--dry-run"])
    assert_one_line_error(result, "repo id")


def test_run_folder_lock_names_the_pid(tmp_path):
    from wordbench.benchmarks.results import RunFolder
    from wordbench.errors import ConfigError

    run = RunFolder(tmp_path)
    code = ("import sys, time\n"
            "from wordbench.benchmarks.results import RunFolder\n"
            "with RunFolder(%r).lock():\n    print('held', flush=True); time.sleep(30)\n") % str(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ConfigError, match=f"PID {holder.pid}"):
            with run.lock():
                pass
    finally:
        holder.kill()
        holder.wait()
    with run.lock():  # released when the holder dies
        pass


# --- models that cannot be scored: refused before their weights are read -----------------------
def _copy_model(src, dst):
    import shutil

    shutil.copytree(src, dst)
    return dst


def test_a_model_without_tokenizer_files_is_refused(runner, tiny_models, wnlampro_file, tmp_path):
    model = _copy_model(tiny_models["gpt2"], tmp_path / "no-tok")
    for f in model.iterdir():
        if f.name not in ("config.json", "model.safetensors", "generation_config.json"):
            f.unlink()
    args = ["score", "wnlampro", "--model", str(model), "--data", str(wnlampro_file), "--out", str(tmp_path / "runs")]
    assert_one_line_error(runner.invoke(cli, args), "has no tokenizer files")
    assert not (tmp_path / "runs").exists() or not list((tmp_path / "runs").rglob("records.jsonl"))


def test_a_tokenizer_that_does_not_fit_the_model_is_refused(tiny_models, tmp_path):
    from wordbench.scorers.models import ModelError, plan_model

    model = _copy_model(tiny_models["gpt2"], tmp_path / "small-vocab")
    config = json.loads((model / "config.json").read_text())
    config["vocab_size"] = 40  # the tokenizer's ids go far beyond
    (model / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelError, match="the tokenizer has ids up to .* vocabulary has 40 tokens"):
        plan_model(str(model), device="cpu")


def test_a_missing_head_is_refused_not_initialised(runner, tiny_models, wnlampro_file, tmp_path):
    from wordbench.scorers.models import ModelError, load_model

    with pytest.raises(ModelError, match=r"lacks \d+ weight\(s\) the masked family needs.*cls\.predictions.*--family encoder"):
        load_model(str(tiny_models["bert-encoder"]), family="masked", device="cpu")
    args = ["score", "wnlampro", "--model", str(tiny_models["bert-encoder"]), "--family", "masked", "--data", str(wnlampro_file),
            "--out", str(tmp_path / "runs")]
    assert_one_line_error(runner.invoke(cli, args), "randomly initialised")
    assert load_model(str(tiny_models["bert-encoder"]), family="encoder", device="cpu").family == "encoder"  # as an encoder it is whole


def test_a_missing_model_path_is_named_before_the_data_loads(runner, monkeypatch, tmp_path):
    from wordbench.benchmarks import hub

    def no_data(*args, **kwargs):
        raise AssertionError("the data was loaded before the model path was checked")

    monkeypatch.setattr(hub, "load_data", no_data)
    result = runner.invoke(cli, ["score", "minpairs", "--model", str(tmp_path / "nonexistent"), "--out", str(tmp_path / "runs")])
    assert_one_line_error(result, "does not exist")


def test_a_busy_run_folder_is_reported_before_the_weights_load(tiny_models, wnlampro_file, tmp_path):
    import fcntl

    from wordbench.benchmarks.runner import score
    from wordbench.errors import ConfigError
    from wordbench.scorers.models import plan_model

    run = score("wnlampro", plan_model(str(tiny_models["gpt2"]), device="cpu"), str(wnlampro_file), out=tmp_path / "runs", progress=False)
    plan = plan_model(str(tiny_models["gpt2"]), device="cpu")
    loads = []
    original = plan.load
    plan.load = lambda: loads.append(1) or original()
    with open(run.path / "run.lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another process scoring the same run
        with pytest.raises(ConfigError, match="being scored by another process"):
            score("wnlampro", plan, str(wnlampro_file), out=tmp_path / "runs", progress=False)
        fcntl.flock(held, fcntl.LOCK_UN)
    assert loads == []  # the weights were never read


# --- release files and tables: one strict reader rule ------------------------------------------------------
LEXICON_CASES = [
    ("word,valence,valence\nhappy,8.5,1.0\nsad,1.5,9.0\n", "'valence' appears twice"),
    ("word,valence\nhappy,8.5,extra\nsad,1.5\n", ":2: 3 fields, but the header has 2"),
    ('word,valence\n"hap\npy",8.5\nsad,1.5\n', "holds a line break"),
    ("word,valence\nhappy,8.5\nsad,nan\n", "outside the scale"),
    ("word,valence\nhap\0py,8.5\n", "a NUL byte"),
]


@pytest.mark.parametrize("text,needle", LEXICON_CASES)
def test_lexicon_tables_are_read_strictly(tmp_path, text, needle):
    from wordbench.builders.sources.lexica import load_lexicon
    from wordbench.errors import DataFormatError

    path = tmp_path / "lex.csv"
    path.write_text(text)
    with pytest.raises(DataFormatError) as exc:
        load_lexicon(str(path), "word", "valence", (1.0, 9.0))
    assert needle in str(exc.value) and str(path) in str(exc.value) and "\n" not in str(exc.value)


def test_a_duplicated_column_that_is_not_read_is_fine(tmp_path):
    from wordbench.builders.sources.lexica import load_lexicon

    path = tmp_path / "lex.csv"
    path.write_text("word,valence,SD,SD\nhappy,8.5,1,2\nsad,1.5,1,2\n")
    assert load_lexicon(str(path), "word", "valence", (1.0, 9.0)).valence == {"happy": 8.5, "sad": 1.5}


WNLAMPRO_CASES = [
    ("1\ttest\tgood (a,5.5,-300)\tantonym\tbad (a,5.3,200000)\n", ":1: count in 'good (a,5.5,-300)' must be a finite number >= 0"),
    ("1\ttest\tgood (a,5.5,nan)\tantonym\tbad (a,5.3,200000)\n", "must be a finite number >= 0"),
    ("1\ttest\tgood (a,5.5,inf)\tantonym\tbad (a,5.3,200000)\n", "must be a finite number >= 0"),
    ("1\ttest\tgood (a,5.5,300)\tantonym\t\tbad (a,5.3,200000)\n", ":1: an empty TARGET field"),
    ("1\ttest\tgo\0od (a,5.5,300)\tantonym\tbad (a,5.3,200000)\n", ":1: a NUL byte"),
    ("1\ttest\tgood (a,5.5,300)\tantonym\tbad (a,5.3,2)\n1\ttest\tdog (n,5.1,125000)\thypernym\tanimal (n,4.9,80000)\n",
     ":2: the id '1' is already on line 1"),
    # fields no model can match, or that score a hit by construction
    ("1\ttest\tdog (n,high,125000)\thypernym\tanimal (n,4.9,80000)\n", ":1: zipf in 'dog (n,high,125000)' is not a number"),
    ("1\ttest\tdog (noun,5.1,125000)\thypernym\tanimal (n,4.9,80000)\n", "part of speech in 'dog (noun,5.1,125000)' must be one of"),
    ("1\ttest\tdog (n,5.1,125000)\thypernym\tdomestic animal (n,4.9,80000)\n", "holds a space (one word per field)"),
    ("1\ttest\tDog (n,5.1,125000)\thypernym\tanimal (n,4.9,80000)\n", "the word has capitals"),
    ("1\ttest\tdog (n,5.1,125000)\thypernym\tanimal (n,4.9,80000)\tdog (n,5.1,125000)\n", "the keyword 'dog' is among its own targets"),
]


@pytest.mark.parametrize("text,needle", WNLAMPRO_CASES)
def test_wnlampro_release_lines_are_read_strictly(tmp_path, text, needle):
    from wordbench.builders.wnlampro import read_wnlampro_txt
    from wordbench.errors import DataFormatError

    path = tmp_path / "WNLaMPro.txt"
    path.write_text(text)
    with pytest.raises(DataFormatError) as exc:
        read_wnlampro_txt(path)
    assert needle in str(exc.value) and str(path) in str(exc.value), str(exc.value)


def test_wnlampro_release_tolerates_a_bom_crlf_and_a_trailing_tab(tmp_path):
    from wordbench.builders.wnlampro import read_wnlampro_txt

    path = tmp_path / "WNLaMPro.txt"
    path.write_bytes(b"\xef\xbb\xbf" + "1\ttest\tgood (a,5.5,300)\tantonym\tbad (a,5.3,200)\t\r\n".encode())
    row = read_wnlampro_txt(path)["test"][0]
    assert row["id"] == "1" and row["targets"] == ["bad"]


# --- outputs, signature files, option syntax, degenerate statistics --------------------------------------
def test_unwritable_outputs_fail_before_the_work(runner, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert_one_line_error(runner.invoke(cli, ["build", "tendencies", "--out", str(blocker / "sub")]), "cannot write into")
    assert_one_line_error(runner.invoke(cli, ["export", "lm-eval", "minpairs", "--out", str(blocker / "sub")]), "cannot write into")
    assert_one_line_error(runner.invoke(cli, ["score", "tendencies", "--option", "baseline=trigram", "--out", str(blocker / "sub")]),
                          "cannot write into")


@pytest.mark.parametrize("content", ["[1, 2]", '"just text"', '{"benchmark": "wnlampro"}', "{}"])
def test_a_signature_file_that_is_not_an_object(runner, tiny_models, tmp_path, content):
    folder = tmp_path / "data"
    (folder / "data" / "default").mkdir(parents=True)
    (folder / "signature.json").write_text(content)
    result = runner.invoke(cli, ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--data", str(folder), "--out", str(tmp_path / "runs")])
    assert_one_line_error(result, "not a wordbench signature file")


def test_minpairs_parallel_with_one_file(runner, tmp_path):
    one = tmp_path / "pairs.en"
    one.write_text("a dog\n")
    assert_one_line_error(runner.invoke(cli, ["build", "minpairs", "--set", f"parallel={one}"]), "'parallel'", "two line-aligned files")


def test_a_constant_valence_lexicon_stops_before_the_model(tmp_path):
    from wordbench.errors import DataFormatError
    from wordbench.scorers.base import RunContext
    from wordbench.scorers.vast import VASTScorer

    import datasets

    rows = [{"id": f"w{i}", "word": w, "group": "lexicon", "setting": "bleached", "valence": 5.0} for i, w in enumerate(["a", "b", "c", "d"])]
    data = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})}
    with pytest.raises(DataFormatError, match="every lexicon word has the valence 5.0"):
        VASTScorer().prepare(RunContext(data=data))
    few = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows[:2])})}
    with pytest.raises(DataFormatError, match="needs at least 3"):
        VASTScorer().prepare(RunContext(data=few))


def test_an_empty_split_and_an_unscored_config_are_refused(runner, tiny_models, tmp_path):
    import datasets

    only_test = tmp_path / "WNLaMPro.txt"
    only_test.write_text("1\ttest\tgood (a,5.5,300000)\tantonym\tbad (a,5.3,200000)\n")
    base = ["score", "wnlampro", "--model", str(tiny_models["gpt2"]), "--out", str(tmp_path / "runs")]
    assert_one_line_error(runner.invoke(cli, base + ["--data", str(only_test), "--split", "dev"]), "the dev split", "has no rows")
    folder = tmp_path / "wp"
    for config, row in [("default", {"id": "line-0", "text": "the dog is here", "words": ["the", "dog", "is", "here"],
                                     "bins": ["high"] * 4, "rates": [1e6] * 4}),
                        ("types", {"id": "type-0", "word": "dog", "bin": "high", "rate": 1e6, "train_count": 5, "events": 1,
                                   "neighbours": ["cat"]})]:
        (folder / "data" / config).mkdir(parents=True)
        datasets.Dataset.from_list([row]).to_parquet(str(folder / "data" / config / "test-00000-of-00001.parquet"))
    (folder / "signature.json").write_text(json.dumps({"benchmark": "wordpred", "signature": "wordpred@test"}))
    result = runner.invoke(cli, ["score", "wordpred", "--model", str(tiny_models["gpt2"]), "--data", str(folder), "--config", "types",
                                 "--out", str(tmp_path / "runs")])
    assert_one_line_error(result, "'types' config of wordpred data is not scored")


def test_missing_source_files_are_named_not_a_traceback(runner, tmp_path):
    for spec in (f"{tmp_path}/a.en,{tmp_path}/b.de", f"ding:{tmp_path}/nope"):
        assert_one_line_error(runner.invoke(cli, ["build", "minpairs", "--set", f"parallel={spec}"]), "does not exist")


@pytest.mark.parametrize("prompt", ["E: {source} {oops}", "E: {source", "E: {source} }", "E: {source!r}", "E: {}", "no field"])
def test_every_user_template_is_checked_when_options_are_parsed(tiny_models, tmp_path, monkeypatch, prompt):
    """Scoring, export, build and translate prompts: one line naming what is wrong, before any model or data loads."""
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli
    from wordbench.scorers.models import ModelPlan

    monkeypatch.setattr(ModelPlan, "load", lambda self: pytest.fail("weights loaded"))
    runs = [["score", "minpairs", "--model", str(tiny_models["gpt2"]), "--option", f"prompt={prompt}", "--out", str(tmp_path / "r")],
            ["export", "lm-eval", "minpairs", "--out", str(tmp_path / "x"), "--prompt", prompt],
            ["build", "minpairs", "--set", f"mt_prompt={prompt}", "--set", f"mt_model={tiny_models['gpt2']}", "--out", str(tmp_path / "b")],
            ["translate", "--model", str(tiny_models["gpt2"]), "--prompt", prompt, "--out", str(tmp_path / "t.de")]]
    for args in runs:
        result = CliRunner().invoke(cli, args)
        assert result.exit_code != 0 and "Traceback" not in result.output, (args[:2], result.output)
        assert any(w in result.output for w in ("{source}", "template", "brace")), (args[:2], result.output)
        assert len(result.output.strip().splitlines()) == 1, (args[:2], result.output)


def test_every_output_path_is_checked_before_the_work(tiny_models, wnlampro_file, tmp_path):
    """report --out, leaderboard --out/--html and translate --out: a missing folder or a folder in place of the file is
    one line before the work, and the work is not lost to a traceback after it."""
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli
    from wordbench.benchmarks.leaderboard import collect
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model

    run = score("wnlampro", load_model(str(tiny_models["gpt2"]), device="cpu"), str(wnlampro_file), out=tmp_path / "runs", progress=False)
    collect([run.path], tmp_path / "results")
    (tmp_path / "adir").mkdir()
    bad = {"missing": (str(tmp_path / "missing" / "r.md"), ("does not exist",)),
           "folder": (str(tmp_path / "adir"), ("is a folder", "is a directory"))}  # click's own check where the option declares it
    for target, expected in bad.values():
        for args in (["report", str(run.path), "--out", target], ["leaderboard", str(tmp_path / "results"), "--out", target],
                     ["leaderboard", str(tmp_path / "results"), "--html", target],
                     ["translate", "--model", str(tiny_models["marian"]), "--out", target]):
            result = CliRunner().invoke(cli, args)
            assert result.exit_code != 0 and any(e in result.output for e in expected) and "Traceback" not in result.output, (args, result.output)
    good = CliRunner().invoke(cli, ["leaderboard", str(tmp_path / "results"), "--out", str(tmp_path / "lb.md"), "--html", str(tmp_path / "lb.html")])
    assert good.exit_code == 0 and "## wnlampro" in (tmp_path / "lb.md").read_text() and (tmp_path / "lb.html").read_text().startswith("<!doctype")


@pytest.mark.parametrize("char", ["\u200b", "\u202e", "\u0007", "\ue000", "\u034f", "\ufe0f", "\u3164"],
                         ids=["zero-width", "bidi-override", "bell", "private-use", "grapheme-joiner", "variation-selector", "hangul-filler"])
def test_text_a_model_cannot_see_is_refused_at_load_naming_the_row(tmp_path, char):
    from wordbench.benchmarks.hub import load_data
    from wordbench.errors import DataFormatError

    path = tmp_path / "WNLaMPro.txt"
    path.write_text("1\ttest\tgood (a,5.5,300000)\tantonym\tbad (a,5.3,200000)\n"
                    f"2\ttest\tdog (n,5.1,125000)\thypernym\tani{char}mal (n,4.9,80000)\tpet (n,4.5,30000)\tbeast (n,3.9,8000)\n")
    with pytest.raises(DataFormatError, match=r"row 2 \(id 2\), column 'targets': U\+[0-9A-F]{4}"):
        load_data("wnlampro", str(path), progress=False)


def test_a_minimal_pair_whose_variant_is_its_reference_is_refused(tmp_path):
    from test_minpairs import _distil_set

    from wordbench.benchmarks.hub import load_data
    from wordbench.errors import DataFormatError

    _distil_set(tmp_path / "d", "polarity_particle_nicht_del.human", ["He is not here.", "He does not come."],
                ["Er ist nicht hier.", "Er kommt nicht."], ["Er ist hier.", "Er kommt nicht."])
    with pytest.raises(DataFormatError, match="row 2 .*the incorrect variant is the correct reference itself"):
        load_data("minpairs", str(tmp_path / "d"), progress=False)


def test_a_model_whose_own_code_is_ignored_says_so(tiny_models, tmp_path, capsys):
    import json
    import shutil

    from wordbench.scorers.models import plan_model

    folder = shutil.copytree(tiny_models["llama"], tmp_path / "custom")
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "auto_map": {"AutoModelForCausalLM": "modeling_x.X"}}))
    (folder / "modeling_x.py").write_text("raise SystemExit('ran')\n")
    plan_model(str(folder), device="cpu")
    err = capsys.readouterr().err
    assert "ships its own modelling code (auto_map), which is not run" in err and "llama class" in err


def test_remote_code_is_copied_into_the_wordbench_cache_and_said(tiny_models, tmp_path, capsys, monkeypatch):
    import json
    import shutil

    from wordbench.scorers.models import load_model

    monkeypatch.setenv("WORDBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("HF_MODULES_CACHE", raising=False)
    folder = shutil.copytree(tiny_models["llama"], tmp_path / "custom-code")
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "auto_map": {"AutoModelForCausalLM": "modeling_mine.MyLM"}}))
    (folder / "modeling_mine.py").write_text("from transformers import LlamaForCausalLM\n\n\nclass MyLM(LlamaForCausalLM):\n    ran = True\n")
    model = load_model(str(folder), device="cpu", trust_remote_code=True)
    assert type(model.model).__name__ == "MyLM" and type(model.model).ran
    copies = list((tmp_path / "cache" / "hf-modules").rglob("modeling_mine.py"))
    assert copies, "the model's code was copied outside WORDBENCH_CACHE"
    assert f"runs the model's own Python code, copied to {tmp_path / 'cache' / 'hf-modules'}" in capsys.readouterr().err


@pytest.mark.parametrize("item, message", [
    ({"source": "He is not here.", "reference": "Er ist nicht hier.", "errors": 3}, "errors is int, not a list"),
    ({"source": "He is not here.", "reference": "Er ist nicht hier.", "errors": ["Er ist hier."]}, "error 0 lacks type or contrastive"),
    ({"source": 7, "reference": "Er ist nicht hier.", "errors": []}, "item 0 source is int, not text"),
    ({"source": "He is not here.", "reference": "Er ist nicht hier.", "errors": [{"type": "polarity_particle_nicht_del", "contrastive": None}]},
     "error 0 contrastive is NoneType, not text"),
    ({"source": "He is not here.", "reference": "Er ist nicht hier.", "reference_type": ["mt"], "errors": []}, "reference_type is"),
])
def test_lingeval97_fields_of_the_wrong_type_name_the_item(tmp_path, item, message):
    import json

    from wordbench.benchmarks.hub import load_data
    from wordbench.errors import DataFormatError

    path = tmp_path / "lingeval97.json"
    path.write_text(json.dumps([item]))
    import re

    with pytest.raises(DataFormatError, match=re.escape(message)):
        load_data("minpairs", str(path), progress=False)


def test_a_text_that_is_not_a_string_is_refused_with_its_line(tmp_path):
    import json

    from wordbench.builders.sources.corpora import iter_corpus_lines
    from wordbench.errors import DataFormatError
    from wordbench.scorers.tendencies import read_samples

    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"text": "a fine sample ."}) + "\n" + json.dumps({"text": 42}) + "\n")
    with pytest.raises(DataFormatError, match=r"samples.jsonl:2: 'text' is int, not a string"):
        read_samples(samples)
    samples.write_text(json.dumps({"text": "one ."}) + "\n" + json.dumps({"text": "two .", "strategy": {"a": 1}}) + "\n")
    with pytest.raises(DataFormatError, match=r":2: 'strategy' is dict"):
        read_samples(samples)
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"text": "fine ."}) + "\n" + json.dumps({"text": ["a", "list"]}) + "\n")
    with pytest.raises(DataFormatError, match=r"corpus.jsonl:2: 'text' is list, not a string"):
        list(iter_corpus_lines(str(corpus)))


def test_a_paraphrase_file_named_for_both_sets_or_neither_is_refused(tmp_path):
    from wordbench.benchmarks.hub import load_data
    from wordbench.errors import DataFormatError

    triple = "A poodle is a pet .\nA dog is a pet .\nA cat is a pet .\n\n"
    for name in ("rare.txt", "common.txt", "rare_and_common.txt", "triples.txt", "rare_old.txt"):
        (tmp_path / name).write_text(triple)
    for files, message in (([f"{tmp_path / 'rare_and_common.txt'}", f"{tmp_path / 'common.txt'}"], "says both"),
                           ([f"{tmp_path / 'triples.txt'}", f"{tmp_path / 'common.txt'}"], "says neither")):
        with pytest.raises(DataFormatError, match=message):
            load_data("paraphrase", ",".join(files), progress=False)
    with pytest.raises(DataFormatError, match="names both sets"):
        load_data("paraphrase", str(tmp_path), progress=False)
    (tmp_path / "rare_and_common.txt").unlink()
    with pytest.raises(DataFormatError, match="expected one rare file .* found rare.txt, rare_old.txt"):
        load_data("paraphrase", str(tmp_path), progress=False)
