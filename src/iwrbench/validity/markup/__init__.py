"""Markup changes of the source that keep its behaviour and looks: the judge must not notice.

Mutations (each alone, and ``all`` together):

- ``no-aria``: no ``role`` and no ``aria-*`` attribute ever reaches the DOM. They are not simply
  deleted (the site's own CSS and scripts read them: tabs, accordions, pressed filters): the page
  is rewritten to keep that state in neutral ``data-*`` attributes (``aria-x`` -> ``data-st-x``,
  ``role`` -> ``data-rl``) in its HTML, CSS selectors and script strings; whatever still adds one
  at run time is moved by a MutationObserver of the page.
- ``divs``: every ``<button>`` and ``<li>`` is a ``<div>`` (a ``<span>`` inside a ``<p>``, where a
  div would end the paragraph), in the HTML, in HTML strings scripts write (``innerHTML`` & co.)
  and in ``createElement``. The page's own handlers keep what the tag gave: Enter/Space
  activation, form submission (``type``), ``disabled``; a lowest-specificity stylesheet
  reproduces the UA look (inline-block button box, ``display: list-item``); CSS and script
  selectors that named the tags name the divs instead, with the same specificity.
- ``renamed``: every id and class is renamed, word by word (``toggle-2`` -> ``z1k9d0qz-2``),
  in HTML, CSS selectors, id references (``for``, ``href="#id"``, ``url(#id)``, ``aria-*``
  id lists, ``data-target``), script strings in DOM contexts (``getElementById``, selectors,
  ``classList``, ``className =``, jQuery class methods, HTML strings) and whatever scripts
  write at run time (``className``/``id`` setters, ``classList``, ``setAttribute``, HTML strings).
  Word by word keeps prefixes consistent (``"toggle-" + id``), so nothing of the naming survives
  and the page still finds its elements.

The page is changed only where it *writes*: no DOM read API (``getAttribute``, ``querySelector``,
``classList.contains``, ``tagName``) is patched, so whoever reads the DOM (the judge, Playwright)
sees the mutant as it is, never the source through a shim. Sources are served through a small
rewriting server on 127.0.0.1 (files of a folder, or a reverse proxy in front of a command such
as Datasette or the MkDocs app), so third-party apps mutate the same way as our own sites.

Whether a mutant really kept behaviour and looks is decided without the judge: the recipe's own
actions (selectors mapped like the markup) are driven the way the recorder drives them, and each
screenshot must match the task's checkpoint (``diff_share`` <= 1 %). When a mutant differs, the
unmutated source goes through the same harness as a control: where the control does not reproduce a
checkpoint either, the mutant is compared with the control's screenshot instead. Only verified
mutants are judged; the others are listed with the first step that did not reproduce.

Rows (``Verdict``, set ``markup``, page = the mutation): a verified mutant has ``truth`` = its
steps (every step holds: behaviour and looks were checked), ``judged`` = steps the judge passed,
``ok`` = IFS 100, ``note`` = where the judge failed, and in ``extra``: ``verify`` (pixel
differences per checkpoint, what survived the mutation), ``rewrites`` (what was changed),
``failed`` (the first failed step: grounding rungs tried, evidence), ``control_judged`` (when
the mutant failed: the steps the judge passed on the unmutated source, same harness). A mutant
that could not be verified has ``judged`` = ``truth`` = None, ``extra.verified`` False and the
reason in ``note``; it says something about the mutation, not the judge.

Try it: ``python -m iwrbench.validity.markup --tasks SUITE_DIR --out OUT`` (writes
``OUT/verdicts.jsonl``, ``OUT/summary.md`` and per task the screenshots and judge results).

The package's modules, bottom to top: ``names`` (the mutations, renaming), ``selectors`` (CSS
identifiers), ``js`` (the JS lexer and rewriter), ``rewrite`` (HTML and CSS), ``shim`` (the page's
runtime part: ``shim.js`` and ``survivors.js``, packaged data), ``server`` (serving a mutant),
``verify`` (driving the recipe without the judge), ``run`` (the set and its command line).
"""

from __future__ import annotations

from .js import js_tokens
from .names import MUTATIONS, SALT, Mut, Names, rename, rename_list
from .rewrite import Rewriter, inject
from .run import main, run, run_async, table
from .server import MutantServer, known_names, serve_mutant, source_server
from .shim import SHIM_JS, SURVIVORS_JS, UA_CSS, shim_html
from .verify import Drive, drive, load_recipe, missing_words

__all__ = ["MUTATIONS", "SALT", "SHIM_JS", "SURVIVORS_JS", "UA_CSS", "Drive", "Mut", "MutantServer", "Names",
           "Rewriter", "drive", "inject", "js_tokens", "known_names", "load_recipe", "main", "missing_words", "rename",
           "rename_list", "run", "run_async", "serve_mutant", "shim_html", "source_server", "table"]
