"""The ground truth is out of a judged page's reach: ``assets/`` is the boundary.

A task folder is a stranger's, and a link in it is a way for any judged page to read the answers
(``assets/gt/index.html -> ../../task.json``, ``assets -> checkpoints``) or the machine's files. Each way
is tried twice: the loader's check refuses the folder naming the link (a run makes it that task's
``task_error`` and calls no model), and the page server, given the same folder without that check,
serves nothing of it. The page's own folder may hold links that stay inside it; nothing past them.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import threading
import time
from pathlib import Path

import pytest

from iwrbench.errors import TaskError
from test_hostile_tasks import FIX, GOOD_LINE, iwr_here, make_task

SECRET = "GROUND-TRUTH-SECRET-7f3a"


def _task(tmp_path: Path, tid: str = "t1") -> Path:
    d = make_task(tmp_path / "suite", tid)
    data = json.loads((d / "task.json").read_text())
    data["action_sequence"][0]["logical_assertion"] = f"the page shows '{SECRET}'"
    (d / "task.json").write_text(json.dumps(data))
    return d


def _problems(d: Path) -> list[str]:
    from iwrbench.tasks import load_task
    from iwrbench.tasks.files import task_problems

    return task_problems(load_task(d))


def _get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        chunks = []
        while b := s.recv(65536):
            chunks.append(b)
    data = b"".join(chunks)
    return int(data.split(b" ", 2)[1]), data.split(b"\r\n\r\n", 1)[-1]


def _serve_task(d: Path, page: Path):
    """The judge's server for ``page`` and the task ``d`` (its assets/ as the judge mounts them), unchecked."""
    from iwrbench.browser.host import ASSETS_URL_PREFIX
    from iwrbench.browser.server import Mount, StaticServer

    return StaticServer({"/": page, ASSETS_URL_PREFIX: Mount(d / "assets", links=False)})


def _page(tmp_path: Path) -> Path:
    p = tmp_path / "page"
    p.mkdir()
    (p / "index.html").write_text("<p>page</p>")
    return p


# --------------------------------------------------------------------------- each way, refused at load


def test_an_index_link_to_task_json_is_refused_and_never_served(tmp_path):
    d = _task(tmp_path)
    (d / "assets" / "gt").mkdir()
    (d / "assets" / "gt" / "index.html").symlink_to("../../task.json")
    assert "assets/gt/index.html: a symbolic link (to task.json in the task folder)" in _problems(d)[0]
    with _serve_task(d, _page(tmp_path)) as srv:
        for path in ("/__iwr_assets__/gt/", "/__iwr_assets__/gt", "/__iwr_assets__/gt/index.html",
                     "/__iwr_assets__/gt/./index.html", "/__iwr_assets__/gt%2Findex.html"):
            status, body = _get(srv.port, path)
            assert status == 404 and SECRET.encode() not in body, (path, status)
        assert _get(srv.port, "/__iwr_assets__/asset001.png")[0] == 200  # the real assets still are


def test_assets_as_a_link_to_checkpoints_is_refused_and_never_mounted(tmp_path):
    from iwrbench.browser.host import host
    from iwrbench.sources import PageBundle

    d = _task(tmp_path)
    shutil.rmtree(d / "assets")
    (d / "assets").symlink_to("checkpoints")
    assert "assets: a symbolic link (to checkpoints in the task folder)" in _problems(d)[0]
    with pytest.raises(TaskError, match=r"assets: a symbolic link \(to checkpoints\)"):
        with host(PageBundle(root=_page(tmp_path)), d / "assets"):
            pass
    # the server itself, told to mount it anyway, follows no link at the mount's root either
    with _serve_task(d, tmp_path / "page") as srv:
        assert _get(srv.port, "/__iwr_assets__/step_1.png")[0] == 404


def test_links_to_outside_and_anywhere_deep_are_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    cases = {
        "assets/secret.txt": outside / "secret.txt",
        "assets/a/b/c/d/deep.txt": outside / "secret.txt",
        "reference/dom/notes.txt": "../../task.json",     # not read by a run, still a link in the folder
        "targets": outside,
        "stitched_assets/again.png": "stitched_image_1.png",   # inside, same folder
    }
    for i, (rel, target) in enumerate(cases.items()):
        d = _task(tmp_path / str(i))
        p = d / rel
        if p.exists():
            shutil.rmtree(p) if p.is_dir() else p.unlink()
        p.parent.mkdir(parents=True, exist_ok=True)
        p.symlink_to(target)
        problems = _problems(d)
        assert problems and f"{rel}: " in problems[0] and "refused" in problems[0], (rel, problems)
        with _serve_task(d, _page(tmp_path / str(i))) as srv:
            if rel.startswith("assets/"):
                status, body = _get(srv.port, "/__iwr_assets__/" + rel.removeprefix("assets/"))
                assert status == 404 and SECRET.encode() not in body


def test_a_hard_link_between_assets_and_the_ground_truth_is_refused(tmp_path):
    """A file of assets/ that is also a checkpoint (or task.json) by a hard link is refused, naming both; a file
    shared with a folder outside (the report hard-links a task's video) or between two assets is not."""
    d = _task(tmp_path)
    os.link(d / "checkpoints" / "step_2.png", d / "assets" / "last.png")  # the answer under another name
    problems = _problems(d)
    assert "assets/last.png: the same file as" in problems[0] and "checkpoints/step_2.png" in problems[0], problems
    (d / "assets" / "last.png").unlink()
    os.link(d / "task.json", d / "assets" / "t.json")
    assert "assets/t.json: the same file as" in _problems(d)[0] or "task.json: the same file as" in _problems(d)[0]
    (d / "assets" / "t.json").unlink()
    os.link(d / "video.mp4", tmp_path / "report-copy.mp4")
    os.link(d / "assets" / "asset001.png", d / "assets" / "again.png")
    assert _problems(d) == []


def test_fifos_devices_and_sockets_are_refused_unopened(tmp_path):
    d = _task(tmp_path)
    os.mkfifo(d / "assets" / "pipe.png")
    assert "assets/pipe.png: a FIFO, not a regular file" in _problems(d)[0]
    page = _page(tmp_path)
    os.mkfifo(page / "pipe.js")
    made_device = False
    if os.geteuid() == 0:  # a tarball unpacked as root can make device files
        os.mknod(d / "assets" / "disk.png", stat.S_IFCHR | 0o644, os.makedev(1, 8))  # /dev/random's numbers
        made_device = True
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(d / "assets" / "s.png"))
    problems = _problems(d)
    assert any("s.png: a socket" in p for p in problems), problems
    if made_device:
        assert any("disk.png: a device file" in p for p in problems), problems
    with _serve_task(d, page) as srv:
        t0 = time.monotonic()
        for path in ("/__iwr_assets__/pipe.png", "/pipe.js", "/__iwr_assets__/s.png", "/__iwr_assets__/disk.png"):
            assert _get(srv.port, path, timeout=5)[0] == 404, path
        assert time.monotonic() - t0 < 4  # no request waited on a FIFO's writer
    sock.close()


def test_folders_nested_too_deep_are_refused(tmp_path):
    from iwrbench import limits

    d = _task(tmp_path)
    p = d / "reference"
    for i in range(limits.MAX_TASK_DIR_DEPTH + 2):
        p = p / f"d{i}"
    p.mkdir(parents=True)
    assert "folders nested deeper than" in _problems(d)[0]


def test_a_linked_task_folder_inside_a_suite_or_data_folder_is_refused_at_load(tmp_path):
    from iwrbench.tasks import load_suite

    suite = tmp_path / "suite"
    make_task(suite, "good")
    elsewhere = make_task(tmp_path / "private", "held-out")
    (suite / "held-out").symlink_to(elsewhere)
    with pytest.raises(TaskError, match=r"suite/held-out: a task folder of the suite is a symbolic link"):
        load_suite(suite)
    assert [t.id for t in load_suite(suite / "good")] == ["good"]  # a path given by the user may be anything
    (suite / "alias").symlink_to(suite)  # the suite folder itself, through a link: fine
    (suite / "held-out").unlink()
    assert [t.id for t in load_suite(tmp_path / "suite" / "alias")] == ["good"]

    ds = tmp_path / "ds"
    shutil.copytree(FIX, ds)
    shutil.move(ds / "data" / "demo_search", tmp_path / "demo_search")
    (ds / "data" / "demo_search").symlink_to(tmp_path / "demo_search")
    with pytest.raises(TaskError, match=r"data/demo_search: the folder of task demo_search .* is a symbolic link"):
        load_suite(ds)


def test_a_run_makes_a_linked_task_its_task_error_and_calls_no_model(tmp_path):
    d = _task(tmp_path)
    (d / "assets" / "gt").mkdir()
    (d / "assets" / "gt" / "index.html").symlink_to("../../task.json")
    out = tmp_path / "run"
    r = iwr_here("eval", "--tasks", str(d), "--model", "blank", "--out", str(out))
    assert r.returncode == 0, r.stderr
    row = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert row["status"] == "task_error" and "assets/gt/index.html: a symbolic link" in row["error"]
    assert not (out / "pages" / "blank" / "t1" / "index.html").exists()  # no page was made for it


def test_a_recorded_task_folder_holds_no_link(smoke_tasks):
    """What the recorder writes passes the check (it never writes a link)."""
    from iwrbench.tasks.files import folder_problems

    for d in smoke_tasks.values():
        assert folder_problems(d) == [], d


# --------------------------------------------------------------------------- the page server, on its own


def test_the_page_folder_may_link_inside_itself_and_nowhere_else(tmp_path):
    from iwrbench.browser.server import StaticServer

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    (outside / "index.html").write_text(SECRET)
    page = _page(tmp_path)
    (page / "css").mkdir()
    (page / "css" / "main.css").write_text("body{}")
    (page / "style").symlink_to("css")                      # inside: served
    (page / "home.html").symlink_to("index.html")           # inside: served (as html)
    (page / "out").symlink_to("../outside")                 # a folder out
    (page / "sub").mkdir()
    (page / "sub" / "index.html").symlink_to("../../outside/index.html")  # index.html appended, then out
    (page / "abs.txt").symlink_to(outside / "secret.txt")    # absolute
    (page / "up").symlink_to("css/../..")                   # climbs out through a link inside
    (page / "loop").symlink_to("loop")
    with StaticServer({"/": page}) as srv:
        assert _get(srv.port, "/style/main.css") == (200, b"body{}")
        status, body = _get(srv.port, "/home.html")
        assert status == 200 and body == b"<p>page</p>"
        for path in ("/out/secret.txt", "/out/", "/sub/", "/sub", "/sub/index.html", "/abs.txt", "/up/outside/secret.txt",
                     "/style/../../outside/secret.txt", "/loop", "/%2e%2e/outside/secret.txt"):
            status, body = _get(srv.port, path)
            assert status == 404 and SECRET.encode() not in body, (path, status)


def test_a_folder_swapped_for_a_link_after_the_check_serves_nothing_outside(tmp_path):
    """Time of check to time of use: the server reads beneath the folder it opened, one component at a time."""
    from iwrbench.browser.server import Mount, StaticServer

    outside = tmp_path / "outside"
    (outside / "img").mkdir(parents=True)
    (outside / "img" / "a.png").write_text(SECRET)
    assets = tmp_path / "task" / "assets"
    (assets / "img").mkdir(parents=True)
    (assets / "img" / "a.png").write_text("asset")
    with StaticServer({"/": _page(tmp_path), "/__iwr_assets__/": Mount(assets, links=False)}) as srv:
        assert _get(srv.port, "/__iwr_assets__/img/a.png") == (200, b"asset")
        shutil.rmtree(assets / "img")
        (assets / "img").symlink_to(outside / "img")  # a folder inside becomes a link out
        assert _get(srv.port, "/__iwr_assets__/img/a.png")[0] == 404
        os.rename(assets, tmp_path / "task" / "assets-old")  # the mounted folder itself moves away ...
        (tmp_path / "task" / "assets").symlink_to(outside)  # ... and a link out takes its name
        status, body = _get(srv.port, "/__iwr_assets__/img/a.png")
        assert SECRET.encode() not in body and status == 404


def test_many_requests_at_once_never_cross_a_link(tmp_path):
    """Requests racing a link that flips between inside and outside never get the outside file."""
    from iwrbench.browser.server import StaticServer

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f.txt").write_text(SECRET)
    page = _page(tmp_path)
    (page / "in").mkdir()
    (page / "in" / "f.txt").write_text("inside")
    stop = threading.Event()

    def flip() -> None:
        link = page / "d"
        while not stop.is_set():
            for target in ("in", str(outside)):
                tmp = page / ".d.tmp"
                tmp.symlink_to(target)
                os.replace(tmp, link)

    t = threading.Thread(target=flip, daemon=True)
    t.start()
    try:
        with StaticServer({"/": page}) as srv:
            seen = set()
            for _ in range(200):
                status, body = _get(srv.port, "/d/f.txt")
                seen.add(status)
                assert SECRET.encode() not in body
    finally:
        stop.set()
        t.join()
    assert 200 in seen  # the inside target was served while the link pointed there


def test_the_task_folder_check_reads_the_official_fixture_as_clean():
    from iwrbench.tasks.files import folder_problems

    for d in (FIX / "data").iterdir():
        assert folder_problems(d) == [], d
    assert json.loads(GOOD_LINE)["id"]


def test_a_recipe_s_site_folder_is_copied_without_its_links(tmp_path):
    """reference/site is a copy of a stranger's folder: a link out of it is not followed into the task folder."""
    from iwrbench.record.recorder import _site_copy_ignore
    from iwrbench.tasks.files import folder_problems

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "id_rsa").write_text(SECRET)
    site = tmp_path / "site"
    (site / "css").mkdir(parents=True)
    (site / "index.html").write_text("<p>site</p>")
    (site / "css" / "a.css").write_text("body{}")
    (site / "key").symlink_to(outside / "id_rsa")
    (site / "styles").symlink_to("css")
    (site / "home.html").symlink_to("index.html")
    skipped: list[str] = []
    shutil.copytree(site, tmp_path / "task" / "reference" / "site", ignore=_site_copy_ignore(site, skipped))
    out = tmp_path / "task" / "reference" / "site"
    assert sorted(skipped) == ["key", "styles"]
    assert not (out / "key").exists() and (out / "home.html").read_text() == "<p>site</p>"
    assert folder_problems(tmp_path / "task") == []
