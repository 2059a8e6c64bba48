"""The reader's rules without a browser: tokens, phrases, lines, counts, and visual change grids."""

import numpy as np
from PIL import Image, ImageDraw

from iwrbench.checks import change as chg
from iwrbench.checks.view import Frag, View, contains_phrase, quoted_phrases, tokens


def frag(t, x, y, w=None, h=16, k="text", e=False, b=0):
    return Frag(t=t, x=x, y=y, w=w if w is not None else 8 * len(t), h=h, fs=14, k=k, e=e, b=b)


def test_tokens_ignore_typography_and_glyphs():
    assert tokens("ﬁle") == tokens("file")
    assert tokens("nº 5") == ["no", "5"]
    assert tokens("\ue0a0Settings") == ["settings"]  # icon-font glyph (private use)
    assert tokens("Cart (2)") == ["cart", "2"]
    assert tokens("Ｆｕｌｌ") == ["full"]


def test_quoted_phrases_skip_apostrophes_in_words():
    q = quoted_phrases("Let's check: the footer reads '2 items left' and \u201cClear completed\u201d shows; it's done")
    assert q == ["2 items left", "Clear completed"]
    assert quoted_phrases("no quotes here") == []


def test_phrase_spans_elements_on_one_line_but_not_inside_a_word():
    v = View(frags=[frag("1", 10, 100, 8), frag("item left", 20, 100), frag("Allowed", 10, 200)])
    assert v.count("1 item left") == 1
    assert v.count("All") == 0  # not inside "Allowed"
    assert v.count("4 +4") == 0
    v2 = View(frags=[frag("4+4", 10, 10)])
    assert v2.count("4 +4") == 1


def test_far_apart_texts_are_separate_lines_and_wrapped_text_reads_on():
    v = View(frags=[frag("Subtotal", 10, 100), frag("$298.00", 900, 100),
                    frag("A long paragraph", 10, 300), frag("that wraps", 10, 318)])
    assert v.count("Subtotal") == 1 and v.count("$298.00") == 1
    assert len(v.lines()) == 4
    assert v.count("paragraph that wraps") == 1


def test_a_row_reads_across_an_aligned_gap():
    v = View(frags=[frag("Inbox", 300, 160), frag("2", 440, 160, 8), frag("a", 133, 372, 8), frag(": b", 169, 372, 20)])
    assert v.count("Inbox 2") == 1 and v.count("a : b") == 1
    assert v.count("Inbox") == 1  # not counted twice by the two readings


def test_a_centred_tooltip_wrapped_over_two_lines_reads_on_over_the_text_beside_it():
    # measured on a new user's app: the tooltip's first line shares a row with 'Loam' and 'Tap beside the plot'
    tip = [frag("Includes water, compost and use of", 786, 317, 204, 15, b=44), frag("the shared tool shed", 829, 335, 118, 15, b=44)]
    v = View(frags=[frag("Loam", 766, 315, 40, 17, b=39), frag("Tap beside the plot", 1003, 315, 136, 17, b=41), *tip])
    assert v.count("Includes water, compost and use of the shared tool shed") == 1
    assert v.count("Loam") == 1 and v.count("use of the shared") == 1
    assert View(frags=tip[::-1]).count("use of the shared tool shed") == 1  # a block's lines top to bottom


def test_channels_separate_editable_fields_from_text():
    v = View(frags=[frag("Buy milk", 10, 10, k="field", e=True), frag("Buy milk", 10, 60, k="field", e=False),
                    frag("What needs to be done?", 10, 110, k="placeholder")])
    assert v.count("Buy milk") == 1  # the read-only field is display text
    assert v.count("Buy milk", "field") == 1
    assert v.count("What needs to be done?") == 0


def test_counts_are_counts():
    v = View(frags=[frag("Buy oat milk", 10, 10), frag("Buy oat milk", 10, 100)])
    assert v.count("buy OAT milk") == 2
    assert contains_phrase("No completed tasks.", "completed")
    assert not contains_phrase("Uncompleted", "completed")


def _img(boxes, size=(320, 160)):
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    for b in boxes:
        d.rectangle(b, fill="black")
    return im


def test_a_page_must_change_with_the_step_by_enough_anywhere():
    before = _img([])
    rec = chg.change_grid(before, _img([(20, 20, 80, 60)]))
    assert rec.sum() >= chg.MIN_CELLS
    same_place = chg.change_grid(before, _img([(30, 24, 90, 64)]))  # shifted a little
    assert chg.similar(rec, same_place).passed
    nothing = chg.change_grid(before, before)
    v = chg.similar(rec, nothing)
    assert not v.passed and "nothing changed" in v.detail
    far = chg.change_grid(Image.new("RGB", (1280, 720), "white"), _img([(1100, 600, 1200, 700)], (1280, 720)))
    rec_big = chg.change_grid(Image.new("RGB", (1280, 720), "white"), _img([(20, 20, 120, 120)], (1280, 720)))
    v = chg.similar(rec_big, far)  # another layout: the change happened elsewhere, it still happened
    assert v.passed and v.near == 0
    tiny = chg.change_grid(Image.new("RGB", (1280, 720), "white"), _img([(1100, 600, 1108, 608)], (1280, 720)))
    assert not chg.similar(rec_big, tiny).passed  # a speck for a box: not enough
    whole = np.ones((45, 80), dtype=bool)
    modal_box = np.zeros((45, 80), dtype=bool)
    modal_box[10:30, 20:60] = True
    assert chg.similar(whole, modal_box).passed  # a backdrop the page dims less still opened its dialog


def test_change_evidence_round_trips():
    g = np.zeros((45, 80), dtype=bool)
    g[3:7, 10:15] = True
    ev = chg.encode(g)
    assert (chg.decode(ev) == g).all()
    assert chg.required(ev, asserted=True)
    assert not chg.required(ev, asserted=False, action_type="Press")  # 20 cells of 3600: small without assertion
    g[3:30, 10:40] = True
    big = chg.encode(g)
    assert chg.required(big, asserted=False, action_type="Press")
    assert not chg.required(big, asserted=False, action_type="Click")  # a click executed is the published rule
