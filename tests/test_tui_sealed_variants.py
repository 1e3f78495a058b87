"""A person at a sealed table of every other variant (issue 16), driven by keys.

``test_tui_sealed.py`` plays classic; here No Mercy, Wild Rawz, Diez and the extended rules each
play a whole sealed round on loopback with the table screen over this person's own peer, a bot
client at the next seat and a bot of the host's at the last. Each variant's own key driver (the
one its local table tests use) makes the person's moves; the screen offers only what the seat's
own game finds legal, and every audit verifies.
"""

from __future__ import annotations

import asyncio
import traceback
from typing import Any, Awaitable, Callable

import pytest
from test_net_sealed import check_clean
from test_tui_diez import take_turn as diez_turn
from test_tui_extended import take_move as extended_move
from test_tui_variants import take_turn as uno_turn
from tui_support import select, summary_up, until

import core
from net.sealing import SealedClient, SealedHost
from uno_tui.app import UnoApp
from uno_tui.screens import TableScreen
from uno_tui.sealed_session import ScreenPeer, SealedSession

Obs = dict[str, Any]


def _mine(obs: Obs) -> bool:
    return obs["current"] == obs["me"] and bool(obs["legal"])


async def _wildrawz(pilot: Any, app: UnoApp, obs: Obs, seen: set[str]) -> None:
    kinds = {a["kind"] for a in obs["legal"]}
    if obs["phase"] == "draft":
        seen.add("draft")
        await select(pilot, app, obs["legal"][-1]["card"], "#row")
    else:
        if "leave" in kinds and "leave" not in seen:
            seen.add("leave")
            await pilot.press("v")
            return
        await select(pilot, app, next(a for a in obs["legal"] if a["kind"] == "play")["card"])
    await pilot.press("enter")


async def _uno(pilot: Any, app: UnoApp, obs: Obs, seen: set[str]) -> None:
    await uno_turn(pilot, app)


async def _diez(pilot: Any, app: UnoApp, obs: Obs, seen: set[str]) -> None:
    await diez_turn(pilot, app, seen)


async def _extended(pilot: Any, app: UnoApp, obs: Obs, seen: set[str]) -> None:
    await extended_move(pilot, app, obs)


def _ready(app: UnoApp) -> bool:
    """The table is drawn (a picker the table opened by itself may be over it)."""
    if isinstance(app.screen, TableScreen):
        return bool(app.screen.query("#hand"))
    return any(isinstance(s, TableScreen) for s in app.screen_stack)


def _status(app: UnoApp) -> str:
    from uno_tui.widgets import StatusLine

    from tui_support import text_of

    table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
    return text_of(table.query_one(StatusLine))


def _stuck(obs: Obs, app: UnoApp) -> str:
    """What the person faced when nothing came: for the failure's message."""
    keys = ("phase", "current", "me", "actor", "step", "legal", "over")
    return f"our move or the round's end; the screen {type(app.screen).__name__}, " + repr(
        {k: obs.get(k) for k in keys})


Driver = Callable[[Any, UnoApp, Obs, set[str]], Awaitable[None]]
VARIANTS: dict[str, tuple[Callable[[Obs], bool], Driver]] = {
    # When the person must act (the variant's own reading of it), and the keys that act.
    "nomercy": (_mine, _uno),
    "wildrawz": (_mine, _wildrawz),
    "diez": (_mine, _diez),
    "extended": (lambda o: bool(o["legal"]) and (o["actor"] == o["me"] or any(
        a["kind"] in ("uno", "catch") for a in o["legal"])), _extended),
}


async def play_round_by_keys(pilot: Any, app: UnoApp, session: SealedSession, tasks: list[asyncio.Future[Any]],
                             must_act: Callable[[Obs], bool], act: Driver) -> int:
    """Play this person's seat by keys until the round is over: wait until it must act (the table
    drawn), check the screen offers exactly what its own game finds legal, press the driver's keys,
    and wait for the move to come back. Returns the moves made; fails on a broken peer or a stall."""
    peer = session.peer
    seat = session.me
    assert seat is not None
    seen: set[str] = set()
    moves = 0
    start = session.observation()["round"]

    def done(o: Obs) -> bool:
        """The round is over, or the next is dealt already (a sealed table deals it by itself)."""
        return bool(o["over"]) or o["round"] != start

    def broken() -> str:
        errors = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception()]
        return "".join("".join(traceback.format_exception(e)) for e in errors if e)

    def _made_for_me(obs: Obs) -> bool:
        """A decision with one answer: this seat's own client makes it (``Game.forced_move``)."""
        g = peer.game
        forced = g.forced_move() if g is not None and g.version == obs["version"] else None
        return forced is not None and forced[0] == seat

    for _ in range(1500):
        assert not broken(), broken()
        await until(pilot, lambda: (lambda o: done(o) or (must_act(o) and _ready(app) and not _made_for_me(o)))(
            session.observation()) or any(t.done() for t in tasks), 90,
            lambda: _stuck(session.observation(), app), step=0.01)
        obs = session.observation()
        if done(obs):
            break
        g = peer.game
        assert g is not None
        if obs["version"] == g.version and not peer.inbox.qsize():
            # The hand on screen is the one this seat's game opened, nothing sealed in it,
            # and every move offered is legal in that game.
            assert all(not core.is_sealed(c) for c in g.hands[seat])
            assert sorted(c["id"] for c in obs["hand"]) == sorted(c.id for c in g.hands[seat])
            assert [core.Action.from_dict(a) for a in obs["legal"]] == list(g.legal_actions(seat))
        version = obs["version"]
        try:
            await act(pilot, app, obs, seen)
        except AssertionError as e:
            raise AssertionError(f"{e}: after {_stuck(obs, app)} now {_stuck(session.observation(), app)}"
                                 f" · {_status(app)} · {app._notifications!r}") from None
        moves += 1
        await until(pilot, lambda: session.observation()["version"] != version
                    or not isinstance(app.screen, TableScreen) or any(t.done() for t in tasks),
                    90, lambda: "the move to come back, after " + _stuck(obs, app) + " now "
                    + _stuck(session.observation(), app) + " · " + _status(app), step=0.01)
        if not isinstance(app.screen, TableScreen) and not session.observation()["over"]:
            # A picker is up: the next pass answers it through the driver, which reads the
            # screen; give it a moment to settle first.
            await pilot.pause(0.02)
    else:
        pytest.fail("the round did not end")
    assert not broken(), broken()
    return moves


@pytest.mark.parametrize("variant", sorted(VARIANTS))
async def test_a_whole_sealed_round_of_every_variant_by_keys(variant: str) -> None:
    must_act, act = VARIANTS[variant]
    host = SealedHost(variant=variant, seats=3, people=2)
    port = await host.start()
    me = SealedClient(peer_class=ScreenPeer)
    tasks = [asyncio.ensure_future(host.run()), asyncio.ensure_future(me.run("127.0.0.1", port)),
             asyncio.ensure_future(SealedClient().run("127.0.0.1", port))]
    try:
        for _ in range(3000):
            if me.peer is not None and me.peer.settled:
                break
            await asyncio.sleep(0.01)
        peer = me.peer
        assert peer is not None
        session = SealedSession(peer)
        app = UnoApp(session, pacing=(0.0, 0.0))
        async with app.run_test(size=(100, 32)) as pilot:
            seat = session.me
            assert seat is not None

            moves = await play_round_by_keys(pilot, app, session, tasks, must_act, act)
            got = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 180)
            await until(pilot, lambda: summary_up(app), 30, "the round's summary")
    finally:
        for t in tasks:
            t.cancel()
        await host.close()
    check_clean(host, list(got), 1)
    assert moves and any(p == seat for p, _a in peer.moves)  # the person moved, by keys
