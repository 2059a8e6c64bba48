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
