"""The offline visual comparison (``blocks``): text blocks, elements, global, the step's change.

Real Chromium screenshots of the test pages (metrics_pages), real Tesseract readings."""

from __future__ import annotations

import pytest
from PIL import Image, ImageFilter

from iwrbench.metrics import compare, get_visual
from iwrbench.metrics._blocks import PARTS, BlocksBackend, changed_region

from metrics_pages import RANKED_FAMILIES


@pytest.fixture(scope="module")
def blocks(tesseract):
    return get_visual("blocks", ocr=tesseract)


def test_default_and_description(blocks):
    assert isinstance(get_visual(), BlocksBackend)
    d = blocks.describe()
    assert d["name"] == "blocks" and d["version"] == 1 and d["parts"] == list(PARTS)


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_identical_is_1_in_every_part(blocks, shots, family):
    gt = shots[f"{family}/identical"]
    a = blocks.analyse(gt, gt.copy())
    assert a.visual == pytest.approx(1.0, abs=1e-6)
    assert all(v == pytest.approx(1.0, abs=1e-6) for v in a.parts.values()), a.parts


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_orders_the_variants(blocks, shots, family):
    gt = shots[f"{family}/identical"]
    s = {v: blocks.similarity(gt, shots[f"{family}/{v}"]) for v in ("shift3", "restyled", "broken", "unrelated")}
    s["blank"] = blocks.similarity(gt, shots["blank"])
    assert 1.0 > s["shift3"] > s["broken"] > s["unrelated"] > s["blank"], s
    assert s["restyled"] > s["unrelated"] + 0.2, s
    assert s["blank"] < 0.1, s


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_blurred_text_loses_at_least_half_of_the_content(blocks, shots, family):
    gt = shots[f"{family}/identical"]
    blurred = gt.filter(ImageFilter.GaussianBlur(4))
    a = blocks.analyse(gt, blurred)
    assert a.parts["content"] <= 0.5, a.parts
    # ... where the structure x colour similarity alone hardly notices
    assert get_visual("hog-colour").similarity(gt, blurred) > 0.85
    assert a.visual < blocks.similarity(gt, shots[f"{family}/shift3"]) - 0.2


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_a_page_that_did_not_react_scores_below_one_that_did(tesseract, shots, family):
    """The step's before (prev) is the half-missing page, its after the full one: a page that stayed
    as before keeps its background but not the change."""
    prev, gt = shots[f"{family}/broken"], shots[f"{family}/identical"]
    stayed = compare(gt, prev, ocr=tesseract, prev=prev)
    reacted = compare(gt, shots[f"{family}/shift3"], ocr=tesseract, prev=prev)
    unweighted = compare(gt, prev, ocr=tesseract)
    assert stayed["visual"] < reacted["visual"] - 0.25, (stayed["visual"], reacted["visual"])
    assert stayed["high_level"] < reacted["high_level"] - 20
    assert stayed["visual"] < unweighted["visual"]  # the changed region weighs
    assert compare(gt, gt, ocr=tesseract, prev=prev)["visual"] == pytest.approx(1.0, abs=1e-6)


def test_changed_region():
    a = Image.new("RGB", (320, 180), "white")
    b = a.copy()
    b.paste((0, 0, 0), (100, 50, 140, 70))  # 40 x 20 px: 3 x 2 cells, grown by one
    g = changed_region(a, b)
    assert g is not None and g.shape == (11, 20)
    assert g[3:5, 6:9].all() and not g[0, 0] and not g[10, 19]
    c = a.copy()
    c.putpixel((5, 5), (0, 0, 0))  # a caret-sized change is no change
    assert changed_region(a, c) is None


def test_each_rubric_part_has_its_own_signal(tesseract, shots):
    """A restyled page keeps its text (content) and loses its colours (style); a blurred one keeps
    its layout and loses its text; the rubric's five points come from the five parts."""
    gt = shots["shop/identical"]
    restyled = compare(gt, shots["shop/restyled"], ocr=tesseract)
    assert restyled["visual_parts"]["content"] > 0.9
    assert restyled["visual_parts"]["style"] < restyled["visual_parts"]["content"] - 0.2
    blurred = compare(gt, gt.filter(ImageFilter.GaussianBlur(4)), ocr=tesseract)
    assert blurred["visual_parts"]["layout"] > blurred["visual_parts"]["content"] + 0.3
    for out in (restyled, blurred):
        parts, hl = out["visual_parts"], out["high_level_components"]
        for crit, part, top in (("layout", "layout", 10), ("elements", "elements", 15), ("content_text", "content", 40),
                                ("style", "style", 15), ("overall", "global", 20)):
            assert hl[crit] == pytest.approx(top * parts[part], abs=top * 1e-4 + 1e-3)
    # the overall point is the global picture's, not the visual score again: a blurred page looks the same from afar
    assert blurred["high_level_components"]["overall"] / 20 > blurred["visual"] + 0.2


def test_ground_truth_is_prepared_once(tesseract, shots):
    b = BlocksBackend(tesseract)
    gt = shots["login/identical"]
    b.analyse(gt, shots["login/shift3"])
    assert len(b._prepared) == 1
    b.analyse(gt, shots["login/restyled"])
    assert len(b._prepared) == 1
