"""Who may act: :class:`Acting`, the part of :class:`core.Game` that names the decision the game
waits on, everyone who may act now (out of turn too) and in which order, and each player's legal
actions. Whose *turn* it is (``current``) and who may act *now* are separate questions, as in
boardgame.io's turn order; a variant answers them through the hooks here (``_decider``,
``_decision_kind``, ``_decision_actions``, ``_has_out_of_turn``, ``_out_of_turn_actions``), listed in
``docs/engine.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import UNO, Action
from .decisions import Decision
from .errors import SealedFace

if TYPE_CHECKING:
    from .sealed import SlotState


class Acting:
    """A base of :class:`core.Game`: the decision, ``to_act``, ``acting_order`` and legal actions."""

    # (The game's own attributes these read; see core.Game for what each means.)
    phase: str
    current: int
    num_players: int
    names: list[str]
    out: list[bool]
    exposed: int | None
    version: int
    asks_others: bool
    _slots: SlotState | None
    _legal_cache: tuple[int, dict[int, tuple[Action, ...]]]
    _turn_actions: Any  # (the game's: the actions of the player whose turn it is)
    _explain: Any  # (the game's: why an action is not legal, in words)

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
        whoever may act out of turn (calls and catches, jump-ins).

        A sealed game cannot know who holds a card to jump in with: it names only the
        decision's player and, while someone may be caught, every player still in (a player's
        own :meth:`legal_actions` still lists its jump-ins)."""
        if self._slots is not None:
            return self._to_act_public()
        if self.asks_others:
            return self._to_act(self._decider())
        # The same as _to_act(self.current), spelt out: this is the engine's hottest question.
        if self.phase == "over":
            return []
        if self.exposed is not None:
            return [p for p in range(self.num_players) if not self.out[p]]
        if not self._has_out_of_turn():
            return [self.current]
        return [p for p in range(self.num_players) if p == self.current or self._out_of_turn_actions(p)]

    def _to_act(self, d: int) -> list[int]:
        """:meth:`to_act` when the game waits on ``d``."""
        if self.phase == "over":
            return []
        if self.exposed is not None:
            return [p for p in range(self.num_players) if not self.out[p]]
        if not self._has_out_of_turn():
            return [d]
        return [p for p in range(self.num_players) if p == d or self._out_of_turn_actions(p)]

    def _to_act_public(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.exposed is not None:
            return [p for p in range(self.num_players) if not self.out[p]]
        return [self._decider()]

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

    def why_illegal(self, p: int, action: Action) -> str | None:
        """Why ``action`` is not a legal move of ``p`` now, in words, as :meth:`apply` would refuse
        it ("blue 2 does not match red 5 ..."); None when it is legal. A screen that checks a move
        before it sends it (a network table's) says the same as one that applies it."""
        if action in self._legal(p):
            return None
        try:
            return str(self._explain(p, action))
        except SealedFace:  # the explanation would need a card this game cannot see
            return f"{action} is not legal with the cards shown"

    def _legal(self, p: int) -> tuple[Action, ...]:
        # Cached per state version: a random or bot move asks, then apply checks.
        cache = self._legal_cache
        version = self.version
        if cache[0] == version:
            got = cache[1].get(p)
            if got is not None:
                return got
        else:
            cache = self._legal_cache = (version, {})
        cache[1][p] = out = self._legal_now(p)
        return out

    def _legal_now(self, p: int) -> tuple[Action, ...]:
        """:meth:`legal_actions` worked out afresh (a sealed game reads the rules several ways)."""
        if self.phase == "over" or not 0 <= p < len(self.names):
            acts: list[Action] = []
        else:
            if not self.asks_others:  # the hot path of most variants: the turn's player decides
                acts = self._turn_actions(p) if p == self.current else \
                    self._out_of_turn_actions(p) if self._has_out_of_turn() else []
            elif p == self._decider():
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
        return tuple(acts)
