"""The end of a round: what the round came to, then the match's standing and the keys.

One screen for every game. What it shows of the round (the headline, every hand or the breakdown
of the tricks) is the game's :class:`~uno_tui.faces.face.RoundSummary`, made by its face;
:class:`Summary` is the base those summaries share, and :class:`HandsTable` the table of hands
left that the shedding games show.
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from core.events import counted

from ..faces.face import RoundSummary
from ..narration import match_decided, next_round_by
from ..widgets.cards import UNO_CARDS, CardPainter, CardPainting

RoundOverChoice = Literal["next", "rematch", "quit", "stay"]
"""next: deal the next round; rematch: a new match; quit; stay: look at the table."""


class Summary:
    """The base of a game's round summary: the observation, the names, and how to name a seat."""

    unit = "points"

    def __init__(self, obs: dict[str, Any], names: Sequence[str]) -> None:
        self.obs = obs
        self.names = list(names)

    def who(self, p: int) -> str:
        return "You" if p == self.obs["me"] else self.names[p]

    def together(self, seats: Sequence[int]) -> str:
        """Several seats in words: "Ada, Ben and You"."""
        names = [self.who(p) for p in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def headline(self) -> str:
        raise NotImplementedError

    def compose_body(self) -> Iterable[Widget]:
        raise NotImplementedError


class HandsTable(CardPainter):
    """Each player's remaining cards and match total, the winner first.

    ``painting`` draws and sorts the game's cards; ``hand_points`` adds each hand's worth.
    """

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {"hands--winner", "hands--dim"}

    def __init__(self, obs: dict[str, Any], names: Sequence[str], painting: CardPainting = UNO_CARDS, *,
                 hand_points: bool = False) -> None:
        super().__init__()
        self.obs = obs
        self.names = list(names)
        self.painting = painting
        self.hand_points = hand_points

    def render(self) -> Table:
        obs = self.obs
        palette = self.palette()
        dim = self.get_component_rich_style("hands--dim")
        winner = self.get_component_rich_style("hands--winner")
        table = Table.grid(padding=(0, 2), expand=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        table.add_column(justify="right", no_wrap=True)
        order = sorted(range(len(self.names)), key=lambda p: (p != obs["winner"], p))
        for p in order:
            name = "You" if p == obs["me"] else self.names[p]
            hand = sorted(obs["hands"][p], key=self.painting.order)
            if obs["players"][p].get("out"):
                cards = Text("knocked out (Mercy)", dim)
            elif hand:
                cards = Text(" ").join(self.painting.inline(c, palette) for c in hand)
                if self.hand_points:
                    cards.append(f"  ({obs['hand_points'][p]})", dim)
            else:
                cards = Text("out! ", winner)
                cards.append(f"+{counted(obs['points'], 'point')}", winner)
            total = Text(f"{obs['scores'][p]}", style="bold")
            total.append(f" / {obs['target_score']}", dim)
            table.add_row(Text(name, style=winner if p == obs["winner"] else ""), cards, total)
        return table


class RoundOverScreen(ModalScreen[RoundOverChoice]):
    """The round's summary and the match's standing; n deals on, r a rematch, esc looks at the table."""

    BINDINGS = [
        Binding("n,enter", "choose('next')", "next round"),
        Binding("r", "choose('rematch')", "rematch", show=False),
        Binding("q", "choose('quit')", "quit", show=False),
        Binding("escape", "choose('stay')", "look at the table"),
    ]

    def __init__(self, obs: dict[str, Any], summary: RoundSummary, *, deals: bool | None = True) -> None:
        super().__init__()
        self.obs = obs
        self.summary = summary
        self.deals = deals
        """Whether the player looking can deal the next round; a joiner waits for the host (None: the
        table deals it by itself)."""
        self.gone: str | None = None
        """Why the table is gone (a network table its host closed), or None: then nothing comes next."""
        self.dealt = False
        """Whether the next round is dealt already (a table that deals by itself): the keys go to it."""

    def compose(self) -> ComposeResult:
        with Vertical(id="round-over"):
            yield Static(self.summary.headline(), id="round-headline")
            yield from self.summary.compose_body()
            yield from self._compose_match_end()

    def next_dealt(self) -> None:
        """The table dealt the next round by itself (a sealed table, once every audit was in): the
        keys now go to it."""
        self.dealt = True
        if not self.gone and not match_decided(self.obs):
            for keys in self.query("#round-keys"):
                keys.update(self._next_keys())

    def _next_keys(self) -> str:
        """The keys under a round that does not end the match."""
        if self.dealt:
            keys = "the next round is dealt · n or enter: to the table"
        else:
            keys = "n or enter: next round" if self.deals else next_round_by(self.deals)
            keys += " · esc: look at the table"
        limit = self.obs.get("rounds_in_match")
        if limit:  # a match of a fixed number of rounds (Wild Rawz; a host's --rounds)
            left = limit - self.obs["round"] - 1
            return f"{left} more round{'s' if left != 1 else ''} in the match · {keys}"
        return keys

    def table_gone(self, reason: str) -> None:
        """The table closed (``reason``): no next round or rematch comes, whatever the keys said."""
        self.gone = reason
        for keys in self.query("#round-keys"):
            keys.update(self._gone_keys())

    def _gone_keys(self) -> str:
        reason = self.gone or ""
        return f"{reason[:1].upper()}{reason[1:]} · q: quit · esc: look at the table"

    def _compose_match_end(self) -> ComposeResult:
        """Who won the match (or what wins it, or how many rounds are left), and the keys."""
        obs, unit = self.obs, self.summary.unit
        if match_decided(obs):
            yield Static(self._match_end(), id="match-headline")
            keys = "r or n: rematch" if self.deals else "the host decides on a rematch"
            yield Static(self._gone_keys() if self.gone else f"{keys} · q: quit · esc: look at the table",
                         id="round-keys")
            return
        if self.gone:
            yield Static(self._gone_keys(), id="round-keys")
            return
        if not obs.get("rounds_in_match"):
            yield Static(f"First to {obs['target_score']} {unit} wins the match.", id="round-target")
        yield Static(self._next_keys(), id="round-keys")

    def on_mount(self) -> None:
        obs = self.obs
        of = f" of {obs['rounds_in_match']}" if obs.get("rounds_in_match") else ""
        self.query_one("#round-over").border_title = f"Round {obs['round'] + 1}{of} is over"

    def _match_end(self) -> str:
        """Who won the match; or, for a host's match of R rounds played out, that it was the last."""
        obs, unit = self.obs, self.summary.unit
        if not obs["match_over"]:  # a host's --rounds: the scores stand, no winner is named
            n = obs["rounds_in_match"]
            return f"That was the last of the match's {n} round{'s' if n != 1 else ''}."
        winners = obs.get("match_winners") or [obs.get("match_winner")]
        if len(winners) == 1:
            champ = winners[0]
            return (f"{self.summary.who(champ)} {'win' if champ == obs['me'] else 'wins'} the match "
                    f"with {obs['scores'][champ]} {unit}!")
        return f"{self.summary.together(winners)} share the match with {obs['scores'][winners[0]]} {unit}!"

    def action_choose(self, choice: RoundOverChoice) -> None:
        if choice == "next" and match_decided(self.obs):
            choice = "rematch"  # the match is decided: "again" means a new match
        self.dismiss(choice)
