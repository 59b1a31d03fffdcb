"""Tiny random models of every family, built from configs with tokenizers trained on a few sentences: the tests'
fixtures and the GPU check (perf/gpu_check.py) use the same ones."""

from __future__ import annotations

from pathlib import Path

CORPUS = [
    "the dog is a kind of animal and the cat is an animal too .",
    "a poodle is a dog . a dog and a cat are pets .",
    "good is the opposite of bad and hot is the opposite of cold .",
    "someone who is happy is not sad . something that is big is not small .",
    '" dgo " is a misspelling of " dog " . did you mean " cat " ?',
    "an oak is a tree and a rose is a flower . the tree and the flower grow .",
] * 4


def _train_byte_bpe(texts, vocab_size: int, specials: list[str], add_prefix_space: bool):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=add_prefix_space)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return tok


def _byte_bpe_tokenizer(folder: Path):
    from transformers import PreTrainedTokenizerFast

    tok = _train_byte_bpe(CORPUS, 300, ["<|endoftext|>", "<pad>"], add_prefix_space=False)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>", pad_token="<pad>")
    fast.save_pretrained(folder)
    return fast


def _wordpiece_tokenizer(folder: Path):
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    normalizer, pre_tokenizer = normalizers.BertNormalizer(lowercase=True), pre_tokenizers.BertPreTokenizer()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    # The vocabulary is written out, sorted: the corpus's words, their beginnings and their pieces of up to 4
    # characters as ## continuations. (Trained with ## continuations, by the WordPiece trainer or BPE's, it was
    # numbered differently from one process to the next, so the model, and every figure scored with it, changed from
    # run to run; the byte-level BPE tokenizers above have no continuations and come out the same each time.)
    words = sorted({w for text in CORPUS for w, _ in pre_tokenizer.pre_tokenize_str(normalizer.normalize_str(text))})
    starts = {w[:n] for w in words for n in range(1, len(w) + 1)}
    pieces = {"##" + w[i:j] for w in words for i in range(1, len(w)) for j in range(i + 1, min(i + 4, len(w)) + 1)}
    vocab = specials + sorted(starts) + sorted(pieces)
    tok = Tokenizer(models.WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]"))
    tok.normalizer, tok.pre_tokenizer, tok.decoder = normalizer, pre_tokenizer, decoders.WordPiece()
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]", model_max_length=64)
    fast.save_pretrained(folder)
    return fast


GERMAN = [
    "der Hund ist ein Tier und die Katze ist auch ein Tier .",
    "Ich habe keine Zeit , weil ich nicht kommen kann .",
    "Entsprechend dem Plan gehen die Kinder nach Hause .",
    "Das Wetter ist unerwartet schön und das Ding ist gut .",
] * 4


def _marian_tokenizer(folder: Path):
    """A byte-level BPE shared by English and German that appends </s>, as Marian's tokenizers do."""
    from tokenizers import processors
    from transformers import PreTrainedTokenizerFast

    tok = _train_byte_bpe(CORPUS + GERMAN, 400, ["<pad>", "</s>", "<unk>"], add_prefix_space=True)
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", tok.token_to_id("</s>"))])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="</s>", pad_token="<pad>", unk_token="<unk>", model_max_length=64)
    fast.save_pretrained(folder)
    return fast


def _t5_tokenizer(folder: Path):
    """A SentencePiece-style (▁) BPE with T5's sentinels <extra_id_0..2>, appending </s>."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    sentinels = [f"<extra_id_{i}>" for i in range(3)]
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.train_from_iterator(CORPUS, trainers.BpeTrainer(vocab_size=200, special_tokens=["<pad>", "</s>", "<unk>"] + sentinels))
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", tok.token_to_id("</s>"))])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="</s>", pad_token="<pad>", unk_token="<unk>", additional_special_tokens=sentinels)
    fast.save_pretrained(folder)
    return fast


def _bart_tokenizer(folder: Path):
    """BART's layout: byte-level BPE, <s> text </s>, a <mask> that takes the space before it."""
    from tokenizers import AddedToken, processors
    from transformers import PreTrainedTokenizerFast

    tok = _train_byte_bpe(CORPUS, 300, ["<s>", "<pad>", "</s>", "<unk>", "<mask>"], add_prefix_space=False)
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, special=True)])
    tok.post_processor = processors.TemplateProcessing(single="<s> $A </s>", special_tokens=[("<s>", 0), ("</s>", 2)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", pad_token="<pad>", unk_token="<unk>", mask_token="<mask>", model_max_length=64)
    fast.save_pretrained(folder)
    return fast


def build_tiny_models(root: Path, positions: int = 64) -> dict[str, Path]:
    """Folders of tiny random models under ``root``: gpt2, llama (causal), bert (masked), bert-encoder, marian, t5,
    bart (seq2seq), gpt2-pickle (pickle weights only), taking ``positions`` tokens. Seeded: the same weights every time."""
    import torch
    import transformers

    torch.manual_seed(0)
    out = {}
    bpe = _byte_bpe_tokenizer(root / "bpe-tokenizer")
    wp = _wordpiece_tokenizer(root / "wp-tokenizer")
    mt = _marian_tokenizer(root / "marian-tokenizer")
    t5 = _t5_tokenizer(root / "t5-tokenizer")
    bart = _bart_tokenizer(root / "bart-tokenizer")
    for tok in (wp, mt, bart):
        tok.model_max_length = positions
    specs = {
        "gpt2": (bpe, transformers.GPT2LMHeadModel, transformers.GPT2Config(vocab_size=len(bpe), n_positions=positions, n_embd=32, n_layer=2, n_head=2, bos_token_id=bpe.bos_token_id, eos_token_id=bpe.eos_token_id)),
        "llama": (bpe, transformers.LlamaForCausalLM, transformers.LlamaConfig(vocab_size=len(bpe), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=positions, bos_token_id=bpe.bos_token_id, eos_token_id=bpe.eos_token_id)),
        "bert": (wp, transformers.BertForMaskedLM, transformers.BertConfig(vocab_size=len(wp), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2, max_position_embeddings=positions)),
        "marian": (mt, transformers.MarianMTModel, transformers.MarianConfig(
            vocab_size=len(mt), d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2, decoder_attention_heads=2,
            encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=positions, pad_token_id=mt.pad_token_id,
            eos_token_id=mt.eos_token_id, decoder_start_token_id=mt.pad_token_id, forced_eos_token_id=None)),
        "t5": (t5, transformers.T5ForConditionalGeneration, transformers.T5Config(
            vocab_size=len(t5), d_model=32, d_kv=16, d_ff=64, num_layers=2, num_decoder_layers=2, num_heads=2,
            pad_token_id=t5.pad_token_id, eos_token_id=t5.eos_token_id, decoder_start_token_id=t5.pad_token_id)),
        "bart": (bart, transformers.BartForConditionalGeneration, transformers.BartConfig(
            vocab_size=len(bart), d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2, decoder_attention_heads=2,
            encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=positions, pad_token_id=bart.pad_token_id, bos_token_id=bart.bos_token_id,
            eos_token_id=bart.eos_token_id, decoder_start_token_id=bart.eos_token_id, forced_bos_token_id=None, forced_eos_token_id=None)),
        "bert-encoder": (wp, transformers.BertModel, transformers.BertConfig(vocab_size=len(wp), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2, max_position_embeddings=positions)),
    }
    for name, (tok, cls, config) in specs.items():
        model = cls(config).eval()
        model.save_pretrained(root / name, safe_serialization=True)
        tok.save_pretrained(root / name)
        out[name] = root / name
    pickled = transformers.GPT2LMHeadModel(specs["gpt2"][2])
    (root / "gpt2-pickle").mkdir()
    pickled.config.save_pretrained(root / "gpt2-pickle")
    torch.save(pickled.state_dict(), root / "gpt2-pickle" / "pytorch_model.bin")  # a pickle-only checkpoint
    bpe.save_pretrained(root / "gpt2-pickle")
    out["gpt2-pickle"] = root / "gpt2-pickle"
    return out


