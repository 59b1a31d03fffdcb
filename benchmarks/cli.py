"""``wordbench``: list | build | publish | publish-results | score | report | export | demo | submit | worker | queue | serve |
space | models."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click

from wordbench.errors import WordbenchError, user_errors, warn

from . import __version__
from .packaged import PACKAGED, packaged, packaged_minilm, packaged_smollm2  # noqa: F401 - re-exported


class BatchSize(click.ParamType):
    """``auto`` or a positive integer."""

    name = "auto|N"

    def convert(self, value, param, ctx):
        if isinstance(value, int) or str(value).strip().lower() == "auto":
            return value if isinstance(value, int) else "auto"
        if str(value).strip().isdigit() and int(value) >= 1:
            return int(value)
        self.fail(f"'{value}' is not auto or a positive integer", param, ctx)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wordbench")
def cli():
    """Build, publish and score word-level benchmarks for language models."""


def _declared(title: str, cls) -> str:
    from wordbench import spec

    rows = spec.describe(cls)
    if not rows:
        return f"{title}: none\n"
    return f"{title}:\n" + spec.help_text(cls, "  ") + "\n"


def describe_benchmark(name: str) -> str:
    """Every builder config key and scorer option of NAME, with type, range, default and help (from the declarations)."""
    from .registry import get

    bench = get(name)
    return (f"{bench.name}@{bench.version}  {bench.summary}\nkind: {bench.kind_label}\n\n"
            + _declared("builder config (build/publish/score: --set KEY=VALUE)", bench.builder_class.Config) + "\n"
            + _declared("scorer options (score: --option KEY=VALUE)", bench.scorer_class.Options))


@cli.command("list")
@click.argument("name", required=False)
@user_errors
def list_cmd(name):
    """List the benchmarks with their versions; with NAME, every config key and scoring option of it."""
    from .registry import REGISTRY

    if name:
        click.echo(describe_benchmark(name))
        return
    for bench in REGISTRY.values():
        click.echo(f"{bench.name}@{bench.version}  {bench.summary}")
    click.echo("\n`wordbench list NAME` (or `wordbench options NAME`) lists a benchmark's config keys and scoring options.")


@cli.command("check")
@click.argument("name", required=False)
@user_errors
def check_cmd(name):
    """Check a benchmark's declaration (default: every benchmark) against the rules every benchmark follows:
    matching names, declared and valid options with help, a 'default' schema with an 'id' column, help per column,
    profiles the scorer takes, the documentation page's placeholders (docs/adding-a-benchmark.md)."""
    from .contract import problems
    from .registry import REGISTRY, get

    found = [line for bench in ([get(name)] if name else REGISTRY.values()) for line in problems(bench)]
    for line in found:
        click.echo(line)
    if found:
        raise click.ClickException(f"{len(found)} problem(s) in the declaration(s)")
    click.echo(f"{name or ', '.join(REGISTRY)}: the declaration(s) follow every rule")


@cli.command("options")
@click.argument("name")
@user_errors
def options_cmd(name):
    """Every builder config key and scorer option of benchmark NAME: type, range, default, help."""
    click.echo(describe_benchmark(name))


FAITHFUL_OPTION = click.option(
    "--faithful", is_flag=True,
    help="Every behaviour of the paper and the authors' code, bugs that change numbers included (docs/concepts.md, "
         "'Faithful mode', lists them per benchmark); the signature names the paper. Default: the corrected recipe.")

SET_OPTION = click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
                          help="Override a builder config key (repeatable); `wordbench list` shows the keys and defaults.")


@cli.command()
@click.argument("name")
@SET_OPTION
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Folder to write: new, empty, or an earlier build of the same benchmark (default: the wordbench cache, keyed by signature).")
@click.option("--rebuild", "--force", "force", is_flag=True, help="Rebuild even if a build with the same signature exists (--force: the former name).")
@click.option("--device", default="auto", show_default=True, help="minpairs with mt_model: where the translate stage runs (auto, cpu, cuda, cuda:N, mps).")
@click.option("--dtype", default="auto", show_default=True, help="minpairs with mt_model: the translate stage's dtype (auto, float32, bfloat16, float16).")
@FAITHFUL_OPTION
@user_errors
def build(name, overrides, out, force, device, dtype, faithful):
    """Build benchmark NAME into a dataset folder (Hub layout, card, jsonl export).

    `wordbench options NAME` lists every --set key with its type, range, default and help."""
    from .hub import build as do_build
    from .hub import load_data

    folder, meta = do_build(name, overrides, out, force, faithful=faithful, device=device, dtype=dtype)
    click.echo(f"built {name} -> {folder}")
    click.echo(f"signature: {meta['signature']}")
    from .registry import get

    _, data = load_data(name, str(folder), progress=False)
    click.echo(get(name).builder().summary(data))
    from .schema import invisible_text_line

    if invisible_text_line(data.invisible_text):
        click.echo(invisible_text_line(data.invisible_text))


TOKEN_OPTION = click.option("--token", metavar="TOKEN", help="Hub token (default: HF_TOKEN, else the 'hf auth login' cache); never printed.")


@cli.command()
@click.argument("name")
@click.option("--repo-id", help="Hub dataset repository, ORG/NAME; without it, only --local is written (nothing is uploaded).")
@click.option("--version", "version", help="Dataset version X.Y.Z; the Hub revision is tagged vX.Y.Z (an existing tag is refused). Default: the builder's version.")
@click.option("--local", type=click.Path(path_type=Path), help="Folder for the Hub layout (default: publish/NAME-VERSION).")
@click.option("--dry-run", is_flag=True, help="Write the folder and card only; upload nothing.")
@click.option("--changelog", help="The changelog line for this version (added to the card's changelog).")
@click.option("--private", is_flag=True, help="Create the Hub repository as private.")
@click.option("--replace-local", "--force", "replace_local", is_flag=True, help="Replace --local when it is an earlier publish of NAME with files added to it (any other folder is never replaced; --force: the former name).")
@TOKEN_OPTION
@SET_OPTION
@FAITHFUL_OPTION
@user_errors
def publish(name, repo_id, version, local, dry_run, changelog, private, replace_local, token, overrides, faithful):
    """Publish benchmark NAME to the HuggingFace Hub as a versioned dataset."""
    from .publish import publish as do_publish
    from .registry import get

    if not repo_id and not local:
        raise click.UsageError("give --repo-id ORG/NAME to publish to the Hub, or --local DIR to write the folder only")
    version = version or get(name).version
    folder = do_publish(name, repo_id, version, local, dry_run or not repo_id, overrides, changelog, private, faithful=faithful,
                        replace_local=replace_local, token=token)
    if not repo_id:
        click.echo(f"wrote {folder} (version {version}); nothing uploaded: give --repo-id to publish it")
    elif dry_run:
        click.echo(f"dry run: wrote {folder}; would upload it to datasets/{repo_id} and tag v{version}")
    else:
        click.echo(f"published {folder} to datasets/{repo_id} at tag v{version}")


@cli.command("publish-results")
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--repo-id", help="The Hub results dataset, ORG/NAME (its current rows are kept; a run published again replaces its own).")
@click.option("--local", type=click.Path(file_okay=False, path_type=Path),
              help="The results folder (default with --repo-id: publish/results-ORG-NAME); alone, nothing is uploaded.")
@click.option("--records/--no-records", default=True, show_default=True, help="Add each item's record to the details config.")
@click.option("--dry-run", is_flag=True, help="Write the folder only; upload nothing.")
@TOKEN_OPTION
@user_errors
def publish_results(runs, repo_id, local, records, dry_run, token):
    """Add finished runs to a results dataset (configs `results` and `details`) whose card is the leaderboard."""
    from .publish import publish_results as do_publish_results

    folder, counts = do_publish_results(list(runs), repo_id, records, dry_run, token, local)
    where = f"datasets/{repo_id}" if repo_id and not dry_run else f"{folder} (not uploaded)"
    click.echo(f"{counts['runs']} run(s) of {counts['models']} model(s), {counts['result_rows']} result rows, "
               f"{counts['detail_rows']} detail rows -> {where}\nleaderboard: {folder / 'leaderboard.md'}")


def model_options(fn):
    for option in reversed(
        [
            click.option("--model", "model_names", multiple=True, help="HF id, local folder, .gguf file, or packaged:NAME (wordbench models lists them; required unless --samples); repeat it to score several models, one run folder each."),
            click.option("--family", type=click.Choice(["causal", "masked", "encoder", "seq2seq"]), help="Override the detected model family."),
            click.option("--device", default="auto", show_default=True, help="auto, cpu, cuda, cuda:N, mps, or shard (split over all GPUs)."),
            click.option("--dtype", default="auto", show_default=True, help="auto (bf16 on GPU, else float32), float32, bfloat16, float16."),
            click.option("--batch-size", type=BatchSize(), default="auto", show_default=True, help="Items per forward pass (a positive integer); auto backs off on CUDA OOM."),
            click.option("--revision", help="Hub revision (branch, tag or commit) of the model."),
            click.option("--trust-remote-code", is_flag=True, help="Run the model repository's own code (off: submitted models are untrusted)."),
            click.option("--allow-pickle", is_flag=True, help="Allow pickle checkpoints, which can run code when loaded."),
            click.option("--model-option", "model_opts", multiple=True, metavar="KEY=VALUE",
                         help="A model setting (repeatable; part of the signature): seq2seq infill=auto|sentinel|mask, states=encoder|decoder."),
        ]
    ):
        fn = option(fn)
    return fn


def _plan(model_name, family, device, dtype, batch_size, revision, trust_remote_code, allow_pickle, model_opts=()):
    """The model inspected (path, config, family, tokenizer), its weights not yet read: ``.load()`` reads them."""
    from wordbench.scorers.models import plan_model

    from . import distributed

    return plan_model(packaged(model_name), family, distributed.device(device), dtype, batch_size, revision, trust_remote_code, allow_pickle,
                      _options(model_opts, "--model-option"), progress=distributed.world().main)


def strata_text(scorer_class) -> str:
    """What a scorer's ``--limit`` sample is stratified by: the first line of its ``stratum`` docstring."""
    from wordbench.scorers.base import Scorer

    if scorer_class.limit_help:
        return scorer_class.limit_help
    if scorer_class.stratum is Scorer.stratum:
        return "nothing: a plain seeded sample"
    doc = (scorer_class.stratum.__doc__ or "").strip()
    return doc.split("\n")[0] if doc else "its scorer's stratum (undocumented)"


class ScoreCommand(click.Command):
    """``score --help`` ends with every scorer's declared options, generated when the help is asked for."""

    def format_epilog(self, ctx, formatter):
        from wordbench import spec
        from wordbench.scorers.models.seq2seq import Seq2SeqOptions

        from .registry import REGISTRY

        with formatter.section("--limit samples, stratified by"):
            formatter.write_dl([(bench.name, strata_text(bench.scorer_class)) for bench in REGISTRY.values()])
        for bench in REGISTRY.values():
            rows = spec.describe(bench.scorer_class.Options)
            with formatter.section(f"{bench.name} options (--option KEY=VALUE)"):
                formatter.write_dl([(f"{d.name}={d.default}", f"{d.type}. {d.help}") for d in rows] or [("(none)", "")])
        with formatter.section("seq2seq model options (--model-option KEY=VALUE)"):
            formatter.write_dl([(f"{d.name}={d.default}", f"{d.type}. {d.help}") for d in spec.describe(Seq2SeqOptions)])


@cli.command(cls=ScoreCommand)
@click.argument("name")
@model_options
@click.option("--data", help="Dataset folder, a file in the benchmark's own format (several: a.txt,b.txt), or HUB_ID@REVISION (default: build the defaults).")
@click.option("--split", default="test", show_default=True, type=click.Choice(["dev", "test", "all"]), help="Split to score.")
@click.option("--limit", type=click.IntRange(min=1), help="Score a seeded sample of this many items, stratified as each benchmark's tables (its strata are listed below).")
@click.option("--config", "data_config", default="default", show_default=True, help="Dataset config to score.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("runs"), show_default=True, help="Root of the run folders.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A scoring option (repeatable; part of the run signature); every benchmark's are listed below.")
@FAITHFUL_OPTION
@click.option("--dudy2020", is_flag=True, hidden=True, help="Former name of --faithful for wordpred.")
@click.option("--samples", type=click.Path(exists=True, dir_okay=False), help="tendencies: score generated text you bring (one sample per line, or jsonl with text[/strategy]) instead of a model.")
@click.option("--json", "as_json", is_flag=True, help="Print only the summaries, as a JSON list (one per model), on stdout.")
@click.option("--precision-check", "precision_sample", type=click.IntRange(min=0), default=32, show_default=True,  # runner.PRECISION_SAMPLE (tested)
              help="A model computing in bf16/fp16 (--dtype, or auto on a GPU): rescore a seeded sample of this many items in float32 "
                   "once per run folder and report how many decisions stay the same (0: never).")
@click.option("--profile", type=click.Choice(["full", "quick"]),
              help="Each benchmark's declared submission options and --limit (quick: a CPU's); --option and --limit go on top.")
@user_errors
def score(name, model_names, family, device, dtype, batch_size, revision, trust_remote_code, allow_pickle, model_opts, data, split, limit, data_config, out, options, faithful, dudy2020, samples, as_json, precision_sample, profile):
    """Score one or more models on benchmark NAME; a rerun resumes an interrupted run.

    NAME may be several benchmarks, NAME,NAME or all: a suite, each model loaded once for all of them, one run
    folder per benchmark (--option NAME.KEY=VALUE for one benchmark's option).

    \b
    Data-parallel: torchrun --nproc_per_node N -m wordbench.benchmarks.cli score ... (or accelerate launch):
    each rank scores a shard of the items; rank 0 merges the records and writes the summary.

    Every benchmark's --option keys and seq2seq --model-option keys follow below (`wordbench options NAME`
    lists one benchmark's, with its builder config).
    """
    import json

    from . import distributed
    from .registry import get
    from .runner import score as do_score

    from wordbench import spec

    opts = _options(options)
    if faithful or dudy2020:
        if "faithful" in opts and not spec.parse_bool("faithful", opts["faithful"]):
            raise WordbenchError(f"--option faithful={opts['faithful']} contradicts --faithful: give one of them")
        opts["faithful"] = True
    if samples:
        if "samples" in opts:
            raise WordbenchError("give --samples or --option samples=, not both")
        opts["samples"] = samples
    if model_opts:
        from wordbench.scorers.models.seq2seq import Seq2SeqOptions

        spec.parse(Seq2SeqOptions, _options(model_opts, "--model-option"), source="--model-option")
    from .suite import parse_names

    names = parse_names(name)
    if len(names) > 1 or name.strip() == "all":
        if samples or data or data_config != "default" or faithful or dudy2020:
            raise click.UsageError("a suite of benchmarks scores each one's default data by its profile: --data, --config, "
                                   "--samples and --faithful are for one benchmark")
        return _score_suite(names, model_names, (family, device, dtype, batch_size, revision, trust_remote_code, allow_pickle, model_opts),
                            opts, profile, limit, split, out, as_json, precision_sample)
    chosen = get(name).profile(profile).as_dict()
    opts = {**{k: v for k, v in chosen["options"].items()}, **opts}
    limit = limit or chosen["limit"]
    scorer = get(name).scorer(**opts)  # typed: an unknown benchmark or option fails before anything loads
    if bool(model_names) == bool(getattr(scorer.options, "samples", None) or getattr(scorer.options, "baseline", None)):
        raise click.UsageError("give --model, or (tendencies) --samples FILE or --option baseline=trigram, not both")

    # Cheap checks first: every model's path, config, family and tokenizer before any data loads; the weights
    # load in the runner once the data is checked and the run folder is locked.
    plans = []
    for model_name in model_names:
        if distributed.world().main and not as_json:
            click.echo(f"checking {model_name} ...", err=True)
        plan = _plan(model_name, family, device, dtype, batch_size, revision, trust_remote_code, allow_pickle, model_opts)
        scorer.check_model(plan)  # the family, and what a scorer asks of the model (VAST: its layers)
        plans.append(plan)

    runs, ok = [], False
    try:
        for model in plans or [None]:
            runs.append(do_score(name, model, data, split, limit, out, data_config, progress=not as_json, precision_sample=precision_sample, **opts))
        ok = True
    finally:
        distributed.finish(ok)  # a failed rank does not wait at a barrier its peers never reach
    if not distributed.world().main:
        return
    if as_json:
        click.echo(json.dumps([run.summary() for run in runs], indent=2, ensure_ascii=False))
        return
    if len(runs) == 1:
        click.echo((runs[0].path / "report.md").read_text())
        click.echo(f"run folder: {runs[0].path}")
        return
    from .runner import leaderboard

    path = Path(out) / name / "leaderboard.md"
    path.write_text(leaderboard(runs))
    click.echo(path.read_text())


def _score_suite(names, model_names, model_args, opts, profile, limit, split, out, as_json, precision_sample):
    """``score NAME,NAME|all``: each model planned first, then loaded once for every benchmark of the suite."""
    import json

    from .registry import get
    from .suite import score_suite, suite_options

    per_bench = suite_options(names, opts)
    for bench in names:  # typed before anything loads
        get(bench).scorer(**{**dict(get(bench).profile(profile).options), **per_bench[bench]})
    if not model_names:
        raise click.UsageError("a suite needs --model")
    plans = [_plan(m, *model_args) for m in model_names]
    summaries = []
    for plan in plans:
        result = score_suite(names, plan, profile, out, options=per_bench, limit=limit, split=split, progress=not as_json,
                             precision_sample=precision_sample)
        rows = [f"## {plan.info.name}: {len(result.runs)} benchmark(s), {result.loads} model load(s) ({result.load_seconds} s)", "",
                "| benchmark | headline | value | interval | wall s | run folder |", "|---|---|---|---|---|---|"]
        for bench, run in result.runs.items():
            summary = run.summary()
            summaries.append(summary)
            head = get(bench).headline
            value, ci = head.read(summary["metrics"]) if head else (None, None)
            rows.append(f"| {bench} | {head.label if head else ''} | {'' if value is None else round(value, 4)} | "
                        f"{'' if ci is None else f'[{ci[0]}, {ci[1]}]'} | {result.seconds[bench]} | `{run.path}` |")
        rows += [f"| {bench} | skipped: {why} | | | | |" for bench, why in result.skipped.items()]
        if not as_json:
            click.echo("\n".join(rows) + "\n")
    if as_json:
        click.echo(json.dumps(summaries, indent=2, ensure_ascii=False))


def _options(pairs, hint: str = "--option") -> dict:
    """``KEY=VALUE`` strings to a dict of strings, typed later by the declaration; a repeated key is refused."""
    from wordbench.spec import split_pair

    out: dict[str, str] = {}
    for pair in pairs:
        key, value = split_pair(pair, hint)
        if key in out:
            raise WordbenchError(f"{hint} {key} is given twice: give each key once")
        out[key] = value
    return out


@cli.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--data", help="The data the runs were scored on, where it is not the default build or the path their summary names.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Root of the new run folders (default: each run's own root, beside it).")
@click.option("--publish", "results", help="Add the new runs to this results dataset (a folder, or hf:ORG/NAME), where "
              "the leaderboard shows them in place of the runs they came from.")
@TOKEN_OPTION
@user_errors
def rescore(runs, data, out, results, token):
    """Re-derive each finished run's metrics from its stored per-item records at its scorer's current metric version
    (a new statistic, a corrected formula), without the model: a new run folder whose signature names the version and
    whose summary names the run it came from. A run already at the current version is passed over (said so); one whose
    records cannot give the new metrics is refused in one line. `wordbench rescore runs/*/*/* --publish results`
    brings a leaderboard to a new metric version without a GPU."""
    from .rescore import UpToDate
    from .rescore import rescore as do_rescore
    from .worker import check_results, publish_locked

    if results:
        check_results(results)
    new = []
    for run in runs:
        try:
            new.append(do_rescore(run, data, out).path)
        except UpToDate as exc:
            click.echo(f"passed over {exc}")
            continue
        click.echo(f"{run} -> {new[-1]}")
    if results and new:
        publish_locked(new, results, token=token)
        click.echo(f"published {len(new)} re-derived run(s) to {results}")


@cli.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), help="Also write the markdown to this file.")
@click.option("--plots", type=click.Path(file_okay=False, path_type=Path), help="Folder for figures with the runs side by side.")
@user_errors
def report(runs, out, plots):
    """Put several run folders side by side (tables, and figures with --plots)."""
    from wordbench.files import check_output_file, check_writable, write_output

    from .runner import report as do_report

    if out:
        check_output_file(out, "--out")  # before the report is computed
    if plots:
        check_writable(plots, "--plots")
    text = do_report(list(runs), plots)
    if out:
        write_output(out, text, "--out")
    click.echo(text)


@cli.group()
def export():
    """Export a benchmark to another evaluation tool."""


@export.command("lm-eval")
@click.argument("name")
@click.option("--data", help="Dataset folder, a file in the benchmark's own format, or HUB_ID@REVISION (default: build the defaults).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Folder for the task YAMLs and their data.")
@click.option("--split", default="test", show_default=True, type=click.Choice(["dev", "test", "all"]))
@click.option("--config", "data_config", default="default", show_default=True, help="Dataset config to export.")
@click.option("--limit", type=click.IntRange(min=1), help="A seeded stratified sample of this many items (as score --limit).")
@click.option("--prompt", help="minpairs, causal models: the translation prompt with {source} (default: the scorer's).")
@click.option("--end", help="minpairs, causal models: text after each variant, in place of EOS (default: a newline).")
@click.option("--seq2seq", is_flag=True, help="minpairs: for lm-eval's hf-seq2seq (context = the source, no prompt).")
@user_errors
def export_lm_eval(name, data, out, split, data_config, limit, prompt, end, seq2seq):
    """Write lm-evaluation-harness task YAMLs for NAME (minpairs, wordpred) into OUT."""
    from .export_lmeval import export as do_export

    paths = do_export(name, data, out, split, data_config, limit, prompt, end, seq2seq)
    click.echo(f"wrote {len(paths)} task files to {out}; run (after pip install 'lm-eval[hf]'; plain lm-eval lacks --model hf): "
               f"lm_eval --include_path {out} --tasks {paths[-1].stem} --model hf --model_args pretrained=MODEL,add_bos_token=True")


@cli.command()
@click.option("--model", "model_name", required=True, help="MT model: a seq2seq HF id or path, or a causal one with --prompt.")
@click.option("--parallel", default="trans-de-en", show_default=True, help="English-German pairs whose English side is translated (minpairs' parallel= spec).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="File of translations, one per line, line-aligned with the pairs (minpairs: mt_translations=FILE).")
@click.option("--beam", type=click.IntRange(min=1), default=5, show_default=True, help="Beam size.")
@click.option("--prompt", help="Causal models: the translation prompt with {source}.")
@click.option("--max-new-tokens", type=click.IntRange(min=1), default=256, show_default=True, help="Longest translation in model tokens.")
@click.option("--device", default="auto", show_default=True, help="auto, cpu, cuda, cuda:N, mps.")
@click.option("--dtype", default="auto", show_default=True, help="auto (bf16 on GPU, else float32), float32, bfloat16, float16.")
@user_errors
def translate(model_name, parallel, out, beam, prompt, max_new_tokens, device, dtype):
    """Translate the English side of a parallel source with an MT model (the translate stage on its own)."""
    from wordbench.builders.sources.parallel import load_pairs

    from .translate import write_translations

    pairs = load_pairs(parallel)
    n = write_translations(model_name, [p.source for p in pairs], out, beam, prompt, max_new_tokens, device, dtype)
    click.echo(f"wrote {n} translations to {out}; build with --set references=human,mt --set mt_translations={out}")


@cli.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the markdown to this file.")
@click.option("--html", "html_page", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write one HTML page with the tables and every run's figures (default: FOLDER/leaderboard.html is kept current by publish-results).")
@user_errors
def leaderboard(folder, out, html_page):
    """Print the leaderboard of a results folder (publish-results --local, or a downloaded results repo)."""
    from wordbench.files import check_output_file, write_output

    from .board_page import leaderboard_html, leaderboard_markdown, submissions_markdown

    from .results_folder import stored_runs

    for path, flag in ((out, "--out"), (html_page, "--html")):
        if path:
            check_output_file(path, flag)
    runs, skipped = stored_runs(folder)
    for line in skipped:
        warn(f"skipped: {line}")
    summaries = [s for _, s in runs]
    if not summaries:
        raise WordbenchError(f"{folder} holds no readable published run (runs/<benchmark>/<model>/<hash>/summary.json)"
                             + (f"; {len(skipped)} skipped" if skipped else ""))
    text = submissions_markdown(folder) + leaderboard_markdown(summaries)
    if out:
        write_output(out, text, "--out")
    if html_page:
        write_output(html_page, leaderboard_html(folder, summaries, base=folder.resolve().as_uri() + "/"), "--html")
    click.echo(text)
    if skipped:
        warn(f"{len(skipped)} run(s) of {folder} skipped: their summary.json cannot be read (see above)")


@cli.command("models")
@user_errors
def models_cmd():
    """List the packaged offline models: NAME, what it is, its path (submit packaged:NAME takes one)."""
    for name, (find, what) in PACKAGED.items():
        try:
            where = str(find())
        except WordbenchError as exc:
            where = f"missing ({exc})"
        click.echo(f"packaged:{name}  {what}\n    {where}")


@cli.command()
@click.option("--model", "model_name", help="Model to score (default: the packaged SmolLM2-135M-Instruct GGUF).")
@click.option("--limit", default=300, show_default=True, type=click.IntRange(min=1), help="Test entries to score.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("runs"), show_default=True, help="Root of the run folders.")
@FAITHFUL_OPTION
@user_errors
def demo(model_name, limit, out, faithful):
    """Build WNLaMPro offline and score the packaged SmolLM2 on a stratified sample of test entries."""
    from .hub import build as do_build
    from .runner import score as do_score

    folder, meta = do_build("wnlampro", faithful=faithful)
    click.echo(f"WNLaMPro data: {folder}\nsignature: {meta['signature']}")
    model = _plan(model_name or str(packaged_smollm2()), None, "auto", "auto", "auto", None, False, False)
    run = do_score("wnlampro", model, str(folder), "test", limit, out, faithful=faithful)
    click.echo((run.path / "report.md").read_text())
    click.echo(f"run folder: {run.path}")


QUEUE_HELP = "The queue: a folder (works on a shared file system; queue.json in it holds its settings) or hf:ORG/NAME, a Hub dataset repo."


@cli.command()
@click.argument("model")
@click.option("--queue", "queue_spec", required=True, help=QUEUE_HELP)
@click.option("--dtype", type=click.Choice(["float32", "bfloat16", "float16"]), help="What the model computes in (default: the queue's setting).")
@click.option("--revision", help="Hub revision to pin (default: main, pinned to the commit it points to now).")
@click.option("--submitter", help="Who submits (default: the login name).")
@click.option("--split/--no-split", default=None,
              help="Score each benchmark as a task of its own, so several workers (a Slurm array) score this submission at "
                   "once, each loading the model; its row is published when the last task ends (default: the queue's "
                   "split setting).")
@TOKEN_OPTION
@user_errors
def submit(model, queue_spec, dtype, revision, submitter, split, token):
    """Admit MODEL (Hub id, local folder, .gguf, or packaged:NAME from wordbench models) to a queue: pinned, checked,
    and queued as PENDING."""
    from .queue import open_queue
    from .submit import admit

    queue = open_queue(queue_spec, token)
    request = admit(packaged(model), queue, dtype, submitter, revision, token, split=split)
    for item in queue.scan()[1]:  # another file of the queue holds no readable request: the maintainer should know
        warn(f"{item.reason} (a worker sets it aside)")
    click.echo(f"queued {request.id}: {request.model}@{request.revision} ({request.family}, {request.dtype}, "
               f"{request.params if request.params is not None else '?'} parameters, profile {request.profile}, "
               f"{len(request.suite)} benchmarks{', each a task of its own' if request.tasks else ''})")


@cli.command()
@click.option("--queue", "queue_spec", required=True, help=QUEUE_HELP)
@click.option("--results", required=True, help="The results dataset: a folder, or hf:ORG/NAME (staged in publish/ and uploaded).")
@click.option("--runs", type=click.Path(file_okay=False, path_type=Path), default=Path("runs"), show_default=True,
              help="Root of the run folders (on a shared file system when workers on several nodes share a queue).")
@click.option("--device", default="auto", show_default=True, help="auto, cpu, cuda, cuda:N, mps, or shard (split over all GPUs).")
@click.option("--once", is_flag=True, help="Process one request (if any) and stop.")
@click.option("--until-empty", is_flag=True, help="Process requests until none is left, then stop.")
@click.option("--poll", type=click.FloatRange(min=0.1), default=10.0, show_default=True, help="Seconds between looks at an empty queue.")
@click.option("--name", "worker", help="This worker's name in the requests (default: host-pid, with the Slurm job and task).")
@TOKEN_OPTION
@user_errors
def worker(queue_spec, results, runs, device, once, until_empty, poll, worker, token):
    """Claim requests from a queue, score each model's suite with one load, publish to --results, repeat. Of a split
    request it claims one benchmark's task; the worker that scores the last task publishes the row.

    Inside a scheduler job it behaves as one should: on SIGTERM (Slurm's --signal warning before the time limit, a
    preemption, scancel) it stops at the next item boundary, keeps what it scored, hands its request back to the queue
    at once and exits 0, so a requeued job or another worker resumes it; in a Slurm job it claims no request it cannot
    finish before the job's end, at the cost finished requests took here."""
    from wordbench import stopping

    from .queue import open_queue
    from .worker import job_deadline, run, worker_name

    with stopping.on_sigterm():
        stats = run(open_queue(queue_spec, token), results, runs, device, once, poll, worker or worker_name(), progress=True,
                    stop_when_empty=until_empty, deadline=job_deadline())
    for line in stats.requests:
        click.echo(line)
    if stats.requests:
        click.echo(f"{len(stats.requests)} request(s) in {stats.total_s:.1f} s, {stats.scoring_s:.1f} s of it scoring")
    else:
        click.echo("no request to claim")


@cli.command("slurm-script")
@click.option("--queue", "queue_spec", required=True, help=QUEUE_HELP)
@click.option("--results", required=True, help="The results dataset: a folder on a shared file system, or hf:ORG/NAME.")
@click.option("--runs", default="runs", show_default=True, help="Root of the run folders, on a file system every node shares.")
@click.option("--workers", type=click.IntRange(min=1), default=4, show_default=True, help="Array tasks: workers scoring at once.")
@click.option("--gpus", type=click.IntRange(min=0), default=1, show_default=True, help="GPUs per worker (0: CPU workers).")
@click.option("--cpus", type=click.IntRange(min=1), default=8, show_default=True, help="CPU cores per worker.")
@click.option("--time", "time_limit", default="04:00:00", show_default=True, help="Each task's time limit (sbatch --time).")
@click.option("--warn", "warn_s", type=click.IntRange(min=1), default=300, show_default=True,
              help="Seconds before the limit at which Slurm sends SIGTERM: the worker finishes its item and hands its request back.")
@click.option("--partition", help="The Slurm partition (default: the cluster's).")
@click.option("--logs", default="slurm-logs", show_default=True, help="Folder of each task's log (%A_%a.log).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the script here (default: print it).")
@user_errors
def slurm_script(queue_spec, results, runs, workers, gpus, cpus, time_limit, warn_s, partition, logs, out):
    """Write the sbatch script of an array of workers over QUEUE: submit it with sbatch (docs: Run on a cluster)."""
    from .slurm import sbatch_script

    text = sbatch_script(queue_spec, results, runs, workers, gpus, time_limit, warn_s, cpus, partition, logs)
    if out is None:
        click.echo(text, nl=False)
        return
    from wordbench.files import write_output

    write_output(out, text, "--out")
    click.echo(f"wrote {out}: mkdir -p {logs} && sbatch {out}")


@cli.command("queue")
@click.argument("queue_spec", metavar="QUEUE")
@click.option("--create", is_flag=True, help="Create QUEUE (a folder, with queue.json holding the default settings) if it does not exist.")
@TOKEN_OPTION
@user_errors
def queue_cmd(queue_spec, create, token):
    """List a queue's requests by status, with each failure's reason and every file that holds no readable request."""
    import json

    from wordbench.files import write_output

    from .queue import DEFAULT_SETTINGS, SETTINGS_FILE, STATUSES, LocalQueue, open_queue

    queue = open_queue(queue_spec, token, create=create)
    if create and isinstance(queue, LocalQueue) and not (queue.folder / SETTINGS_FILE).exists():
        write_output(queue.folder / SETTINGS_FILE, json.dumps(DEFAULT_SETTINGS, indent=1) + "\n", "--create")
        click.echo(f"created {queue.folder} (settings: {queue.folder / SETTINGS_FILE})")
    queue.settings()  # a settings file with a problem is one line here too
    requests, unreadable = queue.scan()
    for status in STATUSES:
        group = [r for r in requests if r.status == status]
        if not group:
            continue
        click.echo(f"{status} ({len(group)})")
        for r in group:
            extra = f" {r.holders()}" if status == "RUNNING" else ""
            extra += f": {r.reason}" if r.reason else ""
            click.echo(f"  {r.id}  {r.model}@{r.revision} {r.dtype} by {r.submitter}{extra}")
    if unreadable:
        click.echo(f"UNREADABLE ({len(unreadable)}; a worker sets each aside)")
        for item in unreadable:
            click.echo(f"  {item.reason}")
    if not requests and not unreadable:
        click.echo("no requests")


@cli.command()
@click.option("--queue", "queue_spec", required=True, help=QUEUE_HELP)
@click.option("--results", required=True, help="The results dataset: a folder, or hf:ORG/NAME (read only).")
@click.option("--port", type=click.IntRange(1, 65535), default=7860, show_default=True, help="Port to serve on.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--allow-local-paths", is_flag=True, help="Let the Submit form take local model paths (only on a trusted machine).")
@TOKEN_OPTION
@user_errors
def serve(queue_spec, results, port, host, allow_local_paths, token):
    """Serve the leaderboard app (tabs: Leaderboard, Submit, Queue, About) over a queue and a results dataset."""
    if importlib.util.find_spec("gradio") is None:
        raise WordbenchError("wordbench serve needs Gradio: pip install 'wordbench[space]'")
    from .app import serve as run_app

    click.echo(f"serving the leaderboard on http://{host}:{port} (queue {queue_spec}, results {results})")
    run_app(queue_spec, results, port, host, allow_local_paths, token)


@cli.group()
def space():
    """The leaderboard as a Hub Space."""


@space.command("export")
@click.option("--queue", "queue_spec", required=True, help="The Hub queue, hf:ORG/NAME.")
@click.option("--results", required=True, help="The Hub results dataset, hf:ORG/NAME.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Folder to write (new or empty).")
@click.option("--title", default="wordbench leaderboard", show_default=True, help="The Space's title.")
@user_errors
def space_export(queue_spec, results, out, title):
    """Write a folder that deploys as a Hub Space as it is: app.py, README.md (the front matter), requirements.txt (every
    package pinned to what runs here, torch as its CPU build) and this wordbench's code in wordbench/."""
    from .space import export_space

    for path in export_space(queue_spec, results, out, title):
        click.echo(f"wrote {path}")
    click.echo("push it to a Gradio Space and set HF_TOKEN (write access to both repos) in the Space's secrets")


def main():
    cli()


if __name__ == "__main__":
    main()
