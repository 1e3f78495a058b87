"""The screens: the tables, the new-game screen and the modals that stack on them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .color_picker import ColorPicker
from .help import HelpScreen
from .new_game import NewGameChoice, NewGameScreen
from .round_over import RoundOverChoice, RoundOverScreen
from .table import TableScreen
from .target_picker import TargetPicker
from .trick_round_over import TrickRoundOverScreen
from .trick_table import TrickTableScreen

if TYPE_CHECKING:
    from ..session import Session

TRICK_VARIANTS: frozenset[str] = frozenset({"wildrawz"})
"""Variants played on the trick-taking table rather than the UNO table."""


def table_screen_for(session: "Session", *, pacing: tuple[float, float] = (0.6, 0.9)) -> TableScreen:
    """The table that fits the session's variant (local or over the network)."""
    variant = session.observation()["variant"]
    cls = TrickTableScreen if variant in TRICK_VARIANTS else TableScreen
    if variant == "diez":
        from .diez_table import DiezTableScreen

        cls = DiezTableScreen
    if variant == "extended":
        from .extended_table import ExtendedTableScreen

        cls = ExtendedTableScreen
    return cls(session, pacing=pacing)


__all__ = [
    "ColorPicker", "HelpScreen", "NewGameChoice", "NewGameScreen", "RoundOverChoice", "RoundOverScreen",
    "TableScreen", "TargetPicker", "TrickRoundOverScreen", "TrickTableScreen", "table_screen_for",
]
