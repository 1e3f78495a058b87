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



_WORDS: dict[str, dict[str, Any]] = {}
"""variant -> event kind -> words: a template (fields ``who``, ``tgt``, ``n``, ``kind``,
``color``, ``cards``, ``pile``, ``points``) or a function ``(event, who, tgt) -> str``."""

_DRAW_REASONS: dict[str | None, dict[str, str]] = {None: {
    "penalty": " as a penalty",
    "uno": " for not calling UNO",
    "guilty": " (the bluff was caught)",
    "innocent": " (the challenge failed)",
    "last": " from the winning card",
    "roulette": " turned up by the Color Roulette",
}}
"""variant (``None``: every variant) -> a draw event's ``reason`` -> the end of its log line."""


def register_words(variant: str, words: dict[str, Any] | None = None,
                   draw_reasons: dict[str, str] | None = None) -> None:
    """Let a variant describe its own event kinds (and draw reasons) in :func:`describe`.

    A variant module calls this at import, so its words live with its rules;
    they apply when :func:`describe` is told the variant.
    """
    _WORDS.setdefault(variant, {}).update(words or {})
    _DRAW_REASONS.setdefault(variant, {}).update(draw_reasons or {})


def _cards(e: Event) -> str:
    if e.cards:
        return ", ".join(str(c) for c in e.cards)
    return f"{e.count} card" + ("" if e.count == 1 else "s")


def describe(e: Event | dict[str, Any], names: Sequence[str], variant: str | None = None) -> str:
    """The event in words for a log line, using ``names`` for the players.

    Give ``variant`` for the words of that variant's own events (see :func:`register_words`).
    """
    if isinstance(e, dict):
        e = Event.from_dict(e)
    who = names[e.player] if e.player is not None else ""
    tgt = names[e.target] if e.target is not None else ""
    k = e.kind
    if k == "deal":
        return f"{who} deals {e.count} cards each."
    if k == "start":
        return f"The starting card is {e.cards[0].name}." if e.cards else "The starting card is turned."
    if k == "return" and e.reason == "aside":
        return f"{e.cards[0].name} cannot start the round; it is set aside."
    if k == "return":
        return f"{e.cards[0].name} cannot start the round; it goes back and the pile is shuffled."
    if k == "jump_in":
        return f"{who} jumps in!"
    if k == "swap":
        return f"{who} swaps hands with {tgt}."
    if k == "rotate":
        return "Every hand passes to the next player."
    if k == "skip_all":
        return f"{who} skips everyone and plays again."
    if k == "discard_all":
        return f"{who} discards every {e.color} card too: {_cards(e)}."
    if k == "knockout":
        return f"{who} holds {e.count} cards and is knocked out (Mercy)!"
    if k == "choose":
        return f"{who} names {e.color} for the Color Roulette."
    words = _WORDS.get(variant or "", {}).get(k)
    if words is not None:  # a variant's own event
        if callable(words):
            return words(e, who, tgt)
        pile = f" (pile {e.target + 1})" if e.target is not None else ""
        return words.format(who=who, tgt=tgt, n=e.count, kind=e.reason or "", color=e.color or "",
                            cards=_cards(e), pile=pile, points=e.points)
    if k == "play":
        card = e.cards[0]
        text = f"{who} plays {card.name}"
        if card.is_wild and e.color:
            text += f" and names {e.color}"
        return text + "."
    if k == "draw":
        reason = e.reason or ""
        why = _DRAW_REASONS.get(variant, {}).get(reason) or _DRAW_REASONS[None].get(reason, "")
        return f"{who} draws {_cards(e)}{why}."
    if k == "pass":
        return f"{who} keeps the card and passes." if e.reason == "keep" else f"{who} passes."
    if k == "skip":
        return f"{who} is skipped."
    if k == "reverse":
        return "Play reverses direction."
    if k == "uno":
        return f"{who} calls UNO!"
    if k == "catch":
        return f"{who} catches {tgt} without UNO!"
    if k == "challenge":
        verdict = "guilty: it was a bluff" if e.reason == "guilty" else "innocent: it was legal"
        return f"{who} challenges {tgt}'s Wild Draw Four: {verdict}."
    if k == "show_hand":
        return f"{who} shows their hand to {tgt}: {_cards(e)}."
    if k == "reshuffle":
        return f"The discard pile is shuffled into a new draw pile ({e.count} cards)."
    if k == "empty":
        return f"Nothing is left to draw; {who} passes."
    if k == "row":
        return f"Face up for the trump draft: {_cards(e)}."
    if k == "aside":
        return f"Set aside face up: {_cards(e)}."
    if k == "take":
        return f"{who} takes {e.cards[0].name} from the row."
    if k == "trump":
        return f"Trump: {e.cards[0].name} ({e.color} and every {e.cards[0].rank})."
    if k == "leave":
        return f"{who} leaves the trick with {_cards(e)}."
    if k == "trick":
        return f"{who} wins the trick" + (f"; {tgt} left it and leads next." if tgt else " and leads next.")
    if k == "round_over" and e.reason == "bonus":
        return f"{who} scores {e.points} points this round (5 of them for hitting the target)."
    if k == "round_over" and e.reason == "score":
        return f"{who} scores {e.points} points this round."
    if k == "round_over":
        return f"{who} wins the round and scores {e.points} points."
    if k == "match_over":
        return f"{who} wins the match with {e.points} points!"
    return f"{k} {who}".strip() + "."

