"""Diez cards as text: the classic chips and one-line cards, with White and Blank cards.

White cards (``WH0``-``WH4``) and the Blank have colours of their own (``card--white`` and
``card--blank`` in app.tcss's palette). Notation that does not fit a chip is shortened
(``BLANK`` reads ``BLNK``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.style import Style
from rich.text import Text

from core import COLORS

from ...widgets.cards import CHIP_WIDTH, CardPainting, chip as classic_chip
from .words import card_text

Card = Mapping[str, Any]

DIEZ_SUITS: tuple[str, ...] = (*COLORS, "white", "blank", "wild")

RANK_ORDER: tuple[str, ...] = (*(str(n) for n in range(10)), "X", "E", "N", "BLANK", "S", "R", "+2", "ST", "TG",
                               "DG", "TK", "TR", "SH", "PR", "CD", "SL", "RV", "SD",
                               "W", "WB", "W+4", "WDC", "WM", "WF", "WDA", "WC")


def suit(card: Card) -> str:
    return card["color"] or "wild"


def sort_key(card: Card) -> tuple[int, int, int]:
    rank = RANK_ORDER.index(card["rank"]) if card["rank"] in RANK_ORDER else len(RANK_ORDER)
    s = suit(card)
    return (DIEZ_SUITS.index(s) if s in DIEZ_SUITS else len(DIEZ_SUITS), rank, card["id"])


def short_text(card: Card, width: int = CHIP_WIDTH - 2) -> str:
    text = card_text(card)
    return "BLNK"[:width] if text == "BLANK" and width < 5 else text[:width]


def chip(card: Card, palette: dict[str, Style], *, playable: bool, selected: bool) -> list[Text]:
    """A 3x6 card, as :func:`uno_tui.widgets.cards.chip`, for every Diez card."""
    return classic_chip(card, palette, playable=playable, selected=selected, label=short_text(card),
                        rimmed=("wild", "blank"))


def inline_card(card: Card, palette: dict[str, Style]) -> Text:
    return Text(f" {card_text(card)} ", palette.get(suit(card), palette["wild"]) + Style(bold=True))


def color_swatch(color: str | None, palette: dict[str, Style], width: int = 6) -> Text:
    """The colour in play on a pile, as a word on its colour ("any" on a Blank)."""
    if color is None:
        return Text("any".center(width), Style(dim=True))
    style = palette.get(color, palette["wild"])
    return Text(color[:width].center(width), style + Style(bold=True))


DIEZ_CARDS = CardPainting(chip=chip, inline=inline_card, order=sort_key)
"""Diez's cards, White and Blank ones included (``DiezFace.card_painting``)."""
