"""A person at a sealed table (issue 16): the table screen over a sealed peer, driven by keys.

The host seats a bot; a bot client and this screen's client play over loopback. The screen
shows the person's own hand (the faces opened to it, and only those) and offers the moves its
own game finds legal; a whole round is played by key presses, and every audit verifies.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from test_net_sealed import check_clean
from test_tui import take_turn
from test_tui_sealed_variants import _mine, play_round_by_keys
from tui_support import summary_up, text_of, until

from core import Action
from net.sealing import SealedClient, SealedHost
from uno_tui.app import UnoApp
from uno_tui.screens import RoundOverScreen, TableScreen
from uno_tui.sealed_session import ScreenPeer, SealedSession


async def _classic(pilot: Any, app: UnoApp, obs: dict[str, Any], seen: set[str]) -> None:
    await take_turn(pilot, app)


async def _draws_first(pilot: Any, app: UnoApp, obs: dict[str, Any], seen: set[str]) -> None:
    """As :func:`_classic`, but the person's first turn draws (a card drawn is to be opened too)."""
    if "drew" not in seen and obs["phase"] == "play" and any(a["kind"] == "draw" for a in obs["legal"]):
        seen.add("drew")
        await pilot.press("d")
        return
    await take_turn(pilot, app)


@pytest.mark.parametrize("where", ["client", "host", "alone"])
async def test_a_whole_sealed_round_by_keys_with_every_audit_clean(where: str) -> None:
    """``client``: a person joins (``join --sealed``); ``host``: the host's person plays seat 0
    (``host --sealed``), its bot the last seat; ``alone``: the host's person and its two bots, nobody
    else (``host --seats 3 --bots 2``): no other participant's keys to wait for, its own open its cards."""
    if where == "client":
        host = SealedHost(variant="classic", seats=3, people=2)
    else:
        host = SealedHost(variant="classic", seats=3, people=0 if where == "alone" else 1, host_seats=(0,),
                          host_person=True)
    port = await host.start()
    me = SealedClient(peer_class=ScreenPeer)
    tasks = [asyncio.ensure_future(host.run())]
    if where != "alone":
        tasks.append(asyncio.ensure_future(SealedClient().run("127.0.0.1", port)))
    if where == "client":
        tasks.append(asyncio.ensure_future(me.run("127.0.0.1", port)))
    try:
        for _ in range(2000):
            peer = me.peer if where == "client" else host.peer
            if peer is not None and peer.settled:
                break
            await asyncio.sleep(0.01)
        assert peer is not None
        session = SealedSession(peer)
        app = UnoApp(session, pacing=(0.0, 0.0))
        async with app.run_test(size=(100, 32)) as pilot:
            seat = session.me
            assert seat is not None
            moves = await play_round_by_keys(pilot, app, session, tasks, _mine,
                                             _draws_first if where == "alone" else _classic)
            got = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 120)
            for _ in range(200):
                if summary_up(app):
                    break
                await pilot.pause(0.02)
            assert isinstance(app.screen, RoundOverScreen)
    finally:
        for t in tasks:
            t.cancel()
        await host.close()
    check_clean(host, list(got), 1)
    assert any(p == seat for p, _a in peer.moves)  # the person moved, by keys
    assert moves
    if where == "alone":
        assert any(a.kind == "draw" for p, a in peer.moves if p == seat)  # a card drawn was opened to it too


async def test_the_moves_made_before_the_screen_came_to_the_table_are_in_its_log() -> None:
    """A bot that acts first may play while the person's client is still opening its hand, before
    the screen is made: the screen's log has those moves too, after the deal."""
    from core import Action

    host = SealedHost(variant="classic", seats=2, people=1)
    port = await host.start()
    me = SealedClient(peer_class=ScreenPeer)
    tasks = [asyncio.ensure_future(host.run()), asyncio.ensure_future(me.run("127.0.0.1", port))]
    try:
        asked = -1
        for _ in range(3000):  # the bot's first move (after the person's draw, if the person is first)
            peer = me.peer
            if peer is not None and peer.settled and peer.game is not None:
                mine = min(peer.manual)
                if any(p != mine for p, _a in peer.moves):
                    break
                g = peer.game
                if mine in g.to_act() and asked != g.version:  # draw, and keep what was drawn
                    legal = g.legal_actions(mine)
                    peer.move(mine, Action("pass") if Action("pass") in legal else Action("draw"))
                    asked = g.version
            await asyncio.sleep(0.01)
        assert peer is not None and any(p != mine for p, _a in peer.moves), "the bot never moved"
        session = SealedSession(peer)
        after_deal = session.opening_events()[len(peer.deal_events):]
        assert any(e.player != session.me for e in after_deal), after_deal
    finally:
        for t in tasks:
            t.cancel()
        await host.close()


async def test_the_sealed_waiting_room_on_screen_then_the_table() -> None:
    """The open table's lobby screen over a sealed host: its seats and who is waiting, the chat (a
    line from a player cleaned before it is drawn), the host's s dealing at once with bots in the
    open seats, then the table."""
    from textual.widgets import Input, Static

    from uno_tui.netplay.lobby import LobbyScreen
    from uno_tui.sealed_lobby import SealedApp, SealedRoom
    from uno_tui.widgets.log import WrappingLog

    host = SealedHost(variant="classic", seats=4, people=2, host_seats=(0,), host_person=True, name="Hal")
    room = SealedRoom(where="players join with: uno-tui join uno://x:1#ff", say=host.say, start_now=host.start_now)
    host.listeners.append(room.heard)
    port = await host.start()
    room.heard("lobby", host.lobby())
    running = asyncio.ensure_future(host.run())
    ann = SealedClient(name="Ann")
    joined = asyncio.ensure_future(ann.run("127.0.0.1", port))
    app = SealedApp(room, lambda: host.peer)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, LobbyScreen)
            await until(pilot, lambda: len(host.waiting) == 1, 30, "Ann in the room")
            seats = app.screen.query_one("#lobby-seats", Static)
            await until(pilot, lambda: "Ann" in text_of(seats), 10, "Ann's seat drawn")
            text = text_of(seats)
            assert "Hal" in text and "(open)" in text and "Bot 4" in text
            title = text_of(app.screen.query_one("#lobby-title", Static))
            assert "Hal's table" in title and "sealed deal" in title
            status = text_of(app.screen.query_one("#lobby-status", Static))
            assert "1 open seat: wait for players, or b fills them with bots" in status
            ann.say("hello\x1b[2J table")
            log = app.screen.query_one("#lobby-chat", WrappingLog)
            await until(pilot, lambda: any("hello table" in str(line) for line in log.lines), 10, "Ann's line")
            await pilot.press("t")
            chat = app.screen.query_one("#lobby-chat-input", Input)
            chat.value = "welcome"
            await pilot.press("enter")
            await until(pilot, lambda: any("<Hal> welcome" in str(line) for line in log.lines), 10, "the host's line")
            await pilot.press("s")  # deal now: seat 3 goes to a bot of the host's
            await until(pilot, lambda: isinstance(app.screen, TableScreen), 60, "the table")
            assert host.peer is not None and host.peer.names == ["Hal", "Ann", "Bot 3", "Bot 4"]
            # The chat goes on at the table: its line (t), and Ann's words in the table's log.
            from uno_tui.widgets import GameLog

            table = app.screen
            assert "online" in text_of(table.query_one("#net-bar", Static)) and "hosting" in text_of(
                table.query_one("#net-bar", Static))
            ann.say("good \x1b[31mluck")
            await until(pilot, lambda: "<Ann> good luck" in "\n".join(str(e) for e in table.query_one(GameLog).entries),
                        10, "Ann's line in the table's log")
            heard: list[str] = []
            ann.listeners.append(lambda kind, msg: heard.append(msg.get("text", "")) if kind == "chat" else None)
            await pilot.press("t")
            table.query_one("#chat-input", Input).value = "thanks"
            await pilot.press("enter")
            await until(pilot, lambda: "thanks" in heard, 10, "the host's line at Ann's")
    finally:
        running.cancel()
        joined.cancel()
        await host.close()


async def test_the_hosts_r_at_the_match_end_deals_a_rematch_on_every_screen() -> None:
    """The host's screen (its person's turns played by its own bot when a short turn timer runs out,
    one bot client that stays for rematches): r on the round's summary starts a new match, and its
    table replaces the last one."""
    from uno_tui.sealed_lobby import SealedApp, SealedRoom

    host = SealedHost(variant="classic", seats=3, people=1, rounds=1, host_seats=(0,), host_person=True,
                      turn_timer=0.01)
    room = SealedRoom(where="", say=host.say, start_now=host.start_now)
    host.listeners.append(room.heard)
    port = await host.start()
    runs = [asyncio.ensure_future(host.run())]
    guest = SealedClient(matches=None)
    staying = asyncio.ensure_future(guest.run("127.0.0.1", port))
    app = SealedApp(room, lambda: host.peer)

    def again() -> None:
        host.rematch()
        runs.append(asyncio.ensure_future(host.run()))

    app.rematch = again
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: summary_up(app) and runs[0].done(), 120,
                        "the first match over and its summary shown")
            first = runs[0].result()
            # A match of the host's one round: no next round is offered, whatever the scores.
            assert text_of(app.screen.query_one("#match-headline")) == "That was the last of the match's 1 round."
            # The host starts the rematch (its keys say so, on the summary and under the table), not "the host".
            keys = text_of(app.screen.query_one("#round-keys"))
            assert "r or n: rematch" in keys and "the host decides" not in keys
            status = text_of(app.screen_stack[-2].query_one("#status"))
            assert "n: rematch" in status and "the host decides" not in status
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and host.peer is not first
                        and app.session.peer is host.peer, 60, "the rematch's table")
            await until(pilot, lambda: len(runs) == 2 and runs[1].done(), 120, "the rematch played")
            second = runs[1].result()
            assert second.game_id != first.game_id and second.alarm is None
            assert guest.played[-1].game_id == second.game_id or not staying.done()
    finally:
        for t in runs:
            t.cancel()
        await host.close()
        staying.cancel()


async def _host_alone(**kw: Any) -> tuple[SealedHost, list[asyncio.Future[Any]]]:
    """A sealed classic host whose person plays seat 0 against the host's own bot (nobody joins),
    once its first deal is done; its task is the list's."""
    host = SealedHost(variant="classic", seats=2, people=0, host_seats=(0,), host_person=True, **kw)
    await host.start()
    tasks = [asyncio.ensure_future(host.run())]
    for _ in range(2000):
        if host.peer is not None and host.peer.settled:
            break
        await asyncio.sleep(0.01)
    return host, tasks


async def test_a_move_the_persons_own_game_refuses_says_why_in_the_engines_words() -> None:
    """A key pressed for a move that is not legal (a card that is not the person's, say) is refused
    before anything is sent, with the words a table at home says ("you do not hold that card"), not
    "Action(...) is not a legal move now"."""
    import core

    host, tasks = await _host_alone()
    try:
        peer = host.peer
        assert peer is not None and peer.game is not None
        g = peer.game
        top = Action("play", g.discard[-1].id)  # the card on the pile: nobody's to play
        with pytest.raises(core.IllegalAction) as refused:
            peer.move(0, top)
        assert str(refused.value) == g.why_illegal(0, top)
        assert str(refused.value) in ("you do not hold that card", f"it is {g.names[1]}'s turn, not {g.names[0]}'s")
    finally:
        for t in tasks:
            t.cancel()
        await host.close()


@pytest.mark.parametrize("pacing", [(0.0, 0.0), (0.6, 0.9)])
async def test_a_rounds_summary_stays_while_the_sealed_table_deals_the_next_round_by_itself(
        pacing: tuple[float, float]) -> None:
    """A sealed table deals its next round by itself, a moment after the round's audits: the new deal
    took its summary off the screen (or came before it was up), so a person never saw who won the
    round and what it scored. The summary now stays until the person leaves it, says the next round
    is dealt, and n goes to it. At the usual pace the summary waits a moment to let the last card
    land; a new deal shows it at once, not a moment into the new round."""
    host, tasks = await _host_alone(rounds=2)
    try:
        peer = host.peer
        assert peer is not None
        session = SealedSession(peer)
        app = UnoApp(session, pacing=pacing)
        async with app.run_test(size=(100, 32)) as pilot:
            await play_round_by_keys(pilot, app, session, tasks, _mine, _classic)
            # The table deals round 2 by itself; the summary is up by then, and stays.
            await until(pilot, lambda: session.observation()["round"] == 1, what="the next round dealt")
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, RoundOverScreen)  # at once with the deal, at any pace
            await until(pilot, lambda: summary_up(app), what="the round's summary")
            summary = app.screen
            assert isinstance(summary, RoundOverScreen) and summary.obs["round"] == 0
            await until(pilot, lambda: "the next round is dealt" in text_of(summary.query_one("#round-keys")),
                        what="the keys saying it")
            assert app.screen is summary
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), what="back at the table")
            assert app.screen.obs["round"] == 1 and not app.screen.obs["over"]  # type: ignore[attr-defined]
            assert not app._notifications  # n dealt nothing: no "not now"
    finally:
        for t in tasks:
            t.cancel()
        await host.close()
