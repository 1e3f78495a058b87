"""The round's audit of a sealed game: :func:`replay` replays the round knowing every card and names
the author of every false claim (each a :class:`~core.FalseClaimFound`, gathered in an :class:`Audit`);
:func:`follow` applies a move as the table did, noting a false claim it meets.

The sealed cards, the handle table and the claims themselves are :mod:`core.sealed`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Sequence

from .actions import Action
from .cards import Card
from .events import Event
from .sealed import Face, FalseClaimFound, Sealed, apply, claims_of, learn, shows
from .source import Chance, ChanceStop

if TYPE_CHECKING:
    from .game import Game


class Audit(NamedTuple):
    """What :func:`replay` found."""

    false_claims: list[FalseClaimFound]
    game: Game
    """The replayed game at the end, every card known."""

    @property
    def culprits(self) -> list[int]:
        """The seats that made a false claim, each once, in the order of their first."""
        return list(dict.fromkeys(f.seat for f in self.false_claims))


class _ReplaySource:
    """The replay's deck source: card shuffles make cards whose faces the replay is given; any
    other order (tokens, a pick of handles) comes from the table's record (``public``)."""

    def __init__(self, public: Any) -> None:
        self.public = public

    def shuffle(self, items: Sequence[Any], epoch: int) -> list[Any] | None:
        if items and all(isinstance(x, Card) for x in items):
            return None
        if self.public is None:
            raise ChanceStop(Chance(epoch, tuple(items)))
        return self.public.shuffle(items, epoch)


def replay(start: Game, moves: Iterable[tuple[int, Action | dict[str, Any]]],
           faces: dict[int, Face] | Sequence[Face | None], public: Any = None) -> Audit:
    """The round's audit: replay ``moves`` from ``start`` (any sealed game at the round's start,
    a spectator's replica will do) knowing every card (``faces``: the face of every handle of the
    round, as the cryptographic audit opens them, by handle or as a list indexed by handle), and
    name the author of every false claim.

    A claim the public accepted is applied as the table applied it, false or not, so that every
    false claim of the round is found, not only the first; a move the public could not have
    accepted raises :class:`~core.IllegalAction` (the record itself is wrong). ``public``: a deck
    source for the round's public orders (tokens, a pick of handles), which the table logged.
    """
    from .errors import IllegalAction

    if start._slots is None:
        raise ValueError("replay audits a sealed game (new_game(..., sealed=True))")
    table = dict(faces) if isinstance(faces, dict) else {h: f for h, f in enumerate(faces) if f is not None}
    g = type(start).from_dict(start.to_dict(), source=_ReplaySource(public))
    s = g._slots
    assert s is not None
    s.faces = {h: (f[0], str(f[1])) for h, f in table.items()}
    for c in list(g.cards):
        if type(c) is Sealed and c.id in s.faces:
            learn(g, c.id, s.faces[c.id], False)
    for i, (p, action) in enumerate(moves):
        if isinstance(action, dict):
            action = Action.from_dict(action)
        for c in shows(g, p, action, claimed=True):  # what the move's intent showed
            g.reveal(c.id, c.face)
        try:
            follow(g, p, action)
        except IllegalAction as e:
            raise IllegalAction(f"move {i} ({p}, {action}) is not one the table could accept: {e}") from None
    return Audit(list(s.false), g)


def follow(g: Game, p: int, action: Action | dict[str, Any]) -> list[Event]:
    """:meth:`core.Game.follow`."""
    from .errors import FalseClaim

    if isinstance(action, dict):
        action = Action.from_dict(action)
    try:
        return g.apply(p, action)
    except FalseClaim as e:
        claim = claims_of(g, p, action)[0]
        s = g._slots
        assert s is not None
        s.false.append(FalseClaimFound(g.version, p, action, claim.words, str(e)))
        return apply(g, p, action)  # as the table did
