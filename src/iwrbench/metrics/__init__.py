"""Comparing a ground-truth screenshot with the screenshot of a generated page.

The published visual score (VFS) is 0.5 x low-level + 0.5 x high-level, where low-level is the
mean of an OCR text similarity and a DINOv2 similarity, and high-level a multimodal judge's
0-100 rubric. Everything here runs offline by default; see docs/metrics.md for the choices.

    from iwrbench.metrics import compare, get_ocr, get_visual
    ocr = get_ocr()                      # one per run: caches ground-truth readings
    result = compare(gt_img, gen_img, ocr=ocr, visual=get_visual())

Importing this package loads neither numpy nor torch; each backend imports what it needs when used.
"""

from iwrbench.metrics._compare import acompare, compare
from iwrbench.metrics._dino import Dinov2Backend
from iwrbench.metrics._ocr import CachedOcr, EasyOcr, OcrCache, OcrEngine, TesseractOcr, get_ocr, image_digest, normalise_polarity
from iwrbench.metrics._rubric import PROMPT_VERSION, PUBLISHED_PROMPT_VERSION, PUBLISHED_RUBRIC_MAX_TOKENS, RUBRIC_WEIGHTS, JudgedRubricScore, MllmRubric, OfflineRubric, RubricParseError, RubricScore, parse_rubric_reply, parse_score_line, prompt_sha256, rubric_prompt
from iwrbench.metrics._text import normalise_text, ocr_similarity, published_ocr_similarity, word_f1, words
from iwrbench.metrics._backends import DEFAULT_VISUAL, VISUAL_BACKENDS, get_visual
from iwrbench.metrics._visual import ColourLayoutBackend, ComboBackend, EdgeF1Backend, GradHistBackend, PHashBackend, SsimBackend, VisualBackend

__all__ = [
    "CachedOcr",
    "ColourLayoutBackend",
    "ComboBackend",
    "DEFAULT_VISUAL",
    "Dinov2Backend",
    "EasyOcr",
    "EdgeF1Backend",
    "GradHistBackend",
    "JudgedRubricScore",
    "MllmRubric",
    "OcrCache",
    "OcrEngine",
    "OfflineRubric",
    "PHashBackend",
    "PROMPT_VERSION",
    "PUBLISHED_PROMPT_VERSION",
    "PUBLISHED_RUBRIC_MAX_TOKENS",
    "RUBRIC_WEIGHTS",
    "RubricParseError",
    "RubricScore",
    "SsimBackend",
    "TesseractOcr",
    "VISUAL_BACKENDS",
    "VisualBackend",
    "acompare",
    "compare",
    "get_ocr",
    "get_visual",
    "image_digest",
    "normalise_polarity",
    "normalise_text",
    "parse_rubric_reply",
    "parse_score_line",
    "ocr_similarity",
    "prompt_sha256",
    "published_ocr_similarity",
    "rubric_prompt",
    "word_f1",
    "words",
]
