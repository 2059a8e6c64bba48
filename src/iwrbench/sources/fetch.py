"""Where sites come from: a folder, a URL, or a package fetched from a registry and pinned.

Third-party sites are fetched at build time (``npm pack`` / ``pip``), checked against their
pinned sha256 when one is given, and cached outside the repository under
``$IWR_CACHE`` (default ``~/.cache/iwrbench``). Nothing fetched is ever committed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Iterator

from ..errors import RecordError


def cache_root() -> Path:
    p = Path(os.environ.get("IWR_CACHE") or Path.home() / ".cache" / "iwrbench")
    p.mkdir(parents=True, exist_ok=True)
    return p


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    """An exclusive lock beside ``target``: parallel builds fetch or install it once."""
    import fcntl

    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.with_name(target.name + ".lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch_npm(package: str, version: str, sha256: str | None = None) -> tuple[Path, str]:
    """Download and unpack ``package@version`` once; returns (package folder, tarball sha256)."""
    safe = package.replace("/", "__").replace("@", "")
    dest = cache_root() / "npm" / f"{safe}-{version}"
    with _locked(dest):
        return _fetch_npm(package, version, sha256, dest)


def _fetch_npm(package: str, version: str, sha256: str | None, dest: Path) -> tuple[Path, str]:
    meta = dest / ".iwr-fetch.json"
    if meta.exists():
        info = json.loads(meta.read_text())
        if sha256 and info["sha256"] != sha256:
            raise RecordError(f"npm {package}@{version}: cached tarball sha256 {info['sha256'][:12]} != pinned {sha256[:12]}")
        return dest / "package", info["sha256"]
    if not shutil.which("npm"):
        raise RecordError(f"npm {package}@{version}: the `npm` command is needed to fetch it (install Node.js)")
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
        try:
            out = subprocess.run(["npm", "pack", f"{package}@{version}", "--silent", "--pack-destination", tmp],
                                 capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            raise RecordError(f"npm {package}@{version}: `npm pack` timed out (is the registry reachable?)") from None
        tgz = [p for p in Path(tmp).glob("*.tgz")]
        if out.returncode != 0 or not tgz:
            msg = (out.stderr or out.stdout).strip().splitlines()
            raise RecordError(f"npm {package}@{version}: cannot fetch ({msg[-1] if msg else 'npm pack failed'})")
        digest = sha256_file(tgz[0])
        if sha256 and digest != sha256:
            raise RecordError(f"npm {package}@{version}: tarball sha256 {digest} does not match the pinned {sha256}")
        unpack = Path(tmp) / "unpacked"
        with tarfile.open(tgz[0]) as tf:
            tf.extractall(unpack, filter="data")
        inner = next((p for p in unpack.iterdir() if p.is_dir()), None)
        if inner is None:
            raise RecordError(f"npm {package}@{version}: empty tarball")
        staging = Path(tmp) / "final"
        staging.mkdir()
        inner.rename(staging / "package")
        (staging / ".iwr-fetch.json").write_text(json.dumps({"package": package, "version": version, "sha256": digest,
                                                             "fetched": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}))
        if dest.exists():
            shutil.rmtree(dest)
        staging.rename(dest)
    return dest / "package", digest


def pypi_env(package: str, version: str, extra: list[str] | None = None, sha256: str | None = None) -> Path:
    """A venv in the cache with ``package==version`` installed; returns its python.

    The package's own distribution file (the wheel or sdist pip picks for this Python) is downloaded
    first, without its dependencies, and hashed: with ``sha256`` given it must match, or nothing is
    installed. The venv is then installed from that very file (plus ``extra``), and remembers its
    digest (``pypi_env_digest``), so a recorded task can say what it ran and a recipe can pin it."""
    safe = f"{package}-{version}"
    if extra:
        safe += "-" + hashlib.sha256(" ".join(sorted(extra)).encode()).hexdigest()[:8]
    dest = cache_root() / "pypi" / safe
    dist_dir = cache_root() / "pypi-dist" / f"{package}-{version}"
    with _locked(dist_dir):
        dist, digest = _pypi_dist(package, version, dist_dir)
    if sha256 and digest != sha256.lower():
        raise RecordError(f"pypi {package}=={version}: {dist.name} sha256 {digest} does not match the pinned {sha256}")
    with _locked(dest):
        return _pypi_env(package, version, extra, dest, dist, digest)


def pypi_env_digest(python: Path) -> str | None:
    """The sha256 of the distribution file the venv of ``python`` was installed from (None if unknown)."""
    marker = Path(python).parent.parent / ".iwr-ok"
    try:
        text = marker.read_text().strip()
    except OSError:
        return None
    return text if len(text) == 64 else None


def _pypi_dist(package: str, version: str, dest: Path) -> tuple[Path, str]:
    """Download ``package==version``'s own distribution file once (no dependencies); (file, sha256)."""
    meta = dest / ".iwr-fetch.json"
    if meta.exists():
        info = json.loads(meta.read_text())
        f = dest / info["file"]
        if f.is_file() and sha256_file(f) == info["sha256"]:
            return f, info["sha256"]
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
        try:
            res = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", tmp,
                                  f"{package}=={version}"], capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            raise RecordError(f"pypi {package}=={version}: `pip download` timed out (is the registry reachable?)") from None
        files = [p for p in Path(tmp).iterdir() if p.is_file()]
        if res.returncode != 0 or len(files) != 1:
            tail = (res.stderr or res.stdout).strip().splitlines()
            raise RecordError(f"pypi {package}=={version}: cannot fetch ({tail[-1] if tail else 'pip download failed'})")
        digest = sha256_file(files[0])
        for old in dest.iterdir():
            if old.is_file():
                old.unlink()
        final = dest / files[0].name
        shutil.move(str(files[0]), final)
        meta.write_text(json.dumps({"package": package, "version": version, "file": final.name, "sha256": digest,
                                    "fetched": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}))
    return final, digest


def _pypi_env(package: str, version: str, extra: list[str] | None, dest: Path, dist: Path, digest: str) -> Path:
    py = dest / "bin" / "python"
    # the marker holds the digest of the file the venv was installed from; a venv made before digests were
    # kept (marker "ok") or from another file is made again
    if (dest / ".iwr-ok").exists() and (dest / ".iwr-ok").read_text().strip() == digest:
        ok = subprocess.run([str(py), "-m", "pip", "show", "-q", package], capture_output=True).returncode == 0
        if ok:
            return py
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(dest)], check=True, capture_output=True)
    res = subprocess.run([str(py), "-m", "pip", "install", "-q", str(dist), *(extra or [])],
                         capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        tail = (res.stderr or res.stdout).strip().splitlines()
        raise RecordError(f"pypi {package}=={version}: install failed ({tail[-1] if tail else 'pip error'})")
    (dest / ".iwr-ok").write_text(digest)
    return py


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def run_server(command: list[str], port: int, *, cwd: Path | None = None, timeout_s: float = 60) -> Iterator[str]:
    """Start a server process listening on 127.0.0.1:port, yield its origin, stop it after."""
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                err = proc.stderr.read().decode(errors="replace").strip().splitlines() if proc.stderr else []
                raise RecordError(f"server `{' '.join(command[:3])}` exited: {err[-1] if err else proc.returncode}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        else:
            raise RecordError(f"server `{' '.join(command[:3])}` did not listen on 127.0.0.1:{port} within {timeout_s:.0f}s")
        yield f"http://127.0.0.1:{port}"
    finally:
        with contextlib.suppress(Exception):
            os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(Exception):
                os.killpg(proc.pid, 9)
