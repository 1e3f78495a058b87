"""Your Diez hand: the classic hand view with White and Blank cards.

A card is marked usable (filled, with dots) when any legal action names it:
a play, a jump-in, a discard to a Mulligan or Flush, a card to give away.
Those lists hold one card per face, so every copy of that face is marked.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text

from .cards import CHIP_HEIGHT, CHIP_WIDTH
from .diez_cards import DIEZ_CARD_CSS, DiezCardPainter, chip, sort_key
from .hand import GAP, HandView

CARD_KINDS = frozenset({"play", "discard", "give"})


class DiezHandView(HandView, DiezCardPainter):
    DEFAULT_CSS = DIEZ_CARD_CSS.replace("DiezCardPainter", "DiezHandView")
    COMPONENT_CLASSES = HandView.COMPONENT_CLASSES | DiezCardPainter.COMPONENT_CLASSES

    def usable_faces(self) -> set[tuple[Any, Any]]:
        if self.obs is None:
            return set()
        ids = {a["card"] for a in self.obs.get("legal", ()) if a["kind"] in CARD_KINDS and a.get("card") is not None}
        return {(c["color"], c["rank"]) for c in self.obs.get("hand") or () if c["id"] in ids}

    def playable_ids(self) -> set[int]:
        faces = self.usable_faces()
        return {c["id"] for c in self.cards if (c["color"], c["rank"]) in faces}

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        self.cards = sorted(obs.get(self.CARDS_KEY) or (), key=sort_key) if obs else []
        ids = [c["id"] for c in self.cards]
        playable = self.playable_ids()
        my_turn = self._my_turn(obs)
        want = self._selected_id
        if obs and obs.get("drawn") is not None:
            want = obs["drawn"]
        elif playable and want not in playable and (my_turn and not self._was_my_turn or not my_turn):
            want = next(c["id"] for c in self.cards if c["id"] in playable)
        self._was_my_turn = my_turn
        index = ids.index(want) if want in ids else (min(self.selected, len(ids) - 1) if ids else 0)
        self.selected = max(0, index)
        self._selected_id = ids[self.selected] if ids else None
        self.refresh()

    def render(self) -> Group | Text:
        if not self.cards:
            return Text(self.EMPTY, self.get_component_rich_style("hand--empty"))
        palette = self.palette()
        marker = self.get_component_rich_style("hand--marker")
        fresh_style = self.get_component_rich_style("hand--fresh")
        playable = self.playable_ids()
        my_turn = self._my_turn(self.obs or {}) or bool(playable)
        cols = self._columns(self.content_size.width or 80)
        lines: list[Text] = []
        for start in range(0, len(self.cards), cols):
            row = self.cards[start:start + cols]
            chips = [chip(c, palette, playable=c["id"] in playable or not my_turn,
                          selected=start + i == self.selected) for i, c in enumerate(row)]
            for y in range(CHIP_HEIGHT):
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
