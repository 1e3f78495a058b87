"""Events: what happened, for the log, the screen and the network.

An event may show cards only some players may see (the cards a player drew,
a hand shown to a challenger). ``visible_to`` names those players; for
everyone else :meth:`Event.view` strips the cards and keeps their count.
Hiding is done here and only here, so the log, the screen and the wire can
never disagree about what a player may know.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from .cards import Card


class Event(NamedTuple):
    """One thing that happened."""

    kind: str
    """``"deal"``, ``"start"``, ``"play"``, ``"draw"``, ``"pass"``, ``"skip"``,
    ``"reverse"``, ``"uno"``, ``"catch"``, ``"challenge"``, ``"show_hand"``,
    ``"reshuffle"``, ``"return"``, ``"round_over"``, ``"match_over"``; variants add more."""
    player: int | None = None
    """Who acted or was affected."""
    cards: tuple[Card, ...] = ()
    """The cards involved; empty in a redacted view."""
    count: int = 0
    """How many cards (kept when the cards themselves are hidden)."""
    color: str | None = None
    """A colour named or now in play."""
    target: int | None = None
    """The other player involved (the one caught, the challenger's victim, ...)."""
    reason: str | None = None
    """Why: ``"turn"``, ``"penalty"``, ``"uno"``, ``"guilty"``, ``"innocent"``, ..."""
    points: int | None = None
    """Points scored (round over)."""
    visible_to: tuple[int, ...] | None = None
    """``None``: everyone sees the cards. Otherwise only these players do."""

    def view(self, player: int | None) -> "Event":
        """This event as ``player`` may see it (``None``: a spectator)."""
        if self.visible_to is None or (player is not None and player in self.visible_to):
            return self
        return self._replace(cards=())

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.player is not None:
            d["player"] = self.player
        if self.cards:
            d["cards"] = [c.to_dict() for c in self.cards]
        if self.count:
            d["count"] = self.count
        for name in ("color", "target", "reason", "points"):
            value = getattr(self, name)
            if value is not None:
                d[name] = value
        if self.visible_to is not None:
            d["visible_to"] = list(self.visible_to)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Event":
        vis = d.get("visible_to")
        return cls(
            kind=d["kind"],
            player=d.get("player"),
            cards=tuple(Card.from_dict(c) for c in d.get("cards", ())),
            count=d.get("count", 0),
            color=d.get("color"),
            target=d.get("target"),
            reason=d.get("reason"),
            points=d.get("points"),
            visible_to=None if vis is None else tuple(vis),
        )



Words = Any
"""How an event kind reads: a template (fields ``who``, ``tgt``, ``n``, ``kind``, ``color``,
``cards``, ``pile``, ``points``) or a function ``(event, who, tgt) -> str``."""


def counted(n: int | None, word: str) -> str:
    """``1 card``, ``3 cards`` (words may say ``{n_cards}`` or ``{n_points}``)."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def _cards(e: Event) -> str:
    if e.cards:  # in words, as a play names its card ("green 2", not the notation "G2")
        return ", ".join(c.name for c in e.cards)
    return counted(e.count, "card")


def _start(e: Event, who: str, tgt: str) -> str:
    return f"The starting card is {e.cards[0].name}." if e.cards else "The starting card is turned."


def _return(e: Event, who: str, tgt: str) -> str:
    if e.reason == "aside":  # left under the starting card (No Mercy, Diez)
        return f"{e.cards[0].name} cannot start the round; it is set aside."
    return f"{e.cards[0].name} cannot start the round; it goes back and the pile is shuffled."


def _play(e: Event, who: str, tgt: str) -> str:
    card = e.cards[0]
    text = f"{who} plays {card.name}"
    if card.is_wild and e.color:
        text += f" and names {e.color}"
    return text + "."


def _challenge(e: Event, who: str, tgt: str) -> str:
    verdict = "guilty: it was a bluff" if e.reason == "guilty" else "innocent: it was legal"
    return f"{who} challenges {tgt}'s Wild Draw Four: {verdict}."


COMMON_WORDS: dict[str, Words] = {
    "deal": "{who} deals {n_cards} each.",
    "start": _start,
    "return": _return,
    "play": _play,
    "pass": lambda e, who, tgt: f"{who} keeps the card and passes." if e.reason == "keep" else f"{who} passes.",
    "skip": "{who} is skipped.",
    "reverse": "Play reverses direction.",
    "uno": "{who} calls UNO!",
    "catch": "{who} catches {tgt} without UNO!",
    "challenge": _challenge,
    "show_hand": "{who} shows their hand to {tgt}: {cards}.",
    "claim": "{who} claims: {kind}.",  # a sealed table: a move that rests on cards only they see
    "reshuffle": "The discard pile is shuffled into a new draw pile ({n_cards}).",
    "empty": "Nothing is left to draw; {who} passes.",
    "round_over": "{who} wins the round and scores {n_points}.",
    "match_over": "{who} wins the match with {n_points}!",
}
"""The words of the event kinds the UNO family shares; a variant's own words (and its own
readings of these kinds) are registered with it (:func:`register_words`)."""

_WORDS: dict[str, dict[str, Words]] = {}
"""variant -> event kind -> words (see :data:`Words`)."""
_LIKE: dict[str, str] = {}
"""variant -> the variant whose words it extends (No Mercy's are classic's and more)."""
_PLAIN: list[str] = []
"""Variants whose words also serve a caller that names no variant (see :func:`describe`)."""

_DRAW_REASONS: dict[str | None, dict[str, str]] = {None: {
    "penalty": " as a penalty",
    "uno": " for not calling UNO",
    "guilty": " (the bluff was caught)",
    "innocent": " (the challenge failed)",
    "last": " from the winning card",
}}
"""variant (``None``: every variant) -> a draw event's ``reason`` -> the end of its log line."""


def register_words(variant: str, words: dict[str, Words] | None = None,
                   draw_reasons: dict[str, str] | None = None, *, like: str | None = None,
                   plain: bool = False) -> None:
    """Let a variant describe its own event kinds (and draw reasons) in :func:`describe`.

    A variant module calls this at import, so its words live with its rules; they apply when
    :func:`describe` is told the variant. ``like`` names a variant whose words this one extends
    (its own words come first). ``plain``: the words also serve a caller that names no
    variant, as they did before variants had words of their own (their event kinds and
    readings clash with no other plain variant's).
    """
    _WORDS.setdefault(variant, {}).update(words or {})
    _DRAW_REASONS.setdefault(variant, {}).update(draw_reasons or {})
    if like is not None:
        _LIKE[variant] = like
    if plain and variant not in _PLAIN:
        _PLAIN.append(variant)


def _lookup(table: dict[str | None, dict[str, Any]] | dict[str, dict[str, Any]], variant: str | None,
            key: str) -> Any:
    v = variant
    while v is not None:
        found = table.get(v, {}).get(key)  # type: ignore[arg-type]
        if found is not None:
            return found
        v = _LIKE.get(v)
    return None


def _draw(e: Event, who: str, variant: str | None) -> str:
    reason = e.reason or ""
    why = None
    for v in [variant] if variant is not None else _PLAIN:
        why = why or _lookup(_DRAW_REASONS, v, reason)
    why = why or _DRAW_REASONS[None].get(reason, "")
    return f"{who} draws {_cards(e)}{why}."


def describe(e: Event | dict[str, Any], names: Sequence[str], variant: str | None = None) -> str:
    """The event in words for a log line, using ``names`` for the players.

    Give ``variant`` for the words of that variant's own events (see :func:`register_words`);
    without it, the kinds the UNO family shares (:data:`COMMON_WORDS`) and those of the
    variants registered as ``plain`` (classic, No Mercy, Wild Rawz) read as words.
    """
    if isinstance(e, dict):
        e = Event.from_dict(e)
    who = names[e.player] if e.player is not None else ""
    tgt = names[e.target] if e.target is not None else ""
    k = e.kind
    words = None
    for v in [variant] if variant is not None else _PLAIN:
        words = words or _lookup(_WORDS, v, k)
    if words is None:
        if k == "draw":
            return _draw(e, who, variant)
        words = COMMON_WORDS.get(k)
    if words is None:
        return f"{k} {who}".strip() + "."
    if callable(words):
        return words(e, who, tgt)
    pile = f" (pile {e.target + 1})" if e.target is not None else ""
    return words.format(who=who, tgt=tgt, n=e.count, kind=e.reason or "", color=e.color or "",
                        cards=_cards(e), pile=pile, points=e.points, n_cards=counted(e.count, "card"),
                        n_points=counted(e.points, "point"))
