"""Pending decisions: who the game waits on, for what, and how the answer is carried out.

Whose turn it is (:attr:`core.Game.current`) and who must decide now are different things: a
card may ask another player to name a colour, to answer a challenge, to accept or counter an
effect. :attr:`core.Game.decision` is the one the game waits on; :meth:`core.Game.to_act` is
its player plus whoever may act out of turn (a catch, a jump-in). A variant with decisions of
its own kinds describes each kind once, as a :class:`Step` in its :class:`Steps` registry: what
happens when the step comes up, what is legal, and how the answer resolves. Its turn machinery
finds the step by the name stored with it (``s["op"]``), so a decision lives in one small class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

from .actions import Action

if TYPE_CHECKING:
    from .events import Event
    from .game import Game

G = TypeVar("G", bound="Game")
StepState = dict[str, Any]
"""A step as the game stores it (saved with the game): ``op`` names its :class:`Step`, ``who``
is the player it belongs to, ``asks`` (when present) the player it waits on instead."""


class Decision(NamedTuple):
    """The decision the game waits on."""

    player: int
    """Who must decide."""
    kind: str
    """What is asked: the turn's own phase (``"play"``, ``"drawn"``, ``"stack"``, ...) or a
    variant's step (``"color"``, ``"challenge"``, ``"react"``, ...)."""
    legal: tuple[Action, ...]
    """What ``player`` may answer (``legal_actions(player)``, calls and catches included)."""


class Step(Generic[G]):
    """One kind of step of a variant's turn; most wait for a decision.

    The game keeps the step's data as a plain dict (:data:`StepState`), so it is saved and
    restored with the game; the class holds the rules. A step that needs nobody's decision
    (carry out an effect, end the turn) only implements :meth:`start`.
    """

    op: ClassVar[str] = ""
    """The name the game stores with the step (``s["op"]``) and finds the class by."""
    hint: ClassVar[str] = ""
    """What the player is asked, in words (for the message of an illegal answer)."""

    def start(self, g: G, s: StepState, events: list["Event"]) -> bool:
        """The step comes up: do what needs no decision; True to wait for one."""
        return True

    def legal(self, g: G, p: int, s: StepState) -> list[Action]:
        """What ``p``, the player the step waits on, may answer."""
        return []

    def resolve(self, g: G, p: int, a: Action, s: StepState, events: list["Event"]) -> None:
        """Carry out ``p``'s legal answer ``a``."""
        raise AssertionError(f"step {self.op!r} takes no decision")

    @staticmethod
    def decider(s: StepState) -> int:
        """The player the step waits on."""
        return s.get("asks", s["who"])


class Steps(Generic[G]):
    """A variant's registry of step kinds, by name (``@STEPS.register`` on each class)."""

    def __init__(self) -> None:
        self._by_op: dict[str, Step[G]] = {}

    def register(self, cls: type[Step[G]]) -> type[Step[G]]:
        if not cls.op or cls.op in self._by_op:
            raise ValueError(f"step {cls.__name__} needs a name of its own (op={cls.op!r})")
        self._by_op[cls.op] = cls()
        return cls

    def __getitem__(self, op: str) -> Step[G]:
        return self._by_op[op]

    def __contains__(self, op: object) -> bool:
        return op in self._by_op

    def names(self) -> tuple[str, ...]:
        return tuple(self._by_op)
