"""The fair deal over real loopback sockets: honest games verify, cheats are caught, links are private.

The dishonest hosts here are test doubles: subclasses of :class:`net.dealer.Dealer`
that override one of its documented steps (a host names its dealer class in
``dealer_class``), or of :class:`net.host.Host` that bend the host's own engine.
Each is caught by the honest clients, at delivery or at the audit, with the
reason it deserves.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

import pytest

from core import Action
from core.bots import make_bot
from net import PROTOCOL_VERSION, BotClient, Client, Refused
from net import secure
from net.client import HostKeyChanged
from net.commands import main as net_main
from net.dealer import Dealer
from net.fair import EpochSecret, Ledger, TableLog, Unfair, pack
from net.host import Host
from net.identity import Identity, KnownHosts
from net.testing import RawPeer, start_host
from net.transcript import audit_file, read_records
from net_support import bots, failures, play


# -- honest tables -----------------------------------------------------------------------------
@pytest.mark.parametrize("variant, seats", [("classic", 3), ("nomercy", 3), ("wildrawz", 3)])
async def test_honest_games_verify_at_the_table_and_offline(variant: str, seats: int, tmp_path: Path) -> None:
    host = await start_host(variant=variant, seats=seats, bots=1, rounds=2, transcript_dir=str(tmp_path / "host"))
    verdicts: list[dict[str, Any]] = []
    try:
        players = bots(host.port, seats - 1, tmp_path)
        players[0].client.on_message = lambda m: verdicts.append(m) if m["type"] == "verdict" else None
        assert await play(players) == [0] * (seats - 1)
        assert host.audits and all(a["ok"] for a in host.audits), host.audits
        for b in players:
            assert b.client.fairness is None
            assert [a["ok"] for a in b.client.audits] == [True, True], b.client.audits
        # The table says so: each player's verdict reaches the others through the signed log.
        assert {(v["seat"], v["round"], v["ok"]) for v in verdicts} >= {(players[1].client.seat, 0, True)}
        # Offline, the same verdict from every transcript (the host's included, sealed as it closes).
        paths = [b.client.transcript_path for b in players] + [Path(host.transcript_path or "")]
        await host.close()
        for path in paths:
            ok, text = audit_file(path)
            assert ok, text
            assert "2 rounds" in text
        assert net_main(["audit", str(paths[0])]) == 0
    finally:
        await host.close()


async def test_a_players_transcript_is_on_disk_while_the_game_goes_on(tmp_path: Path) -> None:
    """Records are written a frame's worth at a time, on the loop's next turn: never held back for long."""
    host = await start_host(seats=2, bots=1, rounds=1, bot_delay=0.01)
    try:
        player = bots(host.port, 1, tmp_path)[0]
        task = asyncio.ensure_future(player.run())
        for _ in range(500):
            if host.game is not None and host.game.version >= 10:
                break
            await asyncio.sleep(0.01)
        ledger, path = player.client.ledger, player.client.transcript_path
        assert ledger is not None and path is not None
        taken = len(ledger.entries)
        await asyncio.sleep(0)  # the loop's next turn: what was taken so far is written
        logged = [r["e"] for r in read_records(path.read_bytes()) if r["t"] == "log"]
        assert len(logged) >= taken >= 10
        assert logged == [e for e, _sig in ledger.entries[:len(logged)]]
        assert await asyncio.wait_for(task, 20) == 0
    finally:
        await host.close()


async def test_any_changed_byte_fails_the_offline_audit(tmp_path: Path) -> None:
    host = await start_host(seats=2, bots=1, rounds=1)
    try:
        players = bots(host.port, 1, tmp_path)
        assert await play(players) == [0]
    finally:
        await host.close()
    path = players[0].client.transcript_path
    assert path is not None
    data = path.read_bytes()
    assert audit_file(path)[0]
    rng = random.Random(1)
    spots = sorted({0, 5, len(data) - 1, *(rng.randrange(len(data)) for _ in range(60))})
    bad = tmp_path / "bad.unotx"
    for pos in spots:
        changed = bytearray(data)
        changed[pos] ^= 1 << rng.randrange(8)
        bad.write_bytes(bytes(changed))
        ok, text = audit_file(bad)
        assert not ok, f"flipping byte {pos} went unnoticed"
    bad.write_bytes(data[:-1])
    assert not audit_file(bad)[0]
    assert net_main(["audit", str(bad)]) == 3  # cut short: incomplete (tests/test_transcript_audit.py)


# -- dishonest hosts ---------------------------------------------------------------------------
class SwappingDealer(Dealer):
    """Delivers a Wild Draw Four in place of the first card it deals to anyone."""

    swapped: list[int] = []

    def cards_for(self, seat: int, cards: list[list[Any]]) -> list[list[Any]]:
        if not self.swapped and cards:
            self.swapped.append(seat)
            e, a, k, slot, salt, cid = cards[0]
            game = self.host.game
            wild = next(c.id for c in game.cards if c.rank == "W+4") if game else 0
            cards = [[e, a, k, slot, salt, wild if cid != wild else wild + 1]] + cards[1:]
        return cards


async def test_a_host_that_swaps_a_delivered_card_is_caught_at_delivery() -> None:
    SwappingDealer.swapped = swapped = []
    host = await start_host(dealer_class=SwappingDealer, seats=3, bots=1, rounds=1)
    try:
        players = bots(host.port, 2)
        await play(players)
        victim = next(b for b in players if b.client.seat == swapped[0])
        assert victim.client.fairness is not None and victim.client.fairness["code"] == "commitment"
        assert "does not match the commitment" in victim.client.fairness["reason"]
        assert victim.client.audits and not victim.client.audits[0]["ok"]
    finally:
        await host.close()


class ExtraWildDealer(Dealer):
    """Commits the first deal to a deck with a second Wild Draw Four in place of a 5."""

    def make_secret(self, e: int, a: int, items: Any) -> EpochSecret:
        if e != 0:
            return super().make_secret(e, a, items)
        w4 = next(c for c in items if c.rank == "W+4")
        loser = next(c for c in items if c.rank == "5")
        sigma = [c.id for c in items if c.id != loser.id] + [w4.id]
        random.Random(e).shuffle(sigma)
        return EpochSecret(self.game_id, e, a, items, sigma=sigma)


async def test_a_host_dealing_an_extra_wild_draw_four_is_caught() -> None:
    host = await start_host(dealer_class=ExtraWildDealer, seats=3, bots=1, rounds=1)
    try:
        players = bots(host.port, 2)
        await play(players)
        for b in players:
            assert "deck" in failures(b.client), (b.client.fairness, b.client.audits)
        assert any("W+4" in a["reason"] and "extra" in a["reason"] for b in players for a in b.client.audits
                   if not a["ok"]) or any(b.client.fairness and "twice" in b.client.fairness["reason"]
                                          for b in players)
        assert not host.audits[0]["ok"] and host.audits[0]["code"] == "deck"
    finally:
        await host.close()


class ReorderingDealer(Dealer):
    """Deals the first epoch in its favourite order, not the one the seeds agreed."""

    def order_for(self, sec: EpochSecret) -> list[Any]:
        if sec.e == 0:
            return sorted(sec.order, key=lambda cid: -cid)
        return sec.order


async def test_a_host_that_reorders_the_deck_after_the_seeds_is_caught_at_the_audit() -> None:
    host = await start_host(dealer_class=ReorderingDealer, seats=3, bots=1, rounds=1)
    try:
        players = bots(host.port, 2)
        await play(players)
        for b in players:
            assert failures(b.client) & {"replay", "order", "ruling"}, (b.client.fairness, b.client.audits)
    finally:
        await host.close()


class ChallengeBot:
    """Plays a Wild Draw Four whenever it may and challenges every one played on it."""

    def __init__(self, seed: int) -> None:
        self.inner = make_bot("normal", seed=seed)

    def choose(self, obs: dict[str, Any]) -> Action | None:
        legal = [Action.from_dict(a) for a in obs.get("legal", [])]
        hand = {c["id"]: c for c in obs.get("hand", [])}
        for a in legal:
            if a.kind == "challenge":
                return a
        for a in legal:
            if a.kind == "play" and hand.get(a.card, {}).get("rank") == "W+4":
                return a
        return self.inner.choose(obs)


class MisrulingHost(Host):
    """Its engine flips the verdict of every Wild Draw Four challenge."""

    def _try_apply(self, p: int, action: Action, retry: Any) -> Any:
        game = self.game
        if action.kind == "challenge" and game is not None and game.pending and "bluff" in game.pending:
            game.pending["bluff"] = not game.pending["bluff"]
        return super()._try_apply(p, action, retry)


async def test_a_misruled_challenge_is_caught_by_the_challenger_and_at_the_audit() -> None:
    host = await start_host(host_class=MisrulingHost, seats=2, bots=0, rounds=6,
                            options={"target_score": 100000})
    try:
        players = bots(host.port, 2)
        for i, b in enumerate(players):
            b.bot = ChallengeBot(i)  # type: ignore[assignment]
        task = asyncio.ensure_future(play(players, 40))
        async with asyncio.timeout(40):
            while not task.done() and not any(b.client.fairness for b in players):
                await asyncio.sleep(0.02)
            while not task.done() and not all(any(not a["ok"] for a in b.client.audits) for b in players):
                await asyncio.sleep(0.02)
        challenges = [a for r in host.record.rounds for (_s, a, _x) in r["moves"] if a["kind"] == "challenge"]
        assert challenges, "no challenge happened"
        for b in players:
            assert "ruling" in failures(b.client), (b.client.fairness, b.client.audits)
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    finally:
        await host.close()


class EquivocatingDealer(Dealer):
    """Shows the last seated player another deck root for the first epoch than everyone else."""

    def publish_commit(self, sec: EpochSecret, parts: list[int]) -> None:
        fields = dict(e=sec.e, a=sec.a, n=sec.n, c=sec.commits, root=sec.root, parts=parts)
        if (sec.e, sec.a) != (0, 0):
            super().publish_commit(sec, parts)
            return
        other = EpochSecret(self.game_id, sec.e, sec.a, [], sigma=list(sec.sigma), notations=sec.notation)
        lie = pack({"i": len(self.log), "prev": self.log.head, "k": "commit",
                    **{**fields, "c": other.commits, "root": other.root}})
        lie_sig = self.identity.sign(b"uno-tui/log/v2\0", lie)
        e, sig = self.log.append("commit", **fields)
        victim = max(p for p in parts if p >= 0)
        for peer in self.host.peers:
            if peer.role is not None:
                peer.send({"type": "log", "e": lie if peer.seat == victim else e,
                           "sig": lie_sig if peer.seat == victim else sig})
        for f in self.listeners:
            f(e, sig)

    def answer_fault(self, kind: str, seat: int, d: dict[str, Any]) -> str | None:
        return None  # takes the victim's answers to the deck it was shown...

    def check_signed(self, peer: Any, m: bytes, sig: bytes, d: dict[str, Any]) -> tuple[str, str] | None:
        failure = super().check_signed(peer, m, sig, d)
        return None if failure is not None and failure[0] == "head" else failure  # ...quoting the lie


async def test_a_host_showing_different_commitments_to_different_players_is_caught() -> None:
    host = await start_host(dealer_class=EquivocatingDealer, seats=3, bots=1, rounds=1, fair_timeout=0.5)
    try:
        players = bots(host.port, 2)
        await play(players, 30)
        codes = [failures(b.client) for b in players]
        assert all(c & {"equivocation", "chain"} for c in codes), codes
        assert any("equivocation" in c for c in codes), codes
    finally:
        await host.close()


# -- dishonest clients -------------------------------------------------------------------------
async def test_forged_signatures_and_replays_are_refused() -> None:
    host = await start_host(seats=2, bots=0, fair_timeout=1.0)
    try:
        a = Client(("127.0.0.1", host.port), "Ann", identity=Identity.generate())
        b = Client(("127.0.0.1", host.port), "Bob", identity=Identity.generate())
        for c in (a, b):
            await c.connect()
            await c.ready()
        async with asyncio.timeout(5):
            while host.phase != "playing" or a.observation is None or b.observation is None:
                await asyncio.sleep(0.01)
        game = host.game
        assert game is not None
        cur, other = (a, b) if a.seat == game.current else (b, a)
        # Bob signs an intent for Ann's seat with his own key: impersonation, refused.
        m, sig = other._send_signed("intent", seq=90, v=game.version, act={"kind": "draw"})
        from net.fair import peer_message

        forged_m, forged_sig = peer_message(other.identity, "intent", host.dealer.game_id, cur.seat, 2**52, bytes(32),
                                            seq=91, v=game.version, act={"kind": "draw"})
        other._write({"type": "signed", "m": forged_m, "sig": forged_sig})
        # A message claiming to be the current player's, signed by a made-up key.
        stranger = Identity.generate()
        fake_m, fake_sig = peer_message(stranger, "intent", host.dealer.game_id, other.seat, 2**52 + 1, bytes(32),
                                        seq=92, v=game.version, act={"kind": "draw"})
        other._write({"type": "signed", "m": fake_m, "sig": fake_sig})
        codes = []
        async with asyncio.timeout(5):
            while len(codes) < 2:
                msg = await other.messages.get()
                if msg["type"] == "reject" and msg["seq"] in (91, 92):
                    codes.append(msg["code"])
        assert codes == ["impersonation", "signature"]
        assert game.current == cur.seat
        # The current player's move goes through; sent again byte for byte, it is refused as a replay.
        v = game.version
        await cur.send_intent(Action("draw"))
        async with asyncio.timeout(5):
            while game.version == v:
                await asyncio.sleep(0.01)
        last = [r for r in (host.dealer.log.entries)][-1]
        step = __import__("net.fair", fromlist=["unpack"]).unpack(last[0])
        replayed = {"type": "signed", "m": step["in"][0], "sig": step["in"][1]}
        v = game.version
        cur._write(replayed)
        async with asyncio.timeout(5):
            while True:
                msg = await cur.messages.get()
                if msg["type"] == "reject":
                    break
        assert msg["code"] == "replay" and game.version == v
        # A raw connection cannot claim Ann's key without her private key.
        raw = await RawPeer.open(host.port)
        hs = secure.ClientHandshake(Identity.generate(), PROTOCOL_VERSION)
        hs.hs1_msg["id"] = cur.identity.public
        hs.hs1 = pack(hs.hs1_msg)
        await raw.send_bytes(len(hs.hs1).to_bytes(4, "big") + hs.hs1)
        reply = await raw.recv()
        _key, channel, _body, auth = hs.finish(reply)
        await raw.send_bytes((len(auth) + secure.OVERHEAD).to_bytes(4, "big") + channel.seal(auth))
        refusal = await raw.recv()
        assert refusal["type"] == "refuse" and refusal["code"] == "handshake"
        raw.close()
        for c in (a, b):
            await c.close()
    finally:
        await host.close()


def test_the_sealed_link_refuses_replays_and_reordering() -> None:
    k1, k2 = bytes(range(32)), bytes(range(1, 33))
    tx, rx = secure.Channel(k1, k2), secure.Channel(k2, k1)
    first, second = tx.seal(b"one"), tx.seal(b"two")
    with pytest.raises(secure.ChannelError, match="out-of-order"):
        rx.open(second)
    assert rx.open(first) == b"one"
    with pytest.raises(secure.ChannelError, match="replayed"):
        rx.open(first)
    tampered = bytearray(second)
    tampered[-1] ^= 1
    with pytest.raises(secure.ChannelError):
        rx.open(bytes(tampered))
    assert rx.open(second) == b"two"


class Withholder(BotClient):
    """Never reveals its seed."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        client = self.client
        original = client._fair_send

        def send(kind: str, **fields: Any) -> None:
            if kind != "reveal":
                original(kind, **fields)

        client._fair_send = send  # type: ignore[method-assign]


async def test_a_player_withholding_reveals_is_struck_then_benched_and_the_game_still_verifies() -> None:
    host = await start_host(seats=3, bots=0, rounds=1, fair_timeout=0.3)
    seen: list[tuple[str, dict[str, Any]]] = []
    host.listeners.append(lambda k, d: seen.append((k, d)) if k in ("strike", "bench") else None)
    try:
        honest = bots(host.port, 2)
        cheat = Withholder(("127.0.0.1", host.port), "Sly", seed=9, identity=Identity.generate())
        assert await play(honest + [cheat], 30) == [0, 0, 0]
        seat = cheat.client.seat
        assert [(k, d["seat"], d.get("strikes")) for k, d in seen] == [
            ("strike", seat, 1), ("strike", seat, 2), ("bench", seat, None)]
        assert host.seats[seat].benched and host.seats[seat].bot_plays
        for b in honest:
            assert b.client.fairness is None and all(a["ok"] for a in b.client.audits), b.client.audits
    finally:
        await host.close()


# -- privacy -----------------------------------------------------------------------------------
class Tap:
    """A loopback TCP proxy that keeps every byte it forwards, both ways."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.data = bytearray()
        self.server: asyncio.AbstractServer | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._conn, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _conn(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        ur, uw = await asyncio.open_connection("127.0.0.1", self.target)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    self.data += data
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(Exception):
                dst.close()

        await asyncio.gather(pipe(r, uw), pipe(ur, w))

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


async def test_a_capture_of_a_whole_game_holds_no_card_and_no_hand() -> None:
    host = await start_host(seats=3, bots=1, rounds=1, password="hunter2")
    tap = Tap(host.port)
    await tap.start()
    try:
        players = [BotClient(("127.0.0.1", tap.port), name, seed=i, password="hunter2",
                             identity=Identity.generate()) for i, name in enumerate(("Alice", "Bertrand"))]
        assert await play(players) == [0, 0]
        assert all(a["ok"] for b in players for a in b.client.audits)
        wire = bytes(tap.data)
        assert len(wire) > 20_000
        for secret in (b"\xa4rank", b"\xa5color", b"\xa4hand", b"\xa5hands", b"yellow", b"\xa3W+4",
                       b"Alice", b"Bertrand", b"hunter2", b"\xa5notes"):
            assert secret not in wire, secret
    finally:
        tap.close()
        await host.close()


async def test_a_wrong_password_is_refused_and_learns_nothing() -> None:
    host = await start_host(seats=3, bots=1, password="s3cret", name="Secret Table", auto_start=False)
    try:
        with pytest.raises(Refused) as info:
            await Client(("127.0.0.1", host.port), "X", password="wrong", identity=Identity.generate()).connect()
        assert info.value.code == "password"
        with pytest.raises(Refused) as info:
            await Client(("127.0.0.1", host.port), "X", identity=Identity.generate()).connect()
        assert info.value.code == "password"
        # What a wrong guess sees on the wire: the host's public handshake, then a refusal.
        raw = await RawPeer.open(host.port)
        await raw.handshake(password="wrong")
        await raw.send({"type": "hello", "v": PROTOCOL_VERSION, "name": "guess"})
        got = await raw.messages_until_closed()
        assert [m["type"] for m in got] == ["refuse"] and got[0]["code"] == "password"
        assert b"Secret" not in pack(got) and host.seats[0].kind == "open"
        ok = Client(("127.0.0.1", host.port), "Y", password="s3cret", identity=Identity.generate())
        assert (await ok.connect())["type"] == "welcome"
        await ok.close()
    finally:
        await host.close()


# -- identity ----------------------------------------------------------------------------------
async def test_the_host_fingerprint_in_the_address_and_known_hosts() -> None:
    host = await start_host(seats=2, bots=1, auto_start=False)
    try:
        address = host.address("127.0.0.1")
        assert address.startswith("uno://127.0.0.1:") and address.endswith("#" + host.fingerprint[:16])
        c = Client(address, "Ann", identity=Identity.generate())
        welcome = await c.connect()
        assert welcome["fp"] == host.fingerprint and c.lobby is None or True
        lobby = await asyncio.wait_for(c.messages.get(), 3)
        assert lobby["type"] == "lobby" and lobby["fp"] == host.fingerprint[:16]
        assert lobby["seats"][0]["fp"] == c.identity.short
        await c.close()
        wrong = "0" * 16 if not host.fingerprint.startswith("0" * 16) else "1" * 16
        with pytest.raises(Refused) as info:
            await Client(f"uno://127.0.0.1:{host.port}#{wrong}", "Eve", identity=Identity.generate()).connect()
        assert info.value.code == "fingerprint"
        # known_hosts remembered the key; a different key at the same address is refused loudly...
        KnownHosts().remember(f"127.0.0.1:{host.port}", Identity.generate().public)
        with pytest.raises(HostKeyChanged) as changed:
            await Client(("127.0.0.1", host.port), "Ann", identity=Identity.generate()).connect()
        assert "HAS CHANGED" in changed.value.reason
        # ...unless the address names the new key: then a loud warning, and it is remembered.
        d = Client(address, "Ann", identity=Identity.generate())
        await d.connect()
        warning = await asyncio.wait_for(d.messages.get(), 3)
        assert warning["type"] == "security" and "changed" in warning["reason"]
        assert KnownHosts().get(f"127.0.0.1:{host.port}") == host.identity.public
        await d.close()
    finally:
        await host.close()


def test_a_client_checks_the_log_signatures_off_the_move_path_but_before_its_audit() -> None:
    host = Identity.generate()
    log = TableLog(host)
    log.append("match", g=b"g" * 16, variant="classic", names=["A", "B"], options={}, keys=[None, None],
               host=host.public)
    log.append("round", r=0)
    log.append("note")
    (e, sig) = log.entries[-1]
    forged = bytes([sig[0] ^ 1]) + sig[1:]
    # Checked at once, a bad signature stops the entry.
    strict = Ledger(host.public)
    for entry in log.entries[:-1]:
        strict.add_entry(*entry)
    with pytest.raises(Unfair, match="signature"):
        strict.add_entry(e, forged)
    # At the table the entry is taken (the sealed link vouches for where it came from) and its
    # signature waits for a quiet moment: the failure is found then, and again by every later check.
    table = Ledger(host.public, seat=0, defer_signatures=True)
    for entry in log.entries[:-1]:
        table.add_entry(*entry)
    table.add_entry(e, forged)
    assert len(table.unchecked) == 3
    assert table.check_signatures(limit=2)  # the two good ones, one left
    for _ in range(2):
        with pytest.raises(Unfair, match="log entry 2 is not signed by the host"):
            table.check_signatures()
    with pytest.raises(Unfair, match="signature"):
        table.rebuilt(2)
