"""``uno-tui serve --web``: a real browser (headless Chromium) opens the page and plays a card.

The browser test is skipped where no Chromium is installed (Debian: ``apt-get install chromium``);
the others speak the page's websocket protocol with aiohttp's client.
What the page's terminal receives is read back through the DevTools
protocol (the websocket frames it gets) into a terminal emulator, so the
test reads the screen the browser draws. With ``UNO_TUI_SCREENSHOTS=1`` the
table is also saved as ``screenshots/web-table.png``.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any, Callable

import pytest

from cdp_support import Browser, find_browser
from serve_support import WAIT, Terminal, hand_labels, open_table, play_a_card, running
from uno_tui.widgets.cards import card_text

BROWSER = find_browser()
needs_browser = pytest.mark.skipif(BROWSER is None, reason="no Chromium here: the browser test needs one "
                                                           "(Debian: apt-get install chromium)")
SCREENSHOT = Path(__file__).resolve().parents[1] / "screenshots" / "web-table.png"


class BrowserPlayer:
    """A person at the web page: keys through the browser, the screen from what its terminal receives."""

    def __init__(self, browser: Browser, server: Any) -> None:
        self.browser = browser
        self.server = server
        self.terminal = Terminal(80, 24)
        self._keys: asyncio.Queue[str] = asyncio.Queue()
        self._typist = asyncio.ensure_future(self._type())
        browser.on_frame = self._frame

    def _frame(self, data: bytes) -> None:
        session = next((s for s in self.server.sessions if s.kind == "web"), None)
        if session is not None and session.size != (self.terminal.screen.columns, self.terminal.screen.lines):
            self.terminal.resize(*session.size)  # the page fits its terminal to the window and says so
        self.terminal.feed(data)

    async def _type(self) -> None:
        while True:
            await self.browser.key(await self._keys.get())

    def press(self, *keys: str) -> None:
        for key in keys:
            self._keys.put_nowait(key)

    async def wait(self, cond: Callable[[], Any] | str, timeout: float = WAIT, what: str = "") -> Any:
        return await self.terminal.wait(cond, timeout, what)

    def text(self) -> str:
        return self.terminal.text()

    def close(self) -> None:
        self._typist.cancel()


@needs_browser
async def test_a_browser_logs_in_opens_a_table_and_plays_a_card_by_keys(tmp_path: Path) -> None:
    assert BROWSER is not None
    async with running(tmp_path, web_port=0) as server:
        browser = await Browser(BROWSER, tmp_path / "profile", size=(1200, 760)).start()
        player = BrowserPlayer(browser, server)
        try:
            await browser.open(f"http://127.0.0.1:{server.web_port}/")
            await player.wait("The name the other players will see")
            await browser.focus_terminal()  # as a click in the page would
            player.press("w", "e", "s", "enter")
            await player.wait("Hello, wes")
            await player.wait("could see your hand")  # the fairness notice, in the browser too
            await open_table(player, seats=2, bots=1)  # type: ignore[arg-type]
            table = next(iter(server.room.tables.values()))
            assert table.owner.name == "wes"
            player.press("r")
            await player.wait("Your hand", what="the table in the browser")
            card = await play_a_card(player, table.host, 0)  # type: ignore[arg-type]
            assert any(c["id"] == card["id"] for c in table.host.game.observation(0)["discard"])
            await player.wait(lambda: hand_labels(player) == sorted(  # type: ignore[arg-type]
                card_text(c) for c in table.host.game.observation(0)["hand"]), what="the hand after the play")
            png = await browser.screenshot(tmp_path / "web-table.png")
            assert png.startswith(b"\x89PNG") and len(png) > 10_000
            if os.environ.get("UNO_TUI_SCREENSHOTS"):
                SCREENSHOT.write_bytes(png)
        finally:
            player.close()
            await browser.close()
        await asyncio.wait_for(_until_no_sessions(server), WAIT)


async def _until_no_sessions(server: Any) -> None:
    while server.sessions:  # the tab closed with the browser: its session ends
        await asyncio.sleep(0.02)


async def test_the_page_asks_the_password_and_refuses_other_sites(tmp_path: Path) -> None:
    import aiohttp

    async with running(tmp_path, web_port=0, password="sesame") as server:
        base = f"http://127.0.0.1:{server.web_port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/") as page:
                assert f'data-session-websocket-url="ws://127.0.0.1:{server.web_port}/ws"' in await page.text()
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(base + "/ws", headers={"Origin": "http://elsewhere.example"})
            ws = await http.ws_connect(base + "/ws?width=80&height=24")
            screen = Terminal(80, 24)

            async def listen() -> None:
                async for message in ws:
                    if message.type == aiohttp.WSMsgType.BINARY:
                        screen.feed(message.data)

            listening = asyncio.ensure_future(listen())
            await screen.wait("The name the other players will see")
            await ws.send_json(["stdin", "wes\r"])
            await screen.wait("This server's password")
            await ws.send_json(["stdin", "guess\r"])
            await screen.wait("is not this server's password")
            assert next(iter(server.sessions)).person is None
            await ws.send_json(["stdin", "sesame\r"])
            await screen.wait("Hello, wes")
            assert next(iter(server.sessions)).person.name == "wes"
            await ws.close()
            listening.cancel()
