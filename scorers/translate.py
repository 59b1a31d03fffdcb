"""Translation with any seq2seq model, or a causal model through a prompt; cached for builds."""

from __future__ import annotations

import json
from typing import Sequence

from wordbench.builders.minpairs.builder import TRANSLATION_STOP
from wordbench.cache import cache_dir
from wordbench.hashing import sha8
from wordbench.spec import template_problem
from wordbench.identity import model_version

from .models import ModelError, ScoringModel, plan_model

DEFAULT_PROMPT = "Translate English to German.\nEnglish: {source}\nGerman:"


def check_prompt(prompt: str) -> str:
    """The prompt with a typed ``\\n`` turned into a newline; it must hold ``{source}``."""
    prompt = prompt.replace("\\n", "\n")
    problem = template_problem(prompt)
    if problem:
        raise ModelError(f"the translation prompt {problem} (where the English sentence goes)")
    return prompt


def translate(model: ScoringModel, sources: Sequence[str], beam: int = 5, prompt: str | None = None,
              max_new_tokens: int = 256) -> list[str]:
    """Beam translations: a seq2seq model directly; a causal model continues ``prompt`` and its first line is kept."""
    if model.family == "seq2seq":
        return model.translate(sources, beam, max_new_tokens)
    if model.family == "causal":
        if prompt is None:
            raise ModelError(f"{model.info.name} is a causal model, not seq2seq: give a translation prompt with {{source}}")
        prompt = check_prompt(prompt)
        gens = model.generate([prompt.format(source=s) for s in sources], "beam_search" if beam > 1 else "greedy",
                              max_new_tokens=max_new_tokens, beams=beam, stop_at_newline=True)
        return [g.text.strip().split("\n")[0].strip() for g in gens]
    raise ModelError(f"{model.info.name} is a {model.family} model: translation needs a seq2seq (or prompted causal) model")


def cached_translations(model_name: str, sources: Sequence[str], beam: int = 5, progress: bool = True,
                        prompt: str | None = None, max_new_tokens: int = 256, device: str = "auto", dtype: str = "auto") -> list[str]:
    """Translations of ``sources`` by ``model_name``, kept in the wordbench cache (keyed by the model's identity,
    every argument that changes the output, and the sources)."""
    key = sha8(json.dumps([model_name, model_version(model_name), beam, prompt, max_new_tokens, dtype, TRANSLATION_STOP, list(sources)],
                          ensure_ascii=False))
    path = cache_dir("translations") / f"{key}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    plan = plan_model(model_name, device=device, dtype=dtype, progress=progress)  # family and prompt before the weights
    if plan.family not in ("seq2seq", "causal"):
        raise ModelError(f"{model_name} is a {plan.family} model: translation needs a seq2seq (or prompted causal) model")
    if plan.family == "causal":
        if prompt is None:
            raise ModelError(f"{model_name} is a causal model, not seq2seq: give a translation prompt with {{source}}")
        check_prompt(prompt)
    model = plan.load()
    out = translate(model, sources, beam, prompt, max_new_tokens)  # an empty translation is counted as unanalyzable by the build
    path.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    return out
