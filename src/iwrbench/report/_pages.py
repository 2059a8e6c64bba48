"""HTML for the report's index page and its per-(model, task) pages."""

from __future__ import annotations

import datetime as dt
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..version import __version__
from ..errors import IwrError
from ..generate.frames import task_anchors
from ..generate.prompt import frame_budget
from ..models.base import GenerationOptions
from ..runs.bootstrap import MIN_VERDICT
from ..records import Action, Check, StepResult, Summary, Task, TaskResult, VisualScores, step_text
from ._images import ImageStore
from ._runs import RunSet, Unit
from ._style import CSS, JS
from ._svg import grouped_bars
from ._tables import (CI_COLUMNS, ERROR_STATUSES, SCORE_COLUMNS, adjacent_sentence, ci_text, method_text, signed, steps_text)

#: generated code beyond this many characters is cut (the full file stays in the run folder)
CODE_LIMIT = 200_000
TAG_TITLES = {"domain": "Final by domain", "visual_complexity": "Final by visual level",
              "interaction_complexity": "Final by interaction level",
              "provenance": "Final on novel and famous apps"}
ERROR_TITLES = {"generation_error": "gen. err", "page_error": "page err", "judge_error": "judge err",
                "task_error": "task err"}
STATUS_TEXT = {
    "ok": "ok",
    "generation_error": "generation error: the model gave no usable page (scored 0; left out under iwr-bench@1, as published)",
    "page_error": "page error: the page failed while it was judged (scored on what ran)",
    "judge_error": "judge error: our side failed (browser crash or timeout); not scored, retried on the next run",
    "task_error": "task error: the task itself is broken (corrupt checkpoint, a file outside its folder ...); not scored, not retried",
}


def e(x: Any) -> str:
    return escape("" if x is None else str(x))


def u(path: str) -> str:
    """A relative file path as an attribute value (percent-encoded, then HTML-escaped)."""
    return escape(quote(path, safe="/"))


def f2(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def document(title: str, body: str, *, script: bool = False) -> str:
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            "<link rel=\"icon\" href=\"data:,\">"
            f"<title>{e(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n"
            + (f"<script>{JS}</script>\n" if script else "") + "</body></html>\n")


def status_badge(status: str) -> str:
    return f'<span class="badge s-{e(status)}" title="{e(STATUS_TEXT.get(status, status))}">{e(status)}</span>'


# --------------------------------------------------------------------------- index


def _header(rs: RunSet, summary: Summary) -> str:
    """Title and the facts a reader needs to read the leaderboard; the protocol's differences and the runs'
    details are folded below the results (``_about``)."""
    p = rs.protocol
    facts = [
        ("Suite", f"{e(rs.suite)} <span class=\"muted\">(hash {e(rs.suite_hash)})</span>"),
        ("Tasks", e(summary.tasks)),
        ("Models", e(len(summary.leaderboard))),
        ("Judge", _judge_fact(rs)),
    ]
    lis = "".join(f"<li><b>{k}</b> {v}</li>" for k, v in facts)
    return (f'<header class="top"><h1>IWR-Bench report <span class="pill" id="protocol">{e(p.id)}</span></h1>'
            f'<div class="sub">{e(p.description)} Final = 0.7 IFS + 0.3 VFS; VFS = 0.5 LVS + 0.5 HVS; scores 0-100.</div>'
            f'<ul class="facts">{lis}</ul></header>')


def _about(rs: RunSet) -> str:
    """Folded: how the protocol differs from the published one, and how each run was made."""
    p = rs.protocol
    title = ("How this protocol differs from the published IWR-Bench protocol" if p.name != "iwr-bench"
             else "Where this implementation departs from the published code")
    diffs = "".join(f"<li>{e(d)}</li>" for d in p.differences) or "<li>none</li>"
    runs = []
    for rd, spec in rs.runs:
        judge = spec.judge
        parts = [f"made {e(spec.created)}", f"iwrbench {e(spec.iwrbench_version)}"]
        if spec.browser.get("version"):
            parts.append(f"Chromium {e(spec.browser['version'])}")
        for k in ("ocr", "visual", "high_level"):
            v = judge.get(k)
            if isinstance(v, dict):
                v = v.get("name") or v.get("kind") or next(iter(v.values()), None)
            if v:
                parts.append(f"{k.replace('_', '-')}: {e(v)}")
        runs.append(f"<li>{e(rd.path)} <span class=\"muted\">· {' · '.join(parts)}</span></li>")
    return ('<section id="about"><h2>About these numbers</h2>'
            f'<details class="fold" id="protocol-differences"><summary>{e(title)} '
            f'<span class="muted">({len(p.differences)})</span></summary>'
            f'<div id="differences"><ol>{diffs}</ol></div></details>'
            f'<details class="fold" id="runs"><summary>Run folders <span class="muted">({len(rs.runs)})</span>'
            f'</summary><ul class="small">{"".join(runs)}</ul></details></section>')


def _judge_fact(rs: RunSet) -> str:
    """Who judges, said precisely: the offline judge calls no model, whatever the models under test do."""
    p = rs.protocol
    if not p.needs_models:
        return f"{e(p.id)}, no model calls by the judge"
    names = []
    for _, spec in rs.runs:
        chat = spec.judge.chat
        if isinstance(chat, dict):
            chat = chat.get("name") or chat.get("model") or next(iter(chat.values()), None)
        if chat:
            names.append(str(chat))
    who = ", ".join(dict.fromkeys(names)) or "a model"
    return f"{e(p.id)}, the judge calls {e(who)} (LLM grounder, assertion and rubric judges)"


def _ci_cell(ci) -> str:
    if ci is None:
        return '<td class="n ci muted" title="no interval: fewer than 2 scored tasks, or a summary written before intervals">-</td>'
    return f'<td class="n ci" data-v="{ci.low}" title="95% interval, bootstrap over tasks">{e(ci_text(ci))}</td>'


def _leaderboard(summary: Summary, colours: dict[str, str], first_unit: dict[str, str], merged: bool = False) -> str:
    head = ("<tr><th class=\"n\">#</th><th>Model</th>"
            + "".join(f'<th class="n">{t}</th><th class="n" title="95% interval of {t}, bootstrap over tasks">95% CI</th>'
                      for t, _k, _c in CI_COLUMNS)
            + '<th class="n" title="low-level visual">LVS</th><th class="n" title="high-level visual">HVS</th>'
            + '<th class="n" title="leading steps passed / steps, over the scored tasks">Steps passed</th>'
            + '<th class="n" title="scored tasks: what the means and intervals are over">n</th>'
            + '<th title="units that were not ok, by status (gen. err = generation_error, page err = page_error, '
              'judge err = judge_error, task err = task_error)">Errors</th></tr>')
    rows = []
    for i, r in enumerate(summary.leaderboard, start=1):
        m = r.model
        errs = r.errors or {}
        name = f'<span class="sw" style="background:{colours.get(m, "#888")}"></span>{e(m)}'
        if m in first_unit:
            name = f'<a href="{e(first_unit[m])}">{name}</a>'
        cells = "".join(f'<td class="n" data-v="{"" if getattr(r, k) is None else getattr(r, k)}">{f2(getattr(r, k))}</td>'
                        + _ci_cell(getattr(r, c)) for _t, k, c in CI_COLUMNS)
        cells += "".join(f'<td class="n" data-v="{"" if getattr(r, k) is None else getattr(r, k)}">{f2(getattr(r, k))}</td>'
                         for k in ("low_level_visual", "high_level_visual"))
        share = (r.steps_passed / r.steps_total) if r.steps_total else -1
        cells += f'<td class="n" data-v="{share}">{e(steps_text(r))}</td><td class="n">{r.tasks}</td>'
        listed = [f"{ERROR_TITLES[s]} {errs[s]}" for s in ERROR_STATUSES if errs.get(s)]
        errc = (f'<td class="fail nw" data-v="{sum(errs.values())}">{e(", ".join(listed))}</td>' if listed
                else '<td class="muted" data-v="0">-</td>')
        rows.append(f'<tr class="model-row{" best" if i == 1 and r.final is not None else ""}" data-model="{e(m)}">'
                    f'<td class="n">{i}</td><td class="nw">{name}</td>{cells}{errc}</tr>')
    return (f'<div class="wide"><table id="leaderboard" class="sortable"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table></div>'
            '<details class="small muted lb-note" id="method"><summary>95% intervals by bootstrap over tasks; n = scored '
            "tasks; steps passed = leading steps passed / steps</summary>"
            f"{e(method_text(summary))} Steps passed: the leading steps that passed (what IFS counts) over all steps "
            "of the scored tasks. LVS = low-level visual (OCR and visual similarity), HVS = high-level visual (rubric). "
            "Errors by status: gen. err = generation_error, page err = page_error, judge err = judge_error (ours), "
            "task err = task_error (a broken task). Also written as "
            f"{'leaderboard-merged' if merged else 'leaderboard'}.md / .csv / .json next to this file."
            "</details>")


def _neighbours(summary: Summary) -> str:
    """Each model against the next one down: is the order more than the draw of the tasks?"""
    if not summary.adjacent:
        return ""
    rows = []
    for d in summary.adjacent:
        if d.excludes_zero is None:
            verdict = f'<span class="na" title="fewer than {MIN_VERDICT} common tasks">too few tasks</span>'
        elif d.excludes_zero:
            verdict = '<span class="pass">yes: the order holds</span>'
        else:
            verdict = '<span class="muted">no: not told apart</span>'
        rows.append(f'<tr title="{e(adjacent_sentence(d))}"><td class="nw">{e(d.model)}</td><td class="nw">{e(d.other)}</td>'
                    f'<td class="n">{d.tasks}</td><td class="n">{signed(d.difference)}</td>'
                    f'<td class="n nw">{e(ci_text(d.ci))}</td><td class="nw">{verdict}</td></tr>')
    return ('<div class="lb-part" id="neighbours"><h3>Each model against the next one down</h3>'
            '<div class="wide"><table><thead><tr><th>Model</th><th>Next down</th><th class="n" title="tasks both were '
            'scored on">n</th><th class="n">Final diff.</th><th class="n">95% CI</th><th>Excludes 0</th></tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table></div>'
            '<p class="small muted">Paired bootstrap over the tasks both were scored on. An interval that includes 0: '
            "these tasks cannot tell the two apart.</p></div>")


def _provenance(summary: Summary) -> str:
    """Novel apps (written for the suite) apart from famous ones (published packages), and the gap."""
    groups = summary.by_tag.get("provenance") or {}
    if not groups:
        return ('<div class="lb-part muted small" id="provenance">Novel and famous apps: no task of these runs '
                "says whether its app is novel (written for the suite) or famous (a published package).</div>")
    gaps = {g.model: g for g in summary.memorisation_gap}
    kinds = [k for k in ("novel", "famous") if k in groups] + [k for k in groups if k not in ("novel", "famous")]
    head = ("<tr><th>Model</th>" + "".join(f'<th class="n" title="Final on {e(k)} apps (95% interval: hover)">{e(k)}</th>'
                                          f'<th class="n">n</th>' for k in kinds)
            + '<th class="n" title="Final on famous tasks minus Final on novel tasks">gap</th>'
              '<th class="n">95% CI</th><th>Excludes 0</th></tr>')
    rows = []
    for lb in summary.leaderboard:
        cells = []
        for k in kinds:
            r = next((x for x in groups[k] if x.model == lb.model), None)
            cells.append('<td class="n na">-</td><td class="n">0</td>' if r is None else
                         f'<td class="n" title="95% interval {e(ci_text(r.final_ci))}">{f2(r.final)}</td>'
                         f'<td class="n">{r.tasks}</td>')
        g = gaps.get(lb.model)
        if g is None:
            cells.append('<td class="n na nw" colspan="3">needs tasks of both kinds</td>')
        else:
            ex = (f'<span class="na" title="fewer than {MIN_VERDICT} tasks of one kind">too few tasks</span>'
                  if g.excludes_zero is None else
                  '<span class="fail">yes</span>' if g.excludes_zero else '<span class="muted">no</span>')
            cells.append(f'<td class="n">{signed(g.difference)}</td><td class="n nw">{e(ci_text(g.ci))}</td>'
                         f'<td class="nw">{ex}</td>')
        rows.append(f'<tr data-model="{e(lb.model)}"><td class="nw">{e(lb.model)}</td>{"".join(cells)}</tr>')
    return ('<div class="lb-part" id="provenance"><h3>Novel and famous apps</h3>'
            f'<div class="wide"><table><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table></div>'
            '<p class="small muted">Final on apps written for this suite (novel: no model can have read their code) '
            "and on published packages (famous). The memorisation gap = famous - novel, each kind resampled on its "
            "own. The kinds also differ in domains and levels: compare models' gaps rather than read one alone.</p></div>")


def _overall_chart(summary: Summary, models: list[str], colours: dict[str, str]) -> str:
    overall = [(t, {r.model: getattr(r, k) for r in summary.leaderboard}) for t, k in SCORE_COLUMNS]
    cis = {(t, r.model): getattr(r, c) for t, _k, c in CI_COLUMNS for r in summary.leaderboard if getattr(r, c)}
    svg = grouped_bars(overall, models, colours, title="All tasks", metric="score",
                       chart_id="chart-overall", compact=True, intervals={k: (v.low, v.high) for k, v in cis.items()})
    return f'<div class="chart-box">{svg}</div>'


def _legend(models: list[str], colours: dict[str, str]) -> str:
    return '<div class="legend">' + "".join(
        f'<span><span class="sw" style="background:{colours[m]}"></span>{e(m)}</span>' for m in models) + "</div>"


def _charts(summary: Summary, models: list[str], colours: dict[str, str], first: str = "") -> str:
    """The charts by category, after ``first`` (the overall chart), under one legend."""
    legend = _legend(models, colours)
    boxes = [first] if first else []
    for tag, title in TAG_TITLES.items():
        groups = summary.by_tag.get(tag) or {}
        if not groups:
            boxes.append(f'<div class="chart-box muted small" id="chart-{tag}">{e(title)}: no task carries this tag</div>')
            continue
        data = [(v, {r.model: r.final for r in rows}) for v, rows in groups.items()]
        details = {(v, r.model): f" {ci_text(r.final_ci)} (IFS {f2(r.ifs)}, VFS {f2(r.vfs)}; n = {r.tasks} task(s))"
                   for v, rows in groups.items() for r in rows}
        cis = {(v, r.model): (r.final_ci.low, r.final_ci.high) for v, rows in groups.items() for r in rows if r.final_ci}
        ns = "; ".join(f"{v}: {max((r.tasks for r in rows), default=0)}" for v, rows in groups.items())
        boxes.append(f'<div class="chart-box">'
                     f'{grouped_bars(data, models, colours, title=title, chart_id=f"chart-{tag}", details=details, intervals=cis)}'
                     f'<div class="small muted chart-n">n (scored tasks): {e(ns)}</div></div>')
    return (legend + '<div class="charts">' + "".join(boxes) + "</div>"
            + '<p class="small muted">Whiskers: 95% intervals (bootstrap over the tasks of each group); a group of few '
            "tasks has a wide interval, or none below 2 tasks. Hover a bar for its numbers.</p>")


def _matrix(rs: RunSet, models: list[str], hrefs: dict[tuple[str, str], str]) -> str:
    head = ("<tr><th>Task</th><th>Domain</th><th>Visual</th><th>Interaction</th>"
            "<th title=\"novel: an app written for the suite; famous: a published package\">Provenance</th>"
            "<th class=\"n\">Actions</th>") + "".join(
        f"<th class=\"n\">{e(m)}</th>" for m in models) + "</tr>"
    rows = []
    for tid in rs.task_ids:
        task = rs.tasks.get(tid)
        units = {u.label: u for u in rs.units if u.task_id == tid}
        any_u = next(iter(units.values()), None)
        tags = task.tags if task else (any_u.result.tags if any_u else {})
        n = len(task.action_sequence) if task else (any_u.result.steps_total if any_u else 0)
        cells = []
        for m in models:
            u = units.get(m)
            if u is None:
                cells.append('<td class="n muted" data-v="-1">not run</td>')
                continue
            r = u.result
            score = f2(r.final) if r.status not in ("judge_error", "task_error") else "-"
            badge = "" if r.status == "ok" else " " + status_badge(r.status)
            cells.append(f'<td class="n cell" data-v="{r.final if r.final is not None else -1}">'
                         f'<a href="{e(hrefs[(m, tid)])}" title="IFS {f2(r.ifs)} · VFS {f2(r.vfs)} · '
                         f'{r.steps_passed}/{r.steps_total} steps">{score}{badge}</a></td>')
        rows.append(f'<tr data-task="{e(tid)}"><td>{e(tid)}</td><td>{e(tags.get("domain", "-"))}</td>'
                    f'<td>{e(tags.get("visual_complexity", "-"))}</td><td>{e(tags.get("interaction_complexity", "-"))}</td>'
                    f'<td>{e(tags.get("provenance", "-"))}</td>'
                    f'<td class="n">{n}</td>{"".join(cells)}</tr>')
    return (f'<div class="wide"><table id="tasks-table" class="sortable"><thead>{head}</thead><tbody>{"".join(rows)}'
            '</tbody></table></div>'
            '<p class="small muted">Each cell is the task\'s Final score; open it for the step timeline, the '
            'checkpoints beside the judged screenshots, the frames the model was sent and the generated code.</p>')


def index_page(rs: RunSet, summary: Summary, colours: dict[str, str], hrefs: dict[tuple[str, str], str]) -> str:
    """The leaderboard first (scores, intervals, steps passed, n, neighbours, the novel/famous split), then
    the charts by category and the task matrix; the protocol's differences and the runs are folded last."""
    summary = Summary.model_validate(summary)
    models = [r.model for r in summary.leaderboard]
    first_unit: dict[str, str] = {}
    for (m, _t), h in hrefs.items():
        first_unit.setdefault(m, h)
    notes = "".join(f"<li>{e(n)}</li>" for n in rs.notes)
    body = (
        _header(rs, summary)
        + "<main>"
        + (f'<div class="notes" id="notes"><b>Notes</b><ul>{notes}</ul></div>' if notes else "")
        + '<section id="leaderboard-section"><h2>Leaderboard</h2>'
        + _leaderboard(summary, colours, first_unit, merged=len({d.path.resolve() for d, _ in rs.runs}) > 1)
        + '<div class="lb-wrap">' + _provenance(summary) + _neighbours(summary) + "</div></section>"
        + '<section id="charts"><h2>Scores with their intervals, overall and by task category</h2>'
        + f'{_charts(summary, models, colours, first=_overall_chart(summary, models, colours))}</section>'
        + f'<section id="tasks"><h2>Results by task</h2>{_matrix(rs, models, hrefs)}</section>'
        + _about(rs)
        + f'<footer class="small muted">Written by iwrbench {e(__version__)} on '
        f'{dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}. No network is used; '
        "pictures are in the folder next to this file.</footer></main>"
    )
    return document(f"IWR-Bench report ({rs.protocol.id})", body, script=True)


# --------------------------------------------------------------------------- unit pages


def _action_text(step: StepResult | None, action: Action | None, index: int) -> str:
    if index == 0:
        return "<b>Load</b>"
    t = action.type if action else (step.type if step else "?")
    extra = ""
    if action is not None:
        p = action.parameters
        if p.text is not None:
            extra = f' <code>"{e(p.text)}"</code>'
        elif p.key:
            extra = f" <code>{e(p.key)}</code>"
        elif p.direction:
            extra = f" {e(p.direction)}" + (f" {p.scroll_page:g} page" if p.scroll_page else "")
        elif p.value:
            extra = f' <code>"{e(p.value)}"</code>'
    flag = ' <span class="badge s-judge_error" title="this step\'s screenshot is scored">visual</span>' if action and action.visual_evaluation_flag else ""
    return f"<b>{e(t)}</b>{extra}{flag}"


def _grounding(step: StepResult | None) -> str:
    if step is None:
        return '<span class="na">-</span>'
    g = step.grounding
    if g is None:
        return '<span class="na">none needed</span>' if step.type in ("Press", "Scroll") else '<span class="na">-</span>'
    rung = f'<b>{e(g.rung)}</b>' if g.rung else '<span class="fail">not found</span>'
    if g.ambiguous:
        rung += ' <span class="badge s-page_error" title="several elements matched; the first was used">ambiguous</span>'
    el = ""
    if g.element:
        c = g.element
        el = "<div class=\"small muted\">" + e(" ".join(x for x in (c.tag and f"<{c.tag}>", c.role, c.name and repr(c.name)) if x)) + "</div>"
    tried = ""
    if g.tried:
        tried = ("<details class=\"small\"><summary>ladder</summary><ul class=\"ev\">" + "".join(
            f"<li>{e(a.rung)}: {a.matches} match{'es' if a.matches != 1 else ''}"
            + (f" <span class=\"muted\">({e(a.detail)})</span>" if a.detail else "") + "</li>" for a in g.tried)
            + "</ul></details>")
    return rung + el + tried


def _check_text(c: Check) -> str:
    d = c.model_dump(exclude={"kind"}, exclude_none=True)
    return f"{c.kind} " + ", ".join(f"{k}={v!r}" for k, v in d.items())


def _assertion(step: StepResult | None, action: Action | None) -> tuple[str, str, str]:
    """(verdict cell: pass/fail, assertion cell: the assertion's text, evidence cell: what decided it)."""
    if step is None:
        text = action.logical_assertion if action else None
        return '<span class="na">-</span>', (f"<div class=\"small\">“{e(text)}”</div>" if text else ""), ""
    a = step.assertion
    text = (a.text if a and a.text else None) or (action.logical_assertion if action else None)
    if a is None or (a.passed is None and not a.checks and not text):
        verdict = '<span class="na">no assertion</span>' if step.executed else '<span class="na">-</span>'
    elif a.passed is None:
        verdict = '<span class="na" title="not judged (not counted as a failure)">not judged</span>'
    else:
        verdict = '<span class="pass">pass</span>' if a.passed else '<span class="fail">fail</span>'
    if a is not None and a.method != "checks":
        verdict += f' <span class="small muted">({e(a.method)})</span>'
    said = f"<div class=\"small\">“{e(text)}”</div>" if text else '<span class="na">none</span>'
    ev = []
    if a is not None and a.checks:
        ev.append("<ul class=\"ev\">" + "".join(
            f"<li><span class=\"{'pass' if c.passed else 'fail'}\">{'✓' if c.passed else '✗'}</span> {e(_check_text(c.check))}"
            + (f" <span class=\"muted\">: {e(c.detail)}</span>" if c.detail else "") + "</li>" for c in a.checks) + "</ul>")
    if step.evidence:
        def item(r) -> str:
            what = {"appears": "appears", "disappears": "disappears", "visible": "on screen", "change": "visual change",
                    "typed": "typed text visible", "check": "author's check"}.get(r.kind, r.kind)
            counts = (f" <span class=\"muted\">({r.before}&rarr;{r.after})</span>"
                      if r.kind in ("appears", "disappears", "visible") and r.before is not None else "")
            mark = ("✓" if r.passed else "✗")
            cls = ("pass" if r.passed else "fail") if r.required else "muted"
            return (f"<li><span class=\"{cls}\">{mark}</span> {e(what)}"
                    + (f" “{e(r.text)}”" if r.text else "") + counts
                    + (f" <span class=\"muted\">[{e(r.source)}]</span>" if r.source else "")
                    + ("" if r.required else " <span class=\"muted\">(information)</span>")
                    + (f" <span class=\"muted\">: {e(r.detail)}</span>" if r.detail else "") + "</li>")

        ev.append("<ul class=\"ev\">" + "".join(item(r) for r in step.evidence) + "</ul>")
    if a is not None and a.raw:
        ev.append(f"<details class=\"small\"><summary>judge reply</summary><pre>{e(a.raw[:4000])}</pre></details>")
    if step.info_checks:
        ev.append("<details class=\"small\"><summary>informational checks (not scored)</summary><ul class=\"ev\">" + "".join(
            f"<li>{'✓' if c.passed else '✗'} {e(_check_text(c.check))}" + (f": {e(c.detail)}" if c.detail else "") + "</li>"
            for c in step.info_checks) + "</ul></details>")
    return verdict, said, "".join(ev)


def _visual_cell(v: VisualScores | None) -> str:
    if v is None:
        return '<span class="na">-</span>'
    if not v.reached:
        return '<span class="fail" title="the judge never reached this checkpoint">unreached: 0</span>'
    return (f'LVS {f2(v.low_level)}<br>HVS {f2(v.high_level)}'
            f'<div class="small muted">OCR {f2(v.ocr)}<br>visual {f2(v.visual)}</div>')


def _timeline(unit: Unit, task: Task | None) -> str:
    r = unit.result
    steps = {s.index: s for s in r.steps}
    n = max([r.steps_total, len(task.action_sequence) if task else 0, *steps.keys()] or [0])
    rows = []
    init_v = r.initial
    rows.append(f'<tr class="step-row" data-step="0"><td class="n"><a href="#step-0">0</a></td><td>{_action_text(None, None, 0)}</td>'
                f'<td>initial state of the page</td><td><span class="na">-</span></td>'
                f'<td>{"<span class=pass>yes</span>" if r.status in ("ok", "page_error") else "<span class=na>-</span>"}</td>'
                f'<td><span class="na">-</span></td><td></td><td></td><td class="nw">{_visual_cell(init_v)}</td><td></td></tr>')
    for i in range(1, n + 1):
        s = steps.get(i)
        act = task.action_sequence[i - 1] if task and i <= len(task.action_sequence) else None
        desc = (s.description if s and s.description else None) or (act.description if act else "")
        if s is None:
            executed = '<span class="na">not reached</span>'
        elif s.executed:
            executed = '<span class="pass">yes</span>'
        else:
            executed = '<span class="fail">no</span>'
        if s is not None and s.error:
            executed += f'<div class="small fail">{e(s.error)}</div>'
        verdict, said, evidence = _assertion(s, act)
        if i <= r.steps_passed:
            ifs, cls = '<span class="pass" title="in the leading run of passed steps">counts</span>', "ifs-in"
        elif i == r.steps_passed + 1 and r.status not in ("judge_error", "task_error"):
            ifs, cls = '<span class="fail" title="the first step that did not pass: IFS stops here">stops</span>', "ifs-stop"
        else:
            ifs, cls = '<span class="na">-</span>', ""
        settle = ""
        if s is not None and s.duration_s:
            settle = f'<div class="small muted">{s.duration_s:.1f}s</div>'
        if s is not None and s.settle.get("animating"):
            settle += (f'<div class="small muted" title="{e(str(s.settle["animating"]))}">did not settle: shown '
                       f'{int(s.settle.get("virtual_ms", 0)) / 1000:.2f}s (virtual) after the action</div>')
        rows.append(f'<tr class="step-row {cls}" data-step="{i}"><td class="n"><a href="#step-{i}">{i}</a></td>'
                    f'<td>{_action_text(s, act, i)}{settle}</td><td>{e(desc)}</td><td>{_grounding(s)}</td><td>{executed}</td>'
                    f'<td>{verdict}</td><td>{said}</td><td>{evidence}</td><td class="nw">{_visual_cell(s.visual if s else None)}</td><td>{ifs}</td></tr>')
    head = ("<tr><th class=\"n\">#</th><th>Action</th><th>Description</th><th>Grounding rung</th><th>Executed</th>"
            "<th title=\"did the step pass its assertion (or, without one, change what it changed in the recording)\">"
            "Verdict</th><th>Assertion</th><th title=\"what decided the verdict: checks, texts that appeared or "
            "disappeared, visual change\">Evidence</th><th>Visual</th><th>IFS</th></tr>")
    return f'<div class="wide"><table id="timeline"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table></div>'


def _figure(src: str | None, caption: str, missing: str) -> str:
    if not src:
        return f'<figure><div class="missing">{e(missing)}</div><figcaption>{e(caption)}</figcaption></figure>'
    return (f'<figure><a href="{u(src)}"><img src="{u(src)}" alt="{e(caption)}" loading="lazy"></a>'
            f"<figcaption>{e(caption)}</figcaption></figure>")


def _screens(unit: Unit, task: Task | None, store: ImageStore, rel_up: str, label_dir: str) -> str:
    r = unit.result
    steps = {s.index: s for s in r.steps}
    n = max([r.steps_total, len(task.action_sequence) if task else 0] or [0])
    cards = []
    for i in range(0, n + 1):
        s = steps.get(i)
        v = r.initial if i == 0 else (s.visual if s else None)
        act = task.action_sequence[i - 1] if task and 0 < i <= len(task.action_sequence) else None
        # the checkpoint this step's screenshot was scored against (iwr-bench@1 pairs them as published)
        gt_path = task.checkpoint(v.checkpoint if v is not None else i) if task else None
        shot_name = (v.shot if v and v.shot else None) or (s.screenshot if s and s.screenshot else None) or (
            "step_0.png" if i == 0 else None)
        shot_path = unit.shots_dir / shot_name if shot_name else None
        gt = store.thumb(gt_path, f"gt/{unit.task_id}/step_{i}.jpg") if gt_path else None
        shot = store.thumb(shot_path, f"shots/{label_dir}/{unit.task_id}/{Path(shot_name).stem}.jpg") if shot_path else None
        diff = share = None
        if gt and shot:
            diff, share = store.diff(gt, shot, f"diff/{label_dir}/{unit.task_id}/step_{i}.jpg")
        desc = "" if i == 0 else ((s.description if s and s.description else None) or (act.description if act else ""))
        title = "Initial state" if i == 0 else f"Step {i}: {step_text(act.type if act else (s.type if s else '?'), desc)}"
        scored = ""
        if v is not None:
            scored = f" · scored: LVS {f2(v.low_level)}, HVS {f2(v.high_level)}" if v.reached else " · unreached (scored 0)"
        gt_cap = f"ground truth {'initial' if i == 0 else f'after action {i}'}"
        shot_cap = f"judged page ({shot_name})" if shot_name else "judged page"
        why = ("no ground truth (suite not available)" if task is None else "no ground-truth checkpoint for this step")
        no_shot = ("not executed: no screenshot" if s is not None and not s.executed
                   else "no screenshot (the replay stopped before this step)" if i > 0 else "no screenshot")
        diff_cap = f"difference: {share:.1f}% of pixels differ (red)" if share is not None else "difference"
        cards.append(
            f'<div class="step" id="step-{i}"><h3>{e(title)} '
            f'<span class="small muted">{e(scored)}</span></h3><div class="trio">'
            + _figure(rel_up + gt if gt else None, gt_cap, why)
            + _figure(rel_up + shot if shot else None, shot_cap, no_shot)
            + _figure(rel_up + diff if diff else None, diff_cap, "no difference image (a picture is missing)")
            + "</div></div>")
    return "".join(cards)


def frame_plan(unit: Unit, task: Task) -> tuple[float, int, int, str]:
    """(fps, number of frames, number of composites, note): what the model was sent, as recorded (the unit's
    generation says how many frames and composites, run.json at what rate); for a baseline, which is sent
    nothing, what a video model would be sent under the run's options."""
    gen = unit.spec.generation
    opts = dict(gen.options)
    desc = gen.models.get(unit.model) or {}
    inputs = desc.get("inputs") if isinstance(desc, dict) else None
    if isinstance(inputs, dict):
        opts.update({k: v for k, v in inputs.items() if v is not None})
    d = GenerationOptions()
    fps = float(opts.get("fps") or d.fps)
    max_frames = int(opts.get("max_frames") or d.max_frames)
    max_images = int(opts.get("max_images") or d.max_images)
    composites = min(len(task.stitched_assets), max(0, max_images))
    n = frame_budget(GenerationOptions(fps=fps, max_frames=max_frames, max_images=max_images), composites)
    sent = unit.result.generation
    if sent is not None and sent.frames is not None and sent.composites is not None:
        n, composites = sent.frames, sent.composites
    note = f"sampled at {fps:g} fps, at most {max_frames} frames, {max_images} images in all (run.json)"
    if isinstance(desc, dict) and desc.get("kind") in ("baseline", "replay"):
        note = (f"{unit.model} is a baseline: it is sent no prompt. Shown: what a video model is sent under this "
                f"run's options ({note})")
    return fps, n, composites, note


def _recording(task: Task, store: ImageStore, rel_up: str) -> str:
    """The task's screen recording, playable from disk (its copy in the report's folder), or why not."""
    src, why = store.video(task.video_path, f"img/video/{task.id}/video.mp4")
    d = task.recording_details
    info = " · ".join(x for x in (d.resolution, f"{d.duration_s:.1f} s" if d.duration_s else "",
                                  f"{d.fps:g} fps" if d.fps else "") if x)
    head = f'<h3>The recording <span class="small muted">{e(info)}</span></h3>'
    if src is None:
        return f'{head}<p class="small muted" id="recording-missing">Not shown: {e(why)}.</p>'
    href = u(rel_up + src)
    return (f'{head}<video id="recording" class="recording" controls preload="metadata" src="{href}">'
            f'<a href="{href}">video.mp4</a></video>'
            f'<p class="small muted">The task\'s screen recording (<a href="{href}">video.mp4</a>, a copy in this '
            "report's folder); the frames a model is sent are below.</p>")


def _inputs(unit: Unit, task: Task | None, store: ImageStore, rel_up: str) -> str:
    if task is None:
        return '<p class="muted">The suite is not available here, so the frames cannot be shown.</p>'
    fps, n, n_comp, note = frame_plan(unit, task)
    comps = []
    for p in task.stitched_assets[:n_comp]:
        src = store.thumb(p, f"assets/{task.id}/{p.stem}.jpg", width=440)
        if src:
            comps.append(f'<figure><a href="{u(rel_up + src)}"><img src="{u(rel_up + src)}" alt="{e(p.name)}" loading="lazy"></a>'
                         f"<figcaption>{e(p.name)}</figcaption></figure>")
    try:
        frames = store.frames(task.video_path, fps, n, f"frames/{task.id}/{fps:g}fps-{n}", anchors=task_anchors(task))
        err = None
    except IwrError as ex:
        frames, err = [], str(ex)
    figs = "".join(f'<figure><img src="{u(rel_up + src)}" alt="frame {k + 1}" loading="lazy">'
                   f"<figcaption>frame {k + 1} · t={t:.1f}s</figcaption></figure>" for k, (src, t) in enumerate(frames))
    out = _recording(task, store, rel_up) + f'<p class="small muted">{e(note)}.</p>'
    if comps:
        out += f'<h3>Asset composites ({len(comps)})</h3><div class="frames comps">{"".join(comps)}</div>'
    out += f'<h3>Video frames ({len(frames)})</h3>'
    out += f'<div class="error-box">{e(err)}</div>' if err else f'<div class="frames" id="frames">{figs}</div>'
    return out


def _code(unit: Unit) -> str:
    page = unit.run.page_file(unit.model, unit.task_id)
    files = []
    if unit.page_dir.is_dir():
        for p in sorted(unit.page_dir.rglob("*"))[:60]:
            if p.is_file():
                files.append(f"<li><code>{e(p.relative_to(unit.page_dir).as_posix())}</code> "
                             f"<span class=\"muted\">{p.stat().st_size:,} bytes</span></li>")
    listing = f'<details class="small"><summary>files of the page ({len(files)})</summary><ul>{"".join(files)}</ul></details>' if files else ""
    if not page.is_file():
        return f'<p class="muted">No index.html was kept for this unit.</p>{listing}'
    text = page.read_text(encoding="utf-8", errors="replace")
    note = ""
    if len(text) > CODE_LIMIT:
        note = (f'<p class="small muted">Showing the first {CODE_LIMIT:,} of {len(text):,} characters; the whole file is '
                f"{e(page)}.</p>")
        text = text[:CODE_LIMIT]
    return (f'<details id="code"><summary>Generated code: index.html ({page.stat().st_size:,} bytes)</summary>{note}'
            f'<pre class="code"><code>{e(text)}</code></pre></details>{listing}')


def _kept_text(id_: str, title: str, text: str | None) -> str:
    """A text the run kept (a raw reply, a unit's log), folded, cut at ``CODE_LIMIT``."""
    if text is None:
        return ""
    cut = f" (first {CODE_LIMIT:,} of {len(text):,} characters)" if len(text) > CODE_LIMIT else ""
    return (f'<details id="{id_}"><summary>{e(title)}{cut}</summary>'
            f'<pre class="code"><code>{e(text[:CODE_LIMIT])}</code></pre></details>')


def _raw_reply(unit: Unit) -> str:
    p = unit.run.raw_reply_file(unit.result)
    return _kept_text("raw-reply", "The model's raw reply", p.read_text(encoding="utf-8", errors="replace") if p else None)


def _log(unit: Unit) -> str:
    """The unit's log (the tracebacks it ended or retried on), folded under its error."""
    return _kept_text("unit-log", f"Traceback: {unit.result.log}", unit.run.log_text(unit.result))


def _generation_line(unit: Unit) -> str:
    g = unit.result.generation
    if g is None:
        return ""
    parts = []
    if g.cached:
        parts.append("from the response cache")
    if g.calls:
        parts.append(f"{g.calls} call(s)")
    if g.input_tokens is not None or g.output_tokens is not None:
        parts.append(f"tokens in {g.input_tokens if g.input_tokens is not None else '?'} / out "
                     f"{g.output_tokens if g.output_tokens is not None else '?'}")
    if g.cost_usd is not None:
        parts.append(f"${g.cost_usd:.4f}")
    if g.images is not None:
        parts.append(f"images: {g.images}")
    if g.duration_s is not None:
        parts.append(f"generated in {g.duration_s:.1f}s")
    cap = g.output_cap or {}
    if cap.get("sent") is not None:  # the server refused the first cap: say what it was asked again with
        parts.append(f"output cap {cap['sent']} instead of {cap.get('requested', '?')} "
                     f"({cap.get('reason') or 'fitted to the server'})")
    elif g.max_output_tokens is not None:
        parts.append(f"output cap {g.max_output_tokens}")
    return f'<p class="small muted">Generation: {e(" · ".join(parts))}</p>' if parts else ""


def _probes(r: TaskResult) -> str:
    """The probes (the task replayed with other input) and what they allowed of the IFS."""
    if not r.probes:
        return ""
    rows = []
    for p in r.probes:
        if p.skipped:
            verdict = f'<span class="na">skipped</span> <span class="small muted">{e(p.skipped)}</span>'
        elif p.passed:
            verdict = '<span class="pass">pass</span>'
        else:
            bad = next((s for s in p.steps if not s.passed), None)
            why = (f"step {bad.index}: {bad.error or 'failed'}" if bad else (p.error or "failed"))
            verdict = f'<span class="fail">fail</span> <span class="small muted">{e(why)}</span>'
        cap = ("-" if p.cap is None else f"at most {p.cap} leading step(s); checkpoints after step {p.cap} not reached") \
            + (f" ({p.note})" if p.note else "")
        rows.append(f"<tr><td>{e(p.name)}</td><td>{p.guards}</td><td>{p.steps_passed}/{p.steps_total}</td>"
                    f"<td>{verdict}</td><td>{e(cap)}</td></tr>")
    main = "" if r.steps_passed_main is None else (
        f"<p class=\"small\">Main trajectory: {r.steps_passed_main} leading step(s) passed; "
        f"credited after probes: {r.steps_passed}.</p>")
    return ('<section id="probes"><h2>Probes (other input, another order)</h2>'
            '<p class="small muted">After the main trajectory the task is replayed in a fresh page with other input '
            "(e.g. other text typed). A page that shows the recorded states whatever the input fails here, and the "
            "IFS counts only the steps the probe allows; the visual checkpoints after them count as not reached.</p>"
            '<div class="wide"><table><thead><tr><th>probe</th><th>guards from step</th><th>steps passed</th>'
            f"<th>verdict</th><th>IFS credit</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>{main}</section>")


def unit_page(unit: Unit, task: Task | None, store: ImageStore, *, label_dir: str, index_href: str,
              nav: dict[str, str | None], siblings: list[tuple[str, str | None]]) -> str:
    """One (model, task) page; ``nav`` has prev/next hrefs, ``siblings`` the other models on this task."""
    r = unit.result
    rel_up = "../"
    scores = "".join(f'<div class="score"><b>{f2(getattr(r, k))}</b><span>{t}</span></div>' for t, k in SCORE_COLUMNS)
    scores += f'<div class="score"><b>{r.steps_passed}/{r.steps_total}</b><span>leading steps passed</span></div>'
    err = ""
    if r.status != "ok" or r.error:
        extra = f" (after {r.attempts} attempts)" if r.status == "judge_error" else ""
        err = (f'<div class="error-box {e(r.status)}" id="status-error"><b>{e(STATUS_TEXT.get(r.status, r.status))}'
               f'{e(extra)}</b>\n{e(r.error or "no error text was recorded")}</div>')
    blocked = ""
    if r.blocked_requests:
        blocked = (f'<p class="small muted">{r.blocked_requests} request(s) to other hosts were blocked'
                   + (f": {e(', '.join(r.blocked_hosts))}" if r.blocked_hosts else "") + ".</p>")
    if r.judged_in == "build":
        blocked += ('<p class="small muted">Judged while the run built this task: the build\'s oracle replay, with '
                    'this run\'s judge, on the same task and source (not judged a second time).</p>')
    tags = " · ".join(f"{k.replace('_', ' ')} {v}" for k, v in r.tags.items())
    src = task.source_website if task and task.source_website else None
    sib = " ".join(f"<b>{e(m)}</b>" if h is None else f'<a href="{e(h)}">{e(m)}</a>' for m, h in siblings)
    navl = " · ".join(x for x in (
        f'<a href="{e(nav["prev"])}" rel="prev">← previous</a>' if nav.get("prev") else "",
        f'<a href="{e(nav["next"])}" rel="next">next →</a>' if nav.get("next") else "") if x)
    body = (
        f'<main><nav class="crumbs"><a href="{e(index_href)}">← report</a> · <a href="{e(index_href)}#tasks">all tasks</a>'
        f'{" · " + navl if navl else ""}</nav>'
        f'<h1 style="font-size:20px;margin:4px 0">{e(unit.label)} · {e(r.task_id)} {status_badge(r.status)}</h1>'
        f'<nav class="models small">Models on this task: {sib}</nav>'
        f'<p class="small muted">{e(tags)}{" · source " + e(src) if src else ""} · protocol {e(r.protocol)} · '
        f'run {e(unit.run.path)}</p>'
        f"{err}{_log(unit)}<div class=\"scores\">{scores}</div>{_generation_line(unit)}{blocked}"
        f'<section id="timeline-section"><h2>Step timeline</h2>{_timeline(unit, task)}'
        '<p class="small muted">IFS counts the leading steps that executed and passed their assertion; '
        "a green edge marks them, a red edge the step where the count stops.</p></section>"
        f"{_probes(r)}"
        f'<section id="screens"><h2>Ground truth, judged page and their difference</h2>'
        f"{_screens(unit, task, store, rel_up, label_dir)}</section>"
        f'<section id="inputs"><h2>What the model was sent</h2>{_inputs(unit, task, store, rel_up)}</section>'
        f'<section id="code-section"><h2>Generated code</h2>{_code(unit)}{_raw_reply(unit)}</section></main>'
    )
    return document(f"{unit.label} · {r.task_id} · IWR-Bench report", body)
