"""The human's hand: card chips that wrap onto as many rows as the width needs."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.widget import Widget
from textual.message import Message
from textual.reactive import reactive

from .bound import ObsWidget
from .cards import CHIP_HEIGHT, CHIP_WIDTH, UNO_CARDS, CardPainter, CardPainting

GAP = 1
ROW_HEIGHT = CHIP_HEIGHT + 1  # the chips and a marker line beneath them


class HandView(CardPainter, ObsWidget):
    """Shows ``obs["hand"]`` sorted by colour; one card is selected.

    Playable cards (those with a legal play in ``obs["legal"]``) are filled
    and marked with a dot; the others are outlines. The selection is kept
    by card id, so it stays on the same card as the hand changes.
    """

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {"hand--marker", "hand--empty", "hand--fresh"}

    CARDS_KEY = "hand"
    """The observation key of the cards shown."""
    ACTION = "play"
    """The kind of the legal actions that make a card playable (filled, with a dot)."""
    EMPTY = "No cards in hand."
    REVEAL_EXTRA = 0
    """Lines below the last row (and the chosen card's row) that belong to the hand too."""

    RELAYOUT = True
    selected: reactive[int] = reactive(0)
    fresh: reactive[frozenset[int]] = reactive(frozenset())
    """Ids of cards just drawn: marked "new" until you act again."""
    dense: reactive[bool] = reactive(False, layout=True)
    """A short terminal: a hand that needs two rows of chips shows each card as one line (its chip's
    middle), so the log keeps its room."""

    class PlayRequested(Message):
        """The human clicked the already selected card: play it."""

        def __init__(self, card_id: int) -> None:
            self.card_id = card_id
            super().__init__()

    def __init__(self, painting: CardPainting = UNO_CARDS, **kwargs: Any) -> None:
        """``painting``: how the game's cards are drawn and ordered (its face's card painter)."""
        super().__init__((), **kwargs)
        self.painting = painting
        self.cards: list[dict[str, Any]] = []
        self._selected_id: int | None = None
        self._was_my_turn = False

    # -- state ------------------------------------------------------------------
    @property
    def selected_card(self) -> dict[str, Any] | None:
        return self.cards[self.selected] if self.cards else None

    def playable_ids(self) -> set[int]:
        if self.obs is None:
            return set()
        return {a["card"] for a in self.obs.get("legal", ()) if a["kind"] == self.ACTION}

    def _my_turn(self, obs: dict[str, Any] | None) -> bool:
        return bool(obs) and obs["current"] == obs["me"] and not obs["over"]

    def _drawn_id(self, obs: dict[str, Any] | None) -> int | None:
        """The card just drawn, which is the one you may play."""
        return obs.get("drawn") if obs and self.CARDS_KEY == "hand" else None

    def _outlines(self, playable: set[int]) -> bool:
        """Whether unplayable cards are drawn as outlines (only on your turn; otherwise all look alike)."""
        return self._my_turn(self.obs or {})

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        self.cards = sorted(obs.get(self.CARDS_KEY) or (), key=self.painting.order) if obs else []
        ids = [c["id"] for c in self.cards]
        playable = self.playable_ids()
        my_turn = self._my_turn(obs)
        want = self._selected_id
        drawn = self._drawn_id(obs)
        if drawn is not None:
            want = drawn
        elif playable and want not in playable and (my_turn and not self._was_my_turn or not my_turn):
            # A new turn (or a chance to jump in): start on a card that can be played.
            want = next(c["id"] for c in self.cards if c["id"] in playable)
        self._was_my_turn = my_turn
        if want in ids:
            index = ids.index(want)
        else:
            index = min(self.selected, len(ids) - 1) if ids else 0
        self.selected = max(0, index)
        self._selected_id = ids[self.selected] if ids else None
        self.refresh(layout=True)

    def watch_fresh(self, fresh: frozenset[int]) -> None:
        self.refresh()

    def watch_dense(self, dense: bool) -> None:
        self.refresh(layout=True)

    def validate_selected(self, value: int) -> int:
        return max(0, min(value, len(self.cards) - 1)) if self.cards else 0

    def watch_selected(self, value: int) -> None:
        self._selected_id = self.cards[value]["id"] if self.cards else None
        self.call_after_refresh(self._reveal_selected)

    def _reveal_selected(self) -> None:
        """Scroll the hand's panel (when it scrolls) so the chosen card's row shows."""
        if self.parent is None or not self.cards:
            return
        h = self._row_height()
        row = self.selected // self._columns(self.content_size.width or 80)
        region = Region(0, row * h, self.size.width, h + self.REVEAL_EXTRA)
        if isinstance(self.parent, Widget):
            self.parent.scroll_to_region(region, animate=False, immediate=True)

    def move(self, step: int) -> None:
        """Select the card ``step`` places along, wrapping around the ends."""
        if self.cards:
            self.selected = (self.selected + step) % len(self.cards)

    # -- layout -------------------------------------------------------------------
    def _slot(self) -> int:
        """The width of one card and the gap after it."""
        return CHIP_WIDTH + GAP

    def _flat(self) -> bool:
        """Cards drawn one line tall: the terminal is short and the chips would need two rows or more."""
        return self.dense and len(self.cards) > self._columns(self.content_size.width or 80)

    def _row_height(self) -> int:
        return 2 if self._flat() else ROW_HEIGHT

    def _columns(self, width: int) -> int:
        return max(1, (width + GAP) // self._slot())

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not self.cards:  # one line of words (a spectator's, say): the rest is the log's
            return 1
        cols = self._columns(width)
        return max(1, -(-len(self.cards) // cols)) * self._row_height() + self.REVEAL_EXTRA

    def render(self) -> Group | Text:
        if not self.cards:
            return Text(self.EMPTY, self.get_component_rich_style("hand--empty"))
        palette = self.palette()
        marker = self.get_component_rich_style("hand--marker")
        fresh_style = self.get_component_rich_style("hand--fresh")
        playable = self.playable_ids()
        my_turn = self._outlines(playable)
        cols = self._columns(self.content_size.width or 80)
        flat = self._flat()
        lines: list[Text] = []
        for start in range(0, len(self.cards), cols):
            row = self.cards[start:start + cols]
            chips = [self.painting.chip(c, palette, playable=c["id"] in playable or not my_turn,
                                        selected=start + i == self.selected) for i, c in enumerate(row)]
            for y in ((1,) if flat else range(CHIP_HEIGHT)):
                lines.append(Text(" " * GAP).join(ch[y] for ch in chips))
            marks = Text()
            for i, c in enumerate(row):
                style = marker
                if start + i == self.selected:
                    mark = " ▲▲▲▲ "
                elif c["id"] in self.fresh:
                    mark, style = ("•new• " if c["id"] in playable else " new  "), fresh_style
                elif c["id"] in playable:
                    mark = "  ••  "
                else:
                    mark = " " * CHIP_WIDTH
                marks.append(mark + " " * GAP, style)
            lines.append(marks)
        return Group(*lines)

    # -- mouse ----------------------------------------------------------------------
    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.cards:
            return
        cols = self._columns(self.content_size.width)
        col = offset.x // self._slot()
        index = (offset.y // self._row_height()) * cols + col
        if col >= cols or index >= len(self.cards):
            return
        if index == self.selected:  # a second click plays it
            self.post_message(self.PlayRequested(self.cards[index]["id"]))
        else:
            self.selected = index
