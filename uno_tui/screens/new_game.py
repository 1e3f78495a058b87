"""The new-game screen: choose the variant, the table and the house rules, then deal.

Keyboard first: ↑/↓ move between lines, ←/→ change a value, space flips a
switch, enter deals, escape quits. It dismisses with a :class:`NewGameChoice`
(or ``None``). The values offered come from the engine (the variant's player
range and its options with their docs); the engine checks them again when
the game is made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static

import core

from ..faces import TABLE_VARIANTS, face_for, variant_title

STACKING_WORDS = {
    "none": "none: a draw card hits at once",
    "same": "same: answer +2 with +2, W+4 with W+4",
    "progressive": "progressive: answer with one as big or bigger",
}


@dataclass
class NewGameChoice:
    """What the new-game screen returns: everything a local table needs besides seed and name."""

    variant: str = "classic"
    players: int = 4
    bots: str = "normal"
    options: dict[str, Any] = field(default_factory=dict)
    english: bool = False
    """The extended rules' cards named in English rather than Chinese (a display choice, no rule)."""


@dataclass
class FormLine:
    key: str
    label: str
    values: Sequence[Any]
    """The values offered, in order (a switch: False, True)."""
    switch: bool = False
    doc: str = ""


def _option_doc(variant: str, name: str) -> str:
    option = core.variant_class(variant).OPTIONS.get(name)
    return option.doc if option is not None else ""


class Form(Widget):
    """The lines of the form with the chosen one highlighted (drawn by the screen's state)."""

    COMPONENT_CLASSES = {"form--cursor", "form--label", "form--value", "form--dim", "form--on", "form--start"}
    cursor: reactive[int] = reactive(0)
    version: reactive[int] = reactive(0)  # bumped by the screen when a value changes

    def render(self) -> Table:
        screen = self.screen
        assert isinstance(screen, NewGameScreen)
        def fg(name: str) -> Style:
            # Foreground only, so the chosen line's background runs across the whole row.
            full = self.get_component_rich_style(name)
            return Style(color=full.color, bold=full.bold)

        cursor_style = self.get_component_rich_style("form--cursor")
        label_style, value_style, dim, on = fg("form--label"), fg("form--value"), fg("form--dim"), fg("form--on")
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(width=1, no_wrap=True)
        table.add_column(no_wrap=True, min_width=20)
        table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        lines = screen.lines()
        for i, line in enumerate(lines):
            here = i == self.cursor
            value = screen.values[line.key]
            if line.switch:
                shown = Text("[x] on" if value else "[ ] off", on if value else dim)
            else:
                shown = Text()
                idx = list(line.values).index(value)
                shown.append("◂ " if idx > 0 else "  ", dim)
                shown.append(screen.describe(line.key, value), value_style)
                shown.append(" ▸" if idx < len(line.values) - 1 else "  ", dim)
            table.add_row("▶" if here else " ", Text(line.label, label_style), shown,
                          style=cursor_style if here else None)
        start = Text(f"  {screen.START_LABEL} (enter)  ", self.get_component_rich_style("form--start"))
        table.add_row("", "", "")
        table.add_row("", start, "")
        return table

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        assert isinstance(self.screen, NewGameScreen)
        return len(self.screen.lines()) + 2


LEVEL_ORDER = ("random", "easy", "normal", "hard")
LEVEL_DOC = {
    "random": "random: plays a random card that fits, draws only when it must (the yardstick of the UNO "
              "literature).",
    "easy": "easy: any legal move at random, drawing included; for beginners.",
    "normal": "normal: sheds high cards, keeps wilds for when they matter, calls and catches UNO.",
    "hard": "hard: searches thousands of deals of the cards it cannot see, about 0.3 s a move "
            "(uno-tui play --think sets it). It sees only what its seat sees.",
}
"""What each bot level does, shown under the form while the bots line is chosen."""


class NewGameScreen(Screen[NewGameChoice | None]):
    """Set up a local game."""

    START_LABEL = "Deal the cards"
    """The button under the form (a subclass that opens a table says so)."""

    AUTO_FOCUS = None
    BINDINGS = [
        Binding("up,k", "move(-1)", "line", key_display="↑↓"),
        Binding("down,j,tab", "move(1)", "line", show=False),
        Binding("left,h", "change(-1)", "change", key_display="←→"),
        Binding("right,l", "change(1)", "change", show=False),
        Binding("space", "toggle", "switch"),
        Binding("e", "english", "English card names"),
        Binding("enter", "start", "deal", key_display="⏎"),
        Binding("escape", "cancel", "quit"),
    ]

    def __init__(self, initial: NewGameChoice | None = None) -> None:
        super().__init__()
        from core.bots import LEVELS

        # Weakest to strongest, then any level a later version adds.
        self.levels = [lv for lv in LEVEL_ORDER if lv in LEVELS] + sorted(set(LEVELS) - set(LEVEL_ORDER))
        start = initial or NewGameChoice()
        self.values: dict[str, Any] = {"variant": start.variant, "players": start.players, "bots": start.bots,
                                       "english": start.english}
        self._remembered: dict[str, dict[str, Any]] = {}  # options per variant, kept when you switch back
        self._load_options(start.variant, start.options)

    # -- the form's content ---------------------------------------------------------
    def _load_options(self, variant: str, given: dict[str, Any] | None = None) -> None:
        options = core.variant_class(variant).check_options({})  # the defaults
        options.update(self._remembered.get(variant, {}))
        options.update(given or {})
        for key in list(self.values):
            if key not in ("variant", "players", "bots", "english"):
                del self.values[key]
        self.values.update(options)
        cls = core.variant_class(variant)
        self.values["players"] = max(cls.min_players, min(cls.max_players, self.values["players"]))

    def lines(self) -> list[FormLine]:
        variant = self.values["variant"]
        face = face_for(variant)
        cls = core.variant_class(variant)
        out = [
            FormLine("variant", "Game", TABLE_VARIANTS, doc=face.blurb),
            FormLine("players", "Players", range(cls.min_players, cls.max_players + 1),
                     doc=f"you and {cls.min_players - 1} to {cls.max_players - 1} bots"),
            FormLine("bots", "Bots", self.levels, doc=LEVEL_DOC.get(self.values["bots"], "how well the bots play")),
        ]
        options = cls.OPTIONS
        if "stacking" in options:
            out.append(FormLine("stacking", "Stacking", ("none", "same", "progressive"),
                                doc=_option_doc(variant, "stacking")))
        for key, label in (("seven_o", "7-0 swaps"), ("jump_in", "Jump-in"), ("force_play", "Force play"),
                           ("no_bluff", "No bluffing"), ("draw_until_playable", "Draw until playable")):
            if key in options:
                out.append(FormLine(key, label, (False, True), switch=True, doc=_option_doc(variant, key)))
        if "scoring" in options:  # Diez
            out.append(FormLine("scoring", "Scoring", ("points", "rounds"), doc=_option_doc(variant, "scoring")))
        if "uno_calls" in options:  # Diez
            out.append(FormLine("uno_calls", "UNO calls", (False, True), switch=True,
                                doc=_option_doc(variant, "uno_calls")))
        if "hand_size" in options:  # extended
            out.append(FormLine("hand_size", "Hand size", (0, 5, 7, 9), doc=_option_doc(variant, "hand_size")))
        if "uno_penalty" in options:
            out.append(FormLine("uno_penalty", "UNO penalty", range(0, 11), doc=_option_doc(variant, "uno_penalty")))
        if face.english_names:
            out.append(FormLine("english", "Card names", (False, True),
                                doc="The cards' names on the chips and in the log: Chinese (the source's) or "
                                    "English, for players who do not read Chinese (e switches)."))
        if "target_score" in options:
            scores = sorted(set(face.target_scores) | {self.values["target_score"]})
            out.append(FormLine("target_score", "Target score", scores, doc=_option_doc(variant, "target_score")))
        return out

    def describe(self, key: str, value: Any) -> str:
        if key == "variant":
            return variant_title(value)
        if key == "stacking":
            return STACKING_WORDS.get(value, value)
        if key == "uno_penalty":
            return f"{value} card{'s' if value != 1 else ''}"
        if key == "target_score":
            if value == 0:  # Diez: the variant's own default
                return "default (500 points or 5 rounds)"
            return f"{value} points"
        if key == "bots":
            return f"{value} bots"
        if key == "hand_size":  # extended
            return "by players (9 / 7 / 5)" if value == 0 else f"{value} cards"
        if key == "english":
            return "English" if value else "中文 (Chinese)"
        return str(value)

    def choice(self) -> NewGameChoice:
        variant = self.values["variant"]
        keys = core.variant_class(variant).OPTIONS
        options = {k: v for k, v in self.values.items() if k in keys}
        return NewGameChoice(variant=variant, players=self.values["players"], bots=self.values["bots"],
                             options=options, english=bool(self.values["english"]))

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(id="new-game"):
            yield Static(id="new-game-title")
            yield Form(id="form")
            yield Static(id="new-game-doc")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#new-game").border_title = "New game"
        self._update()

    def _update(self) -> None:
        form = self.query_one(Form)
        lines = self.lines()
        form.cursor = min(form.cursor, len(lines) - 1)
        title = Text()
        title.append(" UNO ", Style(bgcolor="#d0312d", color="#f2c12e", bold=True))
        title.append(f"  {variant_title(self.values['variant'])}", Style(bold=True))
        self.query_one("#new-game-title", Static).update(title)
        self.query_one("#new-game-doc", Static).update(lines[form.cursor].doc)
        form.refresh(layout=True)
        self.refresh_bindings()  # e (English card names) is offered for the extended rules only

    # -- keys -------------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        form = self.query_one(Form)
        form.cursor = (form.cursor + step) % len(self.lines())
        self._update()

    def action_change(self, step: int) -> None:
        line = self.lines()[self.query_one(Form).cursor]
        values = list(line.values)
        i = values.index(self.values[line.key])
        new = values[max(0, min(len(values) - 1, i + step))]
        self._set(line.key, new)

    def action_toggle(self) -> None:
        line = self.lines()[self.query_one(Form).cursor]
        if line.switch:
            self._set(line.key, not self.values[line.key])
        else:
            values = list(line.values)
            self._set(line.key, values[(values.index(self.values[line.key]) + 1) % len(values)])

    def _set(self, key: str, value: Any) -> None:
        if key == "variant" and value != self.values["variant"]:
            old = self.values["variant"]
            self._remembered[old] = {k: v for k, v in self.values.items()
                                     if k in core.variant_class(old).OPTIONS}
            self.values["variant"] = value
            self._load_options(value)
        else:
            self.values[key] = value
        self._update()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "english":
            return face_for(self.values["variant"]).english_names  # a game whose cards have names in Chinese
        return True

    def action_english(self) -> None:
        self._set("english", not self.values["english"])

    def action_start(self) -> None:
        self.dismiss(self.choice())

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        form = self.query_one(Form)
        offset = event.get_content_offset(form)
        if offset is not None and 0 <= offset.y < len(self.lines()):
            form.cursor = offset.y
            self._update()
