"""Chromium's own sandbox, on: the wall behind every other wall.

Every other wall (the proxy, the resolver rules, the isolated world) is the browser's own policy; one
renderer bug in a judged page would otherwise run with whatever the browser process has. So Chromium
always runs with its sandbox enabled (seccomp-bpf and its own user and PID namespaces for every
renderer), never with ``--no-sandbox`` unless the person running iwrbench asks for it in so many words
(``--unsafe-no-sandbox``, or ``IWR_UNSAFE_NO_SANDBOX=1``; recorded in run.json).

Chromium refuses to run its sandbox as root, so how it is started depends on who runs iwrbench:

- **not root** (a researcher's laptop, Playwright's own Chromium): as that user, with Chromium's normal
  sandbox (``native``).
- **root** (CI, ``make test`` on a fresh machine): ``jail``. The launcher (a small shell script, see
  ``jail_script``) puts the browser in a mount namespace of its own whose root is an empty tmpfs holding
  only what a browser needs, read-only: ``/usr``, ``/etc``, the library folders, the fontconfig cache,
  ``/proc``, ``/sys`` and ``/dev``; a private ``/tmp`` and ``/dev/shm``; its profile folder (the only
  writable folder it shares with us); and the folder of the Chromium binary when it is elsewhere. The old
  root is detached (``pivot_root``, so Chromium may still make its own namespaces: the kernel refuses
  that inside a ``chroot``). Then it drops to the unprivileged user ``iwr-browser`` (made by
  ``scripts/setup-system.sh``) with no capabilities, no way to gain any (``no_new_privs``, an empty
  bounding set) and an environment of a few variables, and starts Chromium with its sandbox. Run
  folders, task folders, the cache, home folders and the project are not in its filesystem at all; API
  keys are in no environment it sees; pages reach files only through our loopback server.
- **off**: as before this change: ``--no-sandbox`` (every other wall still holds).

``sandbox_status`` looks at a running browser's processes (``iwr doctor``): which user the browser runs
as, whether its filesystem is its own, and whether a renderer is in seccomp mode 2 inside its own user
namespace.
"""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..errors import ComponentMissing

#: the unprivileged user Chromium runs as when iwrbench runs as root
SANDBOX_USER = "iwr-browser"
#: the environment switch ``--unsafe-no-sandbox`` sets (so Ray workers and child processes see it too)
UNSAFE_ENV = "IWR_UNSAFE_NO_SANDBOX"

#: folders of the machine bound read-only into the browser's filesystem (when they exist); links are kept as links
SYSTEM_DIRS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/var/cache/fontconfig")
#: the tools the launcher runs as root before it drops to SANDBOX_USER (util-linux and mount: on every Debian)
TOOLS = ("unshare", "mount", "umount", "pivot_root", "setpriv", "chown", "mkdir", "ln", "readlink", "dirname", "env",
         "rmdir")
#: the environment variables kept for a browser run as the current user (nothing else: no API key reaches it)
KEEP_ENV = ("PATH", "HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "XDG_RUNTIME_DIR",
            "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "FONTCONFIG_FILE", "FONTCONFIG_PATH", "DISPLAY", "WAYLAND_DISPLAY")


@dataclass(frozen=True)
class Sandbox:
    """How a browser is started: ``jail`` (root: as SANDBOX_USER in its own filesystem, Chromium's sandbox on),
    ``native`` (not root: as this user, Chromium's sandbox on) or ``off`` (``--no-sandbox``: asked for)."""

    mode: str
    user: str = ""
    uid: int = -1
    gid: int = -1
    tools: tuple[tuple[str, str], ...] = ()

    @property
    def on(self) -> bool:
        return self.mode != "off"

    def describe(self) -> str:
        if self.mode == "jail":
            return (f"on: Chromium's sandbox, the browser run as {self.user} (uid {self.uid}) in a filesystem of its own "
                    "(system folders read-only, a private /tmp, its profile)")
        if self.mode == "native":
            return f"on: Chromium's sandbox, the browser run as {self.user} (uid {self.uid}), not root"
        return "OFF: --unsafe-no-sandbox (Chromium's own sandbox disabled; the other walls still hold)"

    def tool(self, name: str) -> str:
        return dict(self.tools)[name]


def unsafe_requested() -> bool:
    """Whether the sandbox was turned off for this process (``--unsafe-no-sandbox`` sets ``IWR_UNSAFE_NO_SANDBOX=1``)."""
    return os.environ.get(UNSAFE_ENV, "").strip().lower() in ("1", "true", "yes")


def plan(sandbox: bool | None = None) -> Sandbox:
    """How a browser would be started now. ``sandbox``: True / False, or None for the process's setting
    (``unsafe_requested``). Raises ComponentMissing, naming what is missing, when the sandbox is wanted as root
    and cannot be had (the judge then refuses to start)."""
    if sandbox is False or (sandbox is None and unsafe_requested()):
        return Sandbox("off")
    uid = os.geteuid()
    if uid != 0:
        try:
            name = pwd.getpwuid(uid).pw_name
        except KeyError:
            name = str(uid)
        return Sandbox("native", name, uid, os.getegid())
    try:
        pw = pwd.getpwnam(SANDBOX_USER)
    except KeyError:
        raise ComponentMissing(
            f"Chromium's sandbox cannot run as root, and the user it runs as here ({SANDBOX_USER}) does not exist: "
            "run `make setup` (scripts/setup-system.sh makes it), or pass --unsafe-no-sandbox to judge without "
            "Chromium's sandbox (recorded in run.json)") from None
    if pw.pw_uid == 0:
        raise ComponentMissing(f"the user {SANDBOX_USER} has uid 0; it must be an unprivileged user")
    tools = []
    for t in TOOLS:
        p = shutil.which(t, path="/usr/sbin:/usr/bin:/sbin:/bin")
        if p is None:
            raise ComponentMissing(f"Chromium's sandbox as root needs `{t}` (util-linux / mount) to start the browser "
                                   "as an unprivileged user in its own filesystem; install it, or pass "
                                   "--unsafe-no-sandbox")
        tools.append((t, p))
    return Sandbox("jail", SANDBOX_USER, pw.pw_uid, pw.pw_gid, tuple(tools))


def browser_env(sb: Sandbox) -> dict[str, str]:
    """The environment the browser (or its launcher) is started with: a few variables, never a key."""
    if sb.mode == "jail":  # the launcher sets the browser's own (HOME is its profile); it needs nothing itself
        return {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    return {k: v for k, v in os.environ.items() if k in KEEP_ENV}


def _bind_dirs(exe: str) -> list[str]:
    """The read-only folders of the browser's filesystem: the system's, and the Chromium binary's own folder when it
    lies elsewhere (Playwright's Chromium under a cache folder)."""
    dirs = [d for d in SYSTEM_DIRS if os.path.lexists(d)]
    home = os.path.dirname(os.path.realpath(exe))
    if not any(home == d or home.startswith(d.rstrip("/") + "/") for d in SYSTEM_DIRS):
        dirs.append(home)
    return dirs


def jail_script(exe: str, sb: Sandbox, root: Path) -> list[str]:
    """The launcher's lines (after its memory cage) that start ``exe`` jailed: see the module doc.

    The profile folder Playwright made (``--user-data-dir=``, a 0700 folder of root's) is handed to the user, and is
    the one writable folder shared with the browser. The inner script is passed to ``sh -c`` (held in memory: the old
    root, where this file lives, is gone once it pivots)."""
    t = sb.tool
    q = shlex.quote
    find_profile = ('profile=""; for a in "$@"; do case "$a" in --user-data-dir=*) profile="${a#--user-data-dir=}";; '
                    'esac; done')
    binds = " ".join(q(d) for d in _bind_dirs(exe))
    inner = "\n".join([
        "set -e",
        find_profile,
        f"R={q(str(root))}",
        f'{t("mount")} -t tmpfs -o mode=0755,nosuid,nodev,size=8m iwr-root "$R"',
        f"for d in {binds}; do",
        f'  if [ -L "$d" ]; then {t("mkdir")} -p "$R$({t("dirname")} "$d")"; {t("ln")} -s "$({t("readlink")} "$d")" "$R$d"',
        f'  elif [ -d "$d" ]; then {t("mkdir")} -p "$R$d"; {t("mount")} --rbind "$d" "$R$d"; '
        f'{t("mount")} -o remount,bind,ro,nosuid,nodev "$R$d"; fi',
        "done",
        f'{t("mkdir")} -p "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/run"',
        f'{t("mount")} --rbind /proc "$R/proc"',
        f'{t("mount")} --rbind /sys "$R/sys"; {t("mount")} -o remount,bind,ro,nosuid,nodev "$R/sys"',
        f'{t("mount")} --rbind /dev "$R/dev"',
        f'{t("mount")} -t tmpfs -o mode=1777,nosuid,nodev iwr-shm "$R/dev/shm"',
        f'{t("mount")} -t tmpfs -o mode=1777,nosuid,nodev iwr-tmp "$R/tmp"',
        f'{t("mount")} -t tmpfs -o mode=0755,nosuid,nodev,size=1m iwr-run "$R/run"',
        f'{t("mkdir")} -p "$R$profile"; {t("mount")} --bind "$profile" "$R$profile"',
        f'{t("mkdir")} "$R/.old"; cd "$R"; {t("pivot_root")} . .old; cd /; {t("umount")} -l /.old; {t("rmdir")} /.old',
        f"exec {t('setpriv')} --reuid={sb.uid} --regid={sb.gid} --clear-groups --inh-caps=-all --bounding-set=-all "
        f"--no-new-privs {t('env')} -i PATH=/usr/bin:/bin HOME=\"$profile\" TMPDIR=/tmp LANG=C.UTF-8 "
        f'XDG_CONFIG_HOME="$profile/.config" XDG_CACHE_HOME="$profile/.cache" {q(exe)} "$@"',
    ])
    return [
        find_profile,
        '[ -n "$profile" ] && [ -d "$profile" ] || { echo "iwrbench: no browser profile folder to hand over" >&2; exit 1; }',
        f'{t("chown")} -hR {sb.uid}:{sb.gid} "$profile" || exit 1',  # -h: a link is changed, never what it names
        f"exec {t('unshare')} --mount --propagation private /bin/sh -c {q(inner)} iwr-browser-jail \"$@\"",
    ]


# -- what a running browser is in ------------------------------------------------------------------


@dataclass
class Status:
    """What ``sandbox_status`` found: ``ok`` when the sandbox is what was planned."""

    ok: bool
    detail: str


def _status(pid: int) -> dict[str, str]:
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            k, _, v = line.partition(":")
            out[k] = v.strip()
    except OSError:
        pass
    return out


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (read from every process's parent in /proc)."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            ppid = _status(int(d)).get("PPid")
            if ppid and ppid.isdigit():
                parent[int(d)] = int(ppid)
    kids: dict[int, list[int]] = {}
    for c, pp in parent.items():
        kids.setdefault(pp, []).append(c)
    out, todo = [], [pid]
    while todo and len(out) < 5000:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return out


def _cmdline(pid: int) -> str:
    """The command line as one string (Chromium's child processes rewrite theirs as one)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").replace("\0", " ")
    except OSError:
        return ""


def _ns(pid: int, kind: str) -> str:
    try:
        return os.readlink(f"/proc/{pid}/ns/{kind}")
    except OSError:
        return "?"


def sandbox_status(sb: Sandbox, root_pid: int | None = None) -> Status:
    """Look at the browser processes started by this process (a page must be open, so a renderer runs)."""
    me = root_pid or os.getpid()
    procs = [(p, _cmdline(p)) for p in _descendants(me)]
    browsers = [p for p, c in procs if "--remote-debugging-pipe" in c and "--type=" not in c]
    renderers = [p for p, c in procs if "--type=renderer" in c]
    if not browsers or not renderers:
        return Status(False, "no running browser with a renderer was found among this process's children")
    b, r = browsers[0], renderers[0]
    bs, rs = _status(b), _status(r)
    uid = int((bs.get("Uid") or "-1").split()[0])
    seccomp = rs.get("Seccomp", "?")
    own_userns = _ns(r, "user") != _ns(b, "user")
    own_fs = _ns(b, "mnt") != _ns(me, "mnt")
    facts = (f"browser uid {uid}, renderer seccomp mode {seccomp}, renderer in its own user namespace: "
             f"{'yes' if own_userns else 'no'}, browser in its own filesystem: {'yes' if own_fs else 'no'}")
    if sb.mode == "off":
        return Status(False, f"{sb.describe()}; found {facts}")
    ok = seccomp == "2" and own_userns and uid != 0 and (sb.mode != "jail" or (own_fs and uid == sb.uid))
    return Status(ok, f"{sb.describe()}; found {facts}")


__all__ = ["SANDBOX_USER", "UNSAFE_ENV", "Sandbox", "Status", "browser_env", "jail_script", "plan", "sandbox_status",
           "unsafe_requested"]
