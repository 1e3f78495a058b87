"""The engine's API for its callers: who acts in which order, the decision the game waits on,
chance asked before it is used, and restoring a saved state in place."""

from __future__ import annotations

import support

import core
from core import Action


# -- the order in which players act ------------------------------------------------------------


def test_acting_order_puts_out_of_turn_players_first_from_the_current_seat():
    g = support.make("classic", 4, [["R1", "R2"], ["G1"], ["B1"], ["Y1"]], ["R5"], current=0)
    support.play(g, 0, "R1")  # 0 holds one card and did not call: anyone may catch
    assert g.current == 1 and g.to_act() == [0, 1, 2, 3]
    assert g.acting_order() == [2, 3, 0, 1]  # catchers from the current seat on, the turn's player last
    g.apply(2, Action("catch", target=0))
    assert g.acting_order() == [1]
