"""Diez's cards and tokens: the faces, their counts and their kinds.

Notation (see ``docs/rules/diez.md``): a suit letter and the rank (``R7``,
``GX`` for a green dek, ``BE`` for a blue el, ``YST`` for a yellow Stop);
White numbers ``WH0``-``WH4``; the Blank ``BLANK``; black cards by rank alone
(``W``, ``W+4``, ``WM``, ...).
"""

from __future__ import annotations

from ...cards import COLORS, Card

WHITE = "white"
BLANK = "blank"

NUMBERS: tuple[str, ...] = tuple(str(n) for n in range(10)) + ("X", "E")
"""Number ranks: 0-9, dek (``X``) and el (``E``)."""
NUMBER_VALUE: dict[str, int] = {**{str(n): n for n in range(10)}, "X": 10, "E": 11}
UNDERLINED: frozenset[str] = frozenset({"6", "9"})
"""The numbers the Link token treats as underlined (see the rules page)."""

# Coloured power cards printed in every suit, with copies per colour.
SUIT_POWERS: tuple[tuple[str, int], ...] = (
    ("S", 2), ("R", 2), ("+2", 2), ("ST", 1), ("TG", 1), ("DG", 1), ("TK", 2))
# Single power cards and their colour.
SINGLE_POWERS: tuple[tuple[str, str], ...] = (
    ("red", "TR"), ("red", "SH"), ("yellow", "PR"), ("yellow", "CD"), ("green", "SL"),
    ("green", "RV"), ("blue", "SD"))
BLACK: tuple[tuple[str, int], ...] = (
    ("W", 4), ("W+4", 4), ("WM", 2), ("WF", 1), ("WB", 2), ("WDC", 2), ("WDA", 1), ("WC", 1))

POWER_RANKS = frozenset(r for r, _ in SUIT_POWERS) | frozenset(r for _, r in SINGLE_POWERS)
CHALLENGEABLE = frozenset({"DG", "W+4", "WDC", "WC"})
"""The cards marked [C]."""
STACKERS = frozenset({"S", "R", "+2", "W+4", "ST", "TG", "PR", "WC"})
"""Cards that may answer a draw stack."""
NO_EFFECT = frozenset({"W", "WB"})
"""Black cards that do nothing beyond naming a colour (a Snare is not spent on them)."""
CHOICE_EFFECTS: tuple[str, ...] = (
    "S", "R", "+2", "ST", "TG", "DG", "TK", "TR", "SH", "PR", "CD", "RV", "SD")
"""What a Choice may do, in the seed's order (Steal is not in its list)."""
CHOICE_STACK_EFFECTS: tuple[str, ...] = ("S", "R", "+2", "ST", "TG", "PR")


def build_faces() -> list[tuple[str | None, str]]:
    """The 170 faces in deck order."""
    faces: list[tuple[str | None, str]] = []
    for color in COLORS:
        faces.append((color, "0"))
        for n in range(1, 10):
            faces += [(color, str(n))] * 2
        faces += [(color, "X")] * 2 + [(color, "E")] * 2
        for rank, copies in SUIT_POWERS:
            faces += [(color, rank)] * copies
    faces += [(WHITE, str(n)) for n in range(5)]
    faces += [(BLANK, "BLANK")] * 4
    faces.append(("blue", "N"))
    faces += [(color, rank) for color, rank in SINGLE_POWERS]
    for rank, copies in BLACK:
        faces += [(None, rank)] * copies
    return faces


def is_black(card: Card) -> bool:
    return card.color is None


def is_number(card: Card) -> bool:
    return card.rank in NUMBERS


def is_mundane(card: Card) -> bool:
    """Numbers (White included), the Blank and the Needle."""
    return card.rank in NUMBERS or card.rank in ("BLANK", "N")


def is_power(card: Card) -> bool:
    return card.color is not None and card.rank in POWER_RANKS


def has_effect(card: Card) -> bool:
    """A power card, or a black card that does more than name a colour (what a Snare spends itself on)."""
    return is_power(card) or (card.color is None and card.rank not in NO_EFFECT)


def points(card: Card) -> int:
    if card.color is None:
        return 50
    if card.rank in NUMBER_VALUE:
        return NUMBER_VALUE[card.rank]
    return 20


# -- tokens -----------------------------------------------------------------------------------
TOKEN_COUNTS: dict[str, int] = {
    "hex": 3, "magnet": 3, "silence": 2, "block": 2, "reveal": 1, "link": 1,
    "snare": 3, "mirror": 3, "ace": 2, "double": 2, "sub": 1, "white": 1,
}
"""The bag of 24 tokens."""
TOKEN_KINDS: tuple[str, ...] = tuple(TOKEN_COUNTS)
AFFECT = frozenset({"hex", "magnet", "silence", "block", "reveal", "link"})
TRAP = frozenset({"snare", "mirror", "ace", "double", "sub", "white"})
STACKABLE_PROCS: tuple[str, ...] = ("silence", "snare", "double", "mirror")
"""Token effects a Proc may use on a stack (the seed's "(Stackable)")."""
TOKEN_LIMIT = 3


def token_bag() -> list[str]:
    return [kind for kind in TOKEN_KINDS for _ in range(TOKEN_COUNTS[kind])]


def token_order(kind: str) -> int:
    return TOKEN_KINDS.index(kind)
