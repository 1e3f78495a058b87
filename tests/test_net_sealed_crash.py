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
        if self.when == "mid_deal" and body.get("k") == "spass" and body["p"]["kind"] == "mask":
            type(self).crash_now.set()

    async def _move(self, author: int, body: dict[str, Any]) -> None:
        await super()._move(author, body)
        if self.when == "mid_round" and len(self.moves) >= 4:
            type(self).crash_now.set()


@pytest.mark.parametrize("when", ["mid_deal", "mid_round"])
def test_a_client_that_crashes_and_restarts_raises_no_false_alarm(when: str, tmp_path: Path) -> None:
    ident = Identity.generate()
    saved = tmp_path / "secrets.bin"

    async def main() -> tuple[SealedHost, list[Any], SealedClient]:
        Crashable.crash_now = asyncio.Event()
        Crashable.when = when
        host = SealedHost(variant="classic", seats=3, people=2)
        port = await host.start()
        steady = SealedClient()
        first = SealedClient(ident, peer_class=Crashable, save_path=saved)
        hosting = asyncio.ensure_future(host.run())
        playing = asyncio.ensure_future(steady.run("127.0.0.1", port))
        crashing = asyncio.ensure_future(first.run("127.0.0.1", port))
        await asyncio.wait_for(Crashable.crash_now.wait(), 60)
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

    host, peers, again = asyncio.run(main())
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


def test_the_sealed_host_and_bot_commands_play_a_round(capsys: pytest.CaptureFixture[str]) -> None:
    """``host --headless --sealed`` and ``bot --sealed`` as functions (the commands call them)."""
    import threading
    import socket

    from net.sealing.serve import run_sealed_bot, run_sealed_host

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    got: dict[str, int] = {}
    t = threading.Thread(target=lambda: got.update(host=run_sealed_host(
        variant="classic", seats=3, bots=1, rounds=1, bind="127.0.0.1", port=port)))
    t.start()
    try:
        bots = [threading.Thread(target=lambda i=i: got.update({f"bot{i}": _retrying_bot(port)})) for i in range(2)]
        for b in bots:
            b.start()
        for b in bots:
            b.join(120)
    finally:
        t.join(120)
    assert got == {"host": 0, "bot0": 0, "bot1": 0}
    out = capsys.readouterr().out
    assert out.count("round 1: 3 verdicts, every audit clean") == 3


def _retrying_bot(port: int) -> int:
    import time

    from net.sealing.serve import run_sealed_bot

    for _ in range(200):  # the host thread may not be listening yet
        try:
            socket_ok = __import__("socket").create_connection(("127.0.0.1", port), timeout=1)
            socket_ok.close()
            break
        except OSError:
            time.sleep(0.05)
    return run_sealed_bot(f"127.0.0.1:{port}")


@pytest.mark.parametrize("argv,words", [
    (["host", "--sealed", "--seats", "3"], "--sealed needs --headless"),
    *[(["host", "--headless", "--sealed", "--variant", v, "--seats", "3"], "cannot be played sealed")
      for v in sorted(core.VARIANTS) if not core.variant_class(v).sealable][:1],
    (["host", "--headless", "--sealed", "--seats", "3", "--bots", "5"], "--bots must be"),
])
def test_the_sealed_host_command_refuses_what_it_cannot_do(argv: list[str], words: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from net.commands import main

    assert main(argv) == 2
    assert words in capsys.readouterr().err
