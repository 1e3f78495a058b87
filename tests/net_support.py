"""Helpers for the fair-deal tests over loopback: honest bot players, and what they found."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from net import BotClient, Client
from net.fair import unpack
from net.host import Host
from net.identity import Identity


def bots(port: int, n: int, tmp: Path | None = None, cls: type[BotClient] = BotClient, **kw: Any) -> list[BotClient]:
    """``n`` honest bot players (each with its own identity; transcripts under ``tmp`` if given)."""
    out = []
    for i in range(n):
        extra = dict(kw)
        if tmp is not None:
            extra["transcript_dir"] = str(tmp / f"p{i}")
        out.append(cls(("127.0.0.1", port), f"P{i}", seed=i, identity=Identity.generate(), **extra))
    return out


GAME_BOUND = 120.0
"""Seconds a whole game over loopback may take before a test calls it stuck. It only bounds a test
that has gone wrong: a passing one waits for the game's end, never for the clock, and a game of
bots runs for a few seconds with a long tail when the machine's other core is busy."""


async def play(players: list[BotClient], timeout: float = GAME_BOUND) -> list[int]:
    return await asyncio.wait_for(asyncio.gather(*(b.run() for b in players)), timeout)


async def next_message(client: Client, kind: str, pred: Any = None, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of ``kind`` (and ``pred``) that ``client`` hears, the ones before it taken
    off its queue; fails after ``timeout`` s, a bound for a test gone wrong."""
    async with asyncio.timeout(timeout):
        while True:
            m = await client.messages.get()
            if m["type"] == kind and (pred is None or pred(m)):
                return m


def failures(client: Client) -> set[str]:
    """The codes of every failed check and audit of ``client``."""
    codes = {a["code"] for a in client.audits if not a["ok"]}
    if client.fairness is not None:
        codes.add(client.fairness["code"])
    return codes


def verified(client: Client, rounds: int | None = None) -> bool:
    """No check failed and every audit (``rounds`` of them, if given) verified."""
    oks = [a["ok"] for a in client.audits]
    return client.fairness is None and all(oks) and (rounds is None or len(oks) == rounds)


def entries(host: Host, kind: str | None = None) -> list[dict[str, Any]]:
    """The host's log entries (of ``kind``), decoded."""
    assert host.dealer is not None
    out = [unpack(e) for e, _sig in host.dealer.log.entries]
    return [d for d in out if kind is None or d["k"] == kind]


def listen(client: Client) -> list[dict[str, Any]]:
    """Every message the client queues from now on (its ``on_message``), kept in a list."""
    got: list[dict[str, Any]] = []
    client.on_message = got.append
    return got
