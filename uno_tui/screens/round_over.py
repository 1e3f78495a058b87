"""The end of a round: every hand, the points scored, the match totals."""

from __future__ import annotations

from typing import Any, Literal, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets.cards import CardPainter, inline_card, sort_key

RoundOverChoice = Literal["next", "rematch", "quit", "stay"]
"""next: deal the next round; rematch: a new match; quit; stay: look at the table."""


class HandsTable(CardPainter):
    """Each player's remaining cards and match total, the winner first."""

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {"hands--winner", "hands--dim"}

    def __init__(self, obs: dict[str, Any], names: Sequence[str]) -> None:
        super().__init__()
        self.obs = obs
        self.names = list(names)

    def render(self) -> Table:
        obs = self.obs
        palette = self.palette()
        dim = self.get_component_rich_style("hands--dim")
        table = Table.grid(padding=(0, 2), expand=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        table.add_column(justify="right", no_wrap=True)
        order = sorted(range(len(self.names)), key=lambda p: (p != obs["winner"], p))
        for p in order:
            name = "You" if p == obs["me"] else self.names[p]
            hand = sorted(obs["hands"][p], key=sort_key)
            if obs["players"][p].get("out"):
                cards = Text("knocked out (Mercy)", dim)
            elif hand:
                cards = Text(" ").join(inline_card(c, palette) for c in hand)
            else:
                cards = Text("out! ", self.get_component_rich_style("hands--winner"))
                cards.append(f"+{obs['points']} points", self.get_component_rich_style("hands--winner"))
            total = Text(f"{obs['scores'][p]}", style="bold")
            total.append(f" / {obs['target_score']}", dim)
            style = self.get_component_rich_style("hands--winner") if p == obs["winner"] else None
            table.add_row(Text(name, style=style or ""), cards, total)
        return table


class RoundOverScreen(ModalScreen[RoundOverChoice]):
    BINDINGS = [
        Binding("n,enter", "choose('next')", "next round"),
        Binding("r", "choose('rematch')", "rematch", show=False),
        Binding("q", "choose('quit')", "quit", show=False),
        Binding("escape", "choose('stay')", "look at the table"),
    ]

    deals = True
    """Whether the player looking can deal the next round; a joiner waits for the host."""

    def __init__(self, obs: dict[str, Any], names: Sequence[str]) -> None:
        super().__init__()
        self.obs = obs
        self.names = list(names)

    def _who(self, p: int) -> str:
        return "You" if p == self.obs["me"] else self.names[p]

    def compose(self) -> ComposeResult:
        obs = self.obs
        winner = obs["winner"]
        verb = "win" if winner == obs["me"] else "wins"
        with Vertical(id="round-over"):
            yield Static(f"{self._who(winner)} {verb} the round and score{'' if verb == 'win' else 's'} "
                         f"{obs['points']} points.", id="round-headline")
            with VerticalScroll(id="round-hands"):
                yield HandsTable(obs, self.names)
            out = [p for p, seat in enumerate(obs["players"]) if seat.get("out")]
            if out:
                who = ", ".join(self._who(p) for p in out)
                yield Static(f"Knocked out by the Mercy rule: {who} "
                             f"({obs.get('bonus', 0)} of the points are for them).", id="round-knockouts")
            yield from self._compose_match_end()

    def _compose_match_end(self, unit: str = "points") -> ComposeResult:
        """Who won the match (or what wins it), and the keys."""
        obs = self.obs
        if obs["match_over"]:
            champ = obs["match_winner"]
            yield Static(f"{self._who(champ)} {'win' if champ == obs['me'] else 'wins'} the match "
                         f"with {obs['scores'][champ]} {unit}!", id="match-headline")
            keys = "r or n: rematch" if self.deals else "the host decides on a rematch"
            yield Static(f"{keys} · q: quit · esc: look at the table", id="round-keys")
        else:
            yield Static(f"First to {obs['target_score']} {unit} wins the match.", id="round-target")
            keys = "n or enter: next round" if self.deals else "the host deals the next round"
            yield Static(f"{keys} · esc: look at the table", id="round-keys")

    def on_mount(self) -> None:
        self.query_one("#round-over").border_title = self._title()

    def _title(self) -> str:
        return f"Round {self.obs['round'] + 1} is over"

    def action_choose(self, choice: RoundOverChoice) -> None:
        if choice == "next" and self.obs["match_over"]:
            choice = "rematch"  # the match is decided: "again" means a new match
        self.dismiss(choice)
