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
