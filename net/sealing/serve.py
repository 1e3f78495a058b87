"""``uno-tui host --headless --sealed`` and ``uno-tui bot --sealed``: a sealed table from the command line.

A headless sealed host seats its bots and waits for bot clients (the screen client does not
speak the sealed table yet); it prints each round's verdicts and the scores, and exits 0 when
every round audited clean, 1 on an alarm (printed with its culprit) or a round whose verdicts
name a false claim.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, TextIO

import core

from ..address import DEFAULT_PORT, parse_address, split_fingerprint
from ..errors import NetError
from ..identity import fingerprint
from .lockstep import SealedPeer
from .signed import Alarm
from .relay import SealedClient, SealedHost


def check_table(variant: str, seats: int, bots: int) -> str | None:
    """What is wrong with these settings for a sealed table (None: nothing)."""
    cls = core.variant_class(variant)
    if not cls.sealable:
        return f"{variant} cannot be played sealed yet (sealable variants: {', '.join(sealable_variants())})"
    if not cls.min_players <= seats <= cls.max_players:
        return f"{variant} is for {cls.min_players} to {cls.max_players} players"
    if not 0 <= bots <= seats:
        return "--bots must be between 0 and the number of seats"
    return None


def table_settings(variant: str, seats: int, bots: int, options: dict[str, Any] | None,
                   host_plays: bool = False) -> dict[str, Any] | None:
    """The variant's checked options for a sealed table; None (with the reason printed, for an exit
    status of 2) when a setting is wrong. ``host_plays``: the host's person takes a seat."""
    try:
        problem = check_table(variant, seats, bots)
        if problem is None and host_plays and bots >= seats:
            problem = "the host plays a seat: --bots must leave it one"
        if problem is None:
            return core.variant_class(variant).check_options(dict(options or {}))
    except ValueError as e:
        problem = str(e)
    print(f"uno-tui host: {problem}", file=sys.stderr)
    return None


def sealable_variants() -> list[str]:
    return [v for v in sorted(core.VARIANTS) if core.variant_class(v).sealable]


def report(peer: SealedPeer, out: TextIO) -> int:
    """Print each round's verdicts and the scores; the exit status."""
    status = 0
    for r in sorted({v["r"] for v in peer.verdicts}):
        vs = [v for v in peer.verdicts if v["r"] == r]
        bad = [v for v in vs if not v["ok"]]
        print(f"round {r + 1}: {len(vs)} verdicts, " + ("every audit clean" if not bad else
              "false claims named: " + "; ".join(f"seat {s}: {w}" for v in bad for s, w in v["false"])), file=out)
        status |= 1 if bad else 0
    if peer.game is not None:
        print("scores: " + ", ".join(f"{n} {s}" for n, s in zip(peer.game.names, peer.game.scores)), file=out)
    return status


def run_sealed_host(*, variant: str, seats: int, bots: int, rounds: int | None = None,
                    options: dict[str, Any] | None = None, bot_level: str = "normal", bind: str = "0.0.0.0",
                    port: int | None = None, out: TextIO | None = None, **_ignored: Any) -> int:
    out = out or sys.stdout
    options = table_settings(variant, seats, bots, options)
    if options is None:
        return 2
    host = SealedHost(variant=variant, seats=seats, people=seats - bots, options=options or None,
                      rounds=rounds, bot_level=bot_level)

    async def serve() -> int:
        try:
            got = await host.start(bind, DEFAULT_PORT if port is None else port)
        except OSError as e:
            print(f"uno-tui host: cannot listen on {bind}:{port}: {e}", file=sys.stderr)
            return 1
        fp = fingerprint(host.identity.public)[:16]
        print(f"sealed table listening on {bind}:{got}; bots join with: uno-tui bot --sealed uno://HOST:{got}#{fp}",
              file=out, flush=True)
        try:
            peer = await host.run()
        except Alarm as a:
            print(f"alarm: {a}", file=out)
            return 1
        finally:
            await host.close()
        return report(peer, out)

    try:
        return asyncio.run(serve())
    except KeyboardInterrupt:
        return 130


def run_sealed_bot(address: str, *, level: str | None = None, name: str = "Bot", out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        where, port = parse_address(address)
        _, fp = split_fingerprint(address)
    except ValueError as e:
        print(f"uno-tui bot: {e}", file=sys.stderr)
        return 2
    client = SealedClient(bot_level=level, name=name)

    async def play() -> int:
        try:
            peer = await client.run(where, port, fp)
        except Alarm as a:
            print(f"uno-tui bot: alarm: {a}", file=out)
            return 1
        except (OSError, NetError) as e:
            print(f"uno-tui bot: cannot join {address}: {e}", file=sys.stderr)
            return 1
        return report(peer, out)

    try:
        return asyncio.run(play())
    except KeyboardInterrupt:
        return 130
