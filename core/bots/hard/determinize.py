"""Determinization: a full game state consistent with what one seat has seen.

The search never sees the real game. From the seat's observation and its
:class:`~.belief.Belief` it builds a :class:`core.Game` in which the seat's
own hand and every public fact are as observed and the hidden cards (other
hands, the draw pile, a variant's face-down places) are dealt from the cards
the seat has not seen, with the search's own random generator.

A variant plugs in a :class:`Layout` (registered with :func:`layout`): which
cards the observation shows, which hidden places there are and how big, how
to write the public state (in :meth:`core.Game.to_dict`'s format) from an
observation, and how to place a deal of the hidden cards into a copy of it.
The base layout fits games built on the base class with one discard pile
(classic, No Mercy).

A determinization is only as good as its layout, so :func:`check` compares the
built game's own observation for the seat with the one it was built from: if
they differ, the layout does not understand this position, and the bot plays
its ``normal`` move instead of searching a wrong game.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from ...game import Game
from ..belief import Belief, faces  # noqa: F401  (faces: re-exported for the search)

Obs = dict[str, Any]


class Layout:
    """How a variant's state is laid out for determinization (the base: one discard pile)."""

    playout_policy: Callable[[Any, Sequence[int], random.Random], int] | None = None
    """The variant's own playout policy on the fast path (its ``normal`` bots' habits), if it has
    one; else :func:`~core.bots.hard.bot.policy_for` chooses."""

    def supports(self, obs: Obs) -> bool:
        """Whether positions like ``obs`` can be laid out at all (else the bot does not search)."""
        return True

    def visible(self, obs: Obs, belief: Belief) -> set[int]:
        """Card ids whose place the seat can see (its hand, the piles, hands shown face up, ...)."""
        ids = {c["id"] for c in obs["hand"]}
        ids.update(c["id"] for c in obs["discard"])
        for info in obs["players"]:
            ids.update(c["id"] for c in info.get("hand", ()))
        return ids

    def hidden_sizes(self, obs: Obs) -> dict[int, int]:
        """Opponents whose hands are hidden -> their sizes."""
        me = obs["me"]
        return {q: info["cards"] for q, info in enumerate(obs["players"])
                if q != me and info["cards"] and "hand" not in info}

    def split(self, obs: Obs, belief: Belief, unseen: list[int]) -> tuple[list[int], list[int]]:
        """Part the unseen cards into those that may be in a hand and those ``reserved`` for a
        place the seat's events showed them going to (none in the base layout)."""
        return unseen, []

    def state(self, obs: Obs) -> dict[str, Any]:
        """The public part of the state in :meth:`core.Game.to_dict` form: the seat's own
        hand and hands shown face up in place, the hidden places left empty for :meth:`place`."""
        me = obs["me"]
        hands: list[list[int]] = []
        for q, info in enumerate(obs["players"]):
            if q == me:
                hands.append([c["id"] for c in obs["hand"]])
            else:
                hands.append([c["id"] for c in info.get("hand", ())])
        legal = obs.get("legal", ())
        declared = []
        calls = obs["options"].get("uno_calls", True)  # Diez may play without them: never declared
        for q, info in enumerate(obs["players"]):
            called = bool(info["uno"])
            if calls and q == me and not called and len(obs["hand"]) == 2 and not any(a["kind"] == "uno" for a in legal) \
                    and any(a["kind"] == "play" for a in legal):
                called = True  # it called already: UNO is no longer offered with a play
            declared.append(called)
        return {
            "variant": obs["variant"],
            "names": [info["name"] for info in obs["players"]],
            "options": dict(obs["options"]),
            "seed": b"determinization",
            "scores": list(obs["scores"]),
            "round": obs["round"],
            "dealer": obs["dealer"],
            "version": obs["version"],
            "epoch": 0,
            "hands": hands,
            "draw_pile": [],
            "discard": [c["id"] for c in obs["discard"]],
            "current": obs["current"],
            "direction": obs["direction"],
            "color": obs["color"],
            "phase": obs["phase"],
            "pending": None if obs["pending"] is None else dict(obs["pending"]),
            "drawn": obs.get("drawn"),
            "declared": declared,
            "exposed": next((q for q, info in enumerate(obs["players"]) if info["exposed"]), None),
            "out": [bool(info.get("out")) for info in obs["players"]],
            "set_aside": [],
            "winner": obs["winner"],
            "last_points": 0,
            "deal_events": [],
            "extra": self.extra(obs),
        }

    def extra(self, obs: Obs) -> dict[str, Any]:
        """The variant's own saved state (``to_dict()["extra"]``), its hidden parts left empty."""
        return {}

    def place(self, game: Game, obs: Obs, hands: dict[int, list[int]], rest: list[int],
              rng: random.Random, reserved: list[int] = ()) -> None:
        """Put a deal into ``game`` (a fresh copy of the template): ``hands`` for the hidden
        hands, ``reserved`` (see :meth:`split`) and ``rest`` (shuffled) for the other hidden places."""
        card = game.cards.__getitem__
        for q, ids in hands.items():
            game.hands[q] = [card(i) for i in ids]
        aside = obs.get("set_aside_count", 0)
        game.set_aside = [card(i) for i in rest[:aside]]
        game.draw_pile = [card(i) for i in rest[aside:]]
        pending = game.pending
        if pending is not None and "color_before" in pending and pending.get("by") is not None:
            # Whether the Wild Draw Four was a bluff follows from the hand dealt to its player.
            before = pending["color_before"]
            pending["bluff"] = any(c.color == before for c in game.hands[pending["by"]])
        if game.phase == "drawn" and game.drawn is None:
            # Someone else drew a playable card: one of the cards they hold now.
            hand = game.hands[game.current]
            fits = [c for c in hand if game.is_playable(c)]
            game.drawn = rng.choice(fits or hand).id if hand else None

    def align(self, game: Game, obs: Obs) -> None:
        """After this seat's moves were made again on a deal of an earlier position
        (:func:`~core.bots.hard.bot.replayed`): bring in line what ``obs`` now shows that the
        layout could not know then (the base: nothing)."""

    def template(self, obs: Obs) -> Game:
        """The public state as a game, for :class:`Dealer` to copy for each deal."""
        return Game.from_dict(self.state(obs))

    def clone(self, game: Game) -> Game:
        """A copy of ``game`` that shares nothing it could change (faster than ``Game.copy``)."""
        new = object.__new__(type(game))
        new.__dict__ = {k: v if k in _SHARED or type(v) not in _CONTAINERS else _fresh(v)
                        for k, v in game.__dict__.items()}
        new._legal_cache = (-1, {})
        return new


_SHARED = frozenset({"cards", "_faces", "_play_acts", "source", "options", "names", "seed", "_deal_events"})
"""Attributes a game never changes in place: a copy may share them."""
_CONTAINERS = (list, dict, set)


def _fresh(v: Any) -> Any:
    t = type(v)
    if t is list:
        return [_fresh(x) if type(x) in _CONTAINERS else x for x in v]
    if t is dict:
        return {k: (_fresh(x) if type(x) in _CONTAINERS else x) for k, x in v.items()}
    if t is set:
        return set(v)
    return v


_LAYOUTS: dict[str, Layout] = {}
_BASE = Layout()


def layout(variant: str) -> Callable[[type[Layout]], type[Layout]]:
    """Class decorator: the layout of ``variant``."""

    def deco(cls: type[Layout]) -> type[Layout]:
        _LAYOUTS[variant] = cls()
        return cls

    return deco


def layout_for(variant: str) -> Layout:
    if variant not in _LAYOUTS:
        _load(variant)
    return _LAYOUTS.get(variant, _BASE)


def _load(variant: str) -> None:
    """Variants keep their layout in ``core.variants.<name>.hard`` (if they need one)."""
    import importlib

    try:
        importlib.import_module(f"core.variants.{variant}.hard")
    except ModuleNotFoundError as e:
        if not (e.name or "").startswith(f"core.variants.{variant}"):
            raise
    _LAYOUTS.setdefault(variant, _BASE)


REDEALS = 20
"""Deals tried for one determinization before one that disagrees is kept."""
OFF_HABIT = 0.15
"""Chance of keeping a deal in which an opponent's last play was not the habitual one."""


class Dealer:
    """Deals determinizations of one observation: the public state is built once, and each
    deal copies it and places freshly sampled hidden cards."""

    def __init__(self, obs: Obs, belief: Belief) -> None:
        self.obs = obs
        self.belief = belief
        self.layout = layout_for(obs["variant"])
        visible = self.layout.visible(obs, belief)
        unseen = [i for i in range(obs["deck_size"]) if i not in visible]
        self.unseen, self.reserved = self.layout.split(obs, belief, unseen)
        self.sizes = self.layout.hidden_sizes(obs)
        self._template = self.layout.template(obs)

    def deal(self, rng: random.Random) -> Game:
        """A determinization. Who may act now must be as observed (whether anyone else may jump
        in shows in the observation), and the opponents' last plays should be ones they would
        have made from the hands dealt (:meth:`~core.bots.belief.Belief.plausible`; a deal that
        breaks that is kept only now and then, as people do not always play by habit): deals
        that disagree are redealt a few times."""
        want = self.obs["to_act"]
        for _ in range(REDEALS):
            hands = self.belief.sample(self.unseen, self.sizes, rng)
            if not self.belief.plausible(hands) and rng.random() >= OFF_HABIT:
                continue
            game = self._deal(hands, rng)
            if game.to_act() == want:
                break
        else:
            game = self._deal(self.belief.sample(self.unseen, self.sizes, rng), rng)
        return game

    def _deal(self, hands: dict[int, list[int]], rng: random.Random) -> Game:
        dealt = {c for h in hands.values() for c in h}
        rest = [c for c in self.unseen if c not in dealt]
        rng.shuffle(rest)
        reserved = list(self.reserved)
        rng.shuffle(reserved)
        game = self.layout.clone(self._template)
        self.layout.place(game, self.obs, hands, rest, rng, reserved)
        return game


def determinize(obs: Obs, belief: Belief, rng: random.Random) -> Game:
    """One determinization of ``obs`` (a :class:`Dealer` deals many faster)."""
    return Dealer(obs, belief).deal(rng)


def check(game: Game, obs: Obs) -> list[str]:
    """The keys where ``game``'s observation for ``obs["me"]`` differs from ``obs`` (none: a faithful build).

    ``to_act`` is left out: it depends on the hidden cards (who could jump in), and
    :meth:`Dealer.deal` already deals for it.
    """
    mine = game.observation(obs["me"])
    keys = (set(mine) | set(obs)) - {"to_act"}
    return sorted(k for k in keys if mine.get(k) != obs.get(k))
