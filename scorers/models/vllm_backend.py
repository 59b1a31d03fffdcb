"""Optional vLLM generation for large sample counts on GPUs (``--option backend=vllm``).

vLLM loads its own copy of the model; it offers ancestral, nucleus and greedy decoding with per-request
seeds, but not beam sampling. Results come back as the same ``Generation`` records as ``CausalLM.generate``.
"""

from __future__ import annotations

from typing import Sequence

from wordbench.errors import ConfigError

from .causal import Generation, sample_seeds


class VLLMGenerator:
    def __init__(self, name: str, revision: str | None = None, dtype: str = "auto"):
        try:
            import vllm
        except ImportError:
            raise ConfigError("backend=vllm needs vLLM (pip install vllm, on a CUDA machine); or use backend=hf") from None
        if name.endswith(".gguf"):
            raise ConfigError("backend=vllm takes an HF id or folder, not a .gguf file")
        self.vllm = vllm
        self.llm = vllm.LLM(model=name, revision=revision, dtype=dtype, trust_remote_code=False)

    def generate(self, prompts: Sequence[str], strategy: str = "ancestral", max_new_tokens: int = 256,
                 top_p: float = 0.95, beams: int = 5, seed: int | Sequence[int] = 0, stop_at_newline: bool = False) -> list[Generation]:
        if strategy == "beam":
            raise ConfigError("vLLM has no beam sampling: score strategy beam with backend=hf")
        greedy = strategy == "greedy"
        seeds = sample_seeds(seed, len(prompts))
        params = [self.vllm.SamplingParams(temperature=0.0 if greedy else 1.0, top_p=top_p if strategy == "nucleus" else 1.0,
                                           top_k=-1, max_tokens=max_new_tokens, seed=None if greedy else seeds[i],
                                           skip_special_tokens=True, stop=["\n"] if stop_at_newline else None)
                  for i in range(len(prompts))]
        tokenizer = self.llm.get_tokenizer()
        bos = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
        if bos is None and any(not p.strip() for p in prompts):
            raise ConfigError("the model has no BOS or EOS token to start from: give prompts")
        inputs = [p.rstrip() if p.strip() else {"prompt_token_ids": [bos]} for p in prompts]  # unconditional: from BOS alone
        outputs = self.llm.generate(inputs, params, use_tqdm=True)
        return [Generation(o.outputs[0].text, len(o.outputs[0].token_ids), o.outputs[0].finish_reason == "stop") for o in outputs]
