"""The end of a Diez round: every hand left with its worth, in card points or in rounds won."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll

from core.events import counted

from ...screens.round_over import HandsTable, Summary
from .cards import DIEZ_CARDS


class DiezSummary(Summary):
    @property
    def rounds(self) -> bool:
        """The match is counted in rounds won, not in card points (the ``scoring`` option)."""
        return (self.obs.get("options") or {}).get("scoring") == "rounds"

    @property
    def unit(self) -> str:  # type: ignore[override]
        return "rounds won" if self.rounds else "points"

    def headline(self) -> str:
        winner = self.obs["winner"]
        verb = "win" if winner == self.obs["me"] else "wins"
        gain = "a round point" if self.rounds else counted(self.obs['points'], 'point')
        return f"{self.who(winner)} {verb} the round and score{'' if verb == 'win' else 's'} {gain}."

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="round-hands"):
            yield HandsTable(self.obs, self.names, DIEZ_CARDS, hand_points=True)
