"""The published OCR similarity formula and the word F1 that complements it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwrbench.metrics import normalise_text, ocr_similarity, word_f1, words


def test_both_empty_is_one():
    assert ocr_similarity("", "") == 1.0
    assert ocr_similarity(None, None) == 1.0


def test_exactly_one_empty_is_zero():
    assert ocr_similarity("hello", "") == 0.0
    assert ocr_similarity("", "hello") == 0.0


def test_whitespace_only_counts_as_empty():
    assert ocr_similarity(" \n\t ", "") == 1.0
    assert ocr_similarity("hello", "\n\n") == 0.0


def test_lower_cased():
    assert ocr_similarity("Add To Cart", "add to cart") == 1.0


def test_levenshtein_over_max_length():
    # kitten -> sitting: 3 edits, max length 7
    assert ocr_similarity("kitten", "sitting") == pytest.approx(1 - 3 / 7)
    assert ocr_similarity("abc", "abd") == pytest.approx(1 - 1 / 3)
    assert ocr_similarity("abcd", "ab") == pytest.approx(0.5)
    assert ocr_similarity("abc", "xyz") == 0.0


def test_whitespace_runs_collapse():
    assert normalise_text("  Sign in\n\nto  Pinecone\t") == "sign in to pinecone"
    assert ocr_similarity("Sign in\nto Pinecone", "sign in   to pinecone") == 1.0
    # a collapsed run still counts as one character
    assert ocr_similarity("ab", "a b") == pytest.approx(1 - 1 / 3)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_range_and_symmetry(a, b):
    s = ocr_similarity(a, b)
    assert 0.0 <= s <= 1.0
    assert s == pytest.approx(ocr_similarity(b, a))
    assert ocr_similarity(a, a) == 1.0


def test_words_strip_edge_punctuation():
    assert words("Add to cart, NOW! $19.99 (sale)") == ["add", "to", "cart", "now", "$19.99", "sale"]


def test_word_f1_is_order_free_and_counts_multiplicity():
    assert word_f1("add to cart. shop now", "shop now add to cart") == 1.0
    assert word_f1("", "") == 1.0
    assert word_f1("a", "") == 0.0
    # gt {a:2, b:1}, gen {a:1}: common 1, precision 1, recall 1/3
    assert word_f1("a a b", "a") == pytest.approx(2 * 1 * (1 / 3) / (1 + 1 / 3))
    assert word_f1("alpha beta", "gamma delta") == 0.0
