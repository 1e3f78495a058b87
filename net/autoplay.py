"""Who moves when no person does: the host's bots, stand-ins for people away, and the turn timer.

A bot seat is played by a :mod:`core.bots` bot; so is a person's seat while
they are away past the grace period or benched (a *stand-in*), and a
person's turn when they let the turn timer run out. :class:`Autoplay` drives
them for a table (:mod:`net.table`), one move at a time, through the same
path a person's intent takes (:meth:`Moves.try_apply`, :meth:`Moves.applied`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Callable, Protocol

from core import Action, Event
from core.bots import Bot, make_bot, tell_bots

from .thinking import bot_settings

if TYPE_CHECKING:
    import core

    from .seats import HostConfig, Seat

log = logging.getLogger("net.autoplay")


class Moves(Protocol):
    """What autoplay needs of its table."""

    config: HostConfig
    game: core.Game | None
    phase: str
    seats: list[Seat]
    settling: bool
    """An epoch of the fair deal is being settled: play waits for it."""

    def try_apply(self, p: int, action: Action, retry: Callable[[], None]) -> list[Event] | None: ...

    def applied(self, p: int, action: Action, events: list[Event], *, auto: bool, why: str | None = None,
                **more: Any) -> None: ...

    def emit(self, kind: str, data: dict[str, Any]) -> None: ...


def waits_on(game: core.Game) -> int:
    """The player the turn timer runs for: the one the game waits on (a Diez step may ask another
    player than the one whose turn it is), not whose turn it is."""
    decision = game.decision
    return decision.player if decision is not None else game.current


class Autoplay:
    """The bots of one table, and its turn timer."""

    def __init__(self, table: Moves) -> None:
        self.table = table
        self.seed = ""
        """What the bots' seeds begin with (the match's: see :meth:`new_match`)."""
        self._bots: dict[int, Bot] = {}
        self._thinking: dict[str, Any] | None = None
        """The hard bots' settings: one budget and one searcher (a process pool) for the table's
        hard bots, which decide one at a time, kept across matches (as a local session does)."""
        self._driver: asyncio.Task[None] | None = None
        self._turn_handle: asyncio.TimerHandle | None = None
        self._turn_for: int | None = None

    def new_match(self, seed: str) -> None:
        """Fresh bots for a new match (each seat's bot seeded from ``seed`` and the seat)."""
        self.seed = seed
        self._bots.clear()

    def bot(self, p: int) -> Bot:
        bot = self._bots.get(p)
        if bot is None:
            level = self.table.seats[p].level
            settings = self._think_settings() if level == "hard" else {}
            bot = self._bots[p] = make_bot(level, seed=f"{self.seed}:{p}", **settings)
        return bot

    def tell(self, events: list[Event]) -> None:
        """What happened, for the bots that keep a memory of the table (the hard one's belief)."""
        tell_bots(self._bots, events)

    def _think_settings(self) -> dict[str, Any]:
        if self._thinking is None:
            config = self.table.config
            self._thinking = bot_settings(config.bot_think, processes=config.bot_processes)
        return self._thinking

    def close(self) -> None:
        self.cancel_timer()
        if self._driver is not None:
            self._driver.cancel()
        searcher = (self._thinking or {}).get("searcher")
        if searcher is not None:  # its worker processes end with the table
            searcher.close()

    # -- bots and stand-ins ----------------------------------------------------------------------
    def kick(self) -> None:
        """Make sure the bot driver runs if a bot may want to act."""
        if self.table.phase == "playing" and (self._driver is None or self._driver.done()):
            self._driver = asyncio.ensure_future(self._drive())

    async def _drive(self) -> None:
        """Let bots (and stand-ins) act, one move at a time, until only people may act."""
        table = self.table
        try:
            while True:
                # Yield even with no delay: intents that arrived meanwhile go first.
                await asyncio.sleep(table.config.bot_delay)
                game = table.game
                if table.phase != "playing" or game is None or game.over or table.settling:
                    return
                for p in game.acting_order():  # out of turn first: "UNO!" is shouted before the next card lands
                    if not table.seats[p].bot_plays:
                        continue
                    bot = self.bot(p)
                    if bot.level == "hard":
                        # A search takes a while: think off the loop, and drop the thought if the
                        # table moved on meanwhile (the next pass decides again).
                        version = game.version
                        action = await asyncio.to_thread(bot.choose, game.observation(p))
                        if table.game is not game or game.version != version or table.phase != "playing":
                            break
                    else:
                        action = bot.choose(game.observation(p))
                    if action is None:
                        continue
                    seat = table.seats[p]
                    auto = seat.kind != "bot"
                    why = ("bench" if seat.benched else "away") if auto else None
                    events = table.try_apply(p, action, lambda p=p, a=action, w=why: self._retry(p, a, w))
                    if events is None:
                        return
                    table.applied(p, action, events, auto=auto, why=why)
                    break
                else:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot driver failed")

    def _retry(self, p: int, action: Action, why: str | None) -> None:
        """A host-made move held back by an epoch: made now if it is still legal (``why`` None: a bot's seat)."""
        table = self.table
        game = table.game
        if table.phase != "playing" or game is None or action not in game.legal_actions(p):
            return
        if why == "away" and not table.seats[p].stand_in:
            return  # its person came back meanwhile
        events = table.try_apply(p, action, lambda: self._retry(p, action, why))
        if events is not None:
            table.applied(p, action, events, auto=why is not None, why=why)

    # -- the turn timer ---------------------------------------------------------------------------
    def cancel_timer(self) -> None:
        if self._turn_handle is not None:
            self._turn_handle.cancel()
        self._turn_handle, self._turn_for = None, None

    def arm_timer(self) -> None:
        """Start the turn timer for the person the game now waits on (if it is not running for them)."""
        table = self.table
        game, limit = table.game, table.config.turn_timer
        if not limit or game is None or table.phase != "playing" or game.over:
            self.cancel_timer()
            return
        p = waits_on(game)
        if table.seats[p].bot_plays:
            self.cancel_timer()
            return
        if self._turn_for == p and self._turn_handle is not None:
            return  # the same turn goes on (an out-of-turn call does not reset the clock)
        self.start_timer(p, limit)

    def start_timer(self, p: int, seconds: float) -> None:
        """Run the turn timer for ``p``: in ``seconds`` a bot plays for them, if the game still waits on them."""
        self.cancel_timer()
        self._turn_for = p
        self._turn_handle = asyncio.get_running_loop().call_later(seconds, self._timeout, p)

    def runs_for(self) -> int | None:
        """The seat the turn timer is running for, if it is running."""
        return self._turn_for if self._turn_handle is not None else None

    def _timeout(self, p: int) -> None:
        self._turn_handle, self._turn_for = None, None
        table = self.table
        game = table.game
        if table.phase != "playing" or game is None or game.over or waits_on(game) != p \
                or table.seats[p].bot_plays or table.settling:
            return
        action = self.bot(p).choose(game.observation(p))
        if action is None or action.kind == "catch":
            legal = game.legal_actions(p)
            action = next((a for a in legal if a.kind in ("draw", "pass")), legal[0] if legal else None)
        if action is None:
            return
        table.emit("timeout", {"seat": p, "name": table.seats[p].name})
        events = table.try_apply(p, action, lambda: self._retry(p, action, "timer"))
        if events is not None:
            table.applied(p, action, events, auto=True, why="timer")
