"""The generate stage: a model turns a task into a page.

Inputs and outputs (frames, the versioned prompt, page extraction), the models that generate
(``llm.ChatModel`` over a provider's client from ``iwrbench.models``, the baselines) and the MODEL
argument (``registry``). The response cache is ``iwrbench.models.cache`` (the judge's model-based
parts use it too), re-exported here. Heavy imports (PyAV, Pillow) happen inside the functions that
need them.
"""

from ..models.cache import CachedClient, ResponseCache, default_cache_dir, request_key
from .extract import ExtractedPage, NoPageError, extract_page
from .frames import Frame, VideoInfo, sample_frames, sample_times, video_info
from .plan import dry_run, format_dry_run
from .prompt import (
    PROMPTS,
    PromptTemplate,
    build_request,
    describe_inputs,
    describe_options,
    effective_options,
    load_prompt,
    model_settings,
    prompt_sha256,
    request_manifest,
)

__all__ = [
    "CachedClient", "ExtractedPage", "Frame", "NoPageError", "PROMPTS", "PromptTemplate",
    "ResponseCache", "VideoInfo", "build_request", "default_cache_dir", "describe_inputs",
    "describe_options", "dry_run", "effective_options", "extract_page", "format_dry_run",
    "load_prompt", "model_settings", "prompt_sha256", "request_key", "request_manifest",
    "sample_frames", "sample_times", "video_info",
]
