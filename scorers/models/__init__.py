"""Model families behind one vocabulary: ``load_model`` returns a CausalLM, MaskedLM, EncoderModel or Seq2SeqLM."""

from .base import ModelInfo, ScoringModel, TokenScores
from .load import ModelError, load_model, model_family

__all__ = ["ModelError", "ModelInfo", "ScoringModel", "TokenScores", "load_model", "model_family"]
