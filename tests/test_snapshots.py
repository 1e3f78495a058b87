"""Snapshots of the main screens at the default 80x24 (and the table at 120x40), so a layout change shows in review.

Each screen is a seeded game at a fixed size; the bots wait (a ten-minute pause) unless the shot
needs their moves, and then the seed fixes every move. A changed screen fails here with a report
of both pictures; when the change is meant, run

    pytest tests/test_snapshots.py --snapshot-update

and commit the SVGs under tests/__snapshots__/ with the change.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tui_support import settle_when
from uno_tui.app import UnoApp
from uno_tui.session import LocalSession, TableConfig

WAIT = (600.0, 600.0)
SMALL = (80, 24)
LARGE = (120, 40)

pytest.importorskip("pytest_textual_snapshot")


def table(variant: str = "classic", *, pacing: tuple[float, float] = WAIT, **config: Any) -> UnoApp:
    return UnoApp(LocalSession(TableConfig(variant=variant, seed=3, **config)), pacing=pacing)


async def draw_then_my_turn(pilot: Pilot) -> None:
    """Draw (keeping the card), then let the seeded bots play until it is the human's turn again."""
    app: Any = pilot.app
    await pilot.press("d")
    drawn = app.session.observation()
    if drawn["phase"] == "drawn":
        await pilot.press("p")
    # (The bots may have played and handed the turn back before the next line runs.)
    await settle_when(pilot, app, lambda o: o["current"] == o["me"] and o["version"] > drawn["version"] + 1,
                      grace=0.05)


@pytest.mark.parametrize("variant", ["classic", "nomercy", "wildrawz", "diez"])
def test_the_table_at_80x24(variant: str, snap_compare: Any) -> None:
    assert snap_compare(table(variant), terminal_size=SMALL)


def test_the_extended_table_at_80x24(snap_compare: Any) -> None:
    # The first player picks who plays next: the picker opens over the table by itself.
    assert snap_compare(table("extended"), terminal_size=SMALL)


def test_the_table_after_the_bots_moved(snap_compare: Any) -> None:
    assert snap_compare(table(pacing=(0.0, 0.0)), terminal_size=SMALL, run_before=draw_then_my_turn)


def test_the_table_at_120x40(snap_compare: Any) -> None:
    assert snap_compare(table(), terminal_size=LARGE)


def test_the_whole_log(snap_compare: Any) -> None:
    assert snap_compare(table(), terminal_size=SMALL, press=["L", "d", "e", "a", "l"])


def test_the_help(snap_compare: Any) -> None:
    assert snap_compare(table(), terminal_size=SMALL, press=["question_mark"])


def test_the_new_game_screen(snap_compare: Any) -> None:
    app = UnoApp(pacing=WAIT, config=TableConfig(seed=3))
    assert snap_compare(app, terminal_size=SMALL, press=["down", "down", "down", "right"])
