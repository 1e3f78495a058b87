"""Whole games over loopback: bot clients, spectators, chat, the lobby, handshakes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest

from net import PROTOCOL_VERSION, BotClient, Client, ProtocolVersionError, Refused
from net.commands import main as net_main
from net.record import replay
from net.testing import HostProcess, RawPeer, card_ids, conserved, start_host
from net_support import GAME_BOUND, next_message


async def test_bot_clients_play_whole_rounds() -> None:
    # A target no two rounds reach (one round can score 500: the deal is fresh every match).
    host = await start_host(seats=4, bots=1, rounds=2, seed=11, options={"target_score": 100_000})
    try:
        bots = [BotClient(("127.0.0.1", host.port), f"B{i}", seed=i) for i in range(3)]
        rcs = await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), GAME_BOUND)
        assert rcs == [0, 0, 0]
        assert host.phase == "finished" and host.end_reason == "rounds_done"
        assert host.rounds_played == 2 and host.game is not None and host.game.over
        assert conserved(host.game)
        assert all(b.moves > 0 for b in bots)
        # The record replays to the same match.
        assert replay(host.record.to_dict()).scores == host.game.scores
    finally:
        await host.close()


async def test_players_see_their_own_hand_and_spectators_no_hidden_card() -> None:
    host = await start_host(seats=3, bots=1, rounds=1, seed=3)
    seen: dict[str, list[dict[str, Any]]] = {"spectator": [], "p0": []}
    over = asyncio.Event()

    def watch(m: dict[str, Any]) -> None:
        seen["spectator"].append(m)
        if m["type"] == "update" and m["obs"]["over"]:
            over.set()

    try:
        spectator = Client(("127.0.0.1", host.port), "Watcher", spectate=True, on_message=watch)
        welcome = await spectator.connect()
        assert welcome["seat"] is None and welcome["token"] is None
        bots = [BotClient(("127.0.0.1", host.port), f"B{i}", seed=i) for i in range(2)]
        bots[0].client.on_message = seen["p0"].append
        assert await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), GAME_BOUND) == [0, 0]
        await asyncio.wait_for(over.wait(), 10)  # the spectator holds the last update too
        updates = [m for m in seen["spectator"] if m["type"] == "update"]
        assert updates and updates[-1]["obs"]["over"]
        for m in seen["spectator"]:
            if m["type"] != "update":
                assert not list(card_ids(m))
                continue
            obs = m["obs"]
            assert obs["me"] is None and "hand" not in obs and "legal" not in obs
            # Every card a spectator hears of was public: on the discard pile or just played/turned.
            public = {c["id"] for c in obs["discard"]}
            for e in m["events"]:
                if e["kind"] in ("play", "start", "return"):
                    public |= {c["id"] for c in e.get("cards", [])}
                else:
                    assert not e.get("cards"), e
            shown = set(card_ids({"events": m["events"], "discard": obs["discard"], "top": obs["top"]}))
            assert shown <= public
            if not obs["over"]:
                assert "hands" not in obs
        # A player's frames never show another player's private cards.
        me = bots[0].client.seat
        for m in seen["p0"]:
            if m["type"] == "update":
                for e in m["events"]:
                    if e.get("visible_to") is not None and me not in e["visible_to"]:
                        assert not e.get("cards")
                if not m["obs"]["over"]:
                    assert "hands" not in m["obs"]
        await spectator.close()
    finally:
        await host.close()


async def test_lobby_chat_and_ready() -> None:
    host = await start_host(seats=3, bots=1, rounds=1, name="Table")
    try:
        a = Client(("127.0.0.1", host.port), "Ann")
        b = Client(("127.0.0.1", host.port), "Ann")  # same name: the host tells them apart
        await a.connect()
        await b.connect()
        lobby = await next_message(a, "lobby", lambda m: sum(s["kind"] == "human" for s in m["seats"]) == 2)
        names = [s["name"] for s in lobby["seats"]]
        assert names[:2] == ["Ann", "Ann (2)"] and lobby["seats"][2]["kind"] == "bot"
        assert lobby["variant"] == "classic" and lobby["options"]["target_score"] == 500
        assert lobby["phase"] == "lobby" and lobby["host"] == "Table"
        await a.chat("hello \x1b[2Jthere")
        chat = await next_message(b, "chat")
        assert chat["text"] == "hello there" and chat["from"] == "Ann" and chat["seat"] == 0
        await a.ready()
        await next_message(b, "lobby", lambda m: m["seats"][0]["ready"])
        assert host.phase == "lobby"
        await b.ready()
        update = await next_message(a, "update")
        assert update["obs"]["me"] == 0 and len(update["obs"]["hand"]) >= 7
        # Chat works during play too.
        await b.chat("good luck")
        assert (await next_message(a, "chat"))["text"] == "good luck"
        # A newcomer cannot take a seat in a game that has started, but may watch.
        with pytest.raises(Refused) as info:
            await Client(("127.0.0.1", host.port), "Late").connect()
        assert info.value.code == "started"
        await a.close()
        await b.close()
    finally:
        await host.close()


async def test_password_and_full_table_are_refused() -> None:
    host = await start_host(seats=2, bots=1, password="s3cret", auto_start=False)
    try:
        with pytest.raises(Refused) as info:
            await Client(("127.0.0.1", host.port), "X", password="wrong").connect()
        assert info.value.code == "password"
        ok = Client(("127.0.0.1", host.port), "Y", password="s3cret")
        await ok.connect()
        with pytest.raises(Refused) as info:
            await Client(("127.0.0.1", host.port), "Z", password="s3cret").connect()
        assert info.value.code == "full"
        await ok.close()
    finally:
        await host.close()


async def test_a_version_mismatch_is_refused_on_the_host_side() -> None:
    host = await start_host(seats=2, bots=1)
    try:
        with pytest.raises(ProtocolVersionError) as info:
            await Client(("127.0.0.1", host.port), "Future", protocol_version=99).connect()
        assert f"protocol {PROTOCOL_VERSION}" in info.value.reason and "99" in info.value.reason
        raw = await RawPeer.open(host.port)
        await raw.send({"type": "hello", "v": 0, "name": "old"})
        reply = await raw.recv()
        assert reply["type"] == "refuse" and reply["code"] == "version" and reply["v"] == PROTOCOL_VERSION
        assert await raw.read_until_closed(2) == b""
        raw.close()
        assert host.seats[0].kind == "open"
    finally:
        await host.close()


async def test_a_version_mismatch_is_refused_on_the_client_side() -> None:
    from net import framing

    async def future_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await framing.read_frame(reader, max_size=4096, idle_timeout=2, body_timeout=2)
        writer.write(framing.encode({"type": "welcome", "v": PROTOCOL_VERSION + 1, "seat": 0, "token": "t",
                                     "role": "player", "name": "x", "host": "h", "heartbeat": 5, "newfield": 1}))
        await writer.drain()

    server = await asyncio.start_server(future_host, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        with pytest.raises(ProtocolVersionError) as info:
            await Client(("127.0.0.1", port), "Me").connect()
        reason = info.value.reason
        assert f"protocol {PROTOCOL_VERSION + 1}" in reason and f"speaks {PROTOCOL_VERSION}" in reason
    finally:
        server.close()


def test_the_headless_command_and_bot_commands_play_a_round(tmp_path: Any) -> None:
    transcript = tmp_path / "game.json"
    host = HostProcess("--port", "0", "--bind", "127.0.0.1", "--seats", "3", "--bots", "1", "--rounds", "1",
                       "--save", str(tmp_path / "h.save"), "--record", str(transcript),
                       "--bot-delay", "0", "--round-pause", "0", "--no-mdns")
    try:
        port = host.wait_port()
        bots = [subprocess.Popen([sys.executable, "-m", "net", "bot", "--trusted-host", f"127.0.0.1:{port}", "--name", n])
                for n in ("Ann", "Bo")]
        assert [b.wait(30) for b in bots] == [0, 0]
        assert host.finish(30) == 0
    finally:
        if host.proc.poll() is None:
            host.kill()
    out = "\n".join(host.lines)
    assert "lobby: 1: open | 2: open | 3: Ada (bot)" in out
    assert "round 1 over" in out and "game over (rounds_done)" in out
    record = json.loads(transcript.read_text())
    game = replay(record)
    assert game.over and game.scores == record["scores"] and conserved(game)
    # The moves record is not evidence: `audit` says what it is; the signed transcript the host
    # names on its way out verifies.
    assert net_main(["audit", str(transcript)]) == 2
    signed = next(line.split("signed transcript: ")[1].split()[0] for line in host.lines if "signed transcript:" in line)
    assert net_main(["audit", signed]) == 0
