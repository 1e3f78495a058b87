"""What a move needs first, and what a game learns: the chance-first API and sealed cards.

The engine never shuffles by itself and, in a sealed game, never sees a card before the rules
show it. A caller that must settle these before a move (the network: the fair deal's round
trips, the sealed slots' openings) asks first, the way OpenSpiel exposes chance nodes, resolves
what is asked, teaches the game, and asks again until nothing is needed; then the move uses
exactly what it was given, and nothing is ever rolled back::

    while (need := game.need_for(p, action)) is not None:
        if isinstance(need, core.Chance):
            game.settle(need, order_somehow(need))        # a permutation of need.items (None: sealed)
        else:                                             # a core.Reveal
            game.settle(need, [face_of(h) for h in need.handles])
    events = game.apply(p, action)

:class:`Needs` is that API, a base of :class:`core.Game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from . import sealed as sealing
from . import sealed_audit as audit
from .actions import Action
from .cards import Card
from .events import Event
from .sealed import Claim, Reveal
from .source import Chance, check_order

if TYPE_CHECKING:
    from .game import Game

Need = Chance | Reveal
"""What a move or a deal may need before it can be made: a shuffle's order, or cards shown to everyone."""

_CALLS = frozenset({"uno", "catch"})


class Needs:
    """The chance-first API and what a sealed game learns (a base of :class:`core.Game`)."""

    _settled: dict[int, tuple[tuple[Any, ...], Any]] = {}
    _ahead: dict[int, tuple[str | None, str]] = {}
    """Faces settled for cards a shuffle has yet to make (a deal's starting card), by id; the
    caller's input, like settled orders (never changed in place: a class default keeps a game
    that is never given any at one attribute fewer)."""

    AUTOMATIC: ClassVar[frozenset[str]] = frozenset()
    """Decision kinds that exist so that a sealed table can follow a move (a drawn card kept, a
    challenge's ruling, ...), which a full-information table used to make by itself: when one
    leaves a single answer, :meth:`forced_move` names it and local tables make it at once."""

    # -- asking --------------------------------------------------------------------------------
    def need_for(self: Game, p: int, action: Action | dict[str, Any], *, follow: bool = False,
                 probe: Game | None = None) -> Need | None:
        """The first thing ``apply(p, action)`` needs that this game lacks: a shuffle nobody has
        settled (:class:`~core.Chance`), or, in a sealed game, cards to be shown to everyone
        (:class:`~core.Reveal`: a card turned up from the pile, the hands at the round's end).

        ``None``: the move needs nothing more; applying it never asks the deck source. Otherwise
        settle it (:meth:`settle`) and ask again. An illegal action raises
        :class:`~core.IllegalAction`, as :meth:`apply` would. The game is not changed.

        The cards a player shows with its own move (a card played, laid or discarded face up)
        come with the move: the player's own game lists them (:meth:`shows`), and the others
        learn them (:meth:`reveal`) before asking.

        ``follow``: for :meth:`follow` rather than :meth:`apply` (a claim this game sees is false
        is no error). ``probe``: the copy to make the move on, from :meth:`probe` (made ahead, while
        idle, by a caller that asks this of every move); used up. Without it (or if the game has
        moved since it was made) a copy is made now.
        """
        made: list[Any] = []
        if follow:
            need = sealing.first_need(self, lambda g: audit.follow(g, p, action), probe, made)
        else:
            need = sealing.first_need(self, lambda g: g.apply(p, action), probe)
        if need is None and self._slots is not None:
            # The move made on the copy: follow (at this moment) takes the copy over.
            self._slots.cleared = (sealing.moment(self), p, action, *made)
        return need

    def probe(self: Game) -> Game:
        """A copy of this game as it is now for one :meth:`need_for` to make its move on: the
        copy's cost taken ahead of the move (a sealed table's peer asks the needs of every move).
        Good only until this game changes: a card revealed, a need settled, a move made."""
        return sealing.probe_of(self)

    def follow(self: Game, p: int, action: Action | dict[str, Any]) -> list[Event]:
        """Apply ``p``'s move as the table accepted it: as :meth:`apply`, except that a claim this
        (sealed) game sees is false (it holds the cards the claim is about, or was shown them) is
        carried out all the same, as the others took it, and recorded in :attr:`false_claims`
        (the table goes on; the round's audit names its author to all). A move the public could
        not accept still raises :class:`~core.IllegalAction`.

        Right after :meth:`need_for` (``follow=True``) found this move needs nothing, the move its
        copy made is taken over rather than made again."""
        s = self._slots
        made = None if s is None else s.cleared
        if made is not None and len(made) == 5 and made[:3] == (sealing.moment(self), p, action):
            s.cleared = None
            sealing.take_over(self, made[3])
            return list(made[4])  # the events of the move the copy made
        return audit.follow(self, p, action)

    @property
    def false_claims(self: Game) -> list[sealing.FalseClaimFound]:
        """The claims of this round this game saw were false (see :meth:`follow`)."""
        s = self._slots
        return [] if s is None else list(s.false)

    def need_for_next_round(self: Game) -> Need | None:
        """As :meth:`need_for`, for :meth:`next_round`'s deal."""
        return sealing.first_need(self, lambda probe: probe.next_round())

    chance_for = need_for
    """The older name of :meth:`need_for` (a full-information game only ever needs chances)."""
    chance_for_next_round = need_for_next_round

    def settle(self: Game, need: Need, answer: Any) -> None:
        """Give what ``need`` asked for.

        A :class:`~core.Chance`: ``answer`` is ``need.items`` in their new order; the next move
        or deal that reaches epoch ``need.epoch`` with these items uses it as it is. In a sealed
        game ``None`` answers a shuffle of cards whose order this game may not know: the cards
        it makes are sealed. A ``ValueError`` if ``answer`` is not a permutation of the items or
        the epoch has passed. Settled orders are the caller's input to the next move, not game
        state: they are not saved by :meth:`to_dict`.

        A :class:`~core.Reveal`: ``answer`` is one face ``(color, rank)`` per handle, in order;
        the game learns them, and the move that turns them up shows them to everyone (cards a
        shuffle has yet to make are learnt when it makes them).
        """
        if isinstance(need, Reveal):
            faces = list(answer)
            if len(faces) != len(need.handles):
                raise ValueError(f"{need} needs {len(need.handles)} faces, not {len(faces)}")
            for h, face in zip(need.handles, faces):
                # Asked while the round is over, it is for the next deal's cards, made afresh.
                # Learnt, not yet public: the move that turns them up makes them public, so that
                # whatever it claims is read as the table read it, before they were turned.
                if h < len(self.cards) and self.phase != "over":
                    self.learn(h, face)
                else:
                    self._ahead = {**self._ahead, h: (face[0], str(face[1]))}
            return
        if need.epoch < self.epoch:
            raise ValueError(f"epoch {need.epoch} has passed (the game is at epoch {self.epoch})")
        if answer is None:
            if self._slots is None or not need.items or not all(isinstance(x, Card) for x in need.items):
                raise ValueError(f"only a sealed game may leave a shuffle of cards unseen (epoch {need.epoch})")
            order = None
        else:
            order = check_order(need, answer)
        # A new map, not the class's empty one: a game that is never given an order has one
        # attribute fewer, which keeps CPython's quick attribute access (at most 30 keys).
        self._settled = {**self._settled, need.epoch: (tuple(c.id if isinstance(c, Card) else c for c in need.items),
                                                        order)}

    # -- what a sealed game learns --------------------------------------------------------------
    def learn(self: Game, handle: int, face: tuple[str | None, str]) -> Card:
        """This (sealed) game's player is shown card ``handle``: ``face`` is ``(color, rank)``.

        For cards shown to one seat (dealt or handed to it, a hand shown to a challenger, a pile
        to a searcher: see :meth:`deliveries`). A ``ValueError`` for a face the deck does not have
        or that contradicts what the game knows."""
        return sealing.learn(self, handle, face, False)

    def reveal(self: Game, handle: int, face: tuple[str | None, str]) -> Card:
        """Card ``handle`` is shown to everyone: this game learns ``face`` and knows it is public."""
        return sealing.learn(self, handle, face, True)

    def shows(self: Game, p: int, action: Action) -> list[Card]:
        """The cards of ``p``'s that ``action`` shows to everyone and that are not public yet (as
        this game knows them; asked of the player's own game). A sealed table sends them with the
        intent, and every other game :meth:`reveal` s them before the move. Empty in a
        full-information game."""
        return sealing.shows(self, p, action)

    def deliveries(self: Game, events: Sequence[Event]) -> dict[int, list[int]]:
        """After a move with these ``events``: the cards each seat is to see (its whole hand, and
        what an event shows it alone). A sealed table opens to each seat those it lacks."""
        return sealing.deliveries(self, events)

    def deliveries_if(self: Game, p: int, action: Action | dict[str, Any]) -> dict[int, list[int]] | None:
        """:meth:`deliveries` after following ``p``'s ``action``, worked out on a copy (this game is
        not changed); None if the move is illegal or needs a shuffle or a face this game lacks. A
        sealed table's peer asks it of a likely draw while idle, to seal its keys of the card ahead."""
        return sealing.deliveries_after(self, lambda probe: audit.follow(probe, p, action))

    def fill(self: Game, events: Sequence[Event]) -> list[Event]:
        """``events`` with the cards this game has since learnt in place of their sealed copies
        (a seat's own draw, shown once its cards are opened to it)."""
        return sealing.fill(self, events)

    def blind_copy(self: Game, seats: Sequence[int] = ()) -> Game:
        """A copy of this sealed game that knows only the public cards and ``seats``' hands."""
        return sealing.blind_copy(self, seats)

    @property
    def sealed(self: Game) -> bool:
        """Whether this is a game of sealed cards (see :mod:`core.sealed`)."""
        return self._slots is not None

    @property
    def claims(self: Game) -> list[Claim]:
        """The claims made this round: moves that rest on cards only their player could see."""
        s = self._slots
        return [] if s is None else list(s.claims)

    # -- decisions with a single answer ---------------------------------------------------------
    def forced_move(self: Game) -> tuple[int, Action] | None:
        """``(player, action)`` when the game waits on a decision of :attr:`AUTOMATIC` kind that
        leaves its player a single answer (besides calls and catches) which plays no card: a
        local table makes it at once, as the engine used to by itself."""
        if self.phase == "over":
            return None
        d = self.decision
        if d is None or d.kind not in self.AUTOMATIC:
            return None
        acts = [a for a in d.legal if a.kind not in _CALLS]
        if len(acts) != 1 or acts[0].kind in ("play", "camo"):
            return None
        return d.player, acts[0]

    # -- hooks ------------------------------------------------------------------------------------
    def _card_lists(self: Game) -> list[list[Card]]:
        """Every list the game keeps cards in that may hold a sealed card (a variant with more
        places adds them): where a face just learnt is put in."""
        return [*self.hands, self.draw_pile, self.discard, self.set_aside]

    def _claim_cards(self: Game, p: int) -> list[Card]:
        """The hidden cards a claim of ``p``'s now may speak of: ``p``'s hand (a variant adds a
        hand shown to ``p``, on which ``p`` rules)."""
        return list(self.hands[p])

    def _claim_words(self: Game, p: int, action: Action) -> str:
        """What ``p`` claims by ``action``, in words (the public cards only)."""
        return f"{action} is legal with the cards {self.names[p]} holds"
