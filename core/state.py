"""A game's state as data: saving it (:meth:`core.Game.to_dict`), rebuilding it
(:meth:`core.Game.from_dict`), and checking it is sound (:meth:`core.Game.inconsistencies`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from . import sealed as sealing
from .events import Event
from .source import DeckSource, SeededSource

if TYPE_CHECKING:
    from .game import Game


def save(g: Game, *, deal_events: bool = True, slots: bool = True) -> dict[str, Any]:
    """The whole state as msgpack-able data (:meth:`core.Game.to_dict`); ``deal_events=False``
    leaves the deal's events out, ``slots=False`` a sealed game's handle table (for :func:`copy`,
    which shares the one and copies the other)."""
    d = {
        "variant": g.variant,
        "names": list(g.names),
        "options": dict(g.options),
        "seed": g.seed,
        "scores": list(g.scores),
        "round": g.round,
        "dealer": g.dealer,
        "version": g.version,
        "epoch": g.epoch,
        "hands": [[c.id for c in h] for h in g.hands],
        "draw_pile": [c.id for c in g.draw_pile],
        "discard": [c.id for c in g.discard],
        "current": g.current,
        "direction": g.direction,
        "color": g.color,
        "phase": g.phase,
        "pending": None if g.pending is None else dict(g.pending),
        "drawn": g.drawn,
        "declared": list(g.declared),
        "exposed": g.exposed,
        "out": list(g.out),
        "set_aside": [c.id for c in g.set_aside],
        "winner": g.winner,
        "last_points": g.last_points,
        "deal_events": None if not deal_events else [e.to_dict() for e in g._deal_events]
        if g._slots is None else sealing.save_events(g._deal_events),
        "extra": g._save_extra(),
    }
    if g._slots is not None and slots:
        d["slots"] = sealing.save(g)
    return d


def load(klass: type[Game], d: dict[str, Any], source: DeckSource | None, like: Game | None = None) -> Game:
    """Rebuild a ``klass`` game saved by :func:`save`; ``like``: the game ``d`` was saved from,
    whose deck, options and deal events (never changed in place) the new one shares."""
    g = klass.__new__(klass)
    g.names = list(d["names"])
    g.seed = bytes(d["seed"])
    g.source = source if source is not None else SeededSource(g.seed)
    if like is None:
        g.options = klass.check_options(dict(d["options"]))
        g._init_deck()
    else:
        g.options = dict(like.options)
        g.cards, g._faces, g._play_acts = like.cards, like._faces, like._play_acts
        if like._slots is not None:  # a sealed game's table changes in place as faces are learnt: lists of its own
            g.cards, g._play_acts = list(like.cards), list(like._play_acts)
    if like is not None and like._slots is not None:
        g._slots = sealing.copy_slots(like._slots)
    elif d.get("slots") is not None:
        sealing.load(g, d["slots"])
    by_id = g.cards.__getitem__
    g.scores = list(d["scores"])
    g.round = d["round"]
    g.dealer = d["dealer"]
    g.version = d["version"]
    g._legal_cache = (-1, {})
    g.epoch = d["epoch"]
    g.hands = [[by_id(i) for i in h] for h in d["hands"]]
    g.draw_pile = [by_id(i) for i in d["draw_pile"]]
    g.discard = [by_id(i) for i in d["discard"]]
    g.current = d["current"]
    g.direction = d["direction"]
    g.color = d["color"]
    g.phase = d["phase"]
    g.pending = None if d["pending"] is None else dict(d["pending"])
    g.drawn = d["drawn"]
    g.declared = list(d["declared"])
    g.exposed = d["exposed"]
    g.out = list(d["out"])
    g.set_aside = [by_id(i) for i in d["set_aside"]]
    g.winner = d["winner"]
    g.last_points = d["last_points"]
    if like is not None:
        g._deal_events = like._deal_events  # a list of named tuples, replaced (never changed) by a new deal
    elif g._slots is None:
        g._deal_events = [Event.from_dict(e) for e in d["deal_events"]]
    else:
        g._deal_events = sealing.load_events(g, d["deal_events"])
    g._load_extra(d.get("extra", {}))
    return g


def copy(g: Game, source: DeckSource | None) -> Game:
    """A copy of ``g`` as ``from_dict(to_dict())`` makes it, with ``source``, built in a fifth of
    the time: the deck and the deal's events are shared, not rebuilt (every move a network host
    makes is first tried on such a copy, see :meth:`core.Game.chance_for`; every peer of a sealed
    table asks each move's needs of one)."""
    return load(type(g), save(g, deal_events=False, slots=False), source, like=g)


def problems(g: Game) -> list[str]:
    """:meth:`core.Game.inconsistencies`."""
    out: list[str] = []
    live = g.all_cards()
    places = Counter(c.id for c in live)
    s = g._slots
    if s is None and (len(places) != len(g.cards) or max(places.values(), default=1) > 1):
        twice = sorted(i for i, k in places.items() if k > 1)
        missing = sorted(set(range(len(g.cards))) - set(places))
        out.append(f"every card must lie in exactly one place (twice: {twice}, nowhere: {missing})")
    if s is not None:
        twice = sorted(i for i, k in places.items() if k > 1)
        if twice or len(places) != len(s.deck):
            out.append(f"every card must lie in exactly one place ({len(places)} cards in play of "
                       f"{len(s.deck)}; twice: {twice})")
        if any(g.cards[c.id] is not c for c in live):
            out.append("a card in play is not the game's own card of its id")
        deck, known = Counter(s.deck), sealing.live_faces(g)
        if known - deck:
            out.append(f"cards in play that the deck does not have: {dict(known - deck)}")
    n = g.num_players
    if not 0 <= g.current < n:
        out.append(f"current {g.current} is not a seat")
    if g.direction not in (1, -1):
        out.append(f"direction {g.direction} is not 1 or -1")
    x = g.exposed
    if x is not None and (g.out[x] or len(g.hands[x]) != 1):
        out.append(f"player {x} is open to a catch without holding exactly one card")
    for q in range(n):
        if g.out[q] and g.hands[q]:
            out.append(f"player {q} is out of the round but holds cards")
    if not g.over and g.out[g.current]:
        out.append(f"it is the turn of player {g.current}, who is out")
    if g.phase == "drawn" and g._hand_card(g.current, g.drawn) is None:
        out.append("the card just drawn is not in the hand of the player whose turn it is")
    out += g._inconsistencies()
    return out
