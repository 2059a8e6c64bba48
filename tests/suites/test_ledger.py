"""``iwr validity`` keeps each task's outcome beside a built suite's manifest; ``iwr suite stats`` counts it."""

from __future__ import annotations

import json
from pathlib import Path

from iwrbench.validity import Verdict
from iwrbench.suites.ledger import LEDGER, current, outcome, outdated, record


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
    # recorded again from the same fingerprint (`iwr suite build --force`): another recording, no longer checked
    (tasks.parent / "manifest.json").write_text(json.dumps({
        "mail-star": {"fingerprint": "bbb", "ok": True, "built": "2026-12-06T10:00:00Z"}}))
    assert current(tasks.parent, json.loads((tasks.parent / "manifest.json").read_text())) == {}
    assert outdated(tasks.parent, json.loads((tasks.parent / "manifest.json").read_text())) == 1  # markup of mail-star


def test_no_ledger_outside_a_built_suite(tmp_path):
    loose = tmp_path / "tasks"
    loose.mkdir()
    row = Verdict(set="oracle", task_id="t", page="oracle", steps=1, judged=1, truth=1, ok=True)
    assert record(loose, [row]) is None and record(None, [row]) is None
    assert not list(tmp_path.rglob(LEDGER))
    assert outcome("markup", [_markup("t", "renamed", False, False)])["met"] is False  # nothing verified: not met


def test_a_task_copied_between_bundled_suites_is_checked_for_both(tmp_path, monkeypatch):
    """`full` reuses the tasks `default` built (the same folder, copied): an outcome found on either counts for both.
    A task of the same fingerprint recorded apart, and a copy of a suite's build elsewhere, are not twinned."""
    monkeypatch.setenv("IWR_CACHE", str(tmp_path / "cache"))
    suites = tmp_path / "cache" / "suites"
    for name, man in {
        "default": {"shop-cart": {"fingerprint": "aaa", "ok": True, "built": "T1"},
                    "mail-star": {"fingerprint": "bbb", "ok": True, "built": "T1"}},
        "full": {"shop-cart": {"fingerprint": "aaa", "ok": True, "built": "T1", "copied_from": "default"},
                 "mail-star": {"fingerprint": "bbb", "ok": True, "built": "T2"}},  # recorded apart: its own recording
    }.items():
        (suites / name / "tasks").mkdir(parents=True)
        (suites / name / "manifest.json").write_text(json.dumps(man))
    ok = [Verdict(set="oracle", task_id=t, page="oracle", steps=5, judged=5, truth=5, ok=True)
          for t in ("shop-cart", "mail-star")]
    record(suites / "full" / "tasks", ok)

    def checked(name: str) -> dict:
        root = suites / name
        return current(root, json.loads((root / "manifest.json").read_text()))

    assert sorted(checked("full")) == ["mail-star", "shop-cart"]
    assert sorted(checked("default")) == ["shop-cart"]
    # the other way round: checked on default, counted for full's copy
    record(suites / "default" / "tasks", [_markup("shop-cart", "no-aria", True, True)])
    assert checked("full")["shop-cart"]["markup"]["met"] is True
    # a copy of full's build elsewhere writes its own ledger only
    elsewhere = tmp_path / "mine" / "default"
    (elsewhere / "tasks").mkdir(parents=True)
    (elsewhere / "manifest.json").write_text((suites / "full" / "manifest.json").read_text())
    record(elsewhere / "tasks", [Verdict(set="cheats", task_id="shop-cart", page="slideshow", steps=5, judged=0,
                                         truth=0, ok=True)])
    assert "cheats" not in checked("default")["shop-cart"] and "cheats" not in checked("full")["shop-cart"]
    assert (elsewhere / LEDGER).is_file()
    # default's copy recorded again (`--force`, same fingerprint, another stamp): full's check no longer counts for it
    man = json.loads((suites / "default" / "manifest.json").read_text())
    man["shop-cart"]["built"] = "T3"
    (suites / "default" / "manifest.json").write_text(json.dumps(man))
    assert "shop-cart" not in checked("default")
    record(suites / "full" / "tasks", ok)
    assert "shop-cart" not in checked("default") and "shop-cart" in checked("full")
