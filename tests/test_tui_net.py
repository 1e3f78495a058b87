"""The network screens over real loopback sockets: join, the lobby, a round by keys, chat, spectators, hosting.

Nothing is mocked: every host listens on 127.0.0.1 and every screen talks to
it through a real :class:`net.Client`. Tests read the session to decide
which key to press, but act only through ``pilot.press``, as a person would.
Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from net import BotClient, Client
from net.discovery import Found
from net.testing import card_ids, start_host
from tui_support import at_table, notifications, summary_up, until
from uno_tui.netplay.app import NetApp
from uno_tui.netplay.lobby import ConnectScreen, LobbyScreen
from uno_tui.netplay.table import NetTableScreen
from uno_tui.screens import ColorPicker
from uno_tui.faces.classic.players import PlayersView
from uno_tui.widgets import GameLog, HandView
from net_support import next_message

SIZE = (110, 36)


@pytest.fixture(autouse=True)
def _private_state(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Remembered seat tokens go to a temporary directory, not the real home."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))


# -- helpers --------------------------------------------------------------------------
def shown(widget: Any) -> str:
    """What a widget shows, as plain text."""
    content = widget.content if isinstance(widget, Static) else widget.render()
    if isinstance(content, str):
        return content
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(content)
    return console.export_text()


def log_text(screen: NetTableScreen) -> str:
    """Every line the table's log holds (its entries: the rendered lines of a screen that is not on
    top, under a round's summary, may wait for it to be shown again)."""
    return "\n".join(text.plain for text in screen.query_one(GameLog).entries)


async def select(pilot: Pilot, hand: HandView, card_id: int) -> None:
    ids = [c["id"] for c in hand.cards]
    steps = (ids.index(card_id) - hand.selected) % len(ids)
    if steps <= len(ids) // 2:
        await pilot.press(*["right"] * steps)
    else:
        await pilot.press(*["left"] * (len(ids) - steps))
    assert hand.selected_card is not None and hand.selected_card["id"] == card_id


async def take_turn(pilot: Pilot, app: NetApp) -> None:
    """A sensible move made with keys only; returns once the host has answered."""
    assert app.session is not None and app.table is not None
    obs = app.session.observation()
    legal = obs["legal"]
    kinds = {a["kind"] for a in legal}
    before = obs["version"]
    answered = len(app.session.received)
    if "catch" in kinds:
        await pilot.press("x")
    elif obs["phase"] == "challenge":
        await pilot.press("d")
    else:
        plays = [a for a in legal if a["kind"] == "play"]
        if not plays:
            await pilot.press("d" if "draw" in kinds else "p")
        else:
            play = next((a for a in plays if a.get("color") is None), plays[0])
            if "uno" in kinds:
                await pilot.press("u")
            await select(pilot, app.table.query_one(HandView), play["card"])
            await pilot.press("enter")
            if play.get("color") is not None:
                await until(pilot, lambda: isinstance(app.screen, ColorPicker), what="the colour picker")
                await pilot.press(play["color"][0])
    await until(pilot, lambda: app.session.observation()["version"] > before or len(app.session.received) > answered,
                what="the host's answer")


async def my_turn_or_over(pilot: Pilot, app: NetApp, timeout: float = 10.0) -> dict[str, Any]:
    assert app.session is not None

    def ready() -> dict[str, Any] | None:
        obs = app.session.observation()
        if obs["over"]:
            return obs
        if isinstance(app.screen, NetTableScreen) and any(a["kind"] in ("play", "draw", "pass", "catch")
                                                          for a in obs.get("legal", ())):
            # catches and my own turn
            if obs["current"] == obs["me"] or any(a["kind"] == "catch" for a in obs["legal"]):
                return obs
        return None

    return await until(pilot, ready, timeout, "my turn")


async def play_round(pilot: Pilot, app: NetApp, moves: int = 300) -> dict[str, Any]:
    for _ in range(moves):
        obs = await my_turn_or_over(pilot, app)
        if obs["over"]:
            return obs
        await take_turn(pilot, app)
    raise AssertionError("the round did not end")


def assert_only_own_cards(updates: Any, me: int | None) -> None:
    """No update shows a card that was in someone else's hand (spectators: in anyone's hand)."""
    assert updates
    for m in updates:
        obs = m["obs"]
        assert obs["me"] == me
        if obs["over"]:
            continue  # the hands are shown openly once the round is over
        assert "hands" not in obs
        if me is None:
            assert "hand" not in obs and "legal" not in obs
        mine = {c["id"] for c in obs.get("hand", ())}
        public = {c["id"] for c in obs["discard"]}
        for e in m["events"]:
            if e["kind"] in ("play", "start", "return"):
                public |= {c["id"] for c in e.get("cards", [])}
            elif e["kind"] == "draw" and e.get("player") == me and me is not None:
                mine |= {c["id"] for c in e.get("cards", [])}  # drawn and maybe played at once
            else:
                assert not e.get("cards") or (me is not None and me in e.get("visible_to", [])), e
        shown = set(card_ids({"events": m["events"], "obs": obs}))
        assert shown <= mine | public, (shown - mine - public)


# -- joining a headless host -----------------------------------------------------------
async def test_join_ready_play_a_round_by_keys_and_see_only_my_hand() -> None:
    host = await start_host(seats=2, bots=1, rounds=1, seed=11, name="Table")
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            assert isinstance(app.screen, LobbyScreen)
            seats = shown(app.screen.query_one("#lobby-seats"))
            assert "Ann (you)" in seats and "not ready" in seats and "bot" in seats
            assert "Press r" in shown(app.screen.query_one("#lobby-status"))
            await pilot.press("r")
            await until(pilot, lambda: at_table(app), what="the table")
            final = await play_round(pilot, app)
            assert final["over"] and final["me"] == 0
            await until(pilot, lambda: summary_up(app), what="the round's summary")
            keys = shown(app.screen.query_one("#round-keys"))
            assert "host" in keys and "n or enter" not in keys  # a joiner does not deal
            # The host's --rounds 1: a match of one round, its last said so, no next round offered.
            headline = shown(app.screen.query_one("#match-headline")).strip()
            assert headline == "That was the last of the match's 1 round."
            assert "rematch" in keys and "more round" not in keys
            assert app.screen.query_one("#round-over").border_title == "Round 1 of 1 is over"
            assert_only_own_cards(app.session.received, app.session.me)
            log = log_text(app.table)
            assert "Round 1" in log and ("You play" in log or "You draw" in log)
            assert host.rounds_played == 1
            # The host closes its table: the summary no longer says the host decides on a rematch.
            await host.close()
            await until(pilot, lambda: "closed the table" in shown(app.screen.query_one("#round-keys")),
                        what="the summary told the table closed")
            keys = shown(app.screen.query_one("#round-keys"))
            assert "rematch" not in keys and "q: quit" in keys
    finally:
        await app.shutdown()
        await host.close()


async def test_a_spectator_sees_the_public_table_and_no_hand() -> None:
    host = await start_host(seats=3, bots=3, rounds=1, seed=5, bot_delay=0.01)
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Watcher", spectate=True, pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            # A table of bots starts as soon as someone is there to watch.
            await until(pilot, lambda: at_table(app), what="the table")
            table = app.table
            assert table is not None and app.session is not None and app.session.me is None
            assert table.query_one("#hand-panel").border_title.startswith("Watching")
            assert not table.query_one(HandView).cards
            # No hand: one line of words, not the four rows of a hand's cards (the log has them).
            await until(pilot, lambda: table.query_one(HandView).region.height == 1, what="a one-line hand")
            await pilot.press("d")  # a spectator's key does nothing but explain
            await until(pilot, lambda: any("spectators cannot play" in m for m in notifications(app)))
            await until(pilot, lambda: app.session.observation()["over"], what="the end of the round")
            assert_only_own_cards(app.session.received, None)
            log = log_text(table)
            assert "You " not in log and " plays " in log
            await until(pilot, lambda: summary_up(app), what="the round's summary")
    finally:
        await app.shutdown()
        await host.close()


async def test_chat_in_the_lobby_and_at_the_table_and_away_players_shown() -> None:
    host = await start_host(seats=3, bots=1, rounds=1, seed=7, bot_delay=0.05, grace=0.3)
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
    bo = Client(("127.0.0.1", host.port), "Bo", reconnect=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            await bo.connect()
            # Lobby chat, both ways.
            await pilot.press("t")
            await pilot.press(*"hi all", "enter")
            chat = await next_message(bo, "chat")
            assert chat["from"] == "Ann" and chat["text"] == "hi all"
            await bo.chat("hello Ann")
            lobby_chat = app.lobby_screen.query_one("#lobby-chat")
            await until(pilot, lambda: any("<Bo> hello Ann" in s.text for s in lobby_chat.lines), what="Bo's line")
            # Both ready: the game starts and the table opens.
            await pilot.press("r")
            await bo.ready()
            await until(pilot, lambda: at_table(app), what="the table")
            table = app.table
            assert table is not None
            # Chat at the table: t opens the line, the keys type into it (not into the game).
            before = app.session.observation()["version"]
            await pilot.press("slash")
            await pilot.press(*"good luck d", "enter")
            chat = await next_message(bo, "chat", lambda m: m["from"] == "Ann")
            assert chat["text"] == "good luck d"
            assert not any(m["kind"] == "draw" and m.get("player") == 0 for u in list(app.session.received)
                           if u["obs"]["version"] > before for m in u["events"] if m.get("reason") == "turn")
            await bo.chat("thanks")
            await until(pilot, lambda: "<Bo> thanks" in log_text(table), what="Bo's line at the table")
            # Bo's link drops: the table says Bo is away, then that a bot plays for Bo.
            bo.kill_link()
            await until(pilot, lambda: "Bo lost the link" in log_text(table), what="Bo away")
            players = table.query_one(PlayersView)
            assert "Bo away" in str(players.border_subtitle)
            await until(pilot, lambda: "bot plays for them" in log_text(table), what="the stand-in")
            assert any("a bot plays" in label for label in players.labels)
    finally:
        await bo.close()
        await app.shutdown()
        await host.close()


async def test_the_link_lost_and_restored_is_shown_and_a_closed_terminal_rejoins() -> None:
    host = await start_host(seats=2, bots=1, seed=2, bot_delay=0.05)
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            await pilot.press("r")
            await until(pilot, lambda: at_table(app), what="the table")
            assert app.client is not None and app.table is not None
            app.client.kill_link()
            await until(pilot, lambda: "link to the host was lost" in log_text(app.table), what="lost")
            await until(pilot, lambda: "link to the host is back" in log_text(app.table), what="restored")
            await until(pilot, lambda: "-lost" not in app.table.query_one("#net-bar").classes)
            assert app.session is not None and app.session.me == 0 and app.session.observation()["hand"]
        # The terminal is closed; the same player starts join again and gets the seat and hand back.
        await app.shutdown()
        again = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
        async with again.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: at_table(again), what="the table again")
            assert again.session is not None and again.session.me == 0
            assert again.session.observation()["me"] == 0 and again.session.observation()["hand"]
        await again.shutdown()
    finally:
        await app.shutdown()
        await host.close()


@pytest.mark.parametrize("found", [True, False])
async def test_join_without_an_address_lists_lan_tables_or_asks_for_one(found: bool) -> None:
    host = await start_host(seats=2, bots=1, auto_start=False, name="Den")

    async def browse(timeout: float) -> tuple[list[Found], str]:
        # Multicast stays off in tests; the table "found" is the real loopback host.
        if found:
            table = Found("Den on box", "127.0.0.1", host.port, {"variant": "classic", "seats": "2"})
            return [table], "found 1 table(s)"
        return [], "no table found on the LAN (multicast may be blocked on this network): give the host's address"

    app = NetApp(name="Ann", pacing=(0.0, 0.0), browse=browse)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
            screen = app.screen
            status = screen.query_one("#browse-status")
            if found:
                await until(pilot, lambda: "Den on box" in str(screen.query_one("#found").get_option_at_index(0).prompt)
                            if screen.found else False, what="the list")
                await pilot.press("enter")
            else:
                await until(pilot, lambda: "no table found" in shown(status), what="the explanation")
                await pilot.press("1", "2", "7", ".", "0", ".", "0", ".", "1", ":", *str(host.port), "enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session is not None
                        and app.session.lobby is not None, what="the lobby")
            assert "Den's table" in shown(app.screen.query_one("#lobby-title"))
    finally:
        await app.shutdown()
        await host.close()


async def test_a_wrong_address_is_explained_and_can_be_corrected() -> None:
    host = await start_host(seats=2, bots=1, auto_start=False, password="pw")
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen), what="the connect screen")
            screen = app.screen
            await until(pilot, lambda: "password" in shown(screen.query_one("#connect-error")).lower())
            await until(pilot, lambda: screen.focused is screen.query_one("#password"), what="the password box")
            await pilot.press("p", "w", "enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session is not None)
    finally:
        await app.shutdown()
        await host.close()


async def test_a_wrong_password_is_said_and_typed_again_from_an_empty_box() -> None:
    from net.throttle import PasswordThrottle

    host = await start_host(seats=2, bots=1, auto_start=False, password="pw")
    host.password_throttle = PasswordThrottle(base=0.0)  # no wait between the guesses here
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", password="nope", pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen), what="the connect screen")
            screen = app.screen
            await until(pilot, lambda: any("wrong password" in shown(w).lower() for w in screen.query("#connect-error")),
                        what="the refusal")
            box = screen.query_one("#password")
            await until(pilot, lambda: screen.focused is box, what="the password box")
            await pilot.press("x", "enter")  # wrong again: said again, and the box is emptied for the next try
            await until(pilot, lambda: box.value == "" and host.password_throttle.failures("127.0.0.1") == 2)
            await pilot.press("p", "w", "enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session is not None)
    finally:
        await app.shutdown()
        await host.close()


# -- hosting from the screen ----------------------------------------------------------------
def hosting_app(seed: int, **config: Any) -> tuple[Any, NetApp]:
    """An interactive host's app (two seats, no bots, no mDNS) and the Host it runs."""
    from net import Host, HostConfig

    host = Host(HostConfig(**{"seats": 2, "bots": 0, "name": "Hal", "seed": seed, "bot_delay": 0.0,
                              "heartbeat": 1.0, **config}))
    return host, NetApp(host=host, name="Hal", bind="127.0.0.1", port=0, mdns=False, pacing=(0.0, 0.0),
                        browse=None)


def where_things_are(host: Any, app: NetApp, *tasks: asyncio.Future[Any]) -> str:
    """For a timed-out wait: the host's phase and game, what the app shows, and how the tasks ended."""
    game = host.game
    obs = app.client.observation if app.client is not None else None
    parts = [f"host {host.phase}, match {host.match}",
             f"game round {game.round} version {game.version} to act {game.to_act()} over {game.over}" if game else "no game",
             f"screen {type(app.screen).__name__} (stack {[type(s).__name__ for s in app.screen_stack]})",
             f"client obs version {obs['version']} over {obs['over']}" if obs else "no client observation",
             f"log tail {log_text(app.table)[-200:]!r}" if app.table is not None else "no table"]
    parts += [f"task {'done: ' + repr(t.exception()) if t.done() else 'running'}" for t in tasks]
    return "; ".join(parts)


async def in_lobby(pilot: Pilot, app: NetApp) -> None:
    await until(pilot, lambda: app.session is not None and app.session.lobby is not None, what="the lobby")


async def test_the_interactive_host_fills_with_bots_starts_and_plays_a_round() -> None:
    host, app = hosting_app(21)
    watcher = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            screen = app.lobby_screen
            # The address as --headless prints it: with the host key's fingerprint.
            assert f"uno-tui join --trusted-host {host.address('127.0.0.1')}" in app.where
            assert "#" in app.where and "uno://127.0.0.1:" in app.where
            assert app.session.me == 0 and app.session.is_host
            await until(pilot, lambda: app.session.ready, what="the host's own seat ready")
            await pilot.press("s")  # seats are open: the host is told why not
            await until(pilot, lambda: any("every seat needs" in m.lower() for m in notifications(app)))
            await pilot.press("b")
            await until(pilot, lambda: all(s["kind"] != "open" for s in app.session.lobby["seats"])
                        and "s starts" in shown(screen.query_one("#lobby-status")), what="the seats filled, on the screen")
            watcher = Client(("127.0.0.1", host.port), "Eve", spectate=True)
            await watcher.connect()
            await pilot.press("s")
            await until(pilot, lambda: at_table(app), what="the table")
            final = await play_round(pilot, app)
            assert final["over"] and host.phase == "round_over"
            await until(pilot, lambda: summary_up(app), what="the round's summary")
            assert "n or enter: next round" in shown(app.screen.query_one("#round-keys"))  # the host deals
            await pilot.press("n")  # the host deals the next round for everyone
            await until(pilot, lambda: isinstance(app.screen, NetTableScreen)
                        and not app.session.observation()["over"], what="round 2")
            assert app.session.observation()["round"] == 1 and host.phase == "playing"
            assert "Round 2" in log_text(app.table)
            spectated = await next_message(watcher, "update", lambda m: m["obs"]["round"] == 1)
            assert "hand" not in spectated["obs"]
    finally:
        if watcher is not None:
            await watcher.close()
        await app.shutdown()
    assert not host.serving


async def seat_a_bot_and_start(pilot: Pilot, host: Any, bots: list[BotClient]) -> asyncio.Future[Any]:
    """A bot client takes the open seat of a hosting app's table (``bots`` gets it, for the test
    to close), and the host presses s; returns the bot's run."""
    bot = BotClient(("127.0.0.1", host.port), "Rob", seed=1)
    bots.append(bot)
    bot_run = asyncio.ensure_future(bot.run())
    await until(pilot, lambda: host.can_start(), what="Rob seated")
    await pilot.press("s")
    return bot_run


async def test_after_the_match_the_host_deals_a_rematch_to_everyone() -> None:
    # A match to 1 point ends with its first round; the seats come back for the rematch.
    # The host's own turns are left to the turn timer (a bot plays them): the keys were tested above.
    host, app = hosting_app(4, options={"target_score": 1}, turn_timer=0.02)
    bots: list[BotClient] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            bot_run = await seat_a_bot_and_start(pilot, host, bots)
            # The host's phase turns "finished" as it ends the match, which may come after this
            # screen has the round's last update: wait for both. (A round won with 0 points, every
            # card left a zero, does not reach the target: the host deals on.)
            for _ in range(10):
                await until(pilot, lambda: app.table is not None and app.client.observation is not None
                            and app.session.observation()["over"] and host.game is not None and host.game.over
                            and (host.phase == "finished" or not host.game.match_over),
                            what=lambda: "the end of a round; " + where_things_are(host, app, bot_run))
                if host.phase == "finished":
                    break
                played = host.game.round
                await until(pilot, lambda: summary_up(app), what="the round's summary")
                await pilot.press("n")
                await until(pilot, lambda: host.game is not None and host.game.round > played, what="the next round")
            assert app.session.observation()["match_over"]
            await until(pilot, lambda: summary_up(app), what="the match's summary")
            # "r" at once, as a host does: the rematch is dealt while the host's screen is still
            # coming back after the end (it hears the deal as the round's history, and its log
            # gets the rematch's heading all the same).
            await pilot.press("r")
            # (The timer plays the rematch's turns for the host too: it may be over again soon.)
            await until(pilot, lambda: "New match · Round 1" in log_text(app.table),
                        what=lambda: "the rematch; " + where_things_are(host, app, bot_run))
            assert host.match == 1 and host.game is not None and host.game.round == 0
            await asyncio.wait_for(bot_run, 0.1) if bot_run.done() else None
    finally:
        await app.shutdown()
        for bot in bots:
            await bot.client.close()


async def test_a_match_of_the_hosts_rounds_shows_its_length_and_ends_in_a_rematch() -> None:
    """An interactive host of ``--rounds 2``: the first round's summary says "Round 1 of 2" and
    how many are left, the last's that it was the last; n there deals a rematch."""
    host, app = hosting_app(6, rounds=2, turn_timer=0.02, options={"target_score": 10_000})
    bots: list[BotClient] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            bot_run = await seat_a_bot_and_start(pilot, host, bots)
            await until(pilot, lambda: summary_up(app),
                        what=lambda: "round 1's summary; " + where_things_are(host, app, bot_run))
            assert app.screen.query_one("#round-over").border_title == "Round 1 of 2 is over"
            assert "1 more round in the match" in shown(app.screen.query_one("#round-keys"))
            assert not app.screen.query("#match-headline")
            await pilot.press("n")
            await until(pilot, lambda: host.game is not None and host.game.round == 1, what="round 2")
            await until(pilot, lambda: summary_up(app) and host.phase == "finished",
                        what=lambda: "round 2's summary; " + where_things_are(host, app, bot_run))
            headline = shown(app.screen.query_one("#match-headline")).strip()
            assert headline == "That was the last of the match's 2 rounds."
            assert "r or n: rematch" in shown(app.screen.query_one("#round-keys"))
            await pilot.press("n")  # no next round: again means a new match
            await until(pilot, lambda: host.match == 1,
                        what=lambda: "the rematch; " + where_things_are(host, app, bot_run))
    finally:
        await app.shutdown()
        for bot in bots:
            await bot.client.close()


async def test_the_host_is_asked_before_ctrl_q_closes_the_table_for_everyone() -> None:
    from uno_tui.screens.confirm import ConfirmScreen

    host, app = hosting_app(5)
    guest = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            guest = Client(("127.0.0.1", host.port), "Eve")
            await guest.connect()
            await until(pilot, lambda: len(host.peers) == 2, what="Eve at the table")
            await pilot.press("ctrl+q")
            confirm = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.screen, what="the question")
            assert "1 other person" in shown(confirm.query_one("#confirm-detail"))
            await pilot.press("n")  # stay
            await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
            assert host.serving and guest.connected
            await pilot.press("ctrl+q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question again")
            await pilot.press("ctrl+q")  # ctrl+q twice: yes
            await until(pilot, lambda: not host.serving, what="the table closed")
        assert app.return_value == 0
        await until_closed(guest)
        told = [m for m in list(guest.messages._queue) if m["type"] == "link"]  # type: ignore[attr-defined]
        assert told and told[-1]["state"] == "gave_up" and "the host closed the table" in told[-1]["reason"]
        assert not guest.reconnect  # told the table is closed: it does not knock again
    finally:
        if guest is not None:
            await guest.close()
        await app.shutdown()


async def test_players_and_spectators_are_told_the_host_closed_the_table_and_stop_reconnecting() -> None:
    # The interactive host's ctrl+q (confirmed, above) closes its Host with Host.close(): so does this.
    host = await start_host(seats=2, bots=1, seed=3, name="Table", bot_delay=0.3, grace=30)
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
    watcher = Client(("127.0.0.1", host.port), "Eve", spectate=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            await watcher.connect()
            await pilot.press("r")
            await until(pilot, lambda: at_table(app), what="the table")
            # (The session has the update a moment before the status line is drawn from it. Ann's turn
            # may open on a decision, not a plain "Your turn.": the fair deal is random, and the bot's
            # first card may be a Wild Draw Four on her, which she may challenge.)
            await until(pilot, lambda: app.session.observation()["current"] == app.session.me
                        and any(w in shown(app.table.query_one("#status")) for w in ("Your turn", "on you", "to you")),
                        what="Ann's turn, on the screen")
            await host.close("the host has left the table")
            await until(pilot, lambda: "the host closed the table" in shown(app.table.query_one("#net-bar")))
            assert not app.table.query_one("#status").display  # no "Your turn." under a closed table
            assert "the host closed the table" in log_text(app.table)
            assert any("the host closed the table" in m for m in notifications(app))
            assert not app.client.reconnect and not app.client.connected
            await pilot.pause(0.5)
            assert not app.client.connected and "reconnecting" not in shown(app.table.query_one("#net-bar"))
        gave_up = await next_message(watcher, "link")
        assert gave_up["state"] == "gave_up" and "the host closed the table" in gave_up["reason"]
        assert not watcher.reconnect
    finally:
        await watcher.close()
        await app.shutdown()
        await host.close()


async def test_every_move_the_host_makes_for_you_is_shown_in_the_log_and_as_a_notification() -> None:
    host = await start_host(seats=2, bots=1, rounds=1, seed=11, turn_timer=0.05)
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_lobby(pilot, app)
            await pilot.press("r")  # and then no key at all: the timer plays every turn
            await until(pilot, lambda: app.table is not None and app.table.is_mounted
                        and "for you in round 1: your turn timer ran out" in log_text(app.table))
            assert any("The host " in m and "your turn timer ran out" in m for m in notifications(app))
    finally:
        await app.shutdown()
        await host.close()


async def until_closed(client: Client, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while client.connected and loop.time() < end:
        await asyncio.sleep(0.02)
    assert not client.connected


async def test_ctrl_q_leaves_at_once_when_nobody_else_is_connected() -> None:
    host, app = hosting_app(6)
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot, app)
        await pilot.press("ctrl+q")
        await pilot.pause(0.2)
    assert app.return_value == 0 and not host.serving
