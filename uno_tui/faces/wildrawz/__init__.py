"""Wild Rawz's face: the trick table, its words, help and round summary.

Where it lives: ``table.py`` (the table screen and its keys), ``widgets.py`` (the seats, the trick,
the draft row), ``words.py`` (the status line), ``help.py``, ``round_over.py`` (the breakdown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..face import Face, HelpPage, Observation

if TYPE_CHECKING:
    from .round_over import TrickSummary
    from .table import TrickTableScreen


class WildRawzFace(Face):
    """Trick-taking with UNO cards, on a table of its own."""

    variant = "wildrawz"
    title = "Wild Rawz"
    blurb = "Trick-taking with UNO cards: draft a trump, follow the colour, leave a trick, hit your target."

    def table_screen(self) -> type[TrickTableScreen]:
        from .table import TrickTableScreen

        return TrickTableScreen

    def help_page(self, options: dict[str, Any]) -> HelpPage:
        from .help import PAGE

        return PAGE

    def round_summary(self, obs: Observation, names: Sequence[str]) -> TrickSummary:
        from .round_over import TrickSummary

        return TrickSummary(obs, names)

    def status_line(self, obs: Observation, names: Sequence[str], deals: bool = True) -> str:
        from .words import status_line

        return status_line(obs, names, deals)

    def status_flags(self, obs: Observation) -> tuple[bool, bool]:
        from ..classic.words import status_flags

        return status_flags(obs)
