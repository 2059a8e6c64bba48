"""An icon control named only by its ARIA label, judged on a page without that label.

The source: a message list whose rows each have a star icon (a button named "Star" by aria-label, showing
no text) and a reading pane with a "Star" button showing the word. The recording stars the second row. A
page with the same look and no ARIA (as a model writes it from the video: it cannot know the label) must be
judged by what a person sees: the icon at the recorded place, not the only control still named "Star" (the
pane's word button, another control by sight)."""

import pytest

from site_pages import judge_html, record_site

pytestmark = pytest.mark.browser

ROWS = ["Your invoice is ready", "Team lunch on Friday", "Weekly report"]


def _page(aria: bool, star_works: bool = True, hidden_words: str = "") -> str:
    label = ' aria-label="Star"' if aria else ""
    inner = f"<span class=sr>{hidden_words}</span>" if hidden_words else ""
    rows = "".join(f"<li><button class=star{label}>{inner}</button> {t}</li>" for t in ROWS)
    toggle = ("b.classList.toggle('on'); document.getElementById('n').textContent = 'Starred ' + "
              "document.querySelectorAll('.star.on').length;") if star_works else ""
    return ("<!doctype html><html><head><style>body{font:16px sans-serif;margin:20px;display:flex;gap:40px}"
            "ul{list-style:none;padding:0;width:320px}li{padding:8px;border-bottom:1px solid #ddd}"
            ".star{width:20px;height:20px;border:2px solid #999;border-radius:50%;background:#fff;vertical-align:middle}"
            ".star.on{background:orange;border-color:orange}"
            ".sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}</style></head><body>"
            f"<div><p id=n>Starred 0</p><ul>{rows}</ul></div>"
            "<div><h2>Welcome</h2><button id=pane onclick=\"document.getElementById('pin').textContent='Pinned'\">Star</button>"
            "<p id=pin></p></div>"
            f"<script>document.querySelectorAll('.star').forEach(b => b.onclick = () => {{ {toggle} }});</script>"
            "</body></html>")


RECIPE = """id: icon-names
source: {site: ./site}
viewport: {width: 900, height: 500}
actions:
  - {type: Click, target: "li:nth-child(2) .star", description: the empty star of the 'Team lunch on Friday' row, assert: "'Starred 1' is shown"}
"""


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    t = record_site(tmp_path_factory.mktemp("icon-names"), _page(aria=True), RECIPE)
    tgt = t.action_sequence[0].target
    assert tgt.role == "button" and tgt.name == "Star" and not (tgt.text or "").strip()
    return t


async def test_the_icon_is_found_by_sight_on_a_page_without_its_label(browser, task, tmp_path):
    r = await judge_html(browser, task, _page(aria=False), tmp_path)
    step = r.steps[0]
    assert step.passed and r.ifs == 100, (step.error, step.grounding)
    assert step.grounding.rung != "role_name" and step.grounding.element.text in ("", None)


async def test_an_icon_named_its_own_way_in_words_nobody_sees_is_still_the_icon(browser, task, tmp_path):
    # the page names its icons for screen readers only ("Toggle favourite", visually hidden): a name that clearly
    # differs from the recorded one, but neither was painted; what is at the recorded place looks the same
    r = await judge_html(browser, task, _page(aria=False, hidden_words="Toggle favourite"), tmp_path)
    step = r.steps[0]
    assert step.passed and r.ifs == 100, (step.error, step.grounding)
    assert step.grounding.rung in ("position", "appearance"), step.grounding


async def test_source_passes_and_a_dead_icon_fails(browser, task, tmp_path):
    src = await judge_html(browser, task, _page(aria=True), tmp_path / "src")
    assert src.ifs == 100 and src.steps[0].grounding.element.text in ("", None)
    dead = await judge_html(browser, task, _page(aria=False, star_works=False), tmp_path / "dead")
    assert dead.ifs == 0 and not dead.steps[0].passed
