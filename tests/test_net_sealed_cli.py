"""The sealed table's commands (``host --headless --sealed``, ``bot --sealed``) and its links."""

from __future__ import annotations

import asyncio
import socket

import pytest

import core
from net.identity import Identity
from net.secure import HandshakeError
from net.sealing import SealedClient, SealedHost


def test_the_sealed_host_and_bot_commands_play_a_round(capsys: pytest.CaptureFixture[str]) -> None:
    """``host --headless --sealed`` and ``bot --sealed`` as functions (the commands call them)."""
    import threading

    from net.sealing.serve import run_sealed_host

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    got: dict[str, int] = {}
    t = threading.Thread(target=lambda: got.update(host=run_sealed_host(
        variant="classic", seats=3, bots=1, rounds=1, bind="127.0.0.1", port=port)))
    t.start()
    try:
        bots = [threading.Thread(target=lambda i=i: got.update({f"bot{i}": _retrying_bot(port)})) for i in range(2)]
        for b in bots:
            b.start()
        for b in bots:
            b.join(120)
    finally:
        t.join(120)
    assert got == {"host": 0, "bot0": 0, "bot1": 0}
    out = capsys.readouterr().out
    assert out.count("round 1: 3 verdicts, every audit clean") == 3


def _retrying_bot(port: int) -> int:
    import time

    from net.sealing.serve import run_sealed_bot

    for _ in range(200):  # the host thread may not be listening yet
        try:
            socket_ok = __import__("socket").create_connection(("127.0.0.1", port), timeout=1)
            socket_ok.close()
            break
        except OSError:
            time.sleep(0.05)
    return run_sealed_bot(f"127.0.0.1:{port}")


@pytest.mark.parametrize("argv,words", [
    (["host", "--sealed", "--seats", "3", "--bots", "3"], "the host plays a seat"),
    *[(["host", "--headless", "--sealed", "--variant", v, "--seats", "3"], "cannot be played sealed")
      for v in sorted(core.VARIANTS) if not core.variant_class(v).sealable][:1],
    (["host", "--headless", "--sealed", "--seats", "3", "--bots", "5"], "--bots must be"),
])
def test_the_sealed_host_command_refuses_what_it_cannot_do(argv: list[str], words: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from uno_tui.cli import main

    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_a_client_refuses_a_host_whose_key_is_not_the_address_s_fingerprint() -> None:
    async def main() -> None:
        host = SealedHost(variant="classic", seats=2, people=1, identity=Identity.generate())
        port = await host.start()
        try:
            with pytest.raises(HandshakeError) as caught:
                await SealedClient().run("127.0.0.1", port, fingerprint="00000000")
            assert caught.value.code == "fingerprint"
        finally:
            await host.close()

    asyncio.run(main())


def test_join_sealed_needs_an_address(capsys: pytest.CaptureFixture[str]) -> None:
    from uno_tui.cli import main

    assert main(["join", "--sealed"]) == 2
    assert "needs the table's ADDRESS" in capsys.readouterr().err
