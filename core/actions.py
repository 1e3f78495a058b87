"""Actions: what a player asks the engine to do."""

from __future__ import annotations

from typing import Any, NamedTuple

KINDS: tuple[str, ...] = ("play", "draw", "pass", "uno", "catch", "challenge", "guilty", "innocent")
"""The kinds classic uses; later variants add their own (``"choose"``, ...)."""


class Action(NamedTuple):
    """One intent of one player; compared by value, so it can be looked up in
    :meth:`core.Game.legal_actions`.
    """

    kind: str
    """``"play"``, ``"draw"`` (on your turn, or taking a penalty you face),
    ``"pass"`` (keep a card you just drew), ``"uno"``, ``"catch"``, ``"challenge"``."""
    card: int | None = None
    """The id of the card played, if any."""
    color: str | None = None
    """The colour named with a wild card."""
    target: int | None = None
    """The player aimed at (the one caught without UNO, a swap partner, ...)."""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            d["card"] = self.card
        if self.color is not None:
            d["color"] = self.color
        if self.target is not None:
            d["target"] = self.target
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Action":
        """Build from wire data; types are checked, so a peer's junk cannot slip through."""
        if not isinstance(d, dict) or not isinstance(d.get("kind"), str):
            raise ValueError("an action is a map with a string 'kind'")
        unknown = set(d) - {"kind", "card", "color", "target"}
        if unknown:
            raise ValueError(f"unknown action field(s): {', '.join(sorted(map(str, unknown)))}")
        card, color, target = d.get("card"), d.get("color"), d.get("target")
        for name, value, typ in (("card", card, int), ("target", target, int), ("color", color, str)):
            if value is not None and (not isinstance(value, typ) or isinstance(value, bool)):
                raise ValueError(f"action field {name!r} must be {typ.__name__}")
        return cls(d["kind"], card, color, target)

    def __str__(self) -> str:
        parts = [self.kind]
        if self.card is not None:
            parts.append(f"card={self.card}")
        if self.color is not None:
            parts.append(self.color)
        if self.target is not None:
            parts.append(f"target={self.target}")
        return " ".join(parts)


_PLAY_CACHE: dict[tuple[int, str | None], Action] = {}


def play_action(card: int, color: str | None = None) -> Action:
    """A shared ``play`` action: actions are immutable, so the engine reuses them."""
    a = _PLAY_CACHE.get((card, color))
    if a is None:
        a = _PLAY_CACHE[(card, color)] = Action("play", card, color)
    return a


DRAW = Action("draw")
PASS = Action("pass")
UNO = Action("uno")
CHALLENGE = Action("challenge")
GUILTY = Action("guilty")
"""A challenger's ruling: the challenged hand held a card it should not have (see ``rule``)."""
INNOCENT = Action("innocent")
