"""Scroll steps without an assertion, judged on pages written differently from the source.

The source: a long article under a sticky bar whose breadcrumb names the section in view (it follows the
scroll), and a hero with a "Start free trial" button that scrolls away. What a person comparing the screens
sees after a scroll: the new section, the breadcrumb naming it, the hero gone. A rebuild with other markup
and other heights that does all that passes; one whose sticky breadcrumb stays on the first section, or that
pins the hero's button in a sticky bar the recording scrolled away, fails at that scroll, where a person sees
the difference (not later)."""

import pytest

from site_pages import judge_html, record_site

pytestmark = pytest.mark.browser

SECTIONS = [("Overview", "Quarry keeps every change in a write-ahead log and answers queries in minutes."),
            ("Installation", "Install the package with pip, then check the version once it is needed."),
            ("Configuration", "Every key lives in one file; the cache size and the retention are set there.")]

SPY = """<script>
const secs = [...document.querySelectorAll('[data-sec]')];
const crumb = document.getElementById('crumb');
function spy() {
  let cur = secs[0];
  for (const s of secs) if (s.getBoundingClientRect().top < 160) cur = s;
  crumb.textContent = 'Docs \u203a ' + cur.dataset.sec;
}
addEventListener('scroll', spy, {passive: true}); spy();
</script>"""


def _source() -> str:
    body = "".join(f"<section data-sec='{t}'><h2>{t}</h2><p>{p}</p><div class=pad></div></section>" for t, p in SECTIONS)
    return ("<!doctype html><html><head><style>body{margin:0;font:18px sans-serif}"
            "#bar{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:10px 20px}"
            ".hero{height:200px;background:#eef;padding:120px 20px 20px}.pad{height:200px}.end{height:1000px}section{padding:0 20px}</style></head>"
            "<body><div id=bar><span id=crumb>Docs</span></div>"
            "<div class=hero><button>Start free trial</button></div>"
            f"{body}<div class=end></div>{SPY}</body></html>")


def _rebuild(*, spy: bool = True, sticky_trial: bool = False) -> str:
    """Other markup (divs, other class names, no ids but the crumb's), other heights and fonts."""
    body = "".join(f"<div class=s data-sec='{t}'><div class=t>{t}</div><div>{p}</div><div class=gap></div></div>"
                   for t, p in SECTIONS)
    trial = "<span class=cta>Start free trial</span>" if sticky_trial else ""
    hero = "" if sticky_trial else "<span class=cta>Start free trial</span>"
    return ("<!doctype html><html><head><style>body{margin:0;font:17px Georgia,serif}"
            ".top{position:fixed;top:0;left:0;right:0;height:44px;background:#fafafa;display:flex;gap:30px;"
            "align-items:center;padding:0 24px;box-shadow:0 1px 3px #0003;z-index:2}"
            ".cta{background:#36c;color:#fff;padding:6px 12px;border-radius:4px}"
            ".intro{margin-top:44px;height:280px;background:#e8e8ff;padding:24px}.t{font-size:26px;font-weight:bold}"
            ".gap{height:230px}.end{height:1100px}.s{padding:0 24px}</style></head>"
            f"<body><div class=top><span id=crumb>Docs \u203a Overview</span>{trial}</div>"
            f"<div class=intro>{hero}</div>{body}<div class=end></div>"
            + (SPY if spy else "") + "</body></html>")


RECIPE = """id: scroll-chrome
source: {site: ./site}
viewport: {width: 900, height: 600}
actions:
  - {type: Scroll, direction: down, amount: 1.0, description: scroll down into the Installation section, visual: true}
  - {type: Scroll, direction: down, amount: 1.0, description: scroll down to the Configuration section, visual: true}
"""


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    t = record_site(tmp_path_factory.mktemp("scroll-chrome"), _source(), RECIPE)
    kinds = {(e.kind, e.text) for e in t.action_sequence[0].evidence.texts}
    assert ("disappears", "Start free trial") in kinds, kinds  # the hero's button scrolled away
    return t


async def test_source_and_a_rebuild_with_other_markup_pass(browser, task, tmp_path):
    r = await judge_html(browser, task, _source(), tmp_path / "a")
    assert r.steps_passed == 2, [(s.index, s.error) for s in r.steps]
    r = await judge_html(browser, task, _rebuild(), tmp_path / "b")
    assert r.steps_passed == 2, [(s.index, s.error) for s in r.steps]


async def test_breadcrumb_that_does_not_follow_the_scroll_fails_there(browser, task, tmp_path):
    r = await judge_html(browser, task, _rebuild(spy=False), tmp_path)
    assert r.steps_passed == 0, [(s.index, s.error) for s in r.steps]
    bad = [e for e in r.steps[0].evidence if e.required and not e.passed]
    assert bad and all("pinned" in (e.detail or "") for e in bad)


async def test_button_pinned_in_a_sticky_bar_the_recording_scrolled_away_fails(browser, task, tmp_path):
    r = await judge_html(browser, task, _rebuild(sticky_trial=True), tmp_path)
    assert r.steps_passed == 0, [(s.index, s.error) for s in r.steps]
    assert any(e.text == "Start free trial" and e.required and not e.passed for e in r.steps[0].evidence)
