"""The DINOv2 backend's code path with a tiny randomly initialised model saved to a temp dir
(real DINOv2-base weights cannot be downloaded here): loading from a local path only, the
published centre crop versus the whole screenshot, and the availability probe."""

from __future__ import annotations

import importlib.util

import pytest
from PIL import Image, ImageDraw

from iwrbench.errors import ComponentMissing
from iwrbench.metrics import Dinov2Backend, VisualBackend, get_visual

HAVE_DINO_DEPS = all(importlib.util.find_spec(m) is not None for m in ("torch", "transformers"))
needs_torch = pytest.mark.skipif(
    not HAVE_DINO_DEPS, reason="torch/transformers not installed (pip install 'iwrbench[dino]')"
)


@pytest.fixture(scope="module")
def tiny_dinov2(tmp_path_factory):
    torch = pytest.importorskip("torch", reason="torch not installed (pip install 'iwrbench[dino]')")
    transformers = pytest.importorskip("transformers", reason="transformers not installed (pip install 'iwrbench[dino]')")
    torch.manual_seed(0)
    config = transformers.Dinov2Config(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, image_size=224, patch_size=14
    )
    path = tmp_path_factory.mktemp("tiny-dinov2")
    transformers.Dinov2Model(config).save_pretrained(path)
    return path


def _screenshot(edge_colour: str) -> Image.Image:
    """A 1280x720 page whose middle is fixed and whose left/right 200 px edges vary."""
    img = Image.new("RGB", (1280, 720), "white")
    d = ImageDraw.Draw(img)
    d.rectangle([400, 100, 880, 300], fill="#1f6feb")
    d.rectangle([450, 400, 830, 600], outline="black", width=4)
    d.rectangle([0, 0, 200, 720], fill=edge_colour)
    d.rectangle([1080, 0, 1280, 720], fill=edge_colour)
    return img


@needs_torch
def test_loads_from_a_local_path_and_scores(tiny_dinov2):
    b = Dinov2Backend(tiny_dinov2)
    assert isinstance(b, VisualBackend)
    ok, why = b.available()
    assert ok and "model_path" in why
    a = _screenshot("white")
    assert b.similarity(a, a.copy()) == pytest.approx(1.0, abs=1e-5)
    s = b.similarity(a, Image.new("RGB", (1280, 720), "black"))
    assert 0.0 <= s <= 1.0
    assert b.describe()["config"]["hidden_size"] == 32


@needs_torch
def test_published_crop_ignores_the_sides_and_none_does_not(tiny_dinov2):
    """Weak point 3: the processor's centre crop of a 16:9 screenshot drops both sides."""
    a, b = _screenshot("white"), _screenshot("#c2185b")
    published = Dinov2Backend(tiny_dinov2, crop="published")
    whole = Dinov2Backend(tiny_dinov2, crop="none")
    assert published.similarity(a, b) == pytest.approx(1.0, abs=1e-5)
    assert whole.similarity(a, b) < 0.999


@needs_torch
def test_none_crop_keeps_aspect_on_the_patch_grid(tiny_dinov2):
    b = Dinov2Backend(tiny_dinov2, crop="none")
    b._load()
    px = b._pixels(_screenshot("white"))
    assert tuple(px.shape) == (1, 3, 224, 392)
    p = Dinov2Backend(tiny_dinov2, crop="published")
    p._load()
    assert tuple(p._pixels(_screenshot("white")).shape) == (1, 3, 224, 224)


def test_unavailable_without_weights(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    monkeypatch.delenv("IWR_DINOV2_PATH", raising=False)
    ok, why = Dinov2Backend().available()
    assert not ok
    assert ("IWR_DINOV2_PATH" in why) or ("pip install" in why)
    monkeypatch.setenv("IWR_DINOV2_PATH", str(tmp_path))
    ok, why = Dinov2Backend().available()
    assert not ok
    if HAVE_DINO_DEPS:
        assert str(tmp_path) in why and "config.json" in why
    with pytest.raises(ComponentMissing, match="dinov2"):
        get_visual("dinov2")


def test_bad_crop_rejected():
    with pytest.raises(ValueError):
        Dinov2Backend(crop="centre")


@needs_torch
def test_found_in_the_local_hugging_face_cache(tiny_dinov2, monkeypatch):
    import iwrbench.metrics._dino as dino

    monkeypatch.delenv("IWR_DINOV2_PATH", raising=False)
    monkeypatch.setattr(dino, "_hf_cached_dir", lambda repo: str(tiny_dinov2) if repo == "facebook/dinov2-base" else None)
    b = get_visual("dinov2")
    assert b.describe()["found_by"] == "Hugging Face cache"
    img = _screenshot("white")
    assert b.similarity(img, img) == pytest.approx(1.0, abs=1e-5)


@needs_torch
def test_environment_variable_path(tiny_dinov2, monkeypatch):
    monkeypatch.setenv("IWR_DINOV2_PATH", str(tiny_dinov2))
    b = get_visual("dinov2", crop="none")
    assert b.describe()["found_by"] == "IWR_DINOV2_PATH" and b.crop == "none"
