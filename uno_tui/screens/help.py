"""The help screen: the keys and the rules in brief."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card in your hand (or click it; click again to play)"),
    ("enter space", "play the chosen card; a wild then asks for a colour (r y g b)"),
    ("d", "draw a card; also takes the 4 cards of a Wild Draw Four played on you"),
    ("p", "keep the card you just drew and pass (or pass when nothing is left to draw)"),
    ("u", "call UNO: as you play your second-to-last card, or right after"),
    ("c", "challenge a Wild Draw Four played on you"),
    ("x", "catch a player who has one card and did not call UNO"),
    ("n", "deal the next round (a rematch once the match is over)"),
    ("?", "this help"),
    ("ctrl+q", "quit"),
]

RULES: list[tuple[str, str]] = [
    ("Play", "Match the top card by colour or by rank (number or symbol). Wilds go on anything "
             "and name the colour in play. Cannot or will not play? Draw a card; if it fits you "
             "may play it at once (enter) or keep it (p)."),
    ("S", "Skip: the next player misses a turn."),
    ("R", "Reverse: play changes direction (with two players it works as a Skip)."),
    ("+2", "Draw Two: the next player draws 2 and misses a turn."),
    ("W", "Wild: name the colour in play."),
    ("W+4", "Wild Draw Four: name a colour; the next player draws 4 and misses a turn. Play it "
            "only when you hold no card of the colour in play: the victim may challenge (c). "
            "A bluffer then draws the 4 instead; a wrong challenge costs the challenger 6."),
    ("UNO", "Call it (u) when you play your second-to-last card. Anyone who catches you with "
            "one card before you call (x) makes you draw 2."),
    ("Score", "Empty your hand to win the round and score the cards left in the other hands: "
              "numbers at face value, S R +2 20 each, wilds 50. First to the target wins the match."),
    ("Cards", "A card shows its colour and notation: R7 red 7, GS green Skip, BR blue Reverse, "
              "Y+2 yellow Draw Two. Filled cards with a dot can be played now; outlined ones "
              "cannot; ▲ marks the chosen card."),
]


def _grid(title: str, rows: list[tuple[str, str]]) -> Table:
    """Two columns with a hanging indent: the term, then text that wraps beside it."""
    table = Table.grid(padding=(0, 2), expand=True)
    table.title = title
    table.title_justify = "left"
    table.title_style = "bold"
    table.add_column(no_wrap=True, style="bold", min_width=11)
    table.add_column(ratio=1)
    for term, text in rows:
        table.add_row(term, Text(text))
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,question_mark,q,enter", "close", "close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(_grid("Keys", KEYS), id="help-keys")
            yield Static(_grid("Classic UNO in brief", RULES), id="help-rules")
            yield Static("esc, ? or q closes this help", id="help-close")

    def on_mount(self) -> None:
        self.query_one("#help").border_title = "Help"

    def action_close(self) -> None:
        self.dismiss(None)
