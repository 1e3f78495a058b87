"""The :class:`Game` base class: seats, the turn and the decision waited on, acting, rounds.

A variant is a subclass registered by name (see :mod:`core.registry`). The base class owns what
every UNO-like game shares: seats and names, the deck, the decision the game waits on and who
may act, applying actions (an illegal one changes nothing), UNO calls and catches, rounds and
match scores. It has the piles' mechanics (:mod:`core.piles`) and the chance-first API
(:mod:`core.needs`); its views, saved state and scripted positions are built in
:mod:`core.observation`, :mod:`core.state` and :mod:`core.setup`. A variant overrides the hooks listed in ``docs/engine.md`` (the table there
names every one, and a test checks it).

Whose turn it is (:attr:`current`), the decision the game waits on (:attr:`decision`) and who
may act now (:meth:`to_act`) are different things: any player may catch a missed UNO, a card
may ask another player to decide, and some variants let players jump in out of turn.
"""

from __future__ import annotations

from typing import Any, ClassVar, Iterable, Sequence

from . import sealed as sealing
from .acting import Acting
from .actions import Action, play_action
from .cards import COLORS, Card, parse_card
from .errors import FalseClaim, IllegalAction, InvalidCard, SealedFace
from .events import Event
from .hands import HandQueries
from .needs import Need, Needs
from .observation import Observation, PrivateObservation, PublicObservation, private_view, public_view
from .options import Option
from .piles import Piles
from .sealed import SlotState
from .setup import lay_out, seat_names
from .source import DeckSource, SeededSource, seed_bytes
from .state import copy, load, problems, save


_DECKS: dict[Any, tuple[tuple[Card, ...], frozenset, tuple[tuple[Action, ...], ...]]] = {}
"""Each deck's cards and their plays, built once per variant, deck and options (all immutable):
loading a saved game, which the chance-first probes do often, only copies them."""


class Game(Acting, Piles, HandQueries, Needs):
    """One table: a match of rounds of one variant.

    Create games with :func:`core.new_game`. Every attribute below is public
    and read-only; change the state only through :meth:`apply` and
    :meth:`next_round`.

    A game is full-information (it sees every card; ids are deck positions) unless it was made
    *sealed* (``sealed=True``): then ids are handles of each shuffle's slots and the game knows
    only the faces it is shown (see :mod:`core.sealed`).
    """

    variant: ClassVar[str] = ""
    """The registered name of the variant."""
    sealable: ClassVar[bool] = False
    """Whether the variant can be played sealed (``new_game(..., sealed=True)``): every rule that
    reads a hidden card goes through the hand queries, and each claim it makes is written down.
    Classic, No Mercy, Wild Rawz and the extended rules so far; Diez not yet."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    hand_size: ClassVar[int] = 7
    OPTIONS: ClassVar[dict[str, Option]] = {}
    asks_others: ClassVar[bool] = False
    """True for a variant whose steps ask players other than the turn's (its :meth:`_decider`
    differs from :attr:`current`); the others take the quicker way to their legal actions."""
    start_aside: ClassVar[bool] = False
    """Where a card that may not start the round goes (:meth:`accepts_start_card`): ``False``, back
    into the pile, which is shuffled (the official rules); ``True``, face up under the starting
    card, until the first reshuffle (No Mercy, Diez: no shuffle, which a sealed table pays for
    with a whole epoch)."""

    # -- state (documented attributes) ----------------------------------------
    names: list[str]
    """Seat names, one per player."""
    options: dict[str, Any]
    """The rule options in force, defaults filled in."""
    seed: bytes
    """The seed of the local deck source (recorded so a game replays)."""
    current: int
    """Whose turn it is."""
    direction: int
    """1: up the seat numbers; -1: down."""
    color: str | None
    """The colour in play: the top card's, or the one named with a wild."""
    discard: list[Card]
    """The discard pile, bottom to top."""
    phase: str
    """``"play"``; ``"drawn"`` (the current player drew a playable card);
    ``"challenge"`` (a Wild Draw Four waits for its victim's answer); ``"over"``."""
    scores: list[int]
    """Match totals, one per player."""
    winner: int | None
    """The round's winner once :attr:`over`."""
    round: int
    """The round number, from 0."""
    dealer: int
    """This round's dealer; the player after them starts."""
    version: int
    """Counts applied actions; clients quote it with their intents."""
    hands: list[list[Card]]
    """Every seat's cards (hidden: a view shows a seat only its own)."""
    draw_pile: list[Card]
    """The draw pile; the next card drawn is the last."""
    pending: dict[str, Any] | None
    """A pending effect (a draw stack, a challengeable card); views show its public part."""
    exposed: int | None
    """A player holding one card who did not call UNO and may still be caught."""
    out: list[bool]
    """Seats out of this round (knocked out; gone out in the extended rules)."""
    source: DeckSource
    """Where chance comes from when nobody settled it first (see :mod:`core.source`)."""
    epoch: int
    """How many orders the game has used: the number of its next chance node."""

    def __init__(
        self,
        players: int | Sequence[str],
        *,
        seed: int | bytes | str | None = None,
        options: dict[str, Any] | None = None,
        setup: dict[str, Any] | None = None,
        source: DeckSource | None = None,
        settled: Iterable[tuple[Need, Any]] = (),
        sealed: bool = False,
    ) -> None:
        if sealed and not self.sealable:
            raise ValueError(f"{self.variant} cannot be played sealed yet (Game.sealable)")
        self.names = seat_names(players, self.variant, self.min_players, self.max_players)
        count = len(self.names)
        self.options = self.check_options(options or {})
        self.seed = seed_bytes(seed)
        self.source: DeckSource = source if source is not None else SeededSource(self.seed)
        if sealed:
            self._slots = SlotState(self.build_deck(count, self.options))
        self._init_deck()
        self.scores = [0] * count
        self.round = 0
        self.dealer = count - 1
        self.version = 0
        self.epoch = 0
        for chance, order in settled:
            self.settle(chance, order)
        self._legal_cache: tuple[int, dict[int, tuple[Action, ...]]] = (-1, {})
        self._reset_round()
        if setup is not None:
            self._setup(setup)
            if self._slots is not None:  # a scripted position: what lies face up is public
                self._slots.public |= {c.id for c in self.all_cards()} - {c.id for c in self._face_down()}
        else:
            self._deal_events = self._deal()

    # -- hooks for variants ---------------------------------------------------
    @classmethod
    def build_deck(cls, num_players: int, options: dict[str, Any]) -> list[tuple[str | None, str]]:
        """The faces of the full deck, in a fixed order (ids follow it)."""
        raise NotImplementedError

    def is_playable(self, card: Card) -> bool:
        """Whether ``card`` may go on the discard pile now."""
        raise NotImplementedError

    def card_points(self, card: Card) -> int:
        """What ``card`` is worth to the winner when left in a hand."""
        raise NotImplementedError

    def accepts_start_card(self, card: Card) -> bool:
        """False sends the card back into the pile and turns another."""
        return True

    def _reject_start_card(self, card: Card, events: list[Event]) -> None:
        """A card that may not start goes back into the pile, which is shuffled, or under the
        starting card (:attr:`start_aside`)."""
        if self.start_aside:
            events.append(Event("return", cards=(card,), reason="aside"))
            self.discard.append(card)
            return
        events.append(Event("return", cards=(card,)))
        self.draw_pile = self._shuffled(self.draw_pile + [card])

    def names_color(self, card: Card) -> bool:
        """Whether playing ``card`` names a colour (a plain wild does)."""
        return card.color is None

    def judged_color(self, p: int, action: Action) -> str | None:
        """For a play a challenge may question, the colour its legality is judged against
        (holding another card of it makes the play a bluff); ``None`` for anything else.

        Asked before the play is applied; the network host keeps the hand with it so that
        it can sign the challenge's ruling.
        """
        return None

    def _start_effect(self, card: Card, events: list[Event]) -> None:
        """Apply the starting card; the default lets the player after the dealer start."""
        self.current = self._next(self.dealer)

    def _turn_actions(self, p: int) -> list[Action]:
        """Legal actions of ``p`` when it is ``p``'s turn (``p == current``)."""
        raise NotImplementedError

    def _do(self, p: int, action: Action, events: list[Event]) -> None:
        """Carry out a legal turn action of ``p``."""
        raise NotImplementedError

    # -- construction helpers -------------------------------------------------
    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise ValueError("options must be a mapping of option names to values")
        unknown = [k for k in options if k not in cls.OPTIONS]
        if unknown:
            known = ", ".join(sorted(cls.OPTIONS)) or "none"
            raise ValueError(f"unknown option {unknown[0]!r} for {cls.variant} (known: {known})")
        out = {name: opt.default for name, opt in cls.OPTIONS.items()}
        for name, value in options.items():
            out[name] = cls.OPTIONS[name].validate(name, value)
        return out

    def _reset_round(self) -> None:
        n = len(self.names)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.draw_pile: list[Card] = []  # the next card drawn is the last element
        self.discard = []
        self.direction = 1
        self.color = None
        self.phase = "play"
        self.pending: dict[str, Any] | None = None
        self.drawn: int | None = None  # id of the card the current player just drew
        self.declared = [False] * n  # called UNO for the hand they hold now
        self.exposed: int | None = None  # one card, no call, may still be caught
        self.out = [False] * n  # knocked out of this round (turn order passes them by)
        self.set_aside: list[Card] = []  # out of play until the next reshuffle
        self.winner = None
        self.last_points = 0
        self.current = self._next(self.dealer) if n else 0
        s = self._slots
        if s is not None:  # a new round deals fresh slots from the deck's own cards
            size = len(s.deck)
            del self.cards[size:], self._play_acts[size:]
            s.public = set()
            s.table = None
            s.claims = []
            s.false = []

    def _init_deck(self) -> None:
        faces = tuple(self.build_deck(len(self.names), self.options))
        key = (type(self), faces, repr(sorted(self.options.items())))
        built = _DECKS.get(key)
        if built is None:
            cards = tuple(Card(i, color, rank) for i, (color, rank) in enumerate(faces))
            # Every way to play each card, built once: legal-move generation only indexes it.
            built = _DECKS[key] = (cards, frozenset(c.face for c in cards), tuple(self._plays_of(c) for c in cards))
        self.cards: list[Card] = list(built[0])
        self._faces = built[1]
        self._play_acts: list[tuple[Action, ...]] = list(built[2])

    def _face_down(self) -> list[Card]:
        """The cards nobody but their holders may see: the hands and the draw pile (a variant
        with more hidden places adds them). What a sealed game's scripted position keeps sealed."""
        return [c for h in self.hands for c in h] + self.draw_pile

    def _plays_of(self, c: Card) -> tuple[Action, ...]:
        """Every way to play card ``c`` (none for a card this game cannot see)."""
        if type(c) is not Card:
            return ()
        return tuple(play_action(c.id, col) for col in COLORS) if self.names_color(c) else (play_action(c.id),)

    def parse(self, text: str) -> tuple[str | None, str]:
        """Read a notation and check that the face exists in this game's deck."""
        face = parse_card(text)
        if face not in self._faces:
            raise InvalidCard(f"{text!r} is not a card of the {self.variant} deck")
        return face

    def _setup(self, setup: dict[str, Any]) -> None:
        """Lay out a scripted mid-round position (see :func:`core.new_game`); variants with
        state of their own take their keys out of ``setup`` and call this."""
        lay_out(self, setup)

    def _deal(self) -> list[Event]:
        """Shuffle, deal and turn the starting card for a fresh round."""
        events: list[Event] = []
        self.draw_pile = self._shuffled(list(self.cards))
        n = self.num_players
        for _ in range(self.hand_size):
            for i in range(1, n + 1):
                self.hands[(self.dealer + i) % n].append(self.draw_pile.pop())
        events.append(Event("deal", player=self.dealer, count=self.hand_size))
        for p in range(n):
            events.append(Event("draw", player=p, cards=tuple(self.hands[p]), count=len(self.hands[p]),
                                reason="deal", visible_to=(p,)))
        while True:
            card = self._open([self.draw_pile.pop()])[0]
            if self.accepts_start_card(card):
                break
            self._reject_start_card(card, events)
        self.discard.append(card)
        self.color = card.color
        events.append(Event("start", cards=(card,), color=card.color))
        self._start_effect(card, events)
        return events

    # -- public read-only view -----------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.names)

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def draw_count(self) -> int:
        """Cards left in the draw pile."""
        return len(self.draw_pile)

    @property
    def deck_size(self) -> int:
        """How many cards the deck has (a sealed game's :attr:`cards` also lists each shuffle's slots)."""
        s = self._slots
        return len(self.cards) if s is None else len(s.deck)

    @property
    def over(self) -> bool:
        """The round has ended."""
        return self.phase == "over"

    @property
    def target_score(self) -> int:
        return int(self.options.get("target_score", 500))

    @property
    def match_over(self) -> bool:
        return self.match_winner is not None

    @property
    def match_winner(self) -> int | None:
        """The player who reached the target score, if anyone has."""
        if not self.over:
            return None
        best = max(range(self.num_players), key=lambda p: self.scores[p])
        return best if self.scores[best] >= self.target_score else None

    @property
    def round_winners(self) -> list[int]:
        """Everyone who won the finished round (more than one where a variant allows ties)."""
        return [self.winner] if self.over and self.winner is not None else []

    def hand(self, p: int) -> list[Card]:
        """Player ``p``'s cards (a copy)."""
        return list(self.hands[p])

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]

    def _next(self, p: int, steps: int = 1) -> int:
        """The player ``steps`` seats on in the direction of play, passing knocked-out seats."""
        n = len(self.names)
        if True not in self.out:
            return (p + self.direction * steps) % n
        for _ in range(steps):
            p = (p + self.direction) % n
            while self.out[p]:
                p = (p + self.direction) % n
        return p

    @property
    def active(self) -> list[int]:
        """The players still in the round."""
        return [p for p in range(len(self.names)) if not self.out[p]]

    @property
    def deal_events(self) -> list[Event]:
        """What happened at the deal of the current round (hands, starting card); in a sealed game,
        with the cards it has learnt since in place of their sealed copies."""
        return list(self._deal_events) if self._slots is None else self.fill(self._deal_events)

    # -- acting (who may act: core.acting) ---------------------------------------
    def apply(self, p: int, action: Action | dict[str, Any]) -> list[Event]:
        """Carry out ``action`` for player ``p`` and return what happened.

        Raises :class:`IllegalAction` (the state untouched) for anything not
        in :meth:`legal_actions`.
        """
        if isinstance(action, dict):
            try:
                action = Action.from_dict(action)
            except ValueError as e:
                raise IllegalAction(str(e)) from None
        elif not isinstance(action, Action):
            raise IllegalAction(f"{action!r} is not an action")
        else:
            # 7.0 == 7, so a float id would match a legal action and then break indexing.
            card, target = action.card, action.target
            if (card is not None and type(card) is not int) or (target is not None and type(target) is not int) \
                    or type(action.kind) is not str or (action.color is not None and type(action.color) is not str):
                raise IllegalAction("an action's card and target are ints, its kind and colour strings")
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(self.names):
            raise IllegalAction(f"there is no player {p!r} at this table")
        if action not in self._legal(p):
            raise self._refusal(p, action)
        if self._slots is not None:
            return sealing.apply(self, p, action)
        return self._act(p, action)

    def _act(self, p: int, action: Action) -> list[Event]:
        """Carry out ``p``'s legal ``action``: what :meth:`apply` does once it is checked."""
        events: list[Event] = []
        kind = action.kind
        if kind == "uno":
            self.declared[p] = True
            if self.exposed == p:
                self.exposed = None
            events.append(Event("uno", player=p))
        elif kind == "catch":
            self.exposed = None
            events.append(Event("catch", player=p, target=action.target))
            self._catch_draw(action.target, int(self.options.get("uno_penalty", 2)), events)
        else:
            if p != self.exposed:
                self.exposed = None  # the next player has begun their turn
            self._do(p, action, events)
        self.version += 1
        return events

    def _refusal(self, p: int, action: Action) -> IllegalAction:
        """The error for ``p``'s illegal ``action``, naming the seat; a false claim when the
        players who cannot see the cards would have taken it as ``p``'s word."""
        try:
            why = self._explain(p, action)
        except SealedFace:  # the explanation would need a card this game cannot see
            why = f"{action} is not legal with the cards shown"
        s = self._slots
        if s is not None and sealing.claims_of(self, p, action):
            err: IllegalAction = FalseClaim(f"{self.names[p]} (seat {p}) made a false claim: "
                                            f"{self._claim_words(p, action)}: {why}")
        else:
            err = IllegalAction(why)
        err.seat = p
        return err

    def _catch_draw(self, q: int, n: int, events: list[Event]) -> None:
        """``q`` was caught without calling UNO and draws ``n`` (a variant may route it)."""
        self._draw(q, n, "uno", events)

    def _explain(self, p: int, action: Action) -> str:
        """Why ``action`` is not legal for ``p``, in words."""
        name = self.names[p]
        if self.phase == "over":
            return "the round is over; start the next round first"
        if self.out[p]:
            return f"{name} is out of this round (Mercy) and cannot act until the next one"
        kind = action.kind
        if kind == "catch":
            if self.exposed is None:
                return "nobody can be caught: everyone with one card called UNO in time"
            if action.target != self.exposed:
                return f"you can only catch {self.names[self.exposed]} now"
            return "you cannot catch yourself"
        if kind == "uno":
            return "you can call UNO only as you play your second-to-last card (or right after)"
        d = self._decider()
        if p != d:
            return f"it is {self.names[d]}'s turn, not {name}'s"
        return self._explain_turn(p, action)

    def _explain_turn(self, p: int, action: Action) -> str:
        return f"{action} is not a legal move now"

    def next_round(self) -> list[Event]:
        """Deal the match's next round; the deal passes to the next seat."""
        if not self.over:
            raise IllegalAction("the round is still being played")
        if self.match_over:
            raise IllegalAction("the match is over")
        self.round += 1
        self.dealer = (self.dealer + 1) % self.num_players
        self._reset_round()
        self.version += 1
        self._deal_events = self._deal()
        return self.deal_events

    # -- observation --------------------------------------------------------------
    def observation(self, p: int | None) -> Observation:
        """Everything player ``p`` may see and nothing else; ``None`` is a spectator.

        Other hands appear only as counts (and in full once the round is over,
        when they are counted openly); the draw pile only as a count. It is
        :meth:`public_observation` with :meth:`private_observation` on top.
        """
        obs = self.public_observation()
        obs.update(self.private_observation(p))  # type: ignore[typeddict-item]
        return obs  # type: ignore[return-value]

    def public_observation(self) -> PublicObservation:
        """The part of every :meth:`observation` that is the same for every seat and spectator.

        A host building all the players' views of one state builds this once
        (the seats' views share it; none of them may be changed in place).
        """
        return public_view(self)

    def private_observation(self, p: int | None) -> PrivateObservation:
        """The part of :meth:`observation` that is ``p``'s alone: ``me``, and a player's hand and choices.

        Its keys never appear in :meth:`public_observation`; this is the one
        place a hidden card enters a view.
        """
        return private_view(self, p)

    def _observe_public(self, obs: dict[str, Any]) -> None:
        """Add a variant's own public keys to :meth:`public_observation`."""

    def _observe_private(self, obs: dict[str, Any], me: int | None) -> None:
        """Add a variant's keys for ``me`` alone to :meth:`private_observation` (``me`` None: a spectator)."""

    def _public_pending(self) -> dict[str, Any] | None:
        """The public part of :attr:`pending`; variants hide what must stay secret."""
        return None

    # -- serialisation -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The whole state as msgpack-able data (see :meth:`from_dict`)."""
        return save(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, source: DeckSource | None = None) -> "Game":
        """Rebuild a game saved by :meth:`to_dict`; ``Game.from_dict`` picks the variant class."""
        from .registry import variant_class

        return load(variant_class(d["variant"]) if cls is Game else cls, d, source)

    def _save_extra(self) -> dict[str, Any]:
        """A variant's own state for :meth:`to_dict` (msgpack-able)."""
        return {}

    def _load_extra(self, d: dict[str, Any]) -> None:
        """Restore what :meth:`_save_extra` saved."""

    # -- invariants ---------------------------------------------------------------------
    def all_cards(self) -> list[Card]:
        """Every card of the game wherever it lies (a variant with more places adds them)."""
        return [c for h in self.hands for c in h] + self.draw_pile + self.discard + self.set_aside

    def inconsistencies(self) -> list[str]:
        """What is wrong with this state, in words; empty for every state the rules can reach.

        The self-play tests ask it after every move; a loaded save can be checked with it.
        Variants add their own invariants (:meth:`_inconsistencies`).
        """
        return problems(self)

    def _inconsistencies(self) -> list[str]:
        """A variant's own invariants, in words (see :meth:`inconsistencies`)."""
        return []

    def restore(self, snapshot: "dict[str, Any] | Game", *, source: DeckSource | None = None) -> None:
        """Put this game back to ``snapshot`` (a :meth:`to_dict`, or a :meth:`copy` of this game, five
        times quicker to make and taken over as it is), in place: whoever holds the object sees the
        restored state. The deck source stays, unless ``source`` replaces it."""
        if isinstance(snapshot, Game):
            if type(snapshot) is not type(self) or snapshot.variant != self.variant:
                raise ValueError(f"a copy of a {snapshot.variant} game cannot restore a {self.variant} game")
            fresh = snapshot
            fresh.source = source if source is not None else self.source
        else:
            if snapshot.get("variant") != self.variant:
                raise ValueError(f"a {snapshot.get('variant')!r} snapshot cannot restore a {self.variant} game")
            fresh = type(self).from_dict(snapshot, source=source if source is not None else self.source)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)

    def copy(self) -> "Game":
        """An independent copy with the same deck source."""
        return copy(self, self.source)

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.variant} players={self.num_players} round={self.round} "
                f"current={self.current} top={self.top if self.discard else None} phase={self.phase}>")
