"""The web front: the same menu and tables in a browser tab, for friends without a terminal.

The page, its terminal (xterm.js) and its fonts are textual-serve's
(``textual_serve.server.Server``: its template and static files, served by
aiohttp as it serves them). What runs behind the page's websocket is ours:
where textual-serve starts a new app process per tab speaking Textual's web
driver protocol, each tab here gets a :class:`~.terminal.TerminalSession`,
the very same as an SSH session's (a session process on a pty of its own,
forked warm, sized and resized by the page). The page sends
``["stdin", text]``, ``["resize", {width, height}]`` and ``["ping", x]``
and draws the bytes it receives.

A browser has no ``ssh NAME@``: its menu first asks for a name (and the
server's password, when there is one).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections import deque
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from textual_serve.server import Server

from .terminal import Hub, TerminalSession


log = logging.getLogger("uno_tui.serve")

HIGH_WATER = 256 * 1024
"""Bytes waiting for a slow browser before its session's output is paused."""
LOW_WATER = 32 * 1024
MAX_MESSAGE = 64 * 1024
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")


def _number(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


class _Socket:
    """A :class:`~.terminal.Transport` over a websocket, with its own send queue."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: TerminalSession | None = None
        self._queue: deque[bytes] = deque()
        self._queued = 0
        self._paused = False
        self._wake = asyncio.Event()
        self._closing: int | None = None
        self._task = asyncio.ensure_future(self._pump())

    def write(self, data: bytes) -> None:
        if self._closing is not None:
            return
        self._queue.append(data)
        self._queued += len(data)
        if self._queued > HIGH_WATER and not self._paused and self.session is not None:
            self._paused = True
            self.session.pause_output()
        self._wake.set()

    def close(self, status: int) -> None:
        self._closing = status
        self._wake.set()

    async def _pump(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    data = b"".join(self._queue)
                    self._queue.clear()
                    await self.ws.send_bytes(data)
                    self._queued -= len(data)
                    if self._paused and self._queued < LOW_WATER and self.session is not None:
                        self._paused = False
                        self.session.resume_output()
                if self._closing is not None:
                    await self.ws.close()
                    return
        except (ConnectionError, RuntimeError):  # the browser has gone
            if self.session is not None:
                self.session.hangup()

    async def finish(self) -> None:
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(asyncio.shield(self._task), 2)
        self._task.cancel()


class WebFront:
    """The web listener: textual-serve's page, our sessions."""

    def __init__(self, server: Hub) -> None:
        self.server = server
        self.page = Server("uno-tui", title="uno-tui")  # its template and static files
        self._runner: web.AppRunner | None = None

    async def start(self, bind: str, port: int) -> int:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.page.templates_path))
        app.add_routes([
            web.get("/", self.index, name="index"),
            web.get("/ws", self.websocket, name="websocket"),
            web.static("/static", self.page.statics_path, name="static"),
        ])
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, bind or None, port)
        await site.start()
        return int(self._runner.addresses[0][1])

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def index(self, request: web.Request) -> web.Response:
        """textual-serve's page, pointed at this host as the browser named it."""
        host = request.host if _HOST.match(request.host or "") else f"{self.server.public_host}:{self.server.web_port}"
        secure = request.scheme == "https"
        context = {
            "font_size": _number(request.query.get("fontsize"), 16),
            "app_websocket_url": f"{'wss' if secure else 'ws'}://{host}/ws",
            "config": {"static": {"url": f"{request.scheme}://{host}/static/"}},
            "application": {"name": "uno-tui"},
            "ping_url": "",
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin and urlsplit(origin).netloc != request.host:
            return web.Response(status=403, text="this page belongs to another site")  # no cross-site sessions
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        width = _number(request.query.get("width"), 80)
        height = _number(request.query.get("height"), 24)
        transport = _Socket(ws)
        session = TerminalSession(self.server, transport, kind="web", person=None, term="xterm-256color",
                                  size=(width, height), env={"COLORTERM": "truecolor"})
        transport.session = session
        run = asyncio.ensure_future(session.run())
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(envelope, list) or len(envelope) < 2:
                    continue
                kind, data = envelope[0], envelope[1]
                if kind == "stdin" and isinstance(data, str):
                    session.feed(data.encode("utf-8", "replace"))
                elif kind == "resize" and isinstance(data, dict):
                    session.resize(_number(data.get("width"), 80), _number(data.get("height"), 24))
                elif kind == "ping":
                    await ws.send_json(["pong", data])
                if run.done():
                    break
        finally:
            session.hangup()
            await run
            await transport.finish()
        return ws
