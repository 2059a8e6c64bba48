"""DINOv2 similarity, the published low-level visual score: cosine of DINOv2-base CLS embeddings,
clipped to [0, 1].

Weights are only ever loaded from disk: ``model_path``, else ``$IWR_DINOV2_PATH``, else the
Hugging Face cache entry of ``facebook/dinov2-base`` with downloads disabled
(``local_files_only=True``). ``available()`` says which of these is missing.

Preprocessing as published: the image processor the checkpoint's ``preprocessor_config.json`` names
(``BitImageProcessor``, PIL-based), which is what the published code's pinned transformers 4.57
loads when ``use_fast`` is unset. It is asked for explicitly (``use_fast=False``): newer transformers
pick a torchvision-based processor when torchvision is installed, whose resize differs slightly. The
two screenshots go in as they are (no resize to a common size), each converted to RGB.

Cropping (the published weak point 3): DINOv2's image processor resizes the short side to 256 and
centre-crops 224 x 224, so of a 16:9 screenshot only the middle 56 % of the width is seen; a page
whose sidebar or right column is wrong is not penalised. ``crop="published"`` keeps that for
fidelity (the default); ``crop="none"`` feeds the whole screenshot instead: resized with its aspect
ratio kept so the short side is 224 and both sides are multiples of the 14 px patch (1280 x 720
-> 392 x 224, 28 x 16 patches; DINOv2 interpolates its position embeddings), normalised like the
processor. Scores from the two settings are not comparable with each other.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from iwrbench.errors import ComponentMissing

if TYPE_CHECKING:  # pragma: no cover
    from PIL.Image import Image

HF_REPO = "facebook/dinov2-base"
_INSTALL = "pip install 'iwrbench[dino]' (torch and transformers)"
# dinov2-base's preprocessor_config.json, used when a weights folder has none.
DINOV2_PREPROCESSOR = {
    "size": {"shortest_edge": 256},
    "crop_size": {"height": 224, "width": 224},
    "do_center_crop": True,
    "do_resize": True,
    "do_rescale": True,
    "do_normalize": True,
    "resample": 3,
    "image_mean": [0.485, 0.456, 0.406],
    "image_std": [0.229, 0.224, 0.225],
}


def _hf_cached_dir(repo: str) -> str | None:
    """The snapshot folder of ``repo`` in the local Hugging Face cache, or None (never downloads)."""
    if importlib.util.find_spec("huggingface_hub") is None:
        return None
    try:
        from huggingface_hub import try_to_load_from_cache

        hit = try_to_load_from_cache(repo, "config.json")
    except Exception:  # an unreadable cache is "not there"
        return None
    return str(Path(hit).parent) if isinstance(hit, str) else None


def _has_weights(d: Path) -> bool:
    return (d / "config.json").is_file() and any(
        (d / f).is_file() for f in ("model.safetensors", "pytorch_model.bin", "model.safetensors.index.json")
    )


def _pil_processor() -> dict[str, Any]:
    """The keyword that asks transformers for the PIL image processor (``backend`` from 5.0, ``use_fast`` before)."""
    import transformers

    major = int(str(transformers.__version__).split(".")[0])
    return {"backend": "pil"} if major >= 5 else {"use_fast": False}


class Dinov2Backend:
    """Cosine of DINOv2 CLS embeddings (``pooler_output``), clipped to [0, 1]."""

    name = "dinov2"

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        crop: Literal["published", "none"] = "published",
        cache_size: int = 256,
    ):
        if crop not in ("published", "none"):
            raise ValueError(f"crop must be 'published' or 'none', not {crop!r}")
        self.crop = crop
        self._explicit = Path(model_path) if model_path else None
        self._model: Any = None
        self._processor: Any = None
        self._lock = threading.Lock()
        self._emb: OrderedDict[str, Any] = OrderedDict()
        self._cache_size = cache_size

    # -- where the weights are
    def weights(self) -> tuple[str | None, str]:
        """(path to load, how it was found) or (None, why not)."""
        if self._explicit is not None:
            if _has_weights(self._explicit):
                return str(self._explicit), "model_path"
            return None, f"model_path {self._explicit} has no config.json + model weights"
        env = os.environ.get("IWR_DINOV2_PATH")
        if env:
            if _has_weights(Path(env)):
                return env, "IWR_DINOV2_PATH"
            return None, f"IWR_DINOV2_PATH={env} has no config.json + model weights"
        cached = _hf_cached_dir(HF_REPO)
        if cached and _has_weights(Path(cached)):
            return cached, "Hugging Face cache"
        return None, (
            f"no DINOv2 weights on disk: set IWR_DINOV2_PATH to a folder holding {HF_REPO}'s config.json and "
            "model.safetensors (weights are never downloaded at run time)"
        )

    def available(self) -> tuple[bool, str]:
        for mod in ("torch", "transformers"):
            if importlib.util.find_spec(mod) is None:
                return False, f"{mod} is not installed ({_INSTALL})"
        path, how = self.weights()
        if path is None:
            return False, how
        return True, f"{HF_REPO}-compatible weights from {how}: {path}"

    def describe(self) -> dict[str, Any]:
        path, how = self.weights()
        info: dict[str, Any] = {"name": self.name, "crop": self.crop, "weights": path, "found_by": how}
        if self._model is not None:
            cfg = self._model.config
            info["config"] = {k: getattr(cfg, k, None) for k in ("hidden_size", "num_hidden_layers", "patch_size")}
        return info

    # -- model
    def _load(self) -> None:
        with self._lock:
            if self._model is not None:
                return
            ok, why = self.available()
            if not ok:
                raise ComponentMissing(f"DINOv2 backend is not available: {why}")
            from transformers import AutoImageProcessor, AutoModel

            path, _ = self.weights()
            model = AutoModel.from_pretrained(path, local_files_only=True)
            model.eval()
            if (Path(path) / "preprocessor_config.json").is_file():
                # the slow (PIL) processor, as the published pin loads it; never the torchvision one
                processor = AutoImageProcessor.from_pretrained(path, local_files_only=True, **_pil_processor())
            else:
                from transformers import BitImageProcessor

                processor = BitImageProcessor(**DINOV2_PREPROCESSOR)
            self._processor = processor
            self._model = model

    def _pixels(self, img: "Image") -> Any:
        import numpy as np
        import torch
        from PIL import Image as PILImage

        img = img.convert("RGB")
        if self.crop == "published":
            return self._processor(images=img, return_tensors="pt")["pixel_values"]
        patch = int(getattr(self._model.config, "patch_size", 14))
        w, h = img.size
        short = 224
        if w >= h:
            nh, nw = short, max(patch, round(w * short / h / patch) * patch)
        else:
            nw, nh = short, max(patch, round(h * short / w / patch) * patch)
        x = np.asarray(img.resize((nw, nh), PILImage.Resampling.BICUBIC), dtype=np.float32) / 255.0
        mean = np.asarray(self._processor.image_mean, dtype=np.float32)
        std = np.asarray(self._processor.image_std, dtype=np.float32)
        x = (x - mean) / std
        return torch.from_numpy(x.transpose(2, 0, 1).copy()).unsqueeze(0)

    def embed(self, img: "Image") -> Any:
        """The CLS embedding of ``img`` (a 1-D torch tensor); remembered by image content."""
        from iwrbench.metrics._ocr import image_digest

        self._load()
        key = image_digest(img)
        with self._lock:
            if key in self._emb:
                self._emb.move_to_end(key)
                return self._emb[key]
        import torch

        with torch.inference_mode():
            out = self._model(pixel_values=self._pixels(img))
        emb = out.pooler_output[0].float().clone()
        with self._lock:
            self._emb[key] = emb
            while len(self._emb) > self._cache_size:
                self._emb.popitem(last=False)
        return emb

    def similarity(self, a: "Image", b: "Image") -> float:
        import torch

        ea, eb = self.embed(a), self.embed(b)
        cos = float(torch.nn.functional.cosine_similarity(ea, eb, dim=0))
        return float(min(1.0, max(0.0, cos)))
