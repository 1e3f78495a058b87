"""A headless Chromium driven over the DevTools protocol (CDP), for the web tests.

No browser is downloaded: this starts the system's Chromium (Debian's
``chromium`` package) and speaks CDP to it over a websocket with aiohttp,
which the web front already brings. Only what the tests need: open a page,
press keys, hear the page's websocket frames, take a screenshot.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import shutil
from pathlib import Path
from typing import Any, Callable

import aiohttp

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--mute-audio", "--hide-scrollbars")

# Key events as CDP takes them: (key, code, windowsVirtualKeyCode, text).
KEYS: dict[str, tuple[str, str, int, str]] = {
    "enter": ("Enter", "Enter", 13, "\r"), "escape": ("Escape", "Escape", 27, ""),
    "up": ("ArrowUp", "ArrowUp", 38, ""), "down": ("ArrowDown", "ArrowDown", 40, ""),
    "left": ("ArrowLeft", "ArrowLeft", 37, ""), "right": ("ArrowRight", "ArrowRight", 39, ""),
    "space": (" ", "Space", 32, " "),
}


def find_browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


class Browser:
    """One headless Chromium with one page; ``on_frame`` hears each binary websocket frame the page gets."""

    def __init__(self, path: str, profile: Path, size: tuple[int, int] = (1280, 800)) -> None:
        self.path = path
        self.profile = profile
        self.size = size
        self.on_frame: Callable[[bytes], None] | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._http: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._session: str | None = None
        self.loaded = asyncio.Event()

    async def start(self) -> "Browser":
        self._proc = await asyncio.create_subprocess_exec(
            self.path, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
            f"--window-size={self.size[0]},{self.size[1]}", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        assert self._proc.stderr is not None
        url = None
        while url is None:  # Chromium says where its DevTools listen on stderr
            line = await asyncio.wait_for(self._proc.stderr.readline(), 30)
            if not line:
                raise RuntimeError("chromium exited before its DevTools were up")
            text = line.decode(errors="replace").strip()
            if text.startswith("DevTools listening on "):
                url = text.removeprefix("DevTools listening on ")
        asyncio.ensure_future(self._drain_stderr())
        self._http = aiohttp.ClientSession()
        self._ws = await self._http.ws_connect(url, max_msg_size=0)
        self._reader = asyncio.ensure_future(self._read())
        target = await self.send("Target.createTarget", {"url": "about:blank"})
        attached = await self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
        self._session = attached["sessionId"]
        for domain in ("Page", "Network", "Runtime"):
            await self.send(f"{domain}.enable")
        return self

    async def _drain_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        while await self._proc.stderr.readline():
            pass

    async def _read(self) -> None:
        assert self._ws is not None
        async for message in self._ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            future = self._waiting.pop(data.get("id", -1), None)
            if future is not None:
                if "error" in data:
                    future.set_exception(RuntimeError(f"CDP: {data['error']}"))
                else:
                    future.set_result(data.get("result", {}))
            elif data.get("method") == "Network.webSocketFrameReceived":
                frame = data["params"]["response"]
                if frame.get("opcode") == 2 and self.on_frame is not None:
                    self.on_frame(base64.b64decode(frame["payloadData"]))
            elif data.get("method") == "Page.loadEventFired":
                self.loaded.set()

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self._ws is not None
        msg_id = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[msg_id] = future
        message: dict[str, Any] = {"id": msg_id, "method": method, "params": params or {}}
        if self._session is not None and not method.startswith("Target."):
            message["sessionId"] = self._session
        await self._ws.send_str(json.dumps(message))
        return await asyncio.wait_for(future, 30)

    async def open(self, url: str) -> None:
        self.loaded.clear()
        await self.send("Page.navigate", {"url": url})
        await asyncio.wait_for(self.loaded.wait(), 30)

    async def focus_terminal(self) -> None:
        """Put the keyboard focus in the page's terminal (xterm.js listens on a hidden textarea)."""
        await self.send("Runtime.evaluate", {"expression": "document.querySelector('.xterm-helper-textarea').focus()"})

    async def key(self, name: str) -> None:
        """A key press as the page's terminal hears it: a name from :data:`KEYS`, ``ctrl+X``, or a character."""
        modifiers = 0
        if name.startswith("ctrl+"):
            modifiers, name = 2, name[5:]
        if name in KEYS:
            key, code, vk, text = KEYS[name]
        else:
            key, code, vk, text = name, f"Key{name.upper()}", ord(name.upper()), name
        if modifiers:
            text = ""
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code,
                "windowsVirtualKeyCode": vk, "modifiers": modifiers}
        if text:
            down["text"] = text
        await self.send("Input.dispatchKeyEvent", down)
        await self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code,
                                                   "windowsVirtualKeyCode": vk, "modifiers": modifiers})

    async def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode((await self.send("Page.captureScreenshot", {"format": "png"}))["data"])
        path.write_bytes(data)
        return data

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._http is not None:
            await self._http.close()
        if self._proc is not None and self._proc.returncode is None:
            self._proc.terminate()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._proc.wait(), 10)
            if self._proc.returncode is None:
                self._proc.kill()
                await self._proc.wait()
