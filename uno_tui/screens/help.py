"""The help screen: the keys and the rules in brief."""

from __future__ import annotations

from typing import Any

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
    ("L", "the whole log: every line of the game so far, to scroll and search"),
    ("?", "this help"),
    ("ctrl+q", "quit (a round under way asks first; the game is saved for `uno-tui play --resume`)"),
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


HOUSE_RULES: dict[str, tuple[str, str]] = {
    "stacking": ("Stacking", "Answer a draw card played on you with another one (same: the same kind; "
                             "progressive: one as big or bigger) and the total passes on; d takes them all."),
    "seven_o": ("7-0", "A 7 swaps hands with a player you choose (a list opens); a 0 passes every hand "
                       "to the next player in the direction of play."),
    "jump_in": ("Jump-in", "Hold the very card on top (same colour and number)? Play it out of turn with "
                           "enter; play continues from you."),
    "force_play": ("Force play", "A card you draw that can be played must be played: no keeping it (p)."),
    "no_bluff": ("No bluffing", "A Wild Draw Four may be played only without a card of the colour in play; "
                                "there is nothing to challenge."),
    "draw_until_playable": ("Draw until", "Drawing keeps going until a playable card turns up."),
    "uno_penalty": ("UNO penalty", "Caught without calling UNO: draw this many cards."),
}

NOMERCY_KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card in your hand"),
    ("enter space", "play it; a wild asks for a colour, a 7 asks whom to swap hands with"),
    ("d", "draw (until a playable card turns up); when a stack is on you, take all its cards"),
    ("u", "call UNO as you play your second-to-last card"),
    ("x", "catch a player who has one card and did not call UNO"),
    ("n", "deal the next round"),
    ("L", "the whole log: every line of the game so far, to scroll and search"),
    ("?", "this help"),
    ("ctrl+q", "quit (a round under way asks first; the game is saved for `uno-tui play --resume`)"),
]

NOMERCY_RULES: list[tuple[str, str]] = [
    ("Play", "As in UNO: match the colour or the symbol. Cannot play? Draw until you can, then you must "
             "play the card you drew. A 7 swaps hands with a player you choose; a 0 passes every hand on."),
    ("Stacking", "Every draw card (+2 +4 W+6 W+10 WR+4) can answer one played on you if it is as big or "
                 "bigger: the total grows and moves on. The table shows the total and who must answer; "
                 "d takes them all and you miss your turn."),
    ("+4", "Draw Four in a colour: the next player draws 4 (stackable)."),
    ("SA", "Skip Everyone: everyone else misses a turn; you play again."),
    ("DA", "Discard All: every card of its colour in your hand goes down with it."),
    ("WR+4", "Wild Reverse Draw Four: name a colour, play reverses, and the new next player draws 4."),
    ("W+6 W+10", "Wild Draw Six / Ten: name a colour; the next player draws 6 or 10."),
    ("WCR", "Wild Color Roulette: the next player names a colour, then turns up cards until one of that "
            "colour shows, keeps them all and misses a turn."),
    ("Mercy", "Hold 25 cards or more and you are out of the round. The winner scores the cards left in "
              "the other hands plus 250 per player knocked out; first to the target wins the match."),
    ("Cards", "New cards show their notation on their chip: +4 SA DA WR+4 W+6 W+10 WCR. Cards you just "
              "drew are marked new."),
]

WILDRAWZ_KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card (in the draft: a face-up card of the row)"),
    ("enter space", "take the chosen card from the row (draft), or play it to the trick"),
    ("v", "leave the trick with the chosen card (once per trick, not the leader)"),
    ("n", "deal the next round (a rematch once the match is over)"),
    ("L", "the whole log: every line of the game so far, to scroll and search"),
    ("?", "this help"),
    ("ctrl+q", "quit (a round under way asks first; the game is saved for `uno-tui play --resume`)"),
]

WILDRAWZ_RULES: list[tuple[str, str]] = [
    ("Idea", "A trick-taking game with UNO cards: no discarding to match, no UNO calls. Score tricks, "
             "score the cards you leave with, and aim to hit your target exactly."),
    ("Draft", "Number cards lie face up in a row. In turn, each player takes one into their hand until "
              "one is left: its colour and number are the trump for the round."),
    ("Tricks", "The leader plays any card; the others follow the led colour if they can, otherwise play "
               "anything. The strongest card wins the trick and its winner leads next."),
    ("Strength", "The trump card itself; then the trump number in other colours; then the trump colour "
                 "9 to 0, then its Skip; then the led colour 9 to 0, then its Skip. Anything else never "
                 "wins. Between equal cards the later one wins."),
    ("Leave", "Once per trick, one player other than the leader may leave instead of playing (v): they "
              "lay any card beside their marker. It scores 1 point, lowers their target by its number "
              "(a Skip counts 0), and the leaver leads the next trick."),
    ("Target", "Your marker (8 with 3 players, 7 with 4) minus the numbers of your leaving cards. "
               "Win exactly that many tricks for a 5-point bonus."),
    ("Score", "1 per trick won, 1 per leaving card, plus the bonus. The match lasts two turns of the "
              "start marker round the table (6 rounds with 3 players, 8 with 4); the highest total wins."),
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

    def __init__(self, variant: str = "classic", options: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.options = options or {}

    def _sections(self) -> tuple[list[tuple[str, str]], str, list[tuple[str, str]]]:
        if self.variant == "nomercy":
            return NOMERCY_KEYS, "No Mercy in brief", NOMERCY_RULES
        if self.variant == "wildrawz":
            return WILDRAWZ_KEYS, "Wild Rawz in brief", WILDRAWZ_RULES
        keys = KEYS
        if self.options.get("no_bluff"):
            keys = [k for k in keys if k[0] != "c"]
        return keys, "Classic UNO in brief", RULES

    def compose(self) -> ComposeResult:
        keys, title, rules = self._sections()
        with VerticalScroll(id="help"):
            yield Static(_grid("Keys", keys), id="help-keys")
            yield Static(_grid(title, rules), id="help-rules")
            house = self._house_rules()
            if house:
                yield Static(_grid("House rules at this table", house), id="help-house")
            yield Static("esc, ? or q closes this help", id="help-close")

    def _house_rules(self) -> list[tuple[str, str]]:
        if self.variant != "classic":
            return []
        rows = []
        for key, (term, text) in HOUSE_RULES.items():
            value = self.options.get(key)
            if key == "stacking" and value not in (None, "none"):
                rows.append((f"{term}: {value}", text))
            elif key == "uno_penalty" and value not in (None, 2):
                rows.append((term, text.replace("this many", str(value))))
            elif key not in ("stacking", "uno_penalty") and value:
                rows.append((term, text))
        return rows

    def on_mount(self) -> None:
        self.query_one("#help").border_title = "Help"

    def action_close(self) -> None:
        self.dismiss(None)
