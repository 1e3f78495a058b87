"""The end of a Wild Rawz round: each player's breakdown of tricks, leaving cards and target."""

from __future__ import annotations

from typing import Any, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from core.events import counted

from ...screens.round_over import Summary


class BreakdownTable(Widget):
    """Tricks, leaving cards, target, bonus and total per player, then the match totals."""

    COMPONENT_CLASSES = {"breakdown--best", "breakdown--dim", "breakdown--head"}

    def __init__(self, obs: dict[str, Any], names: Sequence[str]) -> None:
        super().__init__()
        self.obs = obs
        self.names = list(names)

    def render(self) -> Table:
        obs = self.obs
        best_style = self.get_component_rich_style("breakdown--best")
        dim = self.get_component_rich_style("breakdown--dim")
        head = self.get_component_rich_style("breakdown--head")
        rows = obs["breakdown"]
        best_round = max(r["total"] for r in rows)
        best_match = max(obs["scores"])
        table = Table(box=None, padding=(0, 1), expand=True, show_edge=False, header_style=head)
        table.add_column("player", ratio=1, no_wrap=True)
        for col in ("tricks", "left", "target", "bonus", "round"):
            table.add_column(col, justify="right", no_wrap=True)
        table.add_column("match", justify="right", no_wrap=True)
        order = sorted(range(len(rows)), key=lambda p: (-obs["scores"][p], p))
        for p in order:
            r = rows[p]
            name = "You" if p == obs["me"] else self.names[p]
            hit = r["bonus"] > 0
            table.add_row(
                Text(name, best_style if obs["scores"][p] == best_match else ""),
                str(r["tricks"]),
                str(r["left"]),
                Text(f"{r['target']}" + (" ✓" if hit else ""), best_style if hit else dim),
                Text(f"+{r['bonus']}" if hit else "–", best_style if hit else dim),
                Text(str(r["total"]), "bold" if r["total"] == best_round else ""),
                Text(str(obs["scores"][p]), "bold"),
            )
        return table


class TrickSummary(Summary):
    def headline(self) -> str:
        obs = self.obs
        rows = obs["breakdown"]
        best = max(r["total"] for r in rows)
        tops = [p for p, r in enumerate(rows) if r["total"] == best]
        if len(tops) == 1:
            verb = "score" if tops[0] == obs["me"] else "scores"
            return f"{self.who(tops[0])} {verb} most this round: {counted(best, 'point')}."
        return f"{self.together(tops)} share the best round: {counted(best, 'point')} each."

    def compose_body(self) -> ComposeResult:
        yield BreakdownTable(self.obs, self.names)
        yield Static("tricks and leaving cards score 1 each; hitting your target exactly "
                     "(marker − numbers left) scores 5 more.", id="round-target")
