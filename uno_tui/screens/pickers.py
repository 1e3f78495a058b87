"""The pickers: a modal list the human chooses one thing from, with the keyboard or a click.

:class:`ListPicker` is what they share: the values, the one chosen (``index``, drawn ``-chosen``),
moving, numbers, enter, escape and clicks. Each picker lays its rows out and lists its keys:

* :class:`ColorPicker` names a colour for a wild (r y g b, or ←/→ and enter);
* :class:`TargetPicker` chooses a player (the 7 of 7-0, a duel, who plays next);
* :class:`ChoicePicker` chooses one of a list of legal actions in words (Diez's decisions);
* :class:`ActionMenu` chooses one of the moves listed, a row may have a key of its own (the extended rules).

Each dismisses with the value chosen, or ``None`` when closed with escape.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Optional, Sequence, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Static

from core import COLORS, Action

T = TypeVar("T")


class PickRow(Static):
    """One value to pick; a click picks it."""

    def __init__(self, index: int, content: str | Text, *, classes: str) -> None:
        super().__init__(content, classes=classes)
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        picker = self.screen
        assert isinstance(picker, ListPicker)
        picker.pick(self.index)


class ListPicker(ModalScreen[Optional[T]], Generic[T]):
    """Choose one of ``values``: the keys move the choice (``index``), enter takes it, escape closes."""

    SCROLLS: ClassVar[bool] = False
    """The rows scroll: keep the chosen one in view."""

    ASKS_MOVE: ClassVar[bool] = True
    """Its choices are moves of the table's position when it opened: the table closes it when that
    position's moves change under it (a turn timer, a move made for you, an out-of-turn chance gone)."""

    index: reactive[int] = reactive(0)

    def __init__(self, values: Sequence[T], *, start: int = 0) -> None:
        super().__init__()
        self.values = list(values)
        self.set_reactive(ListPicker.index, start)

    def on_mount(self) -> None:
        self.watch_index(self.index)

    def watch_index(self, index: int) -> None:
        for row in self.query(PickRow):
            row.set_class(row.index == index, "-chosen")
            if self.SCROLLS and row.index == index:
                row.scroll_visible(animate=False)

    def pick(self, index: int) -> None:
        self.dismiss(self.values[index])

    def action_move(self, step: int) -> None:
        if self.values:
            self.index = (self.index + step) % len(self.values)

    def action_number(self, n: int) -> None:
        if 1 <= n <= len(self.values):
            self.pick(n - 1)

    def action_choose(self) -> None:
        if self.values:
            self.pick(self.index)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


NUMBER_KEYS = [Binding(str(n), f"number({n})", show=False) for n in range(1, 10)]


class ColorPicker(ListPicker[str]):
    """Name the colour for a wild: r/y/g/b, or arrows and enter; escape cancels."""

    BINDINGS = [
        Binding("r", "pick_color('red')", "red", show=False),
        Binding("y", "pick_color('yellow')", "yellow", show=False),
        Binding("g", "pick_color('green')", "green", show=False),
        Binding("b", "pick_color('blue')", "blue", show=False),
        Binding("left,h", "move(-1)", "previous", show=False),
        Binding("right,l", "move(1)", "next", show=False),
        Binding("enter,space", "choose", "choose"),
        Binding("escape", "dismiss_none", "cancel"),
    ]

    def __init__(self, card_name: str, hand: Sequence[dict[str, Any]] = (), *, title: str | None = None) -> None:
        # How many of each colour you hold: the usual reason to name one, so the picker starts there.
        self.held = {c: sum(1 for card in hand if card["color"] == c) for c in COLORS}
        super().__init__(COLORS, start=COLORS.index(max(COLORS, key=lambda c: self.held[c])))
        self.card_name = card_name
        self.title_text = title or f"Name a colour for your {card_name}"

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(self.title_text, id="picker-title")
            with Horizontal(id="swatches"):
                for i, color in enumerate(COLORS):
                    held = self.held[color]
                    cards = f"{held} card" + ("" if held == 1 else "s")
                    yield PickRow(i, f"[b]{color[0].upper()}[/b]{color[1:]}\n{cards}", classes=f"swatch -{color}")
            yield Static("r y g b · or ←/→ and enter · esc cancels", id="picker-keys")

    def action_pick_color(self, color: str) -> None:
        self.dismiss(color)


class TargetPicker(ListPicker[int]):
    """Choose a player: ↑/↓ (or ←/→) and enter, or the number shown; escape cancels.

    Lists the players the legal actions allow (the engine decides who may be chosen), with their
    card counts; dismisses with the seat.
    """

    BINDINGS = [
        Binding("up,left,k,h", "move(-1)", "previous", show=False),
        Binding("down,right,j,l", "move(1)", "next", show=False),
        Binding("enter,space", "choose", "choose"),
        Binding("escape", "dismiss_none", "cancel"),
        *NUMBER_KEYS,
    ]

    def __init__(self, title: str, seats: Sequence[int], names: Sequence[str], cards: Sequence[int],
                 *, hand: int | None = None) -> None:
        """``seats``: who may be chosen; ``cards``: every seat's card count; ``hand``: yours."""
        seats = list(seats)
        # Start on the smallest hand: the usual reason to swap.
        start = min(range(len(seats)), key=lambda i: (cards[seats[i]], i)) if seats else 0
        super().__init__(seats, start=start)
        self.title_text = title
        self.names = list(names)
        self.cards = list(cards)
        self.hand = hand

    @property
    def seats(self) -> list[int]:
        return self.values

    def compose(self) -> ComposeResult:
        width = max((len(self.names[s]) for s in self.seats), default=4)
        with Vertical(id="target-picker"):
            yield Static(self.title_text, id="target-title")
            for n, seat in enumerate(self.seats, start=1):
                count = self.cards[seat]
                label = Text(f" {n}  ")
                label.append(self.names[seat].ljust(width), "bold")
                label.append(f"  {count:>2} card{'' if count == 1 else 's'} ")
                label.append("▮" * min(count, 12) + ("+" if count > 12 else ""), "dim")
                yield PickRow(n - 1, label, classes="target")
            mine = "" if self.hand is None else f"You hold {self.hand} card{'' if self.hand == 1 else 's'}.\n"
            yield Static(f"{mine}↑/↓ enter, or 1-{len(self.seats)} · esc cancels", id="target-keys")


CHOICE_CSS = """
ChoicePicker { align: center middle; background: $background 60%; }
#choice-picker {
    width: auto; min-width: 48; max-width: 96%; height: auto; max-height: 90%;
    border: thick $accent; background: $surface; padding: 1 2;
}
#choice-title { text-style: bold; width: 100%; margin-bottom: 1; }
#choice-list { height: auto; max-height: 20; width: auto; }
#choice-keys { color: $text-muted; width: 100%; margin-top: 1; }
#choice-note { width: 100%; max-width: 60; margin-top: 1; }
.choice { width: auto; min-width: 44; height: 1; }
.choice.-chosen { background: $accent 40%; text-style: bold; }
"""


class ChoicePicker(ListPicker[Action]):
    """Choose one of a list of actions in words: ↑/↓ and enter, or the number shown; escape closes."""

    DEFAULT_CSS = CHOICE_CSS
    SCROLLS = True
    BINDINGS = [
        Binding("up,k,left,h", "move(-1)", "previous", show=False),
        Binding("down,j,right,l", "move(1)", "next", show=False),
        Binding("enter,space", "choose", "choose"),
        Binding("escape", "dismiss_none", "close"),
        *NUMBER_KEYS,
        Binding("0", "number(10)", show=False),
    ]

    def __init__(self, title: str, options: Sequence[tuple[str, Action]], *, note: str = "",
                 kind: str = "choice") -> None:
        super().__init__([action for _, action in options])
        self.title_text = title
        self.options = list(options)
        self.note = note
        self.kind = kind
        """What is being chosen (the step's name, "pile" or "actions"): for tests and the reader."""

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-picker"):
            yield Static(self.title_text, id="choice-title")
            with VerticalScroll(id="choice-list"):
                for i, (label, _) in enumerate(self.options):
                    key = str(i + 1) if i < 9 else ("0" if i == 9 else " ")
                    yield PickRow(i, Text(f" {key}  ") + Text(label), classes="choice")
            n = min(len(self.options), 9)
            keys = ("enter, or 1" if n == 1 else f"↑/↓ enter, or 1-{n}") if self.options else ""
            if self.note:
                yield Static(self.note, id="choice-note")
            yield Static(" · ".join(x for x in (keys, "esc closes") if x), id="choice-keys")


class ActionMenu(ListPicker[dict[str, Any]]):
    """Choose one of the moves listed (in words): ↑/↓ and enter, a number, or the row's own key."""

    SCROLLS = True
    BINDINGS = [
        Binding("up,k", "move(-1)", "previous", show=False),
        Binding("down,j", "move(1)", "next", show=False),
        Binding("enter,space", "choose", "choose"),
        Binding("escape", "dismiss_none", "cancel"),
    ]

    def __init__(self, title: str, rows: Sequence[tuple[str, dict[str, Any], str | None]]) -> None:
        """``rows``: (words, the legal action, a key of its own or None)."""
        super().__init__([action for _, action, _ in rows])
        self.title_text = title
        self.rows = list(rows)

    def compose(self) -> ComposeResult:
        with Vertical(id="moves"):
            yield Static(self.title_text, id="moves-title")
            with VerticalScroll(id="moves-list"):
                for i, (words, _, key) in enumerate(self.rows):
                    tag = key if key else (str(i + 1) if i < 9 else " ")
                    yield PickRow(i, Text.assemble((f" {tag} ", "bold"), f" {words}"), classes="move")
            yield Static("↑/↓ enter, or the key shown · esc closes", id="moves-keys")

    def on_key(self, event: events.Key) -> None:
        for i, (_, action, key) in enumerate(self.rows):
            if key is not None and event.character == key or key is None and event.character == str(i + 1):
                event.stop()
                self.pick(i)
                return
