"""Reading relations out of descriptions, and the geometry of "left of", "under" ... (no browser)."""

from __future__ import annotations

import pytest

from iwrbench.judge.relation import Relation, distance, nearest, parse_relations

R = Relation


@pytest.mark.parametrize("desc, want", [
    ("the round checkbox at the left of the 'Buy milk' item", [R("left", "Buy milk", True)]),
    ("the button under 'Total'", [R("below", "Total", True)]),
    ("the x to the right of 'Milk'", [R("right", "Milk", True)]),
    ("the field above 'Password'", [R("above", "Password", True)]),
    ("the checkbox next to the task 'Buy groceries for the week'", [R("beside", "Buy groceries for the week", True)]),
    ("the star beside 'Sarah: Q1 review'", [R("beside", "Sarah: Q1 review", True)]),
    ("the '+' button at the right of the 'Review' column header", [R("right", "Review", True)]),
    ("the 'Utilities' entry under 'INTERFACE' in the blue left sidebar", [R("below", "INTERFACE", True)]),
    ("the small triangle at the left of 'object {6}', the root of the tree", [R("left", "object {6}", True)]),
    ("the delete icon in the row of 'Invoice 2291'", [R("row", "Invoice 2291", True)]),
    ("the text box below the Password label", [R("below", "Password", False)]),
    ("the 'Computer starts' checkbox next to the New game button", [R("beside", "New game", False)]),
    # the part of a thing, not a direction from it; actions, not places
    ("the 'Mark all as complete' chevron at the left end of the new-todo box", []),
    ("the orange 'Cart (2)' button at the top right of the header", []),
    ("the 'Search for...' box at the left of the top bar", []),
    ("Hover over the 'Pricing' card", []),
    ("move the mouse over the chart", []),
    ("the 'Show' button inside the right end of the password box", []),
    ("the 'Under construction' banner", []),  # relation words inside the element's own quoted name
    ("Click 'Save'", []),
])
def test_relations_read_from_descriptions(desc, want):
    assert parse_relations(desc) == want


def test_directions_on_boxes():
    anchor = (100.0, 100.0, 80.0, 20.0)  # a text at x 100-180, y 100-120
    left, right = (60.0, 102.0, 16.0, 16.0), (200.0, 100.0, 20.0, 20.0)
    below, above, far_below = (110.0, 140.0, 40.0, 20.0), (110.0, 60.0, 40.0, 20.0), (400.0, 300.0, 40.0, 20.0)
    assert distance("left", anchor, left) is not None and distance("left", anchor, right) is None
    assert distance("right", anchor, right) is not None and distance("right", anchor, left) is None
    assert distance("below", anchor, below) is not None and distance("below", anchor, above) is None
    assert distance("above", anchor, above) is not None and distance("above", anchor, below) is None
    assert distance("below", anchor, far_below) is None  # not in its column
    assert distance("beside", anchor, left) is not None and distance("beside", anchor, right) is not None
    # the nearest that way first; what holds the text (its label, its row) is not beside it
    row = (0.0, 95.0, 400.0, 30.0)
    got = nearest("left", [anchor], [row, (10.0, 100.0, 16.0, 16.0), left], max_dist=300)
    assert [ci for _, ci, _ in got] == [2, 1]
