"""A sealed host killed (SIGKILL) and started again with ``--resume`` goes on with the match exactly where
it was, and nobody raises an alarm (issue 16; ``net/sealing/resume.py``).

The host is a real process (``python -m net host --headless``, the sealed deal, on loopback), killed in
the middle of a round and in the middle of the next round's deal; the players are sealed clients on
real sockets, which connect again by themselves. Every round is played to its end and audited by every
peer, the scores of finished rounds are kept, and each player's own copy of the log verifies offline.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

import pytest

from net.identity import Identity
from net.sealing import SealedClient, SealedPeer
from net.sealing.transcript import audit_path
from net.testing import HostProcess
from net.transcript import VERIFIED


def common(tmp: Path, *extra: str) -> list[str]:
    return ["--bind", "127.0.0.1", "--no-mdns", "--save", str(tmp / "sealed.save"), *extra]


async def until(cond: Callable[[], Any], timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.005)


def mid_round(p: SealedPeer) -> bool:
    return getattr(p, "round", 0) == 0 and p.game is not None and len(getattr(p, "moves", [])) >= 5


def mid_deal(p: SealedPeer) -> bool:  # round 2's keys or passes: its deal is under way
    return getattr(p, "round", 0) == 1 and p.game is not None and p.game.phase == "over"


@pytest.mark.parametrize("when", [mid_round, mid_deal], ids=["mid_round", "mid_deal"])
def test_a_sealed_host_killed_and_resumed_goes_on_with_no_false_alarm(when: Callable[[SealedPeer], bool],
                                                                       tmp_path: Path) -> None:
    async def main() -> tuple[list[SealedPeer], list[SealedClient], HostProcess, HostProcess]:
        host = HostProcess("--port", "0", "--seats", "3", "--bots", "1", "--rounds", "2",
                           "--option", "target_score=100000", *common(tmp_path), sealed=True)
        again: HostProcess | None = None
        try:
            port = host.wait_port()
            clients = [SealedClient(Identity.generate(), name=f"P{i}", transcript_dir=tmp_path / f"p{i}")
                       for i in range(2)]
            game = asyncio.gather(*(c.run("127.0.0.1", port) for c in clients))
            await until(lambda: clients[0].peer is not None and when(clients[0].peer))
            before = list(clients[0].peer.game.scores) if clients[0].peer.game else []
            host.kill()
            assert (tmp_path / "sealed.save").exists()  # kept for --resume: the match was not over
            again = HostProcess("--resume", *common(tmp_path), sealed=True)
            assert again.wait_port() == port  # the saved port: where the clients connect again
            peers = await asyncio.wait_for(game, 120)
            assert again.finish(30) == 0, "\n".join(again.lines)
            assert not (tmp_path / "sealed.save").exists()  # the match is over: nothing to resume
            if when is mid_deal:  # round 1's score, finished before the crash, is kept
                assert len(before) == 3 and all(a >= b for a, b in zip(peers[0].game.scores, before))
            return peers, clients, host, again
        finally:
            for proc in (host, again):
                if proc is not None and proc.proc.poll() is None:
                    proc.kill()

    peers, clients, _host, again = asyncio.run(main())
    for p in peers:
        assert p.link_breaks >= 2  # lost, and back: the same peer went on (a third: the host closing at the end)
        assert p.alarm is None
        assert len(p.audits) == 2 and not any(a.false_claims for a in p.audits)
        assert {v["r"] for v in p.verdicts} == {0, 1} and all(v["ok"] for v in p.verdicts)
    assert peers[0].game is not None and peers[0].game.scores == peers[1].game.scores
    assert peers[0].names == peers[1].names == ["P0", "P1", "Bot 3"]  # seats and names kept
    assert any("resumed the saved sealed match" in line for line in again.lines)
    assert sum("every audit clean" in line for line in again.lines) == 2, again.lines
    for c in clients:  # each player's copy of the log, the crash in the middle of it, verifies offline
        assert c.transcript is not None
        result = audit_path(c.transcript.path)
        assert result.status == VERIFIED and result.rounds == 2, result.text


def test_resume_with_nothing_saved_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from uno_tui.cli import main

    assert main(["host", "--headless", "--resume", "--save", str(tmp_path / "none.save")]) == 2
    assert "no sealed table to resume" in capsys.readouterr().err


class Person(SealedPeer):
    """A seat played by a person (no bot of the peer's chooses for it): a task stands in for the person,
    moving through :meth:`move` whenever the seat is to decide, as the screen does."""

    auto = False

    async def run(self) -> None:
        async def person() -> None:
            while True:
                await asyncio.sleep(0.002)
                g = self.game
                if g is None or not self.settled or g.decision is None or g.decision.player not in self.seats:
                    continue
                choice = self.choose(g.decision.player)
                if choice is not None and getattr(self, "_moved", None) != g.version:
                    self.move(g.decision.player, choice)

        hands = asyncio.ensure_future(person())
        try:
            await super().run()
        finally:
            hands.cancel()


def test_a_person_s_moves_in_the_log_do_not_swallow_their_next_move_after_a_restart(tmp_path: Path) -> None:
    """A restarted peer makes again, and does not send twice, what its walk makes (keys, passes, shares);
    a person's moves are not made again by the walk, so they are never counted against what it sent
    before: its first move after the restart is sent (it was swallowed, and the table waited for ever)."""
    from net.sealing import SealedHost

    ident = Identity.generate()
    saved = tmp_path / "secrets.bin"

    async def main() -> list[Any]:
        host = SealedHost(variant="classic", seats=2, people=1)
        port = await host.start()
        first = SealedClient(ident, peer_class=Person, save_path=saved)
        hosting = asyncio.ensure_future(host.run())
        crashing = asyncio.ensure_future(first.run("127.0.0.1", port))
        await until(lambda: first.peer is not None and len(getattr(first.peer, "moves", [])) >= 6
                    and any(p == 1 for p, _a in first.peer.moves))
        crashing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await crashing
        again = SealedClient(ident, peer_class=Person, save_path=saved)
        try:
            return list(await asyncio.wait_for(asyncio.gather(hosting, again.run("127.0.0.1", port)), 120))
        finally:
            await host.close()

    peers = asyncio.run(main())
    assert all(p.alarm is None and len(p.audits) == 1 for p in peers)


def test_a_peer_back_without_its_round_secrets_says_so_and_accuses_nobody(tmp_path: Path) -> None:
    """A player's client back after a crash whose secrets file is gone cannot make its messages again:
    it stops with :class:`SecretsLost` in words, and nothing in the log accuses anyone."""
    from net.sealing import SealedHost
    from net.sealing.restart import SecretsLost

    ident = Identity.generate()

    async def main() -> tuple[SealedHost, BaseException | None]:
        host = SealedHost(variant="classic", seats=2, people=1, grace=60)
        port = await host.start()
        first = SealedClient(ident, save_path=tmp_path / "secrets.bin")
        hosting = asyncio.ensure_future(host.run())
        crashing = asyncio.ensure_future(first.run("127.0.0.1", port))
        await until(lambda: first.peer is not None and len(getattr(first.peer, "moves", [])) >= 2)
        crashing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await crashing
        (tmp_path / "secrets.bin").unlink()  # the file is lost with the crash
        try:
            await asyncio.wait_for(SealedClient(ident, save_path=tmp_path / "secrets.bin").run("127.0.0.1", port), 60)
            return host, None
        except SecretsLost as e:
            return host, e
        finally:
            hosting.cancel()
            await host.close()

    host, err = asyncio.run(main())
    assert isinstance(err, SecretsLost) and "secrets were not kept" in str(err)
    import msgpack

    kinds = [msgpack.unpackb(e["m"], raw=False).get("k") for e in host.log]
    assert "salarm" not in kinds and "saccuse" not in kinds
