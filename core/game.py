"""The :class:`Game` base class: state, turn order, drawing, UNO calls, scoring.

A variant is a subclass registered by name (see :mod:`core.registry`). The
base class owns what every UNO-like game shares: seats and names, the deck and
its piles, drawing and reshuffling through the deck source, calling and
catching UNO, rounds and match scores, serialisation and observations. A
variant overrides a few documented hooks:

* :meth:`build_deck` - the faces of the deck;
* :attr:`OPTIONS` - the rule options and their defaults;
* :meth:`is_playable`, :meth:`card_points`, :meth:`accepts_start_card`;
* :meth:`_turn_actions` - legal actions of the player whose turn it is;
* :meth:`_do` - carry out a legal action;
* :meth:`_start_effect` - the starting card's effect.

Whose turn it is (:attr:`current`) and who may act now (:meth:`to_act`) are
different things: any player may catch a missed UNO, and later variants let
players jump in out of turn.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Sequence

from .actions import UNO, Action, play_action
from .cards import COLORS, Card, parse_card
from .decisions import Decision
from .errors import IllegalAction, InvalidCard
from .events import Event
from .source import Chance, ChanceStop, DeckSource, SeededSource, StopAtChance, check_order, seed_bytes


@dataclass(frozen=True)
class Option:
    """One rule option: its type, default and the values it accepts."""

    default: Any
    doc: str
    check: Callable[[Any], bool] | None = None
    """Extra validation beyond the type; returns True when the value is good."""

    def validate(self, name: str, value: Any) -> Any:
        typ = type(self.default)
        if typ is int and isinstance(value, bool) or not isinstance(value, typ):
            raise ValueError(f"option {name!r} must be {typ.__name__}, not {value!r}")
        if self.check is not None and not self.check(value):
            raise ValueError(f"option {name!r}: bad value {value!r} ({self.doc})")
        return value


class Game:
    """One table: a match of rounds of one variant.

    Create games with :func:`core.new_game`. Every attribute below is public
    and read-only; change the state only through :meth:`apply` and
    :meth:`next_round`.
    """

    variant: ClassVar[str] = ""
    """The registered name of the variant."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    hand_size: ClassVar[int] = 7
    OPTIONS: ClassVar[dict[str, Option]] = {}

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

    def __init__(
        self,
        players: int | Sequence[str],
        *,
        seed: int | bytes | str | None = None,
        options: dict[str, Any] | None = None,
        setup: dict[str, Any] | None = None,
        source: DeckSource | None = None,
        settled: Iterable[tuple[Chance, Sequence[Any]]] = (),
    ) -> None:
        if isinstance(players, bool):
            raise ValueError("players must be a count or a list of names")
        if isinstance(players, int):
            count = players
            names = None
        elif isinstance(players, (list, tuple)) and all(isinstance(n, str) for n in players):
            count = len(players)
            names = [n.strip() or f"Player {i + 1}" for i, n in enumerate(players)]
        else:
            raise ValueError("players must be a count or a list of names")
        if not self.min_players <= count <= self.max_players:
            raise ValueError(
                f"{self.variant} is for {self.min_players} to {self.max_players} players, not {count}"
            )
        self.names = names if names is not None else [f"Player {i + 1}" for i in range(count)]
        self.options = self.check_options(options or {})
        self.seed = seed_bytes(seed)
        self.source: DeckSource = source if source is not None else SeededSource(self.seed)
        self._init_deck()
        self.scores = [0] * count
        self.round = 0
        self.dealer = count - 1
        self.version = 0
        self.epoch = 0
        self._settled: dict[int, tuple[tuple[Any, ...], list[Any]]] = {}
        for chance, order in settled:
            self.settle(chance, order)
        self._legal_cache: tuple[int, dict[int, tuple[Action, ...]]] = (-1, {})
        self._reset_round()
        if setup is not None:
            self._setup(setup)
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
        """A card that may not start goes back into the pile, which is shuffled."""
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

    def _init_deck(self) -> None:
        self.cards: list[Card] = [
            Card(i, color, rank) for i, (color, rank) in enumerate(self.build_deck(len(self.names), self.options))
        ]
        self._faces = {c.face for c in self.cards}
        # Every way to play each card, built once: legal-move generation only indexes it.
        self._play_acts: list[tuple[Action, ...]] = [
            tuple(play_action(c.id, col) for col in COLORS) if self.names_color(c) else (play_action(c.id),)
            for c in self.cards
        ]

    def parse(self, text: str) -> tuple[str | None, str]:
        """Read a notation and check that the face exists in this game's deck."""
        face = parse_card(text)
        if face not in self._faces:
            raise InvalidCard(f"{text!r} is not a card of the {self.variant} deck")
        return face

    def _card_pool(self) -> dict[tuple[str | None, str], list[Card]]:
        """This deck's cards by face, for a setup to take from (what is left stays in it)."""
        pool: dict[tuple[str | None, str], list[Card]] = {}
        for card in self.cards:
            pool.setdefault(card.face, []).append(card)
        return pool

    def _take_setup_card(self, pool: dict[tuple[str | None, str], list[Card]], text: str) -> Card:
        """Take a card named by notation out of ``pool``; each copy can be taken once."""
        face = self.parse(text)
        if not pool.get(face):
            raise ValueError(f"setup names more copies of {text} than the deck holds")
        return pool[face].pop(0)

    def _setup(self, setup: dict[str, Any]) -> None:
        """Lay out a scripted mid-round position (see :func:`core.new_game`)."""
        known = {"hands", "discard", "draw", "current", "direction", "color", "scores", "dealer"}
        unknown = set(setup) - known
        if unknown:
            raise ValueError(f"unknown setup key(s): {', '.join(sorted(unknown))}")
        n = self.num_players
        pool = self._card_pool()

        def take(text: str) -> Card:
            return self._take_setup_card(pool, text)

        hands = setup.get("hands", [[] for _ in range(n)])
        if len(hands) != n:
            raise ValueError(f"setup 'hands' needs {n} lists, one per player")
        self.hands = [[take(t) for t in hand] for hand in hands]
        self.discard = [take(t) for t in setup.get("discard", [])]
        named_draw = [take(t) for t in setup.get("draw", [])]
        rest = self._shuffled([c for cards in pool.values() for c in cards])
        if not self.discard:
            # Turn a starting card the way a real deal would accept one.
            starters = [i for i, c in enumerate(rest) if self.accepts_start_card(c)]
            if not starters:
                raise ValueError("setup leaves no card to start the discard pile")
            self.discard.append(rest.pop(starters[-1]))
        # draw_pile pops from the end: named draws last so the first is drawn first.
        self.draw_pile = rest + named_draw[::-1]
        self.dealer = setup.get("dealer", n - 1)
        self.current = setup.get("current", self._next(self.dealer))
        if not (isinstance(self.current, int) and 0 <= self.current < n):
            raise ValueError(f"setup 'current' must be a player from 0 to {n - 1}")
        self.direction = setup.get("direction", 1)
        if self.direction not in (1, -1):
            raise ValueError("setup 'direction' must be 1 or -1")
        top = self.discard[-1]
        self.color = setup.get("color", top.color)
        if top.is_wild and self.color not in COLORS:
            raise ValueError("setup needs a 'color' (red, yellow, green or blue) when the top card is a wild")
        if not top.is_wild and self.color != top.color:
            raise ValueError(f"setup 'color' {self.color!r} does not match the top card {top}")
        if "scores" in setup:
            self.scores = [int(s) for s in setup["scores"]]
        self._deal_events: list[Event] = []

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
            card = self.draw_pile.pop()
            if self.accepts_start_card(card):
                break
            self._reject_start_card(card, events)
        self.discard.append(card)
        self.color = card.color
        events.append(Event("start", cards=(card,), color=card.color))
        self._start_effect(card, events)
        return events

    def _shuffled(self, cards: list[Card]) -> list[Card]:
        cards.sort(key=lambda c: c.id)  # the source sees a canonical order
        return self._chance(cards)

    def _chance(self, items: list[Any]) -> list[Any]:
        """The one place chance enters: the next epoch's order of ``items`` (in canonical order).

        An order settled for this epoch and these items (:meth:`settle`) is used as given;
        otherwise the deck source is asked.
        """
        epoch = self.epoch
        got = self._settled.pop(epoch, None) if self._settled else None
        if got is not None and got[0] == tuple(items):
            out = list(got[1])
        else:
            out = self.source.shuffle(items, epoch)
        self.epoch = epoch + 1
        return out

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
        """What happened at the deal of the current round (hands, starting card)."""
        return list(self._deal_events)

    # -- acting -----------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """The decision the game waits on (``None`` once the round is over): who must decide,
        what kind of decision it is, and what they may answer. :meth:`apply` with one of its
        ``legal`` actions resolves it; the turn stays :attr:`current`'s."""
        if self.phase == "over":
            return None
        p = self._decider()
        return Decision(p, self._decision_kind(), self._legal(p))

    def _decider(self) -> int:
        """Who the game waits on: the player whose turn it is, unless a variant's step asks
        someone else (a colour, a challenge, an answer to an effect)."""
        return self.current

    def _decision_kind(self) -> str:
        """What the game waits on :meth:`_decider` for; the phase by default."""
        return self.phase

    def _decision_actions(self, p: int) -> list[Action]:
        """Legal actions of ``p``, the player the game waits on (:meth:`_decider`)."""
        return self._turn_actions(p)

    def to_act(self) -> list[int]:
        """Every player who has a legal action now, in seat order: the decision's player and
        whoever may act out of turn (calls and catches, jump-ins)."""
        if self.phase == "over":
            return []
        if self.exposed is not None:
            return [p for p in range(self.num_players) if not self.out[p]]
        d = self._decider()
        if not self._has_out_of_turn():
            return [d]
        return [p for p in range(self.num_players) if p == d or self._out_of_turn_actions(p)]

    def acting_order(self) -> list[int]:
        """Who may act now, in the order they get the chance: players acting out of turn first
        (a catch is shouted before the next card lands), in seat order from the player the game
        waits on, and that player last.

        One place for the order, so a bot table, a local session and the network host let the
        same player go first.
        """
        acting = self.to_act()
        if len(acting) < 2:
            return acting
        n, first = self.num_players, self._decider()
        order = sorted(acting, key=lambda q: (q - first) % n)
        return [q for q in order if q != first] + [q for q in order if q == first]

    def _has_out_of_turn(self) -> bool:
        """Cheap test: could anyone but the deciding player act now (jump-ins, ...)?"""
        return False

    def _out_of_turn_actions(self, p: int) -> list[Action]:
        """Legal actions of ``p`` when the game does not wait on ``p`` (besides UNO calls and catches)."""
        return []

    def legal_actions(self, p: int) -> list[Action]:
        """Every legal action of player ``p`` now (a wild once per colour)."""
        return list(self._legal(p))

    def _legal(self, p: int) -> tuple[Action, ...]:
        # Cached per state version: a random or bot move asks, then apply checks.
        cache = self._legal_cache
        if cache[0] == self.version and p in cache[1]:
            return cache[1][p]
        if cache[0] != self.version:
            cache = self._legal_cache = (self.version, {})
        if self.phase == "over" or not 0 <= p < len(self.names):
            acts: list[Action] = []
        else:
            if p == self._decider():
                acts = self._decision_actions(p)
            else:
                acts = self._out_of_turn_actions(p) if self._has_out_of_turn() else []
            x = self.exposed
            if x is not None:
                if p == x:
                    if UNO not in acts:
                        acts.append(UNO)
                elif not self.out[p]:
                    acts.append(Action("catch", target=x))
        cache[1][p] = out = tuple(acts)
        return out

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
            raise IllegalAction(self._explain(p, action))
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

    # -- shared mechanics for variants ------------------------------------------
    def _hand_card(self, p: int, card_id: int | None) -> Card | None:
        for c in self.hands[p]:
            if c.id == card_id:
                return c
        return None

    def _can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1 or bool(self.set_aside)

    def _draw_one(self, events: list[Event]) -> Card | None:
        if not self.draw_pile:
            if len(self.discard) <= 1 and not self.set_aside:
                return None
            top = self.discard.pop()
            self.draw_pile = self._shuffled(self.discard + self.set_aside)
            self.discard = [top]
            self.set_aside = []
            events.append(Event("reshuffle", count=len(self.draw_pile)))
        return self.draw_pile.pop()

    def _draw(self, p: int, n: int, reason: str, events: list[Event]) -> list[Card]:
        """``p`` draws ``n`` cards (fewer if the piles run dry)."""
        got: list[Card] = []
        for _ in range(n):
            c = self._draw_one(events)
            if c is None:
                break
            got.append(c)
        self._give(p, got, reason, events)
        return got

    def _give(self, p: int, cards: list[Card], reason: str, events: list[Event]) -> None:
        if cards:
            self.hands[p].extend(cards)
            self.declared[p] = False
            if self.exposed == p:
                self.exposed = None
        events.append(Event("draw", player=p, cards=tuple(cards), count=len(cards), reason=reason,
                            visible_to=(p,)))
        self._after_draw(p, events)

    def _after_draw(self, p: int, events: list[Event]) -> None:
        """Called after every draw (a variant's knock-out rule hooks in here)."""

    def _discard_from_hand(self, p: int, card: Card) -> None:
        """Move ``card`` from ``p``'s hand to the pile and track UNO calls."""
        hand = self.hands[p]
        hand.remove(card)
        self.discard.append(card)
        if len(hand) == 1 and not self.declared[p]:
            self.exposed = p

    def _end_round(self, winner: int, events: list[Event]) -> None:
        self.phase = "over"
        self.winner = winner
        self.exposed = None
        self.pending = None
        points = sum(self.card_points(c) for q, h in enumerate(self.hands) if q != winner for c in h)
        points += self._round_bonus(winner)
        self.last_points = points
        self.scores[winner] += points
        events.append(Event("round_over", player=winner, points=points))
        if self.match_winner is not None:
            events.append(Event("match_over", player=self.match_winner, points=self.scores[self.match_winner]))

    def _round_bonus(self, winner: int) -> int:
        """Points the winner scores beyond the cards in other hands."""
        return 0

    def _knock_out(self, p: int, events: list[Event]) -> None:
        """Take ``p`` out of the round; their hand is set aside until the next reshuffle."""
        self.out[p] = True
        self.set_aside.extend(self.hands[p])
        events.append(Event("knockout", player=p, count=len(self.hands[p])))
        self.hands[p] = []
        self.declared[p] = False
        if self.exposed == p:
            self.exposed = None
        left = self.active
        if len(left) == 1:
            self._end_round(left[0], events)

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
    def observation(self, p: int | None) -> dict[str, Any]:
        """Everything player ``p`` may see and nothing else; ``None`` is a spectator.

        Other hands appear only as counts (and in full once the round is over,
        when they are counted openly); the draw pile only as a count. It is
        :meth:`public_observation` with :meth:`private_observation` on top.
        """
        obs = self.public_observation()
        obs.update(self.private_observation(p))
        return obs

    def public_observation(self) -> dict[str, Any]:
        """The part of every :meth:`observation` that is the same for every seat and spectator.

        A host building all the players' views of one state builds this once
        (the seats' views share it; none of them may be changed in place).
        """
        n = self.num_players
        obs: dict[str, Any] = {
            "variant": self.variant,
            "version": self.version,
            "round": self.round,
            "dealer": self.dealer,
            "current": self.current,
            "direction": self.direction,
            "color": self.color,
            "top": self.top.to_dict() if self.discard else None,
            "discard": [c.to_dict() for c in self.discard],
            "draw_count": len(self.draw_pile),
            "set_aside_count": len(self.set_aside),
            "deck_size": len(self.cards),
            "phase": self.phase,
            "pending": self._public_pending(),
            "decision": None if self.phase == "over" else {"player": self._decider(),
                                                           "kind": self._decision_kind()},
            "players": [
                {
                    "name": self.names[q],
                    "cards": len(self.hands[q]),
                    "uno": self.declared[q] and len(self.hands[q]) == 1,
                    "exposed": self.exposed == q,
                    "out": self.out[q],
                    "score": self.scores[q],
                }
                for q in range(n)
            ],
            "to_act": self.to_act(),
            "options": dict(self.options),
            "target_score": self.target_score,
            "over": self.over,
            "winner": self.winner,
            "scores": list(self.scores),
            "match_over": self.match_over,
            "match_winner": self.match_winner,
        }
        if self.over:
            obs["hands"] = [[c.to_dict() for c in h] for h in self.hands]
            obs["hand_points"] = [sum(self.card_points(c) for c in h) for h in self.hands]
            obs["points"] = self.last_points
            obs["bonus"] = self._round_bonus(self.winner) if self.winner is not None else 0
        self._observe_public(obs)
        return obs

    def private_observation(self, p: int | None) -> dict[str, Any]:
        """The part of :meth:`observation` that is ``p``'s alone: ``me``, and a player's hand and choices.

        Its keys never appear in :meth:`public_observation`; this is the one
        place a hidden card enters a view.
        """
        me = p if p is not None and 0 <= p < self.num_players else None
        obs: dict[str, Any] = {"me": me}
        if me is not None:
            obs["hand"] = [c.to_dict() for c in self.hands[me]]
            obs["legal"] = [a.to_dict() for a in self.legal_actions(me)]
            obs["drawn"] = self.drawn if me == self.current and self.phase == "drawn" else None
        self._observe_private(obs, me)
        return obs

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
        return {
            "variant": self.variant,
            "names": list(self.names),
            "options": dict(self.options),
            "seed": self.seed,
            "scores": list(self.scores),
            "round": self.round,
            "dealer": self.dealer,
            "version": self.version,
            "epoch": self.epoch,
            "hands": [[c.id for c in h] for h in self.hands],
            "draw_pile": [c.id for c in self.draw_pile],
            "discard": [c.id for c in self.discard],
            "current": self.current,
            "direction": self.direction,
            "color": self.color,
            "phase": self.phase,
            "pending": None if self.pending is None else dict(self.pending),
            "drawn": self.drawn,
            "declared": list(self.declared),
            "exposed": self.exposed,
            "out": list(self.out),
            "set_aside": [c.id for c in self.set_aside],
            "winner": self.winner,
            "last_points": self.last_points,
            "deal_events": [e.to_dict() for e in self._deal_events],
            "extra": self._save_extra(),
        }

    def _save_extra(self) -> dict[str, Any]:
        """A variant's own state for :meth:`to_dict` (msgpack-able)."""
        return {}

    def _load_extra(self, d: dict[str, Any]) -> None:
        """Restore what :meth:`_save_extra` saved."""

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, source: DeckSource | None = None) -> "Game":
        """Rebuild a game saved by :meth:`to_dict`; ``Game.from_dict`` picks the variant class."""
        from .registry import variant_class

        klass = variant_class(d["variant"]) if cls is Game else cls
        g = klass.__new__(klass)
        g.names = list(d["names"])
        g.options = klass.check_options(dict(d["options"]))
        g.seed = bytes(d["seed"])
        g.source = source if source is not None else SeededSource(g.seed)
        g._init_deck()
        by_id = g.cards.__getitem__
        g.scores = list(d["scores"])
        g.round = d["round"]
        g.dealer = d["dealer"]
        g.version = d["version"]
        g._legal_cache = (-1, {})
        g.epoch = d["epoch"]
        g._settled = {}
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
        g._deal_events = [Event.from_dict(e) for e in d["deal_events"]]
        g._load_extra(d.get("extra", {}))
        return g

    # -- invariants ---------------------------------------------------------------------
    def all_cards(self) -> list[Card]:
        """Every card of the game wherever it lies (a variant with more places adds them)."""
        return [c for h in self.hands for c in h] + self.draw_pile + self.discard + self.set_aside

    def inconsistencies(self) -> list[str]:
        """What is wrong with this state, in words; empty for every state the rules can reach.

        The self-play tests ask it after every move; a loaded save can be checked with it.
        Variants add their own invariants (:meth:`_inconsistencies`).
        """
        out: list[str] = []
        places = Counter(c.id for c in self.all_cards())
        if len(places) != len(self.cards) or max(places.values(), default=1) > 1:
            twice = sorted(i for i, k in places.items() if k > 1)
            missing = sorted(set(range(len(self.cards))) - set(places))
            out.append(f"every card must lie in exactly one place (twice: {twice}, nowhere: {missing})")
        n = self.num_players
        if not 0 <= self.current < n:
            out.append(f"current {self.current} is not a seat")
        if self.direction not in (1, -1):
            out.append(f"direction {self.direction} is not 1 or -1")
        x = self.exposed
        if x is not None and (self.out[x] or len(self.hands[x]) != 1):
            out.append(f"player {x} is open to a catch without holding exactly one card")
        for q in range(n):
            if self.out[q] and self.hands[q]:
                out.append(f"player {q} is out of the round but holds cards")
        if not self.over and self.out[self.current]:
            out.append(f"it is the turn of player {self.current}, who is out")
        if self.phase == "drawn" and self._hand_card(self.current, self.drawn) is None:
            out.append("the card just drawn is not in the hand of the player whose turn it is")
        out += self._inconsistencies()
        return out

    def _inconsistencies(self) -> list[str]:
        """A variant's own invariants, in words (see :meth:`inconsistencies`)."""
        return []

    # -- chance, asked before it is used ---------------------------------------------------
    def chance_for(self, p: int, action: Action | dict[str, Any]) -> Chance | None:
        """The first shuffle that ``apply(p, action)`` would need and nobody has settled yet.

        ``None``: the move needs no order beyond those already given (:meth:`settle`); applying
        it then never asks the deck source. Otherwise settle the :class:`~core.Chance` and ask
        again: a move can need several (a reshuffle, then a token drawn from the bag). An illegal
        action raises :class:`IllegalAction`, as :meth:`apply` would. The game is not changed.
        """
        probe = self._probe()
        try:
            probe.apply(p, action)
        except ChanceStop as stop:
            return stop.chance
        return None

    def chance_for_next_round(self) -> Chance | None:
        """As :meth:`chance_for`, for :meth:`next_round`'s deal."""
        probe = self._probe()
        try:
            probe.next_round()
        except ChanceStop as stop:
            return stop.chance
        return None

    def settle(self, chance: Chance, order: Sequence[Any]) -> None:
        """Give the outcome of a chance node: ``order`` is ``chance.items`` in their new order.

        The next move or deal that reaches epoch ``chance.epoch`` with these items uses it as
        it is. A ``ValueError`` if ``order`` is not a permutation of the items or the epoch has
        passed. Settled orders are the caller's input to the next move, not game state: they
        are not saved by :meth:`to_dict`.
        """
        if chance.epoch < self.epoch:
            raise ValueError(f"epoch {chance.epoch} has passed (the game is at epoch {self.epoch})")
        self._settled[chance.epoch] = (tuple(chance.items), check_order(chance, order))

    def _probe(self) -> "Game":
        probe = type(self).from_dict(self.to_dict(), source=StopAtChance())
        probe._settled = dict(self._settled)
        return probe

    def restore(self, snapshot: dict[str, Any], *, source: DeckSource | None = None) -> None:
        """Put this game back to ``snapshot`` (a :meth:`to_dict`), in place: whoever holds the
        object sees the restored state. The deck source stays, unless ``source`` replaces it."""
        if snapshot.get("variant") != self.variant:
            raise ValueError(f"a {snapshot.get('variant')!r} snapshot cannot restore a {self.variant} game")
        fresh = type(self).from_dict(snapshot, source=source if source is not None else self.source)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)

    def copy(self) -> "Game":
        return type(self).from_dict(self.to_dict(), source=self.source)

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.variant} players={self.num_players} round={self.round} "
                f"current={self.current} top={self.top if self.discard else None} phase={self.phase}>")
