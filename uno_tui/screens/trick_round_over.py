"""The end of a Wild Rawz round: each player's breakdown and the match standings."""

from __future__ import annotations

from typing import Any, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from .round_over import RoundOverScreen



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


class TrickRoundOverScreen(RoundOverScreen):
    def _together(self, seats: Sequence[int]) -> str:
        names = [self._who(p) for p in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def compose(self) -> ComposeResult:
        obs = self.obs
        rows = obs["breakdown"]
        best = max(r["total"] for r in rows)
        tops = [p for p, r in enumerate(rows) if r["total"] == best]
        if len(tops) == 1:
            verb = "score" if tops[0] == obs["me"] else "scores"
            headline = f"{self._who(tops[0])} {verb} most this round: {best} points."
        else:
            headline = f"{self._together(tops)} share the best round: {best} points each."
        left = obs["rounds_in_match"] - obs["round"] - 1
        with Vertical(id="round-over"):
            yield Static(headline, id="round-headline")
            yield BreakdownTable(obs, self.names)
            yield Static("tricks and leaving cards score 1 each; hitting your target exactly "
                         "(marker − numbers left) scores 5 more.", id="round-target")
            if obs["match_over"]:
                winners = obs.get("match_winners") or []
                if len(winners) == 1:
                    champ = winners[0]
                    verb = "win" if champ == obs["me"] else "wins"
                    text = f"{self._who(champ)} {verb} the match with {obs['scores'][champ]} points!"
                else:
                    text = f"{self._together(winners)} share the match with {obs['scores'][winners[0]]} points!"
                yield Static(text, id="match-headline")
                keys = "r or n: rematch" if self.deals else "the host decides on a rematch"
                yield Static(f"{keys} · q: quit · esc: look at the table", id="round-keys")
            else:
                more = f"{left} more round{'s' if left != 1 else ''} in the match"
                keys = "n or enter: next round" if self.deals else "the host deals the next round"
                yield Static(f"{more} · {keys} · esc: look at the table", id="round-keys")

    def _title(self) -> str:
        return f"Round {self.obs['round'] + 1} of {self.obs['rounds_in_match']} is over"
