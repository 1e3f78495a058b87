"""The shared base of the rollout simulators: move encoding, chance, act order, copying.

A rollout state is plain lists of small ints: a card is its engine id, a hand is the
list of ids in the engine's order (so moves come out in the engine's order), colours and
phases are small codes. A move is one int::

    bits 0-3    the actor (seat)
    bits 4-7    the target (15: none)
    bits 8-13   a string argument: 1 + its index in the variant's ``STRS`` (0: none)
    bits 14-21  a card id (255: none)
    bits 22-    the kind: an index into the variant's ``KINDS``

so :meth:`Rollout.action` turns any move back into the engine's :class:`~core.Action`
without per-variant code, and the move tables a variant builds once per table size are
tuples of these ints (no arithmetic on the hot path).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Sequence

from ..actions import Action
from ..source import DeckSource

NO_TARGET = 15
NO_CARD = 255
CARD_SHIFT = 14
KIND_SHIFT = 22
TARGET_BITS = 0xF0


def encode(kind: int, actor: int, card: int | None = None, arg: int = 0, target: int | None = None) -> int:
    """One move as an int (``arg`` is already 1 + the index into ``STRS``, or 0)."""
    return ((kind << KIND_SHIFT) | ((NO_CARD if card is None else card) << CARD_SHIFT) | (arg << 8)
            | ((NO_TARGET if target is None else target) << 4) | actor)


def with_target(move: int, target: int) -> int:
    """``move`` aimed at ``target`` instead."""
    return (move & ~TARGET_BITS) | (target << 4)


_TABLES: dict[Any, Any] = {}
"""Every variant's tables by (rollout class, players, options): pure data, shared by all rollouts."""


class Chance:
    """Where a rollout's randomness comes from.

    The default draws from a seeded :class:`random.Random` owned by the rollout. Given a
    :class:`~core.DeckSource` instead, every request is put to it exactly as the engine
    puts it (items in canonical order, the engine's epoch numbers), so a rollout can
    follow a seeded game through every reshuffle; the equivalence test relies on this.
    The items are ints (card ids, token indices), which a :class:`~core.SeededSource`
    permutes exactly as it permutes the engine's cards and token names.
    """

    __slots__ = ("rng", "source")

    def __init__(self, seed: int | str | bytes | None = 0, source: DeckSource | None = None) -> None:
        self.rng = random.Random(seed) if source is None else None
        self.source = source

    def shuffled(self, items: list[int], epoch: int) -> list[int]:
        """A new order of ``items`` (the list itself may be reused)."""
        if self.source is not None:
            items.sort()
            return self.source.shuffle(items, epoch)
        # Fisher-Yates on random(): twice as quick as Random.shuffle, and a float's 53 bits leave
        # no bias worth the name for piles this small.
        rr = self.rng.random  # type: ignore[union-attr]
        for i in range(len(items) - 1, 0, -1):
            j = int(rr() * (i + 1))
            items[i], items[j] = items[j], items[i]
        return items

    def sample(self, items: list[int], k: int, epoch: int) -> list[int]:
        """``k`` of ``items`` at random: the first ``k`` of a shuffle, as the engine takes them."""
        if self.source is not None:
            return self.source.shuffle(sorted(items), epoch)[:k]
        return self.rng.sample(items, k)  # type: ignore[union-attr]

    def last(self, items: list[int], epoch: int) -> int:
        """One of ``items`` at random: the last of a shuffle, as the engine takes it."""
        if self.source is not None:
            return self.source.shuffle(sorted(items), epoch)[-1]
        return items[int(self.rng.random() * len(items))]  # type: ignore[union-attr]


class Rollout:
    """A fast copy of one round of a game, for search: see :mod:`core.rollout`.

    Subclasses (one per variant) fill in :meth:`moves`, :meth:`_apply` (what :meth:`step`
    does), :meth:`points`, :meth:`to_state` and ``from_game``, the loading from a
    :class:`~core.Game`.
    """

    variant: ClassVar[str] = ""
    KINDS: ClassVar[tuple[str, ...]] = ()
    """Move kinds, by code (the engine's ``Action.kind`` strings)."""
    STRS: ClassVar[tuple[str, ...]] = ()
    """The strings a move's ``color`` field may hold (colours, and a variant's own names)."""
    LISTS: ClassVar[tuple[str, ...]] = ()
    """Flat list attributes that :meth:`copy` copies (``hands`` is always copied)."""

    n: int
    """Players at the table."""
    hands: list[list[int]]
    """Each player's card ids, in the engine's order."""
    current: int
    """Whose turn it is."""
    over: bool
    """The round is over."""
    winner: int | None
    """The round's winner once :attr:`over` (``None`` for a shared round)."""
    version: int
    """Counts moves, as the engine's ``version`` counts actions."""
    epoch: int
    """Counts requests for chance, as the engine's ``epoch`` does."""

    _ms: list[int] | None

    # -- the interface ---------------------------------------------------------------------
    def moves(self) -> list[int]:
        """Every legal move now, of every player who may act, in the engine's act order.

        The players of the engine's ``to_act()`` in its ``acting_order()`` (by distance from the
        player the game waits on, out-of-turn players first and that player last, the order
        ``core/bots/simulate.py`` asks them in); each player's ``legal_actions()`` in the
        engine's order. Empty once :attr:`over`. The list is shared: do not change it.
        """
        raise NotImplementedError

    def step(self, index: int) -> None:
        """Apply ``moves()[index]``."""
        ms = self._ms
        if ms is None:
            ms = self.moves()
        m = ms[index]
        self._ms = None
        self.version += 1
        self._apply(m)

    def points(self) -> list[int]:
        """This round's points per player as the engine scores them: zeros until :attr:`over`,
        except in the extended rules, where each player who goes out scores at once."""
        raise NotImplementedError

    def to_state(self) -> dict[str, Any]:
        """The state in the shape of the engine's :meth:`~core.Game.to_dict` (the keys it holds)."""
        raise NotImplementedError

    def actor(self, index: int) -> int:
        """The player who makes ``moves()[index]``."""
        return self.moves()[index] & 15

    def action(self, index: int) -> Action:
        """The engine :class:`~core.Action` of ``moves()[index]``."""
        return self.decode(self.moves()[index])

    def decode(self, move: int) -> Action:
        """The engine :class:`~core.Action` of a move int."""
        card = (move >> CARD_SHIFT) & 255
        arg = (move >> 8) & 63
        target = (move >> 4) & 15
        return Action(self.KINDS[move >> KIND_SHIFT], None if card == NO_CARD else card,
                      self.STRS[arg - 1] if arg else None, None if target == NO_TARGET else target)

    def copy(self, seed: int | str | bytes | None = None) -> "Rollout":
        """An independent copy of the state. It shares this rollout's random stream (so copies
        sample different futures) unless ``seed`` gives it one of its own."""
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        d["hands"] = [h[:] for h in self.hands]
        for name in self.LISTS:
            d[name] = d[name][:]
        self._copy_more(d)
        if seed is not None:
            d["chance"] = Chance(seed)
        return new

    def _copy_more(self, d: dict[str, Any]) -> None:
        """Copy what :attr:`LISTS` does not cover (nested state)."""

    # -- shared helpers ----------------------------------------------------------------------
    TABLES: ClassVar[type["CardTables"]]
    """The variant's tables (built once per table size and options, see :meth:`tables`)."""

    @classmethod
    def tables(cls, game: Any) -> Any:
        """The tables for ``game``'s variant, table size and options, built on first use."""
        key = (cls, game.num_players, tuple(sorted(game.options.items())))
        t = _TABLES.get(key)
        if t is None:
            t = _TABLES[key] = cls.TABLES(game)
        return t

    def _init(self, game: Any, seed: int | str | bytes | None, source: DeckSource | None) -> None:
        self.n = game.num_players
        self.chance = Chance(seed, source)
        self.epoch = game.epoch
        self.version = game.version
        self.scores0 = list(game.scores)
        self._ms = None

    def _loaded(self) -> None:
        """After loading: the match scores before this round (a finished round's points are in
        the game's scores already)."""
        self.scores0 = [s - q for s, q in zip(self.scores0, self.points())]

    def _act_order(self, actors: Sequence[int], first: int) -> list[int]:
        """``actors`` (seat order) in the engine's ``Game.acting_order()``: by distance from
        ``first``, the player the game waits on, who comes last (out-of-turn players speak first)."""
        if len(actors) < 2:
            return list(actors)
        n = self.n
        order = sorted(actors, key=lambda q: (q - first) % n)
        return [q for q in order if q != first] + [q for q in order if q == first]

    def _shuffled(self, cards: list[int]) -> list[int]:
        out = self.chance.shuffled(cards, self.epoch)
        self.epoch += 1
        return out

    def _sample(self, cards: list[int], k: int) -> list[int]:
        out = self.chance.sample(cards, k, self.epoch)
        self.epoch += 1
        return out

    def _pick_last(self, items: list[int]) -> int:
        out = self.chance.last(items, self.epoch)
        self.epoch += 1
        return out

    def _apply(self, m: int) -> None:
        """Carry out the move ``m`` (a variant's rules)."""
        raise NotImplementedError

    # UNO calls and catches, which every shedding variant's engine handles alike
    K_UNO: ClassVar[int] = -1
    K_CATCH: ClassVar[int] = -1
    exposed: int | None
    """The player with one card and no UNO call, who may still be caught."""

    def _call_or_catch(self, p: int, kind: int, m: int) -> bool:
        """Carry out an UNO call or a catch and say so; any other move (by anyone but the exposed
        player) ends the chance to catch, as the engine's ``apply`` does before the variant acts."""
        if kind == self.K_UNO:
            self.declared[p] = True
            if self.exposed == p:
                self.exposed = None
            return True
        if kind == self.K_CATCH:
            self.exposed = None
            self._catch_draw((m >> 4) & 15, self.T.uno_penalty)
            return True
        if p != self.exposed:
            self.exposed = None
        return False

    def _catch_draw(self, q: int, n: int) -> None:
        """``q`` was caught without calling UNO and draws ``n``."""
        self._draw(q, n)  # type: ignore[attr-defined]

    def _exposure(self, p: int, acts: list[int]) -> list[int]:
        """``acts`` with the UNO call or the catch an exposed player offers ``p`` (the engine's
        ``_legal``)."""
        x = self.exposed
        if x is not None:
            if p == x:
                uno = self.T.uno[p]
                if uno not in acts:
                    acts.append(uno)
            elif not self.out[p]:
                acts.append(self.T.catch[p][x])
        return acts

    knocked: int
    """How many players are out of the round (0 makes :meth:`_next` simple arithmetic)."""
    mercy: ClassVar[int] = 0
    """A hand size from which :meth:`_after_draw` has work to do (No Mercy's limit; 0: never)."""

    def _next(self, p: int, steps: int = 1) -> int:
        """The player ``steps`` seats on in the direction of play, passing players who are out."""
        if not self.knocked:
            return (p + self.direction * steps) % self.n
        out, n, d = self.out, self.n, self.direction
        for _ in range(steps):
            p = (p + d) % n
            while out[p]:
                p = (p + d) % n
        return p

    def _draw(self, p: int, k: int) -> list[int]:
        """``p`` draws ``k`` cards (fewer if the piles run dry), reshuffling as the variant's
        :meth:`_draw_one` does; returns them."""
        draw = self.draw
        if len(draw) >= k:
            got = draw[-k:] if k else []
            del draw[len(draw) - k:]
            got.reverse()
        else:
            got = []
            for _ in range(k):
                c = self._draw_one()
                if c < 0:
                    break
                got.append(c)
        self._give(p, got)
        return got

    def _draw_one(self) -> int:
        """The top card of the pile, reshuffling the discards first if it is empty; -1 if none."""
        raise NotImplementedError

    def _give(self, p: int, got: list[int]) -> None:
        """``p`` takes the cards ``got`` from the pile (the engine's ``Game._give``)."""
        if got:
            self.hands[p] += got
            self.declared[p] = False
            if self.exposed == p:
                self.exposed = None
        if self.mercy and len(self.hands[p]) >= self.mercy:
            self._after_draw(p)

    def _after_draw(self, p: int) -> None:
        """After a draw leaves ``p`` with at least :attr:`mercy` cards (No Mercy's Mercy rule)."""

    def _state(self, **own: Any) -> dict[str, Any]:
        """:meth:`to_state`: the keys every variant keeps alike, and the variant's ``own``."""
        out = {
            "hands": [list(h) for h in self.hands],
            "draw_pile": list(self.draw),
            "set_aside": list(self.set_aside),
            "current": self.current,
            "direction": self.direction,
            "declared": list(self.declared),
            "exposed": self.exposed,
            "out": list(self.out),
            "winner": self.winner,
            "last_points": self.last_points,
            "epoch": self.epoch,
            "version": self.version,
            "scores": [s + q for s, q in zip(self.scores0, self.points())],
        }
        out.update(own)
        return out

    def _load(self, game: Any) -> None:
        """Copy the state every variant keeps alike from ``game``."""
        self.hands = [[c.id for c in h] for h in game.hands]
        self.draw = [c.id for c in game.draw_pile]
        self.set_aside = [c.id for c in game.set_aside]
        self.current = game.current
        self.direction = game.direction
        self.declared = list(game.declared)
        self.exposed = game.exposed
        self.out = list(game.out)
        self.knocked = sum(self.out)
        self.winner = game.winner
        self.last_points = game.last_points

    def __repr__(self) -> str:
        return f"<{type(self).__name__} players={self.n} current={self.current} over={self.over}>"


def clone(data: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples of ints, strings, bools and None): much
    quicker than :func:`copy.deepcopy`, which a rollout's copies cannot afford."""
    t = type(data)
    if t is dict:
        return {k: clone(v) for k, v in data.items()}
    if t is list:
        return [clone(v) for v in data]
    if t is tuple:
        return tuple(clone(v) for v in data)
    return data


class CardTables:
    """Per-card facts every variant's tables start from, built once per variant, table size
    and options (see each variant's ``Tables``)."""

    def __init__(self, game: Any) -> None:
        cards = game.cards
        self.n = game.num_players
        self.cards = cards
        self.colors: list[str] = list(dict.fromkeys(["red", "yellow", "green", "blue"]
                                                    + [c.color for c in cards if c.color is not None]))
        """Colour names by code: the suits in :data:`~core.COLORS` order, then a variant's others."""
        self.black = len(self.colors)
        """The colour code of a black card."""
        self.ranks: list[str] = list(dict.fromkeys(c.rank for c in cards))
        self.nr = len(self.ranks)
        self.col = bytes(self.black if c.color is None else self.colors.index(c.color) for c in cards)
        """Each card's colour code."""
        self.rk = bytes(self.ranks.index(c.rank) for c in cards)
        """Each card's rank code."""
        self.uno_penalty = int(game.options.get("uno_penalty", 2))

    def per_seat(self, kind: int, **fields: Any) -> tuple[int, ...]:
        """The move ``kind`` (with ``fields``) for each seat."""
        return tuple(encode(kind, p, **fields) for p in range(self.n))

    def calls(self, k_uno: int, k_catch: int) -> None:
        """The UNO call of each seat, and each seat's catch of each other."""
        self.uno = self.per_seat(k_uno)
        self.catch = tuple(tuple(encode(k_catch, p, target=x) for x in range(self.n)) for p in range(self.n))
