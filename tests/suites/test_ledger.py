"""``iwr validity`` keeps each task's outcome beside a built suite's manifest; ``iwr suite stats`` counts it."""

from __future__ import annotations

import json
from pathlib import Path

from iwrbench.validity import Verdict
from iwrbench.suites.ledger import LEDGER, current, outcome, record


def _suite(tmp_path: Path) -> Path:
    tasks = tmp_path / "suite" / "tasks"
    tasks.mkdir(parents=True)
    (tasks.parent / "manifest.json").write_text(json.dumps({
        "shop-cart": {"fingerprint": "aaa", "ok": True}, "mail-star": {"fingerprint": "bbb", "ok": True}}))
    return tasks


def _markup(tid: str, page: str, verified: bool, ok: bool) -> Verdict:
    return Verdict(set="markup", task_id=tid, page=page, steps=5, judged=5 if ok else 2 if verified else None,
                   truth=5 if verified else None, ok=ok, extra={"verified": verified} if verified else {})


def test_each_tasks_outcome_is_kept_and_dropped_when_rebuilt(tmp_path):
    tasks = _suite(tmp_path)
    rows = [Verdict(set="oracle", task_id="shop-cart", page="oracle", steps=5, judged=5, truth=5, ok=True),
            Verdict(set="cheats", task_id="shop-cart", page="slideshow", steps=5, judged=0, truth=0, ok=True),
            Verdict(set="cheats", task_id="shop-cart", page="frames-text-replay", steps=5, judged=1, truth=0, ok=False),
            _markup("mail-star", "no-aria", True, True), _markup("mail-star", "renamed", False, False),
            _markup("mail-star", "all", True, False),
            Verdict(set="reconstructions", task_id="shop-cart", page="careful", steps=5, judged=5, truth=5, ok=True)]
    f = record(tasks, rows)
    assert f == tasks.parent / LEDGER
    got = current(tasks.parent, json.loads((tasks.parent / "manifest.json").read_text()))
    assert got["shop-cart"]["oracle"]["met"] is True and got["shop-cart"]["cheats"]["met"] is False
    assert got["shop-cart"]["cheats"]["pages"] == 2 and "reconstructions" not in got["shop-cart"]
    # an unverified mutant counts for nothing; a verified one below IFS 100 fails the task
    mk = got["mail-star"]["markup"]
    assert (mk["pages"], mk["verified"], mk["at_100"], mk["met"]) == (3, 2, 1, False)
    # a second run of one set replaces that set's outcome only
    record(tasks, [_markup("mail-star", "all", True, True)])
    got = current(tasks.parent, json.loads((tasks.parent / "manifest.json").read_text()))
    assert got["mail-star"]["markup"]["met"] is True and got["shop-cart"]["oracle"]["met"] is True
    # rebuilt since (another fingerprint): no longer checked
    (tasks.parent / "manifest.json").write_text(json.dumps({"shop-cart": {"fingerprint": "ccc", "ok": True},
                                                            "mail-star": {"fingerprint": "bbb", "ok": True}}))
    got = current(tasks.parent, json.loads((tasks.parent / "manifest.json").read_text()))
    assert "shop-cart" not in got and "mail-star" in got


def test_no_ledger_outside_a_built_suite(tmp_path):
    loose = tmp_path / "tasks"
    loose.mkdir()
    row = Verdict(set="oracle", task_id="t", page="oracle", steps=1, judged=1, truth=1, ok=True)
    assert record(loose, [row]) is None and record(None, [row]) is None
    assert not list(tmp_path.rglob(LEDGER))
    assert outcome("markup", [_markup("t", "renamed", False, False)])["met"] is False  # nothing verified: not met
