"""OCR engines: Tesseract reads rendered UI text, EasyOCR reports why it cannot run, the cache."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from iwrbench.errors import ComponentMissing
from iwrbench.metrics import (
    CachedOcr,
    EasyOcr,
    OcrCache,
    OcrEngine,
    TesseractOcr,
    get_ocr,
    image_digest,
    normalise_polarity,
    word_f1,
    words,
)

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _drawn_page() -> tuple[Image.Image, str, str]:
    """A 1280x360 image: dark-on-white lines and a white-on-blue header bar and button."""
    if not Path(FONT).is_file():
        pytest.skip(f"font {FONT} missing (apt-get install fonts-dejavu-core)")
    img = Image.new("RGB", (1280, 360), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 18)
    big = ImageFont.truetype(FONT, 26)
    d.rectangle([0, 0, 1280, 56], fill="#1f6feb")
    d.text((24, 14), "Harbour Books", font=big, fill="white")
    d.text((400, 18), "Fiction Travel Poetry", font=font, fill="white")
    body = ["Twelve quiet stories about lighthouse keepers", "Shipping within three working days", "Returns accepted for thirty days"]
    for i, line in enumerate(body):
        d.text((40, 90 + 40 * i), line, font=font, fill="#222222")
    d.rounded_rectangle([40, 230, 220, 270], radius=6, fill="#c2185b")
    d.text((62, 239), "Checkout now", font=font, fill="white")
    dark_text = " ".join(body)
    light_text = "Harbour Books Fiction Travel Poetry Checkout now"
    return img, dark_text, light_text


@pytest.fixture(scope="module")
def engine():
    e = TesseractOcr()
    ok, why = e.available()
    if not ok:
        pytest.skip(why)
    return e


def test_tesseract_is_an_ocr_engine(engine):
    assert isinstance(engine, OcrEngine)
    assert engine.describe()["psm"] == 6
    assert engine.describe()["version"].startswith("tesseract")


def test_reads_drawn_text_including_light_on_dark(engine):
    img, dark_text, light_text = _drawn_page()
    got = engine.read_text(img)
    assert word_f1(dark_text + " " + light_text, got) >= 0.9, got
    got_words = set(words(got))
    # the white-on-colour words are what polarity normalisation is for
    assert {"harbour", "books", "checkout"} <= got_words, got


def test_polarity_normalisation_makes_dark_backgrounds_light():
    img, _, _ = _drawn_page()
    norm = normalise_polarity(img)
    assert norm.mode == "L"
    # header background (blue) becomes white; a white page stays white
    assert norm.getpixel((1200, 30)) > 230
    assert norm.getpixel((1200, 300)) > 230
    # the button's background becomes white too, and its white glyphs dark
    button = norm.crop((44, 234, 216, 266))
    px = np.asarray(button)
    assert np.median(px) > 200
    assert px.min() < 100


def test_reads_a_rendered_page(tesseract, shots):
    img = shots["shop/identical"]
    dom = shots["shop/identical:text"]
    got = tesseract.read_text(img)
    assert word_f1(dom, got) >= 0.9, got
    assert {"northwind", "store", "add", "cart"} <= set(words(got))


def test_blank_page_reads_empty(tesseract, shots):
    assert tesseract.read_text(shots["blank"]).strip() == ""


class CountingOcr:
    name = "counting"

    def __init__(self, tag: str = "a"):
        self.calls = 0
        self.tag = tag

    def available(self):
        return True, "test double"

    def describe(self):
        return {"name": self.name, "tag": self.tag}

    def read_text(self, img):
        self.calls += 1
        return f"text of {img.size[0]}x{img.size[1]} #{self.calls}"


def test_cache_reads_each_image_once():
    inner = CountingOcr()
    ocr = CachedOcr(inner)
    a = Image.new("RGB", (64, 32), "white")
    b = Image.new("RGB", (64, 32), "black")
    first = ocr.read_text(a)
    assert ocr.read_text(a.copy()) == first  # same content, another object
    assert inner.calls == 1
    ocr.read_text(b)
    assert inner.calls == 2
    assert (ocr.cache.hits, ocr.cache.misses) == (1, 2)


def test_cache_key_depends_on_content_and_engine_settings():
    a = Image.new("RGB", (64, 32), "white")
    b = a.copy()
    b.putpixel((3, 3), (0, 0, 0))
    assert image_digest(a) != image_digest(b)
    assert image_digest(a) == image_digest(a.copy())
    shared = OcrCache()
    x, y = CachedOcr(CountingOcr("x"), shared), CachedOcr(CountingOcr("y"), shared)
    assert x.key(a) != y.key(a)
    assert x.key(a) != x.key(b)


def test_disk_cache_survives_a_new_engine(tmp_path):
    a = Image.new("RGB", (64, 32), "white")
    first = CachedOcr(CountingOcr(), OcrCache(tmp_path))
    text = first.read_text(a)
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1
    second_inner = CountingOcr()
    second = CachedOcr(second_inner, OcrCache(tmp_path))
    assert second.read_text(a) == text
    assert second_inner.calls == 0


def test_a_builds_readings_are_read_by_the_judge_and_never_written_to(tmp_path):
    """``also_read`` (a suite build's ground-truth readings, runs/pipeline.py): a reading there is not read again;
    what the judge reads itself stays in its memory, out of the build's folder."""
    gt, shot = Image.new("RGB", (64, 32), "white"), Image.new("RGB", (64, 32), "black")
    build = CachedOcr(CountingOcr(), OcrCache(tmp_path / "build"))
    text = build.read_text(gt)
    judge_engine = CountingOcr()
    judge = CachedOcr(judge_engine, OcrCache(also_read=[tmp_path / "build"]))
    assert judge.read_text(gt) == text and judge_engine.calls == 0
    judge.read_text(shot)
    assert judge_engine.calls == 1 and len(list((tmp_path / "build").glob("*.json"))) == 1
    other = CachedOcr(CountingOcr("other settings"), OcrCache(also_read=[tmp_path / "build"]))
    other.read_text(gt)  # another engine's settings: another key, read by that engine
    assert other.engine.calls == 1


def test_get_ocr_default_is_cached_tesseract(engine):
    ocr = get_ocr()
    assert isinstance(ocr, CachedOcr) and ocr.name == "tesseract"
    assert isinstance(get_ocr(cache=False), TesseractOcr)


def test_get_ocr_unknown_name():
    with pytest.raises(ComponentMissing, match="unknown OCR engine"):
        get_ocr("nope")


def test_tesseract_missing_binary_is_reported():
    e = TesseractOcr(binary="/nonexistent/tesseract")
    ok, why = e.available()
    assert not ok and "apt-get install tesseract-ocr" in why
    with pytest.raises(ComponentMissing):
        get_ocr("tesseract", binary="/nonexistent/tesseract")


def test_easyocr_reports_why_it_is_unavailable(tmp_path, monkeypatch):
    e = EasyOcr(model_dir=tmp_path)
    ok, why = e.available()
    assert not ok
    if importlib.util.find_spec("easyocr") is None:
        assert "easyocr" in why and "pip install" in why
        with pytest.raises(ComponentMissing, match="easyocr"):
            get_ocr("easyocr", model_dir=tmp_path)
    # with the package present but no model files, the files are named and never downloaded
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: object() if n == "easyocr" else real(n, *a))
    ok, why = EasyOcr(model_dir=tmp_path).available()
    assert not ok and "craft_mlt_25k.pth" in why and "english_g2.pth" in why and "IWR_EASYOCR_MODEL_DIR" in why
    for f in ("craft_mlt_25k.pth", "english_g2.pth"):
        (tmp_path / f).write_bytes(b"x")
    assert EasyOcr(model_dir=tmp_path).available()[0]


def test_easyocr_model_dir_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("IWR_EASYOCR_MODEL_DIR", str(tmp_path))
    assert EasyOcr().model_dir() == tmp_path
    monkeypatch.delenv("IWR_EASYOCR_MODEL_DIR")
    monkeypatch.setenv("EASYOCR_MODULE_PATH", str(tmp_path))
    assert EasyOcr().model_dir() == tmp_path / "model"


def test_words_come_with_boxes_and_the_same_text(engine):
    """One Tesseract call (TSV) gives the words with their boxes; its text is the plain-text
    output's, whitespace aside."""
    import io
    import os
    import subprocess

    from iwrbench.metrics import normalise_text

    img, dark_text, _ = _drawn_page()
    reading = engine.read(img)
    assert reading.text == engine.read_text(img)
    buf = io.BytesIO()
    engine.prepare(img).save(buf, format="PPM")
    plain = subprocess.run([engine._path(), "stdin", "stdout", "--psm", "6"], input=buf.getvalue(), capture_output=True,
                           env=dict(os.environ, OMP_THREAD_LIMIT="1"), check=True).stdout.decode()
    assert normalise_text(plain) == normalise_text(reading.text)
    w = next(w for w in reading.words if w.text == "Checkout")
    assert 55 <= w.x <= 70 and 230 <= w.y <= 250 and 60 <= w.w <= 140 and 10 <= w.h <= 30  # drawn at (62, 239)
    assert len({x.line for x in reading.words}) >= 5


def test_parse_tsv_lines_and_paragraphs():
    from iwrbench.metrics._ocr import parse_tsv

    head = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
    rows = ["5\t1\t1\t1\t1\t1\t10\t20\t30\t12\t96.5\tHello", "5\t1\t1\t1\t1\t2\t45\t20\t40\t12\t90\tworld",
            "4\t1\t1\t1\t2\t0\t10\t40\t80\t12\t-1\t", "5\t1\t1\t1\t2\t1\t10\t40\t30\t12\t80\tnext",
            "5\t1\t1\t2\t1\t1\t10\t80\t30\t12\t70\tpara", "5\t1\t1\t2\t1\t2\t50\t80\t5\t12\t10\t "]
    r = parse_tsv(head + "\n".join(rows))
    assert r.text == "Hello world\nnext\n\npara"
    assert [w.text for w in r.words] == ["Hello", "world", "next", "para"]
    assert r.words[1].x == 45 and r.words[1].conf == 90.0
    assert r.words[0].line == r.words[1].line != r.words[2].line


def test_cache_keeps_words_on_disk(engine, tmp_path):
    img, _, _ = _drawn_page()
    first = CachedOcr(engine, OcrCache(tmp_path))
    r1 = first.read(img)
    again = CachedOcr(engine, OcrCache(tmp_path))
    r2 = again.read(img)
    assert again.cache.hits == 1 and again.cache.misses == 0
    assert r2 == r1 and r2.words
