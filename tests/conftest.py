"""Shared fixtures: a real Chromium (no mocks), pages on 127.0.0.1, the smoke tasks recorded once."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest
import pytest_asyncio

ROOT = Path(__file__).resolve().parent.parent
SUITES = ROOT / "src" / "iwrbench" / "suites"


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory):
    """Tests never touch the user's cache (npm fetches are shared across tests via a session dir)."""
    d = tmp_path_factory.mktemp("iwr-cache")
    old = os.environ.get("IWR_CACHE")
    os.environ["IWR_CACHE"] = str(d)
    yield d
    if old is None:
        os.environ.pop("IWR_CACHE", None)
    else:
        os.environ["IWR_CACHE"] = old


@pytest_asyncio.fixture
async def browser():
    from playwright.async_api import async_playwright

    from iwrbench.browser.core import launch_browser

    async with async_playwright() as pw:
        b = await launch_browser(pw)
        yield b
        await b.close()


@pytest_asyncio.fixture
async def published_browser():
    """The browser iwr-bench@1 judges in (scrollbars drawn, no fonts wait before screenshots: browser/core.py)."""
    from iwrbench.browser.core import launch_browser, start_playwright

    pw = await start_playwright(published=True)
    try:
        b = await launch_browser(pw, page_setup="published")
        yield b
        await b.close()
    finally:
        await pw.stop()


def shared_dir(tmp_path_factory, name: str, make) -> Path:
    """A folder ``make(folder)`` fills once for the whole test session, shared by every pytest-xdist process.

    Session fixtures are per process; what is costly (the smoke tasks recorded, the baseline run) is made by
    the first process that needs it, under a file lock, and read by the others. A ``make`` that fails leaves
    no ``.done``: the next process to ask tries again from an empty folder (and fails the same way, loudly)."""
    import fcntl

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the session's temporary folder, above each process's own
    out = root / f"shared-{name}"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / ".done").is_file():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            make(out)
            (out / ".done").write_text("")
    return out


@pytest.fixture(scope="session")
def smoke_tasks(tmp_path_factory) -> dict[str, Path]:
    """The smoke suite's recipes, recorded once per test session with the real recorder (read-only: a test
    that changes a task copies it first, ``copy_task``)."""
    from iwrbench.record.recipe import load_recipe
    from iwrbench.record.recorder import record

    recipes = {load_recipe(f).id: f for f in sorted((SUITES / "smoke").glob("*.yaml"))}

    def make(out: Path) -> None:
        for rid, f in recipes.items():
            record(load_recipe(f), out / "tasks" / rid)

    out = shared_dir(tmp_path_factory, "smoke-tasks", make) / "tasks"
    return {rid: out / rid for rid in recipes}


@pytest.fixture(scope="session")
def smoke_suite(smoke_tasks) -> Path:
    return next(iter(smoke_tasks.values())).parent


def copy_task(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


__all__ = ["asyncio", "copy_task"]


BASELINES = ["oracle", "blank", "screenshot"]


def eval_cmd(suite: Path, out: Path, *extra: str, models: list[str] = BASELINES) -> list[str]:
    import sys

    cmd = [sys.executable, "-m", "iwrbench.cli", "eval", "--tasks", str(suite), "--out", str(out), *extra]
    for m in models:
        cmd += ["--model", m]
    return cmd


@pytest.fixture(scope="session", name="eval_cmd")
def _eval_cmd_fixture():
    """The `iwr eval` command line (as a list) for a suite, a run folder and models."""
    return eval_cmd


@pytest.fixture(scope="session")
def baseline_run(smoke_suite, tmp_path_factory) -> Path:
    """One uninterrupted `iwr eval` of the baselines over the smoke suite, shared by tests."""
    import subprocess

    def make(folder: Path) -> None:
        r = subprocess.run(eval_cmd(smoke_suite, folder / "run", "--workers", "2"), capture_output=True, text=True,
                           timeout=1200)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]

    return shared_dir(tmp_path_factory, "baseline", make) / "run"


# --------------------------------------------------------------------------- tiers
# `make test-fast` runs `-m "not browser and not validity"`: no Chromium, no Ray. A test needs the browser
# when it uses one of these fixtures, or when its module says so with `pytestmark = pytest.mark.browser`.
# `ray` (starts a Ray cluster) and `e2e` (the CLI end to end, tests/e2e/) imply `browser`: each judges pages.
BROWSER_FIXTURES = {"browser", "smoke_tasks", "smoke_suite", "baseline_run", "report_run", "judged", "mixed",
                    "shots"}
E2E_DIR = Path(__file__).resolve().parent / "e2e"


# `make test` runs on two processes (pytest-xdist, `--dist loadfile`): a module's tests stay together (its
# module-scoped pages and servers are made once); the smoke tasks and the baseline run are made once for
# both processes (``shared_dir``).


#: the slowest test files (``--durations`` of a full run), started first: with ``--dist loadfile`` each file goes
#: whole to one process in collection order, so a long file collected last keeps one process busy while the other
#: waits (the last 5% of the tests took 9 of 20 minutes). Unlisted files keep their order, after these.
SLOW_FIRST = ("validity/test_reconstructions.py", "runs/test_pipeline.py", "judge/test_published_protocol.py",
              "record/test_record_validated.py", "runs/test_executors.py", "judge/test_hostile.py",
              "judge/test_judge_pages.py", "runs/test_rejudge.py", "browser/test_escape.py",
              "record/test_recorder.py", "report/test_report_files.py", "record/test_action_player.py")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(config, items):
    for item in items:
        if Path(str(item.fspath)).resolve().parent == E2E_DIR:
            item.add_marker(pytest.mark.e2e)
        if item.get_closest_marker("ray") or item.get_closest_marker("e2e"):
            item.add_marker(pytest.mark.browser)
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
    rank = {Path(__file__).resolve().parent / name: k for k, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(Path(str(item.fspath)).resolve(), len(SLOW_FIRST)))  # stable: files stay whole
