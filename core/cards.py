"""Cards and their notation.

A :class:`Card` is an immutable record of one physical card: an ``id`` unique
within a game, a ``color`` (``"red"``, ``"yellow"``, ``"green"``, ``"blue"``,
or ``None`` for black cards) and a ``rank`` (``"0"``-``"9"``, ``"S"``, ``"R"``,
``"+2"``, ``"W"``, ``"W+4"``; later variants add ranks of their own).

The notation is the colour letter followed by the rank (``R7``, ``GS``,
``B+2``); black cards are written by rank alone (``W``, ``W+4``).
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import InvalidCard

COLORS: tuple[str, ...] = ("red", "yellow", "green", "blue")
"""The four suit colours, in the order the deck is built and the UI lists them."""

COLOR_LETTERS: dict[str, str] = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
LETTER_COLORS: dict[str, str] = {v: k for k, v in COLOR_LETTERS.items()}

NUMBER_RANKS: tuple[str, ...] = tuple(str(n) for n in range(10))

RANK_NAMES: dict[str, str] = {
    "S": "Skip",
    "R": "Reverse",
    "+2": "Draw Two",
    "W": "Wild",
    "W+4": "Wild Draw Four",
    # No Mercy
    "+4": "Draw Four",
    "SA": "Skip Everyone",
    "DA": "Discard All",
    "WR+4": "Wild Reverse Draw Four",
    "W+6": "Wild Draw Six",
    "W+10": "Wild Draw Ten",
    "WCR": "Wild Color Roulette",
    # Diez
    "X": "Dek", "E": "El", "N": "Needle", "BLANK": "Blank",
    "ST": "Stop", "TG": "Tag", "DG": "Dagger", "TK": "Token", "TR": "Trade", "SH": "Share",
    "PR": "Proc", "CD": "Cut Deck", "SL": "Steal", "RV": "Revive", "SD": "Stitch Deck",
    "WM": "Mulligan", "WF": "Flush", "WB": "Bomb", "WDC": "Draw Color", "WDA": "Drop All", "WC": "Choice",
}

OTHER_COLOR_PREFIXES: dict[str, str] = {"white": "WH", "blank": ""}
"""Colours beyond the four suits (Diez): White cards are written ``WH0``-``WH4``; the
Blank card, whose colour is ``"blank"``, is written by its rank alone, ``BLANK``."""


class Card(NamedTuple):
    """One physical card of a game's deck (an immutable record, cheap to compare)."""

    id: int
    """Unique within a game; actions name cards by this id."""
    color: str | None
    """``"red"``, ``"yellow"``, ``"green"``, ``"blue"``, or ``None`` for a black card."""
    rank: str
    """The face: ``"0"``-``"9"``, ``"S"``, ``"R"``, ``"+2"``, ``"W"``, ``"W+4"``, ..."""

    @property
    def is_wild(self) -> bool:
        """True for black cards, which name a colour when played."""
        return self.color is None

    @property
    def is_number(self) -> bool:
        return self.rank in NUMBER_RANKS

    @property
    def face(self) -> tuple[str | None, str]:
        """Colour and rank: two cards with the same face are identical for play."""
        return (self.color, self.rank)

    @property
    def notation(self) -> str:
        return notation(self.color, self.rank)

    @property
    def name(self) -> str:
        """Words for the log: ``"red 7"``, ``"blue Draw Two"``, ``"Wild Draw Four"``."""
        rank = RANK_NAMES.get(self.rank, self.rank)
        return rank if self.color is None or self.color == "blank" else f"{self.color} {rank}"

    def __str__(self) -> str:
        return notation(self.color, self.rank)

    def to_dict(self) -> dict:
        return {"id": self.id, "color": self.color, "rank": self.rank}

    @classmethod
    def from_dict(cls, d: dict) -> "Card":
        return cls(int(d["id"]), d["color"], str(d["rank"]))


def notation(color: str | None, rank: str) -> str:
    if color is None:
        return rank
    letter = COLOR_LETTERS.get(color)
    return (OTHER_COLOR_PREFIXES[color] if letter is None else letter) + rank


def parse_card(text: str) -> tuple[str | None, str]:
    """Read a notation back into its face, ``(color, rank)``.

    ``"r7"`` and ``"R7"`` give ``("red", "7")``; ``"W+4"`` gives ``(None, "W+4")``.
    Whether the face exists in a particular deck is the game's question
    (:meth:`core.Game.parse`); this only checks the syntax.
    """
    t = text.strip().upper()
    if t == "BLANK":  # Diez's Blank
        return "blank", "BLANK"
    if len(t) >= 3 and t.startswith("WH") and t[2:].isdigit():  # Diez's White numbers
        return "white", t[2:]
    if len(t) >= 2 and t[0] in LETTER_COLORS:
        return LETTER_COLORS[t[0]], t[1:]
    if t.startswith("W"):
        return None, t
    raise InvalidCard(f"{text!r} is not a card notation (try R7, GS, B+2, W, W+4)")
