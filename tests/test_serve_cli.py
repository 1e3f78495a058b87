"""The ``uno-tui serve`` command: its arguments, its banner, and OpenSSH's ``ssh`` in a real pty.

The OpenSSH tests are skipped where ``ssh`` is not installed (Debian:
``apt-get install openssh-client``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import shutil
import signal
import socket
import struct
import sys
import termios
from pathlib import Path
from typing import AsyncIterator

import asyncssh
import pytest

from serve_support import WAIT, Terminal
from uno_tui.cli import main

SSH = shutil.which("ssh")
needs_ssh = pytest.mark.skipif(SSH is None, reason="OpenSSH's ssh is not installed (Debian: openssh-client)")


@pytest.mark.parametrize("argv, words", [
    (["serve"], "--ssh PORT"),
    (["serve", "--ssh", "70000"], "a port is 1 to 65535"),
    (["serve", "--ssh", "2222", "--web", "2222"], "different ports"),
    (["serve", "--ssh", "2222", "--max-sessions", "0"], "must be 1 or more"),
    (["serve", "--ssh", "2222", "--idle-timeout", "soon"], "not a number of seconds"),
    (["serve", "--ssh", "2222", "--authorized-keys", "/nonexistent/keys"], "--authorized-keys"),
    (["serve", "--ssh", "2222", "--password", ""], "must not be empty"),
])
def test_bad_arguments_say_what_is_wrong_and_exit_2(argv: list[str], words: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert words in capsys.readouterr().err


def test_a_port_in_use_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(["serve", "--ssh", str(port), "--bind", "127.0.0.1", "--host-key", str(tmp_path / "key")])
    assert status == 1
    assert f"already in use on 127.0.0.1 (--ssh {port}): choose another" in capsys.readouterr().err


def test_the_web_with_keys_only_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_public_key())
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--ssh", "2222", "--web", "8080", "--authorized-keys", str(keys)])
    assert stop.value.code == 2
    assert "a browser has no SSH key" in capsys.readouterr().err


@contextlib.asynccontextmanager
async def serve_command(tmp_path: Path, *args: str, port: int = 0) -> AsyncIterator[tuple[int, list[str]]]:
    """``uno-tui serve --ssh PORT ...`` as a process; (its SSH port, its banner). Stopped with ctrl+c after."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "uno_tui", "serve", "--ssh", str(port), "--bind", "127.0.0.1", "--bot-delay", "0",
        "--host-key", str(tmp_path / "host_key"), *args, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    banner: list[str] = []
    try:
        while not any("ctrl+c stops the server" in line for line in banner):
            line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
            assert line, "uno-tui serve ended before it was ready: " + (await proc.stderr.read()).decode()  # type: ignore[union-attr]
            banner.append(line)
        port = int(re.search(r"SSH on 127\.0\.0\.1:(\d+)", banner[0]).group(1))  # type: ignore[union-attr]
        yield port, banner
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
        out = await asyncio.wait_for(proc.stdout.read(), 30)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
        assert b"stopped" in out


async def run_ssh(port: int, tmp_path: Path, *options: str, keys: list[str] = (), known: str = "accept-new",
                  size: tuple[int, int] = (80, 24)) -> tuple[asyncio.subprocess.Process, Terminal, int]:
    """OpenSSH's ssh on a pty of ``size``; the process, its screen, and the pty's master end."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    key = tmp_path / "id_ed25519"
    if not key.exists():
        key.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
        key.chmod(0o600)
    proc = await asyncio.create_subprocess_exec(
        SSH, "-F", "/dev/null", "-p", str(port), "-i", str(key), "-o", "IdentitiesOnly=yes",
        "-o", f"StrictHostKeyChecking={known}", "-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}",
        "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no", *options, "zoe@127.0.0.1",
        stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
        env=dict(os.environ, TERM="xterm-256color"))
    os.close(slave)
    screen = Terminal(*size)
    os.set_blocking(master, False)
    loop = asyncio.get_running_loop()

    def readable() -> None:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if data:
            screen.feed(data)
        else:
            loop.remove_reader(master)
            screen.closed = True
            screen.changed.set()

    loop.add_reader(master, readable)
    return proc, screen, master


@needs_ssh
async def test_openssh_reaches_the_menu_and_leaves_and_the_host_key_stays(tmp_path: Path) -> None:
    async with serve_command(tmp_path) as (port, banner):
        assert any("open: anyone who can reach the port may play" in line for line in banner)
        proc, screen, master = await run_ssh(port, tmp_path, "-tt")
        await screen.wait("Hello, zoe")
        await screen.wait("could see your hand")
        os.write(master, b"q")
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0
        # Without a terminal: a sentence, and a failed exit.
        proc, screen, _ = await run_ssh(port, tmp_path, "-T")
        await screen.wait(lambda: "uno-tui needs a terminal" in screen.plain())
        assert await asyncio.wait_for(proc.wait(), WAIT) == 1
        # ... also when its input ends at once (ssh sends that before the session has started), and for a
        # command: the sentence and the status still come.
        for extra in (["-T"], ["ls"]):
            quick = await asyncio.create_subprocess_exec(
                SSH, "-F", "/dev/null", "-p", str(port), "-i", str(tmp_path / "id_ed25519"), "-o", "IdentitiesOnly=yes",
                "-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}", "-o", "PasswordAuthentication=no",
                "-o", "KbdInteractiveAuthentication=no", "zoe@127.0.0.1", *extra, stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
            out, _ = await asyncio.wait_for(quick.communicate(), WAIT)
            assert b"uno-tui needs a terminal" in out or b"not commands" in out, out
            assert quick.returncode == 1
    # The server comes back with the same host key: a known_hosts entry that must match still does.
    async with serve_command(tmp_path, port=port) as (port, _):
        proc, screen, master = await run_ssh(port, tmp_path, "-tt", known="yes")
        await screen.wait("Hello, zoe")
        os.write(master, b"\x11")  # ctrl+q leaves from the menu too
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0
