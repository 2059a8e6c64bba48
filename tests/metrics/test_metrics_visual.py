"""The offline visual backends on real rendered screenshots: ranking, blank pages, shifts."""

from __future__ import annotations


import pytest
from PIL import Image

from iwrbench.errors import ComponentMissing
from iwrbench.metrics import DEFAULT_VISUAL, VISUAL_BACKENDS, VisualBackend, get_visual

from metrics_pages import RANKED_FAMILIES


@pytest.fixture(scope="module")
def default():
    """hog-colour: the offline default until blocks@1 (now its global part; test_metrics_blocks.py)."""
    return get_visual("hog-colour")


def test_default_is_blocks_and_hog_colour_stays(default):
    assert DEFAULT_VISUAL == "blocks"
    assert get_visual().name == "blocks"
    assert default.name == "hog-colour"
    assert isinstance(default, VisualBackend)
    assert default.available()[0]


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_identical_over_restyled_over_unrelated(default, shots, family):
    gt = shots[f"{family}/identical"]
    same = default.similarity(gt, gt.copy())
    restyled = default.similarity(gt, shots[f"{family}/restyled"])
    unrelated = default.similarity(gt, shots[f"{family}/unrelated"])
    assert same == pytest.approx(1.0)
    assert same > restyled + 0.05, (same, restyled)
    assert restyled > unrelated + 0.05, (restyled, unrelated)


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_blank_page_scores_low(default, shots, family):
    assert default.similarity(shots[f"{family}/identical"], shots["blank"]) < 0.1
    assert default.similarity(shots["blank"], shots[f"{family}/identical"]) < 0.1


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_stable_under_small_shifts(default, shots, family):
    gt = shots[f"{family}/identical"]
    restyled = default.similarity(gt, shots[f"{family}/restyled"])
    for v in ("shift3", "shift6"):
        s = default.similarity(gt, shots[f"{family}/{v}"])
        assert s >= 0.85, (v, s)
        assert s > restyled, (v, s, restyled)


@pytest.mark.parametrize("family", RANKED_FAMILIES)
def test_half_missing_is_between(default, shots, family):
    gt = shots[f"{family}/identical"]
    broken = default.similarity(gt, shots[f"{family}/broken"])
    assert default.similarity(gt, shots[f"{family}/shift6"]) > broken
    assert broken < 0.9


def test_ssim_is_fooled_by_a_blank_page(shots):
    """Why SSIM is not the default: white matches white."""
    ssim = get_visual("ssim")
    assert ssim.similarity(shots["login/identical"], shots["blank"]) > 0.8


def test_two_blank_pages_are_the_same(default):
    white = Image.new("RGB", (640, 360), "white")
    assert default.similarity(white, white.copy()) == 1.0


def test_different_sizes_are_compared(default, shots):
    gt = shots["shop/identical"]
    assert default.similarity(gt, gt.resize((640, 360))) > 0.8


@pytest.mark.parametrize("name", [n for n in VISUAL_BACKENDS if n != "dinov2"])
def test_every_offline_candidate_is_in_range(name, shots):
    b = get_visual(name)
    gt = shots["login/identical"]
    for other in (gt, shots["login/restyled"], shots["blank"]):
        assert 0.0 <= b.similarity(gt, other) <= 1.0
    assert b.describe()["name"] == name


def test_unknown_backend():
    with pytest.raises(ComponentMissing, match="unknown visual backend"):
        get_visual("clip")
