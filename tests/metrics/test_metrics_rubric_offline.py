"""The offline rubric: published weights, bounds, identical = 100, blank <= 10."""

from __future__ import annotations

import pytest
from PIL import Image

from iwrbench.metrics import RUBRIC_WEIGHTS, OfflineRubric, get_visual

from metrics_pages import RANKED_FAMILIES


@pytest.fixture(scope="module")
def rubric(tesseract):
    return OfflineRubric(ocr=tesseract, visual=get_visual())


def test_published_weights():
    assert RUBRIC_WEIGHTS == {"layout": 10, "elements": 15, "content_text": 40, "style": 15, "overall": 20}
    assert sum(RUBRIC_WEIGHTS.values()) == 100


def _check_bounds(result):
    assert 0.0 <= result.score <= 100.0
    assert set(result.components) == set(RUBRIC_WEIGHTS)
    for k, v in result.components.items():
        assert 0.0 <= v <= RUBRIC_WEIGHTS[k], (k, v)
    assert result.score == pytest.approx(sum(result.components.values()), abs=1e-3)


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_identical_is_100(rubric, shots, family):
    gt = shots[f"{family}/identical"]
    r = rubric.score(gt, gt.copy())
    _check_bounds(r)
    assert r.score >= 99.0


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_blank_page_scores_at_most_10(rubric, shots, family):
    r = rubric.score(shots[f"{family}/identical"], shots["blank"])
    _check_bounds(r)
    assert r.score <= 10.0, r


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_orders_the_variants(rubric, shots, family):
    gt = shots[f"{family}/identical"]
    score = {v: rubric.score(gt, shots[f"{family}/{v}"]).score for v in ("shift3", "restyled", "unrelated")}
    assert 100 > score["shift3"] > score["unrelated"]
    assert score["restyled"] > score["unrelated"] + 20
    assert score["shift3"] >= 85
    assert score["unrelated"] <= 35


def test_a_given_comparison_is_used(rubric, shots):
    gt = shots["login/identical"]
    a = rubric.blocks.analyse(gt, shots["login/restyled"])
    a.parts = dict(a.parts, content=0.0, **{"global": 0.5})
    r = rubric.score(gt, gt, analysis=a)
    assert r.components["content_text"] == 0.0
    assert r.components["overall"] == pytest.approx(10.0)


def test_two_blank_pages(rubric):
    white = Image.new("RGB", (640, 360), "white")
    r = rubric.score(white, white.copy())
    assert r.score == pytest.approx(100.0)
