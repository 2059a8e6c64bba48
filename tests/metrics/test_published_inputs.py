"""What the published protocol hands its metric back-ends: EasyOCR gets an image file path (as the
published code hands it the screenshot file), DINOv2 gets the PIL image processor the checkpoint names,
and the two screenshots of a pair go in as they are (no resize), with the published OCR similarity."""

from __future__ import annotations

import asyncio
import importlib.util

import numpy as np
import pytest
from PIL import Image

from iwrbench.judge.score import JudgeComponents
from iwrbench.metrics import MllmRubric, PUBLISHED_PROMPT_VERSION, published_ocr_similarity
from iwrbench.metrics._ocr import EasyOcr, join_fragments
from iwrbench.models.chat import ChatReply
from iwrbench.protocols import OFFLINE, PUBLISHED


class StandInReader:
    """EasyOCR's ``Reader`` at its boundary: records what ``readtext`` was handed and decodes a path the way
    EasyOCR does (colour as RGB for the detector; grey from the file)."""

    def __init__(self, fragments):
        self.fragments = fragments
        self.got = []

    def readtext(self, image, detail=1):
        assert detail == 0
        if isinstance(image, str):
            with Image.open(image) as im:
                self.got.append(("path", np.asarray(im.convert("RGB")), np.asarray(im.convert("L"))))
        else:
            self.got.append((type(image).__name__, None, None))
        return list(self.fragments)


def test_easyocr_is_handed_a_png_path_holding_the_very_pixels():
    img = Image.new("RGB", (64, 32), (255, 0, 0))  # pure red: grey 76 read as RGB, 29 if taken as BGR
    img.paste((0, 0, 255), (32, 0, 64, 32))
    ocr = EasyOcr()
    ocr._reader = reader = StandInReader([" Sign in ", "", "  ", "Cart (2)"])
    assert ocr.read_text(img) == "Sign in Cart (2)"  # stripped, empty fragments dropped, single spaces
    ((kind, rgb, grey),) = reader.got
    assert kind == "path"
    assert (rgb == np.asarray(img)).all()
    assert grey[0, 0] == 76 and grey[0, 40] == 29  # red and blue keep their own luminance


def test_easyocr_is_built_in_full_precision(tmp_path, monkeypatch):
    # EasyOCR cannot be installed or fetched here: a stand-in package records how its Reader is built
    import importlib.machinery
    import sys
    import types

    built = []

    class Reader:
        def __init__(self, langs, **kw):
            built.append((langs, kw))

    mod = types.ModuleType("easyocr")
    mod.__spec__ = importlib.machinery.ModuleSpec("easyocr", None)
    mod.Reader = Reader
    monkeypatch.setitem(sys.modules, "easyocr", mod)
    for f in ("craft_mlt_25k.pth", "english_g2.pth"):
        (tmp_path / f).write_bytes(b"")
    ocr = EasyOcr(model_dir=tmp_path)
    ocr._get_reader()
    assert built == [(["en"], {"gpu": False, "model_storage_directory": str(tmp_path), "download_enabled": False,
                               "verbose": False, "quantize": False})]
    assert ocr.describe()["precision"] == "float32"
    assert EasyOcr(quantize=True).describe()["precision"] == "int8 recogniser"


def test_fragments_join_as_published():
    assert join_fragments(["a", " b ", None, "", "c"]) == "a b c"
    assert join_fragments([]) == ""


def test_published_ocr_similarity_keeps_the_text_as_read():
    assert published_ocr_similarity("", "") == 1.0 and published_ocr_similarity("a", "") == 0.0
    assert published_ocr_similarity("Sign In", "sign in") == 1.0
    # whitespace is not collapsed, as in the published code (the offline score collapses it)
    assert published_ocr_similarity("a  b", "a b") == pytest.approx(0.75)


@pytest.mark.skipif(importlib.util.find_spec("transformers") is None, reason="transformers not installed")
def test_dinov2_loads_the_pil_processor_the_checkpoint_names(tmp_path):
    torch = pytest.importorskip("torch")
    import transformers

    from iwrbench.metrics import Dinov2Backend
    from iwrbench.metrics._dino import DINOV2_PREPROCESSOR

    torch.manual_seed(0)
    cfg = transformers.Dinov2Config(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64,
                                    image_size=224, patch_size=14)
    transformers.Dinov2Model(cfg).save_pretrained(tmp_path)
    transformers.BitImageProcessor(**DINOV2_PREPROCESSOR).save_pretrained(tmp_path)
    b = Dinov2Backend(tmp_path)
    b._load()
    assert type(b._processor).__name__ in ("BitImageProcessor", "BitImageProcessorPil")  # never the torchvision one
    img = Image.new("RGB", (1280, 720), "white")
    px = b._pixels(img)
    # resize the short side to 256 (bicubic), centre crop 224, ImageNet normalisation: white is (1-mean)/std
    assert tuple(px.shape) == (1, 3, 224, 224)
    want = [(1 - m) / s for m, s in zip(DINOV2_PREPROCESSOR["image_mean"], DINOV2_PREPROCESSOR["image_std"])]
    assert px[0, :, 100, 100].tolist() == pytest.approx(want, abs=1e-4)
    # the embedding is the CLS token of the last hidden state (what the published code takes)
    with torch.inference_mode():
        out = b._model(pixel_values=px)
    assert torch.allclose(b.embed(img), out.last_hidden_state[0, 0].float())


class SizeRecorder:
    name = "size-recorder"

    def __init__(self):
        self.sizes = []

    def available(self):
        return True, ""

    def similarity(self, a, b):
        self.sizes.append((a.size, b.size))
        return 0.5


class FixedOcr:
    name = "fixed"

    def available(self):
        return True, ""

    def read_text(self, img):
        return "a  b" if img.size == (320, 180) else "a b"


class ScoreLine:
    name = "score-line"

    async def complete(self, request):
        return ChatReply(text="Score: 40/100")


@pytest.mark.parametrize("protocol", [PUBLISHED, OFFLINE])
def test_a_pair_goes_in_as_it_is_under_the_published_protocol(tmp_path, protocol):
    gt, shot = tmp_path / "step_0.png", tmp_path / "shot" / "step_0.png"
    shot.parent.mkdir()
    Image.new("RGB", (320, 180), "white").save(gt)
    Image.new("RGB", (640, 360), "white").save(shot)
    vis = SizeRecorder()
    c = JudgeComponents(protocol=protocol, ocr=FixedOcr(), visual=vis,
                        rubric=MllmRubric(ScoreLine(), prompt_version=PUBLISHED_PROMPT_VERSION))
    vs = asyncio.run(c.score_pair(0, gt, shot))
    if protocol is PUBLISHED:
        assert vis.sizes == [((320, 180), (640, 360))]  # no resize
        assert vs.ocr == pytest.approx(75.0)  # "a  b" against "a b", whitespace as read
    else:
        assert vis.sizes == [((320, 180), (320, 180))]
    assert vs.high_level == 40 and (shot.parent / "llm" / "rubric_0.txt").read_text() == "Score: 40/100"
