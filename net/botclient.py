"""A bot that plays through a :class:`Client`, as a person's screen would."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Callable

from core import Event
from core.bots import make_bot

from .client import Client, NotConnected
from .messages import clean_text
from .thinking import bot_settings

log = logging.getLogger("net.botclient")


def obs_seat(client: Client) -> int | None:
    obs = client.observation
    return None if obs is None else obs.get("me")


class BotClient:
    """Take a seat at ``address`` and let a ``core`` bot of ``level`` play it.

    ``run()`` returns 0 when the host says the game is over, 1 when the link
    is lost for good or the host refuses the seat.
    """

    def __init__(self, address: str | tuple[str, int], name: str = "Bot", level: str = "normal", *,
                 seed: int | str | None = None, delay: float = 0.0, password: str | None = None,
                 think: float | None = None, client_class: type[Client] = Client,
                 **client_options: Any) -> None:
        """``client_class``: the client to play through (the fairness tests' dishonest players subclass it);
        ``think``: seconds a ``hard`` bot thinks per move (``None``: the default)."""
        settings = bot_settings(think) if level == "hard" else {}
        self.bot = make_bot(level, seed=seed if seed is not None else name, **settings)
        self.delay = delay
        self.client = client_class(address, name, password=password, **client_options)
        self.moves = 0
        self.rejected = 0
        self.links: list[str] = []
        """The link states seen (``lost``, ``restored``, ``gave_up``), in order."""
        self.report: Callable[[str], None] | None = None
        """Told in words the seat taken and the result (``uno-tui bot`` prints them)."""

    def _say(self, text: str) -> None:
        if self.report is not None:
            self.report(clean_text(text, 1000))  # names and reasons the host sent: nothing raw to a terminal

    def _names(self) -> list[str]:
        lobby = self.client.lobby or {}
        return [s.get("name") or f"Seat {s['seat'] + 1}" for s in lobby.get("seats", [])]

    def _result(self, msg: dict[str, Any]) -> str:
        """The end of the game in words: who won (or why it ended), every score, and this seat's."""
        names, seat = self._names(), self.client.seat
        scores, winner = msg.get("scores") or [], msg.get("winner")
        name = (lambda p: names[p] if p < len(names) else f"seat {p + 1}")
        if winner is None:
            head = "the rounds are played" if msg.get("reason") == "rounds_done" else \
                f"the game ended ({msg.get('reason') or 'no winner'})"
        else:
            head = f"{'this bot' if winner == seat else name(winner)} won the match"
        table = ", ".join(f"{name(p)} {s}" for p, s in enumerate(scores))
        return f"{head}; scores: {table}" if table else head

    async def run(self) -> int:
        from .client import Refused

        client = self.client
        try:
            await client.connect()
            await client.ready()
        except (Refused, OSError, asyncio.TimeoutError) as e:
            log.error("could not take a seat at %s: %s", client.address, e)
            self._say(f"could not take a seat at {client.address}: {e}")
            return 1
        seat = "no seat" if client.seat is None else f"seat {client.seat + 1}"
        self._say(f"took {seat} as {client.name} at {client.address}; playing until the game ends")
        acted_on: int | None = None  # the state version we last acted on
        last_sent: int | None = None  # the version of the last intent sent
        tries = 0  # rejects of intents built on last_sent
        try:
            while True:
                msg = await client.messages.get()
                kind = msg["type"]
                if kind == "link":
                    self.links.append(msg["state"])
                if kind == "update" and obs_seat(client) is not None:
                    # What this seat was shown (the host already hid the rest); the hard bot remembers.
                    observe = getattr(self.bot, "observe", None)  # a bot that decides on views alone has none
                    try:
                        if observe is not None:
                            observe(obs_seat(client), [Event.from_dict(e) for e in msg.get("events", ())])
                    except Exception:  # events it cannot read (a host may send anything): it forgets, not fails
                        log.warning("the bot could not read the host's events", exc_info=True)
                if kind == "end":
                    self._say(self._result(msg) + f" ({self.moves} moves made)")
                    return 0
                if kind == "link" and msg["state"] == "gave_up":
                    self._say(f"the link to the host is gone: {msg.get('reason') or 'gave up'}")
                    return 1
                if kind == "link" and msg["state"] == "restored":
                    with contextlib.suppress(NotConnected):  # lost again at once: the next 'restored' says it
                        await client.ready()
                    acted_on = None
                if kind == "reject":
                    # The host sends a fresh update right after; decide again on it, a few times at most.
                    self.rejected += 1
                    tries += 1
                    if tries <= 3:
                        acted_on = None
                if not client.messages.empty():
                    continue  # act only on the newest state: older ones are stale already
                obs = client.observation
                if obs is None or obs.get("me") is None or obs["version"] == acted_on:
                    continue
                if obs["me"] not in obs["to_act"]:
                    continue
                if self.delay:
                    await asyncio.sleep(self.delay)
                    if not client.messages.empty():
                        continue
                try:
                    if getattr(self.bot, "level", None) == "hard":  # a search takes a while: keep the link answering meanwhile
                        action = await asyncio.to_thread(self.bot.choose, obs)
                    else:
                        action = self.bot.choose(obs)
                except Exception:  # a view the bot cannot read (a host may send anything): wait for the next
                    log.warning("the bot could not decide on the host's view", exc_info=True)
                    action = None
                if action is None:
                    continue
                if obs["version"] != last_sent:
                    tries = 0
                acted_on = last_sent = obs["version"]
                try:
                    await client.send_intent(action, version=obs["version"])
                    self.moves += 1
                except NotConnected:
                    acted_on = None
        finally:
            await client.close()
