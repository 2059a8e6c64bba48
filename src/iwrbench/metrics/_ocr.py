"""OCR engines behind one small protocol, and a cache keyed by image content.

The published score reads text with EasyOCR (English). EasyOCR downloads its detector and
recogniser weights on first use, which is impossible here, so the default engine is Tesseract,
tuned on rendered UI screenshots (``bench/ocr_settings.py``; numbers in ``docs/metrics.md``):

* ``--psm 6`` (one uniform block, read row by row). The automatic layout analysis (``--psm 3``)
  orders blocks differently when a page moves by a few pixels or changes its fonts: with polarity
  normalisation, the same text shifted by 6 px scored an OCR similarity as low as 0.57 against
  itself (restyled: 0.60); with ``--psm 6`` at least 0.89 (restyled: 0.96).
* Polarity normalisation before OCR: light text on dark or saturated backgrounds (headers, side
  bars, buttons) is mostly missed by Tesseract; regions whose background is dark are inverted and
  contrast-stretched so all text is dark on light. Word F1 against the DOM text: 0.92 -> 0.97.
* No upscaling: at 1.5x and 2x word F1 was no better (0.96 vs 0.97) for 1.3-2.2x the time.
* ``OMP_THREAD_LIMIT=1`` for the subprocess: on two shared cores Tesseract's OpenMP threads made
  a 720p read take 0.8-1.3 s instead of 0.35-0.45 s. This is why the binary is called directly
  rather than through pytesseract, which cannot pass an environment to its subprocess.

* Words with their boxes (``read``): the call asks for Tesseract's TSV output, which holds every word
  with its box, confidence and line; the text is those words, joined by spaces within a line and by
  line breaks between lines (the same words, in the same order, as its plain-text output; after the
  whitespace collapse of ``normalise_text`` the same string). The boxes feed the text blocks of the
  visual comparison (``_blocks.py``), so one read serves both.

``get_ocr`` wraps the engine in a ``CachedOcr`` so a ground-truth checkpoint compared with many
generated pages is read once per run (in memory; optionally also on disk, one JSON file per
reading, keyed by the engine's settings and version and the image's sha256).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from iwrbench.errors import ComponentMissing, InfraError
from iwrbench.metrics._component import build

if TYPE_CHECKING:  # pragma: no cover
    from PIL.Image import Image


@runtime_checkable
class OcrEngine(Protocol):
    """Reads the text of a screenshot."""

    name: str

    def available(self) -> tuple[bool, str]: ...

    def read_text(self, img: "Image") -> str: ...


class OcrWord(NamedTuple):
    """One word as read, with its box in screenshot pixels and its line (block, paragraph, line)."""

    text: str
    conf: float
    x: int
    y: int
    w: int
    h: int
    line: int


class OcrReading(NamedTuple):
    """What an engine read: the text, and its words with boxes (empty for engines without boxes)."""

    text: str
    words: tuple[OcrWord, ...] = ()


def parse_tsv(tsv: str) -> OcrReading:
    """Words and text from Tesseract's TSV output (level 5 rows are words)."""
    words: list[OcrWord] = []
    lines: list[list[str]] = []
    last_line: tuple[int, int, int] | None = None
    last_par: tuple[int, int] | None = None
    for row in tsv.splitlines()[1:]:
        f = row.split("\t")
        if len(f) < 12 or f[0] != "5":
            continue
        text = f[11].strip()
        if not text:
            continue
        block, par, line = int(f[2]), int(f[3]), int(f[4])
        key = (block, par, line)
        if key != last_line:
            if last_par is not None and (block, par) != last_par:
                lines.append([])  # a blank line between paragraphs, as the plain-text output
            lines.append([])
            last_line, last_par = key, (block, par)
        lines[-1].append(text)
        words.append(OcrWord(text, float(f[10]), int(f[6]), int(f[7]), int(f[8]), int(f[9]),
                             block * 1_000_000 + par * 1_000 + line))
    return OcrReading("\n".join(" ".join(ws) for ws in lines), tuple(words))


# ----------------------------------------------------------------------------- preprocessing


def normalise_polarity(img: "Image", *, factor: int = 4, dark: float = 0.5, fill: float = 0.6) -> "Image":
    """Grayscale copy of ``img`` in which every solid dark region (header bar, side bar, button,
    dark page) is inverted and stretched so its background becomes white: all text ends up dark on
    light, which is what Tesseract reads best.

    Regions are connected components of pixels darker than ``dark`` on a 1/``factor`` thumbnail,
    at least 12 x 24 screenshot px and filling at least ``fill`` of their bounding box (so glyphs
    of dark text, thin and sparse, are never taken for a background).
    """
    import numpy as np
    from PIL import Image as PILImage
    from scipy import ndimage

    gray = img.convert("L")
    w, h = gray.size
    if w < 8 * factor or h < 4 * factor:
        return gray
    g = np.asarray(gray, dtype=np.float32).copy()
    small = np.asarray(gray.resize((w // factor, h // factor), PILImage.Resampling.BOX), dtype=np.float32)
    labels, _ = ndimage.label(small < dark * 255)
    for i, sl in enumerate(ndimage.find_objects(labels), 1):
        if sl is None:
            continue
        ys, xs = sl
        if ys.stop - ys.start < 3 or xs.stop - xs.start < 6:
            continue
        comp = labels[sl] == i
        if comp.mean() < fill:
            continue
        background = float(np.median(small[sl][comp]))
        y0, y1, x0, x1 = ys.start * factor, ys.stop * factor, xs.start * factor, xs.stop * factor
        inverted = 255.0 - g[y0:y1, x0:x1]
        g[y0:y1, x0:x1] = np.clip(inverted * (255.0 / max(1.0, 255.0 - background)), 0, 255)
    return PILImage.fromarray(g.astype(np.uint8))


# ----------------------------------------------------------------------------- Tesseract

_TESSERACT_HINT = "install Tesseract: apt-get install tesseract-ocr (Debian/Ubuntu) or brew install tesseract"


class TesseractOcr:
    """Tesseract through its command line, tuned for UI screenshots (see the module docstring)."""

    name = "tesseract"

    def __init__(
        self,
        *,
        lang: str = "eng",
        psm: int = 6,
        polarity: bool = True,
        scale: float = 1.0,
        threads: int = 1,
        binary: str | None = None,
        timeout: float = 120.0,
    ):
        self.lang = lang
        self.psm = psm
        self.polarity = polarity
        self.scale = scale
        self.threads = threads
        self.binary = binary or os.environ.get("IWR_TESSERACT") or "tesseract"
        self.timeout = timeout
        self._version: str | None = None
        self._probe: tuple[bool, str] | None = None

    def _path(self) -> str | None:
        return shutil.which(self.binary)

    def version(self) -> str:
        if self._version is None:
            path = self._path()
            if path is None:
                raise ComponentMissing(f"Tesseract binary {self.binary!r} not found; {_TESSERACT_HINT}")
            out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
            first = (out.stdout or out.stderr).strip().splitlines()
            self._version = first[0].strip() if first else "tesseract (unknown version)"
        return self._version

    def available(self) -> tuple[bool, str]:
        if self._probe is None:
            path = self._path()
            if path is None:
                self._probe = (False, f"Tesseract binary {self.binary!r} not found on PATH; {_TESSERACT_HINT}")
            else:
                out = subprocess.run([path, "--list-langs"], capture_output=True, text=True, timeout=30)
                langs = {line.strip() for line in (out.stdout + out.stderr).splitlines()[1:]}
                missing = [x for x in self.lang.split("+") if x not in langs]
                if missing:
                    self._probe = (
                        False,
                        f"Tesseract has no language data for {'+'.join(missing)} "
                        f"(apt-get install tesseract-ocr-{missing[0]})",
                    )
                else:
                    self._probe = (True, f"{self.version()} at {path}")
        return self._probe

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version(),
            "lang": self.lang,
            "psm": self.psm,
            "polarity": self.polarity,
            "scale": self.scale,
            "output": "tsv",
        }

    def prepare(self, img: "Image") -> "Image":
        """The image Tesseract is given (grayscale, polarity-normalised, scaled)."""
        from PIL import Image as PILImage

        out = normalise_polarity(img) if self.polarity else img.convert("L")
        if self.scale != 1.0:
            w, h = out.size
            out = out.resize((round(w * self.scale), round(h * self.scale)), PILImage.Resampling.BICUBIC)
        return out

    def read(self, img: "Image") -> OcrReading:
        """The text and its words with boxes (one Tesseract call, TSV output)."""
        path = self._path()
        if path is None:
            raise ComponentMissing(f"Tesseract binary {self.binary!r} not found; {_TESSERACT_HINT}")
        buf = io.BytesIO()
        self.prepare(img).save(buf, format="PPM")  # uncompressed: encoding costs < 1 ms
        env = dict(os.environ, OMP_THREAD_LIMIT=str(self.threads))
        try:
            out = subprocess.run(
                [path, "stdin", "stdout", "-l", self.lang, "--psm", str(self.psm), "tsv"],
                input=buf.getvalue(),
                capture_output=True,
                env=env,
                timeout=self.timeout,
            )
        except subprocess.TimeoutExpired as e:
            raise InfraError(f"tesseract took longer than {self.timeout:.0f} s") from e
        if out.returncode != 0:
            raise InfraError(f"tesseract failed (exit {out.returncode}): {out.stderr.decode(errors='replace')[-500:]}")
        reading = parse_tsv(out.stdout.decode("utf-8", errors="replace"))
        if self.scale != 1.0:
            k = 1.0 / self.scale
            reading = OcrReading(reading.text, tuple(
                w._replace(x=round(w.x * k), y=round(w.y * k), w=round(w.w * k), h=round(w.h * k)) for w in reading.words))
        return reading

    def read_text(self, img: "Image") -> str:
        return self.read(img).text


# ----------------------------------------------------------------------------- EasyOCR

EASYOCR_MODEL_FILES = ("craft_mlt_25k.pth", "english_g2.pth")


class EasyOcr:
    """EasyOCR (the published engine), English, CPU, only from model files already on disk.

    EasyOCR downloads its weights on first use; here that is never allowed
    (``download_enabled=False``). The files are looked for in ``model_dir``, then
    ``$IWR_EASYOCR_MODEL_DIR``, then ``$EASYOCR_MODULE_PATH/model``, then ``~/.EasyOCR/model``.
    Full precision, as the published run read (on a GPU, where EasyOCR never quantises): on the CPU EasyOCR's
    default quantises its recogniser to int8 (``quantize=True``: a dynamic quantisation of its LSTM and linear
    layers), which reads some text otherwise; it is asked for float32 (``quantize=False``). The detector is
    convolutions only, which that quantisation leaves as they are.
    The image is handed to EasyOCR as a PNG file path, as the published code hands it the screenshot
    file: EasyOCR reads a path itself (colour as RGB for its detector, grey from the file for its
    recogniser), whereas a 3-channel array is taken as BGR, so an RGB array would be read with red
    and blue swapped in its grey conversion. The reading is the recognised fragments (``detail=0``),
    each stripped, empty ones dropped, joined by single spaces, as the published code joins them.
    """

    name = "easyocr"

    def __init__(self, model_dir: str | os.PathLike[str] | None = None, *, langs: tuple[str, ...] = ("en",),
                 quantize: bool = False):
        self._explicit = Path(model_dir) if model_dir else None
        self.langs = tuple(langs)
        #: EasyOCR's ``quantize``: False (float32, as published), True (EasyOCR's CPU default, int8 recogniser)
        self.quantize = bool(quantize)
        self._reader: Any = None
        self._lock = threading.Lock()

    def model_dir(self) -> Path:
        if self._explicit is not None:
            return self._explicit
        if os.environ.get("IWR_EASYOCR_MODEL_DIR"):
            return Path(os.environ["IWR_EASYOCR_MODEL_DIR"])
        base = os.environ.get("EASYOCR_MODULE_PATH") or os.environ.get("MODULE_PATH")
        return Path(base) / "model" if base else Path.home() / ".EasyOCR" / "model"

    def available(self) -> tuple[bool, str]:
        import importlib.util

        if importlib.util.find_spec("easyocr") is None:
            return False, "the easyocr package is not installed (pip install 'iwrbench[easyocr]')"
        d = self.model_dir()
        missing = [f for f in EASYOCR_MODEL_FILES if not (d / f).is_file()]
        if missing:
            return False, (
                f"EasyOCR model files {', '.join(missing)} not found in {d}; they are never downloaded "
                "here: copy them there or set IWR_EASYOCR_MODEL_DIR to a folder holding them"
            )
        return True, f"easyocr with models in {d}"

    def describe(self) -> dict[str, Any]:
        import importlib.metadata

        try:
            version = importlib.metadata.version("easyocr")
        except importlib.metadata.PackageNotFoundError:
            version = None
        return {"name": self.name, "version": version, "langs": list(self.langs), "join": "space", "detail": 0,
                "device": "cpu", "precision": "int8 recogniser" if self.quantize else "float32"}

    def _get_reader(self) -> Any:
        with self._lock:
            if self._reader is None:
                ok, why = self.available()
                if not ok:
                    raise ComponentMissing(f"EasyOCR is not available: {why}")
                import easyocr

                d = str(self.model_dir())
                self._reader = easyocr.Reader(
                    list(self.langs), gpu=False, model_storage_directory=d, download_enabled=False, verbose=False,
                    quantize=self.quantize,
                )
            return self._reader

    def read_text(self, img: "Image") -> str:
        import tempfile

        reader = self._get_reader()
        with tempfile.TemporaryDirectory(prefix="iwr-easyocr-") as d:
            path = os.path.join(d, "screenshot.png")
            img.convert("RGB").save(path, format="PNG")  # lossless: EasyOCR decodes the very pixels
            fragments = reader.readtext(path, detail=0)
        return join_fragments(fragments)


def join_fragments(fragments: Any) -> str:
    """EasyOCR's fragments as one reading, as the published code joins them: each stripped, empty ones
    dropped, single spaces between."""
    return " ".join(str(f).strip() for f in fragments or [] if f is not None and str(f).strip())


# ----------------------------------------------------------------------------- cache


def image_digest(img: "Image") -> str:
    """sha256 of an image's decoded content (mode, size and pixels), independent of file encoding."""
    h = hashlib.sha256(f"{img.mode}:{img.size[0]}x{img.size[1]}:".encode())
    h.update(img.tobytes())
    return h.hexdigest()


class OcrCache:
    """Readings by key, in memory and, when ``directory`` is given, one JSON file per key there
    (the text, and the words with their boxes when the engine gives them)."""

    def __init__(self, directory: str | os.PathLike[str] | None = None):
        self.directory = Path(directory) if directory else None
        self._mem: dict[str, OcrReading] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_reading(self, key: str) -> OcrReading | None:
        with self._lock:
            if key in self._mem:
                self.hits += 1
                return self._mem[key]
        if self.directory is not None:
            path = self.directory / f"{key}.json"
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                text = data["text"]
                words = tuple(OcrWord(str(w[0]), float(w[1]), *(int(v) for v in w[2:7])) for w in data.get("words", ()))
            except (OSError, ValueError, KeyError, TypeError, IndexError):
                text = None
            if isinstance(text, str):
                reading = OcrReading(text, words)
                with self._lock:
                    self._mem[key] = reading
                    self.hits += 1
                return reading
        with self._lock:
            self.misses += 1
        return None

    def get(self, key: str) -> str | None:
        hit = self.get_reading(key)
        return None if hit is None else hit.text

    def put(self, key: str, text: str, meta: dict[str, Any] | None = None, words: tuple[OcrWord, ...] = ()) -> None:
        with self._lock:
            self._mem[key] = OcrReading(text, tuple(words))
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / f"{key}.json"
            tmp = path.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
            entry = {"key": key, **(meta or {}), "text": text}
            if words:
                entry["words"] = [list(w) for w in words]
            tmp.write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, path)


class CachedOcr:
    """An ``OcrEngine`` that remembers what its engine read, keyed by settings + image sha256."""

    def __init__(self, engine: OcrEngine, cache: OcrCache | None = None):
        self.engine = engine
        self.cache = cache if cache is not None else OcrCache()
        self.name = engine.name
        self._signature: str | None = None

    def available(self) -> tuple[bool, str]:
        return self.engine.available()

    def describe(self) -> dict[str, Any]:
        d = getattr(self.engine, "describe", None)
        return d() if callable(d) else {"name": self.engine.name}

    def signature(self) -> str:
        if self._signature is None:
            self._signature = json.dumps(self.describe(), sort_keys=True)
        return self._signature

    def key(self, img: "Image") -> str:
        return hashlib.sha256(f"{self.signature()}\n{image_digest(img)}".encode()).hexdigest()

    def read(self, img: "Image") -> OcrReading:
        """The engine's reading with word boxes (``words`` empty when the engine gives none)."""
        key = self.key(img)
        hit = self.cache.get_reading(key)
        if hit is None:
            reader = getattr(self.engine, "read", None)
            hit = reader(img) if callable(reader) else OcrReading(self.engine.read_text(img))
            self.cache.put(key, hit.text, {"engine": self.describe(), "image_sha256": image_digest(img)},
                           words=hit.words)
        return hit

    def read_text(self, img: "Image") -> str:
        return self.read(img).text


# ----------------------------------------------------------------------------- factory

DEFAULT_OCR = "tesseract"
OCR_ENGINES = {"tesseract": TesseractOcr, "easyocr": EasyOcr}


def get_ocr(
    name: str | None = None, *, cache: bool = True, cache_dir: str | os.PathLike[str] | None = None, **kwargs: Any
) -> OcrEngine:
    """The OCR engine called ``name`` (None: ``"tesseract"``), ready to use.

    With ``cache`` (the default) it is wrapped in a ``CachedOcr`` with a fresh in-memory cache,
    plus ``cache_dir`` on disk when given: make one per run and reuse it, so each ground-truth
    checkpoint is read once. Raises ``ComponentMissing`` with what is missing and how to install it.
    """
    key = DEFAULT_OCR if name is None else name.lower()
    engine = build("OCR engine", OCR_ENGINES, key, name, shown=key, **kwargs)
    return CachedOcr(engine, OcrCache(cache_dir)) if cache else engine
