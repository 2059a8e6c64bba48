"""The published protocol's model-based parts: the LLM grounder and the before/after judge.

Both ask as the published judge asks: the assertion at temperature 0 with a cap of 4,096 tokens, its reply read
by the published parsing, edge cases included (``parse_yes_no``); the grounder at temperature 0 with no output cap.

Both talk to any ``ChatClient``. Their raw replies are kept in the run folder (``llm/`` beside
the judged screenshots, one line per reply, retries included), so a reviewer can read what the
judge model said at every step. A reply that cannot be read (no "Yes"/"No" by the published
parsing, an empty reply) is asked again (``iwrbench.models.ask``); when none can be read the unit
is a ``judge_error`` (``JudgeError``), never a pass: the published code counted such a step as
passed. A judge API error is ours too (``InfraError``), never the page's failure.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from ..fileio import read_packaged
from ..models.ask import ask
from ..models.chat import ChatClient, ChatRequest, ImagePart, Message, TextPart
from ..records import Action

PROMPTS = Path(__file__).parent / "prompts"
GROUND_PROMPT = "ground-v1.txt"
ASSERT_PROMPT = "assert-v2.txt"


def prompt_hashes() -> dict[str, str]:
    return {p: read_packaged(PROMPTS, p).sha256 for p in (GROUND_PROMPT, ASSERT_PROMPT)}


def _keep(dir_: Path, name: str, payload: dict) -> None:
    d = dir_ / "llm"
    d.mkdir(parents=True, exist_ok=True)
    with open(d / name, "a", encoding="utf-8") as f:
        f.write(json.dumps(payload) + "\n")


def _sent(reply: Any) -> dict:
    """What a reply says was changed in sending it: images downscaled to the provider's limits, the model's kind
    learned from a refusal (kept in the log row when there is any)."""
    return {k: v for k, v in (("images_downscaled", getattr(reply, "images", None)),
                              ("learned", getattr(reply, "learned", None))) if v}


def _element_line(i: int, d: dict) -> str:
    a = d.get("attributes") or {}
    bits = [f"[{i}] <{d.get('tag')}>"]
    if d.get("role"):
        bits.append(f"role={d['role']}")
    if d.get("name"):
        bits.append(f"name={d['name'][:80]!r}")
    for k in ("placeholder", "aria-label", "title", "type"):
        if a.get(k):
            bits.append(f"{k}={a[k][:40]!r}")
    return " ".join(bits)


def parse_index(text: str) -> int | None:
    m = re.search(r'"index"\s*:\s*(null|-?\d+)', text)
    if m:
        return None if m.group(1) == "null" else int(m.group(1))
    m = re.search(r"-?\d+", text)
    return int(m.group(0)) if m else None


def _fenced(t: str, fence: str) -> str:
    """The text after the first ``fence`` up to the next ```, as the published parsing slices it: with no closing
    fence the slice ends one character before the reply's end (Python's ``[start:-1]``)."""
    start = t.find(fence) + len(fence)
    return t[start:t.find("```", start)].strip()


def parse_yes_no(text: str) -> bool | None:
    """The published judge's reading of a reply (``assertion_scorer.evaluate_assertion``), edge cases included.

    The JSON is taken from the first fenced ```json block, else the first fenced block, else the whole reply; a
    fence left open loses the reply's last character (so a ``}`` that ends it no longer closes the object). JSON
    that is an object with ``result`` exactly "Yes" or "No" gives that verdict; an object with any other result gives
    none (None). When the JSON does not parse, or is not an object (a list, a string), the reply's text decides: "Yes"
    anywhere in it, else "No" anywhere, else no verdict."""
    t = (text or "").strip()
    try:
        body = _fenced(t, "```json") if "```json" in t else _fenced(t, "```") if "```" in t else t
        result = json.loads(body).get("result", None)
    except (ValueError, RecursionError, AttributeError):
        return True if "Yes" in t else False if "No" in t else None
    return True if result == "Yes" else False if result == "No" else None


def make_llm_grounder(chat: ChatClient, log_dir: Path, attempts: int = 1):
    """The grounder: an index into the candidates, or None when the model says none matches.

    A provider failure raises ``InfraError``; so does an action time limit that ran out while the model
    was being asked (``grounder.cancelled`` is then set for the replay to tell), since the page did not fail.
    """
    template = read_packaged(PROMPTS, GROUND_PROMPT).text

    async def grounder(page: Any, action: Action, cands: list[dict]) -> tuple[int | None, str]:
        try:
            aria = await page.locator("body").aria_snapshot(timeout=5000)
        except Exception:
            aria = "(unavailable)"
        extra = f"Text to type: {action.parameters.text}\n" if action.type == "Type" else ""
        text = template.format(action_type=action.type, description=action.description, extra=extra,
                               aria=aria[:12000], elements="\n".join(_element_line(i, d) for i, d in enumerate(cands)))
        parts: list = [TextPart(text)]
        try:
            parts.append(ImagePart(await page.screenshot(), "image/png", label="page"))
        except Exception:
            pass
        # as published, no output cap (the model's own limit; Anthropic's API needs one: the model's largest)
        req = ChatRequest([Message("user", parts)], temperature=0.0, max_tokens=None)
        seen: list[str] = []

        def log(attempt: int, _req: ChatRequest, reply: Any, idx: Any, error: str | None) -> None:
            row: dict = {"action": action.description, "attempt": attempt}
            if error is not None:
                row["error"] = error
            else:
                row.update(reply=reply.text, index=idx, stop=reply.stop_reason, max_tokens=reply.max_tokens)
                row.update(_sent(reply))
                seen.append(reply.text)
            _keep(log_dir, "ground.jsonl", row)

        grounder.cancelled = False  # type: ignore[attr-defined]
        try:
            # an empty reply cannot be read; any other reply can (no index = no element matches)
            idx, reply = await ask(chat, req, lambda t: ("index", parse_index(t)) if t.strip() else None,
                                   attempts=attempts, what=f"the LLM grounder ({action.description[:60]!r})", log=log)
        except asyncio.CancelledError:
            grounder.cancelled = True  # type: ignore[attr-defined]
            raise
        return idx[1], f"llm answered {reply.text.strip()[:60]!r}"

    grounder.cancelled = False  # type: ignore[attr-defined]
    return grounder


def make_assertion_judge(chat: ChatClient, log_dir: Path, attempts: int = 1):
    """The before/after judge: True (Yes) or False (No); raises ``JudgeError`` when no reply can be read."""
    template = read_packaged(PROMPTS, ASSERT_PROMPT).text

    async def judge(action: Action, before: bytes, after: bytes) -> tuple[bool, str]:
        text = template.format(assertion=action.logical_assertion)
        # the published request: the prompt, the previous and the current screenshot, temperature 0, 4096 tokens
        req = ChatRequest([Message("user", [TextPart(text), ImagePart(before, label="previous step"),
                                             ImagePart(after, label="current step")])], temperature=0.0, max_tokens=4096)

        def log(attempt: int, sent: ChatRequest, reply: Any, verdict: Any, error: str | None) -> None:
            row: dict = {"assertion": action.logical_assertion, "attempt": attempt, "max_tokens": sent.max_tokens}
            if error is not None:
                row["error"] = error
            else:
                row.update(reply=reply.text, verdict=verdict, stop=reply.stop_reason)
                row.update(_sent(reply))
            _keep(log_dir, "assert.jsonl", row)

        verdict, reply = await ask(chat, req, parse_yes_no, attempts=attempts,
                                   what=f"the assertion judge ({action.logical_assertion[:60]!r})", log=log)
        return verdict, reply.text

    return judge
