"""The run folder: run.json, append-only results.jsonl, atomic summary.json.

``RunDir`` owns the folder's layout; every other stage asks it for a path::

    run.json                 records.RunSpec: how the run was made (compared on resume)
    results.jsonl            records.TaskResult, one line per (model, task)
    summary.json             records.Summary: the leaderboard, overall and by tag
    pages/<model>/<task>/    what the model wrote (index.html, raw_reply.txt, request.json, ...)
    shots/<model>/<task>/    the judge's screenshots, and its model's replies under llm/
    logs/<model>/<task>.log  the tracebacks of a unit that raised (the result row names its log)

Crash safety: a result line is written with a single ``write`` of a complete line followed by
``fsync``; a line cut short by a kill is ignored on reading (and the file is truncated back to
its last complete line before appending again). Results are keyed by (model, task_id); the
last line for a key wins, and a ``judge_error`` line never counts as finished work (a
``task_error`` line does: a broken task is not retried).

A complete line that cannot be read (not UTF-8, not JSON, not a result) is skipped with a
one-line warning naming the file and the line, on the ``iwrbench`` logger (stderr by default),
so ``iwr report`` and a resumed run go on; the unit of a skipped line is judged again on resume.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, ValidationError

from ..errors import IwrError
from ..fileio import atomic_write  # noqa: F401  (re-exported for the report)
from ..records import RetryNote, RetryUnit, RunSpec, Summary, TaskResult

log = logging.getLogger("iwrbench")
_warned: set[tuple[str, int, str]] = set()

RUN_JSON = "run.json"
RESULTS = "results.jsonl"
SUMMARY = "summary.json"
PAGE = "index.html"

#: run.json keys that must match for a resume to continue a run
RESUME_KEYS = ("suite_hash", "protocol", "judge", "generation", "pages_from")
#: of those, what ``--retry-errors`` may change for the units it redoes
RETRY_MAY_CHANGE = ("generation",)


def model_dir_name(name: str) -> str:
    """The folder name of a model in a run folder (published: lower-case, '/' as '__')."""
    out = name.lower().replace("/", "__").replace(":", "_")
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in out)


class RunDir:
    def __init__(self, path: str | Path):
        self.path = Path(path)

    # ------------------------------------------------------------------ layout
    @property
    def run_json(self) -> Path:
        return self.path / RUN_JSON

    @property
    def results_file(self) -> Path:
        return self.path / RESULTS

    @property
    def summary_file(self) -> Path:
        return self.path / SUMMARY

    def page_dir(self, model: str, task_id: str) -> Path:
        """Where a model writes its page for a task (the judge serves it from there)."""
        return self.path / "pages" / model_dir_name(model) / task_id

    def page_file(self, model: str, task_id: str) -> Path:
        """The generated page itself (every model writes one, even when it serves the page otherwise)."""
        return self.page_dir(model, task_id) / PAGE

    def shots_dir(self, model: str, task_id: str) -> Path:
        return self.path / "shots" / model_dir_name(model) / task_id

    def log_file(self, model: str, task_id: str) -> Path:
        """The unit's log: every traceback it ended or retried on, appended (a resumed unit keeps the earlier)."""
        return self.path / "logs" / model_dir_name(model) / f"{task_id}.log"

    def write_log(self, model: str, task_id: str, what: str, exc: BaseException) -> str:
        """Append ``exc``'s traceback under a heading saying ``what`` happened; returns the log's relative path."""
        import datetime
        import traceback

        p = self.log_file(model, task_id)
        p.parent.mkdir(parents=True, exist_ok=True)
        when = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        text = "".join(traceback.format_exception(exc))
        with open(p, "a", encoding="utf-8") as f:
            f.write(f"=== {when} {what}\n{text}\n")
        return self.relative(p)

    def log_text(self, result: TaskResult) -> str | None:
        """The unit's log (what ``result.log`` names), if it is in the run folder."""
        if not result.log:
            return None
        p = (self.path / result.log).resolve()
        if not p.is_relative_to(self.path.resolve()) or not p.is_file():
            return None
        return p.read_text(encoding="utf-8", errors="replace")

    def relative(self, path: Path) -> str:
        """``path`` (inside the run folder) as the run's records name it: relative, with '/'."""
        return Path(path).resolve().relative_to(self.path.resolve()).as_posix()

    def raw_reply_file(self, result: TaskResult) -> Path | None:
        """The kept raw reply of a unit, if any (``generation.raw_reply`` is relative to the run folder; runs
        written before it was, named it relative to the unit's page folder)."""
        g = result.generation
        if g is None or not g.raw_reply:
            return None
        for p in (self.path / g.raw_reply, self.page_dir(result.model, result.task_id) / g.raw_reply):
            if p.is_file():
                return p
        return None

    def exists(self) -> bool:
        return self.run_json.is_file()

    # ------------------------------------------------------------------ header
    def read_spec(self) -> RunSpec:
        try:
            return RunSpec.model_validate(json.loads(self.run_json.read_bytes().decode("utf-8")))
        except FileNotFoundError:
            if not self.path.exists():
                raise IwrError(f"{self.path}: no such folder (give the folder of an `iwr eval` or `iwr run`)") from None
            raise IwrError(f"{self.path}: not a run folder (no {RUN_JSON})") from None
        except UnicodeDecodeError:
            raise IwrError(f"{self.run_json}: unreadable run header (not UTF-8 text)") from None
        except ValidationError as e:
            errs = e.errors()
            where = ", ".join(".".join(str(x) for x in err["loc"]) + f" {err['msg'].lower()}" for err in errs[:3])
            more = f" and {len(errs) - 3} more" if len(errs) > 3 else ""
            raise IwrError(f"{self.run_json}: unreadable run header ({where}{more})") from None
        except (ValueError, RecursionError, OSError) as e:
            first = (str(e).strip().splitlines() or [e.__class__.__name__])[0][:200]
            raise IwrError(f"{self.run_json}: unreadable run header ({first})") from None

    def write_spec(self, spec: RunSpec) -> None:
        atomic_write(self.run_json, spec.model_dump_json(indent=1))

    def changed_keys(self, spec: RunSpec) -> list[str]:
        """The ``RESUME_KEYS`` in which ``spec`` differs from this run's run.json."""
        old = self.read_spec()
        return [k for k in RESUME_KEYS if _canon(getattr(old, k)) != _canon(getattr(spec, k))]

    def start(self, spec: RunSpec, *, allow_changed: bool = False, retry_errors: bool = False) -> tuple[RunSpec, bool]:
        """Create the run, or resume it if its configuration matches. Returns (spec, resumed).

        ``retry_errors``: other generation settings are accepted (for the failed units the caller
        redoes; ``note_retry`` records them) and run.json keeps the run's own."""
        self.path.mkdir(parents=True, exist_ok=True)
        if not self.exists():
            self.write_spec(spec)
            return spec, False
        old = self.read_spec()
        diffs = self.changed_keys(spec)
        if diffs and not allow_changed:
            if retry_errors and set(diffs) <= set(RETRY_MAY_CHANGE):
                diffs = []  # the retried units' settings go to run.json's "retries", not over the run's
            else:
                also = (f" (--retry-errors accepts other {', '.join(RETRY_MAY_CHANGE)} settings only)"
                        if retry_errors else "")
                retry = (", --retry-errors to redo only its failed units with these settings"
                         if not retry_errors and set(diffs) <= set(RETRY_MAY_CHANGE) else "")
                raise IwrError(
                    f"{self.path}: the run was made with a different {', '.join(diffs)}{also}; "
                    f"use another --out{retry}, or --allow-changed-config to continue it anyway")
        merged = old.model_copy(update={
            "models": list(dict.fromkeys(old.models + spec.models)),
            "task_ids": list(dict.fromkeys(old.task_ids + spec.task_ids)),
            **({k: getattr(spec, k) for k in diffs} if diffs else {}),
        })
        self.write_spec(merged)
        return merged, True

    def note_retry(self, before: RunSpec, asked: RunSpec, changed: list[str], failed: list[TaskResult]) -> RetryNote:
        """Append to run.json's ``retries`` what ``--retry-errors`` redoes: the units, what they were
        and, when the settings (``asked``) differ from the run's (``before``), every setting that
        differs and the full generation settings used."""
        import datetime as dt

        spec = self.read_spec()
        entry = RetryNote(
            at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            units=[RetryUnit(model=r.model, task_id=r.task_id, status=r.status, error=r.error) for r in failed],
            changed=list(changed),
            settings_changed={k: v for key in changed for k, v in _diff(_plain(getattr(before, key)),
                                                                        _plain(getattr(asked, key)), key).items()},
            generation=asked.generation if "generation" in changed else None,
        )
        self.write_spec(spec.model_copy(update={"retries": [*spec.retries, entry]}))
        return entry

    # ------------------------------------------------------------------ results
    def _repair_tail(self) -> None:
        f = self.results_file
        if not f.exists():
            return
        data = f.read_bytes()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with open(f, "r+b") as fh:
                fh.truncate(cut)

    def append(self, result: TaskResult) -> None:
        self._repair_tail()
        line = result.model_dump_json(exclude_none=False) + "\n"
        with open(self.results_file, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def iter_results(self) -> Iterable[TaskResult]:
        if not self.results_file.exists():
            return
        with open(self.results_file, "rb") as f:
            for n, raw in enumerate(f, start=1):
                if not raw.endswith(b"\n") or not raw.strip():
                    continue  # a line cut short by a crash
                try:
                    yield TaskResult.model_validate_json(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    self._warn(n, "not UTF-8 text")
                except ValidationError as e:
                    err = e.errors()[0] if e.errors() else {}
                    where = ".".join(str(x) for x in err.get("loc", ())) or "line"
                    self._warn(n, f"not a result ({where}: {str(err.get('msg', 'invalid'))[:120]})")
                except (ValueError, RecursionError) as e:
                    self._warn(n, f"not a result ({e.__class__.__name__})")

    def _warn(self, line: int, why: str) -> None:
        key = (str(self.results_file.resolve()), line, why)
        if key not in _warned:
            _warned.add(key)
            log.warning("warning: %s line %d: %s; skipped", self.results_file, line, why)

    def results(self) -> dict[tuple[str, str], TaskResult]:
        """The latest result per (model, task), preferring a finished one over a judge error."""
        out: dict[tuple[str, str], TaskResult] = {}
        for r in self.iter_results():
            key = (r.model, r.task_id)
            prev = out.get(key)
            if prev is not None and prev.status != "judge_error" and r.status == "judge_error":
                continue
            out[key] = r
        return out

    def done(self) -> set[tuple[str, str]]:
        return {k for k, r in self.results().items() if r.status != "judge_error"}

    def write_summary(self, summary: Summary) -> None:
        atomic_write(self.summary_file, summary.to_json())

    def read_summary(self) -> Summary:
        try:
            return Summary.model_validate_json(self.summary_file.read_bytes())
        except FileNotFoundError:
            raise IwrError(f"{self.path}: no {SUMMARY} (the run has not finished once)") from None
        except (ValueError, ValidationError) as e:
            first = (str(e).strip().splitlines() or [e.__class__.__name__])[0][:200]
            raise IwrError(f"{self.summary_file}: unreadable summary ({first})") from None


def _plain(v: Any) -> Any:
    """A record as the JSON it is written as (plain values as they are)."""
    return v.model_dump(mode="json") if isinstance(v, BaseModel) else v


def _canon(v: Any) -> str:
    return json.dumps(_plain(v), sort_keys=True, default=str)


def _diff(run: Any, retry: Any, path: str) -> dict[str, dict[str, Any]]:
    """Every leaf that differs, by dotted path: ``{"generation.options.max_output_tokens": {"run": 32000, "retry": 4096}}``."""
    if isinstance(run, dict) and isinstance(retry, dict):
        out: dict[str, dict[str, Any]] = {}
        for k in sorted(set(run) | set(retry), key=str):
            out.update(_diff(run.get(k), retry.get(k), f"{path}.{k}"))
        return out
    return {} if _canon(run) == _canon(retry) else {path: {"run": run, "retry": retry}}
