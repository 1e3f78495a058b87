"""Network play as a person meets it: the bell on your turn, a failed join, a loopback host, a joiner's status."""

from __future__ import annotations

import socket
from typing import Any

import pytest

import core
from net import discovery
from net.discovery import Found
from net.testing import start_host
from tui_support import at_table, until
from uno_tui.faces.classic.words import status_line
from uno_tui.netplay.app import NetApp
from uno_tui.netplay.lobby import ConnectScreen
from uno_tui.widgets import GameLog, StatusLine

SIZE = (100, 32)


class CountingApp(NetApp):
    """A NetApp that records its bells and terminal titles (headless apps write neither)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bells = 0
        self.titles: list[str] = []

    def bell(self) -> None:
        self.bells += 1

    def set_terminal_title(self, title: str) -> None:
        self.titles.append(title)


@pytest.mark.parametrize("bell", [True, False])
async def test_the_bell_and_title_call_you_when_it_becomes_your_turn(bell: bool) -> None:
    host = await start_host(seats=2, bots=1, rounds=1, seed=11, bot_delay=0.01)
    app = CountingApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None, bell=bell)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.session is not None and app.session.lobby is not None)
            await pilot.press("r")
            await until(pilot, lambda: at_table(app), what="the table")
            obs = await until(pilot, lambda: (o := app.session.observation())["current"] == o["me"] and o,
                              what="my turn")
            assert obs["current"] == obs["me"]
            if bell:
                assert app.bells == 1 and app.titles[-1].startswith("▶ your turn")
                # A joiner does not deal: the status line will say the host does.
                assert app.table.query_one("#status", StatusLine).deals is False
            else:
                assert app.bells == 0 and app.titles == []
            # Chat and notes at the table go into the log's lines, so the whole log (L) has them too.
            app.table.add_chat({"from": "Bo", "text": "good luck"})
            assert "<Bo> good luck" in app.table.query_one(GameLog).entries[-1].plain
    finally:
        await app.shutdown()
        await host.close()


def test_a_joiners_status_line_says_the_host_deals_the_next_round() -> None:
    game = core.new_game("classic", ["Ann", "Bo"], seed=3, setup={"hands": [["R1"], ["B2", "G3"]],
                                                                   "discard": ["R5"], "current": 0})
    card = game.hand(0)[0].id
    game.apply(0, core.Action("play", card))
    obs = game.observation(0)
    assert obs["over"] and not obs["match_over"]
    assert "n: next round" in status_line(obs, ["Ann", "Bo"])
    joiner = status_line(obs, ["Ann", "Bo"], deals=False)
    assert "the host deals the next round" in joiner and "n:" not in joiner


async def test_after_a_failed_join_from_the_list_typing_goes_to_the_address_box() -> None:
    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]

    async def browse(timeout: float) -> tuple[list[Found], str]:
        return [Found("Gone", "127.0.0.1", dead, {})], "found 1 table(s)"

    app = NetApp(name="Ann", pacing=(0.0, 0.0), browse=browse)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen) and app.screen.found, what="the list")
            screen = app.screen
            await pilot.press("enter")
            await until(pilot, lambda: "nothing answers" in str(screen.query_one("#connect-error").render()).lower(),
                        what="the error")
            address = screen.query_one("#address")
            await until(pilot, lambda: screen.focused is address, what="the address box focused")
            await pilot.press("end", "9")
            assert address.value.endswith(f"{dead}9")
    finally:
        await app.shutdown()


async def test_an_interactive_host_on_loopback_is_not_advertised(monkeypatch: pytest.MonkeyPatch) -> None:
    from net import Host, HostConfig

    advertised: list[Any] = []

    async def advertise(*args: Any, **kwargs: Any) -> tuple[None, str]:
        advertised.append(kwargs)
        return None, "advertised"

    monkeypatch.setattr(discovery, "advertise", advertise)
    host = Host(HostConfig(seats=2, bots=0, name="Hal", seed=1, heartbeat=1.0))
    app = NetApp(host=host, name="Hal", bind="127.0.0.1", port=0, mdns=True, pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.session is not None and app.session.lobby is not None, what="the lobby")
            assert any("LAN discovery is off: the table listens on 127.0.0.1" in n for n in app.notes)
            assert advertised == []
    finally:
        await app.shutdown()


async def test_a_rejoined_player_s_log_shows_the_round_so_far() -> None:
    host = await start_host(seats=2, bots=1, seed=2, bot_delay=0.01)
    app = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.session is not None and app.session.lobby is not None)
            await pilot.press("r")
            await until(pilot, lambda: at_table(app), what="the table")
            await until(pilot, lambda: (o := app.session.observation())["current"] == o["me"], what="my turn")
            await pilot.press("d")  # a move of mine, so the round has a history of more than the deal
            await until(pilot, lambda: any(e.get("player") == 0 for u in app.session.received
                                           for e in u["events"] if e["kind"] == "draw"), what="the draw")
            before = [t.plain for t in app.table.query_one(GameLog).entries if not t.plain.startswith("──")]
        await app.shutdown()
        again = NetApp(address=f"127.0.0.1:{host.port}", name="Ann", pacing=(0.0, 0.0), browse=None)
        async with again.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: at_table(again), what="the table again")
            await pilot.pause()
            told = [t.plain for t in again.table.query_one(GameLog).entries]
            dealt = [line for line in before if "deals" in line or "starting card" in line]
            assert dealt and all(line in told for line in dealt), (before, told)
            assert "You draw" in "\n".join(told)
        await again.shutdown()
    finally:
        await app.shutdown()
        await host.close()


async def test_the_lobby_wraps_the_join_address_at_80x24() -> None:
    from net import Host, HostConfig

    host = Host(HostConfig(seats=3, bots=0, name="Hal", seed=1, heartbeat=1.0))
    app = NetApp(host=host, name="Hal", bind="127.0.0.1", port=0, mdns=False, pacing=(0.0, 0.0), browse=None)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.session is not None and app.session.lobby is not None, what="the lobby")
            await pilot.pause()
            chat = app.lobby_screen.query_one("#lobby-chat")
            width = chat.scrollable_content_region.width
            assert all(strip.cell_length <= width for strip in chat.lines)
            text = "".join(strip.text.strip() for strip in chat.lines)
            assert host.address("127.0.0.1") in text  # whole, on two lines rather than cut
    finally:
        await app.shutdown()
