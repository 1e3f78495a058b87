"""Updates carry patches of the view a client holds: they rebuild it exactly, and a bad one is refused."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from net import BotClient, Client, patch
from net.gateway import Gateway
from net.peer import Peer
from net.testing import start_host
from net_support import GAME_BOUND


def wire(value: Any) -> Any:
    """``value`` as the other end of the link decodes it."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["red", "blue", ""]))
rows = st.dictionaries(st.sampled_from(["id", "cards", "uno"]), scalars, max_size=3)
values = st.one_of(scalars, st.lists(st.one_of(scalars, rows), max_size=6), rows)
views = st.dictionaries(st.sampled_from(list("abcdefgh")), values, max_size=8)


@settings(max_examples=300, deadline=None)
@given(views, views, st.integers(0, 99))
def test_a_patch_turns_the_old_view_into_the_new(old: dict[str, Any], new: dict[str, Any], v: int) -> None:
    old, new = wire({**old, "version": v}), wire({**new, "version": v + 1})
    kept = copy.deepcopy(old)
    got = patch.apply(old, wire(patch.diff(old, new, v)))
    assert got == new
    assert all(type(got[k]) is type(new[k]) for k in new)  # True is not 1 on the wire
    assert old == kept, "the view held before is left as it was"


def test_lists_that_grow_or_change_in_one_place_travel_as_the_change() -> None:
    discard = [{"id": i, "color": "red", "rank": str(i)} for i in range(40)]
    players = [{"name": f"P{i}", "cards": 7} for i in range(10)]
    old = {"version": 5, "discard": discard, "players": players, "current": 1, "drawn": 12}
    new = {"version": 6, "discard": discard + [{"id": 90, "color": "blue", "rank": "3"}],
           "players": players[:3] + [{"name": "P3", "cards": 6}] + players[4:], "current": 2}
    p = patch.diff(old, new, 5)
    assert p == {"base": 5, "set": {"version": 6, "current": 2}, "add": {"discard": [new["discard"][-1]]},
                 "at": {"players": [[3, {"name": "P3", "cards": 6}]]}, "del": ["drawn"]}
    assert len(msgpack.packb(p)) * 5 < len(msgpack.packb(new))
    assert patch.apply(old, wire(p)) == new


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_patches_rebuild_every_seats_view_through_whole_games(variant: str) -> None:
    cls = core.variant_class(variant)
    n = cls.max_players
    g = core.new_game(variant, n, seed=f"patch-{variant}")
    rng = random.Random(7)
    seats: list[int | None] = [*range(n), None]
    held = {p: wire(g.observation(p)) for p in seats}
    for _ in range(250):
        if g.over:
            if g.match_over:
                break
            g.next_round()
        else:
            p = rng.choice([q for q in g.to_act() if g.legal_actions(q)])
            g.apply(p, rng.choice(g.legal_actions(p)))
        public = g.public_observation()
        for q in seats:
            new = {**public, **g.private_observation(q)}
            held[q] = patch.apply(held[q], wire(patch.diff(held[q], new, held[q]["version"])))
            assert held[q] == wire(g.observation(q))


@pytest.mark.parametrize("bad, words", [
    ({"base": 4, "set": {"x": 1}}, "version 4"),
    ({"base": 3, "add": {"x": [1]}}, "not a list"),
    ({"base": 3, "add": {"nope": [1]}}, "not a list"),
    ({"base": 3, "at": {"l": [[5, 0]]}}, "not there"),
    ({"base": 3, "at": {"l": [[True, 0]]}}, "not there"),
    ({"base": 3, "at": {"l": [[0]]}}, "not there"),
    ({"base": 3, "del": ["nope"]}, "not in the view"),
    ({"base": 3, "set": {1: 2}}, "not a string"),
    ({"base": 3, "set": []}, "wrong types"),
    ({"base": 3, "drop": ["x"]}, "no part 'drop'"),
    ([1, 2], "must be a map"),
])
def test_a_patch_that_does_not_fit_is_refused_and_changes_nothing(bad: Any, words: str) -> None:
    view = {"version": 3, "x": 1, "l": [1, 2]}
    kept = copy.deepcopy(view)
    with pytest.raises(patch.PatchError, match=words):
        patch.apply(view, bad)
    assert view == kept


async def test_clients_hold_the_hosts_view_and_most_updates_are_patches() -> None:
    host = await start_host(seats=4, bots=0, rounds=2, seed=21)
    kinds: list[str] = []
    try:
        bots = [BotClient(("127.0.0.1", host.port), f"B{i}", seed=i) for i in range(4)]

        def check(b: BotClient) -> Any:
            def on_message(msg: dict[str, Any]) -> None:
                if msg["type"] == "update" and host.game is not None and msg["version"] == host.game.version:
                    assert msg["obs"] == wire(host.game.observation(b.client.seat))
            return on_message

        for b in bots:
            b.client.on_message = check(b)
        sent = Peer.send

        def spy(peer: Peer, message: dict[str, Any]) -> None:
            if message["type"] == "update":
                kinds.append("patch" if "patch" in message else "obs")
            sent(peer, message)

        Peer.send = spy  # type: ignore[method-assign]
        try:
            assert await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), GAME_BOUND) == [0, 0, 0, 0]
        finally:
            Peer.send = sent  # type: ignore[method-assign]
        assert kinds.count("obs") == 4, "one whole view per link, the first"
        assert kinds.count("patch") > 100
    finally:
        await host.close()


class SkewedGateway(Gateway):
    """Sends one patch built on a view the client does not hold."""

    skewed = False

    def _view(self, peer: Peer, public: dict[str, Any], shared: Any = None) -> tuple[str, dict[str, Any]]:
        key, view = super()._view(peer, public, shared)
        game = self.table.game
        if key == "patch" and not SkewedGateway.skewed and game is not None and game.version >= 8:
            SkewedGateway.skewed = True
            view = {**view, "base": view["base"] - 1}
        return key, view


async def test_a_client_given_a_patch_that_does_not_fit_reconnects_for_the_whole_view() -> None:
    host = await start_host(gateway_class=SkewedGateway, seats=2, bots=1, rounds=1, seed=5, grace=30)
    links: list[str] = []
    try:
        watcher = Client(("127.0.0.1", host.port), "W", spectate=True,
                         on_message=lambda m: links.append(m["state"]) if m["type"] == "link" else None)
        await watcher.connect()
        bot = BotClient(("127.0.0.1", host.port), "B", seed=1, delay=0.005)
        assert await asyncio.wait_for(bot.run(), 30) == 0
        assert SkewedGateway.skewed
        for _ in range(200):  # the first peer served got the bad patch: the watcher, or the bot
            if len(links + bot.links) >= 2:
                break
            await asyncio.sleep(0.02)
        assert (links + bot.links)[:2] == ["lost", "restored"]
        game = host.game
        assert game is not None and game.over
        async with asyncio.timeout(10):  # the watcher takes the round's last update
            while watcher.observation is None or not watcher.observation["over"]:
                await watcher.messages.get()
        assert watcher.observation == wire(game.observation(None))
        await watcher.close()
    finally:
        await host.close()
