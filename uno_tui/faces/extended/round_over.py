"""The end of a round of the extended rules: who went out, in order, and the hands left over."""

from __future__ import annotations

from typing import Any, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll

from core.events import counted

from ...screens.round_over import Summary
from ...widgets.cards import CardPainter
from .cards import ext_inline, sort_key


class ExtHandsTable(CardPainter):
    """Who went out, in order, with the points each scored; the hand left over."""

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {"hands--winner", "hands--dim"}

    def __init__(self, obs: dict[str, Any], names: Sequence[str]) -> None:
        super().__init__()
        self.obs, self.names = obs, list(names)

    def render(self) -> Table:
        obs = self.obs
        palette = self.palette()
        win = self.get_component_rich_style("hands--winner")
        dim = self.get_component_rich_style("hands--dim")
        finished = obs.get("round_winners") or obs.get("finished") or []
        n = len(self.names)
        table = Table.grid(padding=(0, 2), expand=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        table.add_column(justify="right", no_wrap=True)
        order = list(finished) + [p for p in range(n) if p not in finished]
        for p in order:
            name = "You" if p == obs["me"] else self.names[p]
            if p in finished:
                place = finished.index(p)
                cards = Text(f"out #{place + 1}: +{counted(n - 1 - place, 'point')}", win)
            else:
                hand = sorted(obs["hands"][p], key=sort_key)
                cards = Text(" ").join(ext_inline(c, palette) for c in hand) if hand else Text("–", dim)
            total = Text(f"{obs['scores'][p]}", style="bold")
            total.append(f" / {obs['target_score']}", dim)
            table.add_row(Text(name, style=win if p in finished[:1] else ""), cards, total)
        return table


class ExtendedSummary(Summary):
    def headline(self) -> str:
        finished = self.obs.get("round_winners") or []
        first = finished[0] if finished else self.obs["winner"]
        return f"{self.who(first)} went out first; every winner scores the players still in."

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="round-hands"):
            yield ExtHandsTable(self.obs, self.names)
