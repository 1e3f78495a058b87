"""The moves a sealed peer makes for the seats it holds: a person's, its bots', and a decision with one answer.

A seat's move is made only by the peer that holds its cards (it alone can show them), so the
seat's person, the peer's bot when the person's turn timer runs out, or, for a decision with a
single answer (:meth:`core.Game.forced_move`), the peer at once, as a local table makes it. Each
move goes out as an ``smove`` with the keys of the cards it shows (mixed into
:class:`net.sealing.SealedPeer`).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any, Callable

import core
from core import Action

from ..sealed import Fault, Participant
from .signed import Alarm


class SeatMoves:
    """Making this peer's seats' moves (mixed into the sealed peer, whose state it reads)."""

    game: core.Game | None
    seats: tuple[int, ...]
    manual: frozenset[int]
    owners: list[int]
    turn_timer: float | None
    auto: bool
    part: Participant | None
    slot: dict[int, tuple[int, int]]
    card_of: dict[int, int]
    round: int
    alarm: Any
    timeouts: list[Callable[[int], None]]
    waiting_on: set[int]
    bot: Any
    rng: random.Random
    send: Callable[[dict[str, Any]], None]
    """The peer's: sign a body and put it in the log."""
    _hand_to_walk: Callable[[Exception], None]
    """The peer's (waiting.py): a failed check for the walk to raise."""

    def _act(self) -> None:
        """A seat of this peer's that is to decide sends its move (once per position); a seat its
        person plays gets :attr:`turn_timer` seconds, then this peer's bot moves for it."""
        g = self.game
        assert g is not None
        d = g.decision
        self.waiting_on = {self.owners[d.player]} if d is not None else set()
        if d is not None and d.player in self.manual and d.player in self.seats \
                and getattr(self, "_acted", None) != g.version:
            forced = g.forced_move()
            if forced is not None and forced[0] == d.player:
                # A decision with one answer (a card drawn that cannot be played, a Discard All's
                # discards): made for the person at once, as a local table makes it.
                self._acted = g.version
                self._send_move(*forced)
                return
        if d is not None and d.player in self.manual and self.turn_timer is not None \
                and getattr(self, "_armed", None) != g.version:
            self._armed = g.version
            asyncio.get_running_loop().call_later(self.turn_timer, self._out_of_time, d.player, g.version)
        if not self.auto or d is None or d.player not in self.seats or d.player in self.manual \
                or getattr(self, "_acted", None) == g.version:
            return
        self._acted = g.version
        p = d.player
        choice = self.choose(p)
        if choice is not None:
            self._send_move(p, choice)

    def _out_of_time(self, p: int, version: int) -> None:
        """Seat ``p``'s person let its turn timer run out at ``version``: this peer's bot moves for it
        (its own client holds its cards' keys, so no one else could)."""
        g = self.game
        if g is None or g.version != version or getattr(self, "_moved", None) == version or self.alarm is not None:
            return
        d = g.decision
        if d is None or d.player != p:
            return
        choice = self.choose(p)
        if choice is not None and self._send_outside(p, choice):
            for told in list(self.timeouts):
                told(p)

    def move(self, p: int, action: Action) -> None:
        """Send seat ``p``'s move (a seat of this peer's): refused with :class:`core.IllegalAction`
        unless its own game, which sees its hand, finds it legal now."""
        g = self.game
        if g is None or p not in self.seats or g.phase == "over":
            raise core.IllegalAction("it is not a move this seat can make now")
        why = g.why_illegal(p, action)
        if why is not None:
            raise core.IllegalAction(why)
        if not self._send_outside(p, action):
            raise core.IllegalAction("the table has stopped: a check of the log failed (the alarm follows)")

    def _send_outside(self, p: int, action: Action) -> bool:
        """Send a move from outside the peer's walk (a person's key, a turn timer). The checks that
        wait run first (:meth:`~net.sealing.restart.Restart.send`); one that fails is the walk's to
        raise, and nothing is sent: False."""
        try:
            self._send_move(p, action)
        except (Alarm, Fault) as e:
            self._hand_to_walk(e)
            return False
        return True

    def _send_move(self, p: int, action: Action) -> None:
        g = self.game
        assert g is not None and self.part is not None
        shown = self.shows(p, action)
        slots = [self.slot[c.id] for c in shown]
        self._moved = g.version
        faces = [[*self.slot[c.id], self.card_of[c.id]] for c in shown if c.id in self.card_of]
        self.send({"k": "smove", "r": self.round, "seat": p, "v": g.version, "a": action.to_dict(),
                   "show": self.part.show(slots) if slots else [],
                   **({"faces": faces} if faces else {})})

    def shows(self, p: int, action: Action) -> list[core.Card]:
        """The cards of seat ``p`` that ``action`` shows (its keys go with the move)."""
        assert self.game is not None
        return self.game.shows(p, action)

    def choose(self, p: int) -> Action | None:
        """This peer's move for seat ``p`` (a bot's, from the seat's own observation)."""
        g = self.game
        assert g is not None
        legal = g.legal_actions(p)
        if not legal:
            return None
        try:
            got = self.bot.choose(g.observation(p))
        except Exception:  # noqa: BLE001  (a bot that trips on a sealed position still leaves a legal move)
            got = None
        return got if got is not None and got in legal else self.rng.choice(legal)
