"""The translate stage: machine translations a build needs (minpairs' MT references), made before the build
through the same model loader, device and dtype as scoring, and cached; the builder only reads them."""

from __future__ import annotations

from wordbench.scorers.translate import cached_translations


def run_jobs(jobs, device: str = "auto", dtype: str = "auto", progress: bool = True) -> dict[str, list[str]]:
    """{system: its translations of the job's sources} for every ``TranslationJob``."""
    return {job.system: cached_translations(job.system, list(job.sources), job.beam, progress, job.prompt, job.max_new_tokens,
                                            device=device, dtype=dtype) for job in jobs}


def write_translations(model_name: str, sources: list[str], out, beam: int = 5, prompt: str | None = None,
                       max_new_tokens: int = 256, device: str = "auto", dtype: str = "auto") -> int:
    """Translate ``sources`` and write one translation per line to ``out`` (atomically); returns how many."""
    from pathlib import Path

    from wordbench.files import check_output_file, write_output
    from wordbench.scorers.translate import check_prompt

    out = Path(out)
    check_output_file(out, "--out")  # before the model loads
    if prompt is not None:
        check_prompt(prompt)  # a bad template is one line before the model loads, not a traceback after
    texts = cached_translations(model_name, sources, beam, True, prompt, max_new_tokens, device=device, dtype=dtype)
    write_output(out, "".join(" ".join(t.split()) + "\n" for t in texts), "--out")  # a translation is one line
    return len(texts)
