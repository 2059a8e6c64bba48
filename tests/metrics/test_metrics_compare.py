"""compare(): every score of one pair, their timings, and the ground truth read once."""

from __future__ import annotations

import subprocess
import sys

import pytest

from iwrbench.metrics import CachedOcr, OfflineRubric, compare, get_visual


def test_compare_a_pair(tesseract, shots):
    gt, gen = shots["shop/identical"], shots["shop/restyled"]
    out = compare(gt, gen, ocr=tesseract, visual=get_visual())
    for k in ("ocr", "visual", "low_level"):
        assert 0.0 <= out[k] <= 1.0
    assert out["low_level"] == pytest.approx((out["ocr"] + out["visual"]) / 2)
    assert 0.0 <= out["high_level"] <= 100.0
    assert set(out["high_level_components"]) == {"layout", "elements", "content_text", "style", "overall"}
    assert out["high_level_components"]["overall"] == pytest.approx(20 * out["visual_parts"]["global"], abs=3e-3)
    assert out["visual"] == pytest.approx(sum(out["visual_parts"].values()) / 5, abs=1e-4)
    assert out["ocr"] > 0.8  # same text, other fonts
    assert {"ocr_gt", "ocr_gen", "visual", "high_level", "total"} <= set(out["timings"])
    assert out["components"]["ocr"]["name"] == "tesseract"
    assert out["components"]["visual"]["name"] == "blocks"
    assert out["components"]["rubric"]["name"] == "offline-rubric"
    assert out["components"]["rubric"]["version"] == 2


def test_ground_truth_is_read_once(shots):
    from iwrbench.metrics import get_ocr

    ocr = get_ocr()
    assert isinstance(ocr, CachedOcr)
    gt = shots["login/identical"]
    compare(gt, shots["login/shift3"], ocr=ocr)
    misses = ocr.cache.misses
    out = compare(gt, shots["login/restyled"], ocr=ocr)
    assert ocr.cache.misses == misses + 1  # only the new generated page
    assert out["timings"]["ocr_gt"] < 0.05


def test_blank_page(tesseract, shots):
    out = compare(shots["dashboard/identical"], shots["blank"], ocr=tesseract)
    assert out["ocr"] == 0.0
    assert out["visual"] < 0.1
    assert out["high_level"] <= 10


def test_names_are_accepted(shots):
    gt = shots["login/identical"]
    out = compare(gt, gt, ocr="tesseract", visual="hog", rubric=OfflineRubric())
    assert out["ocr"] == 1.0 and out["visual"] == pytest.approx(1.0) and out["high_level"] >= 99


def test_import_is_light():
    code = "import sys, iwrbench.metrics; print(sorted(m for m in ('numpy', 'torch', 'transformers', 'scipy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_below_noise_takes_out_what_no_person_sees_and_keeps_the_rest():
    import numpy as np
    from PIL import Image

    from iwrbench.metrics._compare import NOISE_FLOOR, below_noise

    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, (40, 60, 3), dtype=np.uint8)
    b = a.astype(np.int16)
    b[5:9, 5:9] += NOISE_FLOOR  # a level or two of anti-aliasing
    b[20:24, 30:40] = 255 - b[20:24, 30:40]  # a real change
    b = np.clip(b, 0, 255).astype(np.uint8)
    out = np.asarray(below_noise(Image.fromarray(a), Image.fromarray(b)))
    assert (out[5:9, 5:9] == a[5:9, 5:9]).all()
    changed = np.abs(a[20:24, 30:40].astype(int) - b[20:24, 30:40]).max(axis=2) > NOISE_FLOOR
    assert (out[20:24, 30:40][changed] == b[20:24, 30:40][changed]).all() and changed.sum() > 30
    assert below_noise(Image.fromarray(a), Image.fromarray(a).resize((30, 20))).size == (30, 20)  # sizes differ: as is


def test_a_few_pixels_off_by_a_level_score_as_the_identical_page(tesseract, shots):
    import numpy as np
    from PIL import Image

    gt = shots["login/identical"]
    a = np.asarray(gt.convert("RGB"), dtype=np.int16)
    rng = np.random.default_rng(11)
    edges = np.argwhere(np.abs(np.diff(a.sum(axis=2), axis=1)) > 60)  # on the edges of text and frames
    noisy = a.copy()
    for y, x in edges[rng.choice(len(edges), size=min(400, len(edges)), replace=False)]:
        noisy[y, x] += rng.choice([-2, -1, 1, 2])
    noisy_img = Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))
    keys = ("ocr", "visual", "low_level", "high_level")
    same, noise = compare(gt, gt, ocr=tesseract), compare(gt, noisy_img, ocr=tesseract)
    assert {k: noise[k] for k in keys} == {k: same[k] for k in keys}
    broken = compare(gt, shots["login/broken"], ocr=tesseract)
    assert broken["low_level"] < same["low_level"] - 0.05  # a change a person sees still counts
