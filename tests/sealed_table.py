"""A sealed table in one process: the engine side of issue 16, without the cryptography.

:class:`Table` keeps, in lockstep:

* ``truth``: a sealed game that sees every card (its deck source gives every shuffle's order),
  reading every claim as the round's audit does (a false one is recorded and applied, as the
  table applied it);
* ``replicas[q]``: seat ``q``'s own game, which knows the public cards and what the rules show
  ``q`` (its hand, a hand shown to it);
* ``host``: the host's game, which knows the hands of the bots it seats (``bots``);
* ``spectator``: the public.

Each replica is fed only what it may learn, as the network would open slots: the faces a
mover's own replica lists (:meth:`core.Game.shows`), the faces a move asks for first
(:meth:`core.Game.need_for`'s :class:`core.Reveal`), and, after the move, the faces each seat is
to see (:meth:`core.Game.deliveries`). A shuffle of cards is settled ``None`` (sealed); a public
order (tokens, a pick of handles) is the truth's (the seeded source's, a pure function of
the epoch). After every move :meth:`check` holds every replica to the truth on everything public
and on what its seat sees, and checks that no replica holds a face it may not know.

A seat's moves come from a :class:`Seat` (honest: its own replica's legal actions); a double
for a dishonest player subclasses it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import core
import core.bots
from core import Action, Card
from core.source import SeededSource


class Seat:
    """An honest player: picks among its own replica's legal actions (plays first, often)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, table: "Table", p: int, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind == "play"]
        if plays and self.rng.random() < 0.8:
            return self.rng.choice(plays)
        return self.rng.choice(legal)

    def shows(self, table: "Table", p: int, action: Action) -> list[Card]:
        """The faces this player sends with its move (its own replica lists them)."""
        return table.replicas[p].shows(p, action)


class BotSeat(Seat):
    """A bot the host seats: it plays from the host's replica (which knows its hand and nothing
    else hidden), through the bots' own observation, as the host's table would run it."""

    def __init__(self, rng: random.Random, level: str = "normal") -> None:
        super().__init__(rng)
        self.bot = core.bots.make_bot(level, seed=rng.random())

    def choose(self, table: "Table", p: int, legal: list[Action]) -> Action:
        assert p in table.bots
        obs = table.host.observation(p)
        assert [Action.from_dict(a) for a in obs["legal"]] == legal  # the host's replica agrees
        got = self.bot.choose(obs)
        return got if got is not None else super().choose(table, p, legal)

    def shows(self, table: "Table", p: int, action: Action) -> list[Card]:
        return table.host.shows(p, action)


class Table:
    def __init__(self, variant: str, n: int, seed: int, options: dict[str, Any] | None = None, *,
                 bots: tuple[int, ...] = (), seats: dict[int, Seat] | None = None,
                 setup: dict[str, Any] | None = None) -> None:
        self.variant, self.n, self.options, self.bots = variant, n, options, bots
        self.rng = random.Random(seed)
        self.truth = core.new_game(variant, n, seed=seed, options=options, setup=setup, sealed=True)
        self.public_source = SeededSource(self.truth.seed)
        self.seats: dict[int, Seat] = {q: BotSeat(self.rng) if q in bots else Seat(self.rng) for q in range(n)}
        self.seats.update(seats or {})
        self.allowed: dict[str, set[int]] = {}
        self._new_replicas()
        self.moves: list[tuple[int, Action]] = []
        self.met: Counter = Counter()
        """What the truth's events were, by (kind, reason): what a run of rounds met."""

    # -- replicas ----------------------------------------------------------------------------
    def _new_replicas(self) -> None:
        t = self.truth
        self.replicas = {q: t.blind_copy([q]) for q in range(self.n)}
        self.host = t.blind_copy(self.bots)
        self.spectator = t.blind_copy([])
        self.start = t.blind_copy([])  # the round's start, as the audit replays it
        self.allowed = {name: set() for name in self._names()}
        self._deliver(t.deliveries(t._deal_events))
        self.check()

    def _names(self) -> list[str]:
        return [str(q) for q in range(self.n)] + ["host", "spectator"]

    def games(self) -> dict[str, core.Game]:
        out: dict[str, core.Game] = {str(q): g for q, g in self.replicas.items()}
        out["host"], out["spectator"] = self.host, self.spectator
        return out

    def seats_of(self, name: str) -> tuple[int, ...]:
        if name == "host":
            return self.bots
        if name == "spectator":
            return ()
        return (int(name),)

    def _deliver(self, deliveries: dict[int, list[int]]) -> None:
        faces = self.truth.cards
        for name, g in self.games().items():
            for q in self.seats_of(name):
                for h in deliveries.get(q, ()):
                    g.learn(h, faces[h].face)
                    self.allowed[name].add(h)

    def _settle(self, g: core.Game, need: Any) -> None:
        if isinstance(need, core.Reveal):
            g.settle(need, [self.truth.cards[h].face for h in need.handles])
        elif need.items and all(isinstance(x, Card) for x in need.items):
            g.settle(need, None)
        else:
            g.settle(need, self.public_source.shuffle(list(need.items), need.epoch))

    # -- moves ------------------------------------------------------------------------------
    def legal(self, p: int) -> list[Action]:
        return list(self.replicas[p].legal_actions(p))

    def pick(self) -> tuple[int, Action]:
        """Whose move and which: the public's decider, or now and then someone acting out of
        turn (a catch, a jump-in), each choosing from its own replica."""
        t = self.truth
        movers = [q for q in range(self.n) if self.legal(q)]
        d = t.decision.player if t.decision is not None else None
        p = d if d in movers and self.rng.random() < 0.85 else self.rng.choice(movers)
        return p, self.seats[p].choose(self, p, self.legal(p))

    def step(self, p: int, action: Action) -> None:
        shown = self.seats[p].shows(self, p, action)
        for g in self.games().values():  # the mover's own game too: the cards are public now
            for c in shown:
                g.reveal(c.id, c.face)
        t = self.truth
        for c in shown:
            t.reveal(c.id, c.face)
        events = t.follow(p, action)  # a false claim is recorded and carried out, as the table did
        self.met.update((e.kind, e.reason) for e in events)
        told: dict[str, list[core.Event]] = {}
        for name, g in self.games().items():
            if name == "spectator":  # asks first: whatever the move needs, before it is made
                while (need := g.need_for(p, action, follow=True)) is not None:
                    self._settle(g, need)
                told[name] = g.follow(p, action)
                continue
            while True:  # the others as the move goes: a need stops it, the game as it was
                try:
                    told[name] = g.follow(p, action)
                    break
                except core.UnmetNeed as e:
                    self._settle(g, e.need)
        self.moves.append((p, action))
        self._deliver(t.deliveries(events))
        # Each game tells the move as its seats see it (its own draws filled in once opened to
        # it), exactly as the truth does; a spectator's is the public account.
        for name, g in self.games().items():
            for q in self.seats_of(name) or (None,):
                mine = [e.view(q).to_dict() for e in g.fill(told[name])]
                assert mine == [e.view(q).to_dict() for e in events], (name, q)
        self.check(full=len(self.moves) % 5 == 0 or t.over)

    # -- checks ------------------------------------------------------------------------------
    def check(self, full: bool = True) -> None:
        """Every replica agrees with the truth on everything public and on what its seats see;
        ``full``: also the invariants and that no replica holds a face it may not know."""
        t = self.truth
        assert not t.inconsistencies(), t.inconsistencies()
        pub = t.public_observation()
        public = t._slots.public
        size = t.deck_size
        for name, g in self.games().items():
            assert g.public_observation() == pub, name
            assert g.version == t.version and g.to_act() == t.to_act(), name
            for q in self.seats_of(name):
                assert g.private_observation(q) == t.private_observation(q), (name, q)
            assert g.claims == t.claims, name
            # A replica catches at once only the false claims its seats can see through.
            assert {f.version for f in g.false_claims} <= {f.version for f in t.false_claims}, name
            if not full:
                continue
            assert not g.inconsistencies(), (name, g.inconsistencies())
            # No face it may not know: every card it sees is public, or was shown to it.
            for c in g.cards[size:]:
                if not core.is_sealed(c):
                    assert c.id in public or c.id in self.allowed[name], (name, c)
                    assert c.face == t.cards[c.id].face, (name, c)
            if not self.seats_of(name):
                assert all(core.is_sealed(c) or c.id in public for c in g.cards[size:]), name

    def play_round(self, limit: int = 3000, until: Any = None) -> None:
        """Play on until the round ends (or ``until()`` holds: then the round may go on)."""
        for _ in range(limit):
            if self.truth.over or (until is not None and until()):
                return
            self.step(*self.pick())
        assert self.truth.over, "the round did not end"

    def audit(self) -> core.Audit:
        t = self.truth
        faces = {c.id: c.face for c in t.cards}
        return core.replay(self.start, self.moves, faces, public=self.public_source)

    def next_round(self) -> None:
        """The next deal, each replica settling its own (the cards sealed, the starting card
        shown)."""
        t = self.truth
        t.next_round()
        self.start = t.blind_copy([])
        for name, g in self.games().items():
            while (need := g.need_for_next_round()) is not None:
                self._settle(g, need)
            g.next_round()
            self.allowed[name] = set()
        self.moves = []
        self._deliver(t.deliveries(t._deal_events))
        self.check()


def accepted_lies(g: core.Game, p: int) -> list[Action]:
    """The moves the others would take from ``p`` as its word, though ``p``'s own game (which
    sees its hand) knows them illegal: what a dishonest client could send. Each is read with the
    cards it shows shown (they are sent with the move): a lie that shows itself (blowing up a
    Grenade lays the whole hand face up) is refused at once by everyone, so it is no claim."""
    from core.sealed import OWN, PUBLIC, shows

    s = g._slots
    own = set(g.legal_actions(p))
    candidates: list[Action] = []
    try:
        s.reading = PUBLIC
        candidates += [a for a in g._legal_now(p) if a not in own]
        for c in g.hands[p]:
            if c.id in s.public:
                continue
            s.public.add(c.id)
            try:
                candidates += [a for a in g._legal_now(p) if a.kind == "play" and a.card == c.id and a not in own]
            finally:
                s.public.discard(c.id)
    finally:
        s.reading = OWN
    out = []
    for a in dict.fromkeys(candidates):
        shown = {c.id for c in shows(g, p, a, claimed=True)} - s.public
        s.public |= shown
        s.reading = PUBLIC
        try:
            if a in g._legal_now(p):
                out.append(a)
        finally:
            s.public -= shown
            s.reading = OWN
    return out


class Liar(Seat):
    """A double: a player whose client sends, whenever it can, a false claim of one of ``kinds``
    (``"decision:action"``, say ``"drawn:draw"``) that the others would take as its word."""

    def __init__(self, rng: random.Random, *kinds: str) -> None:
        super().__init__(rng)
        self.kinds = set(kinds)
        self.lied: list[tuple[int, Action]] = []

    def choose(self, table: Table, p: int, legal: list[Action]) -> Action:
        g = table.replicas[p]
        here = g.decision.kind if g.decision is not None and g.decision.player == p else "out_of_turn"
        lies = [a for a in accepted_lies(g, p) if f"{here}:{a.kind}" in self.kinds]
        if lies:
            lie = self.rng.choice(lies)
            self.lied.append((g.version, lie))
            return lie
        return super().choose(table, p, legal)

    def shows(self, table: Table, p: int, action: Action) -> list[Card]:
        # Its own game refuses the lie: it sends what the move shows all the same.
        return core.sealed.shows(table.replicas[p], p, action, claimed=True)
