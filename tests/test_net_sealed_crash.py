"""A sealed table on loopback survives a client's crash and restart without a false alarm, and a
spectator sees only the public (issue 16; design note, section 5).

The crash is the client's task cancelled (its link closes, everything in its memory is gone);
the restart is a new client with the same identity and the same secrets file: it reads the log
from its start, makes again exactly what it had sent (and sends none of it twice), and plays on.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from test_net_sealed import check_clean

import core
from net.identity import Identity
from net.sealing import SealedClient, SealedHost, SealedPeer


class Crashable(SealedPeer):
    """Sets ``crash_now`` once it has sent its first mask pass (``mid_deal``) or seen a few moves."""

    when = "mid_deal"
    crash_now: asyncio.Event

    def send(self, body: dict[str, Any]) -> None:
        super().send(body)
        if self.when == "mid_deal" and body.get("k") == "spass" and body["p"]["kind"] == "mask" \
                or self.when == "after_share" and body.get("k") == "sseed":
            type(self).crash_now.set()

    async def _move(self, author: int, body: dict[str, Any]) -> None:
        await super()._move(author, body)
        if self.when == "mid_round" and len(self.moves) >= 4:
            type(self).crash_now.set()


@pytest.mark.parametrize("when", ["mid_deal", "mid_round", "after_share"])
def test_a_client_that_crashes_and_restarts_raises_no_false_alarm(when: str, tmp_path: Path) -> None:
    """``after_share``: a Diez client crashes once it has opened its share of the round's public
    orders; restarted, it makes the same share again (it derives from the saved round secret)."""
    ident = Identity.generate()

    async def main(saved: Path) -> tuple[SealedHost, list[Any], SealedClient] | None:
        Crashable.crash_now = asyncio.Event()
        Crashable.when = when
        host = SealedHost(variant="diez" if when == "after_share" else "classic", seats=3, people=2)
        port = await host.start()
        steady = SealedClient()
        first = SealedClient(ident, peer_class=Crashable, save_path=saved)
        hosting = asyncio.ensure_future(host.run())
        playing = asyncio.ensure_future(steady.run("127.0.0.1", port))
        crashing = asyncio.ensure_future(first.run("127.0.0.1", port))
        crash = asyncio.ensure_future(Crashable.crash_now.wait())
        await asyncio.wait_for(asyncio.wait([crash, hosting], return_when=asyncio.FIRST_COMPLETED), 60)
        if not crash.done():  # a rare Diez round draws no token, so nobody opens a share: again
            crash.cancel()
            await asyncio.gather(playing, crashing, return_exceptions=True)
            await host.close()
            return None
        crashing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await crashing
        again = SealedClient(ident, save_path=saved)  # a fresh process: only the file survives
        try:
            got = await asyncio.wait_for(asyncio.gather(hosting, playing, again.run("127.0.0.1", port),
                                                        return_exceptions=True), 120)
        finally:
            await host.close()
        return host, list(got), again

    for attempt in range(6):
        got = asyncio.run(main(tmp_path / f"secrets{attempt}.bin"))
        if got is not None:
            break
    assert got is not None
    host, peers, again = got
    check_clean(host, peers, 1)
    assert again.peer is not None and again.peer.already > 0  # it had sent things before the crash
    # Nothing was logged twice by it: one announcement, one verdict.
    mine = [e for e in host.log if e["from"] == again.peer.pid]
    assert len({bytes(e["m"]) for e in mine}) == len(mine)


def test_a_spectator_follows_the_round_and_sees_only_the_public() -> None:
    async def main() -> tuple[SealedHost, list[Any]]:
        host = SealedHost(variant="classic", seats=3, people=2)
        port = await host.start()
        watcher = SealedClient(spectator=True)
        clients = [SealedClient(), SealedClient()]
        try:
            tasks = [c.run("127.0.0.1", port) for c in clients]
            got = await asyncio.wait_for(asyncio.gather(host.run(), *tasks, watcher.run("127.0.0.1", port),
                                                        return_exceptions=True), 120)
        finally:
            await host.close()
        return host, list(got)

    host, got = asyncio.run(main())
    check_clean(host, got, 1)
    spectator = got[-1]
    assert spectator.pid is None and spectator.seats == ()
    # Its audit ran too (every slot opened at the end), and in play it never knew a hidden face.
    assert len(spectator.audits) == 1
    start = spectator.start
    assert all(core.is_sealed(c) or c.id in start._slots.public for c in start.cards[start.deck_size:])

