"""Cheat pages: pages that show what the recording showed whatever the input. They must score low.

Each kind is generated from the files of a task folder alone (its checkpoints, targets and recorded DOM
snapshots, which no model is shown) and judged like a model's page:

- ``slideshow``: the baseline (the video's frames, the next one on any click, key or wheel)
- ``frames-state-machine``: the checkpoints painted full-viewport over an invisible state
  machine: for the next action one transparent control at its recorded position carrying the
  recorded role and accessible name (a transparent field for Type, a select holding the chosen
  option for Select); the action's own kind of event shows the next checkpoint whatever its
  content: any click, any input into the field, the recorded key, any wheel, hovering the control
- ``buttons-no-logic``: the first checkpoint with real, visible buttons and fields at the
  recorded positions, named as recorded, and no script at all
- ``frames-text-replay``: the state machine, and each state also carries that state's visible
  texts as real, visible DOM text drawn over the same text in the picture (where OCR finds it,
  in the picture's ink colour and about its size): the texts come from the recorded DOM
  snapshot (``reference/dom/step_<i>.html.gz``), kept when OCR of the checkpoint confirms they
  are on screen. Text checks alone cannot catch it; only probes whose outcome depends on the
  input can.

Pages whose body must scroll for a Scroll action to count get a tall spacer (the pictures and
controls are fixed to the viewport), so scrolling executes as it would on a real page.

They are baseline models too (``iwr eval --model cheat-frames``, ``cheat-buttons``, ``cheat-text``;
``slideshow`` is in ``generate.baselines``); ``iwr record`` judges every one of them on the task it has just
recorded (``validate/make.py``), and the validity set ``cheats`` on every task of a suite
(``validity/cheats.py``).
"""

from __future__ import annotations

import asyncio
import gzip
import html
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

#: the cheat pages by their kind, and the model name each goes by
MODEL_NAMES = {"slideshow": "slideshow", "frames-state-machine": "cheat-frames", "buttons-no-logic": "cheat-buttons",
               "frames-text-replay": "cheat-text"}

KINDS = ("slideshow", "frames-state-machine", "buttons-no-logic", "frames-text-replay")
FINAL_BOUND = 15.0



# =========================================================================== controls

@dataclass
class Control:
    index: int  # 1-based action index
    type: str
    role: str | None
    name: str
    text: str | None
    placeholder: str | None
    value: str | None  # Select
    box: tuple[float, float, float, float]  # x, y, w, h (viewport pixels at the time of the action)
    href: str | None = None  # a link's recorded in-page target (#fragment), so the URL changes as recorded


def controls(task: Any) -> list[Control]:
    out: list[Control] = []
    w, h = task.viewport
    for i, a in enumerate(task.action_sequence, start=1):
        t = a.target
        if a.type not in ("Click", "Type", "Hover", "Select"):
            continue
        name = ((t.name or t.text or t.label or (t.attributes or {}).get("aria-label")) if t else None) or ""
        if not name:
            m = re.findall(r"['\u2018\u201c\"]([^'\u2019\u201d\"]{1,60})['\u2019\u201d\"]", a.description)
            name = m[0] if m else a.description[:60]
        if t and t.bbox and t.bbox.width >= 1 and t.bbox.height >= 1:
            box = (max(0.0, t.bbox.x), max(0.0, t.bbox.y), t.bbox.width, t.bbox.height)
        else:  # no recorded position: the middle of the viewport
            box = (w / 2 - 60, h / 2 - 15, 120, 30)
        href = (t.attributes or {}).get("href") if t else None
        out.append(Control(index=i, type=a.type, role=(t.role if t else None), name=name.strip()[:200],
                           text=(t.text if t else None), placeholder=((t.attributes or {}).get("placeholder") if t else None),
                           value=a.parameters.value or a.parameters.text, box=box,
                           href=href if href and href.startswith("#") else None))
    return out


def _style_box(c: Control) -> str:
    x, y, w, h = c.box
    return f"left:{x:.1f}px;top:{y:.1f}px;width:{w:.1f}px;height:{h:.1f}px"


def _control_html(c: Control, *, visible: bool, state: bool, ink: str | None = None) -> str:
    """One control element. ``visible``: a real-looking control; else transparent (``ink``: a
    transparent field whose typed text shows in that colour)."""
    e = html.escape
    cls = "v" if visible else "c"
    data = f' data-a="{c.index - 1}"' if state else ""
    style = _style_box(c)
    if ink:
        style += f";color:{ink};caret-color:{ink};font-size:{max(8.0, c.box[3] * 0.45):.1f}px;padding:0 {c.box[3] * 0.3:.0f}px"
    role = c.role or ""
    if c.type == "Type" or role in ("textbox", "searchbox", "combobox") and c.type != "Select":
        ph = f' placeholder="{e(c.placeholder)}"' if c.placeholder else ""
        return (f'<input class="{cls}"{data} type="text" aria-label="{e(c.name)}"{ph} style="{style}">')
    if c.type == "Select":
        opt = e(c.value or "")
        return (f'<select class="{cls}"{data} aria-label="{e(c.name)}" style="{style}">'
                f'<option value="">{e(c.name)}</option><option value="{opt}">{opt}</option></select>')
    label = e(c.text or c.name)
    r = ""
    if role and role not in ("button", "generic", "none", "presentation"):
        r = f' role="{e(role)}"'
    if role == "link":
        return f'<a class="{cls}"{data} href="{e(c.href or "#")}"{r} aria-label="{e(c.name)}" style="{style}">{label}</a>'
    return f'<button class="{cls}"{data} type="button"{r} aria-label="{e(c.name)}" style="{style}">{label}</button>'


_PAGE_CSS = """html,body{margin:0;overflow-x:hidden}
body{min-height:100vh}
#f{position:fixed;left:0;top:0;width:100vw;height:100vh;display:block;z-index:0}
.c{position:fixed;z-index:3;box-sizing:border-box;margin:0;padding:0;border:0;background:transparent;
   color:transparent;font:10px sans-serif;overflow:hidden;white-space:nowrap;outline:none;caret-color:transparent;
   text-decoration:none;appearance:none;-webkit-appearance:none}
.v{position:fixed;z-index:3;box-sizing:border-box;margin:0;overflow:hidden;white-space:nowrap}
.L{position:fixed;left:0;top:0;width:0;height:0;z-index:1}
.t{position:fixed;z-index:1;white-space:pre;line-height:1.2;font-family:"Liberation Sans",Arial,sans-serif}
#spacer{width:1px}"""


def _copy_frames(task: Any, out_dir: Path) -> list[str]:
    (out_dir / "frames").mkdir(parents=True, exist_ok=True)
    names = []
    for i in range(len(task.action_sequence) + 1):
        src = task.checkpoint(i)
        if not src.is_file():
            names.append(names[-1] if names else "")
            continue
        shutil.copy2(src, out_dir / "frames" / src.name)
        names.append("frames/" + src.name)
    if not names or not names[0]:
        raise FileNotFoundError(f"{task.checkpoint(0)}: missing; a cheat needs the recorded checkpoints")
    return names


def _spacer(task: Any) -> str:
    """A tall block when the task scrolls: every Scroll of the recording can move the page."""
    pages = sum((a.parameters.scroll_page or 0.5) for a in task.action_sequence if a.type == "Scroll")
    if not pages:
        return ""
    return f'<div id="spacer" style="height:{int((2 * pages + 2) * 100)}vh"></div>'


_STATE_JS = r"""
const A = __ACTIONS__, KEYS = __KEYS__, F = __FRAMES__;
let k = 0;
const img = document.getElementById('f');
const show = () => {
  img.src = F[Math.min(k, F.length - 1)];
  // the next action's control; a field just typed into stays (typing may go on)
  for (const c of document.querySelectorAll('[data-a]')) {
    const j = +c.dataset.a;
    c.style.display = (j === k || (j === k - 1 && A[j] === 'Type')) ? '' : 'none';
  }
  for (const l of document.querySelectorAll('[data-s]')) l.style.display = (+l.dataset.s === k) ? '' : 'none';
};
const mine = (e) => { const c = e.target && e.target.closest && e.target.closest('[data-a]'); return !!c && +c.dataset.a === k; };
const on = (ev, type, test, opts) => addEventListener(ev, (e) => {
  if (A[k] === type && test(e)) { k++; show(); }
}, opts === undefined ? true : opts);
on('click', 'Click', () => true);
on('input', 'Type', mine);
on('change', 'Select', mine);
on('keydown', 'Press', (e) => !KEYS[k] || e.key === KEYS[k]);
on('wheel', 'Scroll', () => true, {capture: true, passive: true});
on('mouseover', 'Hover', mine);
show();
"""


def _state_page(task: Any, frames: list[str], *, layers: str = "", inks: dict[int, str] | None = None) -> str:
    acts = [a.type for a in task.action_sequence]
    keys = [(a.parameters.key if a.type == "Press" else None) for a in task.action_sequence]
    inks = inks or {}
    ctrls = "\n".join(_control_html(c, visible=False, state=True, ink=inks.get(c.index)) for c in controls(task))
    js = (_STATE_JS.replace("__ACTIONS__", json.dumps(acts)).replace("__KEYS__", json.dumps(keys))
          .replace("__FRAMES__", json.dumps(frames)))
    spacer = _spacer(task)
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html.escape(task.id) +
            "</title><style>" + _PAGE_CSS + "</style></head><body>\n"
            f'<img id="f" src="{frames[0]}" alt="">\n{layers}\n{ctrls}\n{spacer}\n<script>{js}</script>\n</body></html>\n')


# =========================================================================== texts per state

class _Texts(HTMLParser):
    """Text nodes of a DOM snapshot, in document order, outside what never renders."""

    SKIP = {"script", "style", "noscript", "template", "head", "title", "meta", "link", "iframe", "object"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.out: list[str] = []

    def _hidden(self) -> bool:
        return any(h for _, h in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        a = dict(attrs)
        style = (a.get("style") or "").replace(" ", "").lower()
        hidden = (tag in self.SKIP or "hidden" in a or a.get("aria-hidden") == "true"
                  or "display:none" in style or "visibility:hidden" in style)
        self.stack.append((tag, hidden))

    def handle_endtag(self, tag: str) -> None:
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k][0] == tag:
                del self.stack[k:]
                return

    def handle_data(self, data: str) -> None:
        if self._hidden():
            return
        t = re.sub(r"\s+", " ", data).strip()
        if t and re.search(r"\w", t):
            self.out.append(t)


def snapshot_texts(path: Path) -> list[str]:
    if not path.is_file():
        return []
    try:
        doc = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    except (OSError, EOFError):
        return []
    p = _Texts()
    try:
        p.feed(doc)
        p.close()
    except Exception:  # noqa: BLE001 - a broken snapshot gives what was parsed
        pass
    return p.out


@dataclass
class Word:
    text: str
    line: tuple[str, str, str]  # Tesseract's (block, paragraph, line)
    box: tuple[int, int, int, int]  # x, y, w, h


def ocr_words(image: Path) -> list[Word]:
    """Words OCR finds in an image, with their lines and boxes (empty without Tesseract)."""
    exe = shutil.which("tesseract")
    if not exe:
        return []
    try:
        r = subprocess.run([exe, str(image), "stdout", "--psm", "11", "tsv"], capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if r.returncode != 0:
        return []
    out = []
    for row in r.stdout.decode("utf-8", errors="replace").splitlines()[1:]:
        f = row.split("\t")
        if len(f) < 12 or f[0] != "5" or not f[11].strip():
            continue
        try:
            conf = float(f[10])
        except ValueError:
            conf = 0
        if conf < 30:
            continue
        out.append(Word(f[11], (f[2], f[3], f[4]), tuple(int(v) for v in f[6:10])))  # type: ignore[arg-type]
    return out


def ocr_lines(image: Path) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Lines of text OCR finds in an image, with their boxes."""
    lines: dict[tuple[str, str, str], list[Any]] = {}
    for w in ocr_words(image):
        x, y, bw, bh = w.box
        ent = lines.setdefault(w.line, ["", [x, y, x + bw, y + bh]])
        ent[0] = (ent[0] + " " + w.text).strip()
        b = ent[1]
        b[0], b[1], b[2], b[3] = min(b[0], x), min(b[1], y), max(b[2], x + bw), max(b[3], y + bh)
    return [(t, (b[0], b[1], b[2] - b[0], b[3] - b[1])) for t, b in lines.values()]


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip().lower()


def _ink(img: Any, box: tuple[int, int, int, int]) -> str:
    """The text colour inside a box of the picture: the pixel farthest from the box's usual colour."""
    import numpy as np

    x, y, w, h = box
    crop = np.asarray(img.crop((x, y, x + max(w, 1), y + max(h, 1))).convert("RGB"), dtype=np.int32).reshape(-1, 3)
    if not len(crop):
        return "#000"
    bg = np.median(crop, axis=0)
    d = np.abs(crop - bg).sum(axis=1)
    c = crop[int(d.argmax())]
    if d.max() < 60:  # no contrast found: black or white against the background
        return "#000" if bg.mean() > 128 else "#fff"
    return "#%02x%02x%02x" % tuple(int(v) for v in c)


def _font() -> Any:
    from PIL import ImageFont

    for f in ("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        if Path(f).is_file():
            return lambda size: ImageFont.truetype(f, size)
    return None


def state_layer(texts: list[str], words: list[Word], state: int, image: Path | None = None) -> tuple[str, int]:
    """The texts of one state that OCR confirms on screen, drawn in the picture's own colour where
    OCR saw them (real, visible DOM text over the same text in the picture)."""
    from PIL import Image
    from rapidfuzz import fuzz

    img = Image.open(image).convert("RGB") if image is not None and image.is_file() else None
    font = _font()
    by_line: dict[tuple[str, str, str], list[int]] = {}
    for k, w in enumerate(words):
        by_line.setdefault(w.line, []).append(k)
    ocr_all = _norm(" ".join(w.text for w in words))
    ocr_set = {_norm(w.text) for w in words}
    used: set[int] = set()
    placed = []

    def best_run(n: str) -> tuple[float, list[int]]:
        want = len(n.split())
        best: tuple[float, list[int]] = (0.0, [])
        for ids in by_line.values():
            for size in {max(1, want - 1), want, want + 1}:
                for i in range(0, max(1, len(ids) - size + 1)):
                    run = ids[i:i + size]
                    score = fuzz.ratio(n, _norm(" ".join(words[k].text for k in run)))
                    score -= 15 * sum(1 for k in run if k in used)
                    if score > best[0]:
                        best = (score, run)
        return best

    for t in texts:
        n = _norm(t)
        if len(n) < 2 or len(n) > 200:
            continue
        if words:
            score, run = best_run(n)
            short_ok = len(n) <= 3 and n in ocr_set
            if not short_ok and score < 70 and fuzz.partial_ratio(n, ocr_all) < 90:
                continue
            if not run:
                continue
            used.update(run)
            xs = sorted((words[k].box for k in run), key=lambda b: b[3])
            mid = xs[len(xs) // 2]  # the typical word: a checkbox or icon read as a word must not size the text
            x = min(b[0] for b in xs)
            w = max(b[0] + b[2] for b in xs) - x
            y, h = mid[1], mid[3]
        else:
            x, y, w, h = 0, 0, 120, 12
        fs = max(7.0, h / 0.75)
        if font is not None and w > 0:
            try:
                width = font(int(round(fs))).getlength(t)
                if width > 0:
                    fs = max(7.0, min(fs * 1.3, max(fs * 0.5, fs * w / width)))
            except Exception:  # noqa: BLE001
                pass
        color = _ink(img, (x, y, w, h)) if img is not None else "#000"
        top = y - 0.2 * fs
        placed.append(f'<span class="t" style="left:{x}px;top:{top:.0f}px;font-size:{fs:.1f}px;color:{color}">'
                      f"{html.escape(t)}</span>")
    return f'<div class="L" data-s="{state}">' + "".join(placed) + "</div>", len(placed)


# =========================================================================== generators

def generate(kind: str, task: Any, out_dir: Path) -> dict[str, Any]:
    """Write the cheat page of ``kind`` for ``task`` into ``out_dir`` (entry index.html)."""
    out_dir = Path(out_dir)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    info: dict[str, Any] = {"kind": kind}
    if kind == "slideshow":
        if _in_loop():
            raise RuntimeError("generate('slideshow') inside an event loop: use agenerate()")
        return asyncio.run(agenerate(kind, task, out_dir))
    frames = _copy_frames(task, out_dir)
    if kind == "frames-state-machine":
        page = _state_page(task, frames)
    elif kind == "frames-text-replay":
        layers, counts = [], []
        for i in range(len(task.action_sequence) + 1):
            texts = snapshot_texts(task.dir / "reference" / "dom" / f"step_{i}.html.gz")
            cp = task.checkpoint(i)
            words = ocr_words(cp) if cp.is_file() else []
            layer, n = state_layer(texts, words, i, cp if cp.is_file() else None)
            layers.append(layer)
            counts.append(n)
        info["texts_per_state"] = counts
        # typed text shows in the fields, in the colour the picture shows it after typing
        from PIL import Image

        inks = {}
        for c in controls(task):
            cp = task.checkpoint(c.index)
            if c.type == "Type" and cp.is_file():
                with Image.open(cp) as im:
                    inks[c.index] = _ink(im, tuple(int(v) for v in c.box))  # type: ignore[arg-type]
        page = _state_page(task, frames, layers="\n".join(layers), inks=inks)
    elif kind == "buttons-no-logic":
        ctrls, seen = [], set()
        for c in controls(task):
            key = (c.type == "Type", c.name, tuple(round(v) for v in c.box))
            if key in seen:
                continue
            seen.add(key)
            ctrls.append(_control_html(c, visible=True, state=False))
        spacer = _spacer(task)
        page = ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html.escape(task.id) +
                "</title><style>" + _PAGE_CSS + "</style></head><body>\n"
                f'<img id="f" src="{frames[0]}" alt="">\n' + "\n".join(ctrls) + f"\n{spacer}\n</body></html>\n")
        info["controls"] = len(ctrls)
    else:
        raise ValueError(f"unknown cheat {kind!r}; known: {', '.join(KINDS)}")
    (out_dir / "index.html").write_text(page, encoding="utf-8")
    return info


def _in_loop() -> bool:
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False


async def agenerate(kind: str, task: Any, out_dir: Path) -> dict[str, Any]:
    if kind == "slideshow":
        from ..models.base import GenerationOptions
        from .baselines import SlideshowModel

        out_dir = Path(out_dir)
        if out_dir.exists():
            shutil.rmtree(out_dir)
        g = await SlideshowModel().generate(task, out_dir, GenerationOptions())
        return {"kind": kind, "frames": g.info.images if g.info else None}
    info = await asyncio.to_thread(generate, kind, task, out_dir)
    info.setdefault("frames", len(task.action_sequence) + 1)
    return info


# =========================================================================== as baseline models

class _CheatModel:
    kind = ""
    name = ""

    def describe(self) -> dict[str, Any]:
        return {"kind": "baseline", "name": self.name, "cheat": self.kind}

    async def generate(self, task: Any, out_dir: Path, options: Any) -> Any:
        from ..models.base import Generation, PageBundle
        from ..records import GenerationInfo, GenerationOutcome

        try:
            info = await agenerate(self.kind, task, out_dir)
        except (OSError, ValueError) as e:
            return Generation(GenerationOutcome.FAILED, None, GenerationInfo(), error=f"{self.name}: {e}")
        return Generation(GenerationOutcome.OK, PageBundle(root=Path(out_dir)), GenerationInfo(images=info.get("frames")))


class FramesCheatModel(_CheatModel):
    """``cheat-frames``: checkpoints over an invisible state machine of controls."""

    kind, name = "frames-state-machine", "cheat-frames"


class ButtonsCheatModel(_CheatModel):
    """``cheat-buttons``: the first checkpoint with real controls at the recorded places, no logic."""

    kind, name = "buttons-no-logic", "cheat-buttons"


class TextCheatModel(_CheatModel):
    """``cheat-text``: the state machine, each state with its recorded visible texts as DOM text."""

    kind, name = "frames-text-replay", "cheat-text"




__all__ = ["KINDS", "FINAL_BOUND", "MODEL_NAMES", "Control", "controls", "generate", "agenerate", "FramesCheatModel",
           "ButtonsCheatModel", "TextCheatModel"]
