"""No Mercy's face: the UNO table (classic's, in ``faces/classic/``) with its own help page and title."""

from __future__ import annotations

from typing import Any

from ..classic import ClassicFace
from ..face import HelpPage


class NoMercyFace(ClassicFace):
    """UNO Show 'Em No Mercy, drawn on the UNO table: its new cards have chips, stacks and the Mercy rule words."""

    variant = "nomercy"
    title = "No Mercy"
    blurb = "UNO Show 'Em No Mercy: +6, +10, Color Roulette, stacking, 7-0, and out at 25 cards."

    def help_page(self, options: dict[str, Any]) -> HelpPage:
        from .help import PAGE

        return PAGE

    def unused_intents(self, options: dict[str, Any]) -> frozenset[str]:
        return frozenset({"challenge"})  # no Wild Draw Four to challenge

    def rules_summary(self, options: dict[str, Any]) -> str:
        return ""  # its options are the game itself, not house rules
