"""Model families behind one vocabulary: ``load_model`` returns a CausalLM, MaskedLM, EncoderModel or Seq2SeqLM."""

from .base import ModelInfo, ScoringModel, TokenScores
from .load import ModelError, ModelPlan, load_model, model_family, plan_model

__all__ = ["ModelError", "ModelInfo", "ModelPlan", "ScoringModel", "TokenScores", "load_model", "model_family", "plan_model"]
