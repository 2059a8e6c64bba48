"""Probes: the task replayed with other input, so that a page which only replays the recording fails.

A page can show the recorded states whatever the input (a slideshow of the frames, a state machine that
advances on any event, hard-coded texts). The judge replays every probe after the main trajectory, in a fresh
page; a page that fails one has its credit capped (docs/judge.md, "Probes"). Three sources of probes:

- the recipe's own (``probes:``), written by an author who knows the app;
- the automatic one: every typed text replaced by another of the same shape (``other_text``);
- **derived** ones, which the recorder makes from the trajectory itself for every recipe: the visit without its
  first step; a step done twice; two neighbouring steps in the other order; another option for each Select;
  another text of the same shape typed in the first Type step;
  before a key press, a key the page does not use (which must change nothing), then the recorded one; a key press
  undone by its opposite (Right, then Left); another key the recording uses in place of a recorded one (4 where it
  pressed 3); and a click or hover on a look-alike neighbour of the recorded target (another tag, title, pin or card
  of the same kind, named by its own visible text).

Each candidate is recorded on the source twice (two seeds) like the main trajectory, and kept only when it can
tell the source from a page that replays the recording. That is decided here, at record time, by replaying the
recording itself against the probe (``decisive_step``): a page that shows the recorded states in order, one per
event, is at main state ``j`` after ``j`` probe steps; the first probe step whose evidence that replay fails is
the probe's decisive step. A derived probe is cut there, and asks only there, and only what tells the two apart:
the probe steps before it ask only that they execute. So a faithful page, whose behaviour is the source's, passes
it; a replaying page fails it.

A replaying page comes in two shapes (``REPLAYS``), and a probe is judged against both: ``order``, which shows the
next recorded state on any event; and ``kind``, which shows it only on the kind of event the recording had next (any
click where a click came next, the recorded key, typing into or hovering the recorded control) and ignores the rest
(the cheat pages' state machine). The visit without its first step defeats the first shape and often not the
second; a look-alike neighbour or a key's opposite defeats the second.

Fair probes only: a probe may ask only what the recording showed a person. A text a probe asks for must appear
on some screen of the main recording (or be the echo of the probe's own typed text); a derived probe's other
texts are left out, and a recipe probe whose assertion quotes a text the recording never shows is refused with
the step named (``unfair_quotes``).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from ..checks.evidence import judge_change, judge_still, judge_text
from ..checks.view import View, quoted_phrases
from ..records import Action, Evidence
from .recipe import Recipe, RecipeAction, RecipeProbe

#: keys tried, in order, as "a key the page does not use" (the first that changes nothing on the source is kept)
UNUSED_KEYS = ("F9", "F10", "Insert")
#: a derived probe is recorded at most this many steps past the step where it departs from the main trajectory
#: (a replaying page is caught within a step or two of it, or not by this probe)
DERIVED_REACH = 3
#: at most this many derived probes of one kind
PER_KIND = 2
#: the shapes of a page that replays the recording, a probe is judged against each (module doc)
REPLAYS = ("order", "kind")
#: a key and the key that undoes it (a derived probe presses the second after the first)
OPPOSITE_KEYS = {"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight", "ArrowDown": "ArrowUp", "ArrowUp": "ArrowDown",
                 "PageDown": "PageUp", "PageUp": "PageDown", "End": "Home", "Home": "End", "+": "-", "-": "+"}


def other_text(s: str, salt: str = "") -> str:
    """Another text of the same shape: letters to other letters, digits to other digits.

    Deterministic, so a task records the same probe every time; punctuation, spaces and @ stay, so an
    e-mail stays an e-mail and a number stays a number.
    """
    rnd = random.Random(hashlib.sha256((salt + "\0" + s).encode()).digest())
    lower = "abcdefghijklmnopqrstuvwxyz"
    perm = list(lower)
    while True:
        rnd.shuffle(perm)
        if all(a != b for a, b in zip(lower, perm)):
            break
    m = dict(zip(lower, perm))
    shift = rnd.randint(1, 9)
    out = []
    for ch in s:
        if ch in m:
            out.append(m[ch])
        elif ch.lower() in m:
            out.append(m[ch.lower()].upper())
        elif ch.isdigit():
            out.append(str((int(ch) + shift) % 10))
        else:
            out.append(ch)
    return "".join(out)


@dataclass
class ProbePlan:
    name: str
    kind: str  # text | recipe | derived
    guards: int
    mirrors: bool
    replace: dict[str, str]
    actions: list[RecipeAction]
    #: per probe action, the main step it asks the same of (None: none)
    step_mirrors: list[int | None] = field(default_factory=list)
    #: derived probes: what the probe tries, in words (printed by ``iwr record``)
    why: str = ""


def _substitute(s: str | None, replace: dict[str, str]) -> str | None:
    if s is None:
        return None
    for old in sorted(replace, key=len, reverse=True):
        s = s.replace(old, replace[old])
    return s


def _echo_check(check: Any, replace: dict[str, str]) -> Any:
    """A check of a step replayed with other text: a text that is the typed text becomes the other text (its echo);
    one that holds the typed text among other words is dropped (what other input makes of it, a filter's results or a
    heading built from it, is not known: the recording on the source decides that step); the rest stays."""
    field = "text" if hasattr(check, "text") else "value" if isinstance(getattr(check, "value", None), str) else None
    if field is None:
        return check
    v = getattr(check, field)
    if v in replace:
        return check.model_copy(update={field: replace[v]})
    if any(old and old in v for old in replace):
        return None
    return check


def plan_probes(recipe: Recipe) -> list[ProbePlan]:
    """The recipe's own probes, and the automatic one (other typed text) unless the recipe turns it off."""
    specs: list[RecipeProbe] = list(recipe.probes) if recipe.probes is not None else []
    auto_spec = None
    if recipe.auto_probe and recipe.probes != []:
        typed = [a.text for a in recipe.actions if a.type == "Type" and a.text and a.text.strip()]
        if typed:
            auto_spec = RecipeProbe(name="other-text", replace={t: other_text(t, recipe.id) for t in dict.fromkeys(typed)})
            specs = [auto_spec, *specs]
    plans = []
    for k, sp in enumerate(specs, start=1):
        auto = sp is auto_spec
        if sp.replace is not None:
            acts = []
            first = None
            for j, a in enumerate(recipe.actions, start=1):
                b = a.model_copy()
                if a.type == "Type" and a.text in sp.replace:
                    b.text = sp.replace[a.text]
                    first = first or j
                b.assertion = _substitute(a.assertion, sp.replace)
                if a.checks is not None:
                    b.checks = [c for c in (_echo_check(c, sp.replace) for c in a.checks) if c is not None]
                acts.append(b)
            plans.append(ProbePlan(sp.name or f"probe-{k}", "text" if auto else "recipe", first or 1, True,
                                   dict(sp.replace), acts))
        elif sp.skip is not None:
            skipped = set(sp.skip)
            kept = [(j, a) for j, a in enumerate(recipe.actions, start=1) if j not in skipped]
            plans.append(ProbePlan(sp.name or f"probe-{k}", "recipe", int(sp.guards or 1), False, {},
                                   [a for _, a in kept], [j for j, _ in kept]))
        else:
            # an action that mirrors main step k asks what step k asks, unless it says what to ask itself
            acts = []
            for a in sp.actions or []:
                m = recipe.actions[a.mirrors - 1] if a.mirrors else None
                if m is not None and a.assertion is None and a.checks is None and not a.unchanged:
                    a = a.model_copy(update={"assertion": m.assertion, "checks": m.checks})
                acts.append(a)
            plans.append(ProbePlan(sp.name or f"probe-{k}", "recipe", int(sp.guards or 1), False, {},
                                   acts, [a.mirrors for a in sp.actions or []]))
    return plans


def _plain(a: RecipeAction) -> RecipeAction:
    """A main action as a derived probe replays it: what it does, nothing it asks (the probe decides that)."""
    return a.model_copy(update={"assertion": None, "checks": None, "visual": False, "mirrors": None})


def derive_plans(recipe: Recipe, *, options: dict[int, list[str]] | None = None,
                 changed: set[int] | None = None,
                 neighbours: dict[int, list[tuple[str, str, str]]] | None = None) -> list[ProbePlan]:
    """Candidate probes made from the trajectory itself (see the module doc); each is recorded, then kept only
    when it tells the source from a replay of the recording.

    ``options``: for each Select step, the options its menu offered on the source (labels); ``changed``: the main
    steps after which the source's screen showed different texts (a step done twice is tried on those);
    ``neighbours``: for a Click or Hover step, look-alike elements near its target on the source, as (selector, the
    quoted text of the description that names the target, the text that names the neighbour instead)."""
    if not recipe.auto_probe or recipe.probes == []:
        return []
    acts = recipe.actions
    n = len(acts)
    changed = changed or set()
    out: list[ProbePlan] = []

    def cut(seq: list[RecipeAction], start: int) -> list[RecipeAction]:
        return seq[:start + DERIVED_REACH]

    # the visit without its first step: a page that walks through the recorded states in order, whatever is
    # done, is one state ahead from the first step on
    if n >= 2:
        seq = [_plain(a) for a in acts[1:]]
        out.append(ProbePlan("derived-skip-1", "derived", 1, False, {}, cut(seq, 1), list(range(2, n + 1))[:len(cut(seq, 1))],
                             why="the visit without its first step"))
    # a step done twice (a click that adds, counts, toggles: the second time changes what the first did)
    twice = [k for k in range(1, n + 1) if acts[k - 1].type in ("Click", "Press") and k in changed
             and not acts[k - 1].unchanged][:PER_KIND]
    for k in twice:
        seq = [_plain(a) for a in acts[:k]] + [_plain(acts[k - 1])] + [_plain(a) for a in acts[k:]]
        mirrors: list[int | None] = [*range(1, k + 1), None, *range(k + 1, n + 1)]
        seq = cut(seq, k + 1)
        out.append(ProbePlan(f"derived-twice-{k}", "derived", k, False, {}, seq, mirrors[:len(seq)],
                             why=f"step {k} done twice"))
    # two neighbouring steps in the other order (both act on a control of their own)
    swaps = [k for k in range(1, n) if acts[k - 1].target and acts[k].target and acts[k - 1].type != "Hover"
             and acts[k].type != "Hover" and acts[k - 1].target != acts[k].target][:PER_KIND]
    for k in swaps:
        seq = [_plain(a) for a in acts[:k - 1]] + [_plain(acts[k]), _plain(acts[k - 1])] + [_plain(a) for a in acts[k + 1:]]
        mirrors = [*range(1, k), None, None, *range(k + 2, n + 1)]
        seq = cut(seq, k + 1)
        out.append(ProbePlan(f"derived-swap-{k}", "derived", k, False, {}, seq, mirrors[:len(seq)],
                             why=f"steps {k} and {k + 1} in the other order"))
    # another option for each Select
    other: dict[int, str] = {}
    for k, a in enumerate(acts, start=1):
        if a.type != "Select":
            continue
        alt = [o for o in (options or {}).get(k, []) if o.strip() and o.strip().casefold() != (a.value or "").strip().casefold()]
        if alt:
            other[k] = alt[0]
    if other:
        first = min(other)
        seq = []
        for k, a in enumerate(acts, start=1):
            seq.append(_plain(a).model_copy(update={"value": other[k]}) if k in other else _plain(a))
        seq = cut(seq, first)
        out.append(ProbePlan("derived-other-option", "derived", first, False, {}, seq,
                             [k if k not in other else None for k in range(1, len(seq) + 1)],
                             why="another option chosen in " + ", ".join(f"step {k} ({v!r})" for k, v in other.items())))
    # another text of the same shape typed in a Type step (the first that types words): what the page makes of
    # other input (a filter that now hides the cards the recorded word kept). Its echo in the box decides nothing
    # (any text box shows what is typed); what else it changes, and the recording showed, does
    types = [k for k in range(1, n + 1) if acts[k - 1].type == "Type" and acts[k - 1].text and acts[k - 1].text.strip()
             and not acts[k - 1].unchanged][:1]
    for k in types:
        typed_k = acts[k - 1].text or ""
        new = other_text(typed_k, recipe.id)
        seq = [_plain(a) for a in acts[:k - 1]] + [_plain(acts[k - 1]).model_copy(update={"text": new})] \
            + [_plain(a) for a in acts[k:]]
        seq = cut(seq, k)
        # the main trajectory with other input, as the automatic probe: mirrored, so a page that fails it at step j
        # (the to-do the Enter key made reads the recorded text) keeps the steps before j
        out.append(ProbePlan(f"derived-other-text-{k}", "derived", k, True, {typed_k: new}, seq, [],
                             why=f"{new!r} typed in step {k} in place of {typed_k!r}"))
    # before a key press, a key the page does not use: it must change nothing, then the recorded key does
    presses = [k for k in range(1, n + 1) if acts[k - 1].type == "Press" and not acts[k - 1].unchanged]
    for k in presses[:1]:
        key = next((x for x in UNUSED_KEYS if all((b.key or "").lower() != x.lower() for b in acts)), None)
        if key is None:
            continue
        idle = RecipeAction(type="Press", key=key, description=f"press the {key} key (the page does not use it)",
                            unchanged=True)
        seq = [_plain(a) for a in acts[:k - 1]] + [idle] + [_plain(a) for a in acts[k - 1:]]
        mirrors = [*range(1, k), None, *range(k, n + 1)]
        seq = cut(seq, k + 1)
        out.append(ProbePlan(f"derived-idle-key-{k}", "derived", k, False, {}, seq, mirrors[:len(seq)],
                             why=f"the {key} key before step {k}'s {acts[k - 1].key}"))
    # a key press undone by its opposite: the page goes back, a replay goes on (or, keyed by the recorded keys,
    # stays where the recorded key left it)
    undo = [k for k in presses if (acts[k - 1].key or "") in OPPOSITE_KEYS and (not changed or k in changed)][:1]
    for k in undo:
        key = OPPOSITE_KEYS[acts[k - 1].key or ""]
        back = RecipeAction(type="Press", key=key, description=f"press the {_key_words(key)} key")
        seq = [_plain(a) for a in acts[:k]] + [back]
        out.append(ProbePlan(f"derived-undo-key-{k}", "derived", k + 1, False, {}, seq, [*range(1, k + 1), None],
                             why=f"step {k}'s {acts[k - 1].key} undone by {key}"))
    # another key the trajectory uses, in place of a recorded one (the 4 key where the recording rated a card with
    # 3; the up arrow where it moved the tiles left): keys of one family only (digits for digits, letters for
    # letters, arrows for arrows), so the page is known to use it
    def family(key: str) -> str:
        return "digit" if key.isdigit() else "letter" if len(key) == 1 and key.isalpha() else \
            "arrow" if key.startswith("Arrow") else ""

    used_keys = list(dict.fromkeys(a.key for a in acts if a.type == "Press" and a.key))
    swapped = []
    for k in presses:
        key = acts[k - 1].key or ""
        alt = [x for x in used_keys if x != key and family(x) and family(x) == family(key)]
        if alt and (not changed or k in changed):
            swapped.append((k, alt[0]))
    for k, alt_key in swapped[:1]:
        seq = [_plain(a) for a in acts[:k - 1]] + [RecipeAction(type="Press", key=alt_key, description=f"press the {alt_key} key")]
        out.append(ProbePlan(f"derived-other-key-{k}", "derived", k, False, {}, seq, [*range(1, k), None],
                             why=f"the {alt_key} key (the recording uses it) in place of step {k}'s {acts[k - 1].key}"))
    # a look-alike neighbour of the target: another tag, title, pin or card of the same kind, named as the step names
    # its target with the quoted name swapped
    near = []
    for k in range(1, n + 1):
        if acts[k - 1].type not in ("Click", "Hover") or k not in changed:
            continue
        for sel, old, new in (neighbours or {}).get(k, []):
            desc = neighbour_description(acts[k - 1].description, old, new, acts)
            if desc:
                near.append((k, sel, new, desc))
                break
    for k, sel, text, desc in near[:PER_KIND]:
        seq = [_plain(a) for a in acts[:k - 1]] + [RecipeAction(type=acts[k - 1].type, target=sel, description=desc)]
        out.append(ProbePlan(f"derived-neighbour-{k}", "derived", k, False, {}, seq, [*range(1, k), None],
                             why=f"{'hover over' if acts[k - 1].type == 'Hover' else 'click on'} the look-alike {text!r} "
                                 f"instead of step {k}'s target"))
    return out


def _key_words(key: str) -> str:
    return {"ArrowRight": "right arrow", "ArrowLeft": "left arrow", "ArrowUp": "up arrow", "ArrowDown": "down arrow",
            "PageDown": "Page Down", "PageUp": "Page Up"}.get(key, key)


def neighbour_description(description: str | None, old: str, new: str, acts: list[RecipeAction]) -> str | None:
    """The description of a look-alike neighbour: the step's own description with the quoted text ``old`` that names
    its target (its own text, or the text of its surroundings: a column, a card) replaced by ``new``, which names
    the neighbour the same way ("the red 'Too many courgettes' title" -> "the red 'The first raspberries' title";
    "the '+' button of the 'Review' column" -> "the '+' button of the 'Doing' column"). None when the description
    does not quote ``old``, or ``new`` is no good name (empty, long, quoted, ``old`` itself, or the description of
    another step of the trajectory)."""
    t, o = " ".join((new or "").split()), " ".join((old or "").split())
    if not description or not t or not o or len(t) > 60 or t.casefold() == o.casefold() \
            or any(ch in t for ch in "'\"\u2018\u2019\u201c\u201d"):
        return None
    used = {" ".join((a.description or "").split()).casefold() for a in acts}
    for q in quoted_phrases(description):
        if " ".join(q.split()).casefold() != o.casefold():
            continue
        for mark, close in (("'", "'"), ('"', '"'), ("\u2018", "\u2019"), ("\u201c", "\u201d")):
            quoted = f"{mark}{q}{close}"
            if quoted in description:
                out = description.replace(quoted, f"{mark}{t}{close}", 1)
                return out if " ".join(out.split()).casefold() not in used else None
    return None


def replay_states(probe: list[RecipeAction], main: list[RecipeAction], shape: str) -> list[tuple[int, int]]:
    """The main state a page that replays the recording shows before and after each probe step.

    ``order``: the next recorded state on any event (after ``j`` steps, state ``j``). ``kind``: the next recorded
    state only on the kind of event the recording had next: any click where a click came next, any scroll, the
    recorded key, typing into, choosing in or hovering the recorded control (the same target); other events change
    nothing."""
    n = len(main)
    if shape == "order":
        return [(min(j - 1, n), min(j, n)) for j in range(1, len(probe) + 1)]
    out, s = [], 0
    for a in probe:
        b = s
        if s < n and _advances(a, main[s]):
            s += 1
        out.append((b, s))
    return out


def _advances(a: RecipeAction, m: RecipeAction) -> bool:
    if a.type != m.type:
        return False
    if a.type in ("Click", "Scroll"):
        return True
    if a.type == "Press":
        return not m.key or (a.key or "").casefold() == m.key.casefold()
    return a.target is not None and a.target == m.target


def _shown(text: str, views: list[View], channel: str | None) -> bool:
    """Does ``text`` show on some screen of the recording (any channel)?"""
    return any(v.count(text, ch) > 0 for v in views for ch in ("text", "field"))


def _decides(t: Any, action_type: str, fair_views: list[View], own: set[str]) -> bool:
    """Can this text of a probe step tell the source from a page that replays the recording? Not what chance
    decided; not a text the recording never showed a person, unless it is a typed text of the probe's own; and not
    a typed text on the step that types it: the box shows it there, and so does a page that replays the recording
    over real text boxes (the cheat pages). Its echo on a later step (the to-do the Enter key made) decides."""
    if t.chance:
        return False
    if t.source == "echo" or t.text in own:
        return action_type != "Type"
    return _shown(t.text, fair_views, t.channel)


@dataclass
class Decision:
    """A derived probe's verdict at record time."""

    kept: bool
    #: the probe step (1-based) where a replay of the recording fails it
    decisive: int | None = None
    reason: str = ""


def decisive_step(actions: list[Action], main_views: list[View], main_shots: list[bytes], *,
                  fair_views: list[View], own_texts: set[str] | None = None,
                  states: list[tuple[int, int]] | None = None) -> Decision:
    """Where a page that replays the recording (main state ``j`` after ``j`` events) fails this probe.

    At each probe step the evidence the source gave is asked of the replay's screens before and after; the first
    step with an item the replay fails (and that the recording showed a person: ``fair_views``; or the probe's own
    typed text, ``own_texts``) is decisive. Chance-dependent texts never decide. ``states``: the main state the
    replay shows before and after each probe step (``replay_states``; default: the ``order`` shape)."""
    n = len(main_views) - 1
    own = own_texts or set()
    for j, a in enumerate(actions, start=1):
        ev = a.evidence
        if ev is None:
            continue
        bj, aj = states[j - 1] if states and j <= len(states) else (min(j - 1, n), min(j, n))
        if ev.still:
            # a key the page does not use: the replay shows its next state on any event
            if not judge_still(main_shots[bj], main_shots[aj]).passed:
                return Decision(True, j, f"step {j} must change nothing; a replay moves on to its next state")
            continue
        for t in ev.texts:
            if not _decides(t, a.type, fair_views, own):
                continue
            if not judge_text(t, main_views[bj], main_views[aj]).passed:
                return Decision(True, j, f"step {j}: {t.kind} {t.text!r}, which a replay of the recording does not show")
        # no text tells them apart (none, or only chance's and unfair ones): the screen's change can (the up arrow
        # moves 2048's tiles where a replay keyed on the recorded left arrow shows nothing new)
        # (not on a Type step: there the change is mostly the typed text, which any text box shows)
        if ev.change is not None and not ev.change_unstable and a.type != "Type":
            if not judge_change(ev.change, main_shots[bj], main_shots[aj]).passed:
                return Decision(True, j, f"step {j}: the screen changes, and a replay of the recording does not change "
                                           "it as much")
    return Decision(False, None, "a replay of the recording passes it")


def keep_decisive(actions: list[Action], d: int, main_views: list[View], main_shots: list[bytes], *,
                  fair_views: list[View], own_texts: set[str] | None = None,
                  states: list[tuple[int, int]] | None = None) -> list[Action]:
    """The derived probe cut at its decisive step ``d``: the steps before ask only that they execute; step ``d``
    asks only what the replay fails there (and the recording showed)."""
    n = len(main_views) - 1
    own = own_texts or set()
    out = []
    for j, a in enumerate(actions[:d], start=1):
        ev = a.evidence or Evidence()
        if j < d:
            keep = Evidence(notes=["a step of a derived probe before its decisive step: it only has to execute"])
        else:
            bj, aj = states[j - 1] if states and j <= len(states) else (min(j - 1, n), min(j, n))
            texts = [t for t in ev.texts if _decides(t, a.type, fair_views, own)
                     and not judge_text(t, main_views[bj], main_views[aj]).passed]
            # asked as changed texts of a step without assertion: any one of them must hold on the page
            keep = Evidence(texts=[t.model_copy(update={"source": "echo" if t.source == "echo" else "derived"}) for t in texts],
                            still=ev.still,
                            change=ev.change if (not texts and not ev.still and ev.change is not None and not ev.change_unstable) else None,
                            notes=["the decisive step: what a replay of the recording does not show"])
        out.append(a.model_copy(update={"evidence": keep, "logical_assertion": None, "checks": []}))
    return out


def unfair_quotes(plan: ProbePlan, main_views: list[View]) -> tuple[int, str] | None:
    """The first step of a recipe's probe whose assertion quotes a text no screen of the recording shows (the
    probe would ask for something the video never showed a person: a showing on a day the recording never opened);
    None when every quote is fair. Fair: shown somewhere in the recording; or the probe's own typed text; or the
    response to other input of the same kind, which differs from what the recording showed only in its numbers
    ('25.0% of the home price' where the recording showed '20.0% of the home price': every word of it shown)."""
    from ..checks.view import tokens

    own = set(plan.replace.values()) | {a.text for a in plan.actions if a.type == "Type" and a.text}
    words: set[str] | None = None
    for j, a in enumerate(plan.actions, start=1):
        for q in quoted_phrases(a.assertion):
            if q in own or any(o and o in q for o in own):
                continue
            if _shown(q, main_views, None):
                continue
            if words is None:
                words = {t for v in main_views for ch in ("text", "field") for t in tokens(v.text(ch))}
            wordy = [t for t in tokens(q) if not any(c.isdigit() for c in t)]
            if wordy and all(t in words for t in wordy):
                continue
            return j, q
    return None


def guard_map(probes: list[Any], n: int, decides: dict[str, int | None] | None = None,
              waiver: bool = True) -> dict[int, list[str]]:
    """For each main step, the probes that would cap a replaying page below it (``Probe`` records).

    ``decides``: each probe's decisive step against a replay of the recording (``decisive_step``; None: a replay
    passes it, so it guards nothing); without it every probe is taken at its word. A mirrored probe caps at the
    step before its decisive one; any other at its ``guards`` step minus one. Where the decisive step asks what a
    main step *m* asks, the judge caps only a page that passed *m* (one that stopped at *m* failed the probe for the
    same fault): the steps before *m* stay open. ``waiver=False``: the cap on a page that passes the whole main
    trajectory (the judge's waiver never applies to it)."""
    out: dict[int, list[str]] = {i: [] for i in range(1, n + 1)}
    for p in probes:
        d = (decides or {}).get(p.name, 1) if decides is not None else 1
        if d is None:
            continue
        start = d if p.mirrors else p.guards
        m = p.mirror_of(d) if waiver and hasattr(p, "mirror_of") else None
        if m is not None:
            start = max(start, m)
        for i in range(max(1, start), n + 1):
            out[i].append(p.name)
    return out


__all__ = ["ProbePlan", "Decision", "other_text", "plan_probes", "derive_plans", "decisive_step", "keep_decisive",
           "unfair_quotes", "guard_map", "replay_states", "neighbour_description", "UNUSED_KEYS", "OPPOSITE_KEYS",
           "REPLAYS"]
