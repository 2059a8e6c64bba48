"""Report fixes: charts fit their boxes, the step table's columns hold what their headings say, the
header says who calls a model, and the task's recording plays from the report's own folder.

Run folders here are written as files (run.json, results.jsonl) and reported with the real writer;
the task is the official fixture, copied."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

from iwrbench import __version__
from iwrbench.records import AssertionResult, EvidenceResult, GenerationInfo, RunSpec, StepResult, TaskResult
from iwrbench.report import write_reports
from iwrbench.report._images import ImageStore

FIX = Path(__file__).parent.parent / "fixtures" / "official"
TASK = "demo_search"
ASSERTION = "Results for shoes are shown"


def _suite(tmp_path: Path) -> Path:
    suite = tmp_path / "suite"
    shutil.copytree(FIX / "data" / TASK, suite / TASK)
    (suite / TASK / "task.json").write_text(FIX.joinpath("data.jsonl").read_text().splitlines()[1])
    return suite


def _run(folder: Path, suite: Path | str, results: list[TaskResult], *, protocol: str = "offline@2",
         judge: dict | None = None) -> Path:
    folder.mkdir(parents=True)
    spec = RunSpec(created="2025-06-01T12:00:00+00:00", iwrbench_version=__version__, suite=str(suite),
                   suite_hash="0" * 16, task_ids=list(dict.fromkeys(r.task_id for r in results)),
                   models=list(dict.fromkeys(r.model for r in results)), protocol=protocol, judge=judge or {})
    (folder / "run.json").write_text(spec.model_dump_json(indent=1))
    (folder / "results.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in results))
    return folder


def _result(model: str, task: str, final: float, protocol: str = "offline@2", **kw) -> TaskResult:
    return TaskResult(model=model, task_id=task, status="ok", protocol=protocol, ifs=final, vfs=final, final=final,
                      low_level_visual=final, high_level_visual=final, **kw)


class _Table(HTMLParser):
    """The headings and the cells' text of the table with id ``timeline``."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.head: list[str] = []
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.in_head = False

    def handle_starttag(self, tag, attrs):
        if tag == "table" and dict(attrs).get("id") == "timeline":
            self.inside = True
        elif self.inside and tag == "thead":
            self.in_head = True
        elif self.inside and tag == "tr" and not self.in_head:
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif tag == "thead":
            self.in_head = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            text = " ".join("".join(self.cell).split())
            (self.head if self.in_head else self.rows[-1]).append(text)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def test_step_table_columns_hold_what_their_headings_say(tmp_path):
    steps = [
        StepResult(index=1, type="Type", executed=True, passed=True,
                   evidence=[EvidenceResult(kind="typed", passed=True, text="shoes")]),
        StepResult(index=2, type="Press", executed=True, passed=False,
                   assertion=AssertionResult(text=ASSERTION, passed=False),
                   evidence=[EvidenceResult(kind="appears", passed=False, text="Results for shoes", before=0, after=0)]),
    ]
    run = _run(tmp_path / "run", _suite(tmp_path),
               [_result("blank", TASK, 10.0, steps=steps, steps_total=2, steps_passed=1)])
    write_reports([run], formats=[])
    t = _Table()
    t.feed((run / "report_files" / "blank" / f"{TASK}.html").read_text())
    assert t.head[5:8] == ["Verdict", "Assertion", "Evidence"]
    cells = [dict(zip(t.head, row)) for row in t.rows]
    assert len(cells) == 3  # the initial state and two actions
    step2 = cells[2]
    assert step2["Verdict"] == "fail"
    assert step2["Assertion"] == f"“{ASSERTION}”"
    assert "appears “Results for shoes”" in step2["Evidence"] and ASSERTION not in step2["Evidence"]
    assert cells[1]["Verdict"] == "no assertion" and cells[1]["Assertion"] == "none"
    assert "typed text visible “shoes”" in cells[1]["Evidence"]
    for row in cells:
        assert not re.search(r"\b(pass|fail)\b", row["Assertion"] + row["Evidence"].replace("✓", "").replace("✗", ""))


def test_task_page_says_when_the_output_cap_was_fitted_to_the_server(tmp_path):
    cap = {"requested": 32000, "sent": 19446, "reason": "context 32768 - prompt 13258 - margin 64",
           "server_message": "This model's maximum context length is 32768 tokens"}
    run = _run(tmp_path / "run", _suite(tmp_path), [
        _result("openai:local-32k", TASK, 5.0, generation=GenerationInfo(calls=2, max_output_tokens=19446,
                                                                          output_cap=cap)),
        _result("openai:big", TASK, 5.0, generation=GenerationInfo(calls=1, max_output_tokens=32000))])
    write_reports([run], formats=[])

    def line(model: str) -> str:
        page = (run / "report_files" / model / f"{TASK}.html").read_text()
        return re.search(r"Generation: ([^<]*)</p>", page).group(1)

    assert "2 call(s)" in line("openai_local-32k")
    assert "output cap 19446 instead of 32000 (context 32768 - prompt 13258 - margin 64)" in line("openai_local-32k")
    assert line("openai_big").endswith("output cap 32000") and "instead of" not in line("openai_big")


def _header(html: Path) -> str:
    text = html.read_text()
    return text[text.index('<header class="top">'):text.index("</header>")]


def test_header_says_the_offline_judge_calls_no_model_even_with_api_models(tmp_path):
    run = _run(tmp_path / "run", tmp_path / "gone", [_result("openai:Qwen2.5-VL-72B-Instruct", TASK, 30.0),
                                                     _result("blank", TASK, 0.0)])
    header = _header(write_reports([run], formats=[]))
    assert "<b>Judge</b> offline@2, no model calls by the judge" in header
    assert "Deterministic, no model calls" not in header  # the old wording read as "nothing calls a model"

    published = _run(tmp_path / "pub", tmp_path / "gone", [_result("blank", TASK, 0.0, protocol="iwr-bench@1")],
                     protocol="iwr-bench@1", judge={"chat": {"name": "openai:gpt-4o"}})
    header = _header(write_reports([published], formats=[]))
    assert "<b>Judge</b> iwr-bench@1, the judge calls openai:gpt-4o" in header
    assert "no model calls" not in header


def test_recording_is_copied_and_linked_from_the_task_page(tmp_path):
    suite = _suite(tmp_path)
    run = _run(tmp_path / "run", suite, [_result("blank", TASK, 0.0), _result("oracle", TASK, 100.0)])
    html = write_reports([run], formats=[])
    files = run / "report_files"
    pages = [files / m / f"{TASK}.html" for m in ("blank", "oracle")]
    srcs = set()
    for page in pages:
        videos = re.findall(r'<video id="recording" class="recording" controls [^>]*src="([^"]+)"', page.read_text())
        assert len(videos) == 1, page
        target = (page.parent / unquote(videos[0])).resolve()
        assert files.resolve() in target.parents  # inside the report's folder: opens from disk, moves with it
        srcs.add(target)
    assert len(srcs) == 1  # stored once per task, whatever the number of models
    video = srcs.pop()
    assert video.read_bytes() == (suite / TASK / "video.mp4").read_bytes()
    # a rewrite keeps it (not pruned as stale), and moving the report along with its folder keeps it playable
    write_reports([run], formats=[])
    assert video.is_file()
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.copy2(html, moved / html.name)
    shutil.copytree(files, moved / files.name)
    assert (moved / files.name / video.relative_to(files.resolve())).read_bytes() == video.read_bytes()


def test_a_recording_over_the_limit_is_left_out_and_the_reason_given(tmp_path):
    src = FIX / "data" / TASK / "video.mp4"
    store = ImageStore(tmp_path / "r_files")
    rel, why = store.video(src, f"img/video/{TASK}/video.mp4", limit=1000)
    assert rel is None and not (tmp_path / "r_files" / "img" / "video").exists()
    assert "larger than" in why and str(src) in why
    rel, why = store.video(tmp_path / "nothing.mp4", "img/video/x/video.mp4")
    assert rel is None and "no recording" in why
    rel, why = store.video(src, f"img/video/{TASK}/video.mp4")
    assert why is None and (store.root / rel).read_bytes() == src.read_bytes()


@pytest.fixture
def wide_run(tmp_path) -> Path:
    """Four models (two with long names) over 14 tasks of 14 domains: a wide "Final by domain" chart."""
    models = ["openai:Qwen2.5-VL-72B-Instruct", "anthropic:claude-sonnet-4-20250514", "oracle", "blank"]
    results = [_result(m, f"task-{k:02d}", 10.0 * (j + 1) + k, tags={
        "domain": f"domain number {k}", "visual_complexity": f"V{k % 4 + 1}", "interaction_complexity": f"L{k % 3 + 1}"})
        for k in range(14) for j, m in enumerate(models)]
    run = _run(tmp_path / "wide", tmp_path / "gone", results)
    write_reports([run], formats=[])
    return run


async def test_charts_fit_their_boxes(wide_run, browser):
    html = (wide_run / "report.html").read_text()
    for svg in re.findall(r"<svg [^>]*>", html):
        assert re.search(r'viewBox="0 0 \d+ \d+"', svg), svg
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    await page.goto((wide_run / "report.html").resolve().as_uri(), wait_until="load")
    boxes = await page.eval_on_selector_all("svg.chart", """svgs => svgs.map(s => {
        const box = s.closest('.chart-box'), b = box.getBoundingClientRect(), r = s.getBoundingClientRect();
        const vb = s.viewBox.baseVal;
        return {id: s.id, left: r.left, right: r.right, boxLeft: b.left, boxRight: b.right, scroll: box.scrollWidth,
                client: box.clientWidth, ratio: r.width / r.height, vbRatio: vb.width / vb.height,
                page: document.documentElement.scrollWidth, viewport: window.innerWidth};
    })""")
    assert {b["id"] for b in boxes} >= {"chart-overall", "chart-domain"}
    for b in boxes:
        assert b["boxLeft"] <= b["left"] and b["right"] <= b["boxRight"] + 0.5, b
        assert b["scroll"] <= b["client"], b  # no scroll bar inside the box
        assert b["ratio"] == pytest.approx(b["vbRatio"], rel=0.02), b  # scaled, not squashed
        assert b["page"] <= b["viewport"], b
    domain = next(b for b in boxes if b["id"] == "chart-domain")
    assert domain["right"] - domain["left"] < 1280  # narrower than drawn: it was scaled to fit
    assert errors == []
    await page.close()


@pytest.mark.parametrize("width", [1280, 800, 600])
async def test_pages_never_scroll_sideways_a_wide_table_scrolls_in_its_box(wide_run, tmp_path, browser, width):
    """The index (a wide leaderboard and task matrix) and a task page (the step table), in narrow windows."""
    suite = _suite(tmp_path)
    unit = _run(tmp_path / "unit", suite, [_result("openai:Qwen2.5-VL-72B-Instruct", TASK, 10.0, steps=[
        StepResult(index=1, type="Type", executed=True, passed=True),
        StepResult(index=2, type="Press", executed=True, passed=False, assertion=AssertionResult(text=ASSERTION * 3,
                                                                                              passed=False))],
        steps_total=2, steps_passed=1)])
    write_reports([unit], formats=[])
    pages = [wide_run / "report.html", next((unit / "report_files").glob("openai_*/*.html"))]
    page = await browser.new_page(viewport={"width": width, "height": 800})
    for html in pages:
        await page.goto(html.resolve().as_uri(), wait_until="load")
        got = await page.evaluate("""() => ({page: document.documentElement.scrollWidth, viewport: window.innerWidth,
            tables: [...document.querySelectorAll('table')].map(t => ({id: t.id,
                box: t.parentElement.classList.contains('wide') ? t.parentElement.clientWidth : null}))})""")
        assert got["page"] <= got["viewport"], (html.name, width, got)
        for t in got["tables"]:
            assert t["box"] is not None and t["box"] <= got["viewport"], (html.name, width, t)
    await page.close()


async def test_recording_plays_from_disk(tmp_path, browser):
    run = _run(tmp_path / "run", _suite(tmp_path), [_result("blank", TASK, 0.0)])
    write_reports([run], formats=[])
    page = await browser.new_page()
    await page.goto((run / "report_files" / "blank" / f"{TASK}.html").resolve().as_uri(), wait_until="load")
    # its first frame is decoded and shown before anyone presses play (not a black box), and it seeks
    state = await page.evaluate("""() => new Promise(done => {
        const v = document.querySelector('video#recording');
        const report = why => done({why, ready: v.readyState, error: v.error && v.error.code, duration: v.duration,
                                    width: v.videoWidth, controls: v.controls, t: v.currentTime});
        v.addEventListener('error', () => report('error'));
        const seek = () => { v.addEventListener('seeked', () => report('seeked'), {once: true});
                             v.currentTime = v.duration / 2; };
        if (v.readyState >= 2) seek(); else v.addEventListener('loadeddata', seek, {once: true});
        setTimeout(() => report('timeout'), 10000);
    })""")
    assert state["why"] == "seeked" and state["error"] is None and state["ready"] >= 2 and state["controls"], state
    assert state["duration"] > 0 and state["width"] == 320 and state["t"] > 0, state
    await page.close()
