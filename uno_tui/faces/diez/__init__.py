"""Diez's face: its table of several piles and a bag of tokens, its words, help and round summary.

Where it lives: ``table.py`` (the table screen, its keys and its decisions), ``widgets.py`` (the
piles and the players with their tokens), ``hand.py``, ``cards.py`` (White and Blank cards on
chips), ``pickers.py`` (the searched pile), ``words.py`` (the status line, every action in words,
the tokens), ``help.py``, ``round_over.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..face import Face, HelpPage, Observation

if TYPE_CHECKING:
    from ...widgets.cards import CardPainting
    from .round_over import DiezSummary
    from .table import DiezTableScreen


class DiezFace(Face):
    """170 cards, several discard piles, challenges, jump-ins and tokens."""

    variant = "diez"
    title = "Diez"
    blurb = "170 cards, several discard piles, challenges, jump-ins and a bag of 24 tokens."

    def table_screen(self) -> type[DiezTableScreen]:
        from .table import DiezTableScreen

        return DiezTableScreen

    def help_page(self, options: dict[str, Any]) -> HelpPage:
        from .help import PAGE

        return PAGE

    def round_summary(self, obs: Observation, names: Sequence[str]) -> DiezSummary:
        from .round_over import DiezSummary

        return DiezSummary(obs, names)

    def card_painting(self) -> CardPainting:
        from .cards import DIEZ_CARDS

        return DIEZ_CARDS

    def status_line(self, obs: Observation, names: Sequence[str], deals: bool = True) -> str:
        from .words import status_line

        return status_line(obs, names, deals)

    def status_flags(self, obs: Observation) -> tuple[bool, bool]:
        from .words import status_flags

        return status_flags(obs)
