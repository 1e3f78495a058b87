"""What one seat knows about the cards it cannot see, from the events it was shown.

A :class:`Belief` reads the seat's event stream (every event already passed
through :meth:`core.Event.view` for that seat, so a hidden card never reaches
it) and keeps, per opponent:

* ``known``: cards it knows are in that hand (a hand shown after a challenge,
  a hand it gave away in a 7-0 swap, cards turned up face up for all);
* ``cohorts``: what a part of the hand cannot be. When a player draws on its
  turn instead of playing, the cards it held then match neither the colour nor
  the rank on top (wilds are left open: a player may save one); when it fails
  to follow the led colour in Wild Rawz, it holds none of it. Cards drawn
  later are free, so each constraint covers only the cards held since: a
  *cohort* of a size that shrinks as cards leave the hand. Cohorts nest (the
  cards held since an older draw were also held at a newer one), so a sample
  fills the oldest cohort with cards that break none of the constraints,
  the next with those that break none of the newer ones, and so on;
* ``played``: cards seen going to a discard pile since the last reshuffle
  (Diez shows only each pile's top in the observation).

Everything is checked against the observation at each decision (hand sizes,
cards visible elsewhere); what does not fit is forgotten, never trusted. An
event kind it does not understand makes it forget what it knew about the
players named in it. :meth:`sample` deals the unseen cards to the hidden
places consistently with all this, with the search's own random generator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from functools import lru_cache

from ..events import Event
from ..registry import variant_class

Face = tuple  # (colour, rank)


@lru_cache(maxsize=64)
def _faces(variant: str, players: int, options: tuple) -> tuple:
    cls = variant_class(variant)
    return tuple(cls.build_deck(players, cls.check_options(dict(options))))


def faces(obs: dict[str, Any]) -> tuple:
    """Card id -> (colour, rank) for the deck of the game ``obs`` comes from."""
    return _faces(obs["variant"], len(obs["players"]), tuple(sorted(obs["options"].items())))


@dataclass
class Cohort:
    """``count`` cards of a hand that are none of ``colors`` and none of ``ranks``."""

    colors: frozenset
    ranks: frozenset
    count: int

    def allows(self, face: Face) -> bool:
        return face[0] not in self.colors and face[1] not in self.ranks


@dataclass
class Knowledge:
    """What the seat knows about one opponent's hand."""

    known: set[int] = field(default_factory=set)
    cohorts: list[Cohort] = field(default_factory=list)
    """Oldest first."""
    lean: dict[str, float] = field(default_factory=dict)
    """Colour -> how much likelier than chance a card of it is (a log-weight): a player who
    names a colour with a wild usually holds many of it."""

    def forget(self) -> None:
        self.known.clear()
        self.cohorts.clear()
        self.lean.clear()


# Event kinds the belief understands; others make it forget about the players they name.
_QUIET = frozenset({
    "deal", "uno", "catch", "challenge", "skip", "pass", "empty", "jump_in", "round_over", "match_over",
    "skip_all", "trick", "aside", "row", "trump", "take",
})


@dataclass
class Habit:
    """A play of an opponent since it last drew, with what it saw then: a sample of its hand is
    checked against the play a ``normal``-like player would have made from it (see
    :meth:`Belief.plausible`)."""

    face: Face
    named: str | None
    color: str | None
    top_rank: str | None
    danger: bool
    close: bool
    size: int
    """Cards held just before the play."""
    read: bool = True
    """Whether the play was a choice to read (not a card drawn and played at once)."""


LEAN_ON_NAMING = 1.0
"""Log-weight a colour gains in a hand when its holder names it with a wild."""
LEAN_KEPT_ON_DRAW = 0.8
"""Share of a hand's lean kept each time its holder draws (new cards dilute it)."""


class Belief:
    """One seat's knowledge of the hidden hands in the current round."""

    def __init__(self, seat: int, faces: Sequence[Face], players: int, *, voids_on_draw: bool = False,
                 follow_suit: bool = False, habits: bool = False, honest_draw_four: bool = False) -> None:
        self.seat = seat
        self.faces = faces
        """Card id -> (colour, rank) for the variant's deck."""
        self.n = players
        self.voids_on_draw = voids_on_draw
        """A draw on your turn says you could not play (classic and No Mercy)."""
        self.follow_suit = follow_suit
        """Must-follow tricks: not following says you hold none of the led colour (Wild Rawz)."""
        self.honest_draw_four = honest_draw_four
        """A Wild Draw Four says its player held no card of the colour in play (classic: the
        simulated players never bluff, nor does ``normal``; a hand shown after a challenge that
        says otherwise is known, and what does not fit is forgotten)."""
        self.hands = [Knowledge() for _ in range(players)]
        self.counts: list[int | None] = [None] * players
        self.mine: set[int] | None = None
        self.played: set[int] = set()
        self.color: str | None = None
        self.top_rank: str | None = None
        self.direction = 1
        self.out = [False] * players
        self.lead: str | None = None  # Wild Rawz: the colour led in the trick on the table
        self.synced = False
        self.lean_on_naming = LEAN_ON_NAMING
        self.habits_on = habits
        """Read each opponent's plays since it last drew as a ``normal``-like player's choices (classic)."""
        self.habits: dict[int, list[Habit]] = {}
        self._drew_this_turn: set[int] = set()
        self._drawn_on: dict[int, tuple[Cohort, int]] = {}
        """Opponent -> the cohort its draw this turn made and the cards drawn, while its turn may go on
        (see :meth:`_turn_moved_on`)."""

    # -- reading events --------------------------------------------------------------------
    def read(self, events: Iterable[Event]) -> None:
        for e in events:
            e = e.view(self.seat)  # the structural guarantee: only what this seat was shown
            if self._drawn_on and e.player not in self._drawn_on \
                    and (e.kind == "play" or e.kind == "draw" and e.reason == "turn"):
                self._turn_moved_on()  # another seat's turn (a jump-in says so first: see _on_jump_in)
            handler = getattr(self, "_on_" + e.kind, None)
            if handler is not None:
                handler(e)
            elif e.kind not in _QUIET:
                self._forget(e.player, e.target)

    def _turn_moved_on(self) -> None:
        """Someone drew on its turn and its turn ended with what it drew (another seat plays or
        draws, or is to act): a card drawn that fits is offered to be played at once, so these did
        not fit (drawing until one fits, none did), and join the cards its draw said do not (the
        cohort leaves wilds open, so it says less than it might)."""
        for q in list(self._drawn_on):
            self._drawn_fitted(q, 0)

    def _drawn_fitted(self, q: int, fitted: int) -> None:
        """``q``'s turn after its draw is over, ``fitted`` of the cards it drew (the last) having fitted:
        the others did not."""
        cohort, drawn = self._drawn_on.pop(q)
        self._drew_this_turn.discard(q)  # its next play is a choice from its hand again
        cohorts = self.hands[q].cohorts
        if drawn > fitted and cohorts and cohorts[-1] is cohort and self.counts[q] is not None:
            cohort.count = min(cohort.count + drawn - fitted, self.counts[q])

    def _forget(self, *players: int | None) -> None:
        for q in players:
            if q is not None and 0 <= q < self.n:
                self.hands[q].forget()
                self.habits.pop(q, None)
                self.counts[q] = None
                if q == self.seat:
                    self.mine = None

    def _count(self, q: int, delta: int) -> None:
        c = self.counts[q]
        if c is not None:
            self.counts[q] = max(0, c + delta)

    def _on_start(self, e: Event) -> None:
        if e.cards:
            self.color, self.top_rank = e.color, e.cards[0].rank
            self.played.add(e.cards[0].id)

    def _on_return(self, e: Event) -> None:
        if e.reason == "aside":  # turned at the deal and left under the starting card
            self.played |= {c.id for c in e.cards}

    def _on_reverse(self, e: Event) -> None:
        self.direction = -self.direction

    def _on_reshuffle(self, e: Event) -> None:
        self.played.clear()

    def _on_choose(self, e: Event) -> None:
        if e.color is not None:
            self.color = e.color

    def _on_draw(self, e: Event) -> None:
        q = e.player
        if q is None or not 0 <= q < self.n:
            return
        if e.reason == "deal":
            self.counts[q] = e.count
            if q == self.seat:
                self.mine = {c.id for c in e.cards}
            return
        self.habits.pop(q, None)  # the hand changed since its last play
        if e.reason == "turn":
            self._drew_this_turn.add(q)
        if self.voids_on_draw and e.reason == "turn" and q != self.seat and self.counts[q]:
            colors = frozenset({self.color}) if self.color is not None else frozenset()
            ranks = frozenset({self.top_rank}) if self.top_rank is not None else frozenset()
            cohort = Cohort(colors, ranks, self.counts[q])
            self.hands[q].cohorts.append(cohort)
            self._drawn_on[q] = (cohort, e.count)
        self._count(q, e.count)
        lean = self.hands[q].lean
        for col in lean:
            lean[col] *= LEAN_KEPT_ON_DRAW
        ids = {c.id for c in e.cards}
        if q == self.seat:
            if self.mine is not None:
                self.mine |= ids
        else:
            self.hands[q].known |= ids
        self.played -= ids

    def _remove(self, q: int, ids: set[int], faces: list[Face]) -> None:
        """Cards ``ids`` left ``q``'s hand."""
        self._count(q, -len(ids))
        if q == self.seat:
            if self.mine is not None:
                self.mine -= ids
            return
        k = self.hands[q]
        k.known -= ids
        for cohort in k.cohorts:
            for face in faces:
                if cohort.allows(face) and cohort.count > 0:
                    cohort.count -= 1  # it may have been one of the cohort's cards
        self._trim(q)

    def _trim(self, q: int) -> None:
        k = self.hands[q]
        cap = self.counts[q]
        for i in range(len(k.cohorts) - 1, -1, -1):
            c = k.cohorts[i]
            if cap is not None:
                c.count = min(c.count, cap)
            if i + 1 < len(k.cohorts):
                c.count = min(c.count, k.cohorts[i + 1].count)  # older cards are among the newer
        k.cohorts = [c for c in k.cohorts if c.count > 0]

    def _on_play(self, e: Event) -> None:
        q = e.player
        if q is None or not e.cards:
            return
        card = e.cards[0]
        if self.follow_suit:
            if self.lead is None:
                self.lead = card.color
            elif card.color != self.lead and q != self.seat:
                # Must follow: a card of another colour says the hand has none of the lead.
                k = self.hands[q]
                k.cohorts.insert(0, Cohort(frozenset({self.lead}), frozenset(), 10 ** 6))
        if self.habits_on and q != self.seat:
            self._note_habit(q, card.face, e.color if card.color is None else None)
        self._drew_this_turn.discard(q)
        if q in self._drawn_on:  # the card it drew fitted (drawing until one does, the others did not)
            self._drawn_fitted(q, 1)
        self._remove(q, {card.id}, [card.face])
        if (self.honest_draw_four and card.rank == "W+4" and q != self.seat and self.color is not None
                and self.counts[q]):
            self.hands[q].cohorts.append(Cohort(frozenset({self.color}), frozenset(), self.counts[q]))
        self.played.add(card.id)
        if card.color is None and e.color is not None and q != self.seat and self.lean_on_naming:
            lean = self.hands[q].lean
            lean[e.color] = lean.get(e.color, 0.0) + self.lean_on_naming
        self.color = e.color if e.color is not None else card.color
        self.top_rank = card.rank

    def _note_habit(self, q: int, face: Face, named: str | None) -> None:
        """Add a play of ``q`` to its chain (its plays since it last drew: the hand then is the hand
        now plus the cards played since, so each can be read again against a sampled hand)."""
        size = self.counts[q]
        if size is None:
            self.habits.pop(q, None)
            return
        chain = self.habits.setdefault(q, [])
        read = q not in self._drew_this_turn  # a card it drew and played at once was no choice
        active = [p for p in range(self.n) if not self.out[p]]
        if q not in active or len(active) < 2:
            read = False
        else:
            i = active.index(q)
            nxt = active[(i + self.direction) % len(active)]
            others = [self.counts[p] for p in active if p != q]
            if self.counts[nxt] is None or any(c is None for c in others):
                read = False
        if not read:
            chain.append(Habit(face, named, None, None, False, False, size, read=False))
            return
        danger = self.counts[nxt] <= 2  # type: ignore[operator]
        close = danger or min(others) <= 2  # type: ignore[type-var]
        chain.append(Habit(face, named, self.color, self.top_rank, danger, close, size))

    def plausible(self, hands: dict[int, list[int]]) -> bool:
        """Whether a sample agrees with every recorded habit: each play of an opponent since it
        last drew is the one a ``normal``-like player would have made from the sampled hand plus
        the cards it played from then on."""
        if not self.habits:
            return True
        from .hard.policy import habitual_play

        faces = self.faces
        for q, chain in self.habits.items():
            ids = hands.get(q)
            if ids is None or len(ids) + len(chain) != chain[0].size:
                continue
            then = [faces[c] for c in ids]
            for h in reversed(chain):  # the latest play first: its hand is the smallest
                then.append(h.face)
                if not h.read:
                    continue
                expected = habitual_play(then, h.color, h.top_rank, danger=h.danger, close=h.close)
                if expected is not None and expected != (h.face, h.named):
                    return False
        return True

    def _on_jump_in(self, e: Event) -> None:
        self._drawn_on.clear()  # the turn was taken from the drawer: its card may have fitted

    def _on_pass(self, e: Event) -> None:
        if e.player is not None:
            self._drew_this_turn.discard(e.player)
            if e.player in self._drawn_on:  # it kept a card that fitted
                self._drawn_fitted(e.player, 1)

    def _on_leave(self, e: Event) -> None:
        if e.player is not None and e.cards:
            self._remove(e.player, {e.cards[0].id}, [e.cards[0].face])

    def _on_trick(self, e: Event) -> None:
        self.lead = None

    def _on_discard_all(self, e: Event) -> None:
        if e.player is not None:
            self.habits.pop(e.player, None)
            self._remove(e.player, {c.id for c in e.cards}, [c.face for c in e.cards])
            self.played |= {c.id for c in e.cards}

    def _on_challenge(self, e: Event) -> None:
        q = e.target
        if self.honest_draw_four and e.reason == "guilty" and q is not None and 0 <= q < self.n:
            self.hands[q].cohorts.clear()  # it bluffed: what its Wild Draw Four said was false

    def _on_show_hand(self, e: Event) -> None:
        q = e.player
        if q is None or q == self.seat or not e.cards:
            return  # shown to someone else: this seat learns only that it happened
        k = self.hands[q]
        k.known = {c.id for c in e.cards}
        k.cohorts.clear()
        self.counts[q] = len(e.cards)

    def _on_knockout(self, e: Event) -> None:
        q = e.player
        if q is not None:
            self.out[q] = True
            self.hands[q].forget()
            self.counts[q] = 0

    def _on_swap(self, e: Event) -> None:
        p, t = e.player, e.target
        if p is None or t is None:
            return
        self.habits.clear()
        self.hands[p], self.hands[t] = self.hands[t], self.hands[p]
        self.counts[p], self.counts[t] = self.counts[t], self.counts[p]
        if self.seat in (p, t):
            other = t if self.seat == p else p
            # The other player now holds what this seat held, and this seat holds theirs.
            self.hands[other] = Knowledge(known=set(self.mine or ()))
            if self.mine is None:
                self.counts[other] = None
            self.hands[self.seat] = Knowledge()
            self.mine = None

    def _on_rotate(self, e: Event) -> None:
        self.habits.clear()
        active = [q for q in range(self.n) if not self.out[q]]
        if len(active) < 2:
            return
        order = active if self.direction == 1 else active[::-1]
        nxt = {q: order[(i + 1) % len(order)] for i, q in enumerate(order)}
        hands, counts = list(self.hands), list(self.counts)
        for q in active:
            self.hands[nxt[q]] = hands[q]
            self.counts[nxt[q]] = counts[q]
        if self.seat in nxt:
            receiver = nxt[self.seat]
            self.hands[receiver] = Knowledge(known=set(self.mine or ()))
            if self.mine is None:
                self.counts[receiver] = None
            self.hands[self.seat] = Knowledge()
            self.mine = None

    # -- the observation ----------------------------------------------------------------------
    def sync(self, obs: dict[str, Any], visible: set[int]) -> None:
        """Check what it knows against ``obs`` (``visible``: every card id the seat sees placed).

        A count that disagrees means an event was missed: what was known about
        that hand is dropped rather than trusted.
        """
        if self._drawn_on and obs.get("current") not in self._drawn_on:
            self._turn_moved_on()
        self.mine = {c["id"] for c in obs.get("hand", ())}
        self.color = obs.get("color")
        top = obs.get("top")
        self.top_rank = top["rank"] if isinstance(top, dict) else None
        if self.follow_suit:
            self.lead = obs.get("lead_color")
        for q, info in enumerate(obs["players"]):
            self.out[q] = bool(info.get("out"))
            if q == self.seat:
                self.counts[q] = info["cards"]
                continue
            k = self.hands[q]
            if self.counts[q] != info["cards"]:
                k.forget()
                self.habits.pop(q, None)
                self.counts[q] = info["cards"]
            k.known -= visible
            k.known -= self.mine
            if len(k.known) > info["cards"]:
                k.forget()
            self._trim(q)
        self.played -= visible
        self.synced = True

    # -- sampling -------------------------------------------------------------------------------
    def sample(self, unseen: Sequence[int], sizes: dict[int, int], rng: random.Random) -> dict[int, list[int]]:
        """Deal ``unseen`` card ids to the opponents' hands (``sizes``: seat -> cards held).

        Returns seat -> card ids; the cards not dealt are left for the caller's
        other hidden places. Constraints that cannot all be met are relaxed (a
        cohort takes what fits, the rest comes from anywhere).
        """
        pool = set(unseen)
        hands: dict[int, list[int]] = {}
        tiers: list[tuple[int, int, Cohort | None, list[Cohort]]] = []
        for q, size in sizes.items():
            k = self.hands[q]
            mine = [c for c in k.known if c in pool][:size]
            pool.difference_update(mine)
            hands[q] = mine
            room = size - len(mine)
            taken = 0
            # Oldest cohort first: its cards must satisfy it and every newer one.
            for i, cohort in enumerate(k.cohorts):
                n = min(cohort.count, room) - taken
                if n > 0:
                    tiers.append((q, n, cohort, k.cohorts[i:]))
                    taken += n
        # The most constrained slots take their cards first.
        tiers.sort(key=lambda t: -sum(len(c.colors) + len(c.ranks) for c in t[3]))
        faces = self.faces
        for q, n, _, rules in tiers:
            # Every rule's allows(), at once: a card must be none of their colours and ranks.
            cols = frozenset().union(*(r.colors for r in rules))
            rks = frozenset().union(*(r.ranks for r in rules))
            fits = [c for c in pool if faces[c][0] not in cols and faces[c][1] not in rks]
            fits.sort()
            got = rng.sample(fits, min(n, len(fits)))
            pool.difference_update(got)
            hands[q].extend(got)
        rest = sorted(pool)
        rng.shuffle(rest)
        for q, size in sizes.items():
            need = size - len(hands[q])
            if need <= 0:
                continue
            lean = self.hands[q].lean
            if lean:
                # Weighted sampling without replacement (Efraimidis-Spirakis): the largest u^(1/w).
                exp, rnd = math.exp, rng.random
                keyed = sorted(((rnd() ** (1.0 / exp(lean.get(faces[c][0], 0.0))), c) for c in rest), reverse=True)
                got = [c for _, c in keyed[:need]]
                taken = set(got)
                rest = [c for c in rest if c not in taken]
            else:
                got = rest[:need]
                del rest[:need]
            hands[q].extend(got)
        return hands

    # -- questions a strategy asks ------------------------------------------------------------
    def void_share(self, q: int, color: str) -> float:
        """The share of ``q``'s hand known not to be ``color`` (0: nothing known)."""
        count = self.counts[q]
        if not count:
            return 0.0
        best = max((c.count for c in self.hands[q].cohorts if color in c.colors), default=0)
        return min(1.0, best / count)


class Memory:
    """A bot's memory of the round: the events its seat was shown, read into a :class:`Belief`.

    :meth:`observe` is the bot's :meth:`~core.bots.Bot.observe`; :meth:`belief`
    gives the belief brought up to date for an observation (a fresh one each
    round, and a fresh one if the seat changes).
    """

    def __init__(self) -> None:
        self._events: list[Event] = []
        self._seat: int | None = None
        self._belief: Belief | None = None
        self._key: tuple | None = None
        self._read = 0

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        if seat != self._seat:
            self._seat, self._events, self._belief, self._read = seat, [], None, 0
        for e in events:
            e = e.view(seat)  # only what the seat was shown, whatever the caller passed
            if e.kind == "deal":  # a new round: what came before is about other cards
                self._events, self._belief, self._read = [], None, 0
            self._events.append(e)

    def belief(self, obs: dict[str, Any], deck: Sequence[Face] | None = None, **rules: bool) -> Belief:
        """The belief for ``obs`` (``deck``: card id -> face, by default the variant's deck)."""
        me = obs["me"]
        if self._seat != me:
            self._seat, self._events, self._belief, self._read = me, [], None, 0
        key = (obs["variant"], len(obs["players"]), obs["round"])
        b = self._belief
        if b is None or self._key != key:
            b = self._belief = Belief(me, deck if deck is not None else faces(obs), len(obs["players"]), **rules)
            self._key = key
            self._read = 0
        b.read(self._events[self._read:])
        self._read = len(self._events)
        return b
