"""Chromium's own sandbox is on, and judging does not start without it unless asked in so many words.

As root (CI, ``make test``) the browser runs as the unprivileged ``iwr-browser`` with no capabilities, in a
filesystem of its own where run folders, task folders, the project and home folders do not exist, with an
environment that holds no key; its renderers are in seccomp mode 2 inside their own user namespace. Not
root, the browser runs as that user with Chromium's normal sandbox. Everything is read from the real
processes in /proc.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = os.geteuid() == 0


def _iwr_here(*args: str) -> tuple[int, str]:
    """``iwr ARGS`` in this process: (exit code, stderr)."""
    import contextlib
    import io

    from iwrbench.cli import main

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = main(list(args))
    return rc, err.getvalue()


async def _browser_processes(launch_kw: dict, env: dict | None = None):
    """Start a browser as judging does, open a page, return (sandbox plan, browser pid, renderer pid, status)."""
    from playwright.async_api import async_playwright

    from iwrbench.browser import sandbox as sbx
    from iwrbench.browser.core import browser_sandbox, launch_browser, new_context

    old = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        async with async_playwright() as pw:
            browser = await launch_browser(pw, **launch_kw)
            try:
                ctx, _ = await new_context(browser, (320, 240), allowed_origins=set())
                page = await ctx.new_page()
                await page.set_content("<p>inside</p>")
                procs = [(p, sbx._cmdline(p)) for p in sbx._descendants(os.getpid())]
                b = next(p for p, c in procs if "--remote-debugging-pipe" in c and "--type=" not in c)
                r = next(p for p, c in procs if "--type=renderer" in c and "top-chrome" not in c)
                sb = browser_sandbox(browser)
                facts = {
                    "browser": sbx._status(b), "renderer": sbx._status(r),
                    "browser_ns": {k: sbx._ns(b, k) for k in ("user", "mnt")},
                    "renderer_ns": {k: sbx._ns(r, k) for k in ("user", "pid")},
                    "mine": {k: sbx._ns(os.getpid(), k) for k in ("user", "mnt", "pid")},
                    "environ": Path(f"/proc/{b}/environ").read_bytes().split(b"\0") if ROOT else [],
                    "status": sbx.sandbox_status(sb),
                }
                seen = {}
                if ROOT:  # what the browser's own filesystem holds, seen through its root
                    for name in ("usr/lib", "etc/fonts", "tmp", "work", "root", "home", "srv"):
                        seen[name] = os.path.exists(f"/proc/{b}/root/{name}")
                facts["seen"] = seen
                return sb, b, r, facts
            finally:
                await browser.close()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


async def test_chromium_s_sandbox_is_on_and_the_browser_holds_no_privilege(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text('{"secret": "RUN-FOLDER"}')
    sb, b, r, f = await _browser_processes({}, env={"OPENAI_API_KEY": "sk-TEST-KEY-NEVER-IN-THE-BROWSER"})
    assert sb.on and f["status"].ok, f["status"].detail
    # every renderer in Chromium's sandbox: seccomp-bpf, its own user and PID namespaces
    assert f["renderer"]["Seccomp"] == "2"
    assert f["renderer_ns"]["user"] != f["mine"]["user"] and f["renderer_ns"]["pid"] != f["mine"]["pid"]
    uid = int(f["browser"]["Uid"].split()[0])
    assert uid != 0 and int(f["renderer"]["Uid"].split()[0]) != 0
    if ROOT:
        import pwd

        assert sb.mode == "jail" and uid == pwd.getpwnam("iwr-browser").pw_uid
        assert int(f["browser"]["CapEff"], 16) == 0 and int(f["browser"]["CapBnd"], 16) == 0
        assert f["browser"]["NoNewPrivs"] == "1"
        # a filesystem of its own: the system's folders, a private /tmp; no run folder, project or home
        assert f["browser_ns"]["mnt"] != f["mine"]["mnt"]
        assert f["seen"]["usr/lib"] and f["seen"]["etc/fonts"] and f["seen"]["tmp"]
        assert not f["seen"]["work"] and not f["seen"]["root"] and not f["seen"]["home"] and not f["seen"]["srv"]
        assert not os.path.exists(f"/proc/{b}/root{run}") and not os.path.exists(f"/proc/{b}/root{Path.cwd()}")
        # no key in its environment
        assert not any(b"sk-TEST-KEY" in e or e.startswith(b"OPENAI") for e in f["environ"]), f["environ"]
    else:
        assert sb.mode == "native"


async def test_unsafe_no_sandbox_is_only_what_was_asked_for():
    sb, b, r, f = await _browser_processes({"sandbox": False})
    assert sb.mode == "off" and not f["status"].ok
    assert f["renderer"]["Seccomp"] == "0"  # what --no-sandbox means, and why it is not the default


@pytest.mark.skipif(not ROOT, reason="as root only: the sandbox then needs the iwr-browser user")
def test_judging_refuses_to_start_without_the_sandbox_unless_asked(smoke_tasks, tmp_path, monkeypatch):
    from iwrbench.browser import sandbox as sbx

    task = next(iter(smoke_tasks.values()))
    monkeypatch.setattr(sbx, "SANDBOX_USER", "iwr-no-such-user")  # a machine where `make setup` never ran
    out = tmp_path / "refused"
    r = _iwr_here("eval", "--tasks", str(task), "--model", "blank", "--out", str(out))
    assert r[0] == 2 and len(r[1].strip().splitlines()) == 1, r
    msg = r[1]
    assert "iwr-no-such-user" in msg and "make setup" in msg and "--unsafe-no-sandbox" in msg
    assert not (out / "results.jsonl").exists()  # nothing was judged
    out = tmp_path / "unsafe"
    r = _iwr_here("eval", "--tasks", str(task), "--model", "blank", "--out", str(out), "--unsafe-no-sandbox")
    assert r[0] == 0, r
    spec = json.loads((out / "run.json").read_text())
    assert spec["browser"]["unsafe_no_sandbox"] is True and spec["browser"]["sandbox"].startswith("OFF")
    assert os.environ.get(sbx.UNSAFE_ENV) is None  # the flag lasted for its command only
    monkeypatch.undo()
    out = tmp_path / "safe"
    r = _iwr_here("eval", "--tasks", str(task), "--model", "blank", "--out", str(out))
    assert r[0] == 0, r
    spec = json.loads((out / "run.json").read_text())
    assert spec["browser"]["unsafe_no_sandbox"] is False and spec["browser"]["sandbox"].startswith("on: ")


def test_doctor_says_whether_the_sandbox_is_on():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "doctor"], capture_output=True, text=True, timeout=300)
    line = next(x for x in r.stdout.splitlines() if "browser sandbox" in x)
    assert line.startswith("ok ") and "renderer seccomp mode 2" in line, line
    r = subprocess.run([sys.executable, "-m", "iwrbench.cli", "doctor", "--unsafe-no-sandbox"], capture_output=True,
                       text=True, timeout=300)
    line = next(x for x in r.stdout.splitlines() if "browser sandbox" in x)
    assert line.startswith("no ") and "OFF" in line, line


async def test_a_sandbox_that_cannot_start_is_refused_with_its_reason(monkeypatch):
    """Where the browser's own filesystem cannot be made (a container that forbids mount namespaces), judging does
    not start, and the one line says why and what to do."""
    from playwright.async_api import async_playwright

    from iwrbench.browser import core
    from iwrbench.errors import ComponentMissing

    if not ROOT:
        pytest.skip("the launcher runs as root only")
    monkeypatch.setattr(core, "jail_script", lambda *a: [
        "echo 'unshare: unshare failed: Operation not permitted' >&2", "exit 1"])
    async with async_playwright() as pw:
        with pytest.raises(ComponentMissing) as e:
            await core.launch_browser(pw)
    msg = str(e.value)
    assert "Chromium's sandbox cannot start here (" in msg and "unshare failed" in msg, msg
    assert "--unsafe-no-sandbox" in msg and "\n" not in msg
