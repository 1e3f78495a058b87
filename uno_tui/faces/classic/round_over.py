"""The end of a round at the UNO table: every hand left, the points scored, who the Mercy rule knocked out."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.events import counted

from ...screens.round_over import HandsTable, Summary


class ClassicSummary(Summary):
    def headline(self) -> str:
        obs = self.obs
        winner = obs["winner"]
        verb = "win" if winner == obs["me"] else "wins"
        score = "score" if verb == "win" else "scores"
        return f"{self.who(winner)} {verb} the round and {score} {counted(obs['points'], 'point')}."

    def compose_body(self) -> ComposeResult:
        obs = self.obs
        with VerticalScroll(id="round-hands"):
            yield HandsTable(obs, self.names)
        out = [p for p, seat in enumerate(obs["players"]) if seat.get("out")]
        if out:
            who = ", ".join(self.who(p) for p in out)
            yield Static(f"Knocked out by the Mercy rule: {who} "
                         f"({obs.get('bonus', 0)} of the points are for them).", id="round-knockouts")
