"""The grounding ladder: find, on a page written by someone else, the element an action means.

The page under judgement only has to look and behave like the recording; its markup, ids,
classes, ARIA and URLs are its own. The ladder is a list of rungs (``RUNGS``) that the protocol
chooses (``Protocol.grounding``: ``offline@2`` ends with the fuzzy rung, ``iwr-bench@1`` with the
LLM grounder). Each rung answers with a hit, a deferral or nothing, and each attempt is logged per
step (``Grounding.tried``); ``Grounding.rung`` is the rung whose answer was taken. A deferral is an
answer that waits for the rungs that find an element by sight: the words of a checkbox's label that
is not bound to it wait for the checkbox at the recorded position, and an element at the recorded
position that does not look like the recorded crop waits for the appearance rung. The first deferral
stands, under its own rung, if no later rung answers before a last-resort rung (fuzzy, LLM) would be
tried. The rungs, in ``offline@2``'s order:

1. ``role_name``       the recorded target's ARIA role + accessible name (Playwright, exact)
2. ``role_name_norm``  the same role and the name compared normalised (``judge/text.py``: NFKC,
                       case, whitespace, icon-font glyphs, zero-width characters, punctuation)
                       (a target that showed no text, an icon named only by aria-label or title,
                       is never matched by name to a control showing that name as words)
3. ``text``            the recorded target's visible text (Playwright, exact)
4. ``attribute``       placeholder, label, aria-label/title, alt text (Playwright, exact)
5. ``text_norm``       the visible text (or name), normalised; a target whose name was not on
                       screen (an icon named only by aria-label or title) is never matched to an
                       element showing that word
6. ``attribute_norm``  the attributes normalised, any recorded one against any of the page's
                       (exact attributes come before normalised text: a unique aria-label beats
                       a "?" shared by four help icons)
7. ``position``        the element of the action's kind (clickable / editable / select) at the
                       recorded position (centre and four inner points of the recorded box),
                       walking up from the topmost element there. Refused when the recorded
                       target was a control and nothing clickable is there, when its kind is
                       unrelated (a text field for a button, a link for a checkbox) or when
                       both have names and they clearly differ ("Archive" for "Delete"); a recorded
                       name that was not painted (an icon named by aria-label or title) refuses nothing.
                       A target that was a control only by its ARIA role (``td role=gridcell``) with
                       nothing of the action's kind there: the element of about its size there, deferred
8. ``appearance``      template matching of the recorded target's crop on a screenshot of the
                       page now (``judge/appearance.py``: normalised cross-correlation, greyscale,
                       downscaled); the element of the action's kind at the best match above
                       ``APPEAR_MIN``, with the same refusals as ``position``
9. ``relation``        the description places the element relative to a text ("the round checkbox
                       at the left of the 'Buy milk' item", "the button under 'Total'";
                       ``judge/relation.py``): the element of the action's kind nearest to where
                       that text is painted, in that direction; when the description also quotes
                       the element's own words, only an element saying them
10. ``grid``           the description names a cell of a board or grid ("the top-left square of the
                       3×3 board", "the light in row 2, column 4 of the grid"): among alike controls
                       laid out as a grid on screen, the one in that cell
11. ``fuzzy``          the description (and recorded name/text) against every visible
                       interactive element's name, text and attributes; quoted phrases weigh most;
                       without a recorded target, the kind of control the description names
                       ("the ... checkbox") ranks a checkbox above its label
12. ``llm``            (protocol permitting) the published LLM grounder through a configured model

Several equally good candidates (one "Add to cart" per product card) are told apart by their
surroundings first: the text of each one's card/row (its largest ancestor holding none of the
others) against the description's other quoted phrases and words ("... on the 'Summit Trail
Runner' card"); then by distance to the recorded position. ``Grounding.ambiguous`` is set when
that came down to distance; the rung's log says how the tie was broken.

A recorded control (button, link, checkbox, field ...) is grounded to a control whenever one
matches by name, and the position, appearance, relation and fuzzy rungs never offer it anything
else (no plain text in its place).
"""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Sequence

from rapidfuzz import fuzz

from ..browser.dom import CONTEXT_AT_JS, CONTEXT_JS, DESCRIBE_MANY_JS, GROUND_SNAPSHOT_JS, POINT_PICK_JS
from ..browser.world import read, world
from ..browser.view import read_view
from ..checks.view import View, contains_phrase, norm_text, tokens
from ..protocols import OFFLINE
from ..records import TARGETED_ACTIONS, Action, Candidate, Grounding, RungAttempt
from .appearance import APPEAR_DEFER, APPEAR_MIN, APPEAR_STRONG, APPEAR_TIE, MatchMap, NoMatch, match_map
from .relation import WORDS as REL_WORDS
from .relation import (Box, GridPlace, Relation, grid_of, names_phrase, nearest, parse_grid_place, parse_relations,
                       place_index, reach)
from .text import loose_name, name_match, names_conflict, norm_name, quoted_phrases, words

#: actions that need an element
NEEDS_TARGET = TARGETED_ACTIONS
FUZZY_MIN = 62.0
#: the words alone (before the role/clickable/position bonuses) must match at least this well
FUZZY_TEXT_MIN = 55.0
AMBIGUOUS_MARGIN = 1.0
#: an element found at a point may be this many times the recorded box's area (not a whole row/card)
POSITION_AREA_RATIO = 12
POSITION_AREA_FLOOR = 2500

LlmGrounder = Callable[[Any, Action, list[dict]], Awaitable[tuple[int | None, str]]]

CONTROL_ROLES = {"button", "link", "checkbox", "radio", "tab", "menuitem", "menuitemcheckbox", "menuitemradio",
                 "option", "switch", "combobox", "textbox", "searchbox", "slider", "spinbutton", "treeitem",
                 "listbox", "gridcell"}
CONTROL_TAGS = {"button", "input", "select", "textarea", "summary", "option"}
_FAMILY = {
    "checkbox": "toggle", "radio": "toggle", "switch": "toggle", "menuitemcheckbox": "toggle",
    "menuitemradio": "toggle",
    "textbox": "entry", "searchbox": "entry", "combobox": "entry", "spinbutton": "entry", "listbox": "entry",
    "slider": "slider",
    "button": "press", "link": "press", "tab": "press", "menuitem": "press", "option": "press",
    "treeitem": "press", "gridcell": "press", "cell": "press", "row": "press", "listitem": "press", "img": "press",
}
# toggles are often built from plain buttons
_COMPATIBLE = {("toggle", "press"): {"button", "menuitem", "option", "gridcell", "cell"}}

# words of a description that say what kind of thing or action it is, not which one
_STOP = set("""a an the this that these those its it is are be to of in on at by for from with into onto over under
near next beside below above and or as then than so up down out off via per each every any all some one two
click clicks clicked press tap type types typed enter select choose pick hover hovers move scroll open close
button buttons link links icon icons checkbox checkboxes box boxes field fields input inputs text label labelled
labeled named called says saying reads reading shows showing card cards row rows item items entry entries tab tabs
menu list option options page section panel area left right top bottom first last second third small large big
element control cell column header footer toolbar sidebar navigation nav main""".split())


@dataclass
class Grounded:
    handle: Any | None
    grounding: Grounding


def _cand(d: dict, score: float | None = None) -> Candidate:
    return Candidate(tag=d.get("tag"), role=d.get("role"), name=(d.get("name") or "")[:120] or None,
                     text=(d.get("text") or "")[:120] or None, score=None if score is None else round(score, 1))


def _fits(action: Action, d: dict) -> bool:
    if action.type == "Type":
        return bool(d.get("editable"))
    if action.type == "Select":
        return d.get("tag") == "select" or d.get("role") in ("combobox", "listbox")
    return True


def _kind(action: Action) -> str:
    """What the element at a point must be: 'type', 'select', 'click', or for hovering something that
    is not a control (a card that lifts, a row that highlights) 'hover': the element of about the
    recorded target's size there."""
    if action.type == "Hover" and not _target_is_control(action) and action.target and action.target.bbox:
        return "hover"
    return {"Type": "type", "Select": "select"}.get(action.type, "click")


def _is_control(d: dict) -> bool:
    return bool(d.get("clickable") or d.get("editable"))


def _target_is_control(action: Action) -> bool:
    t = action.target
    if not t:
        return False
    if t.editable or (t.role in CONTROL_ROLES) or (t.tag in CONTROL_TAGS):
        return True
    return t.tag == "a" and "href" in (t.attributes or {})


def _control_by_role_only(action: Action) -> bool:
    """The recorded target was a control only by its ARIA role (a ``td role=gridcell`` of a sheet that listens on
    the table, a ``div role=button``): a page written from the video cannot know that role, and the same element
    without it may show no sign of being a control (no role, handler, tabindex or pointer cursor of its own)."""
    t = action.target
    if not t or t.editable or t.tag in CONTROL_TAGS or t.role not in CONTROL_ROLES:
        return False
    return not (t.tag == "a" and "href" in (t.attributes or {}))


def _weight(d: dict) -> int:
    """How firmly POINT_PICK_JS found an element at the recorded box: the centre counts twice, each inner point once."""
    return sum(2 if p == 0 else 1 for p in d["points"])


def _center(b: dict | None) -> tuple[float, float] | None:
    if not b:
        return None
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def _dist(action: Action, d: dict, viewport: tuple[int, int]) -> float:
    t = action.target
    c = _center(d.get("bbox"))
    if not t or not t.bbox or c is None:
        return 0.5
    cx, cy = t.bbox.center
    return min(1.0, math.hypot(c[0] - cx, c[1] - cy) / math.hypot(*viewport))


def _target_names(action: Action) -> list[str]:
    """What the recording called the target (name, text, label and naming attributes)."""
    t = action.target
    if not t:
        return []
    a = t.attributes or {}
    vals = [t.name, t.text, t.label, a.get("placeholder"), a.get("aria-label"), a.get("title"), a.get("alt")]
    out: list[str] = []
    for v in vals:
        if v and norm_name(v) and v not in out:
            out.append(v)
    return out


def _fields(d: dict) -> list[str]:
    a = d.get("attributes") or {}
    # what an editable field holds is its content, not its name ("350000" does not name "Home price")
    value = None if d.get("editable") else a.get("value")
    vals = [d.get("name"), d.get("own_text"), d.get("text"), d.get("label"), a.get("placeholder"),
            a.get("aria-label"), a.get("title"), a.get("alt"), value, d.get("sub")]
    out = []
    for v in vals:
        n = norm_name(v)
        if n and n not in out:
            out.append(n)
    return out


# --------------------------------------------------------------------------- context of alike candidates

def context_terms(action: Action) -> tuple[list[str], set[str]]:
    """What the description says about where the element is: its quoted phrases and its other
    salient words ("the 'Add to cart' button on the blue 'Summit Trail Runner' card" ->
    ["add to cart", "summit trail runner"], {"add", "cart", "blue", "summit", "trail", "runner"}).
    Phrases that name the element itself are in every alike candidate's surroundings, so they
    weigh the same for all; they are not taken out (the recorded name may itself hold the card's
    name, "Add to cart: Summit Trail Runner", which is then the very thing to look for)."""
    desc = action.parameters.description or ""
    phrases: list[str] = []
    for q in quoted_phrases(desc):
        lq = loose_name(q)
        if lq and lq not in phrases:
            phrases.append(lq)
    ws = {w for w in words(desc) if len(w) >= 3 and w not in _STOP and not w.isdigit()}
    return phrases, ws


def context_score(ctx: str, phrases: list[str], ws: set[str]) -> tuple[float, float]:
    """How well surroundings match: (quoted phrases found, each up to 1; salient words found)."""
    lc = loose_name(ctx)
    if not lc:
        return 0.0, 0.0
    ph = 0.0
    for p in phrases:
        if p in lc:
            ph += 1.0
        elif len(p) >= 4:
            r = fuzz.partial_ratio(p, lc)
            if r >= 85:
                ph += r / 100
    cw = set(lc.split())
    return ph, float(sum(1 for w in ws if w in cw))


#: an alike candidate's surroundings (CONTEXT_JS): text, under a painted layer (None: unknown), only its own text read
Context = tuple[str, bool | None, bool]

#: bare words (not quoted) must beat the element at the recorded spot by this many to move away from it
WORDS_OVER_SPOT = 2


@dataclass
class _Tie:
    chosen: int
    how: str
    ambiguous: bool
    order: list[int] = field(default_factory=list)


@dataclass
class Deferral:
    """A rung's answer that waits: it stands unless a later rung that finds the element by sight
    (position, appearance, relation) answers before the last-resort rungs (fuzzy, LLM) are reached.
    ``commit(note)`` makes it the answer, logged under the rung that gave it."""

    rung: str
    commit: Callable[[str], Grounded]


#: what a rung returns: a hit (the ladder stops), a deferral (see :class:`Deferral`) or nothing
Outcome = Grounded | Deferral | None


class _Ladder:
    """State shared by the rungs of one ground() call: the page snapshot, the screenshot match."""

    def __init__(self, page: Any, action: Action, viewport: tuple[int, int], crop: Any, screenshot: Any,
                 llm: LlmGrounder | None = None, names_may_change: bool = False):
        self.page, self.action, self.viewport = page, action, viewport
        self.t = action.target
        self.g = Grounding()
        self.crop, self.screenshot = crop, screenshot
        self.llm = llm
        self._snap: tuple[Any, list[dict]] | None = None
        self._snap_err: str | None = None
        self._snap_done = False
        self._match: MatchMap | None = None
        self._match_done = False
        self._match_why = ""
        self._view: View | None = None
        self._view_done = False
        self._view_err = ""
        self.target_control = _target_is_control(action)
        self.names = _target_names(action)
        t = self.t
        #: the target's name was on screen: as its own text, or as its label's (not an icon named by attributes)
        self.name_shown = bool(t and ((t.text or "").strip() or (t.label or "").strip()))
        #: the names a person saw: all of them when the name was on screen; for an icon named only by its
        #: attributes (aria-label, title), none but a field's placeholder. An element in its place whose own
        #: name clearly differs is refused only by names that were painted: a page cannot know an ARIA name
        self.painted_names = self.names if self.name_shown else [
            v for v in ((t.attributes or {}).get("placeholder"),) if v and norm_name(v)] if t else []
        if names_may_change:  # a probe after other input: a sum or a formula's result may read otherwise now
            self.painted_names = []

    # ---------------------------------------------------------------- page reads
    async def snapshot(self) -> tuple[Any, list[dict]] | None:
        if not self._snap_done:
            self._snap_done = True
            try:
                els, descs = await world(self.page).evaluate_elements(GROUND_SNAPSHOT_JS)
                self._snap = (els, descs)
            except Exception as e:
                self._snap_err = f"page error: {str(e).strip()[:80]}"
        return self._snap

    async def _contexts(self, js: str, arg: Any, n: int) -> list[Context]:
        """Each element's surroundings, whether a layer covers it and whether only its own text was read
        (CONTEXT_JS); unknown on a failed read."""
        try:
            return [(str(c or ""), u, bool(a)) for c, u, a in await read(self.page, js, arg)]
        except Exception:
            return [("", None, True)] * n

    async def contexts_of(self, handles: list[Any]) -> list[Context]:
        return await self._contexts(CONTEXT_JS, handles, len(handles))

    async def contexts_at(self, arr: Any, idx: list[int]) -> list[Context]:
        return await self._contexts(CONTEXT_AT_JS, {"arr": arr, "idx": idx}, len(idx))

    # ---------------------------------------------------------------- ties
    def at_spot(self, d: dict) -> bool:
        """Where the recorded target was, with its size (a page that kept the layout)."""
        t = self.t
        bb = d.get("bbox")
        if not t or not t.bbox or not bb:
            return False
        (cx, cy), c = t.bbox.center, _center(bb)
        return (abs(c[0] - cx) <= 4 and abs(c[1] - cy) <= 4 and abs(bb["width"] - t.bbox.width) <= 0.15 * t.bbox.width + 2
                and abs(bb["height"] - t.bbox.height) <= 0.15 * t.bbox.height + 2)

    async def resolve(self, descs: list[dict], contexts: Callable[[], Awaitable[list[Context]]],
                      keys: list[float] | None = None, spot: int | None = None) -> _Tie:
        """Pick among alike candidates: surroundings vs the description, then ``keys`` (lower is
        better; distance to the recorded position by default), then page order.

        A candidate under another layer (a modal's backdrop over the sidebar's twin of the dialog's
        chip) comes after every one a pointer reaches: the recorded target was one a person clicked.
        The one standing at the recorded spot (``spot``, else found by position and size) keeps
        its place unless a quoted phrase of the description is in another's surroundings and
        not in its own, or clearly more of the description's words are; and always when its own
        surroundings could not be read (a minefield's cell among its row's look-alike cells: a
        look-alike alone in its row is read with the whole row, whose numbers say nothing)."""
        n = len(descs)
        if keys is None:
            keys = [_dist(self.action, d, self.viewport) for d in descs]
        if n == 1:
            return _Tie(0, "single", False, [0])
        phrases, ws = context_terms(self.action)
        got = await contexts()
        sc = [context_score(c, phrases, ws) for c, _, _ in got] if phrases or ws else [(0.0, 0.0)] * n
        covered = {i for i, (_, u, _) in enumerate(got) if u is True}
        if len(covered) == n:
            covered = set()
        aside = f"; {len(covered)} under another layer set aside" if covered else ""
        total = [3 * p + w for p, w in sc]
        order = sorted(range(n), key=lambda i: (i in covered, -total[i], keys[i], i))
        best = order[0]
        if spot is None:
            spots = [i for i in range(n) if self.at_spot(descs[i]) and i not in covered]
            spot = spots[0] if len(spots) == 1 else None
        if spot is not None and best != spot and spot not in covered and total[best] > total[spot]:
            (pb, wb), (ps, wsp) = sc[best], sc[spot]
            unread = got[spot][2]
            if unread or not (pb > ps + 0.5 or (pb >= ps and wb - wsp >= WORDS_OVER_SPOT)):
                order.remove(spot)
                order.insert(0, spot)
                why = ("its own surroundings not readable apart from the others'" if unread else
                       "surroundings not decisive")
                return _Tie(spot, f"{n} alike, the one at the recorded spot ({why}: "
                                  f"{total[best]:.1f} vs {total[spot]:.1f}){aside}", False, order)
        free = [i for i in order if i not in covered]
        top = [i for i in free if total[i] == total[best]]
        if total[best] > 0 and len(top) == 1:
            nxt = free[1] if len(free) > 1 else order[1]
            return _Tie(best, f"{n} alike, surroundings matched the description ({total[best]:.1f} vs "
                              f"{total[nxt]:.1f}){aside}", False, order)
        if len(top) == 1 and covered:
            return _Tie(best, f"{n} alike, the only one a pointer reaches{aside}", False, order)
        if self.t and self.t.bbox:
            return _Tie(best, f"{len(top)} alike, nearest to the recorded position{aside}", len(top) > 1, order)
        return _Tie(best, f"{len(top)} alike, first on the page{aside}", len(top) > 1, order)

    def accept(self, rung: str, descs: list[dict], tie: _Tie, detail: str, scores: list[float] | None = None) -> None:
        g = self.g
        n = len(descs)
        g.tried.append(RungAttempt(rung=rung, matches=n, detail=f"{detail}; {tie.how}" if n > 1 else detail))
        g.rung, g.ambiguous = rung, tie.ambiguous
        sc = (lambda i: scores[i]) if scores else (lambda i: None)
        g.element = _cand(descs[tie.chosen], sc(tie.chosen))
        g.alternatives = [_cand(descs[i], sc(i)) for i in tie.order if i != tie.chosen][:3]

    def prefer_controls(self, idx: list[int], descs: list[dict]) -> list[int]:
        """A recorded control is grounded to a control when one matches (not a heading of the same words)."""
        if self.target_control:
            ctl = [i for i in idx if _is_control(descs[i])]
            if ctl:
                return ctl
        return idx

    # ---------------------------------------------------------------- Playwright's exact rungs
    async def exact(self, name: str, locators: list[Any], detail: str,
                    other: Callable[[dict], bool] | None = None) -> Grounded | None:
        """Playwright's exact matches that fit the action; ``other``: a match that is another control by sight."""
        handles: list[Any] = []
        for loc in locators:
            try:
                handles += await loc.element_handles()
            except Exception:
                continue
        handles = handles[:200]
        try:
            descs = await read(self.page, DESCRIBE_MANY_JS, handles) if handles else []
        except Exception:
            descs = [None] * len(handles)
        pairs = [(h, d) for h, d in zip(handles, descs) if d and _fits(self.action, d)]
        if other is not None:
            pairs = [(h, d) for h, d in pairs if not other(d)]
        if not pairs:
            self.g.tried.append(RungAttempt(rung=name, matches=0, detail=detail))
            return None
        keep = self.prefer_controls(list(range(len(pairs))), [d for _, d in pairs])
        keep = sorted(keep, key=lambda i: _dist(self.action, pairs[i][1], self.viewport))[:50] if len(keep) > 50 else keep
        pairs = _dedupe_spots([pairs[i] for i in keep])
        hs, ds = [h for h, _ in pairs], [d for _, d in pairs]
        tie = await self.resolve(ds, lambda: self.contexts_of(hs))
        self.accept(name, ds, tie, detail)
        return Grounded(hs[tie.chosen], self.g)

    # ---------------------------------------------------------------- normalised rungs over the snapshot
    async def normalised(self, name: str, detail: str, match: Callable[[dict], int],
                         include_extra: bool = True) -> Outcome:
        snap = await self.snapshot()
        if snap is None:
            self.g.tried.append(RungAttempt(rung=name, matches=0, detail=self._snap_err))
            return None
        els, descs = snap
        tiers: dict[int, int] = {}
        for i, d in enumerate(descs):
            if d.get("extra") and not include_extra:
                continue
            tier = match(d)
            if not tier:
                continue
            j = i
            if d.get("extra") and d.get("up", -1) >= 0:  # a named icon inside a button: the button
                j = d["up"]
            if not _fits(self.action, descs[j]):
                continue
            tiers[j] = max(tiers.get(j, 0), tier)
        if not tiers:
            self.g.tried.append(RungAttempt(rung=name, matches=0, detail=detail))
            return None
        best = max(tiers.values())
        idx = self.prefer_controls(sorted(i for i, v in tiers.items() if v == best), descs)
        if len(idx) > 50:  # many alike (a long table): the 50 nearest to the recorded position
            idx = sorted(idx, key=lambda i: _dist(self.action, descs[i], self.viewport))[:50]
        pairs = _dedupe_spots([(i, descs[i]) for i in idx])
        ids, ds = [i for i, _ in pairs], [d for _, d in pairs]
        tie = await self.resolve(ds, lambda: self.contexts_at(els, ids))
        how = "same after normalising" if best == 2 else "same but for punctuation"
        handle = await els.get_property(str(ids[tie.chosen]))
        if self.only_its_label(ds[tie.chosen]):
            # the words of a checkbox's label, not bound to it: what is at the recorded position comes first
            self.g.tried.append(RungAttempt(rung=name, matches=len(ds), detail=f"{detail} ({how}); only the words "
                                            "of its label, not the control: the position and appearance rungs first"))

            def commit(note: str = "") -> Grounded:
                self.accept(name, ds, tie, f"{detail} ({how}); {note}")
                return Grounded(handle, self.g)

            return Deferral(name, commit)
        self.accept(name, ds, tie, f"{detail} ({how})")
        return Grounded(handle, self.g)

    def shows_the_name(self, d: dict) -> bool:
        """The recorded target showed no text (an icon named only by its attributes) and ``d`` shows its name as
        words: another control by sight (the reading pane's "Star" button, not a row's star icon), whatever the
        markup says; the position and appearance rungs find the icon."""
        t = self.t
        if not t or not t.name or self.name_shown:
            return False
        return bool(name_match(t.name, d.get("text") or "") or name_match(t.name, d.get("own_text") or ""))

    def only_its_label(self, d: dict) -> bool:
        """A recorded checkbox/radio/switch matched by text that is no such control and does not
        reach one when clicked (a label without ``for``, a span)."""
        t = self.t
        if not t or _FAMILY.get(t.role or "") != "toggle":
            return False
        if _FAMILY.get(d.get("role") or "") == "toggle" or d.get("has_control"):
            return False
        return True

    # ---------------------------------------------------------------- position and appearance
    def _acceptable(self, d: dict, need_control: bool = True) -> str | None:
        """Why an element found by position/appearance cannot stand for the recorded target (None: it can).
        ``need_control=False``: any element may, when it is no other kind of control and not named otherwise."""
        if need_control and self.target_control and not _is_control(d):
            return "not a control"
        t = self.t
        tr, cr = (t.role if t else None), d.get("role")
        tf, cf = _FAMILY.get(tr or ""), _FAMILY.get(cr or "")
        if tf and cf and tf != cf and cr not in _COMPATIBLE.get((tf, cf), set()):
            return f"a {cr}, not a {tr}"
        if self.painted_names:
            mine = [v for v in _fields(d) if v]
            if mine and all(names_conflict(a, b) for a in self.painted_names for b in mine):
                return f"named {(d.get('name') or mine[0])[:40]!r}"
        return None

    def _max_area(self) -> float:
        b = self.t.bbox if self.t else None
        if not b:
            return 0
        return max(POSITION_AREA_RATIO * b.width * b.height, POSITION_AREA_FLOOR)

    async def pick_points(self, points: list[tuple[float, float]], twins: bool,
                          kind: str | None = None) -> tuple[Any, list[dict]] | None:
        b = self.t.bbox if self.t else None
        arg = {"points": [[float(x), float(y)] for x, y in points], "kind": kind or _kind(self.action),
               "max_area": self._max_area(), "twins": twins,
               "want_area": float(b.width * b.height) if b else 0.0}
        try:
            return await world(self.page).evaluate_elements(POINT_PICK_JS, arg)
        except Exception:
            return None

    async def position(self) -> Outcome:
        b = self.t.bbox
        cx, cy = b.center
        dx, dy = b.width / 4, b.height / 4
        points = [(cx, cy), (cx - dx, cy - dy), (cx + dx, cy - dy), (cx - dx, cy + dy), (cx + dx, cy + dy)]
        phrases, ws = context_terms(self.action)
        got = await self.pick_points(points, twins=bool(phrases or ws))
        if got is None:
            self.g.tried.append(RungAttempt(rung="position", matches=0, detail="page error"))
            return None
        els, descs = got
        found = [i for i, d in enumerate(descs) if "twin_of" not in d and d.get("points")]
        refused = {i: self._acceptable(descs[i]) for i in found}
        ok = [i for i in found if refused[i] is None]
        if not ok:
            why = "; ".join(f"{(descs[i].get('tag') or '?')}: {refused[i]}" for i in found[:3])
            self.g.tried.append(RungAttempt(rung="position", matches=0,
                                            detail=f"nothing of the action's kind there{'; refused ' + why if why else ''}"))
            if _kind(self.action) == "click" and _control_by_role_only(self.action):
                return await self.position_by_size(points)
            return None
        weight = lambda i: _weight(descs[i])  # noqa: E731
        ok.sort(key=lambda i: (-weight(i), _dist(self.action, descs[i], self.viewport)))
        first = ok[0]
        # a match that the recorded crop contradicts (a look-alike neighbour moved into place) waits
        # for the appearance rung, and stands if that finds nothing
        veto = await self._appearance_veto(descs[first])
        group = [first] + [i for i, d in enumerate(descs) if d.get("twin_of") == first and self._acceptable(d) is None]
        gd = [descs[i] for i in group]
        tie = await self.resolve(gd, lambda: self.contexts_at(els, group),
                                 keys=[0.0] + [1.0 + _dist(self.action, d, self.viewport) for d in gd[1:]], spot=0)
        tie.ambiguous = len(ok) > 1 and weight(ok[1]) == weight(first) and tie.chosen == 0
        detail = f"{len(ok)} of the action's kind at the recorded position"
        if len(group) > 1:
            detail += f"; {len(group) - 1} look-alike elsewhere"
        how = tie.how if tie.chosen != 0 else "the one at the position"
        handle = await els.get_property(str(group[tie.chosen]))
        alts = [_cand(descs[i]) for i in ok[1:4]]

        def commit(note: str = "") -> Grounded:
            self.g.rung, self.g.ambiguous = "position", tie.ambiguous
            self.g.element = _cand(gd[tie.chosen])
            self.g.alternatives = alts
            if note:
                self.g.tried.append(RungAttempt(rung="position", matches=len(ok), detail=note))
            return Grounded(handle, self.g)

        if veto:
            self.g.tried.append(RungAttempt(rung="position", matches=len(ok), detail=f"{detail}; {veto}"))
            return Deferral("position", commit)
        self.g.tried.append(RungAttempt(rung="position", matches=len(ok), detail=f"{detail}; {how}"))
        return commit()

    async def position_by_size(self, points: list[tuple[float, float]]) -> Outcome:
        """For a target that was a control only by its ARIA role: the element of about the recorded size at the
        recorded position, whatever it is (a plain cell of a sheet that listens on the table), unless its painted
        name differs or it is another kind of control. A deferral: an element found by sight or by the description
        elsewhere (appearance, relation, grid) comes first; it stands against the last-resort rungs."""
        got = await self.pick_points(points, twins=False, kind="hover")
        if got is None:
            return None
        els, descs = got
        found = sorted((i for i, d in enumerate(descs) if d.get("points")), key=lambda i: -_weight(descs[i]))
        why = {i: self._acceptable(descs[i], need_control=False) for i in found}
        ok = [i for i in found if why[i] is None]
        if not ok:
            if found:
                self.g.tried.append(RungAttempt(rung="position", matches=0, detail="the element of the recorded size "
                                                f"there refused: {why[found[0]]}"))
            return None
        first = ok[0]
        handle = await els.get_property(str(first))
        d = descs[first]
        detail = (f"a {d.get('tag') or '?'} of the recorded size at the recorded position, without the role "
                  f"{self.t.role!r} that alone made the recorded one a control")

        def commit(note: str = "") -> Grounded:
            self.g.rung, self.g.ambiguous = "position", False
            self.g.element = _cand(d)
            self.g.alternatives = [_cand(descs[i]) for i in ok[1:4]]
            if note:
                self.g.tried.append(RungAttempt(rung="position", matches=1, detail=f"{detail}; {note}"))
            return Grounded(handle, self.g)

        self.g.tried.append(RungAttempt(rung="position", matches=1, detail=f"{detail}; waits for a better answer"))
        return Deferral("position", commit)

    async def match_map(self) -> MatchMap | None:
        """The crop's correlation map on the screenshot (cached; ``judge/appearance.py``).
        Computed in a worker thread: other pages judged on the same event loop keep going."""
        if self._match_done:
            return self._match
        self._match_done = True
        try:
            self._match = await asyncio.to_thread(match_map, self.crop, self.screenshot, self.viewport,
                                                  self.t.bbox if self.t else None)
        except NoMatch as e:
            self._match_why = str(e)
        except Exception as e:  # a broken image from a stranger's task folder is a rung failure, not a crash
            self._match_why = f"bad image: {str(e)[:80]}"
        return self._match

    async def _appearance_veto(self, d: dict) -> str | None:
        if self.crop is None or self.screenshot is None:
            return None
        mine = _fields(d)
        if any(name_match(a, b) for a in self.names for b in mine):  # confirmed by its name
            return None
        mm = await self.match_map()
        if mm is None:
            return None
        best = mm.best
        if best < APPEAR_STRONG:
            return None
        c = _center(d.get("bbox"))
        if c is None:
            return None
        here = mm.near(c)
        if here < best - APPEAR_DEFER:
            return (f"the element there does not look like the recorded one ({here:.2f} vs {best:.2f} elsewhere); "
                    "left to the appearance rung first")
        return None

    async def appearance(self) -> Grounded | None:
        mm = await self.match_map()
        if mm is None:
            self.g.tried.append(RungAttempt(rung="appearance", matches=0, detail=self._match_why or "no match"))
            return None
        peaks = mm.peaks()
        if not peaks:
            self.g.tried.append(RungAttempt(rung="appearance", matches=0,
                                            detail=f"best match {mm.best:.2f} < {APPEAR_MIN}"))
            return None
        got = await self.pick_points([(x, y) for _, x, y in peaks], twins=False)
        if got is None:
            self.g.tried.append(RungAttempt(rung="appearance", matches=0, detail="page error"))
            return None
        els, descs = got
        scored = []
        refusals = []
        for i, d in enumerate(descs):
            s = max(peaks[p][0] for p in d["points"])
            why = self._acceptable(d)
            if why is None:
                scored.append((s, i))
            else:
                refusals.append(f"{d.get('tag')}: {why}")
        if not scored:
            self.g.tried.append(RungAttempt(rung="appearance", matches=0,
                                            detail=f"{len(peaks)} look-alike spots, none of the action's kind"
                                                   + (f"; refused {'; '.join(refusals[:3])}" if refusals else "")))
            return None
        scored.sort(key=lambda x: -x[0])
        top = [i for s, i in scored if s >= scored[0][0] - APPEAR_TIE]
        gd = [descs[i] for i in top]
        tie = await self.resolve(gd, lambda: self.contexts_at(els, top))
        sc = {i: s for s, i in scored}
        detail = f"{len(scored)} matching spot(s), best {scored[0][0]:.2f}"
        self.accept("appearance", gd, tie, detail, scores=[sc[i] * 100 for i in top])
        return Grounded(await els.get_property(str(top[tie.chosen])), self.g)

    # ---------------------------------------------------------------- relative to a named text
    async def view(self) -> View | None:
        """The text the page paints in the viewport now (``browser/view.py``), read once."""
        if not self._view_done:
            self._view_done = True
            # the screenshot the judge took of this moment, when it has one (the reader then takes one picture, not two)
            shot = bytes(self.screenshot) if isinstance(self.screenshot, (bytes, bytearray, memoryview)) else None
            try:
                self._view = View.from_js(await read_view(self.page, shot=shot, timeout_s=5.0))
            except Exception as e:
                self._view_err = f"page error: {str(e).strip()[:80]}"
        return self._view

    def anchor_boxes(self, view: View, rel: Relation) -> list[Box]:
        """Where the named text is painted: the fragments of each line that shows it (a quoted phrase
        anywhere in a line; an unquoted one only as a whole line or a whole fragment)."""
        want = set(tokens(rel.anchor))
        key = norm_text(rel.anchor)
        out: list[Box] = []
        for channel in ("text", "field"):
            for ln in view.lines(channel):
                if rel.quoted:
                    if not contains_phrase(ln.text, rel.anchor):
                        continue
                    fr = [f for f in ln.frags if set(tokens(f.t)) & want] or ln.frags
                elif norm_text(ln.text) == key:
                    fr = ln.frags
                else:
                    fr = [f for f in ln.frags if norm_text(f.t) == key]
                    if not fr:
                        continue
                x0, y0 = min(f.x for f in fr), min(f.y for f in fr)
                out.append((x0, y0, max(f.x + f.w for f in fr) - x0, max(f.y + f.h for f in fr) - y0))
        return out[:20]

    def _relation_kind(self, d: dict) -> bool:
        """An element the action can mean: of its kind (a field for Type, a select for Select, something
        clickable otherwise) and, for a recorded target, not another kind of control or another name."""
        if not _fits(self.action, d):
            return False
        if self.action.type in ("Click", "Hover") and not d.get("clickable"):
            return False
        return not (self.t and self._acceptable(d) is not None)

    async def relation(self, rels: list[Relation]) -> Outcome:
        g = self.g
        snap = await self.snapshot()
        if snap is None:
            g.tried.append(RungAttempt(rung="relation", matches=0, detail=self._snap_err))
            return None
        view = await self.view()
        if view is None:
            g.tried.append(RungAttempt(rung="relation", matches=0, detail=self._view_err))
            return None
        els, all_descs = snap
        vw, vh = self.viewport
        idx = [i for i, d in enumerate(all_descs) if not d.get("extra") and self._relation_kind(d)
               and (b := d.get("bbox")) and b["width"] >= 1 and b["height"] >= 1
               and b["x"] < vw and b["y"] < vh and b["x"] + b["width"] > 0 and b["y"] + b["height"] > 0]
        what = "; ".join(f"{REL_WORDS[r.direction]} {r.anchor!r}" for r in rels)
        anchors_of = [(r, self.anchor_boxes(view, r)) for r in rels]
        shown = [(r, a) for r, a in anchors_of if a]
        if not shown:
            g.tried.append(RungAttempt(rung="relation", matches=0, detail=f"{what}: the named text is not on screen"))
            return None
        anchors = {norm_text(r.anchor) for r, _ in shown}
        own = [q for q in quoted_phrases(self.action.parameters.description)
               if norm_text(q) not in anchors and norm_text(q)]
        if own:  # the description names the element itself too: only elements saying so
            idx = [i for i in idx if any(names_phrase(q, _fields(all_descs[i])) for q in own)]
        # an element must lie in the direction of every named text on screen; the nearest by the sum of distances
        dist: dict[int, float] = {}
        for k, (r, boxes) in enumerate(shown):
            near = {idx[ci]: d for d, ci, _ in nearest(r.direction, boxes, [_box(all_descs[i]) for i in idx],
                                                       reach(r.direction, self.viewport))}
            dist = near if k == 0 else {i: dist[i] + near[i] for i in dist if i in near}
        if not dist:
            said = f" saying {' or '.join(repr(q) for q in own)}" if own else ""
            g.tried.append(RungAttempt(rung="relation", matches=0,
                                       detail=f"{what}: nothing of the action's kind{said} there"))
            return None
        pairs = _dedupe_spots([(i, all_descs[i]) for i in sorted(dist, key=lambda i: (dist[i], i))][:20])
        ids, ds = [i for i, _ in pairs], [d for _, d in pairs]
        keys = [dist[i] for i in ids]
        near_ones = [k for k, v in enumerate(keys) if v <= keys[0] + 2.0]  # as near as the nearest: alike
        if len(near_ones) > 1:
            tie = await self.resolve([ds[k] for k in near_ones], lambda: self.contexts_at(els, [ids[k] for k in near_ones]),
                                     keys=[keys[k] for k in near_ones])
            chosen = near_ones[tie.chosen]
            order = [near_ones[k] for k in tie.order] + [k for k in range(len(ids)) if k not in near_ones]
            tie = _Tie(chosen, tie.how, tie.ambiguous, order)
        else:
            tie = _Tie(0, "the nearest", False, list(range(len(ids))))
        # accept() adds how a tie was broken when there were several; the nearest alone needs no word
        self.accept("relation", ds if len(near_ones) > 1 else ds[:1],
                    tie if len(near_ones) > 1 else _Tie(0, "", False, [0]),
                    f"{what}: {len(ids)} of the action's kind that way, the nearest {keys[tie.chosen]:.0f} px")
        g.alternatives = [_cand(ds[k]) for k in tie.order if k != tie.chosen][:3]
        return Grounded(await els.get_property(str(ids[tie.chosen])), g)

    async def grid(self, place: GridPlace) -> Outcome:
        """The cell of a board or grid the description names, among alike controls laid out as a grid."""
        g = self.g
        snap = await self.snapshot()
        if snap is None:
            g.tried.append(RungAttempt(rung="grid", matches=0, detail=self._snap_err))
            return None
        els, all_descs = snap
        vw, vh = self.viewport
        pairs = _dedupe_spots([(i, d) for i, d in enumerate(all_descs)
                               if not d.get("extra") and self._relation_kind(d) and (b := d.get("bbox"))
                               and b["x"] < vw and b["y"] < vh and b["x"] + b["width"] > 0 and b["y"] + b["height"] > 0])
        ids = [i for i, _ in pairs]
        grids = grid_of([_box(d) for _, d in pairs])
        if place.size:
            grids = [x for x in grids if (x[1], x[2]) == place.size]
        want = f"row {place.row}, column {place.col}" + (f" of a {place.size[0]}x{place.size[1]} grid" if place.size else "")
        if not grids:
            g.tried.append(RungAttempt(rung="grid", matches=0, detail=f"{want}: no grid of alike controls on screen"))
            return None
        top = max(len(x[0]) for x in grids)
        biggest = [x for x in grids if len(x[0]) == top]
        if len(biggest) > 1:  # two boards alike: which one the description means is not known
            g.tried.append(RungAttempt(rung="grid", matches=0, detail=f"{want}: {len(biggest)} grids alike; none taken"))
            return None
        members, rows, cols, cell = biggest[0]
        r, c = place_index(place.row, rows), place_index(place.col, cols)
        hit = next((j for j in members if cell[j] == (r, c)), None) if r is not None and c is not None else None
        if hit is None:
            g.tried.append(RungAttempt(rung="grid", matches=0, detail=f"{want}: not on the {rows}x{cols} grid there"))
            return None
        d = all_descs[ids[hit]]
        g.tried.append(RungAttempt(rung="grid", matches=1, detail=f"{want}: row {r + 1}, column {c + 1} of a {rows}x{cols} "
                                                                  f"grid of {len(members)} alike controls"))
        g.rung, g.ambiguous = "grid", False
        g.element = _cand(d)
        g.alternatives = []
        return Grounded(await els.get_property(str(ids[hit])), g)

    # ---------------------------------------------------------------- fuzzy and LLM
    async def fuzzy(self) -> Outcome:
        g = self.g
        snap = await self.snapshot()
        if snap is None:
            g.tried.append(RungAttempt(rung="fuzzy", matches=0, detail=self._snap_err))
            return None
        els, all_descs = snap
        base_idx = [i for i, d in enumerate(all_descs) if not d.get("extra")]
        descs = [all_descs[i] for i in base_idx]
        scored = sorted(
            ((fuzzy_score(self.action, d, self.viewport), i, d) for i, d in enumerate(descs)
             if _fits(self.action, d) and (not self.target_control or _is_control(d))),
            key=lambda x: -x[0],
        )
        good = [s for s in scored if s[0] >= FUZZY_MIN]
        g.tried.append(RungAttempt(rung="fuzzy", matches=len(good),
                                   detail=f"best {scored[0][0]:.0f}" if scored else "no candidates"))
        if good:
            base0 = _fuzzy_base(self.action, good[0][2])
            group = [x for x in good if abs(_fuzzy_base(self.action, x[2]) - base0) <= AMBIGUOUS_MARGIN]
            g.rung = "fuzzy"
            if len(group) > 1:  # equally good words: surroundings, then the full score (with position)
                gi = [base_idx[x[1]] for x in group]
                tie = await self.resolve([x[2] for x in group], lambda: self.contexts_at(els, gi),
                                         keys=[-x[0] for x in group])
                best, idx, d = group[tie.chosen]
                g.ambiguous = tie.ambiguous
                g.tried[-1].detail = f"{g.tried[-1].detail}; {tie.how}"
            else:
                best, idx, d = group[0]
                g.ambiguous = len(good) > 1 and good[1][0] >= best - AMBIGUOUS_MARGIN and \
                    good[1][2].get("name") != d.get("name")
            g.element = _cand(d, best)
            g.alternatives = [_cand(x[2], x[0]) for x in good if x[1] != idx][:3]
            return Grounded(await els.get_property(str(base_idx[idx])), g)
        return None

    async def ask_llm(self) -> Outcome:
        """The published LLM grounder, shown the page's visible controls (at most 200)."""
        if self.llm is None:
            return None
        g = self.g
        snap = await self.snapshot()
        if snap is None:  # the fuzzy rung before it logged the page error
            return None
        els, all_descs = snap
        base_idx = [i for i, d in enumerate(all_descs) if not d.get("extra")]
        descs = [all_descs[i] for i in base_idx]
        cands = [d for d in descs if d.get("clickable") or d.get("editable")][:200]
        idx, detail = await self.llm(self.page, self.action, cands)
        g.tried.append(RungAttempt(rung="llm", matches=int(idx is not None), detail=detail[:200]))
        if idx is not None and 0 <= idx < len(cands):
            real = base_idx[descs.index(cands[idx])]
            g.rung = "llm"
            g.element = _cand(cands[idx])
            return Grounded(await els.get_property(str(real)), g)
        return None


def _box(d: dict) -> Box:
    b = d.get("bbox") or {}
    return (float(b.get("x", 0)), float(b.get("y", 0)), float(b.get("width", 0)), float(b.get("height", 0)))


def _dedupe_spots(pairs: list[tuple[Any, dict]]) -> list[tuple[Any, dict]]:
    """Nested elements on the same spot (a clickable div around a clickable span) are one candidate."""
    out: list[tuple[Any, dict]] = []
    spots: list[tuple[float, float]] = []
    for h, d in pairs:
        c = _center(d.get("bbox"))
        if c is not None and any(abs(c[0] - s[0]) <= 3 and abs(c[1] - s[1]) <= 3 for s in spots):
            continue
        if c is not None:
            spots.append(c)
        out.append((h, d))
    return out


# --------------------------------------------------------------------------- fuzzy

def _fuzzy_base(action: Action, d: dict) -> float:
    """How well a candidate's words match the recorded target and the description (no position)."""
    t = action.target
    strong = []  # phrases that name the element
    if t:
        strong += [x for x in (t.name, t.text, t.label, (t.attributes or {}).get("placeholder"),
                               (t.attributes or {}).get("aria-label")) if x]
    desc = action.parameters.description or ""
    strong += quoted_phrases(desc)
    strong = [n for n in (norm_name(s) for s in strong if s and len(s.strip()) <= 120) if n]
    fields = _fields(d)
    if not fields:
        return 0.0
    best = 0.0
    for q in strong:
        for f in fields:
            if q == f:
                best = max(best, 100.0)
            elif name_match(q, f):
                best = max(best, 98.0)
            else:
                r = fuzz.ratio(q, f)
                # a short field fully inside a longer query/phrase or vice versa
                if len(q) >= 3 and len(f) >= 3 and (q in f or f in q):
                    r = max(r, 70 + 25 * min(len(q), len(f)) / max(len(q), len(f)))
                best = max(best, r)
    if desc:
        d_low = norm_name(desc)
        for f in fields:
            if len(f) < 2:
                continue
            # a word of a longer quoted name ("all" of 'Mark all as complete') names nothing by itself:
            # the phrase loop above already scored it for the share of the name it is
            if any(f != q and f in q for q in strong):
                continue
            r = fuzz.token_set_ratio(d_low, f) * 0.8
            if len(f) >= 3 and re.search(r"\b" + re.escape(f) + r"\b", d_low):
                r = max(r, 72 + min(18, len(f)))
            best = max(best, r)
    if best < FUZZY_TEXT_MIN:  # bonuses rank matches, they do not make a match of unrelated words
        return 0.0
    score = best
    if t and t.role and d.get("role") == t.role:
        score += 6
    elif t is None and d.get("role") in described_roles(desc):
        score += 6  # no recorded role (the official layout): the kind the description names ("the ... checkbox")
    tf, cf = _FAMILY.get((t.role if t else "") or ""), _FAMILY.get(d.get("role") or "")
    if tf and cf and tf != cf and (d.get("role") not in _COMPATIBLE.get((tf, cf), set())):
        score -= 15  # a link for a checkbox, a text box for a button: another kind of control
    if d.get("clickable"):
        score += 4
    elif action.type in ("Click", "Hover"):
        score -= 6
    return score


#: words by which a description names the kind of control, and the roles of that kind
_KIND_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    (r"check\s*-?box(?:es)?|tick\s*-?box(?:es)?", frozenset({"checkbox", "switch", "menuitemcheckbox"})),
    (r"radio(?:\s*buttons?)?", frozenset({"radio", "menuitemradio"})),
    (r"switch(?:es)?|toggle\s+switch", frozenset({"switch", "checkbox"})),
    (r"drop\s*-?downs?|select(?:\s+box)?|combo\s*-?box", frozenset({"combobox", "listbox"})),
    (r"text\s*-?box(?:es)?|text\s+field|input\s+field|search\s+box", frozenset({"textbox", "searchbox", "combobox"})),
    (r"links?", frozenset({"link"})),
    (r"tabs?", frozenset({"tab"})),
    (r"buttons?", frozenset({"button"})),
    (r"sliders?", frozenset({"slider"})),
)


def described_roles(desc: str | None) -> frozenset[str]:
    """The roles of the kind of control a description names outside its quotes ("the 'Keep me signed in'
    checkbox" -> checkbox, switch): what a person looks for when the words match a label and its box alike."""
    if not desc:
        return frozenset()
    rest = desc
    for q in quoted_phrases(desc):
        rest = rest.replace(q, " ")
    rest = rest.lower()
    out: set[str] = set()
    for pat, roles in _KIND_WORDS:
        if re.search(r"(?<![\w-])(?:" + pat + r")(?![\w-])", rest):
            out |= roles
    return frozenset(out)


def fuzzy_score(action: Action, d: dict, viewport: tuple[int, int]) -> float:
    """How well a candidate matches the recorded target and the description (~0-118)."""
    score = _fuzzy_base(action, d) + 8 * (1 - _dist(action, d, viewport) * 2)
    return max(0.0, score)  # not clamped at 100: bonuses must still rank two exact matches


# --------------------------------------------------------------------------- the ladder

def _attribute_locators(L: _Ladder) -> tuple[list[Any], list[str]]:
    """Playwright's exact locators for the recorded target's naming attributes, and what each one is."""
    t, page = L.t, L.page
    locs: list[Any] = []
    what: list[str] = []
    if not t:
        return locs, what
    a = t.attributes or {}
    if a.get("placeholder"):
        locs.append(page.get_by_placeholder(a["placeholder"], exact=True))
        what.append("placeholder")
    if t.label:
        locs.append(page.get_by_label(t.label, exact=True))
        what.append("label")
    if a.get("aria-label"):
        locs.append(page.get_by_label(a["aria-label"], exact=True))
        what.append("aria-label")
    if a.get("title"):
        locs.append(page.get_by_title(a["title"], exact=True))
        what.append("title")
    if a.get("alt"):
        locs.append(page.get_by_alt_text(a["alt"], exact=True))
        what.append("alt")
    return locs, what


async def _role_name(L: _Ladder) -> Outcome:
    t = L.t
    if not (t and t.role and t.name):
        return None
    return await L.exact("role_name", [L.page.get_by_role(t.role, name=t.name, exact=True)], f"{t.role} {t.name!r}",
                         other=L.shows_the_name)


async def _role_name_norm(L: _Ladder) -> Outcome:
    t = L.t
    if not (t and t.role and t.name and norm_name(t.name)):
        return None
    role, nm = t.role, t.name
    fields = ("name", "text", "label", "sub")

    def by_role(d: dict) -> int:
        if d.get("role") != role or L.shows_the_name(d):
            return 0
        at = d.get("attributes") or {}
        return max([name_match(nm, d.get(k)) for k in fields]
                   + [name_match(nm, at.get(k)) for k in ("aria-label", "title", "value")])

    return await L.normalised("role_name_norm", f"{role} {nm!r}", by_role)


async def _text(L: _Ladder) -> Outcome:
    t = L.t
    if not (t and t.text and len(t.text) <= 80 and L.action.type != "Type"):
        return None
    return await L.exact("text", [L.page.get_by_text(t.text, exact=True)], repr(t.text))


async def _attribute(L: _Ladder) -> Outcome:
    locs, what = _attribute_locators(L)
    if not locs:
        return None
    return await L.exact("attribute", locs, ",".join(what))


async def _text_norm(L: _Ladder) -> Outcome:
    t = L.t
    if not t or L.action.type == "Type":
        return None
    want = t.text or t.name
    if not (want and norm_name(want)):
        return None

    def by_text(d: dict) -> int:
        if not L.name_shown and (d.get("text") or "").strip():
            # the recorded target showed no text (an icon named only by its attributes): a control
            # that shows this word is another one (a "Star" button beside the star icons)
            return 0
        return max(name_match(want, d.get(k)) for k in ("name", "text", "own_text"))

    return await L.normalised("text_norm", repr(want[:80]), by_text, include_extra=False)


async def _attribute_norm(L: _Ladder) -> Outcome:
    t = L.t
    if not t:
        return None
    a = t.attributes or {}
    wants = [v for v in (a.get("placeholder"), t.label, a.get("aria-label"), a.get("title"), a.get("alt"))
             if v and norm_name(v)]
    if not wants:
        return None

    def by_attr(d: dict) -> int:
        at = d.get("attributes") or {}
        have = [at.get(k) for k in ("placeholder", "aria-label", "title", "alt")] + [d.get("label")]
        if d.get("extra") or not (d.get("text") or "").strip():  # named only by attributes
            have += [d.get("name"), d.get("sub")]
        return max((name_match(w, h) for w in wants for h in have if h), default=0)

    what = _attribute_locators(L)[1]
    return await L.normalised("attribute_norm", ",".join(what) or "attributes", by_attr)


async def _position(L: _Ladder) -> Outcome:
    if not (L.t and L.t.bbox and L.action.type in NEEDS_TARGET):
        return None
    return await L.position()


async def _appearance(L: _Ladder) -> Outcome:
    if L.crop is None or L.screenshot is None or L.action.type not in NEEDS_TARGET:
        return None
    return await L.appearance()


async def _relation(L: _Ladder) -> Outcome:
    if L.action.type not in NEEDS_TARGET:
        return None
    rels = parse_relations(L.action.parameters.description)
    if not rels:
        return None
    return await L.relation(rels)


async def _grid(L: _Ladder) -> Outcome:
    if L.action.type not in NEEDS_TARGET:
        return None
    place = parse_grid_place(L.action.parameters.description)
    if place is None:
        return None
    return await L.grid(place)


async def _fuzzy(L: _Ladder) -> Outcome:
    return await L.fuzzy()


async def _llm(L: _Ladder) -> Outcome:
    return await L.ask_llm()


@dataclass(frozen=True)
class Rung:
    """One rung of the ladder. ``last_resort``: an answer an earlier rung deferred is taken before
    this rung is tried (the fuzzy and LLM rungs guess from words; a waiting answer is better)."""

    name: str
    run: Callable[[_Ladder], Awaitable[Outcome]]
    last_resort: bool = False


#: every rung by name; a protocol chooses which, in what order (``Protocol.grounding``)
RUNGS: dict[str, Rung] = {r.name: r for r in (
    Rung("role_name", _role_name),
    Rung("role_name_norm", _role_name_norm),
    Rung("text", _text),
    Rung("attribute", _attribute),
    Rung("text_norm", _text_norm),
    Rung("attribute_norm", _attribute_norm),
    Rung("position", _position),
    Rung("appearance", _appearance),
    Rung("relation", _relation),
    Rung("grid", _grid),
    Rung("fuzzy", _fuzzy, last_resort=True),
    Rung("llm", _llm, last_resort=True),
)}


async def ground(page: Any, action: Action, viewport: tuple[int, int], *, llm: LlmGrounder | None = None,
                 timeout_ms: int = 3000, crop: Any = None, screenshot: Any = None,
                 rungs: Sequence[str] | None = None, names_may_change: bool = False) -> Grounded:
    """Find the element ``action`` means on ``page``.

    ``rungs``: the ladder, by name (``Protocol.grounding``; default: ``offline@2``'s, with the LLM
    rung added when ``llm`` is given). Each rung answers with a hit (the ladder stops and reports it),
    a deferral (it stands unless a later rung answers before a last-resort rung; it is then reported
    under its own rung) or nothing. ``crop``: the recorded target as it looked (PIL image or PNG bytes);
    ``screenshot``: the page's viewport now (PNG bytes or PIL image). Both optional; without them the
    appearance rung is skipped. ``names_may_change``: the action replays a recorded step after other input
    (a probe that typed another text), so the recorded target's painted text may read otherwise on a correct
    page (a total computed from the input): the position and appearance rungs do not refuse an element for
    its name (the name rungs still look for the recorded one first).
    """
    if rungs is None:
        rungs = OFFLINE.grounding + (("llm",) if llm is not None else ())
    unknown = [r for r in rungs if r not in RUNGS]
    if unknown:
        raise ValueError(f"unknown grounding rung(s): {', '.join(unknown)}")
    L = _Ladder(page, action, viewport, crop, screenshot, llm, names_may_change)
    waiting: Deferral | None = None
    since = 0  # the log's length when the kept deferral was made
    for name in rungs:
        rung = RUNGS[name]
        if waiting is not None and rung.last_resort:
            break
        out = await rung.run(L)
        if isinstance(out, Grounded):
            return out
        if isinstance(out, Deferral) and waiting is None:  # the first deferred answer is the one kept
            waiting, since = out, len(L.g.tried)
    if waiting is not None:
        later = list(dict.fromkeys(a.rung for a in L.g.tried[since:]))
        return waiting.commit(f"kept: {', '.join(later) if later else 'no later rung'} found nothing better")
    return Grounded(None, L.g)
