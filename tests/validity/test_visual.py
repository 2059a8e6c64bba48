"""The visual calibration set: Kendall tau-b, the written orderings, the candidates made in a real
browser, and (validity tier, on the built default suite) the visual score against the orderings."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from iwrbench.validity import visual as V

KINDS = {"identical", "implementation", "reconstruction", "restyled", "text-replaced", "text-blurred",
         "layout-shifted", "not-reacted", "unstyled", "unrelated", "blank"}


def test_kendall_tau_b():
    truth = {"a": 0, "b": 1, "c": 2, "d": 3}
    assert V.kendall_tau_b(truth, {"a": 4, "b": 3, "c": 2, "d": 1}) == pytest.approx(1.0)
    assert V.kendall_tau_b(truth, {"a": 1, "b": 2, "c": 3, "d": 4}) == pytest.approx(-1.0)
    assert V.kendall_tau_b(truth, {"a": 4, "b": 2, "c": 3, "d": 1}) == pytest.approx(4 / 6)  # one pair swapped
    tied = {"a": 0, "b": 1, "c": 1, "d": 2}  # the person tied b and c: their order does not count
    assert V.kendall_tau_b(tied, {"a": 4, "b": 2, "c": 3, "d": 1}) == pytest.approx(5 / (5 * 6) ** 0.5)
    assert V.kendall_tau_b(tied, {"a": 4, "b": 3, "c": 2, "d": 1}) == V.kendall_tau_b(tied, {"a": 4, "b": 2, "c": 3, "d": 1})
    assert V.kendall_tau_b(truth, {"a": 1, "b": 1, "c": 1, "d": 1}) == 0.0  # a metric that tells nothing apart


def test_the_written_orderings():
    """Every group is ordered, with reasons, over exactly its candidates; a third is held out; the
    groups come from many tasks and include independent TodoMVC implementations."""
    groups = V.load_groups()
    assert len(groups) >= 25
    assert all(g.ordering and len(g.reasons) > 80 for g in groups)
    held = [g for g in groups if g.split == "held-out"]
    assert len(held) >= len(groups) // 3 and {g.split for g in groups} == {"tuning", "held-out"}
    assert len({g.task for g in groups}) >= 18
    assert sum(any(c.startswith("implementation:") for c in g.candidates) for g in groups) >= 3
    for g in groups:
        assert {c.split(":")[0] for c in g.candidates} <= KINDS, g.id
        rank = g.rank()
        assert rank["identical"] == 0 and rank["blank"] == max(rank.values()), g.id
        if g.checkpoint > 0:
            assert "not-reacted" in g.candidates, g.id
        assert len(g.ordering) >= 6, g.id  # an ordering, not a few buckets


def test_blur_boxes_blurs_only_the_boxes():
    img = Image.new("RGB", (200, 80), "white")
    d = ImageDraw.Draw(img)
    for x in range(10, 190, 4):
        d.line([(x, 10), (x, 30)], fill="black")  # a crisp texture above...
        d.line([(x, 50), (x, 70)], fill="black")  # ...and below
    out = V.blur_boxes(img, [[10, 10, 190, 30]])
    assert out.getpixel((12, 20)) != img.getpixel((12, 20)) or out.getpixel((14, 20)) != img.getpixel((14, 20))
    assert out.crop((0, 45, 200, 80)).tobytes() == img.crop((0, 45, 200, 80)).tobytes()


@pytest.mark.browser
def test_candidates_made_at_the_step_and_the_page_goes_on(tmp_path):
    """A bundled reconstruction (its own task folder: no suite needed) driven by the judge's replay;
    the source variants are taken at step 1, then undone: the page still passes every later step."""
    from iwrbench.metrics import get_ocr, ocr_similarity

    from iwrbench.browser.core import launch_browser
    from playwright.async_api import async_playwright

    task, bundle = V._reconstruction("login-errors", "careful", tmp_path / "page")
    variants = list(V.SOURCE_VARIANTS)

    async def go():
        async with async_playwright() as pw:
            b = await launch_browser(pw)
            try:
                return (await V.drive(b, task, bundle, tmp_path / "shots", {1: variants}),
                        await V.drive(b, task, bundle, tmp_path / "plain", {}))
            finally:
                await b.close()

    shots, plain = asyncio.run(go())
    assert max(shots) == len(task.action_sequence)  # the restored page passed every step after the variants
    assert set(shots[1]) == {"page", *variants}
    page = Image.open(shots[1]["page"]).convert("RGB")
    ocr = get_ocr()
    text = ocr.read_text(page)
    for v in variants:
        im = Image.open(shots[1][v]).convert("RGB")
        assert im.size == page.size and im.tobytes() != page.tobytes(), v
    assert ocr_similarity(text, ocr.read_text(Image.open(shots[1]["text-replaced"]))) < 0.5
    assert ocr_similarity(text, ocr.read_text(Image.open(shots[1]["text-blurred"]))) < 0.5
    assert ocr_similarity(text, ocr.read_text(Image.open(shots[1]["layout-shifted"]))) > 0.8
    # what follows shows no trace of the variants: the same as a drive without them
    from PIL import ImageChops, ImageStat

    for i in (1, 2):
        a, b = Image.open(shots[i]["page"]).convert("RGB"), Image.open(plain[i]["page"]).convert("RGB")
        assert max(ImageStat.Stat(ImageChops.difference(a, b)).mean) < 1.0, i


def _suite() -> Path | None:
    p = Path(os.environ.get("IWR_SUITE_TASKS") or Path.home() / ".cache" / "iwrbench" / "suites" / "default" / "tasks")
    return p if (p / "login-errors" / "task.json").is_file() else None


@pytest.mark.validity
def test_vfs_ranks_as_the_person_did(tmp_path):
    """Three tuning groups rebuilt from the built suite and scored: VFS agrees with the orderings."""
    tasks = _suite()
    if tasks is None:
        pytest.skip("the default suite is not built (iwr suite build default, or set IWR_SUITE_TASKS)")
    only = ["login-errors/4", "todo-manage-tasks/6", "lights-out-solve/7"]
    rows = V.run(tasks, tmp_path, only=only, metrics=["vfs", "hog-colour"])
    assert len(rows) == 3 and all(not r.extra["missing"] for r in rows)
    taus = [r.extra["tau"]["vfs"] for r in rows]
    assert sum(taus) / len(taus) >= 0.8, taus
    assert all(r.extra["tau"]["vfs"] > r.extra["tau"]["hog-colour"] for r in rows)


def test_the_set_in_iwr_validity():
    """``iwr validity --set visual``: one row a group; the set is met on the mean tau-b, per split too."""
    from iwrbench.validity import Verdict
    from iwrbench.validity.run import SETS, markdown, summarise

    assert "visual" in SETS
    rows = [Verdict("visual", "t", f"t/{i}", 0, None, None, ok=tau >= 0.8, extra={"batch": b, "tau": {"vfs": tau}})
            for i, (tau, b) in enumerate([(0.9, "tuning"), (0.75, "tuning"), (0.85, "held-out")])]
    s = summarise(rows)["visual"]
    assert s["mean_tau"] == pytest.approx(0.833, abs=1e-3) and s["met"]
    assert s["by_batch_tau"] == {"tuning": {"groups": 2, "mean_tau": 0.825}, "held-out": {"groups": 1, "mean_tau": 0.85}}
    assert "Kendall tau-b" in markdown(summarise(rows), rows)
    rows[0].extra["tau"]["vfs"] = 0.5
    assert not summarise(rows)["visual"]["met"]
