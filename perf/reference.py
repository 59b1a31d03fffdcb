"""Reference implementations that exist only to be compared against (tests and perf/): the papers'
algorithms as published, one forward pass per prefix. They are not part of the package."""

from __future__ import annotations

import functools

import torch

from wordbench.scorers.models.base import LineSteps
from wordbench.scorers.models.seq2seq import Seq2SeqLM
from wordbench.scorers.wholeword import GREEDY_DEPTH, TOP, WordPrediction, predict_words, search_depth, summarize_steps


def predict_words_naive(model, lines: list[list[str]], events: list[tuple[int, int]], counter: list[int] | None = None,
                        faithful: bool = False) -> list[WordPrediction]:
    """The paper's algorithms as published, for causal models: a full forward pass per prefix, one at a time, batch 1.

    Same decisions as ``model.predict_words`` (stop when the argmax ends the word, top-10 paths pruned
    to prefixes of the target). Default: the first subtoken among word starts, paths up to 5;
    ``faithful``: the seed's first step over the whole vocabulary, paths up to 6, the boundary token's
    log-prob added to the greedy word's. ``counter[0]`` accumulates the number of tokens fed to the model.
    """
    vocab = model.words
    boundary, ends = torch.as_tensor(vocab.boundary), torch.as_tensor(vocab.ends)
    decode = lambda ids: model.tokenizer.decode(ids, skip_special_tokens=False, clean_up_tokenization_spaces=False).strip()  # noqa: E731
    counter = counter if counter is not None else [0]
    depth_limit = search_depth(faithful)

    def last_logprobs(ids):
        counter[0] += len(ids)
        with torch.inference_mode():
            logits = model.model(input_ids=torch.tensor([ids], device=model.device)).logits[0, -1].float()
        return torch.log_softmax(logits, -1).cpu()

    out = []
    for line, i in events:
        words, target = lines[line], lines[line][i]
        context = model.encode(" ".join(words[:i])).ids
        full = model.encode(" ".join(words[: i + 1])).ids
        own = full[len(context):]
        first = last_logprobs(context)
        start = first if faithful else first.masked_fill(~boundary[: first.shape[0]], float("-inf"))
        path, lp = [int(start.argmax())], float(start.max())
        while len(path) < GREEDY_DEPTH:
            nxt = last_logprobs(context + path)
            tok = int(nxt.argmax())
            if tok >= len(vocab.ends) or vocab.ends[tok]:
                lp += float(nxt[tok]) if faithful else 0.0
                break
            path, lp = path + [tok], lp + float(nxt[tok])
        greedy = decode(path)
        hit10, found_lp = False, None
        top = start.topk(TOP)
        frontier = [((int(t),), float(v)) for t, v in zip(top.indices, top.values)]
        depth = 1
        while frontier and not hit10:
            grow, blank = [], False
            for p, plp in frontier:
                text = decode(list(p))
                if text == target:
                    hit10, found_lp = True, plp
                    break
                if depth < depth_limit and target.startswith(text.rstrip("\ufffd")) and not (text == "" and blank):
                    grow.append((p, plp))  # a path that spelled nothing yet: the first per depth (wholeword)
                    blank = blank or text == ""
            if hit10:
                break
            frontier = []
            for p, plp in grow:
                top = last_logprobs(context + list(p)).topk(TOP)
                frontier += [(p + (int(t),), plp + float(v)) for t, v in zip(top.indices, top.values)]
            depth += 1
        counter[0] += len(full)
        with torch.inference_mode():
            tf = torch.log_softmax(model.model(input_ids=torch.tensor([full], device=model.device)).logits[0].float(), -1).cpu()
        word_lp = sum(float(tf[len(context) + j - 1, t]) for j, t in enumerate(own))
        word_lp += float(torch.logsumexp(tf[-1].masked_fill(~ends[: tf.shape[1]], float("-inf")), -1))
        out.append(WordPrediction(greedy, lp, len(path), greedy == target, hit10 or greedy == target, word_lp, len(own), found_lp))
    return out


class OnePassSteps(LineSteps):
    """The reference for ``_Seq2SeqLineSteps`` (tests, perf/seq2seq.py): a full encoder-decoder pass per
    request, one at a time, without a cache; ``passes`` counts them."""

    def __init__(self, model: Seq2SeqLM, lines):
        super().__init__(model, lines)
        self.passes = 0

    def steps(self, requests):
        m, out = self.model, []
        for line, word, path in requests:
            source, prefix = m.infill_ids(self.ids[line][: self.starts[line][word]])
            own = self.actual(line, word)
            target = own[len(path)] if len(path) < len(own) and list(path) == own[: len(path)] else -1
            self.passes += 1
            with torch.inference_mode():
                lp = m._position_logprobs(m._position_inputs([(source, prefix + list(path))]))
            out += summarize_steps(lp, self.vocab_tensors, [target])
        return out


def predict_words_one_pass(model: Seq2SeqLM, lines, events, search: bool = True):
    """``model.predict_words`` with one full pass per prefix and per search node: (predictions, passes)."""
    steps = OnePassSteps(model, lines)
    decode = functools.partial(model.tokenizer.decode, skip_special_tokens=False, clean_up_tokenization_spaces=False)
    preds = predict_words(steps, decode, model.words, [(l, i, lines[l][i]) for l, i in events], search)
    return preds, steps.passes
