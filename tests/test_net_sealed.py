"""The sealed deal on the wire (issue 16): whole networked matches on loopback, every audit verifying.

A :class:`net.sealing.SealedHost` seats bots of its own and bot clients
(:class:`net.sealing.SealedClient`) over real TCP; every peer runs its replica in lockstep over
the host's signed log, and at each round's end every peer audits the round (the cryptography
and the engine's replay) and signs its verdict.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import core
from net.sealing import SealedClient, SealedHost, SealedPeer

SEALABLE = [v for v in core.VARIANTS if core.variant_class(v).sealable]


def play(variant: str, seats: int, people: int, *, rounds: int = 1, host_seats: tuple[int, ...] = (),
         client_classes: dict[int, type[SealedPeer]] | None = None, host_class: type[SealedPeer] = SealedPeer,
         timeout: float = 120, **host_kw: Any) -> tuple[SealedHost, list[Any]]:
    """Run a sealed match; returns the host and each side's peer or the exception it ended with."""
    classes = client_classes or {}

    async def main() -> tuple[SealedHost, list[Any]]:
        host = SealedHost(variant=variant, seats=seats, people=people, rounds=rounds, host_seats=host_seats,
                          peer_class=host_class, **host_kw)
        port = await host.start()
        clients = [SealedClient(peer_class=classes.get(i + 1, SealedPeer)) for i in range(people)]
        try:
            got = await asyncio.wait_for(asyncio.gather(host.run(), *[c.run("127.0.0.1", port) for c in clients],
                                                        return_exceptions=True), timeout)
        finally:
            await host.close()
        return host, list(got)

    return asyncio.run(main())


def check_clean(host: SealedHost, peers: list[Any], rounds: int) -> None:
    for p in peers:
        assert isinstance(p, SealedPeer), p
        assert p.alarm is None
        # Every participant's verdict on every round, each one clean, as every peer read them.
        assert len(p.verdicts) == rounds * len(p.pids)
        assert all(v["ok"] and not v["false"] for v in p.verdicts)
        assert len(p.audits) == rounds and all(not a.false_claims for a in p.audits)
    # Every replica ended where the host's did, on everything public.
    pub = host.peer.game.public_observation()  # type: ignore[union-attr]
    for p in peers:
        assert p.game.public_observation() == pub
        assert p.moves == host.peer.moves  # type: ignore[union-attr]


def test_a_sealed_match_of_classic_over_loopback_audits_clean() -> None:
    host, peers = play("classic", 3, 2, rounds=2)
    check_clean(host, peers, 2)
    # The match went somewhere: moves were made, and each client held a hand it could see.
    assert len(host.peer.moves) > 3  # type: ignore[union-attr]


@pytest.mark.parametrize("variant", SEALABLE)
def test_every_sealable_variant_plays_a_sealed_round_over_loopback(variant: str) -> None:
    seats = max(2, core.variant_class(variant).min_players)
    host, peers = play(variant, seats, seats - 1)
    check_clean(host, peers, 1)
