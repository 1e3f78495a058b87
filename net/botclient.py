"""A bot that plays through a :class:`Client`, as a person's screen would."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from core import Event
from core.bots import make_bot

from .thinking import bot_settings

from .client import Client, NotConnected

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
                 think: float | None = None, **client_options: Any) -> None:
        settings = bot_settings(think) if level == "hard" else {}
        self.bot = make_bot(level, seed=seed if seed is not None else name, **settings)
        self.delay = delay
        self.client = Client(address, name, password=password, **client_options)
        self.moves = 0
        self.rejected = 0
        self.links: list[str] = []
        """The link states seen (``lost``, ``restored``, ``gave_up``), in order."""

    async def run(self) -> int:
        from .client import Refused

        client = self.client
        try:
            await client.connect()
            await client.ready()
        except (Refused, OSError, asyncio.TimeoutError) as e:
            log.error("could not take a seat at %s: %s", client.address, e)
            return 1
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
                    self.bot.observe(obs_seat(client), [Event.from_dict(e) for e in msg.get("events", ())])
                if kind == "end":
                    return 0
                if kind == "link" and msg["state"] == "gave_up":
                    return 1
                if kind == "link" and msg["state"] == "restored":
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
                if self.bot.level == "hard":  # a search takes a while: keep the link answering meanwhile
                    action = await asyncio.to_thread(self.bot.choose, obs)
                else:
                    action = self.bot.choose(obs)
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
