"""Classic UNO's face: the UNO table (shared with No Mercy), its words, help and round summary.

Where it lives: ``table.py`` (the table screen and its keys), ``pile.py`` and ``players.py`` (its
panels), ``words.py`` (the status line, the house rules in a line), ``help.py``, ``round_over.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..face import Face, HelpPage, Observation

if TYPE_CHECKING:
    from .round_over import ClassicSummary
    from .table import ClassicTableScreen


class ClassicFace(Face):
    """The official rules, with the house rules as options; drawn on the UNO table."""

    variant = "classic"
    title = "Classic UNO"
    blurb = "The official rules, with the house rules you like switched on."

    def table_screen(self) -> type[ClassicTableScreen]:
        from .table import ClassicTableScreen

        return ClassicTableScreen

    def help_page(self, options: dict[str, Any]) -> HelpPage:
        from .help import page

        return page(options)

    def round_summary(self, obs: Observation, names: Sequence[str]) -> ClassicSummary:
        from .round_over import ClassicSummary

        return ClassicSummary(obs, names)

    def status_line(self, obs: Observation, names: Sequence[str], deals: bool = True) -> str:
        from .words import status_line

        return status_line(obs, names, deals)

    def status_flags(self, obs: Observation) -> tuple[bool, bool]:
        from .words import status_flags

        return status_flags(obs)

    def unused_intents(self, options: dict[str, Any]) -> frozenset[str]:
        # With no bluffing, a Wild Draw Four is always legal: there is nothing to challenge.
        return frozenset({"challenge"}) if options.get("no_bluff") else frozenset()

    def rules_summary(self, options: dict[str, Any]) -> str:
        from .words import rules_summary

        return rules_summary(options)


class StrangerFace(ClassicFace):
    """A game this screen has no face for (a newer peer's variant): drawn on the UNO table, by its name."""

    def __init__(self, variant: str) -> None:
        self.variant = variant  # type: ignore[misc]
        self.title = variant  # type: ignore[misc]

    def rules_summary(self, options: dict[str, Any]) -> str:
        return ""
