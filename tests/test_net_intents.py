"""Intents the host must refuse (out of turn, for another seat, stale, from the future) or accept."""

from __future__ import annotations

from typing import Any

from core import Action
from net import Client
from net.fair import peer_message
from net.host import Host
from net.testing import start_host
from net_support import next_message


async def two_players(**settings: Any) -> tuple[Host, dict[int, Client]]:
    host = await start_host(seats=2, bots=0, **settings)
    clients = [Client(("127.0.0.1", host.port), n) for n in ("Ann", "Bob")]
    for c in clients:
        await c.connect()
        await c.ready()
    for c in clients:
        await next_message(c, "update")
    return host, {c.seat: c for c in clients}  # type: ignore[misc]


async def two_players_with_a_number_to_play() -> tuple[Host, dict[int, Client]]:
    """The fair deal is fresh randomness: deal again until the player to move can play a number."""
    for _ in range(30):
        host, by_seat = await two_players()
        assert host.game is not None
        obs = by_seat[host.game.current].observation
        assert obs is not None
        hand = {c["id"]: c for c in obs["hand"]}
        if any(a["kind"] == "play" and hand[a["card"]]["rank"].isdigit() for a in obs["legal"]):
            return host, by_seat
        await host.close()
    raise AssertionError("thirty deals without a number card to open with")


async def test_out_of_turn_impersonating_stale_and_future_intents() -> None:
    host, by_seat = await two_players_with_a_number_to_play()
    try:
        game = host.game
        assert game is not None
        p = game.current
        q = 1 - p
        cur, other = by_seat[p], by_seat[q]
        v = game.version
        assert cur.observation is not None and cur.observation["version"] == v

        # Out of turn: the other player tries the current player's move.
        seq = await other.send_intent(Action("draw"))
        rej = await next_message(other, "reject")
        assert rej["seq"] == seq and rej["code"] == "illegal" and "turn" in rej["reason"]
        assert game.version == v

        # Impersonation: the other player's connection sends an intent for seat p (signed with its own key).
        assert host.dealer is not None
        m, sig = peer_message(other.identity, "intent", host.dealer.game_id, p, 10**6, bytes(32),
                              seq=50, v=v, act={"kind": "draw"})
        await other.send_raw({"type": "signed", "m": m, "sig": sig})
        rej = await next_message(other, "reject")
        assert rej["code"] == "impersonation"
        err = await next_message(other, "error")
        assert err["code"] == "impersonation" and not err["fatal"]
        assert game.version == v and game.current == p

        # From the future.
        other._send_signed("intent", seq=51, v=v + 100, act={"kind": "draw"})
        assert (await next_message(other, "reject"))["code"] == "bad_version"

        # The current player plays a number card; the other player's draw, built on the
        # old state, is sent right behind it and is applied because it is still legal.
        hand = {c["id"]: c for c in cur.observation["hand"]}
        play = next(Action.from_dict(a) for a in cur.observation["legal"]
                    if a["kind"] == "play" and hand[a["card"]]["rank"].isdigit())
        s1 = await cur.send_intent(play, version=v)
        s2 = await other.send_intent(Action("draw"), version=v)
        mine = await next_message(cur, "update", lambda m: m.get("seq") == s1)
        assert mine["version"] == v + 1 and mine["actor"] == p
        theirs = await next_message(other, "update", lambda m: m.get("seq") == s2)
        assert theirs["version"] == v + 2 and theirs["actor"] == q
        # A drawn card is shown to its drawer only.
        drawn_mine = [e for e in theirs["events"] if e["kind"] == "draw"]
        assert drawn_mine and drawn_mine[0]["cards"]
        seen_by_cur = await next_message(cur, "update", lambda m: m["version"] == v + 2)
        assert [e for e in seen_by_cur["events"] if e["kind"] == "draw"][0].get("cards") is None

        # Stale and no longer legal: the card already played, quoting the old version.
        await cur.send_intent(play, version=v)
        rej = await next_message(cur, "reject")
        assert rej["code"] == "stale"
        fresh = await next_message(cur, "update")  # the host resends the current state with a reject
        assert fresh["version"] == game.version and fresh["events"] == []
        for c in by_seat.values():
            await c.close()
    finally:
        await host.close()


async def test_spectators_cannot_act_and_the_sender_is_told_why() -> None:
    host, by_seat = await two_players()
    try:
        watcher = Client(("127.0.0.1", host.port), "W", spectate=True)
        await watcher.connect()
        await next_message(watcher, "update")
        assert host.dealer is not None
        m, sig = peer_message(watcher.identity, "intent", host.dealer.game_id, 0, 1, bytes(32),
                              seq=1, v=0, act={"kind": "draw"})
        await watcher.send_raw({"type": "signed", "m": m, "sig": sig})
        assert (await next_message(watcher, "reject"))["code"] == "spectator"
        assert (await next_message(watcher, "error"))["code"] == "spectator"
        await watcher.close()
        for c in by_seat.values():
            await c.close()
    finally:
        await host.close()


async def test_out_of_turn_races_are_settled_by_arrival() -> None:
    # Both players send at the same state; exactly one move lands per legal window.
    host, by_seat = await two_players()
    try:
        game = host.game
        assert game is not None
        p = game.current
        v = game.version
        cur = by_seat[p]
        s_a = await cur.send_intent(Action("draw"), version=v)
        s_b = await cur.send_intent(Action("draw"), version=v)  # the same draw again: too late
        first = await next_message(cur, "update", lambda m: m.get("seq") == s_a)
        assert first["version"] == v + 1
        # Whether the draw left a card to play or passed the turn, a second draw is not legal.
        rej = await next_message(cur, "reject")
        assert rej["seq"] == s_b and rej["code"] == "stale"
        for c in by_seat.values():
            await c.close()
    finally:
        await host.close()
