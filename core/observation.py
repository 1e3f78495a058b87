"""Observations: what one seat (or a spectator) may see, as plain msgpack-able data, and its types.

:meth:`core.Game.observation` is :func:`public_view` (the same for everyone at the table) with
:func:`private_view` (``me``'s own hand and choices) on top; no key is in both, and this module
is the one place a hidden card enters a view. A view is a snapshot: nothing in it is the game's
own list or map.

The ``TypedDict`` classes below say which keys a view has. :class:`Observation` has the keys of
every variant; a variant adds its own (:class:`DiezObservation`, :class:`ExtendedObservation`,
:class:`WildRawzObservation`); a reader of one variant's views may use that type.
"""

# No "from __future__ import annotations": TypedDict reads NotRequired[...] from real annotations.
from typing import TYPE_CHECKING, Any, NotRequired, Required, TypedDict

from .sealed import is_sealed

if TYPE_CHECKING:
    from .game import Game


class CardDict(TypedDict):
    """A card as a view shows it (:meth:`core.Card.to_dict`)."""

    id: int
    color: str | None
    rank: str


class ActionDict(TypedDict, total=False):
    """An action as a view lists it (:meth:`core.Action.to_dict`): only the fields it uses."""

    kind: Required[str]
    card: int
    color: str
    target: int


class DecisionDict(TypedDict):
    """The decision the game waits on (:attr:`core.Game.decision`), public part."""

    player: int
    kind: str


class PlayerView(TypedDict):
    """One seat as everyone sees it."""

    name: str
    cards: int
    """How many cards the seat holds."""
    uno: bool
    """Holds one card and called UNO for it."""
    exposed: bool
    """Holds one card without having called: anyone may catch them."""
    out: bool
    """Out of this round (knocked out, or gone out in the extended rules)."""
    score: int
    # Diez
    tokens: NotRequired[list[str]]
    revealed: NotRequired[bool]
    """A Reveal token lays the hand open: then ``hand`` is shown."""
    mirror_armed: NotRequired[bool]
    hand: NotRequired[list[CardDict]]
    # extended
    finished: NotRequired[bool]
    room: NotRequired[int]
    """Cards the seat may still take from the pile (the hand cap, a curse)."""


class PublicObservation(TypedDict):
    """The part of every view that is the same for every seat and spectator."""

    variant: str
    version: int
    """Counts applied actions; an intent quotes it."""
    round: int
    dealer: int
    current: int
    """Whose turn it is (Diez: the player a step waits on; see :class:`DiezObservation`)."""
    direction: int
    color: str | None
    top: CardDict | None
    discard: list[CardDict]
    draw_count: int
    set_aside_count: int
    deck_size: int
    phase: str
    pending: dict[str, Any] | None
    """The public part of a pending effect (a draw stack, a challengeable card, ...)."""
    decision: DecisionDict | None
    """Who must decide what now (``None`` once the round is over)."""
    players: list[PlayerView]
    to_act: list[int]
    options: dict[str, Any]
    target_score: int
    over: bool
    winner: int | None
    scores: list[int]
    match_over: bool
    match_winner: int | None
    # Once the round is over, every hand is counted openly.
    hands: NotRequired[list[list[CardDict]]]
    hand_points: NotRequired[list[int]]
    points: NotRequired[int]
    bonus: NotRequired[int]


class PrivateObservation(TypedDict):
    """The part of a view that is ``me``'s alone (only ``me`` for a spectator)."""

    me: int | None
    hand: NotRequired[list[CardDict]]
    legal: NotRequired[list[ActionDict]]
    drawn: NotRequired[int | None]
    """The id of the card just drawn, while it may be played."""
    search: NotRequired[list[CardDict]]
    """Diez: the cards a searching player may take (sorted by id)."""


class Observation(PublicObservation, PrivateObservation):
    """One seat's (or a spectator's) whole view: the public part and the seat's own."""


class PileView(TypedDict):
    top: CardDict | None
    count: int
    color: str | None
    jump: bool
    """The top card may be jumped on."""


class DiezObservation(Observation):
    """A Diez view."""

    piles: list[PileView]
    focus: int
    """The pile last played on (its top is ``top``; ``discard`` holds that card only)."""
    tokens: list[list[str]]
    bag_count: int
    step: dict[str, Any] | None
    """The step waiting for a decision (``op``, ``who``, and what the step is about)."""
    whose_turn: NotRequired[int]
    """Whose turn it is; ``current`` names the player a step waits on (as ``decision.player``)."""


class ExtendedObservation(Observation):
    """A view of the extended rules."""

    last: CardDict | None
    """The card that decides what may be played (black cards but 改色 and +4 leave it)."""
    actor: int | None
    """The player the game waits on (as ``decision.player``)."""
    hand_size: int
    hand_cap: int
    effects: list[list[dict[str, Any]]]
    interaction: dict[str, Any] | None
    finished: list[int]
    round_winners: list[int]
    turn: dict[str, Any]


class WildRawzObservation(Observation):
    """A Wild Rawz view."""

    start_player: int
    leader: int
    lead_color: str | None
    row: list[CardDict]
    aside: list[CardDict]
    trump: CardDict | None
    trick: list[list[Any]]
    """``[player, card]`` pairs in the order played."""
    leaver: list[Any] | None
    winning: int | None
    won: list[int]
    left: list[list[CardDict]]
    marker: int
    targets: list[int]
    round_scores: list[int]
    rounds_in_match: int
    last_trick: dict[str, Any] | None
    match_winners: list[int]
    breakdown: NotRequired[list[dict[str, int]]]


def public_view(g: "Game") -> PublicObservation:
    """:meth:`core.Game.public_observation`."""
    n = g.num_players
    obs: PublicObservation = {
        "variant": g.variant,
        "version": g.version,
        "round": g.round,
        "dealer": g.dealer,
        "current": g.current,
        "direction": g.direction,
        "color": g.color,
        "top": g.top.to_dict() if g.discard else None,  # type: ignore[typeddict-item]
        # (Cards face down in a pile, as a sealed Diez Revive leaves them, are not shown: Diez
        # shows only each pile's top.)
        "discard": [c.to_dict() for c in g.discard if not is_sealed(c)],  # type: ignore[misc]
        "draw_count": len(g.draw_pile),
        "set_aside_count": len(g.set_aside),
        "deck_size": g.deck_size,
        "phase": g.phase,
        "pending": g._public_pending(),
        "decision": None if g.phase == "over" else {"player": g._decider(), "kind": g._decision_kind()},
        "players": [
            {
                "name": g.names[q],
                "cards": len(g.hands[q]),
                "uno": g.declared[q] and len(g.hands[q]) == 1,
                "exposed": g.exposed == q,
                "out": g.out[q],
                "score": g.scores[q],
            }
            for q in range(n)
        ],
        "to_act": g.to_act(),
        "options": dict(g.options),
        "target_score": g.target_score,
        "over": g.over,
        "winner": g.winner,
        "scores": list(g.scores),
        "match_over": g.match_over,
        "match_winner": g.match_winner,
    }
    if g.over:
        obs["hands"] = [[c.to_dict() for c in h] for h in g.hands]  # type: ignore[misc]
        obs["hand_points"] = [sum(g.card_points(c) for c in h) for h in g.hands]
        obs["points"] = g.last_points
        obs["bonus"] = g._round_bonus(g.winner) if g.winner is not None else 0
    g._observe_public(obs)  # type: ignore[arg-type]
    return obs


def private_view(g: "Game", p: int | None) -> PrivateObservation:
    """:meth:`core.Game.private_observation`."""
    me = p if p is not None and 0 <= p < g.num_players else None
    obs: PrivateObservation = {"me": me}
    if me is not None:
        obs["hand"] = [c.to_dict() for c in g.hands[me]]  # type: ignore[misc]
        obs["legal"] = [a.to_dict() for a in g.legal_actions(me)]  # type: ignore[misc]
        obs["drawn"] = g.drawn if me == g.current and g.phase == "drawn" else None
    g._observe_private(obs, me)  # type: ignore[arg-type]
    return obs
